//! `json.go`: `AppendJSON` on every decoder (the JSON `sbekit decode` prints, from the generated
//! accessors) and `Reencode` (a decoded message written again by the generated encoders, at its
//! acting version). Together they are what `sbekit conformance` checks.

use crate::names::owned_type;
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
    copy_composite(o, ctx, k, Src::Decoder);
}

/// Where a copy function reads: a decoder (`Reencode`) or an owned value (`EncodeOwned`, its
/// `put` method; the owned type's field names), so that both write through the same calls.
#[derive(Clone, Copy)]
pub(crate) enum Src<'a> {
    /// `copyX(d, e)`: the decoder's accessors.
    Decoder,
    /// `(o *XOwned) put(e)`: the owned value's fields and sections.
    Owned {
        fields: &'a [String],
        sections: &'a [String],
    },
}

impl Src<'_> {
    /// The copy function's header, for decoder type `dec` and encoder type `enc`.
    fn header(&self, dec: &str, by_ref: bool, enc: &str) -> String {
        let r = if by_ref { "*" } else { "" };
        match self {
            Src::Decoder => format!("func copy{dec}(d {r}{dec}, e {enc}) {{"),
            Src::Owned { .. } => format!("func (o *{}) put(e {enc}) {{", owned_type(dec)),
        }
    }

    /// Its receiver or first parameter.
    fn this(&self) -> &'static str {
        match self {
            Src::Decoder => "d",
            Src::Owned { .. } => "o",
        }
    }
}

/// The function writing composite `k` from `src` into its encoder.
pub(crate) fn copy_composite(o: &mut Out, ctx: &Ctx, k: &str, src: Src) {
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    o.line(&src.header(&n.dec, false, &n.enc));
    fields_copy(o, ctx, &members, &n.members, src);
    if members.iter().all(Field::is_constant) {
        o.line(&format!("_, _ = {}, e", src.this()));
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

    copy_body(o, ctx, b, n, top, Src::Decoder);
}

/// The function writing a body (message or group entry) from `src` into its encoder, through
/// the encoder's setters, group writers and var-data setters in wire order.
pub(crate) fn copy_body(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, top: bool, src: Src) {
    let enc = if top {
        format!("*{}", n.enc)
    } else {
        n.enc.clone()
    };
    o.line(&src.header(&n.dec, true, &enc));
    fields_copy(o, ctx, &b.fields, &n.fields, src);
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        match (s, src) {
            (Section::Group { .. }, Src::Decoder) => {
                let cn = &n.children[gi];
                gi += 1;
                o.line("{");
                o.line(&format!("w, it := e.{}(), d.{}()", sn.setter(), sn.name));
                o.line("for it.Next() {");
                o.line(&format!("copy{}(it.Entry(), w.Next())", cn.dec));
                o.line("}");
                o.line("}");
            }
            (Section::Group { .. }, Src::Owned { sections, .. }) => {
                let g = &sections[i];
                o.line("{");
                o.line(&format!("w := e.{}()", sn.setter()));
                o.line(&format!("for i := range o.{g} {{"));
                o.line(&format!("o.{g}[i].put(w.Next())"));
                o.line("}");
                o.line("}");
            }
            (Section::Var { .. }, Src::Decoder) => {
                o.line(&format!("e.{}(d.{}())", sn.setter(), sn.name));
            }
            (Section::Var { .. }, Src::Owned { sections, .. }) => {
                // Text var data is held as a string.
                let set = sn.set_string.as_deref().unwrap_or(sn.setter());
                o.line(&format!("e.{set}(o.{})", sections[i]));
            }
        }
    }
    if b.fields.iter().all(Field::is_constant) && b.sections.is_empty() {
        o.line(&format!("_, _ = {}, e", src.this()));
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

fn fields_copy(o: &mut Out, ctx: &Ctx, fields: &[Field], names: &[FieldNames], src: Src) {
    for (i, (f, n)) in fields.iter().zip(names).enumerate() {
        if f.is_constant() {
            continue;
        }
        let (get, set) = (&n.name, &n.setter());
        if let Src::Owned { fields: owned, .. } = src {
            // The owned value holds what the getter returns: a pointer where it may be absent.
            let g = &owned[i];
            let put = match &f.kind {
                Kind::Composite { .. } => format!("o.{g}.put(e.{set}())"),
                Kind::Prim(p) if p.ty == P::Char && p.len != 1 => format!("e.{set}(o.{g}[:])"),
                _ if f.may_be_absent() => format!("e.{set}(*o.{g})"),
                _ => format!("e.{set}(o.{g})"),
            };
            if f.may_be_absent() {
                o.line(&format!("if o.{g} != nil {{"));
                o.line(&put);
                if f.is_nullable() {
                    // Null: the null value, as the getter returns it.
                    o.line("} else {");
                    o.line(&format!("e.{set}({})", crate::types::absent(ctx, f)));
                }
                o.line("}");
            } else {
                o.line(&put);
            }
            continue;
        }
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
