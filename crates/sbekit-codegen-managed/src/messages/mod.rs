//! Per message two classes: the decoder (whose `wrap` runs the plan's checks once, with a
//! flyweight iterator class per group) and the encoder (fluent, with a class per group's
//! entries and the section order enforced).

use crate::fields::{getter, needs_scratch, setter, text_encoding, text_setter};
use crate::json::{fields_copy, fields_json, put};
use crate::types::{append_json_head, to_string};
use crate::{Ctx, Dialect, Out};
use sbekit_plan::json::{utf8_declared, SectionValue};
use sbekit_plan::names::BodyNames;
use sbekit_plan::program::{self, LocateSyntax};
use sbekit_plan::{Body, Empty, Group, Kind, Message, Section, Slot};

mod decoders;
mod encoders;

use decoders::decoder;
use encoders::encoder;

/// Every message's files: `(class name, source)`.
pub fn messages(ctx: &Ctx) -> Vec<(String, String)> {
    let imports = [ctx.d.reader_import(), ctx.d.writer_import()];
    let mut out = Vec::new();
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.messages) {
        let mut o = ctx.out();
        ctx.head(&mut o, &imports);
        decoder(&mut o, ctx, &m.body, n, Some(m), None);
        ctx.tail(&mut o);
        out.push((n.dec.clone(), o.s));
        let mut o = ctx.out();
        ctx.head(&mut o, &imports);
        encoder(&mut o, ctx, &m.body, n, Some(m), None, &n.enc);
        ctx.tail(&mut o);
        out.push((n.enc.clone(), o.s));
    }
    out
}

/// The block length needed at acting version `av` (an `int` expression), or `None` when it is
/// 0 at every version.
fn required_expr(required: &[(u32, usize)], av: &str) -> Option<String> {
    program::required_expr(
        required,
        |n| n.to_string(),
        |v, len, e| format!("({av} >= {v} ? {len} : {e})"),
    )
}

/// A documented public `int` constant of a message or entry class (`name` in Java's spelling).
fn int_const(o: &mut Out, ctx: &Ctx, doc: &str, name: &str, value: impl std::fmt::Display) {
    o.doc(doc);
    o.line(&format!(
        "{} {} = {value};",
        ctx.d.const_int(),
        ctx.d.konst(name)
    ));
}

/// The class's block length at the schema's version.
fn block_length_const(o: &mut Out, ctx: &Ctx, b: &Body) {
    int_const(
        o,
        ctx,
        "The block length this schema version writes.",
        "BLOCK_LENGTH",
        b.block_length,
    );
}

fn since_cond(since: u32, av: &str) -> Option<String> {
    (since > 0).then(|| format!("{av} >= {since}"))
}

fn groups(b: &Body) -> Vec<(usize, &Section, &Body)> {
    b.groups().collect()
}

/// How the managed languages write the plan's walk over a checked body's sections
/// ([`program::locate`]): the cursor `sbe_q`, each start noted in the field `rec<i>` (when
/// given), acting versions read from `av`.
struct Locate<'a> {
    d: &'a dyn Dialect,
    rec: Option<&'a str>,
    av: &'a str,
}

impl LocateSyntax for Locate<'_> {
    fn mark(&self, index: usize) -> String {
        self.rec
            .map_or_else(String::new, |r| format!("{r}{index} = sbe_q;"))
    }
    fn skip_group(&self, iter: &str) -> String {
        let end = self.d.member("sbeEnd");
        format!("sbe_q = {iter}.{end}(sbe_b, sbe_q, {});", self.av)
    }
    fn skip_var(&self, prefix: usize, len: &Slot) -> String {
        let len = self.d.slot_load(len, "sbe_b", "sbe_q");
        format!("sbe_q += {prefix} + (int) {len};")
    }
    fn gated(&self, since: u32, stmt: &str) -> String {
        format!("if ({} >= {since}) {stmt}", self.av)
    }
}

