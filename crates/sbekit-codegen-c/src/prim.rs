//! Primitive types in C: value types, loads and stores, literals and null tests.

use crate::Ctx;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::literal::FloatLiteral;
use sbekit_plan::Slot;

/// The C type of one value.
pub fn cty(ty: P) -> &'static str {
    match ty {
        P::Char => "char",
        P::Int8 => "int8_t",
        P::Int16 => "int16_t",
        P::Int32 => "int32_t",
        P::Int64 => "int64_t",
        P::Uint8 | P::None => "uint8_t",
        P::Uint16 => "uint16_t",
        P::Uint32 => "uint32_t",
        P::Uint64 => "uint64_t",
        P::Float => "float",
        P::Double => "double",
    }
}

/// The runtime's short name of a type (`sbekit_get_<t>_le`).
fn short(ty: P) -> &'static str {
    match ty {
        P::Char => "char",
        P::Int8 => "i8",
        P::Int16 => "i16",
        P::Int32 => "i32",
        P::Int64 => "i64",
        P::Uint8 | P::None => "u8",
        P::Uint16 => "u16",
        P::Uint32 => "u32",
        P::Uint64 => "u64",
        P::Float => "f32",
        P::Double => "f64",
    }
}

/// True for `float` and `double`.
pub fn is_float(ty: P) -> bool {
    matches!(ty, P::Float | P::Double)
}

/// True for the signed integer types.
pub fn is_signed(ty: P) -> bool {
    matches!(ty, P::Int8 | P::Int16 | P::Int32 | P::Int64)
}

/// `sbekit_get_<t>_<order>(ptr)`.
pub fn load(ctx: &Ctx, ty: P, ptr: &str) -> String {
    format!("sbekit_get_{}_{}({ptr})", short(ty), ctx.order())
}

/// `sbekit_put_<t>_<order>(ptr, val)`.
pub fn store(ctx: &Ctx, ty: P, ptr: &str, val: &str) -> String {
    format!("sbekit_put_{}_{}({ptr}, {val})", short(ty), ctx.order())
}

/// A slot's value as a `size_t` read at `base + offset`.
pub fn slot_load(ctx: &Ctx, s: &Slot, base: &str) -> String {
    format!(
        "(size_t){}",
        load(ctx, s.ty, &format!("{base} + {}", s.offset))
    )
}

/// Stores the `size_t` expression `val` into a slot at `base + offset`.
pub fn slot_store(ctx: &Ctx, s: &Slot, base: &str, val: &str) -> String {
    store(
        ctx,
        s.ty,
        &format!("{base} + {}", s.offset),
        &format!("({})({val})", cty(s.ty)),
    )
}

/// An unsigned integer literal of any size.
pub fn ulit(v: u64) -> String {
    if v <= u64::from(u32::MAX) {
        format!("{v}u")
    } else {
        format!("UINT64_C({v})")
    }
}

pub use sbekit_plan::literal::int_digits;

/// A float as C writes it (`float` or `double` as `ty`, with its literal `suffix`).
fn float_lit(f: FloatLiteral, ty: &str, suffix: &str) -> String {
    match f {
        FloatLiteral::Finite(t) => format!("{t}{suffix}"),
        FloatLiteral::Nan => format!("(({ty})NAN)"),
        FloatLiteral::Infinity => format!("(({ty})INFINITY)"),
        FloatLiteral::NegInfinity => format!("(({ty})-INFINITY)"),
    }
}

/// A value of type `ty` as a C constant expression of that type.
pub fn literal(v: &PrimitiveValue, ty: P) -> String {
    match ty {
        P::Float => float_lit(FloatLiteral::value(v, ty), "float", "f"),
        P::Double => float_lit(FloatLiteral::value(v, ty), "double", ""),
        P::Int64 if int_digits(v, ty) == i64::MIN.to_string() => "INT64_MIN".into(),
        P::Int64 => format!("INT64_C({})", int_digits(v, ty)),
        P::Uint64 => format!("UINT64_C({})", int_digits(v, ty)),
        P::Int32 if int_digits(v, ty) == i32::MIN.to_string() => "INT32_MIN".into(),
        P::Uint32 => format!("(uint32_t){}u", int_digits(v, ty)),
        _ => format!("({}){}", cty(ty), int_digits(v, ty)),
    }
}

/// A test that `x` holds the null value `null` of type `ty`.
pub fn is_null(x: &str, null: &PrimitiveValue, ty: P) -> String {
    if is_float(ty) && null.as_f64().is_some_and(f64::is_nan) {
        format!("isnan({x})")
    } else {
        format!("{x} == {}", literal(null, ty))
    }
}

/// Text as a C string literal (every byte outside printable ASCII as a 3-digit octal escape).
pub fn c_str(s: &str) -> String {
    c_bytes(s.as_bytes())
}

/// Bytes as a C string literal.
pub fn c_bytes(b: &[u8]) -> String {
    let mut out = String::from("\"");
    for &c in b {
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(char::from(c)),
            _ => out.push_str(&format!("\\{c:03o}")),
        }
    }
    out.push('"');
    out
}
