//! `messages.go`: per message and group entry a flyweight decoder (`Wrap` runs the plan's checks
//! once; accessors then read at fixed offsets) and a fluent encoder; per group an iterator and a
//! writer; then `AnyDecoder`, which dispatches on the template id.
//!
//! Encoders keep all their state in the message encoder (`CarEncoder`): the block being
//! written, the next section of each open body and each group's count. Entry encoders and group
//! writers are handles holding a pointer to it, so nothing points back into a struct from
//! inside it and an encoder on the stack stays there (no allocation).

use crate::prim::{go_str, slot_load, slot_store};
use crate::types::{getter, setter, Sink, Src};
use crate::{go_file, Ctx, Out};
use sbekit_plan::names::BodyNames;
use sbekit_plan::program::{self, At, CheckSyntax, Fail, HeaderValue, Local};
use sbekit_plan::{Body, CheckError, Empty, Kind, Message, RequiredLengths, Section, Slot};

mod decoders;
mod encoders;

use decoders::{decoder, iter};
use encoders::encoder;

/// The text of `messages.go`.
pub fn messages_go(ctx: &Ctx) -> String {
    let mut o = Out::default();
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.messages) {
        body(&mut o, ctx, &m.body, n, Some(m), None, n, "s");
    }
    any(&mut o, ctx);
    go_file(&ctx.n.package, &o.s)
}

/// `if cond { line }` as gofmt writes it.
fn iff(o: &mut Out, cond: &str, then: &str) {
    o.line(&format!("if {cond} {{"));
    o.line(then);
    o.line("}");
}

/// A function of the acting version `v` giving the block bytes a version needs.
fn required_fn(o: &mut Out, name: &str, required: &RequiredLengths) {
    o.line(&format!("func {name}(v uint64) uint64 {{"));
    let (base, changes) = program::required_changes(required);
    for (v, len) in changes.iter().rev() {
        iff(o, &format!("v >= {v}"), &format!("return {len}"));
    }
    if required.iter().all(|r| r.0 != 0) {
        o.line("_ = v");
    }
    o.line(&format!("return {base}"));
    o.line("}");
    o.line("");
}

/// Emits a body (message or entry) and, first, its groups' bodies.
#[allow(clippy::too_many_arguments)]
fn body(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    group: Option<&Section>,
    root: &BodyNames,
    state: &str,
) {
    let mut gi = 0;
    for s in &b.sections {
        if let Section::Group { body: gb, .. } = s {
            let st = format!("{state}.g{gi}");
            body(o, ctx, gb, &n.children[gi], None, Some(s), root, &st);
            gi += 1;
        }
    }
    decoder(o, ctx, b, n, msg);
    if let Some(sec) = group {
        iter(o, ctx, sec, b, n);
    }
    let dim_size = match group {
        Some(Section::Group { dim_size, .. }) => Some(*dim_size),
        _ => None,
    };
    encoder(o, ctx, b, n, msg, root, state, dim_size);
}

/// `Message`, `AnyDecoder` and `TemplateIDOf`.
fn any(o: &mut Out, ctx: &Ctx) {
    let h = &ctx.plan.header;
    o.doc("Message is a decoded message of any type.");
    o.line("type Message interface {");
    o.doc("SbeTemplateID is the message's template id.");
    o.line("SbeTemplateID() uint64");
    o.doc("SbeActingVersion is the schema version the writer used.");
    o.line("SbeActingVersion() uint64");
    o.doc("SbeEncodedLength is the length of the message, header included.");
    o.line("SbeEncodedLength() int");
    o.doc("AppendJSON appends the message as `sbekit decode` prints it.");
    o.line("AppendJSON(dst []byte) []byte");
    o.line("}");
    o.line("");
    o.doc("TemplateIDOf reads the template id from the message header at the start of b.");
    o.line("func TemplateIDOf(b []byte) (uint64, error) {");
    iff(
        o,
        "len(b) < HeaderLength",
        "return 0, derr(ErrTruncated, 0, 0, \"\")",
    );
    o.line(&format!(
        "return {}, nil",
        slot_load(ctx, &h.slots.template_id, "b", "0")
    ));
    o.line("}");
    o.line("");
    o.doc("AnyDecoder decodes messages of every type of the schema, dispatching on the template id; it holds one decoder per type, so decoding allocates nothing.");
    o.line("type AnyDecoder struct {");
    let rows: Vec<(String, String)> = ctx
        .n
        .messages
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("m{i}"), n.dec.clone()))
        .collect();
    o.fields(&rows);
    o.line("}");
    o.line("");
    o.doc("Decode checks the message at the start of b as its type's Wrap does and returns its decoder (valid until the next Decode of that type).");
    o.line("func (a *AnyDecoder) Decode(b []byte) (Message, error) {");
    o.line("t, err := TemplateIDOf(b)");
    iff(o, "err != nil", "return nil, err");
    o.line("switch t {");
    for (i, m) in ctx.plan.messages.iter().enumerate() {
        o.line(&format!("case {}:", m.id));
        iff(
            o,
            &format!("err := a.m{i}.Wrap(b); err != nil"),
            "return nil, err",
        );
        o.line(&format!("return &a.m{i}, nil"));
    }
    o.line("}");
    o.line(&format!(
        "return nil, derr(ErrWrongTemplateID, {}, 0, \"\")",
        h.slots.template_id.offset
    ));
    o.line("}");
    o.line("");
}
