//! Per message two files: `<Message>Decoder.java` (the message decoder, whose `wrap` runs the
//! plan's checks once, and a flyweight iterator class per group) and `<Message>Encoder.java`
//! (the fluent encoder and a class per group's entries, the section order enforced).

use crate::fields::{getter, needs_scratch, scratch, setter};
use crate::json::{fields_copy, fields_json, put};
use crate::names::BodyNames;
use crate::prim::{java_str, long_lit, slot_load, slot_store};
use crate::types::head;
use crate::{Ctx, Out};
use sbekit_plan::json::{quote, utf8_declared};
use sbekit_plan::{Body, Check, Kind, Message, Section};

/// Every message's files: `(class name, source)`.
pub fn messages(ctx: &Ctx) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.msgs) {
        let mut o = Out::default();
        head(
            &mut o,
            ctx,
            &["org.agrona.DirectBuffer", "org.agrona.MutableDirectBuffer"],
        );
        decoder(&mut o, ctx, &m.body, n, Some(m), None);
        out.push((n.dec.clone(), o.s));
        let mut o = Out::default();
        head(
            &mut o,
            ctx,
            &["org.agrona.DirectBuffer", "org.agrona.MutableDirectBuffer"],
        );
        encoder(&mut o, ctx, &m.body, n, Some(m), None, &n.enc);
        out.push((n.enc.clone(), o.s));
    }
    out
}

/// The block length needed at acting version `av` (an `int` expression), or `None` when it is
/// 0 at every version.
fn required_expr(required: &[(u32, usize)], av: &str) -> Option<String> {
    if required.iter().all(|r| r.1 == 0) {
        return None;
    }
    let mut e = "0".to_string();
    for (v, len) in required {
        e = if *v == 0 {
            len.to_string()
        } else {
            format!("({av} >= {v} ? {len} : {e})")
        };
    }
    Some(e)
}

fn err(kind: &str, off: &str, path: &str) -> String {
    format!(
        "throw new SbeDecodeException(SbeDecodeException.Kind.{kind}, {off}, {});",
        java_str(path)
    )
}

fn since_cond(since: u32, av: &str) -> Option<String> {
    (since > 0).then(|| format!("{av} >= {since}"))
}

/// A header member's value as a `long`: its constant, or a load of its slot.
fn header_value(f: &sbekit_plan::Field, slot: &sbekit_plan::Slot, pos: &str) -> String {
    if let Kind::Prim(p) = &f.kind {
        if let (true, Some(c)) = (f.is_constant(), &p.constant) {
            return long_lit(sbekit_ir::layout::wire_bits(c, p.ty));
        }
    }
    slot_load(slot, "sbe_b", pos)
}

fn groups(b: &Body) -> Vec<(usize, &Section, &Body)> {
    b.groups().collect()
}

/// The trusted walk over the sections of a checked body whose block ends at `sbe_q`: records
/// where each starts in `rec[i]` (when given) and leaves `sbe_q` at the end.
fn walk(o: &mut Out, b: &Body, n: &BodyNames, rec: Option<&str>, av: &str) {
    let mut gi = 0;
    for (i, s) in b.sections.iter().enumerate() {
        if let Some(r) = rec {
            o.line(&format!("{r}[{i}] = sbe_q;"));
        }
        let step = match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                format!("sbe_q = {}.sbeEnd(sbe_b, sbe_q, {av});", cn.dec)
            }
            Section::Var { len, .. } => format!(
                "sbe_q += {} + (int) {};",
                s.data_offset(),
                slot_load(len, "sbe_b", "sbe_q")
            ),
        };
        match since_cond(s.since(), av) {
            Some(c) => o.line(&format!("if ({c}) {step}")),
            None => o.line(&step),
        }
    }
    if let Some(r) = rec {
        o.line(&format!("{r}[{}] = sbe_q;", b.sections.len()));
    }
}

