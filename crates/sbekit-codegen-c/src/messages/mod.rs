//! `messages.h`: per message a decoder type (with `decode`, which runs the plan's checks once),
//! group iterators, an encoder with ordered sections and group writers, then the `any` union
//! and `decode_any` (dispatch on the template id).

use crate::fields::{getter, setter, Sink};
use crate::prim::{c_str, cty, slot_load, slot_store, ulit};
use crate::{Ctx, Out};
use sbekit_plan::names::BodyNames;
use sbekit_plan::program::{self, CheckSyntax, Fail, HeaderValue, Local, LocateSyntax};
use sbekit_plan::{Body, Empty, Group, Kind, Message, Section, Slot};

mod decoders;
mod encoders;

use decoders::{decoder, iter};
use encoders::{encoder, writer};

fn err(kind: &str, off: &str, path: &str) -> String {
    format!(
        "return sbekit_fail(err, SBEKIT_{kind}, {off}, {});",
        c_str(path)
    )
}

/// The block length needed at acting version `av` (a `size_t` expression), or `None` when it is
/// 0 at every version.
fn required_expr(required: &[(u32, usize)], av: &str) -> Option<String> {
    program::required_expr(
        required,
        |n| format!("(size_t){n}"),
        |v, len, e| format!("({av} >= {v}u ? {len} : {e})"),
    )
}

fn since_cond(since: u32, av: &str) -> Option<String> {
    (since > 0).then(|| format!("{av} >= {since}u"))
}

/// The text of `messages.h`.
pub fn messages_h(ctx: &Ctx) -> String {
    let mut o = Out::default();
    let g = ctx.open_header(&mut o, "messages", &["sbekit_rt", "types"]);
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.messages) {
        message(&mut o, ctx, m, n);
    }
    any(&mut o, ctx);
    o.line(&format!("#endif  // {g}"));
    o.s
}

fn message(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    for ((_, s, gb), cn) in m.body.groups().zip(&n.children) {
        group_types(o, ctx, s, gb, cn);
    }
    decoder(o, ctx, &m.body, n, Some(m));
    encoder(o, ctx, &m.body, n, Some(m));
}

fn group_types(o: &mut Out, ctx: &Ctx, s: &Section, b: &Body, n: &BodyNames) {
    for ((_, cs, gb), cn) in b.groups().zip(&n.children) {
        group_types(o, ctx, cs, gb, cn);
    }
    let Some(g) = s.as_group() else {
        return;
    };
    decoder(o, ctx, b, n, None);
    iter(o, ctx, &g, n);
    encoder(o, ctx, b, n, None);
    writer(o, ctx, &g, n);
}

fn any(o: &mut Out, ctx: &Ctx) {
    let p = &ctx.n.package;
    let up = &ctx.up;
    o.doc(&format!("`{p}_any.which` when no message was decoded."));
    o.line(&format!("#define {up}_ANY_NONE 0"));
    for (i, n) in ctx.n.messages.iter().enumerate() {
        o.doc(&format!("`{p}_any.which` for a `{}`.", n.path));
        o.line(&format!("#define {} {}", n.tag, i + 1));
    }
    o.doc("Any message of the schema: what `decode_any` fills.");
    o.line(&format!("typedef struct {p}_any {{"));
    o.doc(&format!("Which message (`{up}_ANY_*`)."));
    o.line("int which;");
    o.doc("The message's decoder.");
    o.line("union {");
    o.doc("No message.");
    o.line("char none;");
    for (i, n) in ctx.n.messages.iter().enumerate() {
        o.doc(&format!("`{}`.", n.path));
        o.line(&format!("{} m{i};", n.dec));
    }
    o.line("} u;");
    o.line(&format!("}} {p}_any;"));
    o.doc("Decodes the message at the start of `b` (`n` bytes), whichever it is (dispatch on the header's template id), checking it as its `decode` does; 0 or the error kind (details in `err`).");
    o.line(&format!(
        "static inline int {p}_decode_any({p}_any* m, const uint8_t* b, size_t n, sbekit_error* err) {{"
    ));
    let h = &ctx.plan.header;
    o.line("uint64_t t;");
    o.line(&format!("m->which = {up}_ANY_NONE;"));
    o.line(&format!(
        "if (n < {up}_HEADER_LENGTH) {}",
        err("TRUNCATED", "0", "")
    ));
    let ty = match &h.template_id.kind {
        Kind::Prim(p) => p.ty,
        _ => sbekit_ir::PrimitiveType::Uint16,
    };
    o.line(&format!(
        "t = (uint64_t){};",
        crate::prim::load(ctx, ty, &format!("b + {}", h.template_id.offset))
    ));
    for (i, (m, n)) in ctx.plan.messages.iter().zip(&ctx.n.messages).enumerate() {
        o.line(&format!("if (t == {}) {{", ulit(u64::from(m.id))));
        o.line(&format!(
            "const int r = {}_decode(&m->u.m{i}, b, n, err);",
            n.dec
        ));
        o.line(&format!("if (r == 0) m->which = {};", n.tag));
        o.line("return r;");
        o.line("}");
    }
    o.line(&err(
        "WRONG_TEMPLATE_ID",
        &h.template_id.offset.to_string(),
        "",
    ));
    o.line("}");
    o.line("");
}
