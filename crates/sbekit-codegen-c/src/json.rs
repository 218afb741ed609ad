//! `json.h`: `<msg>_dec_to_json` (the JSON `sbekit decode` prints, from the generated decoders,
//! into a caller-provided buffer) and `reencode` (a decoded message written again by the
//! generated encoders, at its acting version). Together they are what `sbekit conformance`
//! checks.

use crate::fields::{is_array, value_type};
use crate::prim::{c_str, cty, is_float, is_signed, literal};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::{quote, utf8_declared, Member, SectionValue};
use sbekit_plan::names::{BodyNames, FieldNames};
use sbekit_plan::{Body, Field, Kind, Section};

use crate::names::OwnedMember;

/// `sbekit_json_put(j, "<text>", len);`
fn put(o: &mut Out, text: &str) {
    if !text.is_empty() {
        o.line(&put_s(text));
    }
}

fn put_s(text: &str) -> String {
    format!("sbekit_json_put(j, {}, {});", c_str(text), text.len())
}

/// The text of `json.h`.
pub fn json_h(ctx: &Ctx) -> String {
    let p = ctx.plan;
    let pf = &ctx.n.package;
    let mut o = Out::default();
    let g = ctx.open_header(&mut o, "json", &["sbekit_rt", "types", "messages"]);
    for (k, e) in &p.enums {
        let n = &ctx.n.enums[k];
        o.doc(&format!("Internal: a `{k}` value as JSON."));
        o.line(&format!(
            "static inline void {}(sbekit_json* j, {} x) {{",
            n.json, n.ty
        ));
        // The null value prints as null, even where the schema lists it as a value.
        o.line(&format!(
            "if (x == {}) {{ {} return; }}",
            literal(&e.null, e.ty),
            put_s("null")
        ));
        for (name, v, _) in &e.values {
            o.line(&format!(
                "if (x == {}) {{ {} return; }}",
                literal(v, e.ty),
                put_s(&quote(name))
            ));
        }
        // As `sbekit decode`: chars and unsigned values zero-extended, signed sign-extended,
        // all as a signed 64-bit number.
        let raw = match e.ty {
            P::Char => "(int64_t)(uint8_t)x",
            _ => "(int64_t)x",
        };
        o.line(&format!("sbekit_json_i64(j, {raw});"));
        o.line("}");
    }
    for (k, s) in &p.sets {
        let n = &ctx.n.sets[k];
        o.doc(&format!("Internal: a `{k}` value as JSON."));
        o.line(&format!(
            "static inline void {}(sbekit_json* j, {} x) {{",
            n.json, n.ty
        ));
        put(&mut o, "{");
        for (i, ((c, _, _), t)) in s.choices.iter().zip(&n.choices).enumerate() {
            let key = format!("{}{}:", if i == 0 { "" } else { "," }, quote(c));
            put(&mut o, &key);
            o.line(&format!("sbekit_json_bool(j, {t}(x));"));
        }
        if s.choices.is_empty() {
            o.line("(void)x;");
        }
        put(&mut o, "}");
        o.line("}");
    }
    for (k, _) in p.composites_members_first() {
        composite(&mut o, ctx, k);
    }
    for (m, n) in p.messages.iter().zip(&ctx.n.messages) {
        body(&mut o, ctx, &m.body, n, true);
    }
    for n in &ctx.n.messages {
        o.doc("The message as one line of JSON (no newline), as `sbekit decode` prints it, into `buf` (`cap` bytes), snprintf-style: returns the length the JSON needs (without the NUL); the output is complete, and NUL-terminated, when that is below `cap`.");
        o.line(&format!(
            "static inline size_t {d}_to_json(const {d}* d, char* buf, size_t cap) {{",
            d = n.dec
        ));
        o.line("sbekit_json j;");
        o.line("j.buf = buf;");
        o.line("j.cap = buf == NULL ? 0 : cap;");
        o.line("j.len = 0;");
        o.line(&format!("{}_sbe_json(&j, d);", n.dec));
        o.line("return sbekit_json_finish(&j);");
        o.line("}");
    }
    o.doc("Any message as one line of JSON (empty for none), as `<message>_to_json`.");
    o.line(&format!(
        "static inline size_t {pf}_any_to_json(const {pf}_any* m, char* buf, size_t cap) {{"
    ));
    for (i, n) in ctx.n.messages.iter().enumerate() {
        o.line(&format!(
            "if (m->which == {}) return {}_to_json(&m->u.m{i}, buf, cap);",
            n.tag, n.dec
        ));
    }
    o.line("if (buf != NULL && cap > 0) buf[0] = 0;");
    o.line("return 0;");
    o.line("}");
    o.line("");
    o.doc("Writes a decoded message again with the encoders, at its acting version, into `buf` (`cap` bytes): 0 and its length in `*len`, or the first error's kind (details in `err`).");
    o.line(&format!(
        "static inline int {pf}_reencode(const {pf}_any* m, uint8_t* buf, size_t cap, size_t* len, sbekit_error* err) {{"
    ));
    for (i, n) in ctx.n.messages.iter().enumerate() {
        o.line(&format!("if (m->which == {}) {{", n.tag));
        o.line(&format!("{} e;", n.enc));
        o.line(&format!("{}_init(&e, buf, cap, m->u.m{i}.av);", n.enc));
        o.line(&format!("{}_sbe_copy(&m->u.m{i}, &e);", n.dec));
        o.line(&format!("return {}_finish(&e, len, err);", n.enc));
        o.line("}");
    }
    o.line("(void)buf;");
    o.line("(void)cap;");
    o.line("(void)len;");
    o.line("return sbekit_fail(err, SBEKIT_WRONG_TEMPLATE_ID, 0, \"\");");
    o.line("}");
    o.line("");
    o.line(&format!("#endif  // {g}"));
    o.s
}

