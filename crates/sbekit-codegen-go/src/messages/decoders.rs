//! The decoders of `messages.go`: per message and group entry the flyweight type, its
//! accessors and `Wrap` (the plan's checks run once), and per group the iterator.

use super::*;

/// The decoder type, its accessors and (for a message) `Wrap`.
pub(super) fn decoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let k = b.sections.len();
    let d = &n.dec;
    let low = &n.low;
    required_fn(o, &format!("{low}Required"), &b.required);
    match msg {
        Some(m) => {
            o.doc(&format!(
                "{d}TemplateID is the template id of `{}`.",
                b.name
            ));
            o.line(&format!("const {d}TemplateID = {}", m.id));
            o.line("");
            o.doc(&b.description.clone().map_or_else(
                || format!("{d} reads a `{}` message (template id {}).", b.name, m.id),
                |x| format!("{d} reads a `{}` message: {}", b.name, x.trim()),
            ));
            o.doc("Wrap checks a whole message once; the accessors then read at fixed offsets. The zero value reads as an empty message.");
        }
        None => o.doc(&format!("{d} reads one entry of the `{}` group.", n.path)),
    }
    o.line(&format!("type {d} struct {{"));
    o.fields(&[
        ("buf".into(), "[]byte".into()),
        ("blk".into(), "[]byte".into()),
        ("p".into(), "int".into()),
        ("av".into(), "uint64".into()),
        ("sec".into(), format!("[{}]int", k + 1)),
    ]);
    o.line("}");
    o.line("");
    if let Some(m) = msg {
        wrap(o, ctx, m, n);
        o.doc(&format!(
            "Decode{d} checks the message at the start of b and returns its decoder (see Wrap)."
        ));
        o.line(&format!("func Decode{d}(b []byte) ({d}, error) {{"));
        o.line(&format!("var d {d}"));
        o.line("err := d.Wrap(b)");
        o.line("return d, err");
        o.line("}");
        o.line("");
        o.doc("SbeTemplateID is the message's template id.");
        o.line(&format!(
            "func (d *{d}) SbeTemplateID() uint64 {{ return {d}TemplateID }}"
        ));
        o.line("");
    }
    o.doc("SbeActingVersion is the schema version the writer used (from the message header).");
    o.line(&format!(
        "func (d *{d}) SbeActingVersion() uint64 {{ return d.av }}"
    ));
    o.line("");
    o.doc("SbeBlockLength is the block length on the wire.");
    o.line(&format!(
        "func (d *{d}) SbeBlockLength() int {{ return len(d.blk) }}"
    ));
    o.line("");
    o.doc(if msg.is_some() {
        "SbeEncodedLength is the length of the message, header included."
    } else {
        "SbeEncodedLength is the length of the entry, nested groups and var data included."
    });
    o.line(&format!(
        "func (d *{d}) SbeEncodedLength() int {{ return d.sec[{k}] - d.p }}"
    ));
    o.line("");
    let src = Src {
        recv: format!("d *{d}"),
        blk: "d.blk".into(),
        av: "d.av".into(),
    };
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        getter(o, ctx, f, fname, &src);
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let since = s.since();
        let gate = if since > 0 {
            format!("d.av < {since} || ")
        } else {
            String::new()
        };
        match s {
            Section::Group {
                name,
                dim_size,
                block_len,
                count,
                ..
            } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(&format!(
                    "{} iterates over the entries of the `{name}` group: for it := d.{}(); it.Next(); {{ e := it.Entry() }}.{}",
                    sn.get,
                    sn.get,
                    if since > 0 {
                        format!(" No entries when the acting version is older than {since}.")
                    } else {
                        String::new()
                    }
                ));
                o.line(&format!("func (d *{d}) {}() {} {{", sn.get, cn.iter));
                o.line(&format!("var it {}", cn.iter));
                o.line(&format!("p := d.sec[{i}]"));
                iff(o, &format!("{gate}p+{dim_size} > len(d.buf)"), "return it");
                o.line("it.buf, it.av = d.buf, d.av");
                o.line(&format!(
                    "it.bl = int({})",
                    slot_load(ctx, block_len, "d.buf", "p")
                ));
                o.line(&format!(
                    "it.n = int({})",
                    slot_load(ctx, count, "d.buf", "p")
                ));
                o.line(&format!("it.p = p + {dim_size}"));
                o.line("return it");
                o.line("}");
                o.line("");
            }
            Section::Var {
                name,
                data_offset,
                text,
                ..
            } => {
                o.doc(&format!(
                    "{} is the `{name}` var data: a view of the buffer (nil when absent).",
                    sn.get
                ));
                o.line(&format!("func (d *{d}) {}() []byte {{", sn.get));
                o.line(&format!(
                    "s, t := d.sec[{i}]+{data_offset}, d.sec[{}]",
                    i + 1
                ));
                iff(o, &format!("{gate}s > t || t > len(d.buf)"), "return nil");
                o.line("return d.buf[s:t:t]");
                o.line("}");
                o.line("");
                if *text {
                    o.doc(&format!(
                        "{} is the `{name}` var data as a string (a copy).",
                        sn.string
                    ));
                    o.line(&format!(
                        "func (d *{d}) {}() string {{ return string(d.{}()) }}",
                        sn.string, sn.get
                    ));
                    o.line("");
                }
            }
        }
    }
    if msg.is_none() {
        // The trusted walk: the message was checked, so this only locates the sections.
        o.line(&format!(
            "func (d *{d}) at(b []byte, p, bl int, av uint64) {{"
        ));
        o.line("d.buf, d.p, d.av = b, p, av");
        o.line("d.blk = b[p : p+bl]");
        o.line("q := p + bl");
        let mut gi = 0;
        for (i, s) in b.sections.iter().enumerate() {
            o.line(&format!("d.sec[{i}] = q"));
            let step = match s {
                Section::Group { .. } => {
                    let cn = &n.children[gi];
                    gi += 1;
                    format!("q = {}End(b, q, av)", cn.low)
                }
                Section::Var {
                    len, data_offset, ..
                } => format!(
                    "q += {data_offset} + int({})",
                    slot_load(ctx, len, "b", "q")
                ),
            };
            if s.since() > 0 {
                iff(o, &format!("av >= {}", s.since()), &step);
            } else {
                o.line(&step);
            }
        }
        o.line(&format!("d.sec[{k}] = q"));
        o.line("}");
        o.line("");
    }
}