/// The trusted walk over the sections of a checked body whose block ends at `sbe_q`: records
/// where each starts in the field `rec<i>` (when given) and leaves `sbe_q` at the end.
fn walk(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, rec: Option<&str>, av: &str) {
    let syntax = Locate { d: ctx.d, rec, av };
    for line in program::locate(b, n, &syntax) {
        // Without `rec` the marks are empty.
        if !line.is_empty() {
            o.line(&line);
        }
    }
}

/// The message encoder class enclosing the entry encoder of `n` (entry encoders are nested in
/// their message's encoder).
fn ctx_msg_enc(ctx: &Ctx, n: &BodyNames) -> String {
    fn find(b: &BodyNames, n: &BodyNames) -> bool {
        b.children.iter().any(|c| c.dec == n.dec || find(c, n))
    }
    ctx.n
        .messages
        .iter()
        .find(|m| find(m, n))
        .map(|m| m.enc.clone())
        .unwrap_or_default()
}

/// Every group of body `b`, nested ones included, depth first.
fn all_groups<'a>(b: &'a Body, n: &'a BodyNames) -> Vec<(&'a Section, &'a Body, &'a BodyNames)> {
    let mut out = Vec::new();
    for ((_, s, gb), cn) in groups(b).into_iter().zip(&n.children) {
        out.push((s, gb, cn));
        out.extend(all_groups(gb, cn));
    }
    out
}

/// The value of one store of several parts (a value expression, its left shift in bits and
/// its width in bytes, from [`sbekit_plan::one_store`]): each part truncated to its width, as
/// its own store would, then shifted into place; a `long` expression.
pub(crate) fn joined_value(parts: &[(&str, u32, usize)]) -> String {
    parts
        .iter()
        .map(|(v, k, w)| {
            // The `long` mask widens an `int` part before its shift.
            let masked = if *w >= 8 {
                format!("({v})")
            } else {
                format!("(({v}) & 0x{:X}L)", (1u64 << (8 * w)) - 1)
            };
            if *k == 0 {
                masked
            } else {
                format!("({masked} << {k})")
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The stores (in `sbe_b` at `base`) of a message header's members that are not constants:
/// its block length `block_length`, the message's template id, the schema id and `version`
/// (`long` expressions).
pub(crate) fn header_stores(
    ctx: &Ctx,
    m: &Message,
    buf: &str,
    base: &str,
    block_length: &str,
    version: &str,
) -> Vec<String> {
    let (d, h) = (ctx.d, &ctx.plan.header);
    let stored: Vec<(&sbekit_plan::Field, sbekit_ir::PrimitiveType, String)> = [
        (&h.block_length, block_length.to_string()),
        (&h.template_id, format!("{}L", m.id)),
        (&h.schema_id, format!("SbeSchema.{}", d.konst("SCHEMA_ID"))),
        (&h.version, version.to_string()),
    ]
    .into_iter()
    .filter_map(|(f, val)| match &f.kind {
        Kind::Prim(p) if !f.is_constant() => Some((f, p.ty, val)),
        _ => None,
    })
    .collect();
    // The usual header (four adjacent `uint16`s) is one 8-byte store.
    let parts: Vec<(usize, usize)> = stored.iter().map(|(f, _, _)| (f.offset, f.size)).collect();
    if let Some((ty, shifts)) = sbekit_plan::one_store(&parts, ctx.plan.byte_order) {
        let values: Vec<(&str, u32, usize)> = stored
            .iter()
            .zip(&shifts)
            .map(|((f, _, val), &k)| (val.as_str(), k, f.size))
            .collect();
        return vec![format!(
            "{};",
            d.store_long(
                ty,
                buf,
                &format!("{base} + {}", parts[0].0),
                &joined_value(&values)
            )
        )];
    }
    let mut out = Vec::new();
    for (f, ty, val) in &stored {
        out.push(format!(
            "{};",
            d.store_long(*ty, buf, &format!("{base} + {}", f.offset), val)
        ));
    }
    out
}
