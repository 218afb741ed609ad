//! The JSON `sbekit decode` prints (from the generated decoders) and the copy of a decoded
//! value into an encoder, shared by composites, message bodies and group entries. Together
//! they are what `sbekit conformance` checks.

use crate::fields::raw;
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::{utf8_declared, Member};
use sbekit_plan::names::FieldNames;
use sbekit_plan::{Field, Kind};

/// Appends the literal text `t` to the builder.
pub fn put(o: &mut Out, ctx: &Ctx, t: &str) {
    let d = ctx.d;
    let append = format!("{}.{}", d.builder(), d.member("append"));
    if t.chars().count() == 1 {
        let c = d.str_lit(t);
        o.line(&format!(
            "{append}('{}');",
            &c[1..c.len() - 1].replace('\'', "\\'")
        ));
    } else {
        o.line(&format!("{append}({});", d.str_lit(t)));
    }
}

fn value_json(ctx: &Ctx, f: &Field, n: &FieldNames) -> String {
    let d = ctx.d;
    let (sb, name) = (d.builder(), &n.name);
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => format!(
            "SbeJson.{}({sb}, sbe_b, sbe_p + {}, {}, {});",
            d.member("appendFixedText"),
            f.offset,
            p.len,
            utf8_declared(p.char_encoding.as_deref())
        ),
        Kind::Prim(p) if p.len != 1 => {
            let append = format!("{sb}.{}", d.member("append"));
            format!(
                "{append}('['); for (int sbe_i = 0; sbe_i < {}; sbe_i++) {{ if (sbe_i > 0) {append}(','); {} }} {append}(']');",
                p.len,
                d.scalar_json(p.ty, &format!("{name}(sbe_i)"))
            )
        }
        Kind::Prim(p) => d.scalar_json(p.ty, &format!("{name}()")),
        Kind::Enum { ty, .. } => d.enum_json(&ctx.n.enums[ty], &format!("{}()", raw(n))),
        Kind::Set { .. } | Kind::Composite { .. } => {
            format!("{name}().{}({sb});", d.member("appendJson"))
        }
    }
}

/// The JSON members of `fields` (the first preceded by a comma unless `first`): the plan's walk.
pub fn fields_json(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames], first: bool) {
    for m in ctx.plan.json_members(fields, first) {
        match m {
            Member::Fixed(text) => put(o, ctx, &text),
            Member::Read(r) => {
                put(o, ctx, &r.key);
                let n = &names[r.index];
                if r.optional {
                    o.line(&format!("if ({}()) {{", n.has));
                    o.line(&value_json(ctx, r.field, n));
                    o.line("} else {");
                    put(o, ctx, &r.fixed);
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
pub fn fields_copy(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames]) {
    let copy = ctx.d.member("sbeCopyTo");
    for (f, n) in fields.iter().zip(names) {
        if f.is_constant() {
            continue;
        }
        let name = &n.name;
        match &f.kind {
            Kind::Composite { .. } | Kind::Set { .. } => {
                if f.since > 0 {
                    o.line(&format!("if ({}()) {name}().{copy}(e.{name}());", n.has));
                } else {
                    o.line(&format!("{name}().{copy}(e.{name}());"));
                }
            }
            Kind::Prim(p) if p.len != 1 => o.line(&format!(
                "for (int sbe_i = 0; sbe_i < {}; sbe_i++) e.{name}(sbe_i, {name}(sbe_i));",
                p.len
            )),
            Kind::Prim(_) => o.line(&format!("e.{name}({name}());")),
            Kind::Enum { .. } => o.line(&format!("e.{}({}());", raw(n), raw(n))),
        }
    }
}