fn decoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    sec: Option<&Section>,
) {
    let k = b.sections.len();
    let d = &n.dec;
    match msg {
        Some(m) => {
            o.doc(&format!(
                "{}\nA flyweight over a `{}` message (template id {}): `wrap` checks the whole message once (header, block lengths, every group count and var-data length) and throws `SbeDecodeException` for malformed input; accessors then read fixed offsets without further checks.",
                b.description.as_deref().unwrap_or(""),
                b.name,
                m.id
            ));
            o.line(&format!(
                "public final class {d} implements SbeMessageDecoder {{"
            ));
            o.doc("The message's template id.");
            o.line(&format!("public static final int TEMPLATE_ID = {};", m.id));
        }
        None => {
            o.doc(&format!(
                "{}\nThe entries of the `{}` group: a reusable flyweight that is its own iterator (`for (var e : d.group())`); each `next()` moves it to the next entry.",
                b.description.as_deref().unwrap_or(""),
                n.path
            ));
            o.line(&format!(
                "public static final class {d} implements Iterable<{d}>, java.util.Iterator<{d}> {{"
            ));
        }
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "public static final int BLOCK_LENGTH = {};",
        b.block_length
    ));
    o.line("private DirectBuffer sbe_b;");
    o.line("private int sbe_p;");
    o.line("private int sbe_bl;");
    o.line("private long sbe_av;");
    if k > 0 {
        o.line(&format!(
            "private final int[] sbe_sec = new int[{}];",
            k + 1
        ));
    }
    if msg.is_some() {
        o.line("private int sbe_o;");
        o.line("private int sbe_end;");
    } else {
        o.line("private int sbe_count;");
        o.line("private int sbe_index;");
        o.line("private int sbe_next;");
    }
    for (gi, (i, _, _)) in groups(b).into_iter().enumerate() {
        let cn = &n.children[gi];
        o.line(&format!(
            "private final {} sbe_g{i} = new {}();",
            cn.dec, cn.dec
        ));
    }
    for (i, s) in b.sections.iter().enumerate() {
        if matches!(s, Section::Var { .. }) {
            o.line(&format!(
                "private final org.agrona.concurrent.UnsafeBuffer sbe_v{i} = new org.agrona.concurrent.UnsafeBuffer(new byte[0]);"
            ));
        }
    }
    o.line("");
    if let Some(m) = msg {
        wrap_fn(o, ctx, m, n);
        o.doc("The message's template id.");
        o.line("@Override");
        o.line("public int sbeTemplateId() { return TEMPLATE_ID; }");
        o.doc("Bytes from the start of the header to the end of the message.");
        o.line("@Override");
        o.line("public int encodedLength() { return sbe_end - sbe_o; }");
        o.doc("Where the message (its header) starts in the buffer.");
        o.line("public int offset() { return sbe_o; }");
        o.doc("The schema version the writer used (from the message header).");
        o.line("@Override");
        o.line("public long actingVersion() { return sbe_av; }");
    } else {
        group_fns(o, b, n, sec);
        o.doc("The schema version the writer used.");
        o.line("public long actingVersion() { return sbe_av; }");
        o.doc("Where the current entry starts in the buffer.");
        o.line("public int offset() { return sbe_p; }");
    }
    o.doc("The block length on the wire.");
    o.line("public int blockLength() { return sbe_bl; }");
    o.doc("The buffer read.");
    o.line("public DirectBuffer buffer() { return sbe_b; }");
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        getter(o, ctx, i, f, fname);
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let name = &sn.name;
        let present = since_cond(s.since(), "sbe_av");
        match s {
            Section::Group {
                name: sname,
                description,
                since,
                ..
            } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(&format!(
                    "{}\nThe entries of the `{sname}` group (a reusable flyweight iterator){}.",
                    description.as_deref().unwrap_or(""),
                    if *since > 0 {
                        format!("; no entries when the acting version is older than {since}")
                    } else {
                        String::new()
                    }
                ));
                o.line(&format!(
                    "public {} {name}() {{ return sbe_g{i}.sbeWrap(sbe_b, sbe_sec[{i}], sbe_av, {}); }}",
                    cn.dec,
                    present.clone().unwrap_or_else(|| "true".into())
                ));
            }
            Section::Var {
                name: sname,
                description,
                len,
                char_encoding,
                ..
            } => {
                let l = s.data_offset();
                o.doc(&format!(
                    "The length of the `{sname}` data{}.",
                    if s.since() > 0 {
                        " (0 when the acting version is older than its own)"
                    } else {
                        ""
                    }
                ));
                let load = format!(
                    "(int) {}",
                    slot_load(len, "sbe_b", &format!("sbe_sec[{i}]"))
                );
                match &present {
                    Some(c) => o.line(&format!(
                        "public int {}() {{ return {c} ? {load} : 0; }}",
                        sn.length
                    )),
                    None => o.line(&format!("public int {}() {{ return {load}; }}", sn.length)),
                }
                o.doc(&format!(
                    "{}\nThe `{sname}` data as a view of the buffer (a reused flyweight).",
                    description.as_deref().unwrap_or("")
                ));
                o.line(&format!("public DirectBuffer {name}() {{"));
                o.line(&format!(
                    "sbe_v{i}.wrap(sbe_b, sbe_sec[{i}] + {l}, {}());",
                    sn.length
                ));
                o.line(&format!("return sbe_v{i};"));
                o.line("}");
                o.doc(&format!(
                    "Copies the `{sname}` data into `dst` at `dstOffset`; the number of bytes copied."
                ));
                o.line(&format!(
                    "public int {}(final MutableDirectBuffer dst, final int dstOffset) {{",
                    sn.get
                ));
                o.line(&format!("final int sbe_n = {}();", sn.length));
                o.line(&format!(
                    "dst.putBytes(dstOffset, sbe_b, sbe_sec[{i}] + {l}, sbe_n);"
                ));
                o.line("return sbe_n;");
                o.line("}");
                o.doc(&format!(
                    "Copies up to `length` bytes of the `{sname}` data into `dst` at `dstOffset`; the number of bytes copied."
                ));
                o.line(&format!(
                    "public int {}(final byte[] dst, final int dstOffset, final int length) {{",
                    sn.get
                ));
                o.line(&format!(
                    "final int sbe_n = Math.min(length, {}());",
                    sn.length
                ));
                o.line(&format!(
                    "sbe_b.getBytes(sbe_sec[{i}] + {l}, dst, dstOffset, sbe_n);"
                ));
                o.line("return sbe_n;");
                o.line("}");
                let cs = if utf8_declared(char_encoding.as_deref()) {
                    "UTF_8"
                } else {
                    "ISO_8859_1"
                };
                o.doc(&format!(
                    "The `{sname}` data as a `String`, decoded as {cs} (allocates)."
                ));
                o.line(&format!("public String {}() {{", sn.string));
                o.line(&format!("final byte[] sbe_t = new byte[{}()];", sn.length));
                o.line(&format!("sbe_b.getBytes(sbe_sec[{i}] + {l}, sbe_t);"));
                o.line(&format!(
                    "return new String(sbe_t, java.nio.charset.StandardCharsets.{cs});"
                ));
                o.line("}");
            }
        }
    }
    // JSON.
    let members = !b.fields.is_empty() || !b.sections.is_empty();
    o.doc("Appends the message or entry as one line of JSON, as `sbekit decode` prints it.");
    if msg.is_some() {
        o.line("@Override");
    }
    o.line("public StringBuilder appendJson(final StringBuilder out) {");
    put(o, "{");
    if msg.is_some() {
        o.line("if (sbe_av < SbeSchema.SCHEMA_VERSION) {");
        put(o, "\"$version\":");
        o.line("out.append(sbe_av);");
        if members {
            put(o, ",");
        }
        o.line("}");
    }
    fields_json(o, ctx, &b.fields, &n.fields, true);
    let mut first = b.fields.is_empty();
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let comma = if first { "" } else { "," };
        first = false;
        put(o, &format!("{comma}{}:", quote(s.name())));
        match s {
            Section::Group { .. } => {
                put(o, "[");
                o.line(&format!("boolean sbe_first{i} = true;"));
                o.line(&format!("for (final var sbe_x : {}()) {{", sn.name));
                o.line(&format!("if (!sbe_first{i}) out.append(',');"));
                o.line(&format!("sbe_first{i} = false;"));
                o.line("sbe_x.appendJson(out);");
                o.line("}");
                put(o, "]");
            }
            Section::Var { char_encoding, .. } => {
                o.line(&format!(
                    "SbeJson.appendText(out, sbe_b, sbe_sec[{i}] + {}, {}(), {});",
                    s.data_offset(),
                    sn.length,
                    utf8_declared(char_encoding.as_deref())
                ));
            }
        }
    }
    put(o, "}");
    o.line("return out;");
    o.line("}");
    o.line("@Override");
    o.line("public String toString() {");
    o.line("return appendJson(new StringBuilder()).toString();");
    o.line("}");
    // Copy.
    o.doc("Writes what this decoder reads into `e` (used to re-encode a message at its acting version).");
    let enc_path = if msg.is_some() {
        n.enc.clone()
    } else {
        format!("{}.{}", ctx_msg_enc(ctx, n), n.enc)
    };
    o.line(&format!("public void sbeCopyTo(final {enc_path} e) {{"));
    fields_copy(o, &b.fields, &n.fields);
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        match s {
            Section::Group { .. } => {
                o.line(&format!("final var sbe_w{i} = e.{}();", sn.name));
                o.line(&format!(
                    "for (final var sbe_x : {}()) sbe_x.sbeCopyTo(sbe_w{i}.next());",
                    sn.name
                ));
            }
            Section::Var { .. } => o.line(&format!(
                "e.{}(sbe_b, sbe_sec[{i}] + {}, {}());",
                sn.name,
                s.data_offset(),
                sn.length
            )),
        }
    }
    o.line("}");
    // Every group's class, nested in the message's class (flat, so each is `Message.Class`).
    if msg.is_some() {
        for (gs, gb, cn) in all_groups(b, n) {
            o.line("");
            decoder(o, ctx, gb, cn, None, Some(gs));
        }
    }
    o.line("}");
}

