//! `Validate()` of the owned values (`owned.go`): the schema's rules an owned value must keep
//! that the encoders write without complaint, each rendered from the plan and returned as the
//! first `*ValidationError` (`runtime.go`) with the schema path of what breaks it:
//!
//! - a number (each element of an array) within its field's [`sbekit_plan::Range`] (no range:
//!   nothing to check; a float with a range is also refused as NaN) → `OutOfRange`;
//! - an enum value among its [`sbekit_plan::EnumDef::values`] → `UnknownEnumValue`;
//! - a composite by its own `Validate()` (its members' paths are the composite's:
//!   `Price.mantissa`, as Rust's and C++'s are);
//! - a group of at most its count slot's `max` entries → `TooManyEntries`, then each entry;
//! - var data of at most its length slot's `max` bytes → `TooLong`.
//!
//! A field without a value (a nil pointer), a constant, a `char` (a fixed `[N]byte` cannot be
//! too long) and a set are not checked. Every check rendered can fail: a bound is only there
//! where some value of the type lies beyond it, and a length only where some length exceeds it.

use crate::names::owned_fields;
use crate::prim::{go_str, int_digits, is_float, literal};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::literal::FloatLiteral;
use sbekit_plan::{Body, Field, Kind, Section};

/// The doc of a message's `Validate`.
pub const MESSAGE_DOC: &str = "Validate checks o against the schema and returns the first rule it breaks as a *ValidationError (nil when none): numbers within their field's valid range (minValue to maxValue, or the type's range without its null value), enum values the schema lists, groups and var data no longer than their count and length fields allow; composites and group entries by their own Validate. A nil pointer (no value) is not checked. EncodeOwned does not call it: it writes what o holds, so that a message read from the wire goes back as it came; validate values you build first.";

/// The line added to a message's `EncodeOwned` doc.
pub const ENCODE_DOC: &str = "It writes what o holds without checking it against the schema (a decoded message goes back byte for byte): call Validate first on values you build.";

/// The checks of `Validate` for a composite's members (`fields`, as `gated_members` gives
/// them), their paths under the composite's name `k`.
pub fn composite_checks(ctx: &Ctx, k: &str, fields: &[Field]) -> Out {
    let (owned, _) = owned_fields(fields, &[]);
    let mut o = Out::default();
    field_checks(&mut o, ctx, fields, &owned, k);
    o
}

/// The checks of `Validate` for a message or group entry `b`: its fields, then its sections.
pub fn body_checks(ctx: &Ctx, b: &Body) -> Out {
    let path = b.path.join(".");
    let (owned, osec) = owned_fields(&b.fields, &b.sections);
    let mut o = Out::default();
    field_checks(&mut o, ctx, &b.fields, &owned, &path);
    for (s, g) in b.sections.iter().zip(&osec) {
        let at = go_str(&format!("{path}.{}", s.name()));
        let x = format!("o.{g}");
        match s {
            Section::Group { count, body, .. } => {
                too_long(&mut o, &x, count.max, &at, "TooManyEntries", "Count");
                if !body_checks(ctx, body).s.is_empty() {
                    o.line(&format!("for i := range {x} {{"));
                    propagate(&mut o, &format!("{x}[i].Validate()"));
                    o.line("}");
                }
            }
            Section::Var { len, .. } => too_long(&mut o, &x, len.max, &at, "TooLong", "Length"),
        }
    }
    o
}

/// `func (o *t) Validate() error` running `checks`.
pub fn validate_fn(o: &mut Out, t: &str, doc: &str, checks: &Out) {
    o.doc(doc);
    o.line(&format!("func (o *{t}) Validate() error {{"));
    o.s.push_str(&crate::owned::indent(&checks.s));
    o.line("return nil");
    o.line("}");
    o.line("");
}

/// True if the composite `k` has something to check (else its holders skip its `Validate`).
fn composite_has_checks(ctx: &Ctx, k: &str) -> bool {
    !composite_checks(ctx, k, &ctx.plan.gated_members(k))
        .s
        .is_empty()
}

