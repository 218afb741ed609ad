//! Primitive types in Go: value types, loads and stores, literals and null tests.

use crate::Ctx;
use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::Slot;

/// The Go type of one value.
pub fn gty(ty: P) -> &'static str {
    match ty {
        P::Char | P::Uint8 | P::None => "byte",
        P::Int8 => "int8",
        P::Int16 => "int16",
        P::Int32 => "int32",
        P::Int64 => "int64",
        P::Uint16 => "uint16",
        P::Uint32 => "uint32",
        P::Uint64 => "uint64",
        P::Float => "float32",
        P::Double => "float64",
    }
}

/// True for `float` and `double`.
pub fn is_float(ty: P) -> bool {
    matches!(ty, P::Float | P::Double)
}

/// The unsigned type of the same width.
fn uty(ty: P) -> &'static str {
    match ty.size() {
        1 => "byte",
        2 => "uint16",
        4 => "uint32",
        _ => "uint64",
    }
}

/// The raw bits of a value of type `ty` at `b[off:]`, as the unsigned type of its width.
pub fn load_bits(ctx: &Ctx, ty: P, b: &str, off: &str) -> String {
    match ty.size() {
        1 => format!("{b}[{off}]"),
        n => format!("{}.Uint{}({b}[{off}:])", ctx.order(), n * 8),
    }
}

/// A value of type `ty` at `b[off:]`.
pub fn load(ctx: &Ctx, ty: P, b: &str, off: &str) -> String {
    let bits = load_bits(ctx, ty, b, off);
    match ty {
        P::Float => format!("math.Float32frombits({bits})"),
        P::Double => format!("math.Float64frombits({bits})"),
        _ if gty(ty) == uty(ty) => bits,
        _ => format!("{}({bits})", gty(ty)),
    }
}

/// A statement storing `val` (of type `ty`) at `b[off:]`.
pub fn store(ctx: &Ctx, ty: P, b: &str, off: &str, val: &str) -> String {
    let bits = match ty {
        P::Float => format!("math.Float32bits({val})"),
        P::Double => format!("math.Float64bits({val})"),
        _ if gty(ty) == uty(ty) => val.to_string(),
        _ => format!("{}({val})", uty(ty)),
    };
    match ty.size() {
        1 => format!("{b}[{off}] = {bits}"),
        n => format!("{}.PutUint{}({b}[{off}:], {bits})", ctx.order(), n * 8),
    }
}

/// A slot's value as a `uint64` read at `b[base+offset:]` (its constant when it has one).
pub fn slot_load(ctx: &Ctx, s: &Slot, b: &str, base: &str) -> String {
    if let Some(c) = s.constant {
        return format!("uint64({c})");
    }
    let off = plus(base, s.offset);
    let v = load_bits(ctx, s.ty, b, &off);
    if s.ty.size() == 8 {
        v
    } else {
        format!("uint64({v})")
    }
}

/// A statement storing the `int` expression `val` into a slot at `b[base+offset:]` (nothing for
/// a constant slot).
pub fn slot_store(ctx: &Ctx, s: &Slot, b: &str, base: &str, val: &str) -> Option<String> {
    if s.constant.is_some() {
        return None;
    }
    let off = plus(base, s.offset);
    Some(store(ctx, s.ty, b, &off, &format!("{}({val})", uty(s.ty))))
}

/// `base+k` as gofmt writes it inside an index (`base` when `k` is 0).
pub fn plus(base: &str, k: usize) -> String {
    if k == 0 {
        base.to_string()
    } else if base == "0" || base.is_empty() {
        k.to_string()
    } else {
        format!("{base}+{k}")
    }
}

pub use sbekit_plan::literal::int_digits;

/// A value of type `ty` as a Go expression of that type.
pub fn literal(v: &PrimitiveValue, ty: P) -> String {
    match ty {
        P::Float => format!("math.Float32frombits(0x{:08x})", wire_bits(v, ty) as u32),
        P::Double => format!("math.Float64frombits(0x{:016x})", wire_bits(v, ty)),
        _ => format!("{}({})", gty(ty), int_digits(v, ty)),
    }
}

/// A test that `x` (of type `ty`) holds the null value `null`.
pub fn is_null(x: &str, null: &PrimitiveValue, ty: P) -> String {
    if is_float(ty) && null.as_f64().is_some_and(f64::is_nan) {
        if ty == P::Float {
            format!("math.IsNaN(float64({x}))")
        } else {
            format!("math.IsNaN({x})")
        }
    } else if is_float(ty) {
        format!("{x} == {}", literal(null, ty))
    } else {
        format!("{x} == {}", int_digits(null, ty))
    }
}

/// Text as a Go string literal.
pub fn go_str(s: &str) -> String {
    go_bytes(s.as_bytes())
}

/// Bytes as a Go (interpreted) string literal.
pub fn go_bytes(b: &[u8]) -> String {
    let mut out = String::from("\"");
    for &c in b {
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(c)),
            _ => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push('"');
    out
}
