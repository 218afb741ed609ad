//! The decoders of each message file: the flyweight, its accessors, the group flyweights and
//! `wrap` (the plan's checks, run once).

use super::*;

pub(super) fn decoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    sec: Option<&Section>,
) {
    let d = ctx.d;
    let (state, ro, sb) = (d.state(), d.readonly(), d.builder());
    let k = b.sections.len();
    let dec = &n.dec;
    match msg {
        Some(m) => {
            o.doc(&format!(
                "{}\nA flyweight over a `{}` message (template id {}): `{}` checks the whole message once (header, block lengths, every group count and var-data length) and throws `SbeDecodeException` for malformed input; accessors then read fixed offsets without further checks.",
                b.description.as_deref().unwrap_or(""),
                b.name,
                m.id,
                d.member("wrap")
            ));
            o.line(&d.message_decoder_class(dec));
            int_const(o, ctx, "The message's template id.", "TEMPLATE_ID", m.id);
        }
        None => {
            o.doc(&format!(
                "{}\nThe entries of the `{}` group: a reusable flyweight that is its own {}; each `{}()` moves it to the next entry.",
                b.description.as_deref().unwrap_or(""),
                n.path,
                d.iterator_usage(),
                d.next_method()
            ));
            o.line(&d.group_decoder_class(dec));
        }
    }
    block_length_const(o, ctx, b);
    o.line(&format!("{state} {} sbe_b;", d.reader()));
    for v in ["int sbe_p", "int sbe_bl", "long sbe_av"] {
        o.line(&format!("{state} {v};"));
    }
    // Where each section starts (and the last ends): fields, not an array, so that reading
    // one is a load without a bounds check.
    if k > 0 {
        for i in 0..=k {
            o.line(&format!("{state} int sbe_sec{i};"));
        }
    }
    let own: &[&str] = if msg.is_some() {
        &["sbe_o", "sbe_end"]
    } else {
        &["sbe_count", "sbe_index", "sbe_next"]
    };
    for v in own {
        o.line(&format!("{state} int {v};"));
    }
    for (gi, (i, _, _)) in groups(b).into_iter().enumerate() {
        let cn = &n.children[gi];
        o.line(&format!(
            "private {ro} {} sbe_g{i} = new {}();",
            cn.dec, cn.dec
        ));
    }
    for (i, s) in b.sections.iter().enumerate() {
        if matches!(s, Section::Var { .. }) {
            d.var_view_field(o, i);
        }
    }
    o.line("");
    let int_getter = |o: &mut Out, doc: &str, ty: &str, name: &str, value: &str, over: bool| {
        o.doc(doc);
        if over {
            d.override_attr(o);
        }
        o.line(&format!(
            "public {ty} {}() {{ return {value}; }}",
            d.member(name)
        ));
    };
    if let Some(m) = msg {
        wrap_fn(o, ctx, m, n);
        let tid = d.konst("TEMPLATE_ID");
        int_getter(
            o,
            "The message's template id.",
            "int",
            "sbeTemplateId",
            &tid,
            true,
        );
        int_getter(
            o,
            "Bytes from the start of the header to the end of the message.",
            "int",
            "encodedLength",
            "sbe_end - sbe_o",
            true,
        );
        int_getter(
            o,
            "Where the message (its header) starts in the buffer.",
            "int",
            "offset",
            "sbe_o",
            false,
        );
        int_getter(
            o,
            "The schema version the writer used (from the message header).",
            "long",
            "actingVersion",
            "sbe_av",
            true,
        );
    } else {
        group_fns(o, ctx, b, n, sec);
        int_getter(
            o,
            "The schema version the writer used.",
            "long",
            "actingVersion",
            "sbe_av",
            false,
        );
        int_getter(
            o,
            "Where the current entry starts in the buffer.",
            "int",
            "offset",
            "sbe_p",
            false,
        );
    }
    int_getter(
        o,
        "The block length on the wire.",
        "int",
        "blockLength",
        "sbe_bl",
        false,
    );
    int_getter(o, "The buffer read.", d.reader(), "buffer", "sbe_b", false);
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        getter(o, ctx, i, f, fname);
    }
    section_getters(o, ctx, b, n);
    // JSON.
    let members = !b.fields.is_empty() || !b.sections.is_empty();
    o.doc("Appends the message or entry as one line of JSON, as `sbekit decode` prints it.");
    if msg.is_some() {
        d.override_attr(o);
    }
    append_json_head(o, ctx);
    put(o, ctx, "{");
    if msg.is_some() {
        o.line(&format!(
            "if (sbe_av < SbeSchema.{}) {{",
            d.konst("SCHEMA_VERSION")
        ));
        put(o, ctx, "\"$version\":");
        o.line(&d.scalar_json(sbekit_ir::PrimitiveType::Int64, "sbe_av"));
        if members {
            put(o, ctx, ",");
        }
        o.line("}");
    }
    fields_json(o, ctx, &b.fields, &n.fields, true);
    for m in ctx.plan.json_sections(b) {
        let (i, sn) = (m.index, &n.sections[m.index]);
        put(o, ctx, &m.key);
        match m.value {
            SectionValue::Group { .. } => {
                put(o, ctx, "[");
                o.line(&format!("{} sbe_first{i} = true;", d.boolean()));
                o.line(&format!("{} {{", d.for_each(&format!("{}()", sn.name))));
                o.line(&format!(
                    "if (!sbe_first{i}) {sb}.{}(',');",
                    d.member("append")
                ));
                o.line(&format!("sbe_first{i} = false;"));
                o.line(&format!("sbe_x.{}({sb});", d.member("appendJson")));
                o.line("}");
                put(o, ctx, "]");
            }
            SectionValue::Var { utf8, .. } => {
                o.line(&format!(
                    "SbeJson.{}({sb}, sbe_b, sbe_sec{i} + {}, {}(), {utf8});",
                    d.member("appendText"),
                    m.section.data_offset(),
                    sn.length,
                ));
            }
        }
    }
    put(o, ctx, "}");
    o.line(&format!("return {sb};"));
    o.line("}");
    to_string(o, ctx);
    copy_fn(o, ctx, b, n, msg.is_some());
    // Every group's class, nested in the message's class (flat, so each is `Message.Class`).
    if msg.is_some() {
        for (gs, gb, cn) in all_groups(b, n) {
            o.line("");
            decoder(o, ctx, gb, cn, None, Some(gs));
        }
    }
    o.line("}");
}

