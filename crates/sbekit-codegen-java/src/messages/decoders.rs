//! The decoders of each message file: the flyweight, its accessors, the group flyweights and `wrap` (the plan's checks, run once).

use super::*;

pub(super) fn decoder(
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

/// The group decoder's iteration: `sbeWrap`, `sbeEnd` (the trusted walk to its end), `count`,
/// `hasNext`, `next`, `iterator`.
pub(super) fn group_fns(o: &mut Out, b: &Body, n: &BodyNames, sec: Option<&Section>) {
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

/// `wrap`: the plan's checks, in wire order, recording where the root's sections start.
pub(super) fn wrap_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    let name = &m.body.name;
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
    for l in program::lines(m, &JavaChecks) {
        o.line(&l);
    }
    let (hdr, sec) = (ctx.plan.header.size, m.body.sections.len());
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

/// Java's syntax for the plan's check program (`sbekit_plan::program`): unsigned comparisons
/// through `Long`, locals `final`.
struct JavaChecks;

impl CheckSyntax for JavaChecks {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        err(f.error.screaming(), at, &f.path)
    }
    fn unsigned(&self, a: &str, op: &str, b: &str) -> String {
        format!("Long.compareUnsigned({a}, {b}) {op} 0")
    }
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("Long.divideUnsigned({a}, {b})")
    }
    fn literal(&self, v: u64) -> String {
        long_lit(v)
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(slot, "sbe_b", pos)
    }
    fn signed_lengths(&self) -> bool {
        true
    }
    fn budget_max(&self) -> String {
        "SbeSchema.MAX_EMPTY_ENTRIES".into()
    }
    fn fixed_long(&self) -> &'static str {
        "final long"
    }
    fn fixed_int(&self) -> &'static str {
        "final int"
    }
}
