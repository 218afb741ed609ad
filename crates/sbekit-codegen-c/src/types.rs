//! `types.h`: the schema's constants, enums (a typedef of the encoding type with a macro per
//! value, so unknown values are kept), bit sets and composite views.

use crate::fields::{getter, setter, Sink};
use crate::prim::{cty, literal, ulit};
use crate::{Ctx, Out};
use sbekit_plan::CompositeDef;

/// The text of `types.h`.
pub fn types_h(ctx: &Ctx) -> String {
    let p = ctx.plan;
    let up = &ctx.up;
    let mut o = Out::default();
    let g = ctx.open_header(&mut o, "types", &["sbekit_rt"]);
    o.doc("The schema's id (`messageSchema id`).");
    o.line(&format!("#define {up}_SCHEMA_ID {}", ulit(u64::from(p.id))));
    o.doc("The schema's version: what encoders write unless told otherwise.");
    o.line(&format!(
        "#define {up}_SCHEMA_VERSION {}",
        ulit(u64::from(p.version))
    ));
    o.doc("Size of the message header in bytes.");
    o.line(&format!(
        "#define {up}_HEADER_LENGTH ((size_t){})",
        p.header.size
    ));
    o.line("");
    for (k, e) in &p.enums {
        let n = &ctx.n.enums[k];
        o.doc(e.description.as_deref().unwrap_or(&format!(
            "The `{k}` enum: its encoding type, so values the schema does not list are kept."
        )));
        o.line(&format!("typedef {} {};", cty(e.ty), n.ty));
        for ((name, v, d), id) in e.values.iter().zip(&n.values) {
            o.doc(d.as_deref().unwrap_or(&format!("`{name}`")));
            o.line(&format!("#define {id} (({}){})", n.ty, literal(v, e.ty)));
        }
        o.line("");
    }
    for (k, s) in &p.sets {
        let n = &ctx.n.sets[k];
        let t = &n.ty;
        o.doc(s.description.as_deref().unwrap_or(&format!(
            "The `{k}` bit set: its encoding type (every bit kept), a mask per choice."
        )));
        o.line(&format!("typedef {} {t};", cty(s.ty)));
        for (((c, bit, d), m), (test, with)) in s
            .choices
            .iter()
            .zip(&n.masks)
            .zip(n.choices.iter().zip(&n.with))
        {
            o.doc(&format!("The bit of `{c}`."));
            o.line(&format!("#define {m} (({t})((uint64_t)1 << {bit}u))"));
            o.doc(d.as_deref().unwrap_or(&format!("True if `{c}` is set.")));
            o.line(&format!(
                "static inline bool {test}({t} s) {{ return (s & {m}) != 0; }}"
            ));
            o.doc(&format!("`s` with `{c}` set (`on`) or cleared."));
            o.line(&format!(
                "static inline {t} {with}({t} s, bool on) {{ return on ? ({t})(s | {m}) : ({t})(s & ({t})~{m}); }}"
            ));
        }
        o.line("");
    }
    for (k, c) in p.composites_members_first() {
        composite(&mut o, ctx, k, c);
    }
    o.line(&format!("#endif  // {g}"));
    o.s
}

fn composite(o: &mut Out, ctx: &Ctx, k: &str, c: &CompositeDef) {
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    o.doc(c.description.as_deref().unwrap_or(&format!(
        "Reads the `{k}` composite (a view of {} bytes).",
        c.size
    )));
    o.line(&format!("typedef struct {} {{", n.dec));
    o.doc("The first byte.");
    o.line("const uint8_t* p;");
    o.doc("The acting version.");
    o.line("uint64_t av;");
    o.line(&format!("}} {};", n.dec));
    o.doc("Encoded size in bytes.");
    o.line(&format!(
        "static inline size_t {}_encoded_length(void) {{ return {}; }}",
        n.dec, c.size
    ));
    for (f, fname) in members.iter().zip(&n.members) {
        getter(o, ctx, f, fname, &n.dec, "d->p");
    }
    o.line("");
    o.doc(&format!(
        "Writes the `{k}` composite in place (nothing is written when `p` is NULL)."
    ));
    o.line(&format!("typedef struct {} {{", n.enc));
    o.doc("The first byte (NULL: write nothing).");
    o.line("uint8_t* p;");
    o.doc("Where errors are recorded (may be NULL).");
    o.line("sbekit_cursor* c;");
    o.line(&format!("}} {};", n.enc));
    let s = Sink {
        ty: &n.enc,
        base: "e->p",
        version: None,
        cur: "e->c",
        cur_nullable: true,
    };
    for (f, fname) in members.iter().zip(&n.members) {
        setter(o, ctx, f, fname, &s);
    }
    o.line("");
}
