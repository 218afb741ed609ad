//! Primitive types in C#: value types (C#'s own unsigned types: `byte`, `ushort`, `uint`,
//! `ulong`), loads and stores through the namespace's `SbeWire` (the schema's byte order,
//! explicit shifts over a `byte[]`), literals, null tests and string literals.

use sbekit_codegen_managed::{string_literal, Values};
use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::literal::{int_digits, FloatLiteral};
use sbekit_plan::Slot;

use crate::dialect::CSharp;

/// The `SbeWire` method suffix of a multi-byte type.
fn wire(ty: P) -> &'static str {
    match ty {
        P::Int16 => "I16",
        P::Uint16 => "U16",
        P::Int32 => "I32",
        P::Uint32 => "U32",
        P::Int64 => "I64",
        P::Uint64 => "U64",
        P::Float => "F32",
        _ => "F64",
    }
}

/// True for the one-byte types (read without `SbeWire`).
fn one_byte(ty: P) -> bool {
    matches!(ty, P::Char | P::Uint8 | P::None | P::Int8)
}

/// A `ulong` literal.
pub fn ulong_lit(v: u64) -> String {
    format!("{v}UL")
}

/// A float as C# writes it (`float` or `double` as `ty`, with its literal `suffix`; a negative
/// value in parentheses, as a cast's operand must be).
fn float_lit(f: FloatLiteral, ty: &str, suffix: &str) -> String {
    match f {
        FloatLiteral::Finite(t) if t.starts_with('-') => format!("({t}{suffix})"),
        FloatLiteral::Finite(t) => format!("{t}{suffix}"),
        FloatLiteral::Nan => format!("{ty}.NaN"),
        FloatLiteral::Infinity => format!("{ty}.PositiveInfinity"),
        FloatLiteral::NegInfinity => format!("{ty}.NegativeInfinity"),
    }
}

/// True for the signed integer types.
pub fn signed(ty: P) -> bool {
    matches!(ty, P::Int8 | P::Int16 | P::Int32 | P::Int64)
}

impl Values for CSharp {
    /// The C# type of one value.
    fn ty(&self, ty: P) -> &'static str {
        match ty {
            P::Char | P::Uint8 | P::None => "byte",
            P::Int8 => "sbyte",
            P::Int16 => "short",
            P::Uint16 => "ushort",
            P::Int32 => "int",
            P::Uint32 => "uint",
            P::Int64 => "long",
            P::Uint64 => "ulong",
            P::Float => "float",
            P::Double => "double",
        }
    }

    /// A load of a value of `ty` at `pos` of buffer `b`, as its C# type.
    fn load(&self, ty: P, b: &str, pos: &str) -> String {
        match ty {
            P::Int8 => format!("((sbyte) {b}[{pos}])"),
            _ if one_byte(ty) => format!("{b}[{pos}]"),
            _ => format!("SbeWire.{}({b}, {pos})", wire(ty)),
        }
    }

    /// A store statement (without `;`) of `val` (of the C# type of `ty`) at `pos` of `b`.
    fn store(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        if one_byte(ty) {
            format!("{b}[{pos}] = (byte) ({val})")
        } else {
            format!("SbeWire.Put{}({b}, {pos}, {val})", wire(ty))
        }
    }

    /// A store of the `long` expression `val` into an integer of type `ty` (its low bits).
    fn store_long(&self, ty: P, b: &str, pos: &str, val: &str) -> String {
        match ty {
            P::Float | P::Double => self.store(ty, b, pos, val),
            _ if one_byte(ty) => format!("{b}[{pos}] = unchecked((byte) ({val}))"),
            _ => format!(
                "SbeWire.Put{}({b}, {pos}, unchecked(({}) ({val})))",
                wire(ty),
                self.ty(ty)
            ),
        }
    }

    /// A slot's value as a `long` read at `pos` of `b` (unsigned types zero-extended; `uint64`
    /// as its bits).
    fn slot_load(&self, s: &Slot, b: &str, pos: &str) -> String {
        let pos = format!("{pos} + {}", s.offset);
        match s.ty {
            P::Uint64 => format!("unchecked((long) {})", self.load(s.ty, b, &pos)),
            P::Float | P::Double => "0L".into(),
            _ => format!("((long) {})", self.load(s.ty, b, &pos)),
        }
    }

    /// Stores the `long` expression `val` into a slot at `pos` of `b`.
    fn slot_store(&self, s: &Slot, b: &str, pos: &str, val: &str) -> String {
        self.store_long(s.ty, b, &format!("{pos} + {}", s.offset), val)
    }

    /// A value of type `ty` as a C# constant expression of its C# type ([`Values::ty`]).
    fn literal(&self, v: &PrimitiveValue, ty: P) -> String {
        let digits = int_digits(v, ty);
        match ty {
            P::Float => float_lit(FloatLiteral::value(v, ty), "float", "f"),
            P::Double => float_lit(FloatLiteral::value(v, ty), "double", "d"),
            P::Char | P::Uint8 | P::None | P::Uint16 => format!("(({}) {digits})", self.ty(ty)),
            P::Int8 | P::Int16 => format!("(({}) ({digits}))", self.ty(ty)),
            P::Int32 if digits == i32::MIN.to_string() => "int.MinValue".into(),
            P::Int32 if digits.starts_with('-') => format!("({digits})"),
            P::Int32 => digits,
            P::Uint32 => format!("{digits}U"),
            P::Int64 => {
                let l = self.long_lit(wire_bits(v, ty));
                if l.starts_with('-') {
                    format!("({l})")
                } else {
                    l
                }
            }
            P::Uint64 => ulong_lit(wire_bits(v, ty)),
        }
    }

    /// A test that `x` holds the null value `null` of type `ty`.
    fn is_null(&self, x: &str, null: &PrimitiveValue, ty: P) -> String {
        match ty {
            P::Float if null.as_f64().is_some_and(f64::is_nan) => format!("float.IsNaN({x})"),
            P::Double if null.as_f64().is_some_and(f64::is_nan) => format!("double.IsNaN({x})"),
            _ => format!("{x} == {}", self.literal(null, ty)),
        }
    }

    fn long_min(&self) -> &'static str {
        "long.MinValue"
    }

    /// Text as a C# string literal: ASCII printable kept, everything else escaped.
    fn str_lit(&self, s: &str) -> String {
        string_literal(s, false)
    }
}
