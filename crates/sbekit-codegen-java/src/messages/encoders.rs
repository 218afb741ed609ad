//! The encoders of each message file: the fluent encoder with its section order, group writers and the zeroing of reservations.

use super::*;

/// Stores that zero `n` bytes at `base + 0 .. base + n`, at constant offsets (straight-line
/// code the JIT keeps in registers; `setMemory` is a native call on JDK 17), or one `setMemory`
/// when `n` is large.
pub(super) fn zero(o: &mut Out, buf: &str, base: &str, n: usize) {
    if n > 64 {
        o.line(&format!("{buf}.setMemory({base}, {n}, (byte) 0);"));
        return;
    }
    let mut at = 0;
    for (w, put) in [
        (8, "putLong"),
        (4, "putInt"),
        (2, "putShort"),
        (1, "putByte"),
    ] {
        let zero = match w {
            8 => "0L",
            4 => "0",
            2 => "(short) 0",
            _ => "(byte) 0",
        };
        while n - at >= w {
            o.line(&format!("{buf}.{put}({base} + {at}, {zero});"));
            at += w;
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
            "final int sbe_h = sbeTakeRaw(SbeSchema.HEADER_LENGTH + sbeBlockLength(version), {path});"
        ));
        // Zeroed: the header's other members, the block's padding and unset fields.
        let hb = ctx.plan.header.size + b.block_length;
        if ctx.plan.version == 0 {
            zero(o, "sbe_b", "sbe_h", hb);
        } else {
            o.line("if (version >= SbeSchema.SCHEMA_VERSION) {");
            zero(o, "sbe_b", "sbe_h", hb);
            o.line("} else {");
            o.line("sbeZero(sbe_h, SbeSchema.HEADER_LENGTH + sbeBlockLength(version));");
            o.line("}");
        }
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
        o.line("final int at = sbeTakeRaw(n, path);");
        o.line("sbeZero(at, n);");
        o.line("return at;");
        o.line("}");
        o.doc("Internal: reserves `n` bytes at the end of the message, not zeroed (the caller writes them all); their position.");
        o.line("int sbeTakeRaw(final int n, final String path) {");
        o.line("final int at = sbe_lim;");
        o.line("final long end = (long) at + n;");
        o.line("if (end > sbe_b.capacity()) {");
        o.line("if (!sbe_b.isExpandable() || end > Integer.MAX_VALUE - 16) throw new SbeEncodeException(SbeEncodeException.Kind.BUFFER_TOO_SMALL, path);");
        o.line("sbe_b.checkLimit((int) end);");
        o.line("}");
        o.line("sbe_lim = (int) end;");
        o.line("return at;");
        o.line("}");
        // Blocks are small: stores beat `setMemory`, a native call on JDK 17.
        o.doc("Internal: zeroes `n` bytes at `at`.");
        o.line("void sbeZero(final int at, final int n) {");
        o.line("if (n > 64) {");
        o.line("sbe_b.setMemory(at, n, (byte) 0);");
        o.line("return;");
        o.line("}");
        o.line("int i = at;");
        o.line("final int end = at + n;");
        o.line("for (; i + 8 <= end; i += 8) sbe_b.putLong(i, 0L);");
        o.line("if (i + 4 <= end) {");
        o.line("sbe_b.putInt(i, 0);");
        o.line("i += 4;");
        o.line("}");
        o.line("if (i + 2 <= end) {");
        o.line("sbe_b.putShort(i, (short) 0);");
        o.line("i += 2;");
        o.line("}");
        o.line("if (i < end) sbe_b.putByte(i, (byte) 0);");
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
        o.line(&format!("sbe_dim = sbe_m.sbeTakeRaw({dim}, {path});"));
        zero(o, "sbe_b", "sbe_dim", dim);
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
            "sbe_p = sbe_m.sbeTakeRaw(sbeBlockLength(sbe_v), {path});"
        ));
        if ctx.plan.version == 0 {
            zero(o, "sbe_b", "sbe_p", b.block_length);
        } else {
            o.line("if (sbe_v >= SbeSchema.SCHEMA_VERSION) {");
            zero(o, "sbe_b", "sbe_p", b.block_length);
            o.line("} else {");
            o.line("sbe_m.sbeZero(sbe_p, sbeBlockLength(sbe_v));");
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
                    // Every byte is written: the prefix zeroed (any gap), its length, the data.
                    o.line(&format!(
                        "final int sbe_at = sbe_m.sbeTakeRaw({l} + length, {vpath});"
                    ));
                    zero(o, "sbe_b", "sbe_at", l);
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
                    // Every byte is written: the prefix zeroed (any gap), its length, the data.
                    o.line(&format!(
                        "final int sbe_at = sbe_m.sbeTakeRaw({l} + length, {vpath});"
                    ));
                    zero(o, "sbe_b", "sbe_at", l);
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