/// A body's group iterator and the function giving where a checked group ends.
pub(super) fn iter(o: &mut Out, ctx: &Ctx, sec: &Section, b: &Body, n: &BodyNames) {
    let (it, d) = (&n.iter, &n.dec);
    let k = b.sections.len();
    if let Section::Group {
        dim_size,
        block_len,
        count,
        ..
    } = sec
    {
        // Where a checked group at p ends.
        o.line(&format!(
            "func {}End(b []byte, p int, av uint64) int {{",
            n.low
        ));
        o.line(&format!(
            "bl := int({})",
            slot_load(ctx, block_len, "b", "p")
        ));
        o.line(&format!("n := int({})", slot_load(ctx, count, "b", "p")));
        o.line(&format!("q := p + {dim_size}"));
        if b.is_fixed() {
            o.line("_ = av");
            o.line("return q + bl*n");
        } else {
            o.line(&format!("var e {d}"));
            o.line("for i := 0; i < n; i++ {");
            o.line("e.at(b, q, bl, av)");
            o.line(&format!("q = e.sec[{k}]"));
            o.line("}");
            o.line("return q");
        }
        o.line("}");
        o.line("");
    }
    o.doc(&format!(
        "{it} iterates over the entries of the `{}` group (one decoder, moved along).",
        n.path
    ));
    o.line(&format!("type {it} struct {{"));
    o.fields(&[
        ("buf".into(), "[]byte".into()),
        ("p".into(), "int".into()),
        ("bl".into(), "int".into()),
        ("n".into(), "int".into()),
        ("i".into(), "int".into()),
        ("av".into(), "uint64".into()),
        ("cur".into(), d.clone()),
    ]);
    o.line("}");
    o.line("");
    o.doc("Count is the number of entries.");
    o.line(&format!("func (it *{it}) Count() int {{ return it.n }}"));
    o.line("");
    o.doc("Next moves to the next entry; false after the last.");
    o.line(&format!("func (it *{it}) Next() bool {{"));
    iff(o, "it.i >= it.n", "return false");
    o.line("it.cur.at(it.buf, it.p, it.bl, it.av)");
    o.line(&format!("it.p = it.cur.sec[{k}]"));
    o.line("it.i++");
    o.line("return true");
    o.line("}");
    o.line("");
    o.doc("Entry is the current entry (valid until the next call to Next).");
    o.line(&format!(
        "func (it *{it}) Entry() *{d} {{ return &it.cur }}"
    ));
    o.line("");
}

