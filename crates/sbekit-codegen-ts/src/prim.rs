//! Primitive types in TypeScript: value types, DataView reads and writes, literals, null tests
//! and the JSON text of schema values.

use crate::Ctx;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::literal::FloatLiteral;
use sbekit_plan::Slot;

/// True for the 64-bit integers, which TypeScript holds as `bigint`.
pub fn is_big(ty: P) -> bool {
    matches!(ty, P::Int64 | P::Uint64)
}

/// True for `float` and `double`.
pub fn is_float(ty: P) -> bool {
    matches!(ty, P::Float | P::Double)
}

/// The TypeScript type of one value.
pub fn ts_type(ty: P) -> &'static str {
    if is_big(ty) {
        "bigint"
    } else {
        "number"
    }
}

fn accessor(ty: P) -> &'static str {
    match ty {
        P::Char | P::Uint8 | P::None => "Uint8",
        P::Int8 => "Int8",
        P::Int16 => "Int16",
        P::Int32 => "Int32",
        P::Int64 => "BigInt64",
        P::Uint16 => "Uint16",
        P::Uint32 => "Uint32",
        P::Uint64 => "BigUint64",
        P::Float => "Float32",
        P::Double => "Float64",
    }
}

/// `v.getUint16(pos, true)`: a read from the DataView `v`.
pub fn read(ctx: &Ctx, v: &str, ty: P, pos: &str) -> String {
    if ty.size() == 1 {
        format!("{v}.get{}({pos})", accessor(ty))
    } else {
        format!("{v}.get{}({pos}, {})", accessor(ty), ctx.le)
    }
}

/// `v.setUint16(pos, val, true)`: a write to the DataView `v`.
pub fn write(ctx: &Ctx, v: &str, ty: P, pos: &str, val: &str) -> String {
    if ty.size() == 1 {
        format!("{v}.set{}({pos}, {val})", accessor(ty))
    } else {
        format!("{v}.set{}({pos}, {val}, {})", accessor(ty), ctx.le)
    }
}

pub use sbekit_plan::literal::int_digits;

/// A float value as TypeScript source (`NaN`, `Infinity`, `35.9`): a `float` widened to a
/// `number` keeps the `double` digits of its value.
fn float_literal(x: f64) -> String {
    match FloatLiteral::of(x, false) {
        FloatLiteral::Finite(t) => t,
        FloatLiteral::Nan => "NaN".into(),
        FloatLiteral::Infinity => "Infinity".into(),
        FloatLiteral::NegInfinity => "-Infinity".into(),
    }
}

/// A value of type `ty` as TypeScript source (`255`, `-9223372036854775808n`, `NaN`).
pub fn literal(v: &PrimitiveValue, ty: P) -> String {
    match ty {
        P::Float => {
            let x = v.as_f64().unwrap_or(f64::NAN) as f32;
            float_literal(f64::from(x))
        }
        P::Double => float_literal(v.as_f64().unwrap_or(f64::NAN)),
        _ if is_big(ty) => format!("{}n", int_digits(v, ty)),
        _ => int_digits(v, ty),
    }
}

/// A test that `x` holds the null value `null` of type `ty`.
pub fn is_null(x: &str, null: &PrimitiveValue, ty: P) -> String {
    let lit = literal(null, ty);
    if lit == "NaN" {
        format!("Number.isNaN({x})")
    } else {
        format!("{x} === {lit}")
    }
}

/// A slot's value as a `number` expression read from the DataView `v` at `base + offset`.
pub fn slot_read(ctx: &Ctx, v: &str, slot: &Slot, base: &str) -> String {
    if let Some(c) = slot.constant {
        return c.to_string();
    }
    let r = read(ctx, v, slot.ty, &format!("{base} + {}", slot.offset));
    if is_big(slot.ty) {
        format!("Number({r})")
    } else {
        r
    }
}

/// Writes the `number` expression `val` into a slot (nothing for a constant slot).
pub fn slot_write(ctx: &Ctx, v: &str, slot: &Slot, base: &str, val: &str) -> Option<String> {
    if slot.constant.is_some() {
        return None;
    }
    let val = if is_big(slot.ty) {
        format!("BigInt({val})")
    } else {
        val.to_string()
    };
    Some(write(
        ctx,
        v,
        slot.ty,
        &format!("{base} + {}", slot.offset),
        &val,
    ))
}
