//! `owned.go`: owned values. Per message, group entry and composite a plain struct
//! (`CarOwned`) with an exported field per non-constant field and per section; `From` copies
//! what a decoder reads into it, `put` writes it through the generated encoder (rendered by
//! [`crate::json::copy_body`] with [`Src::Owned`]: the same calls `Reencode` makes from a
//! decoder). Per message `DecodeCarOwned` and `EncodeOwned` (at the value's
//! `SbeActingVersion`, as `Reencode` writes a decoded message); `AnyOwned` and `DecodeOwned`
//! dispatch on the template id. Every owned type has `Validate` ([`crate::validate`]), which
//! `EncodeOwned` does not call.
//!
//! One rule for values a decoder may not find (its getter returns `(v, ok)`: optional, or newer
//! than version 0): a pointer, nil when absent or null (and written as the null value, or as
//! zeros for a newer field that is not optional, as an encoder leaves an unset field). Fixed arrays are Go arrays (a char array
//! holds all its bytes, NULs included, as its raw getter reads them), groups are slices of entry
//! values, var data is a `[]byte`, or a `string` where the plan marks it as text (a Go string
//! holds any bytes, so nothing is lost); empty groups and var data are nil or "". Constants are
//! not stored (the decoders' getters give them).

use crate::json::{copy_body, copy_composite, Src};
use crate::names::{owned_fields, owned_type};
use crate::types::value_type;
use crate::validate;
use crate::{go_file, Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::{BodyNames, FieldNames};
use sbekit_plan::{Body, Field, Kind, Section};

/// The text of `owned.go`.
pub fn owned_go(ctx: &Ctx) -> String {
    let mut o = Out::default();
    for k in ctx.plan.composites.keys() {
        composite(&mut o, ctx, k);
    }
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.messages) {
        body(&mut o, ctx, &m.body, n, true);
        let (d, t) = (&n.dec, owned_type(&n.dec));
        o.doc(&format!("Decode{t} checks the message at the start of b as {d}'s Wrap does (the same *DecodeError) and copies it into an owned value."));
        o.line(&format!("func Decode{t}(b []byte) ({t}, error) {{"));
        o.line(&format!("var d {d}"));
        o.line(&format!("var o {t}"));
        o.line("if err := d.Wrap(b); err != nil {");
        o.line("return o, err");
        o.line("}");
        o.line("o.From(&d)");
        o.line("return o, nil");
        o.line("}");
        o.line("");
        o.doc("SbeTemplateID is the message's template id.");
        o.line(&format!(
            "func (o *{t}) SbeTemplateID() uint64 {{ return {d}TemplateID }}"
        ));
        o.line("");
        o.doc(&format!("EncodeOwned writes the message at the start of buf with {} at o.SbeActingVersion (an older version writes that version's block lengths and leaves newer fields and sections out; a newer one is written as the schema's), as Reencode writes a decoded message, and returns its length, header included, or the first error (an *EncodeError).", n.enc));
        o.doc(validate::ENCODE_DOC);
        o.line(&format!(
            "func (o *{t}) EncodeOwned(buf []byte) (int, error) {{"
        ));
        o.line(&format!("var e {}", n.enc));
        o.line("e.Wrap(buf, o.SbeActingVersion)");
        o.line("o.put(&e)");
        o.line("return e.Finish()");
        o.line("}");
        o.line("");
    }
    any(&mut o, ctx);
    go_file(&ctx.n.package, &o.s)
}

/// The owned type of a field: what its getter returns (a char array as all its bytes, a
/// composite as its owned value), behind a pointer where the getter returns `(v, ok)`.
fn field_type(ctx: &Ctx, f: &Field) -> String {
    let t = match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => format!("[{}]byte", p.len),
        Kind::Composite { ty } => owned_type(&ctx.n.composites[ty].dec),
        _ => value_type(ctx, f),
    };
    if f.may_be_absent() {
        format!("*{t}")
    } else {
        t
    }
}