/// The accessors of the groups and var data of a body.
fn section_getters(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames) {
    let d = ctx.d;
    let fin = d.fixed();
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
                    "{}\nThe entries of the `{sname}` group (a reusable flyweight {}){}.",
                    description.as_deref().unwrap_or(""),
                    d.iterator_word(),
                    if *since > 0 {
                        format!("; no entries when the acting version is older than {since}")
                    } else {
                        String::new()
                    }
                ));
                o.line(&format!(
                    "public {} {name}() {{ return sbe_g{i}.{}(sbe_b, sbe_sec{i}, sbe_av, {}); }}",
                    cn.dec,
                    d.member("sbeWrap"),
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
                // An absent section's place may lie past the buffer's end, where even a copy of
                // no bytes is refused (Agrona's bounds check, `Array.Copy`): it reads at 0.
                let at = match &present {
                    Some(c) => format!("({c} ? sbe_sec{i} + {} : 0)", s.data_offset()),
                    None => format!("sbe_sec{i} + {}", s.data_offset()),
                };
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
                    d.slot_load(len, "sbe_b", &format!("sbe_sec{i}"))
                );
                match &present {
                    Some(c) => o.line(&format!(
                        "public int {}() {{ return {c} ? {load} : 0; }}",
                        sn.length
                    )),
                    None => o.line(&format!("public int {}() {{ return {load}; }}", sn.length)),
                }
                let description = description.as_deref().unwrap_or("");
                d.var_view(o, i, &at, sname, description, sn);
                o.doc(&format!(
                    "Copies up to `length` bytes of the `{sname}` data into `dst` at `dstOffset`; the number of bytes copied."
                ));
                o.line(&format!(
                    "public int {}({fin}byte[] dst, {fin}int dstOffset, {fin}int length) {{",
                    sn.get
                ));
                o.line(&format!(
                    "{fin}int sbe_n = {}(length, {}());",
                    d.min(),
                    sn.length
                ));
                o.line(&format!(
                    "{};",
                    d.copy_out(&at, "dst", "dstOffset", "sbe_n")
                ));
                o.line("return sbe_n;");
                o.line("}");
                let utf8 = utf8_declared(char_encoding.as_deref());
                o.doc(&format!(
                    "The `{sname}` data as a `{}`, decoded as {} (allocates).",
                    d.string(),
                    d.charset(utf8)
                ));
                d.var_text(o, &at, sn, utf8);
            }
        }
    }
}

