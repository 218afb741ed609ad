//! `SbeDispatcher`: one decoder and encoder per message, reused.

use crate::Ctx;
use sbekit_plan::Kind;

/// The dispatcher's source.
pub fn dispatcher(ctx: &Ctx) -> String {
    let d = ctx.d;
    let (fin, ro) = (d.fixed(), d.readonly());
    let mut o = ctx.out();
    ctx.head(&mut o, &[d.reader_import(), d.writer_import()]);
    let h = &ctx.plan.header;
    o.doc("Decodes any message of the schema (dispatch on the header's template id) with one reusable decoder per message, and writes a decoded message again at its acting version. Not thread-safe: one per thread.");
    o.line(&format!("{} SbeDispatcher {{", d.class(false)));
    for (i, n) in ctx.n.messages.iter().enumerate() {
        o.line(&format!(
            "private {ro} {} sbe_d{i} = new {}();",
            n.dec, n.dec
        ));
        o.line(&format!(
            "private {ro} {} sbe_e{i} = new {}();",
            n.enc, n.enc
        ));
    }
    o.line("");
    o.doc("Checks and wraps the message at `offset` of `buffer` (`length` bytes available), whichever it is; the message's own decoder (reused by the next call). Throws `SbeDecodeException` for malformed input or an unknown template id.");
    let wrap = d.member("wrap");
    o.line(&format!(
        "public {} {wrap}({fin}{} buffer, {fin}int offset, {fin}int length) {{",
        d.decoder_interface(),
        d.reader()
    ));
    o.line(&format!(
        "if ({}offset < 0 || length < SbeSchema.{} || length > {} - offset) {}",
        d.null_test("buffer"),
        d.konst("HEADER_LENGTH"),
        d.capacity("buffer"),
        d.decode_error("TRUNCATED", "0", "")
    ));
    let tid = match &h.template_id.kind {
        Kind::Prim(p) if h.template_id.is_constant() => p
            .constant
            .as_ref()
            .map(|c| d.long_lit(sbekit_ir::layout::wire_bits(c, p.ty)))
            .unwrap_or_else(|| "0L".into()),
        _ => d.slot_load(&h.slots.template_id, "buffer", "offset"),
    };
    o.line(&format!("{fin}long sbe_t = {tid};"));
    for (i, m) in ctx.plan.messages.iter().enumerate() {
        o.line(&format!(
            "if (sbe_t == {}L) return sbe_d{i}.{wrap}(buffer, offset, length);",
            m.id
        ));
    }
    o.line(&d.decode_error(
        "WRONG_TEMPLATE_ID",
        &h.slots.template_id.offset.to_string(),
        "",
    ));
    o.line("}");
    d.reencode(&mut o, ctx);
    o.line("}");
    ctx.tail(&mut o);
    o.s
}