/// The struct fields of `fields` (constants left out) and the lines of `From` filling them
/// from decoder `d`.
fn fields_from(
    ctx: &Ctx,
    fields: &[Field],
    names: &[FieldNames],
    owned: &[String],
) -> (Vec<(String, String)>, Out) {
    let (mut rows, mut o) = (Vec::new(), Out::default());
    for ((f, n), g) in fields.iter().zip(names).zip(owned) {
        if f.is_constant() {
            continue;
        }
        rows.push((g.clone(), field_type(ctx, f)));
        let get = &n.name;
        let opt = f.may_be_absent();
        match &f.kind {
            Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
                let raw = n.raw.as_deref().unwrap_or_default();
                if opt {
                    o.line(&format!("if x, ok := d.{raw}(); ok {{"));
                    o.line(&format!("o.{g} = new([{}]byte)", p.len));
                    o.line(&format!("copy(o.{g}[:], x)"));
                    o.line("}");
                } else {
                    o.line(&format!("copy(o.{g}[:], d.{raw}())"));
                }
            }
            Kind::Composite { ty } => {
                if opt {
                    o.line(&format!("if x, ok := d.{get}(); ok {{"));
                    o.line(&format!(
                        "o.{g} = new({})",
                        owned_type(&ctx.n.composites[ty].dec)
                    ));
                    o.line(&format!("o.{g}.From(x)"));
                    o.line("}");
                } else {
                    o.line(&format!("o.{g}.From(d.{get}())"));
                }
            }
            _ if opt => {
                o.line(&format!("if x, ok := d.{get}(); ok {{"));
                o.line(&format!("o.{g} = &x"));
                o.line("}");
            }
            _ => o.line(&format!("o.{g} = d.{get}()")),
        }
    }
    (rows, o)
}

/// A composite's owned type, `From` and `put`.
fn composite(o: &mut Out, ctx: &Ctx, k: &str) {
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    let (owned, _) = owned_fields(&members, &[]);
    let (rows, from) = fields_from(ctx, &members, &n.members, &owned);
    let t = owned_type(&n.dec);
    let doc = format!(
        "{t} holds a `{k}` composite by value: what {} reads (a pointer where it may find no value).",
        n.dec
    );
    owned_struct(o, &doc, &t, &rows, &n.dec, "", &from);
    copy_composite(
        o,
        ctx,
        k,
        Src::Owned {
            fields: &owned,
            sections: &[],
        },
    );
    let doc = format!("Validate checks o against the schema as a message's Validate does: the first rule a member breaks, as a *ValidationError with the path `{k}.member`, or nil.");
    validate::validate_fn(o, &t, &doc, &validate::composite_checks(ctx, k, &members));
}

