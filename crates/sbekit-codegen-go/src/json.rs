//! `json.go`: `AppendJSON` on every decoder (the JSON `sbekit decode` prints, from the generated
//! accessors) and `Reencode` (a decoded message written again by the generated encoders, at its
//! acting version). Together they are what `sbekit conformance` checks.

use crate::prim::go_str;
use crate::{go_file, Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::{utf8_declared, Member, SectionValue};
use sbekit_plan::names::{BodyNames, FieldNames};
use sbekit_plan::{Body, Field, Kind, Section};

/// `dst = append(dst, "<text>"...)`.
fn put(o: &mut Out, text: &str) {
    if text.len() == 1 {
        let c = text.as_bytes()[0];
        if c == b'\'' || c == b'\\' {
            o.line(&format!("dst = append(dst, '\\{}')", char::from(c)));
        } else {
            o.line(&format!("dst = append(dst, '{}')", char::from(c)));
        }
    } else {
        o.line(&format!("dst = append(dst, {}...)", go_str(text)));
    }
}

/// The text of `json.go`.
pub fn json_go(ctx: &Ctx) -> String {
    let p = ctx.plan;
    let mut o = Out::default();
    for k in p.composites.keys() {
        composite(&mut o, ctx, k);
    }
    for (m, n) in p.messages.iter().zip(&ctx.n.messages) {
        body(&mut o, ctx, &m.body, n, true);
    }
    o.doc("Reencode writes a decoded message again with the encoders, at its acting version, at the start of buf; its length or the first error.");
    o.line("func Reencode(m Message, buf []byte) (int, error) {");
    o.line("switch d := m.(type) {");
    for n in &ctx.n.messages {
        o.line(&format!("case *{}:", n.dec));
        o.line(&format!("var e {}", n.enc));
        o.line("e.Wrap(buf, d.SbeActingVersion())");
        o.line(&format!("copy{}(d, &e)", n.dec));
        o.line("return e.Finish()");
    }
    o.line("}");
    o.line("return 0, &EncodeError{Kind: ErrWrongTemplateID}");
    o.line("}");
    go_file(&ctx.n.package, &o.s)
}

fn composite(o: &mut Out, ctx: &Ctx, k: &str) {
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    o.doc("AppendJSON appends the composite as `sbekit decode` prints it.");
    o.line(&format!(
        "func (d {}) AppendJSON(dst []byte) []byte {{",
        n.dec
    ));
    put(o, "{");
    fields_json(o, ctx, &members, &n.members);
    put(o, "}");
    o.line("return dst");
    o.line("}");
    o.line("");
    o.line(&format!("func copy{}(d {}, e {}) {{", n.dec, n.dec, n.enc));
    fields_copy(o, ctx, &members, &n.members);
    if members.iter().all(Field::is_constant) {
        o.line("_, _ = d, e");
    }
    o.line("}");
    o.line("");
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
    o.doc("AppendJSON appends the message as one line of JSON (no newline), as `sbekit decode` prints it.");
    o.line(&format!("func (d *{d}) AppendJSON(dst []byte) []byte {{"));
    put(o, "{");
    if let Some(v) = ctx.plan.json_version(b, top) {
        // `sbekit decode` marks messages of older writers with their version.
        o.line(&format!("if d.av < {} {{", v.below));
        o.line("dst = append(dst, `\"$version\":`...)");
        o.line("dst = strconv.AppendUint(dst, d.av, 10)");
        if v.comma {
            put(o, ",");
        }
        o.line("}");
    }
    fields_json(o, ctx, &b.fields, &n.fields);
    for m in ctx.plan.json_sections(b) {
        let sn = &n.sections[m.index];
        put(o, &m.key);
        match m.value {
            SectionValue::Group { .. } => {
                put(o, "[");
                o.line(&format!("for it := d.{}(); it.Next(); {{", sn.name));
                o.line("if it.i > 1 {");
                put(o, ",");
                o.line("}");
                o.line("dst = it.Entry().AppendJSON(dst)");
                o.line("}");
                put(o, "]");
            }
            SectionValue::Var { utf8, .. } => {
                o.line(&format!("dst = appendText(dst, d.{}(), {utf8})", sn.name));
            }
        }
    }
    put(o, "}");
    o.line("return dst");
    o.line("}");
    o.line("");

    let enc = if top {
        format!("*{}", n.enc)
    } else {
        n.enc.clone()
    };
    o.line(&format!("func copy{d}(d *{d}, e {enc}) {{"));
    fields_copy(o, ctx, &b.fields, &n.fields);
    let mut gi = 0;
    for (s, sn) in b.sections.iter().zip(&n.sections) {
        match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                o.line("{");
                o.line(&format!("w, it := e.{}(), d.{}()", sn.setter(), sn.name));
                o.line("for it.Next() {");
                o.line(&format!("copy{}(it.Entry(), w.Next())", cn.dec));
                o.line("}");
                o.line("}");
            }
            Section::Var { .. } => o.line(&format!("e.{}(d.{}())", sn.setter(), sn.name)),
        }
    }
    if b.fields.iter().all(Field::is_constant) && b.sections.is_empty() {
        o.line("_, _ = d, e");
    }
    o.line("}");
    o.line("");
}

