//! Primitive types in C++: value types, loads and stores, literals, null tests, and the JSON
//! text of schema values (constants and the null values of absent fields).

use crate::Ctx;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::literal::FloatLiteral;
use sbekit_plan::Slot;

/// The C++ type of one value.
pub fn cty(ty: P) -> &'static str {
    match ty {
        P::Char => "char",
        P::Int8 => "std::int8_t",
        P::Int16 => "std::int16_t",
        P::Int32 => "std::int32_t",
        P::Int64 => "std::int64_t",
        P::Uint8 | P::None => "std::uint8_t",
        P::Uint16 => "std::uint16_t",
        P::Uint32 => "std::uint32_t",
        P::Uint64 => "std::uint64_t",
        P::Float => "float",
        P::Double => "double",
    }
}

/// True for `float` and `double`.
pub fn is_float(ty: P) -> bool {
    matches!(ty, P::Float | P::Double)
}

/// `::sbekit::rt::load<T, BIG>(ptr)`.
pub fn load(ctx: &Ctx, ty: P, ptr: &str) -> String {
    format!("::sbekit::rt::load<{}, {}>({ptr})", cty(ty), ctx.big())
}

/// `::sbekit::rt::store<T, BIG>(ptr, val)`.
pub fn store(ctx: &Ctx, ty: P, ptr: &str, val: &str) -> String {
    format!(
        "::sbekit::rt::store<{}, {}>({ptr}, {val})",
        cty(ty),
        ctx.big()
    )
}

/// A slot's value as a `std::size_t` read at `base + offset`.
pub fn slot_load(ctx: &Ctx, s: &Slot, base: &str) -> String {
    format!(
        "static_cast<std::size_t>(::sbekit::rt::load_u64<{}, {}>({base} + {}))",
        cty(s.ty),
        ctx.big(),
        s.offset
    )
}

/// Stores the `std::size_t` expression `val` into a slot at `base + offset`.
pub fn slot_store(ctx: &Ctx, s: &Slot, base: &str, val: &str) -> String {
    store(
        ctx,
        s.ty,
        &format!("{base} + {}", s.offset),
        &format!("static_cast<{}>({val})", cty(s.ty)),
    )
}

pub use sbekit_plan::literal::int_digits;

/// A float as C++ writes it (`float` or `double` as `ty`, with its literal `suffix`).
fn float_lit(f: FloatLiteral, ty: &str, suffix: &str) -> String {
    match f {
        FloatLiteral::Finite(t) => format!("{t}{suffix}"),
        FloatLiteral::Nan => format!("std::numeric_limits<{ty}>::quiet_NaN()"),
        FloatLiteral::Infinity => format!("std::numeric_limits<{ty}>::infinity()"),
        FloatLiteral::NegInfinity => format!("-std::numeric_limits<{ty}>::infinity()"),
    }
}

/// A value of type `ty` as a C++ constant expression of that type.
pub fn literal(v: &PrimitiveValue, ty: P) -> String {
    match ty {
        P::Float => float_lit(FloatLiteral::value(v, ty), "float", "f"),
        P::Double => float_lit(FloatLiteral::value(v, ty), "double", ""),
        P::Int64 if int_digits(v, ty) == i64::MIN.to_string() => {
            "std::numeric_limits<std::int64_t>::min()".into()
        }
        P::Int64 => format!("static_cast<std::int64_t>({}LL)", int_digits(v, ty)),
        P::Uint64 => format!("static_cast<std::uint64_t>({}ULL)", int_digits(v, ty)),
        P::Int32 if int_digits(v, ty) == i32::MIN.to_string() => {
            "std::numeric_limits<std::int32_t>::min()".into()
        }
        _ => format!("static_cast<{}>({})", cty(ty), int_digits(v, ty)),
    }
}

/// A test that `x` holds the null value `null` of type `ty`.
pub fn is_null(x: &str, null: &PrimitiveValue, ty: P) -> String {
    if is_float(ty) && null.as_f64().is_some_and(f64::is_nan) {
        format!("std::isnan({x})")
    } else {
        format!("{x} == {}", literal(null, ty))
    }
}

/// Text as a C++ string literal (every byte outside printable ASCII as a 3-digit octal escape).
pub fn cpp_str(s: &str) -> String {
    cpp_bytes(s.as_bytes())
}

/// Bytes as a C++ string literal.
pub fn cpp_bytes(b: &[u8]) -> String {
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
