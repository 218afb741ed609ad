//! The decoders of each message file: the flyweight, its accessors, the group flyweights and `Wrap` (the plan's checks, run once).

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
                "{}\nA flyweight over a `{}` message (template id {}): `Wrap` checks the whole message once (header, block lengths, every group count and var-data length) and throws `SbeDecodeException` for malformed input; accessors then read fixed offsets without further checks.",
                b.description.as_deref().unwrap_or(""),
                b.name,
                m.id
            ));
            o.line(&format!("public sealed class {d} : ISbeMessageDecoder {{"));
            o.doc("The message's template id.");
            o.line(&format!("public const int TemplateId = {};", m.id));
        }
        None => {
            o.doc(&format!(
                "{}\nThe entries of the `{}` group: a reusable flyweight that is its own enumerator (`foreach (var e in d.Group())`, no allocation); each `MoveNext()` moves it to the next entry.",
                b.description.as_deref().unwrap_or(""),
                n.path
            ));
            o.line(&format!("public sealed class {d} {{"));
        }
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "public const int SbeSchemaBlockLength = {};",
        b.block_length
    ));
    o.line("internal byte[] sbe_b;");
    o.line("internal int sbe_p;");
    o.line("internal int sbe_bl;");
    o.line("internal long sbe_av;");
    if k > 0 {
        o.line(&format!(
            "private readonly int[] sbe_sec = new int[{}];",
            k + 1
        ));
    }
    if msg.is_some() {
        o.line("internal int sbe_o;");
        o.line("internal int sbe_end;");
    } else {
        o.line("internal int sbe_count;");
        o.line("internal int sbe_index;");
        o.line("internal int sbe_next;");
    }
    for (gi, (i, _, _)) in groups(b).into_iter().enumerate() {
        let cn = &n.children[gi];
        o.line(&format!(
            "private readonly {} sbe_g{i} = new {}();",
            cn.dec, cn.dec
        ));
    }
    o.line("");
    if let Some(m) = msg {
        wrap_fn(o, ctx, m, n);
        o.doc("The message's template id.");
        o.line("public int SbeTemplateId() { return TemplateId; }");
        o.doc("Bytes from the start of the header to the end of the message.");
        o.line("public int EncodedLength() { return sbe_end - sbe_o; }");
        o.doc("Where the message (its header) starts in the buffer.");
        o.line("public int Offset() { return sbe_o; }");
        o.doc("The schema version the writer used (from the message header).");
        o.line("public long ActingVersion() { return sbe_av; }");
    } else {
        group_fns(o, b, n, sec);
        o.doc("The schema version the writer used.");
        o.line("public long ActingVersion() { return sbe_av; }");
        o.doc("Where the current entry starts in the buffer.");
        o.line("public int Offset() { return sbe_p; }");
    }
    o.doc("The block length on the wire.");
    o.line("public int BlockLength() { return sbe_bl; }");
    o.doc("The buffer read.");
    o.line("public byte[] Buffer() { return sbe_b; }");
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
                    "{}\nThe entries of the `{sname}` group (a reusable flyweight enumerator){}.",
                    description.as_deref().unwrap_or(""),
                    if *since > 0 {
                        format!("; no entries when the acting version is older than {since}")
                    } else {
                        String::new()
                    }
                ));
                o.line(&format!(
                    "public {} {name}() {{ return sbe_g{i}.SbeWrap(sbe_b, sbe_sec[{i}], sbe_av, {}); }}",
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
                    "{}\nThe `{sname}` data as a view of the buffer (a struct: no allocation).",
                    description.as_deref().unwrap_or("")
                ));
                o.line(&format!(
                    "public System.ArraySegment<byte> {name}() {{ return new System.ArraySegment<byte>(sbe_b, sbe_sec[{i}] + {l}, {}()); }}",
                    sn.length
                ));
                o.doc(&format!(
                    "Copies up to `length` bytes of the `{sname}` data into `dst` at `dstOffset`; the number of bytes copied."
                ));
                o.line(&format!(
                    "public int {}(byte[] dst, int dstOffset, int length) {{",
                    sn.get
                ));
                o.line(&format!(
                    "int sbe_n = System.Math.Min(length, {}());",
                    sn.length
                ));
                o.line(&format!(
                    "System.Array.Copy(sbe_b, sbe_sec[{i}] + {l}, dst, dstOffset, sbe_n);"
                ));
                o.line("return sbe_n;");
                o.line("}");
                let utf8 = utf8_declared(char_encoding.as_deref());
                o.doc(&format!(
                    "The `{sname}` data as a `string`, decoded as {} (allocates).",
                    if utf8 { "UTF-8" } else { "Latin-1" }
                ));
                if utf8 {
                    o.line(&format!(
                        "public string {}() {{ return System.Text.Encoding.UTF8.GetString(sbe_b, sbe_sec[{i}] + {l}, {}()); }}",
                        sn.string, sn.length
                    ));
                } else {
                    o.line(&format!(
                        "public string {}() {{ return SbeJson.Latin1(sbe_b, sbe_sec[{i}] + {l}, {}()); }}",
                        sn.string, sn.length
                    ));
                }
            }
        }
    }
    // JSON.
    let members = !b.fields.is_empty() || !b.sections.is_empty();
    o.doc("Appends the message or entry as one line of JSON, as `sbekit decode` prints it.");
    o.line("public StringBuilder AppendJson(StringBuilder sb) {");
    put(o, "{");
    if msg.is_some() {
        o.line("if (sbe_av < SbeSchema.SchemaVersion) {");
        put(o, "\"$version\":");
        o.line("SbeJson.AppendLong(sb, sbe_av);");
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
                o.line(&format!("bool sbe_first{i} = true;"));
                o.line(&format!("foreach (var sbe_x in {}()) {{", sn.name));
                o.line(&format!("if (!sbe_first{i}) sb.Append(',');"));
                o.line(&format!("sbe_first{i} = false;"));
                o.line("sbe_x.AppendJson(sb);");
                o.line("}");
                put(o, "]");
            }
            Section::Var { char_encoding, .. } => {
                o.line(&format!(
                    "SbeJson.AppendText(sb, sbe_b, sbe_sec[{i}] + {}, {}(), {});",
                    s.data_offset(),
                    sn.length,
                    utf8_declared(char_encoding.as_deref())
                ));
            }
        }
    }
    put(o, "}");
    o.line("return sb;");
    o.line("}");
    o.doc("The JSON `AppendJson` appends (allocates).");
    o.line("public override string ToString() {");
    o.line("return AppendJson(new StringBuilder()).ToString();");
    o.line("}");
    // Copy.
    o.doc("Writes what this decoder reads into `e` (used to re-encode a message at its acting version).");
    let enc_path = if msg.is_some() {
        n.enc.clone()
    } else {
        format!("{}.{}", ctx_msg_enc(ctx, n), n.enc)
    };
    o.line(&format!("public void SbeCopyTo({enc_path} e) {{"));
    fields_copy(o, &b.fields, &n.fields);
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        match s {
            Section::Group { .. } => {
                o.line(&format!("var sbe_w{i} = e.{}();", sn.name));
                o.line(&format!(
                    "foreach (var sbe_x in {}()) sbe_x.SbeCopyTo(sbe_w{i}.Next());",
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

/// The group decoder's iteration: `SbeWrap`, `SbeEnd` (the trusted walk to its end), `Count`,
/// `GetEnumerator`, `MoveNext`, `Current`.
pub(super) fn group_fns(o: &mut Out, b: &Body, n: &BodyNames, sec: Option<&Section>) {
    let d = &n.dec;
    let Some((dim, bl_slot, count_slot)) = group_slots(sec) else {
        return;
    };
    o.doc("Internal: the checked group at `p`, or no entries when it is absent.");
    o.line(&format!(
        "internal {d} SbeWrap(byte[] b, int p, long av, bool present) {{"
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
    o.line("internal static int SbeEnd(byte[] sbe_b, int p, long av) {");
    o.line(&format!(
        "int sbe_bl = (int) {};",
        slot_load(&bl_slot, "sbe_b", "p")
    ));
    o.line(&format!(
        "int sbe_n = (int) {};",
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
    o.line("public int Count() { return sbe_count; }");
    o.doc("Moves to the next entry (this flyweight); false when none is left.");
    o.line("public bool MoveNext() {");
    o.line("if (sbe_index >= sbe_count) return false;");
    o.line("sbe_index++;");
    o.line("sbe_p = sbe_next;");
    if b.is_fixed() {
        o.line("sbe_next = sbe_p + sbe_bl;");
    } else {
        o.line("int sbe_q = sbe_p + sbe_bl;");
        walk(o, b, n, Some("sbe_sec"), "sbe_av");
        o.line("sbe_next = sbe_q;");
    }
    o.line("return true;");
    o.line("}");
    o.doc("The current entry (this flyweight).");
    o.line(&format!("public {d} Current {{ get {{ return this; }} }}"));
    o.doc("This flyweight, as its own enumerator (`foreach` without allocation).");
    o.line(&format!("public {d} GetEnumerator() {{ return this; }}"));
}

/// `Wrap`: the plan's checks, in wire order, recording where the root's sections start.
pub(super) fn wrap_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    let name = &m.body.name;
    o.doc("Checks the message at `offset` of `buffer` (`length` bytes available from there, header included) once: header, block lengths, every group count and var-data length. Throws `SbeDecodeException` (kind, byte offset from the message start, element path) for malformed input, leaving the decoder as it was; after it, accessors cannot fail.");
    o.line(&format!(
        "public {d} Wrap(byte[] buffer, int offset, int length) {{"
    ));
    o.line(&format!(
        "if (buffer == null || offset < 0 || length < 0 || length > buffer.Length - offset) {}",
        err("TRUNCATED", "0", name)
    ));
    o.line("byte[] sbe_b = buffer;");
    o.line("int sbe_o = offset;");
    o.line("int sbe_n = length;");
    for l in program::lines(m, &CsChecks) {
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
    o.doc("`Wrap` over the rest of the buffer from `offset`.");
    o.line(&format!(
        "public {d} Wrap(byte[] buffer, int offset) {{ return Wrap(buffer, offset, buffer == null ? 0 : buffer.Length - offset); }}"
    ));
}

/// C#'s syntax for the plan's check program (`sbekit_plan::program`): unsigned comparisons
/// through `ulong` casts.
struct CsChecks;

impl CheckSyntax for CsChecks {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        err(f.error.screaming(), at, &f.path)
    }
    fn unsigned(&self, a: &str, op: &str, b: &str) -> String {
        ucmp(a, op, b)
    }
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("unchecked((ulong) ({a})) / unchecked((ulong) {b})")
    }
    fn literal(&self, v: u64) -> String {
        long_lit(v)
    }
    fn unsigned_literal(&self, v: u64) -> String {
        ulong_lit(v)
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(slot, "sbe_b", pos)
    }
    fn signed_lengths(&self) -> bool {
        true
    }
    fn budget_max(&self) -> String {
        "SbeSchema.MaxEmptyEntries".into()
    }
}