/// The message encoder class enclosing the entry encoder of `n` (entry encoders are nested in
/// their message's encoder).
fn ctx_msg_enc(ctx: &Ctx, n: &BodyNames) -> String {
    fn find(b: &BodyNames, n: &BodyNames) -> bool {
        b.children.iter().any(|c| c.dec == n.dec || find(c, n))
    }
    ctx.n
        .msgs
        .iter()
        .find(|m| find(m, n))
        .map(|m| m.enc.clone())
        .unwrap_or_default()
}

/// The group decoder's iteration: `sbeWrap`, `sbeEnd` (the trusted walk to its end), `count`,
/// `hasNext`, `next`, `iterator`.
fn group_fns(o: &mut Out, b: &Body, n: &BodyNames, sec: Option<&Section>) {
    let d = &n.dec;
    let Some((dim, bl_slot, count_slot)) = group_slots(sec) else {
        return;
    };
    o.doc("Internal: the checked group at `p`, or no entries when it is absent.");
    o.line(&format!(
        "{d} sbeWrap(final DirectBuffer b, final int p, final long av, final boolean present) {{"
    ));
    o.line("sbe_b = b;");
    o.line("sbe_av = av;");
    o.line("sbe_index = 0;");
    o.line("if (present) {");
    o.line(&format!(
        "sbe_bl = (int) {};",
        slot_load(&bl_slot, "b", "p")
    ));
    o.line(&format!(
        "sbe_count = (int) {};",
        slot_load(&count_slot, "b", "p")
    ));
    o.line(&format!("sbe_next = p + {dim};"));
    o.line("} else {");
    o.line("sbe_bl = 0;");
    o.line("sbe_count = 0;");
    o.line("sbe_next = p;");
    o.line("}");
    o.line("return this;");
    o.line("}");
    o.doc("Internal: where the checked group at `p` ends.");
    o.line("static int sbeEnd(final DirectBuffer sbe_b, final int p, final long av) {");
    o.line(&format!(
        "final int sbe_bl = (int) {};",
        slot_load(&bl_slot, "sbe_b", "p")
    ));
    o.line(&format!(
        "final int sbe_n = (int) {};",
        slot_load(&count_slot, "sbe_b", "p")
    ));
    o.line(&format!("int sbe_q = p + {dim};"));
    if b.is_fixed() {
        o.line("return sbe_q + sbe_bl * sbe_n;");
    } else {
        o.line("for (int sbe_i = 0; sbe_i < sbe_n; sbe_i++) {");
        o.line("sbe_q += sbe_bl;");
        walk(o, b, n, None, "av");
        o.line("}");
        o.line("return sbe_q;");
    }
    o.line("}");
    o.doc("The number of entries.");
    o.line("public int count() { return sbe_count; }");
    o.doc("True if an entry is left.");
    o.line("@Override");
    o.line("public boolean hasNext() { return sbe_index < sbe_count; }");
    o.doc("Moves to the next entry (this flyweight).");
    o.line("@Override");
    o.line(&format!("public {d} next() {{"));
    o.line("if (sbe_index >= sbe_count) throw new java.util.NoSuchElementException();");
    o.line("sbe_index++;");
    o.line("sbe_p = sbe_next;");
    if b.is_fixed() {
        o.line("sbe_next = sbe_p + sbe_bl;");
    } else {
        o.line("int sbe_q = sbe_p + sbe_bl;");
        walk(o, b, n, Some("sbe_sec"), "sbe_av");
        o.line("sbe_next = sbe_q;");
    }
    o.line("return this;");
    o.line("}");
    o.doc("This flyweight, as its own iterator.");
    o.line("@Override");
    o.line(&format!(
        "public java.util.Iterator<{d}> iterator() {{ return this; }}"
    ));
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

/// The dimension of a group section: its size, block length and count slots.
fn group_slots(s: Option<&Section>) -> Option<(usize, sbekit_plan::Slot, sbekit_plan::Slot)> {
    match s {
        Some(Section::Group {
            dim_size,
            block_len,
            count,
            ..
        }) => Some((*dim_size, *block_len, *count)),
        _ => None,
    }
}

/// `wrap`: the plan's checks, in wire order, recording where the root's sections start.
fn wrap_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    let name = &m.body.name;
    let h = &ctx.plan.header;
    o.doc("Checks the message at `offset` of `buffer` (`length` bytes available from there, header included) once: header, block lengths, every group count and var-data length. Throws `SbeDecodeException` (kind, byte offset from the message start, element path) for malformed input, leaving the decoder as it was; after it, accessors cannot fail.");
    o.line(&format!(
        "public {d} wrap(final DirectBuffer buffer, final int offset, final int length) {{"
    ));
    o.line(&format!(
        "if (offset < 0 || length < 0 || length > buffer.capacity() - offset) {}",
        err("TRUNCATED", "0", name)
    ));
    o.line("final DirectBuffer sbe_b = buffer;");
    o.line("final int sbe_o = offset;");
    o.line("final int sbe_n = length;");
    let mut hdr = 0;
    let mut sec = 0;
    let has_groups = m.checks.iter().any(|c| matches!(c, Check::Group { .. }));
    for c in &m.checks {
        match c {
            Check::Header { size } => {
                hdr = *size;
                o.line(&format!(
                    "if (sbe_n < {size}) {}",
                    err("TRUNCATED", "0", name)
                ));
            }
            Check::SchemaId { .. } if h.schema_id.is_constant() => {}
            Check::SchemaId { slot, expected } => o.line(&format!(
                "if ({} != {}) {}",
                slot_load(slot, "sbe_b", "sbe_o"),
                long_lit(*expected),
                err("WRONG_SCHEMA_ID", &slot.offset.to_string(), name)
            )),
            Check::TemplateId { slot, expected } => o.line(&format!(
                "if ({} != {}) {}",
                header_value(&h.template_id, slot, "sbe_o"),
                long_lit(*expected),
                err("WRONG_TEMPLATE_ID", &slot.offset.to_string(), name)
            )),
            Check::RootBlock {
                block_length,
                version,
                required,
            } => {
                o.line(&format!(
                    "final long sbe_bl = {};",
                    header_value(&h.block_length, block_length, "sbe_o")
                ));
                o.line(&format!(
                    "final long sbe_av = {};",
                    header_value(&h.version, version, "sbe_o")
                ));
                if let Some(req) = required_expr(required, "sbe_av") {
                    o.line(&format!(
                        "if (Long.compareUnsigned(sbe_bl, {req}) < 0) {}",
                        err(
                            "BLOCK_LENGTH_TOO_SHORT",
                            &block_length.offset.to_string(),
                            name
                        )
                    ));
                }
                o.line(&format!(
                    "if (Long.compareUnsigned(sbe_bl, sbe_n - {hdr}) > 0) {}",
                    err("TRUNCATED", &hdr.to_string(), name)
                ));
                o.line(&format!("int sbe_q = {hdr} + (int) sbe_bl;"));
                if has_groups {
                    o.line("long sbe_budget = SbeSchema.MAX_EMPTY_ENTRIES;");
                }
            }
            Check::Group { .. } | Check::VarData { .. } => {
                // Kept in locals until every check passed: a failed wrap changes nothing.
                o.line(&format!("final int sbe_s{sec} = sbe_o + sbe_q;"));
                sec += 1;
                section_check(o, c, 1);
            }
        }
    }
    for i in 0..sec {
        o.line(&format!("sbe_sec[{i}] = sbe_s{i};"));
    }
    if !m.body.sections.is_empty() {
        o.line(&format!("sbe_sec[{sec}] = sbe_o + sbe_q;"));
    }
    o.line("this.sbe_b = sbe_b;");
    o.line("this.sbe_o = sbe_o;");
    o.line(&format!("this.sbe_p = sbe_o + {hdr};"));
    o.line("this.sbe_bl = (int) sbe_bl;");
    o.line("this.sbe_av = sbe_av;");
    o.line("this.sbe_end = sbe_o + sbe_q;");
    o.line("return this;");
    o.line("}");
    o.doc("`wrap` over the rest of the buffer from `offset`.");
    o.line(&format!(
        "public {d} wrap(final DirectBuffer buffer, final int offset) {{ return wrap(buffer, offset, buffer.capacity() - offset); }}"
    ));
}

