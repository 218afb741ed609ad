//! Primitive types in Java: value types (the reference's mapping: unsigned types widened to the
//! next signed type, `uint64` in a `long`), Agrona loads and stores in the schema's byte order,
//! literals, null tests and string literals.

use sbekit_codegen_managed::{string_literal, Values};
use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::literal::{int_digits, FloatLiteral};
use sbekit_plan::Slot;

use crate::dialect::Java;

/// The byte order argument of every multi-byte load and store.
pub const BO: &str = "SbeSchema.BYTE_ORDER";

/// A float as Java writes it (`Float` or `Double` as `cls`, with its literal `suffix`).
fn float_lit(f: FloatLiteral, cls: &str, suffix: &str) -> String {
    match f {
        FloatLiteral::Finite(t) => format!("{t}{suffix}"),
        FloatLiteral::Nan => format!("{cls}.NaN"),
        FloatLiteral::Infinity => format!("{cls}.POSITIVE_INFINITY"),
        FloatLiteral::NegInfinity => format!("{cls}.NEGATIVE_INFINITY"),
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
        widened(s.ty, |width| match width {
            "Byte" => format!("{b}.getByte({pos})"),
            w => format!("{b}.get{w}({pos}, {BO})"),
        })
    }

    /// Stores the `long` expression `val` into a slot at `pos` of `b`.
    fn slot_store(&self, s: &Slot, b: &str, pos: &str, val: &str) -> String {
        self.store_long(s.ty, b, &format!("{pos} + {}", s.offset), val)
    }

    /// A value of type `ty` as a Java constant expression of its Java type ([`Values::ty`]).
    fn literal(&self, v: &PrimitiveValue, ty: P) -> String {
        let digits = int_digits(v, ty);
        match ty {
            P::Float => float_lit(FloatLiteral::value(v, ty), "Float", "f"),
            P::Double => float_lit(FloatLiteral::value(v, ty), "Double", ""),
            // A `char` is a Java `byte`: its code read signed.
            P::Char => format!("(byte) {}", wire_bits(v, ty) as u8 as i8),
            P::Int8 | P::Int16 => format!("({}) {digits}", self.ty(ty)),
            P::Uint8 | P::None => format!("(short) {digits}"),
            P::Int32 if digits == i32::MIN.to_string() => "Integer.MIN_VALUE".into(),
            P::Uint16 | P::Int32 => digits,
            P::Uint32 => format!("{digits}L"),
            P::Int64 | P::Uint64 => self.long_lit(wire_bits(v, ty)),
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

/// A load of an integer of `ty` as a `long` (unsigned types zero-extended), from `get`, the
/// expression that reads it as a Java `byte`, `short`, `int` or `long` (given `"Byte"`,
/// `"Short"`, `"Int"` or `"Long"`).
pub(crate) fn widened(ty: P, get: impl Fn(&str) -> String) -> String {
    match ty {
        P::Uint8 | P::Char | P::None => format!("({} & 0xFFL)", get("Byte")),
        P::Int8 => format!("((long) {})", get("Byte")),
        P::Uint16 => format!("({} & 0xFFFFL)", get("Short")),
        P::Int16 => format!("((long) {})", get("Short")),
        P::Uint32 => format!("({} & 0xFFFF_FFFFL)", get("Int")),
        P::Int32 => format!("((long) {})", get("Int")),
        _ => get("Long"),
    }
}