/// `sbeCopyTo`: what this decoder reads, written into encoder `e`.
fn copy_fn(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, top: bool) {
    let d = ctx.d;
    let copy = d.member("sbeCopyTo");
    o.doc("Writes what this decoder reads into `e` (used to re-encode a message at its acting version).");
    let enc_path = if top {
        n.enc.clone()
    } else {
        format!("{}.{}", ctx_msg_enc(ctx, n), n.enc)
    };
    o.line(&format!("public void {copy}({}{enc_path} e) {{", d.fixed()));
    fields_copy(o, ctx, &b.fields, &n.fields);
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        match s {
            Section::Group { .. } => {
                o.line(&format!("{}var sbe_w{i} = e.{}();", d.fixed(), sn.name));
                o.line(&format!(
                    "{} sbe_x.{copy}(sbe_w{i}.{}());",
                    d.for_each(&format!("{}()", sn.name)),
                    d.member("next")
                ));
            }
            Section::Var { .. } => o.line(&format!(
                "e.{}(sbe_b, sbe_sec{i} + {}, {}());",
                sn.name,
                s.data_offset(),
                sn.length
            )),
        }
    }
    o.line("}");
}

/// The `int` expressions of a checked group's entry block length and count, its dimension
/// at `p` of `buf`: one read of both where they are one 2-, 4- or 8-byte load
/// ([`Slot::joined`]; each read of a buffer is bounds-checked), declared first as `sbe_d`.
fn dimension_loads(
    o: &mut Out,
    d: &dyn Dialect,
    bl: &Slot,
    count: &Slot,
    buf: &str,
) -> (String, String) {
    let Some((both, bl_shift, count_shift)) = bl.joined(count) else {
        return (
            format!("(int) {}", d.slot_load(bl, buf, "p")),
            format!("(int) {}", d.slot_load(count, buf, "p")),
        );
    };
    o.line(&format!(
        "{}long sbe_d = {};",
        d.fixed(),
        d.slot_load(&both, buf, "p")
    ));
    // Arithmetic shifts, then the part's mask: right for a 64-bit load's sign too.
    let part = |shift: u32, s: &Slot| {
        let mask = (1u128 << (8 * s.width())) - 1;
        match shift {
            0 => format!("(int) (sbe_d & 0x{mask:X}L)"),
            k => format!("(int) ((sbe_d >> {k}) & 0x{mask:X}L)"),
        }
    };
    (part(bl_shift, bl), part(count_shift, count))
}

/// The group decoder's iteration: `sbeWrap`, `sbeEnd` (the trusted walk to its end), `count`,
/// then the dialect's iterator or enumerator.
pub(super) fn group_fns(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, sec: Option<&Section>) {
    let d = ctx.d;
    let (fin, internal) = (d.fixed(), d.internal());
    let dec = &n.dec;
    let Some(g) = sec.and_then(Section::as_group) else {
        return;
    };
    let (dim, bl_slot, count_slot) = (g.dim_size, g.block_len, g.count);
    o.doc("Internal: the checked group at `p`, or no entries when it is absent.");
    o.line(&format!(
        "{internal}{dec} {}({fin}{} b, {fin}int p, {fin}long av, {fin}{} present) {{",
        d.member("sbeWrap"),
        d.reader(),
        d.boolean()
    ));
    o.line("sbe_b = b;");
    o.line("sbe_av = av;");
    o.line("sbe_index = 0;");
    o.line("if (present) {");
    let (bl, count) = dimension_loads(o, d, bl_slot, count_slot, "b");
    o.line(&format!("sbe_bl = {bl};"));
    o.line(&format!("sbe_count = {count};"));
    o.line(&format!("sbe_next = p + {dim};"));
    o.line("} else {");
    o.line("sbe_bl = 0;");
    o.line("sbe_count = 0;");
    o.line("sbe_next = p;");
    o.line("}");
    o.line("return this;");
    o.line("}");
    o.doc("Internal: where the checked group at `p` ends.");
    o.line(&format!(
        "{internal}static int {}({fin}{} sbe_b, {fin}int p, {fin}long av) {{",
        d.member("sbeEnd"),
        d.reader()
    ));
    let (bl, count) = dimension_loads(o, d, bl_slot, count_slot, "sbe_b");
    o.line(&format!("{fin}int sbe_bl = {bl};"));
    o.line(&format!("{fin}int sbe_n = {count};"));
    o.line(&format!("int sbe_q = p + {dim};"));
    if b.is_fixed() {
        o.line("return sbe_q + sbe_bl * sbe_n;");
    } else {
        o.line("for (int sbe_i = 0; sbe_i < sbe_n; sbe_i++) {");
        o.line("sbe_q += sbe_bl;");
        walk(o, ctx, b, n, None, "av");
        o.line("}");
        o.line("return sbe_q;");
    }
    o.line("}");
    o.doc("The number of entries.");
    o.line(&format!(
        "public int {}() {{ return sbe_count; }}",
        d.member("count")
    ));
    d.next_head(o, dec);
    o.line("sbe_index++;");
    o.line("sbe_p = sbe_next;");
    if b.is_fixed() {
        o.line("sbe_next = sbe_p + sbe_bl;");
    } else {
        o.line("int sbe_q = sbe_p + sbe_bl;");
        walk(o, ctx, b, n, Some("sbe_sec"), "sbe_av");
        o.line("sbe_next = sbe_q;");
    }
    o.line(&format!("return {};", d.next_result()));
    o.line("}");
    d.iteration_tail(o, dec);
}