/// A body's owned type (groups' entries first), `From` and `put`.
fn body(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, top: bool) {
    for ((_, _, gb), cn) in b.groups().zip(&n.children) {
        body(o, ctx, gb, cn, false);
    }
    let (owned, osec) = owned_fields(&b.fields, &b.sections);
    let (mut rows, mut from) = fields_from(ctx, &b.fields, &n.fields, &owned);
    if top {
        rows.insert(0, ("SbeActingVersion".into(), "uint64".into()));
    }
    let mut gi = 0;
    for ((s, sn), g) in b.sections.iter().zip(&n.sections).zip(&osec) {
        let get = &sn.name;
        match s {
            Section::Group { .. } => {
                let et = owned_type(&n.children[gi].dec);
                gi += 1;
                rows.push((g.clone(), format!("[]{et}")));
                from.line(&format!("if it := d.{get}(); it.Count() > 0 {{"));
                from.line(&format!("o.{g} = make([]{et}, it.Count())"));
                from.line("for i := 0; it.Next(); i++ {");
                from.line(&format!("o.{g}[i].From(it.Entry())"));
                from.line("}");
                from.line("}");
            }
            Section::Var { text: true, .. } => {
                rows.push((g.clone(), "string".into()));
                from.line(&format!("o.{g} = string(d.{get}())"));
            }
            Section::Var { .. } => {
                rows.push((g.clone(), "[]byte".into()));
                from.line(&format!("o.{g} = append([]byte(nil), d.{get}()...)"));
            }
        }
    }
    let (t, d) = (owned_type(&n.dec), &n.dec);
    let (doc, init) = if top {
        (format!("{t} holds one `{}` message by value: what {d} reads, to keep past its buffer or to build and write with EncodeOwned. A field {d} may find without a value (optional, or newer than version 0) is a pointer: nil when it reads absent or null, and written as the null value (optional) or zeros (newer) at a version that has it. Groups are slices of entries, var data []byte (text: string), nil or empty when absent. SbeActingVersion is the version the message is written at: Decode{t} sets the writer's; set SchemaVersion for a new message.", n.path), "SbeActingVersion: d.SbeActingVersion()")
    } else {
        (
            format!(
                "{t} holds one entry of the `{}` group by value: what {d} reads.",
                n.path
            ),
            "",
        )
    };
    owned_struct(o, &doc, &t, &rows, &format!("*{d}"), init, &from);
    copy_body(
        o,
        ctx,
        b,
        n,
        top,
        Src::Owned {
            fields: &owned,
            sections: &osec,
        },
    );
    let doc = if top {
        validate::MESSAGE_DOC.to_string()
    } else {
        format!("Validate checks the entry against the schema as the message's Validate does: the first rule it breaks, as a *ValidationError (paths under `{}`), or nil.", n.path)
    };
    validate::validate_fn(o, &t, &doc, &validate::body_checks(ctx, b));
}

/// An owned type `t` with its fields (`rows`) and `From`, which takes a decoder of type `dec`,
/// starts from `t{init}` and runs `from`.
fn owned_struct(
    o: &mut Out,
    doc: &str,
    t: &str,
    rows: &[(String, String)],
    dec: &str,
    init: &str,
    from: &Out,
) {
    o.doc(doc);
    o.line(&format!("type {t} struct {{"));
    o.fields(rows);
    o.line("}");
    o.line("");
    o.doc("From sets o to what d reads.");
    o.line(&format!("func (o *{t}) From(d {dec}) {{"));
    o.line(&format!("*o = {t}{{{init}}}"));
    o.s.push_str(&indent(&from.s));
    o.line("}");
    o.line("");
}

/// Lines of a function body written at indentation 0, one level in.
pub(crate) fn indent(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("\t{l}\n")
            }
        })
        .collect()
}

/// `AnyOwned` and `DecodeOwned`.
fn any(o: &mut Out, ctx: &Ctx) {
    o.doc("AnyOwned is an owned message of any type of the schema (a *CarOwned for a Car), as DecodeOwned returns it.");
    o.line("type AnyOwned interface {");
    o.doc("SbeTemplateID is the message's template id.");
    o.line("SbeTemplateID() uint64");
    o.doc("EncodeOwned writes the message at its acting version at the start of buf; its length or the first error.");
    o.line("EncodeOwned(buf []byte) (int, error)");
    o.doc("Validate checks the message against the schema: the first rule it breaks, as a *ValidationError, or nil (EncodeOwned does not call it).");
    o.line("Validate() error");
    o.line("}");
    o.line("");
    o.doc("DecodeOwned checks the message at the start of b as AnyDecoder does (dispatching on the template id) and copies it into its owned value.");
    o.line("func DecodeOwned(b []byte) (AnyOwned, error) {");
    o.line("t, err := TemplateIDOf(b)");
    o.line("if err != nil {");
    o.line("return nil, err");
    o.line("}");
    o.line("switch t {");
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.messages) {
        o.line(&format!("case {}:", m.id));
        o.line(&format!("o, err := Decode{}(b)", owned_type(&n.dec)));
        o.line("if err != nil {");
        o.line("return nil, err");
        o.line("}");
        o.line("return &o, nil");
    }
    o.line("}");
    o.line(&format!(
        "return nil, derr(ErrWrongTemplateID, {}, 0, \"\")",
        ctx.plan.header.slots.template_id.offset
    ));
    o.line("}");
    o.line("");
}
