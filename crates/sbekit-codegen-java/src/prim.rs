//! Primitive types in Java: value types (the reference's mapping: unsigned types widened to the
//! next signed type, `uint64` in a `long`), Agrona loads and stores in the schema's byte order,
//! literals, null tests and string literals.

use sbekit_codegen_managed::{string_literal, Values};
use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::Slot;

use crate::dialect::Java;

/// The byte order argument of every multi-byte load and store.
pub const BO: &str = "SbeSchema.BYTE_ORDER";

fn float_lit(x: f64, double: bool) -> String {
    let (cls, suffix) = if double {
        ("Double", "")
    } else {
        ("Float", "f")
    };
    if x.is_nan() {
        format!("{cls}.NaN")
    } else if x.is_infinite() {
        let s = if x > 0.0 { "POSITIVE" } else { "NEGATIVE" };
        format!("{cls}.{s}_INFINITY")
    } else {
        let mut t = if double {
            format!("{x:?}")
        } else {
            format!("{:?}", x as f32)
        };
        if !t.contains(['.', 'e', 'E']) {
            t.push_str(".0");
        }
        format!("{t}{suffix}")
    }
}

impl Values for Java {
    /// The Java type of one value.
    fn ty(&self, ty: P) -> &'static str {
        match ty {
            P::Char | P::Int8 => "byte",
            P::Uint8 | P::Int16 | P::None => "short",
            P::Uint16 | P::Int32 => "int",
            P::Uint32 | P::Int64 | P::Uint64 => "long",
            P::Float => "float",
            P::Double => "double",
        }
    }

    /// A load of a value of `ty` at `pos` of buffer `b`, as its Java type.
    fn load(&self, ty: P, b: &str, pos: &str) -> String {
        match ty {
            P::Char | P::Int8 => format!("{b}.getByte({pos})"),
            P::Uint8 | P::None => format!("((short) ({b}.getByte({pos}) & 0xFF))"),
            P::Int16 => format!("{b}.getShort({pos}, {BO})"),
            P::Uint16 => format!("({b}.getShort({pos}, {BO}) & 0xFFFF)"),
            P::Int32 => format!("{b}.getInt({pos}, {BO})"),
            P::Uint32 => format!("({b}.getInt({pos}, {BO}) & 0xFFFF_FFFFL)"),
            P::Int64 | P::Uint64 => format!("{b}.getLong({pos}, {BO})"),
            P::Float => format!("{b}.getFloat({pos}, {BO})"),
            P::Double => format!("{b}.getDouble({pos}, {BO})"),
        }
    }

    /// A store of `val` (of the Java type of `ty`, or a narrower integer type) at `pos` of `b`.
    fn store(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        match ty {
            P::Char | P::Int8 => format!("{b}.putByte({pos}, {val})"),
            P::Uint8 | P::None => format!("{b}.putByte({pos}, (byte) ({val}))"),
            P::Int16 => format!("{b}.putShort({pos}, {val}, {BO})"),
            P::Uint16 => format!("{b}.putShort({pos}, (short) ({val}), {BO})"),
            P::Int32 => format!("{b}.putInt({pos}, {val}, {BO})"),
            P::Uint32 => format!("{b}.putInt({pos}, (int) ({val}), {BO})"),
            P::Int64 | P::Uint64 => format!("{b}.putLong({pos}, {val}, {BO})"),
            P::Float => format!("{b}.putFloat({pos}, {val}, {BO})"),
            P::Double => format!("{b}.putDouble({pos}, {val}, {BO})"),
        }
    }

    /// A store of the `long` expression `val` into an integer of type `ty` (its low bits).
    fn store_long(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        match ty {
            P::Char | P::Int8 | P::Uint8 | P::None => format!("{b}.putByte({pos}, (byte) ({val}))"),
            P::Int16 | P::Uint16 => format!("{b}.putShort({pos}, (short) ({val}), {BO})"),
            P::Int32 | P::Uint32 => format!("{b}.putInt({pos}, (int) ({val}), {BO})"),
            _ => format!("{b}.putLong({pos}, {val}, {BO})"),
        }
    }

    /// A slot's value as a `long` read at `pos` of `b` (unsigned types zero-extended).
    fn slot_load(&self, s: &Slot, b: &str, pos: &str) -> String {
        let pos = format!("{pos} + {}", s.offset);
        match s.ty {
            P::Uint8 | P::Char | P::None => format!("({b}.getByte({pos}) & 0xFFL)"),
            P::Int8 => format!("((long) {b}.getByte({pos}))"),
            P::Uint16 => format!("({b}.getShort({pos}, {BO}) & 0xFFFFL)"),
            P::Int16 => format!("((long) {b}.getShort({pos}, {BO}))"),
            P::Uint32 => format!("({b}.getInt({pos}, {BO}) & 0xFFFF_FFFFL)"),
            P::Int32 => format!("((long) {b}.getInt({pos}, {BO}))"),
            _ => format!("{b}.getLong({pos}, {BO})"),
        }
    }

    /// Stores the `long` expression `val` into a slot at `pos` of `b`.
    fn slot_store(&self, s: &Slot, b: &str, pos: &str, val: &str) -> String {
        self.store_long(s.ty, b, &format!("{pos} + {}", s.offset), val)
    }

    /// A value of type `ty` as a Java constant expression of its Java type ([`Values::ty`]).
    fn literal(&self, v: &PrimitiveValue, ty: P) -> String {
        let bits = wire_bits(v, ty);
        match ty {
            P::Float => float_lit(f64::from(v.as_f64().unwrap_or(f64::NAN) as f32), false),
            P::Double => float_lit(v.as_f64().unwrap_or(f64::NAN), true),
            P::Char | P::Int8 => format!("(byte) {}", bits as u8 as i8),
            P::Uint8 | P::None => format!("(short) {}", bits as u8),
            P::Int16 => format!("(short) {}", bits as u16 as i16),
            P::Uint16 => format!("{}", bits as u16),
            P::Int32 => {
                let i = bits as u32 as i32;
                if i == i32::MIN {
                    "Integer.MIN_VALUE".into()
                } else {
                    i.to_string()
                }
            }
            P::Uint32 => format!("{}L", bits as u32),
            P::Int64 | P::Uint64 => self.long_lit(bits),
        }
    }

    /// A test that `x` holds the null value `null` of type `ty`.
    fn is_null(&self, x: &str, null: &PrimitiveValue, ty: P) -> String {
        match ty {
            P::Float if null.as_f64().is_some_and(f64::is_nan) => format!("Float.isNaN({x})"),
            P::Double if null.as_f64().is_some_and(f64::is_nan) => format!("Double.isNaN({x})"),
            P::Float => format!("Float.compare({x}, {}) == 0", self.literal(null, ty)),
            P::Double => format!("Double.compare({x}, {}) == 0", self.literal(null, ty)),
            _ => format!("{x} == {}", self.literal(null, ty)),
        }
    }

    fn long_min(&self) -> &'static str {
        "Long.MIN_VALUE"
    }

    /// Text as a Java string literal: ASCII printable kept, everything else escaped (never a
    /// `\u` escape of a line terminator, quote or backslash, which javac reads before lexing).
    fn str_lit(&self, s: &str) -> String {
        string_literal(s, true)
    }
}
