//! `appendJson` (the JSON `sbekit decode` prints, from the generated decoders) and `sbeCopyTo`
//! (a decoded value written again by the generated encoders), shared by composites, message
//! bodies and group entries. Together they are what `sbekit conformance` checks.

use crate::names::FieldNames;
use crate::prim::java_str;
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::{utf8_declared, Member};
use sbekit_plan::{Field, Kind};

/// Appends the literal text `t` to `out`.
pub fn put(o: &mut Out, t: &str) {
    if t.chars().count() == 1 {
        let c = java_str(t);
        o.line(&format!(
            "out.append('{}');",
            &c[1..c.len() - 1].replace('\'', "\\'")
        ));
    } else {
        o.line(&format!("out.append({});", java_str(t)));
    }
}

fn scalar_json(ty: P, x: &str) -> String {
    match ty {
        P::Char => format!("SbeJson.appendChar(out, {x});"),
        P::Float => format!("SbeJson.appendFloat(out, {x});"),
        P::Double => format!("SbeJson.appendDouble(out, {x});"),
        P::Uint64 => format!("SbeJson.appendUnsigned(out, {x});"),
        _ => format!("out.append({x});"),
    }
}

fn value_json(ctx: &Ctx, f: &Field, n: &FieldNames) -> String {
    let name = &n.name;
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => format!(
            "SbeJson.appendFixedText(out, sbe_b, sbe_p + {}, {}, {});",
            f.offset,
            p.len,
            utf8_declared(p.char_encoding.as_deref())
        ),
        Kind::Prim(p) if p.len != 1 => {
            format!(
                "out.append('['); for (int sbe_i = 0; sbe_i < {}; sbe_i++) {{ if (sbe_i > 0) out.append(','); {} }} out.append(']');",
                p.len,
                scalar_json(p.ty, &format!("{name}(sbe_i)"))
            )
        }
        Kind::Prim(p) => scalar_json(p.ty, &format!("{name}()")),
        Kind::Enum { ty, .. } => format!("{}.sbeJson(out, {}());", ctx.n.enums[ty].ty, n.raw),
        Kind::Set { .. } | Kind::Composite { .. } => format!("{name}().appendJson(out);"),
    }
}

/// The JSON members of `fields` (the first preceded by a comma unless `first`): the plan's walk.
pub fn fields_json(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames], first: bool) {
    for m in ctx.plan.json_members(fields, first) {
        match m {
            Member::Fixed(text) => put(o, &text),
            Member::Read(r) => {
                put(o, &r.key);
                let n = &names[r.index];
                if r.optional {
                    o.line(&format!("if ({}()) {{", n.has));
                    o.line(&value_json(ctx, r.field, n));
                    o.line("} else {");
                    put(o, &r.fixed);
                    o.line("}");
                } else {
                    o.line(&value_json(ctx, r.field, n));
                }
            }
        }
    }
}

/// Copies `fields` from this decoder into encoder `e` (the encoder skips what its version does
/// not have; absent fields read as their null values).
pub fn fields_copy(o: &mut Out, fields: &[Field], names: &[FieldNames]) {
    for (f, n) in fields.iter().zip(names) {
        if f.is_constant() {
            continue;
        }
        let name = &n.name;
        match &f.kind {
            Kind::Composite { .. } | Kind::Set { .. } => {
                if f.since > 0 {
                    o.line(&format!("if ({}()) {name}().sbeCopyTo(e.{name}());", n.has));
                } else {
                    o.line(&format!("{name}().sbeCopyTo(e.{name}());"));
                }
            }
            Kind::Prim(p) if p.len != 1 => o.line(&format!(
                "for (int sbe_i = 0; sbe_i < {}; sbe_i++) e.{name}(sbe_i, {name}(sbe_i));",
                p.len
            )),
            Kind::Prim(_) => o.line(&format!("e.{name}({name}());")),
            Kind::Enum { .. } => o.line(&format!("e.{}({}());", n.raw, n.raw)),
        }
    }
}