fn composite(o: &mut Out, ctx: &Ctx, k: &str) {
    let n = &ctx.n.composites[k];
    o.doc(&format!("Internal: a `{k}` composite as JSON."));
    o.line(&format!(
        "static inline void {}_sbe_json(sbekit_json* j, const {}* d) {{",
        n.dec, n.dec
    ));
    let members = ctx.plan.gated_members(k);
    o.line("(void)d;");
    put(o, "{");
    fields_json(o, ctx, &members, &n.members);
    put(o, "}");
    o.line("}");
    o.doc(&format!("Internal: copies a `{k}` composite."));
    o.line(&format!(
        "static inline void {}_sbe_copy(const {}* d, {} c) {{",
        n.dec, n.dec, n.enc
    ));
    o.line(&format!("{}* e = &c;", n.enc));
    o.line("(void)d;");
    o.line("(void)e;");
    fields_copy(o, ctx, &members, &n.members, Src::Decoder);
    o.line("}");
}

fn body(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, top: bool) {
    let mut gi = 0;
    for s in &b.sections {
        if let Section::Group { body: gb, .. } = s {
            body(o, ctx, gb, &n.children[gi], false);
            gi += 1;
        }
    }
    let d = &n.dec;
    o.doc(&format!("Internal: `{}` as JSON.", n.path));
    o.line(&format!(
        "static inline void {d}_sbe_json(sbekit_json* j, const {d}* d) {{"
    ));
    o.line("(void)d;");
    put(o, "{");
    if let Some(v) = ctx.plan.json_version(b, top) {
        // As `sbekit decode`: a message an older writer wrote says which version it is.
        o.line(&format!("if (d->av < {}u) {{", v.below));
        put(o, "\"$version\":");
        o.line("sbekit_json_u64(j, d->av);");
        if v.comma {
            put(o, ",");
        }
        o.line("}");
    }
    fields_json(o, ctx, &b.fields, &n.fields);
    for m in ctx.plan.json_sections(b) {
        let sname = &n.sections[m.index].name;
        put(o, &m.key);
        match m.value {
            SectionValue::Group { child } => {
                let cn = &n.children[child];
                put(o, "[");
                o.line("{");
                o.line(&format!("{} it = {sname}(d);", cn.iter));
                o.line(&format!("{} x;", cn.dec));
                o.line("bool first = true;");
                o.line(&format!("while ({}_next(&it, &x)) {{", cn.iter));
                o.line(&format!("if (!first) {}", put_s(",")));
                o.line("first = false;");
                o.line(&format!("{}_sbe_json(j, &x);", cn.dec));
                o.line("}");
                o.line("}");
                put(o, "]");
            }
            SectionValue::Var { utf8, .. } => {
                let text = matches!(m.section, Section::Var { text: true, .. });
                let cast = if text { "(const uint8_t*)" } else { "" };
                o.line(&format!(
                    "{{ const {} v = {sname}(d); sbekit_json_text(j, {cast}v.data, v.len, {utf8}); }}",
                    if text { "sbekit_str" } else { "sbekit_bytes" }
                ));
            }
        }
    }
    put(o, "}");
    o.line("}");

    let e = &n.enc;
    o.doc(&format!("Internal: copies `{}`.", n.path));
    o.line(&format!(
        "static inline void {d}_sbe_copy(const {d}* d, {e}* e) {{"
    ));
    o.line("(void)d;");
    o.line("(void)e;");
    fields_copy(o, ctx, &b.fields, &n.fields, Src::Decoder);
    let mut gi = 0;
    for (s, sn) in b.sections.iter().zip(&n.sections) {
        match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                o.line("{");
                o.line(&format!("{} it = {}(d);", cn.iter, sn.name));
                o.line(&format!("{} x;", cn.dec));
                o.line(&format!("{} w;", cn.writer));
                if let Some(counted) = &sn.set_counted {
                    // Entries of a fixed size: all reserved at once, located by index.
                    o.line("size_t k = 0;");
                    o.line(&format!("{counted}(e, &w, {}_count(&it));", cn.iter));
                    o.line(&format!(
                        "while ({}_next(&it, &x)) {}_sbe_copy(&x, {}_entry(&w, k++));",
                        cn.iter, cn.dec, cn.writer
                    ));
                } else {
                    o.line(&format!("{}(e, &w);", sn.setter()));
                    o.line(&format!(
                        "while ({}_next(&it, &x)) {}_sbe_copy(&x, {}_next(&w));",
                        cn.iter, cn.dec, cn.writer
                    ));
                    o.line(&format!("{}_end(&w);", cn.writer));
                }
                o.line("}");
            }
            Section::Var { text, .. } => {
                let t = if *text { "sbekit_str" } else { "sbekit_bytes" };
                o.line(&format!(
                    "{{ const {t} v = {}(d); {}(e, v.data, v.len); }}",
                    sn.name,
                    sn.setter()
                ));
            }
        }
    }
    o.line("}");
}