/// The locals a check program reads: the buffer, the message's offset and length, and the
/// dialect's own.
fn walk_locals(o: &mut Out, d: &dyn Dialect) {
    let (fin, buf) = (d.fixed(), d.reader());
    o.line(&format!("{fin}{buf} sbe_b = buffer;"));
    o.line(&format!("{fin}int sbe_o = offset;"));
    o.line(&format!("{fin}int sbe_n = length;"));
    d.walk_prelude(o);
}

/// The end of a check program that passed: the section starts and the header's values
/// become the decoder's fields, and `wrap` returns it.
fn commit(o: &mut Out, ctx: &Ctx, m: &Message) {
    let (hdr, sec) = (ctx.plan.header.size, m.body.sections.len());
    for i in 0..sec {
        o.line(&format!("sbe_sec{i} = sbe_s{i};"));
    }
    if !m.body.sections.is_empty() {
        o.line(&format!("sbe_sec{sec} = sbe_o + sbe_q;"));
    }
    o.line("this.sbe_b = sbe_b;");
    o.line("this.sbe_o = sbe_o;");
    o.line(&format!("this.sbe_p = sbe_o + {hdr};"));
    o.line("this.sbe_bl = (int) sbe_bl;");
    o.line("this.sbe_av = sbe_av;");
    o.line("this.sbe_end = sbe_o + sbe_q;");
    o.line("return this;");
}

/// `wrap`: the plan's checks, in wire order, recording where the root's sections start.
pub(super) fn wrap_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = ctx.d;
    let (fin, wrap, buf) = (d.fixed(), d.member("wrap"), d.reader());
    let dec = &n.dec;
    o.doc("Checks the message at `offset` of `buffer` (`length` bytes available from there, header included) once: header, block lengths, every group count and var-data length. Throws `SbeDecodeException` (kind, byte offset from the message start, element path) for malformed input, leaving the decoder as it was; after it, accessors cannot fail.");
    o.line(&format!(
        "public {dec} {wrap}({fin}{buf} buffer, {fin}int offset, {fin}int length) {{"
    ));
    let usual = d
        .usual_checks()
        .and_then(|s| program::usual_lines(m, ctx.plan.version, s));
    if let Some(lines) = usual {
        // The usual message first, in few enough bytes of code for a JIT to inline; anything
        // else (or anything wrong) goes to the full checks, which name the error.
        o.line(&d.open_usual(&format!(
            "offset >= 0 && length <= {} - offset",
            d.capacity("buffer"),
        )));
        walk_locals(o, d);
        for l in lines {
            o.line(&l);
        }
        commit(o, ctx, m);
        d.close_usual(o);
        o.line(&format!(
            "return {}(buffer, offset, length);",
            d.member("sbeWrapChecked")
        ));
        o.line("}");
        o.doc("The full checks of `wrap`, for a message other than the usual one.");
        o.line(&format!(
            "private {dec} {}({fin}{buf} buffer, {fin}int offset, {fin}int length) {{",
            d.member("sbeWrapChecked")
        ));
    }
    o.line(&format!(
        "if ({}offset < 0 || length < 0 || length > {} - offset) {}",
        d.null_test("buffer"),
        d.capacity("buffer"),
        d.decode_error("TRUNCATED", "0", &m.body.name)
    ));
    walk_locals(o, d);
    for l in program::lines(m, d.checks()) {
        o.line(&l);
    }
    commit(o, ctx, m);
    o.line("}");
    o.doc(&format!(
        "`{wrap}` over the rest of the buffer from `offset`."
    ));
    o.line(&format!(
        "public {dec} {wrap}({fin}{buf} buffer, {fin}int offset) {{ return {wrap}(buffer, offset, {}); }}",
        d.rest_of("buffer")
    ));
}
