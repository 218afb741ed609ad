//! `AppendJson` (the JSON `sbekit decode` prints, from the generated decoders) and `SbeCopyTo`
//! (a decoded value written again by the generated encoders), shared by composites, message
//! bodies and group entries. Together they are what `sbekit conformance` checks.

use crate::names::FieldNames;
use crate::prim::{cs_str, signed};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::{utf8_declared, Member};
use sbekit_plan::{Field, Kind};

/// Appends the literal text `t` to `out`.
pub fn put(o: &mut Out, t: &str) {
    if t.chars().count() == 1 {
        let c = cs_str(t);
        o.line(&format!(
            "sb.Append('{}');",
            &c[1..c.len() - 1].replace('\'', "\\'")
        ));
    } else {
        o.line(&format!("sb.Append({});", cs_str(t)));
    }
}

fn scalar_json(ty: P, x: &str) -> String {
    match ty {
        P::Char => format!("SbeJson.AppendChar(sb, {x});"),
        P::Float => format!("SbeJson.AppendFloat(sb, {x});"),
        P::Double => format!("SbeJson.AppendDouble(sb, {x});"),
        _ if signed(ty) => format!("SbeJson.AppendLong(sb, {x});"),
        _ => format!("SbeJson.AppendULong(sb, {x});"),
    }
}

fn value_json(ctx: &Ctx, f: &Field, n: &FieldNames) -> String {
    let name = &n.name;
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => format!(
            "SbeJson.AppendFixedText(sb, sbe_b, sbe_p + {}, {}, {});",
            f.offset,
            p.len,
            utf8_declared(p.char_encoding.as_deref())
        ),
        Kind::Prim(p) if p.len != 1 => {
            format!(
                "sb.Append('['); for (int sbe_i = 0; sbe_i < {}; sbe_i++) {{ if (sbe_i > 0) sb.Append(','); {} }} sb.Append(']');",
                p.len,
                scalar_json(p.ty, &format!("{name}(sbe_i)"))
            )
        }
        Kind::Prim(p) => scalar_json(p.ty, &format!("{name}()")),
        Kind::Enum { ty, .. } => format!("SbeEnums.{}(sb, {}());", ctx.n.enums[ty].json, n.raw),
        Kind::Set { .. } | Kind::Composite { .. } => format!("{name}().AppendJson(sb);"),
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
                    o.line(&format!("if ({}()) {name}().SbeCopyTo(e.{name}());", n.has));
                } else {
                    o.line(&format!("{name}().SbeCopyTo(e.{name}());"));
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