/// `Wrap`: the plan's checks, in wire order.
pub(super) fn wrap(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    let name = go_str(&m.body.name);
    let h = &ctx.plan.header;
    o.doc("Wrap checks the message at the start of b (header, block lengths, every group count and var-data length) and points the decoder at it. On failure the error is a *DecodeError with the kind, byte offset and element path, and the decoder is left as it was.");
    o.line(&format!("func (d *{d}) Wrap(b []byte) error {{"));
    o.line("n := uint64(len(b))");
    let has_groups = m.checks.iter().any(|c| matches!(c, Check::Group { .. }));
    let mut hdr = 0;
    let mut sec = 0;
    for c in &m.checks {
        match c {
            Check::Header { size } => {
                hdr = *size;
                iff(
                    o,
                    &format!("n < {size}"),
                    &format!("return derr(ErrTruncated, 0, 0, {name})"),
                );
            }
            Check::SchemaId { .. } if h.schema_id.is_constant() => {}
            Check::SchemaId { slot, expected } => iff(
                o,
                &format!("{} != {expected}", slot_load(ctx, slot, "b", "0")),
                &format!("return derr(ErrWrongSchemaID, {}, 0, {name})", slot.offset),
            ),
            Check::TemplateId { slot, expected } => iff(
                o,
                &format!("{} != {expected}", header_value(ctx, &h.template_id, slot)),
                &format!(
                    "return derr(ErrWrongTemplateID, {}, 0, {name})",
                    slot.offset
                ),
            ),
            Check::RootBlock {
                block_length,
                version,
                ..
            } => {
                o.line(&format!(
                    "bl := {}",
                    header_value(ctx, &h.block_length, block_length)
                ));
                o.line(&format!("av := {}", header_value(ctx, &h.version, version)));
                iff(
                    o,
                    &format!("bl < {}Required(av)", n.low),
                    &format!(
                        "return derr(ErrBlockLengthTooShort, {}, 0, {name})",
                        block_length.offset
                    ),
                );
                iff(
                    o,
                    &format!("n-{hdr} < bl"),
                    &format!("return derr(ErrTruncated, {hdr}, 0, {name})"),
                );
                o.line(&format!("q := {hdr} + bl"));
                o.line(&format!("var sec [{}]int", m.body.sections.len() + 1));
                if has_groups {
                    o.line("budget := uint64(MaxEmptyEntries)");
                }
            }
            Check::Group { .. } | Check::VarData { .. } => {
                o.line(&format!("sec[{sec}] = int(q)"));
                sec += 1;
                section_check(o, ctx, c, 1);
            }
        }
    }
    o.line(&format!("sec[{sec}] = int(q)"));
    o.line("d.buf, d.p, d.av, d.sec = b, 0, av, sec");
    o.line(&format!("d.blk = b[{hdr} : {hdr}+bl]"));
    o.line("return nil");
    o.line("}");
    o.line("");
}