/// The checks of one section at `sbe_q` (relative to the message start `sbe_o`).
fn section_check(o: &mut Out, c: &Check, depth: usize) {
    match c {
        Check::Group {
            path,
            since,
            dim_size,
            block_length,
            count,
            required,
            entry,
            ..
        } => {
            let (bl, cnt, i) = (
                format!("sbe_bl{depth}"),
                format!("sbe_c{depth}"),
                format!("sbe_i{depth}"),
            );
            match since_cond(*since, "sbe_av") {
                Some(c) => o.line(&format!("if ({c}) {{")),
                None => o.line("{"),
            }
            o.line(&format!(
                "if (sbe_n - sbe_q < {dim_size}) {}",
                err("TRUNCATED", "sbe_q", path)
            ));
            o.line(&format!(
                "final long {bl} = {};",
                slot_load(block_length, "sbe_b", "sbe_o + sbe_q")
            ));
            o.line(&format!(
                "final long {cnt} = {};",
                slot_load(count, "sbe_b", "sbe_o + sbe_q")
            ));
            if count.max != u64::MAX {
                o.line(&format!(
                    "if (Long.compareUnsigned({cnt}, {}) > 0) {}",
                    long_lit(count.max),
                    err(
                        "INVALID_DIMENSION",
                        &format!("sbe_q + {}", count.offset),
                        path
                    )
                ));
            }
            if let Some(req) = required_expr(required, "sbe_av") {
                o.line(&format!(
                    "if (Long.compareUnsigned({bl}, {req}) < 0) {}",
                    err(
                        "BLOCK_LENGTH_TOO_SHORT",
                        &format!("sbe_q + {}", block_length.offset),
                        path
                    )
                ));
            }
            o.line(&format!("sbe_q += {dim_size};"));
            o.line(&format!("if ({bl} == 0) {{"));
            o.line(&format!(
                "if (Long.compareUnsigned({cnt}, sbe_budget) > 0) {}",
                err("EMPTY_ENTRY_BUDGET", "sbe_q", path)
            ));
            o.line(&format!("sbe_budget -= {cnt};"));
            o.line("}");
            if entry.is_empty() {
                o.line(&format!(
                    "if ({bl} != 0 && Long.compareUnsigned({cnt}, Long.divideUnsigned(sbe_n - sbe_q, {bl})) > 0) {}",
                    err("TRUNCATED", "sbe_q", path)
                ));
                o.line(&format!("sbe_q += (int) ({bl} * {cnt});"));
            } else {
                o.line(&format!(
                    "for (long {i} = 0; Long.compareUnsigned({i}, {cnt}) < 0; {i}++) {{"
                ));
                o.line(&format!(
                    "if (Long.compareUnsigned({bl}, sbe_n - sbe_q) > 0) {}",
                    err("TRUNCATED", "sbe_q", path)
                ));
                o.line(&format!("sbe_q += (int) {bl};"));
                for e in entry {
                    section_check(o, e, depth + 1);
                }
                o.line("}");
            }
            o.line("}");
        }
        Check::VarData {
            path,
            since,
            length,
            data_offset,
        } => {
            let l = *data_offset;
            let len = format!("sbe_l{depth}");
            match since_cond(*since, "sbe_av") {
                Some(c) => o.line(&format!("if ({c}) {{")),
                None => o.line("{"),
            }
            o.line(&format!(
                "if (sbe_n - sbe_q < {l}) {}",
                err("TRUNCATED", "sbe_q", path)
            ));
            o.line(&format!(
                "final long {len} = {};",
                slot_load(length, "sbe_b", "sbe_o + sbe_q")
            ));
            if length.max != u64::MAX {
                o.line(&format!(
                    "if (Long.compareUnsigned({len}, {}) > 0) {}",
                    long_lit(length.max),
                    err(
                        "INVALID_DIMENSION",
                        &format!("sbe_q + {}", length.offset),
                        path
                    )
                ));
            }
            o.line(&format!(
                "if (Long.compareUnsigned({len}, sbe_n - sbe_q - {l}) > 0) {}",
                err("TRUNCATED", &format!("sbe_q + {l}"), path)
            ));
            o.line(&format!("sbe_q += {l} + (int) {len};"));
            o.line("}");
        }
        _ => {}
    }
}