/// The checks of a block's or composite's fields held by `o` (owned names `owned`), their
/// paths under `path`.
fn field_checks(o: &mut Out, ctx: &Ctx, fields: &[Field], owned: &[String], path: &str) {
    for (f, g) in fields.iter().zip(owned) {
        if f.is_constant() {
            continue;
        }
        let at = go_str(&format!("{path}.{}", f.name));
        let fail = |kind: &str| format!("return &ValidationError{{Path: {at}, Kind: {kind}}}");
        // A pointer (the field may have no value) is checked only when set.
        let (x, set) = if f.may_be_absent() {
            (format!("*o.{g}"), Some(format!("o.{g} != nil")))
        } else {
            (format!("o.{g}"), None)
        };
        match &f.kind {
            Kind::Prim(p) if p.ty == P::Char => {}
            Kind::Prim(p) => {
                let v = if p.len == 1 { x.as_str() } else { "v" };
                let mut tests = Vec::new();
                // An optional value holding its null value would read back as nil.
                if let Some(n) = f.null_when_held() {
                    tests.push(crate::prim::is_null(v, n, p.ty));
                }
                let Some(r) = &f.range else {
                    if let (Some(s), false) = (&set, tests.is_empty()) {
                        o.line(&format!("if {s} && {} {{", tests.join(" || ")));
                        o.line(&fail("OutOfRange"));
                        o.line("}");
                    }
                    continue;
                };
                // An untyped constant: a float's shortest digits round back to its value in the
                // field's type (a bound is finite: Range keeps no other).
                let bound = |b| match FloatLiteral::value(b, p.ty) {
                    _ if !is_float(p.ty) => int_digits(b, p.ty),
                    FloatLiteral::Finite(t) => t,
                    _ => literal(b, p.ty),
                };
                if is_float(p.ty) {
                    let nan = if p.ty == P::Float {
                        format!("math.IsNaN(float64({v}))")
                    } else {
                        format!("math.IsNaN({v})")
                    };
                    if !tests.contains(&nan) {
                        tests.push(nan);
                    }
                }
                if let Some(b) = &r.min {
                    tests.push(format!("{v} < {}", bound(b)));
                }
                if let Some(b) = &r.max {
                    tests.push(format!("{v} > {}", bound(b)));
                }
                let test = tests.join(" || ");
                if p.len == 1 {
                    let test = match &set {
                        Some(s) if tests.len() > 1 => format!("{s} && ({test})"),
                        Some(s) => format!("{s} && {test}"),
                        None => test,
                    };
                    o.line(&format!("if {test} {{"));
                    o.line(&fail("OutOfRange"));
                    o.line("}");
                } else {
                    if let Some(s) = &set {
                        o.line(&format!("if {s} {{"));
                    }
                    // Ranging over a pointer to an array reads the array it points to.
                    o.line(&format!("for _, v := range o.{g} {{"));
                    o.line(&format!("if {test} {{"));
                    o.line(&fail("OutOfRange"));
                    o.line("}");
                    o.line("}");
                    if set.is_some() {
                        o.line("}");
                    }
                }
            }
            Kind::Enum { ty, .. } => {
                // One case per listed value (two names of one value are one case).
                let mut seen = Vec::new();
                let mut cases = Vec::new();
                for ((_, v, _), c) in ctx.plan.enums[ty]
                    .values
                    .iter()
                    .zip(&ctx.n.enums[ty].values)
                {
                    if !seen.contains(v) {
                        seen.push(v.clone());
                        cases.push(c.as_str());
                    }
                }
                if let Some(s) = &set {
                    o.line(&format!("if {s} {{"));
                }
                o.line(&format!("switch {x} {{"));
                if !cases.is_empty() {
                    o.line(&format!("case {}:", cases.join(", ")));
                }
                o.line("default:");
                o.line(&fail("UnknownEnumValue"));
                o.line("}");
                if set.is_some() {
                    o.line("}");
                }
            }
            Kind::Set { .. } => {}
            Kind::Composite { ty } => {
                if !composite_has_checks(ctx, ty) {
                    continue;
                }
                if let Some(s) = &set {
                    o.line(&format!("if {s} {{"));
                }
                propagate(o, &format!("o.{g}.Validate()"));
                if set.is_some() {
                    o.line("}");
                }
            }
        }
    }
}

/// Returns the error `call` returns, if any.
fn propagate(o: &mut Out, call: &str) {
    o.line(&format!("if err := {call}; err != nil {{"));
    o.line("return err");
    o.line("}");
}

/// Refuses `x` (a slice or string) longer than `max` with `kind`, its length in field `what`;
/// nothing where no length can exceed `max` (a Go length is at most the largest int64).
fn too_long(o: &mut Out, x: &str, max: u64, at: &str, kind: &str, what: &str) {
    if max >= i64::MAX as u64 {
        return;
    }
    // Beyond the largest int32, compared as uint64: an int constant that large does not compile
    // where int has 32 bits.
    let n = if max > i32::MAX as u64 {
        format!("uint64(len({x}))")
    } else {
        format!("len({x})")
    };
    o.line(&format!("if {n} > {max} {{"));
    o.line(&format!(
        "return &ValidationError{{Path: {at}, Kind: {kind}, {what}: len({x}), Maximum: {max}}}"
    ));
    o.line("}");
}