fn value_json(f: &Field, x: &str) -> String {
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len == 1 => format!("dst = appendChar(dst, {x})"),
        Kind::Prim(p) if p.ty == P::Char => format!(
            "dst = appendText(dst, {x}, {})",
            utf8_declared(p.char_encoding.as_deref())
        ),
        Kind::Prim(p) if p.len != 1 => format!("dst = {}(dst, {x}[:])", array_fn(p.ty)),
        Kind::Prim(p) => format!("dst = {}(dst, {x})", one_fn(p.ty)),
        Kind::Enum { .. } | Kind::Set { .. } | Kind::Composite { .. } => {
            format!("dst = {x}.AppendJSON(dst)")
        }
    }
}

/// The runtime function appending one value of type `ty`.
fn one_fn(ty: P) -> &'static str {
    match ty {
        P::Float => "appendFloat32",
        P::Double => "appendFloat64",
        P::Int8 => "appendInt8",
        P::Int16 => "appendInt16",
        P::Int32 => "appendInt32",
        P::Int64 => "appendInt64",
        P::Uint16 => "appendUint16",
        P::Uint32 => "appendUint32",
        P::Uint64 => "appendUint64",
        _ => "appendUint8",
    }
}

/// The runtime function appending an array of `ty` as a JSON array.
fn array_fn(ty: P) -> String {
    format!("{}s", one_fn(ty))
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
        let name = &names[index].name;
        if optional {
            o.line(&format!("if x, ok := d.{name}(); ok {{"));
            o.line(&value_json(f, "x"));
            o.line("} else {");
            put(o, &fixed);
            o.line("}");
        } else if matches!(&f.kind, Kind::Prim(p) if p.len != 1 && p.ty != P::Char) {
            // An array result is not addressable: slice a copy.
            o.line("{");
            o.line(&format!("x := d.{name}()"));
            o.line(&value_json(f, "x"));
            o.line("}");
        } else {
            o.line(&value_json(f, &format!("d.{name}()")));
        }
    }
}

fn fields_copy(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames]) {
    for (f, n) in fields.iter().zip(names) {
        if f.is_constant() {
            continue;
        }
        let (get, set) = (&n.name, &n.setter());
        match &f.kind {
            Kind::Composite { ty } => {
                let c = &ctx.n.composites[ty].dec;
                if f.may_be_absent() {
                    o.line(&format!("if x, ok := d.{get}(); ok {{"));
                    o.line(&format!("copy{c}(x, e.{set}())"));
                    o.line("}");
                } else {
                    o.line(&format!("copy{c}(d.{get}(), e.{set}())"));
                }
            }
            Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
                let raw = n.raw.as_deref().unwrap_or_default();
                if f.since > 0 {
                    o.line(&format!("if x, ok := d.{raw}(); ok {{"));
                    o.line(&format!("e.{set}(x)"));
                    o.line("}");
                } else {
                    o.line(&format!("e.{set}(d.{raw}())"));
                }
            }
            _ if f.may_be_absent() && !f.is_nullable() => {
                o.line(&format!("if x, ok := d.{get}(); ok {{"));
                o.line(&format!("e.{set}(x)"));
                o.line("}");
            }
            _ if f.is_nullable() => {
                // Absent or null, the getter's value is the null value.
                o.line("{");
                o.line(&format!("x, _ := d.{get}()"));
                o.line(&format!("e.{set}(x)"));
                o.line("}");
            }
            _ => o.line(&format!("e.{set}(d.{get}())")),
        }
    }
}