/// The statement printing value `x` of field `f` (`x` is an lvalue of the getter's type; for an
/// array, the array).
fn value_json(ctx: &Ctx, f: &Field, x: &str) -> String {
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len == 1 => format!("sbekit_json_char(j, {x});"),
        Kind::Prim(p) if p.ty == P::Char => format!(
            "sbekit_json_text(j, (const uint8_t*){x}.data, {x}.len, {});",
            utf8_declared(p.char_encoding.as_deref())
        ),
        Kind::Prim(p) if p.len != 1 => {
            let one = num_json(p.ty, &format!("{x}[i]"));
            format!(
                "{{ size_t i; {} for (i = 0; i < {}; ++i) {{ if (i > 0) {} {one} }} {} }}",
                put_s("["),
                p.len,
                put_s(","),
                put_s("]")
            )
        }
        Kind::Prim(p) => num_json(p.ty, x),
        Kind::Enum { ty, .. } => format!("{}(j, {x});", ctx.n.enums[ty].json),
        Kind::Set { ty } => format!("{}(j, {x});", ctx.n.sets[ty].json),
        Kind::Composite { ty } => format!("{}_sbe_json(j, &{x});", ctx.n.composites[ty].dec),
    }
}

fn num_json(ty: P, x: &str) -> String {
    if ty == P::Float {
        format!("sbekit_json_f32(j, {x});")
    } else if is_float(ty) {
        format!("sbekit_json_f64(j, {x});")
    } else if is_signed(ty) {
        format!("sbekit_json_i64(j, (int64_t){x});")
    } else {
        format!("sbekit_json_u64(j, (uint64_t){x});")
    }
}

fn fields_json(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames]) {
    for m in ctx.plan.json_members(fields, true) {
        let (index, f, key, fixed, optional) = match m {
            Member::Fixed(text) => {
                put(o, &text);
                continue;
            }
            Member::Read(r) => (r.index, r.field, r.key, r.fixed, r.optional),
        };
        put(o, &key);
        let get = &names[index].name;
        let v = value_json(ctx, f, "x");
        if let Some((t, len)) = is_array(f) {
            if optional {
                o.line(&format!(
                    "{{ {} x[{len}]; if ({get}(d, x)) {{ {v} }} else {{ {} }} }}",
                    cty(t),
                    put_s(&fixed)
                ));
            } else {
                o.line(&format!("{{ {} x[{len}]; {get}(d, x); {v} }}", cty(t)));
            }
            continue;
        }
        let vt = value_type(ctx, f);
        if optional {
            o.line(&format!(
                "{{ {vt} x; if ({get}(d, &x)) {{ {v} }} else {{ {} }} }}",
                put_s(&fixed)
            ));
        } else {
            o.line(&format!("{{ const {vt} x = {get}(d); {v} }}"));
        }
    }
}