/// A header member's value as a `uint64`: its constant (not on the wire) or a load of its slot.
pub(super) fn header_value(ctx: &Ctx, f: &sbekit_plan::Field, slot: &sbekit_plan::Slot) -> String {
    if let Kind::Prim(p) = &f.kind {
        if let (true, Some(c)) = (f.is_constant(), &p.constant) {
            return format!("uint64({})", crate::prim::int_digits(c, p.ty));
        }
    }
    slot_load(ctx, slot, "b", "0")
}

/// The checks of one section at `q`.
pub(super) fn section_check(o: &mut Out, ctx: &Ctx, c: &Check, depth: usize) {
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
            let path = go_str(path);
            let (bl, cnt, i) = (
                format!("bl{depth}"),
                format!("c{depth}"),
                format!("i{depth}"),
            );
            if *since > 0 {
                o.line(&format!("if av >= {since} {{"));
            } else {
                o.line("{");
            }
            iff(
                o,
                &format!("n-q < {dim_size}"),
                &format!("return derr(ErrTruncated, q, 0, {path})"),
            );
            o.line(&format!(
                "{bl} := {}",
                slot_load(ctx, block_length, "b", "q")
            ));
            o.line(&format!("{cnt} := {}", slot_load(ctx, count, "b", "q")));
            if count.max != u64::MAX {
                iff(
                    o,
                    &format!("{cnt} > {}", count.max),
                    &format!(
                        "return derr(ErrInvalidDimension, q, {}, {path})",
                        count.offset
                    ),
                );
            }
            if required.iter().any(|r| r.1 > 0) {
                let mut rs: Vec<&(u32, usize)> = required.iter().collect();
                rs.sort();
                let req = if rs.len() == 1 && rs[0].0 == 0 {
                    rs[0].1.to_string()
                } else {
                    // Inline: the entry's required function is declared for its decoder.
                    let mut e = String::from("0");
                    for (v, len) in &rs {
                        e = if *v == 0 {
                            len.to_string()
                        } else {
                            format!("pick(av >= {v}, {len}, {e})")
                        };
                    }
                    e
                };
                iff(
                    o,
                    &format!("{cnt} > 0 && {bl} < {req}"),
                    &format!(
                        "return derr(ErrBlockLengthTooShort, q, {}, {path})",
                        block_length.offset
                    ),
                );
            }
            o.line(&format!("q += {dim_size}"));
            o.line(&format!("if {bl} == 0 {{"));
            iff(
                o,
                &format!("{cnt} > budget"),
                &format!("return derr(ErrEmptyEntryBudget, q, 0, {path})"),
            );
            o.line(&format!("budget -= {cnt}"));
            o.line("}");
            if entry.is_empty() {
                iff(
                    o,
                    &format!("{bl} != 0 && {cnt} > (n-q)/{bl}"),
                    &format!("return derr(ErrTruncated, q, 0, {path})"),
                );
                o.line(&format!("q += {bl} * {cnt}"));
            } else {
                o.line(&format!("for {i} := uint64(0); {i} < {cnt}; {i}++ {{"));
                iff(
                    o,
                    &format!("n-q < {bl}"),
                    &format!("return derr(ErrTruncated, q, 0, {path})"),
                );
                o.line(&format!("q += {bl}"));
                for e in entry {
                    section_check(o, ctx, e, depth + 1);
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
            let path = go_str(path);
            let l = *data_offset;
            let len = format!("l{depth}");
            if *since > 0 {
                o.line(&format!("if av >= {since} {{"));
            } else {
                o.line("{");
            }
            iff(
                o,
                &format!("n-q < {l}"),
                &format!("return derr(ErrTruncated, q, 0, {path})"),
            );
            o.line(&format!("{len} := {}", slot_load(ctx, length, "b", "q")));
            if length.max != u64::MAX {
                iff(
                    o,
                    &format!("{len} > {}", length.max),
                    &format!(
                        "return derr(ErrInvalidDimension, q, {}, {path})",
                        length.offset
                    ),
                );
            }
            iff(
                o,
                &format!("n-q-{l} < {len}"),
                &format!("return derr(ErrTruncated, q, {l}, {path})"),
            );
            o.line(&format!("q += {l} + {len}"));
            o.line("}");
        }
        _ => {}
    }
}