/// The encoder of a message (`msg`) or group entry; `top` is the message encoder class.
fn encoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    sec: Option<&Section>,
    top: &str,
) {
    let e = &n.enc;
    let k = b.sections.len();
    let path = java_str(&n.path);
    let req = required_expr(&b.required, "v").unwrap_or_else(|| "0".into());
    match msg {
        Some(m) => {
            o.doc(&format!(
                "Writes a `{}` message (template id {}), fluently: `wrap` writes the header and reserves the block (zeroed); set fields, then write groups and var data in schema order (a section after a later one throws `SbeEncodeException` `OUT_OF_ORDER`; skipped ones are written empty); `encodedLength()` completes the message and gives its length.",
                b.name, m.id
            ));
            o.line(&format!("public final class {e} {{"));
            o.doc("The message's template id.");
            o.line(&format!("public static final int TEMPLATE_ID = {};", m.id));
        }
        None => {
            o.doc(&format!(
                "Writes the entries of the `{}` group: `next()` adds an entry (the count is kept in the group's dimension as you go), then set its fields and sections.",
                n.path
            ));
            o.line(&format!("public static final class {e} {{"));
        }
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "public static final int BLOCK_LENGTH = {};",
        b.block_length
    ));
    o.line(&format!("private final {top} sbe_m;"));
    o.line("private MutableDirectBuffer sbe_b;");
    o.line("private int sbe_p;");
    o.line("private long sbe_v;");
    o.line("private int sbe_next;");
    if msg.is_some() {
        o.line("private int sbe_o;");
        o.line("private int sbe_lim;");
    } else {
        o.line("private int sbe_dim;");
        o.line("private long sbe_count;");
        o.line("private boolean sbe_entry;");
        o.line("private boolean sbe_on;");
    }
    let gs = groups(b);
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!("private final {} sbe_g{i};", n.children[gi].enc));
    }
    o.line("");
    if msg.is_some() {
        o.doc("An encoder; `wrap` it over a buffer.");
        o.line(&format!("public {e}() {{"));
        o.line("sbe_m = this;");
    } else {
        o.line(&format!("{e}(final {top} m) {{"));
        o.line("sbe_m = m;");
    }
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!("sbe_g{i} = new {}(sbe_m);", n.children[gi].enc));
    }
    o.line("}");
    o.doc("The block length written at version `v` (older versions write the fields they have).");
    if ctx.plan.version == 0 {
        o.line("public static int sbeBlockLength(final long v) { return BLOCK_LENGTH; }");
    } else {
        o.line(&format!(
            "public static int sbeBlockLength(final long v) {{ return v >= SbeSchema.SCHEMA_VERSION ? BLOCK_LENGTH : {req}; }}"
        ));
    }
    o.doc("The version being written.");
    o.line("public long version() { return sbe_v; }");
    if let Some(m) = msg {
        let h = &ctx.plan.header;
        o.doc("Starts a message at `offset` of `buffer` at the schema's version.");
        o.line(&format!(
            "public {e} wrap(final MutableDirectBuffer buffer, final int offset) {{ return wrap(buffer, offset, SbeSchema.SCHEMA_VERSION); }}"
        ));
        o.doc("Starts a message at `offset` of `buffer`, written at `version` (an older one writes its block lengths and leaves newer elements out): writes the header and reserves the block, zeroed.");
        o.line(&format!(
            "public {e} wrap(final MutableDirectBuffer buffer, final int offset, final long version) {{"
        ));
        o.line("sbe_b = buffer;");
        o.line("sbe_o = offset;");
        o.line("sbe_lim = offset;");
        o.line("sbe_v = version;");
        o.line("sbe_next = 0;");
        o.line(&format!(
            "final int sbe_h = sbeTake(SbeSchema.HEADER_LENGTH + sbeBlockLength(version), {path});"
        ));
        o.line("sbe_p = sbe_h + SbeSchema.HEADER_LENGTH;");
        for (f, val) in [
            (
                &h.block_length,
                "(long) sbeBlockLength(version)".to_string(),
            ),
            (&h.template_id, format!("{}L", m.id)),
            (&h.schema_id, "SbeSchema.SCHEMA_ID".to_string()),
            (&h.version, "version".to_string()),
        ] {
            if let Kind::Prim(p) = &f.kind {
                if !f.is_constant() {
                    o.line(&format!(
                        "{};",
                        crate::prim::store_long(
                            p.ty,
                            "sbe_b",
                            &format!("sbe_h + {}", f.offset),
                            &val
                        )
                    ));
                }
            }
        }
        o.line("return this;");
        o.line("}");
        o.doc("Completes the message (sections not written are written empty) and gives its length in bytes, header included.");
        o.line("public int encodedLength() {");
        o.line("sbeCloseOpen();");
        if k > 0 {
            o.line(&format!("sbeFill({k});"));
            o.line(&format!("sbe_next = {k};"));
        }
        o.line("return sbe_lim - sbe_o;");
        o.line("}");
        o.doc("Internal: reserves `n` zeroed bytes at the end of the message; their position.");
        o.line("int sbeTake(final int n, final String path) {");
        o.line("final int at = sbe_lim;");
        o.line("final long end = (long) at + n;");
        o.line("if (end > sbe_b.capacity()) {");
        o.line("if (!sbe_b.isExpandable() || end > Integer.MAX_VALUE - 16) throw new SbeEncodeException(SbeEncodeException.Kind.BUFFER_TOO_SMALL, path);");
        o.line("sbe_b.checkLimit((int) end);");
        o.line("}");
        o.line("sbe_b.setMemory(at, n, (byte) 0);");
        o.line("sbe_lim = (int) end;");
        o.line("return at;");
        o.line("}");
    } else {
        let Some((dim, bl_slot, count_slot)) = group_slots(sec) else {
            o.line("}");
            return;
        };
        o.doc("Internal: starts the group (its dimension, no entries yet); `on`: the version written has it.");
        o.line("void sbeBegin(final boolean on) {");
        o.line("sbe_b = sbe_m.sbe_b;");
        o.line("sbe_v = sbe_m.sbe_v;");
        o.line("sbe_count = 0;");
        o.line("sbe_entry = false;");
        o.line("sbe_on = on;");
        o.line("if (on) {");
        o.line(&format!("sbe_dim = sbe_m.sbeTake({dim}, {path});"));
        o.line(&format!(
            "{};",
            slot_store(&bl_slot, "sbe_b", "sbe_dim", "(long) sbeBlockLength(sbe_v)")
        ));
        o.line("}");
        o.line("}");
        o.doc(&format!("Adds an entry (the count is updated in the dimension); more than {} is an error (`COUNT_TOO_LARGE`).", count_slot.max));
        o.line(&format!("public {e} next() {{"));
        o.line(&format!(
            "if (!sbe_on) throw new IllegalStateException(\"{} is not in the version written\");",
            n.path
        ));
        o.line("if (sbe_entry) sbeComplete();");
        o.line(&format!(
            "if (Long.compareUnsigned(sbe_count, {}) >= 0) throw new SbeEncodeException(SbeEncodeException.Kind.COUNT_TOO_LARGE, {path});",
            long_lit(count_slot.max)
        ));
        o.line(&format!(
            "sbe_p = sbe_m.sbeTake(sbeBlockLength(sbe_v), {path});"
        ));
        o.line("sbe_count++;");
        o.line(&format!(
            "{};",
            slot_store(&count_slot, "sbe_b", "sbe_dim", "sbe_count")
        ));
        o.line("sbe_next = 0;");
        o.line("sbe_entry = true;");
        o.line("return this;");
        o.line("}");
        o.doc("Entries added so far.");
        o.line("public int count() { return (int) sbe_count; }");
        o.doc("Internal: completes the last entry.");
        o.line("void sbeClose() {");
        o.line("if (sbe_entry) sbeComplete();");
        o.line("sbe_entry = false;");
        o.line("}");
        o.line("private void sbeComplete() {");
        o.line("sbeCloseOpen();");
        if k > 0 {
            o.line(&format!("sbeFill({k});"));
            o.line(&format!("sbe_next = {k};"));
        }
        o.line("}");
    }
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        setter(o, ctx, e, i, f, fname, true);
    }
    if needs_scratch(&b.fields) {
        scratch(o);
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let name = &sn.name;
        let on = since_cond(s.since(), "sbe_v").unwrap_or_else(|| "true".into());
        match s {
            Section::Group { name: sname, .. } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(&format!(
                    "Starts the `{sname}` group: add entries with `next()`."
                ));
                o.line(&format!("public {} {name}() {{", cn.enc));
                o.line(&format!("sbeSection({i});"));
                o.line(&format!("sbe_g{i}.sbeBegin({on});"));
                o.line(&format!("return sbe_g{i};"));
                o.line("}");
            }
            Section::Var {
                name: sname,
                len,
                char_encoding,
                ..
            } => {
                let l = s.data_offset();
                let vpath = java_str(&format!("{}.{sname}", n.path));
                let too_long = if len.max < i32::MAX as u64 {
                    format!(
                        "if (length < 0 || length > {}) throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_TOO_LONG, {vpath});",
                        len.max
                    )
                } else {
                    format!("if (length < 0) throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_TOO_LONG, {vpath});")
                };
                let skip =
                    (s.since() > 0).then(|| format!("if (sbe_v < {}) return this;", s.since()));
                for (src, doc) in [
                    ("final DirectBuffer src", "a buffer"),
                    ("final byte[] src", "an array"),
                ] {
                    o.doc(&format!(
                        "Writes the `{sname}` data: `length` bytes of {doc} at `srcOffset`."
                    ));
                    o.line(&format!(
                        "public {e} {name}({src}, final int srcOffset, final int length) {{"
                    ));
                    o.line(&format!("sbeSection({i});"));
                    if let Some(s) = &skip {
                        o.line(s);
                    }
                    o.line(&too_long);
                    o.line(&format!(
                        "final int sbe_at = sbe_m.sbeTake({l} + length, {vpath});"
                    ));
                    o.line(&format!(
                        "{};",
                        slot_store(len, "sbe_b", "sbe_at", "(long) length")
                    ));
                    o.line(&format!(
                        "sbe_b.putBytes(sbe_at + {l}, src, srcOffset, length);"
                    ));
                    o.line("return this;");
                    o.line("}");
                }
                let utf8 = utf8_declared(char_encoding.as_deref());
                o.doc(&format!(
                    "Writes the `{sname}` data from text ({}).",
                    if utf8 {
                        "encoded as UTF-8; allocates"
                    } else {
                        "one byte per char, chars above U+00FF written as `?`"
                    }
                ));
                o.line(&format!("public {e} {name}(final CharSequence value) {{"));
                if utf8 {
                    o.line("final byte[] sbe_t = value.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);");
                    o.line(&format!("return {name}(sbe_t, 0, sbe_t.length);"));
                } else {
                    o.line(&format!("sbeSection({i});"));
                    if let Some(s) = &skip {
                        o.line(s);
                    }
                    o.line("final int length = value.length();");
                    o.line(&too_long);
                    o.line(&format!(
                        "final int sbe_at = sbe_m.sbeTake({l} + length, {vpath});"
                    ));
                    o.line(&format!(
                        "{};",
                        slot_store(len, "sbe_b", "sbe_at", "(long) length")
                    ));
                    o.line("for (int sbe_i = 0; sbe_i < length; sbe_i++) {");
                    o.line("final char sbe_c = value.charAt(sbe_i);");
                    o.line(&format!(
                        "sbe_b.putByte(sbe_at + {l} + sbe_i, (byte) (sbe_c > 0xFF ? '?' : sbe_c));"
                    ));
                    o.line("}");
                    o.line("return this;");
                }
                o.line("}");
            }
        }
    }
    // Section order.
    o.line("private void sbeSection(final int i) {");
    o.line(&format!(
        "if (sbe_next > i) throw new SbeEncodeException(SbeEncodeException.Kind.OUT_OF_ORDER, {path});"
    ));
    o.line("sbeCloseOpen();");
    o.line("sbeFill(i);");
    o.line("sbe_next = i + 1;");
    o.line("}");
    o.line("private void sbeCloseOpen() {");
    for (i, _, _) in &gs {
        o.line(&format!("if (sbe_next - 1 == {i}) sbe_g{i}.sbeClose();"));
    }
    o.line("}");
    o.line("private void sbeFill(final int to) {");
    for (i, s) in b.sections.iter().enumerate() {
        let on = since_cond(s.since(), "sbe_v");
        let step = match s {
            Section::Group { .. } => format!(
                "sbe_g{i}.sbeBegin({});",
                on.clone().unwrap_or_else(|| "true".into())
            ),
            Section::Var { name, .. } => {
                let t = format!(
                    "sbe_m.sbeTake({}, {});",
                    s.data_offset(),
                    java_str(&format!("{}.{name}", n.path))
                );
                match &on {
                    Some(c) => format!("if ({c}) {t}"),
                    None => t,
                }
            }
        };
        o.line(&format!("if (sbe_next <= {i} && to > {i}) {{ {step} }}"));
    }
    o.line("}");
    // Nested entry encoders.
    if msg.is_some() {
        for (gsec, gb, cn) in all_groups(b, n) {
            o.line("");
            encoder(o, ctx, gb, cn, None, Some(gsec), top);
        }
    }
    o.line("}");
}