/// Where a copy into the encoders reads its values: a decoder's getters (`reencode`), or an
/// owned value's members (`<type>_owned_sbe_write`, see [`crate::owned`]), given per field. Both
/// are `d` in the rendered functions.
#[derive(Clone, Copy)]
pub(crate) enum Src<'a> {
    /// A flyweight decoder.
    Decoder,
    /// An owned value: each field's members (none for constants).
    Owned(&'a [Option<OwnedMember>]),
}

/// Statements copying the fields of `d` (a decoder or an owned value, as `src` says) into
/// encoder `e`.
pub(crate) fn fields_copy(
    o: &mut Out,
    ctx: &Ctx,
    fields: &[Field],
    names: &[FieldNames],
    src: Src,
) {
    for (i, (f, n)) in fields.iter().zip(names).enumerate() {
        if f.is_constant() {
            continue;
        }
        if let Src::Owned(members) = src {
            if let Some(Some(m)) = members.get(i) {
                owned_copy(o, ctx, f, n, m);
            }
            continue;
        }
        let (get, set) = (&n.name, &n.setter());
        match &f.kind {
            Kind::Composite { ty } => {
                let c = &ctx.n.composites[ty];
                if f.may_be_absent() {
                    o.line(&format!(
                        "{{ {} x; if ({get}(d, &x)) {}_sbe_copy(&x, {set}(e)); }}",
                        c.dec, c.dec
                    ));
                } else {
                    o.line(&format!(
                        "{{ const {} x = {get}(d); {}_sbe_copy(&x, {set}(e)); }}",
                        c.dec, c.dec
                    ));
                }
            }
            Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
                let raw = n.raw.clone().unwrap_or_else(|| get.clone());
                if f.since > 0 {
                    o.line(&format!(
                        "{{ sbekit_str x; if ({raw}(d, &x)) {set}(e, x.data, x.len); }}"
                    ));
                } else {
                    o.line(&format!(
                        "{{ const sbekit_str x = {raw}(d); {set}(e, x.data, x.len); }}"
                    ));
                }
            }
            Kind::Prim(p) if p.len != 1 => {
                let t = cty(p.ty);
                let len = p.len;
                if f.may_be_absent() {
                    o.line(&format!(
                        "{{ {t} x[{len}]; if ({get}(d, x)) {set}(e, x); }}"
                    ));
                } else {
                    o.line(&format!("{{ {t} x[{len}]; {get}(d, x); {set}(e, x); }}"));
                }
            }
            _ => {
                let vt = value_type(ctx, f);
                if f.is_nullable() {
                    let null = n.set_null.clone().unwrap_or_default();
                    o.line(&format!(
                        "{{ {vt} x; if ({get}(d, &x)) {set}(e, x); else {null}(e); }}"
                    ));
                } else if f.may_be_absent() {
                    o.line(&format!("{{ {vt} x; if ({get}(d, &x)) {set}(e, x); }}"));
                } else {
                    o.line(&format!("{set}(e, {get}(d));"));
                }
            }
        }
    }
}

/// The statement setting field `f` from owned member `m` of `d`: as the decoder's copy does,
/// a value that is absent (`has_` false) is written as the null value where the field has one,
/// and left out otherwise.
fn owned_copy(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, m: &OwnedMember) {
    let (v, set) = (&m.name, n.setter());
    let stmt = match &f.kind {
        Kind::Composite { ty } => format!(
            "{}_sbe_write(&d->{v}, {set}(e));",
            ctx.owned.composites[ty].ty
        ),
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            format!("{set}(e, d->{v}, {});", p.len)
        }
        _ => format!("{set}(e, d->{v});"),
    };
    match (&m.has, &n.set_null) {
        (Some(h), Some(null)) if f.is_nullable() => {
            o.line(&format!("if (d->{h}) {stmt} else {null}(e);"));
        }
        (Some(h), _) => o.line(&format!("if (d->{h}) {stmt}")),
        (None, _) => o.line(&stmt),
    }
}
