//! The encoders of each message file: the fluent encoder with its section order, group writers and the zeroing of reservations.

use super::*;

/// Zeroes `n` bytes at `base + 0 .. base + n` of `buf`: straight-line stores when `n` is
/// small, `System.Array.Clear` otherwise.
pub(super) fn zero(o: &mut Out, buf: &str, base: &str, n: usize) {
    if n > 16 {
        o.line(&format!("System.Array.Clear({buf}, {base}, {n});"));
        return;
    }
    for k in 0..n {
        o.line(&format!("{buf}[{base} + {k}] = 0;"));
    }
}

/// Zeroes the bytes of an `n`-byte structure at `base` that the slots `written` (stored next,
/// every byte of each) do not cover: the gaps of a dimension or length prefix.
pub(super) fn zero_gaps(
    o: &mut Out,
    buf: &str,
    base: &str,
    n: usize,
    written: &[&sbekit_plan::Slot],
) {
    for k in 0..n {
        let covered = written
            .iter()
            .any(|s| s.constant.is_none() && (s.offset..s.offset + s.width()).contains(&k));
        if !covered {
            o.line(&format!("{buf}[{base} + {k}] = 0;"));
        }
    }
}

/// The encoder of a message (`msg`) or group entry; `top` is the message encoder class.
pub(super) fn encoder(
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
    let path = cs_str(&n.path);
    let req = required_expr(&b.required, "v").unwrap_or_else(|| "0".into());
    match msg {
        Some(m) => {
            o.doc(&format!(
                "Writes a `{}` message (template id {}), fluently: `Wrap` writes the header and reserves the block (zeroed); set fields, then write groups and var data in schema order (a section after a later one throws `SbeEncodeException` `OutOfOrder`; skipped ones are written empty); `EncodedLength()` completes the message and gives its length.",
                b.name, m.id
            ));
            o.line(&format!("public sealed class {e} {{"));
            o.doc("The message's template id.");
            o.line(&format!("public const int TemplateId = {};", m.id));
        }
        None => {
            o.doc(&format!(
                "Writes the entries of the `{}` group: `Next()` adds an entry (the count is kept in the group's dimension as you go), then set its fields and sections.",
                n.path
            ));
            o.line(&format!("public sealed class {e} {{"));
        }
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "public const int SbeSchemaBlockLength = {};",
        b.block_length
    ));
    // Internal rather than private: mcs warns (an error here) about private state a body
    // without fields or sections never reads.
    if msg.is_some() {
        o.line(&format!(
            "internal {top} sbe_m {{ get {{ return this; }} }}"
        ));
    } else {
        o.line(&format!("internal readonly {top} sbe_m;"));
    }
    o.line("internal byte[] sbe_b;");
    o.line("internal int sbe_p;");
    o.line("internal long sbe_v;");
    o.line("internal int sbe_next;");
    if msg.is_some() {
        o.line("internal int sbe_o;");
        o.line("internal int sbe_lim;");
        o.line("internal int sbe_cap;");
    } else {
        o.line("internal int sbe_dim;");
        o.line("internal long sbe_count;");
        o.line("internal bool sbe_entry;");
        o.line("internal bool sbe_on;");
    }
    let gs = groups(b);
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!(
            "internal readonly {} sbe_g{i};",
            n.children[gi].enc
        ));
    }
    o.line("");
    if msg.is_some() {
        o.doc("An encoder; `Wrap` it over a buffer.");
        o.line(&format!("public {e}() {{"));
    } else {
        o.line(&format!("internal {e}({top} m) {{"));
        o.line("sbe_m = m;");
    }
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!("sbe_g{i} = new {}(sbe_m);", n.children[gi].enc));
    }
    o.line("}");
    o.doc("The block length written at version `v` (older versions write the fields they have).");
    if ctx.plan.version == 0 {
        o.line("public static int SbeBlockLength(long v) { return SbeSchemaBlockLength; }");
    } else {
        o.line(&format!(
            "public static int SbeBlockLength(long v) {{ return v >= SbeSchema.SchemaVersion ? SbeSchemaBlockLength : {req}; }}"
        ));
    }
    o.doc("The version being written.");
    o.line("public long Version() { return sbe_v; }");
    if let Some(m) = msg {
        let h = &ctx.plan.header;
        o.doc("Starts a message at `offset` of `buffer` at the schema's version.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset) {{ return Wrap(buffer, offset, buffer.Length - offset, SbeSchema.SchemaVersion); }}"
        ));
        o.doc("Starts a message at `offset` of `buffer` at `version`, with the rest of the buffer available.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset, long version) {{ return Wrap(buffer, offset, buffer.Length - offset, version); }}"
        ));
        o.doc("Starts a message at `offset` of `buffer` (`length` bytes available), written at `version` (an older one writes its block lengths and leaves newer elements out): writes the header and reserves the block, zeroed.");
        o.line(&format!(
            "public {e} Wrap(byte[] buffer, int offset, int length, long version) {{"
        ));
        o.line("if (offset < 0 || length < 0 || length > buffer.Length - offset) throw new System.ArgumentOutOfRangeException(nameof(length));");
        o.line("sbe_b = buffer;");
        o.line("sbe_o = offset;");
        o.line("sbe_lim = offset;");
        o.line("sbe_cap = offset + length;");
        o.line("sbe_v = version;");
        o.line("sbe_next = 0;");
        o.line(&format!(
            "int sbe_h = SbeTakeRaw(SbeSchema.HeaderLength + SbeBlockLength(version), {path});"
        ));
        // Zeroed: the header's other members, the block's padding and unset fields.
        let hb = ctx.plan.header.size + b.block_length;
        if ctx.plan.version == 0 {
            zero(o, "sbe_b", "sbe_h", hb);
        } else {
            o.line("if (version >= SbeSchema.SchemaVersion) {");
            zero(o, "sbe_b", "sbe_h", hb);
            o.line("} else {");
            o.line("SbeZero(sbe_h, SbeSchema.HeaderLength + SbeBlockLength(version));");
            o.line("}");
        }
        o.line("sbe_p = sbe_h + SbeSchema.HeaderLength;");
        for (f, val) in [
            (
                &h.block_length,
                "(long) SbeBlockLength(version)".to_string(),
            ),
            (&h.template_id, format!("{}L", m.id)),
            (&h.schema_id, "SbeSchema.SchemaId".to_string()),
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
        o.line("public int EncodedLength() {");
        o.line("SbeCloseOpen();");
        if k > 0 {
            o.line(&format!("SbeFill({k});"));
            o.line(&format!("sbe_next = {k};"));
        }
        o.line("return sbe_lim - sbe_o;");
        o.line("}");
        o.doc("Internal: reserves `n` zeroed bytes at the end of the message; their position.");
        o.line("internal int SbeTake(int n, string path) {");
        o.line("int at = SbeTakeRaw(n, path);");
        o.line("SbeZero(at, n);");
        o.line("return at;");
        o.line("}");
        o.doc("Internal: reserves `n` bytes at the end of the message, not zeroed (the caller writes them all); their position.");
        o.line("internal int SbeTakeRaw(int n, string path) {");
        o.line("int at = sbe_lim;");
        o.line("long end = (long) at + n;");
        o.line("if (end > sbe_cap) throw new SbeEncodeException(SbeEncodeErrorKind.BufferTooSmall, path);");
        o.line("sbe_lim = (int) end;");
        o.line("return at;");
        o.line("}");
        o.doc("Internal: zeroes `n` bytes at `at`.");
        o.line("internal void SbeZero(int at, int n) {");
        o.line("if (n > 16) {");
        o.line("System.Array.Clear(sbe_b, at, n);");
        o.line("return;");
        o.line("}");
        o.line("for (int i = at; i < at + n; i++) sbe_b[i] = 0;");
        o.line("}");
    } else {
        let Some((dim, bl_slot, count_slot)) = group_slots(sec) else {
            o.line("}");
            return;
        };
        o.doc("Internal: starts the group (its dimension, no entries yet); `on`: the version written has it.");
        o.line("internal void SbeBegin(bool on) {");
        o.line("sbe_b = sbe_m.sbe_b;");
        o.line("sbe_v = sbe_m.sbe_v;");
        o.line("sbe_count = 0;");
        o.line("sbe_entry = false;");
        o.line("sbe_on = on;");
        o.line("if (on) {");
        o.line(&format!("sbe_dim = sbe_m.SbeTakeRaw({dim}, {path});"));
        // Every byte is written: the gaps zeroed, the block length, no entries yet.
        zero_gaps(o, "sbe_b", "sbe_dim", dim, &[&bl_slot, &count_slot]);
        o.line(&format!(
            "{};",
            slot_store(&bl_slot, "sbe_b", "sbe_dim", "(long) SbeBlockLength(sbe_v)")
        ));
        o.line(&format!(
            "{};",
            slot_store(&count_slot, "sbe_b", "sbe_dim", "0L")
        ));
        o.line("}");
        o.line("}");
        o.doc(&format!("Adds an entry (the count is updated in the dimension); more than {} is an error (`COUNT_TOO_LARGE`).", count_slot.max));
        o.line(&format!("public {e} Next() {{"));
        o.line(&format!(
            "if (!sbe_on) throw new SbeEncodeException(SbeEncodeErrorKind.NotInVersion, {path});"
        ));
        o.line("if (sbe_entry) SbeComplete();");
        o.line(&format!(
            "if ({}) throw new SbeEncodeException(SbeEncodeErrorKind.CountTooLarge, {path});",
            super::ucmp("sbe_count", ">=", &ulong_lit(count_slot.max))
        ));
        o.line(&format!(
            "sbe_p = sbe_m.SbeTakeRaw(SbeBlockLength(sbe_v), {path});"
        ));
        if ctx.plan.version == 0 {
            zero(o, "sbe_b", "sbe_p", b.block_length);
        } else {
            o.line("if (sbe_v >= SbeSchema.SchemaVersion) {");
            zero(o, "sbe_b", "sbe_p", b.block_length);
            o.line("} else {");
            o.line("sbe_m.SbeZero(sbe_p, SbeBlockLength(sbe_v));");
            o.line("}");
        }
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
        o.line("public int Count() { return (int) sbe_count; }");
        o.doc("Internal: completes the last entry.");
        o.line("internal void SbeClose() {");
        o.line("if (sbe_entry) SbeComplete();");
        o.line("sbe_entry = false;");
        o.line("}");
        o.line("private void SbeComplete() {");
        o.line("SbeCloseOpen();");
        if k > 0 {
            o.line(&format!("SbeFill({k});"));
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
                    "Starts the `{sname}` group: add entries with `Next()`."
                ));
                o.line(&format!("public {} {name}() {{", cn.enc));
                o.line(&format!("SbeSection({i});"));
                o.line(&format!("sbe_g{i}.SbeBegin({on});"));
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
                let vpath = cs_str(&format!("{}.{sname}", n.path));
                let too_long = if len.max < i32::MAX as u64 {
                    format!(
                        "if (length < 0 || length > {}) throw new SbeEncodeException(SbeEncodeErrorKind.ValueTooLong, {vpath});",
                        len.max
                    )
                } else {
                    format!("if (length < 0) throw new SbeEncodeException(SbeEncodeErrorKind.ValueTooLong, {vpath});")
                };
                let skip =
                    (s.since() > 0).then(|| format!("if (sbe_v < {}) return this;", s.since()));
                o.doc(&format!(
                    "Writes the `{sname}` data: `length` bytes of `src` at `srcOffset`."
                ));
                o.line(&format!(
                    "public {e} {name}(byte[] src, int srcOffset, int length) {{"
                ));
                o.line(&format!("SbeSection({i});"));
                if let Some(s) = &skip {
                    o.line(s);
                }
                o.line(&too_long);
                // Every byte is written: the prefix's gaps zeroed, its length, the data.
                o.line(&format!(
                    "int sbe_at = sbe_m.SbeTakeRaw({l} + length, {vpath});"
                ));
                zero_gaps(o, "sbe_b", "sbe_at", l, &[len]);
                o.line(&format!(
                    "{};",
                    slot_store(len, "sbe_b", "sbe_at", "(long) length")
                ));
                o.line(&format!(
                    "System.Array.Copy(src, srcOffset, sbe_b, sbe_at + {l}, length);"
                ));
                o.line("return this;");
                o.line("}");
                let utf8 = utf8_declared(char_encoding.as_deref());
                o.doc(&format!(
                    "Writes the `{sname}` data from text ({}).",
                    if utf8 {
                        "encoded as UTF-8; allocates"
                    } else {
                        "one byte per char, chars above U+00FF written as `?`"
                    }
                ));
                o.line(&format!("public {e} {name}(string value) {{"));
                if utf8 {
                    o.line("byte[] sbe_t = System.Text.Encoding.UTF8.GetBytes(value);");
                    o.line(&format!("return {name}(sbe_t, 0, sbe_t.Length);"));
                } else {
                    o.line(&format!("SbeSection({i});"));
                    if let Some(s) = &skip {
                        o.line(s);
                    }
                    o.line("int length = value.Length;");
                    o.line(&too_long);
                    o.line(&format!(
                        "int sbe_at = sbe_m.SbeTakeRaw({l} + length, {vpath});"
                    ));
                    zero_gaps(o, "sbe_b", "sbe_at", l, &[len]);
                    o.line(&format!(
                        "{};",
                        slot_store(len, "sbe_b", "sbe_at", "(long) length")
                    ));
                    o.line("for (int sbe_i = 0; sbe_i < length; sbe_i++) {");
                    o.line("char sbe_c = value[sbe_i];");
                    o.line(&format!(
                        "sbe_b[sbe_at + {l} + sbe_i] = (byte) (sbe_c > 0xFF ? '?' : sbe_c);"
                    ));
                    o.line("}");
                    o.line("return this;");
                }
                o.line("}");
            }
        }
    }
    // Section order.
    if k > 0 {
        o.line("private void SbeSection(int i) {");
        o.line(&format!(
            "if (sbe_next > i) throw new SbeEncodeException(SbeEncodeErrorKind.OutOfOrder, {path});"
        ));
        o.line("SbeCloseOpen();");
        o.line("SbeFill(i);");
        o.line("sbe_next = i + 1;");
        o.line("}");
    }
    o.line("private void SbeCloseOpen() {");
    for (i, _, _) in &gs {
        o.line(&format!("if (sbe_next - 1 == {i}) sbe_g{i}.SbeClose();"));
    }
    o.line("}");
    o.line("private void SbeFill(int to) {");
    for (i, s) in b.sections.iter().enumerate() {
        let on = since_cond(s.since(), "sbe_v");
        let step = match s {
            Section::Group { .. } => format!(
                "sbe_g{i}.SbeBegin({});",
                on.clone().unwrap_or_else(|| "true".into())
            ),
            Section::Var { name, .. } => {
                let t = format!(
                    "sbe_m.SbeTake({}, {});",
                    s.data_offset(),
                    cs_str(&format!("{}.{name}", n.path))
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
