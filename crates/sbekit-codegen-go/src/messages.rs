//! `messages.go`: per message and group entry a flyweight decoder (`Wrap` runs the plan's checks
//! once; accessors then read at fixed offsets) and a fluent encoder; per group an iterator and a
//! writer; then `AnyDecoder`, which dispatches on the template id.
//!
//! Encoders keep all their state in the message encoder (`CarEncoder`): the block being
//! written, the next section of each open body and each group's count. Entry encoders and group
//! writers are handles holding a pointer to it, so nothing points back into a struct from
//! inside it and an encoder on the stack stays there (no allocation).

use crate::names::BodyNames;
use crate::prim::{go_str, slot_load, slot_store};
use crate::types::{getter, setter, Sink, Src};
use crate::{go_file, Ctx, Out};
use sbekit_plan::{Body, Check, Kind, Message, RequiredLengths, Section};

/// The text of `messages.go`.
pub fn messages_go(ctx: &Ctx) -> String {
    let mut o = Out::default();
    for (m, n) in ctx.plan.messages.iter().zip(&ctx.n.msgs) {
        body(&mut o, ctx, &m.body, n, Some(m), None, n, "s");
    }
    any(&mut o, ctx);
    go_file(&ctx.n.pkg, &o.s)
}

/// `if cond { line }` as gofmt writes it.
fn iff(o: &mut Out, cond: &str, then: &str) {
    o.line(&format!("if {cond} {{"));
    o.line(then);
    o.line("}");
}

/// A function of the acting version `v` giving the block bytes a version needs.
fn required_fn(o: &mut Out, name: &str, required: &RequiredLengths) {
    o.line(&format!("func {name}(v uint64) uint64 {{"));
    let mut rs: Vec<&(u32, usize)> = required.iter().collect();
    rs.sort();
    let mut base = 0;
    for (v, len) in rs.iter().rev() {
        if *v == 0 {
            base = *len;
        } else {
            iff(o, &format!("v >= {v}"), &format!("return {len}"));
        }
    }
    if rs.iter().all(|r| r.0 != 0) {
        o.line("_ = v");
    }
    o.line(&format!("return {base}"));
    o.line("}");
    o.line("");
}

/// Emits a body (message or entry) and, first, its groups' bodies.
#[allow(clippy::too_many_arguments)]
fn body(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    group: Option<&Section>,
    root: &BodyNames,
    state: &str,
) {
    let mut gi = 0;
    for s in &b.sections {
        if let Section::Group { body: gb, .. } = s {
            let st = format!("{state}.g{gi}");
            body(o, ctx, gb, &n.children[gi], None, Some(s), root, &st);
            gi += 1;
        }
    }
    decoder(o, ctx, b, n, msg);
    if let Some(sec) = group {
        iter(o, ctx, sec, b, n);
    }
    encoder(o, ctx, b, n, msg, root, state);
}

/// The decoder type, its accessors and (for a message) `Wrap`.
fn decoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
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
fn iter(o: &mut Out, ctx: &Ctx, sec: &Section, b: &Body, n: &BodyNames) {
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
fn wrap(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
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
fn header_value(ctx: &Ctx, f: &sbekit_plan::Field, slot: &sbekit_plan::Slot) -> String {
    if let Kind::Prim(p) = &f.kind {
        if let (true, Some(c)) = (f.is_constant(), &p.constant) {
            return format!("uint64({})", crate::prim::int_digits(c, p.ty));
        }
    }
    slot_load(ctx, slot, "b", "0")
}

/// The checks of one section at `q`.
fn section_check(o: &mut Out, ctx: &Ctx, c: &Check, depth: usize) {
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
                    &format!("{bl} < {req}"),
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

/// The state struct of a body's encoder (kept in the message encoder) and the encoder.
#[allow(clippy::too_many_lines)]
fn encoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    root: &BodyNames,
    state: &str,
) {
    let (e, low, r) = (&n.enc, &n.low, &root.enc);
    let k = b.sections.len();
    let path = go_str(&n.path);
    let st = format!("r.{state}");
    // The state: block, next section, and for a group its dimension and count.
    let mut rows: Vec<(String, String)> = vec![
        ("b".into(), "[]byte".into()),
        ("next".into(), "int".into()),
        ("dim".into(), "[]byte".into()),
        ("n".into(), "int".into()),
    ];
    for (gi, cn) in n.children.iter().enumerate() {
        rows.push((format!("g{gi}"), format!("{}State", cn.low)));
    }
    o.line(&format!("type {low}State struct {{"));
    o.fields(&rows);
    o.line("}");
    o.line("");
    o.line(&format!("func {low}BlockLength(v uint64) int {{"));
    if ctx.plan.version == 0 {
        o.line("_ = v");
    } else {
        iff(
            o,
            &format!("v >= {}", ctx.plan.version),
            &format!("return {}", b.block_length),
        );
    }
    if ctx.plan.version == 0 {
        o.line(&format!("return {}", b.block_length));
    } else {
        o.line(&format!("return int({low}Required(v))"));
    }
    o.line("}");
    o.line("");
    // Section order, on the message encoder.
    if k > 0 {
        o.line(&format!(
            "func (r *{r}) {low}Sec(i int, path string) bool {{"
        ));
        o.line(&format!("s := &{st}"));
        iff(o, "s.b == nil || r.st.kind != 0", "return false");
        o.line("if i < s.next {");
        o.line("r.st.fail(ErrOutOfOrder, path)");
        o.line("return false");
        o.line("}");
        o.line(&format!("r.{low}Close()"));
        o.line(&format!("r.{low}Fill(i)"));
        o.line("s.next = i + 1");
        o.line("return true");
        o.line("}");
        o.line("");
        o.line(&format!("func (r *{r}) {low}Close() {{"));
        o.line(&format!("s := &{st}"));
        for (gi, cn) in n.children.iter().enumerate() {
            let ck = group_body(b, gi).map_or(0, |gb| gb.sections.len());
            o.line(&format!("if s.g{gi}.dim != nil {{"));
            if ck > 0 {
                o.line(&format!("if s.g{gi}.n > 0 {{"));
                o.line(&format!("r.{}Close()", cn.low));
                o.line(&format!("r.{}Fill({ck})", cn.low));
                o.line("}");
            }
            o.line(&format!("s.g{gi}.dim, s.g{gi}.b = nil, nil"));
            o.line("}");
        }
        if n.children.is_empty() {
            o.line("_ = s");
        }
        o.line("}");
        o.line("");
        o.line(&format!("func (r *{r}) {low}Fill(to int) {{"));
        o.line(&format!("s := &{st}"));
        o.line("for ; s.next < to; s.next++ {");
        o.line("switch s.next {");
        let mut gi = 0;
        for (i, s) in b.sections.iter().enumerate() {
            let since = s.since();
            let spath = go_str(&format!("{}.{}", n.path, s.name()));
            o.line(&format!("case {i}:"));
            match s {
                Section::Group {
                    dim_size,
                    block_len,
                    ..
                } => {
                    let cn = &n.children[gi];
                    gi += 1;
                    if since > 0 {
                        o.line(&format!("if r.st.ver >= {since} {{"));
                    }
                    match slot_store(
                        ctx,
                        block_len,
                        "d",
                        "0",
                        &format!("{}BlockLength(r.st.ver)", cn.low),
                    ) {
                        Some(x) => {
                            o.line(&format!(
                                "if d := r.st.take({dim_size}, {spath}); d != nil {{"
                            ));
                            o.line(&x);
                            o.line("}");
                        }
                        None => o.line(&format!("r.st.take({dim_size}, {spath})")),
                    }
                    if since > 0 {
                        o.line("}");
                    }
                }
                Section::Var { data_offset, .. } => {
                    if since > 0 {
                        iff(
                            o,
                            &format!("r.st.ver >= {since}"),
                            &format!("r.st.take({data_offset}, {spath})"),
                        );
                    } else {
                        o.line(&format!("r.st.take({data_offset}, {spath})"));
                    }
                }
            }
        }
        o.line("}");
        o.line("}");
        o.line("}");
        o.line("");
    }
    // The encoder type.
    let (recv, ret, this, blk, rr) = match msg {
        Some(_) => (
            format!("e *{e}"),
            format!("*{e}"),
            "e".to_string(),
            format!("e.{state}.b"),
            "e".to_string(),
        ),
        None => (
            format!("e {e}"),
            e.clone(),
            "e".to_string(),
            format!("e.r.{state}.b"),
            "e.r".to_string(),
        ),
    };
    match msg {
        Some(m) => {
            o.doc(&format!(
                "{e} writes a `{}` message (template id {}): Wrap it over a buffer, set fields, write groups and var data in schema order (skipped ones are written empty), then Finish. Errors (a buffer too small, sections out of order, values too long) are kept and reported by Finish.",
                b.name, m.id
            ));
            let rows: Vec<(String, String)> = vec![
                ("st".into(), "encState".into()),
                ("s".into(), format!("{low}State")),
            ];
            o.line(&format!("type {e} struct {{"));
            o.fields(&rows);
            o.line("}");
            o.line("");
            o.doc("Wrap starts a message at the start of buf: writes the header and reserves the block (zeroed). version is the acting version to write (SchemaVersion, or an older one whose block and sections are written).");
            o.line(&format!(
                "func (e *{e}) Wrap(buf []byte, version uint64) *{e} {{"
            ));
            o.line(&format!("*e = {e}{{}}"));
            o.line("e.st.buf, e.st.ver = buf, version");
            o.line(&format!("bl := {low}BlockLength(version)"));
            o.line(&format!("h := e.st.take(HeaderLength+bl, {path})"));
            iff(o, "h == nil", "return e");
            let hd = &ctx.plan.header;
            for (f, val) in [
                (&hd.block_length, "bl".to_string()),
                (&hd.template_id, m.id.to_string()),
                (&hd.schema_id, "SchemaID".to_string()),
                (&hd.version, "version".to_string()),
            ] {
                if let Kind::Prim(p) = &f.kind {
                    if !f.is_constant() {
                        o.line(&crate::prim::store(
                            ctx,
                            p.ty,
                            "h",
                            &f.offset.to_string(),
                            &format!("{}({val})", crate::prim::gty(p.ty)),
                        ));
                    }
                }
            }
            o.line("e.s.b = h[HeaderLength:]");
            o.line("return e");
            o.line("}");
            o.line("");
            o.doc(&format!(
                "New{e} starts a message at the schema's version at the start of buf (see Wrap)."
            ));
            o.line(&format!("func New{e}(buf []byte) {e} {{"));
            o.line(&format!("var e {e}"));
            o.line("e.Wrap(buf, SchemaVersion)");
            o.line("return e");
            o.line("}");
            o.line("");
            o.doc("Finish completes the message (skipped sections are written empty) and returns its length, header included, or the first error (an *EncodeError).");
            o.line(&format!("func (e *{e}) Finish() (int, error) {{"));
            if k > 0 {
                o.line("if e.s.b != nil && e.st.kind == 0 {");
                o.line(&format!("e.{low}Close()"));
                o.line(&format!("e.{low}Fill({k})"));
                o.line("}");
            }
            o.line("return e.st.finish()");
            o.line("}");
            o.line("");
        }
        None => {
            o.doc(&format!(
                "{e} writes one entry of the `{}` group (a handle: it writes the group's current entry).",
                n.path
            ));
            o.line(&format!("type {e} struct {{"));
            o.fields(&[("r".into(), format!("*{r}"))]);
            o.line("}");
            o.line("");
        }
    }
    let sink = Sink {
        recv: recv.clone(),
        ret: ret.clone(),
        this: this.clone(),
        blk: blk.clone(),
        ver: Some(format!("{rr}.st.ver")),
        st: format!("&{rr}.st"),
        st_call: format!("{rr}.st"),
        path: n.path.clone(),
    };
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        setter(o, ctx, f, fname, &sink);
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let since = s.since();
        let spath = go_str(&format!("{}.{}", n.path, s.name()));
        match s {
            Section::Group {
                name,
                dim_size,
                block_len,
                count,
                body: gb,
                ..
            } => {
                let cn = &n.children[gi];
                let gst = format!("{state}.g{gi}");
                gi += 1;
                o.doc(&format!(
                    "{} starts the `{name}` group; add entries with the writer's Next (the count is kept).",
                    sn.set
                ));
                o.line(&format!("func ({recv}) {}() {} {{", sn.set, cn.writer));
                o.line(&format!("r := {rr}"));
                o.line(&format!("w := {}{{r: r}}", cn.writer));
                let gate = if since > 0 {
                    format!(" || r.st.ver < {since}")
                } else {
                    String::new()
                };
                iff(o, &format!("!r.{low}Sec({i}, {spath}){gate}"), "return w");
                o.line(&format!("s := &r.{gst}"));
                o.line("s.b, s.n, s.next = nil, 0, 0");
                o.line(&format!("s.dim = r.st.take({dim_size}, {spath})"));
                if let Some(x) = slot_store(
                    ctx,
                    block_len,
                    "s.dim",
                    "0",
                    &format!("{}BlockLength(r.st.ver)", cn.low),
                ) {
                    o.line("if s.dim != nil {");
                    o.line(&x);
                    o.line("}");
                }
                o.line("return w");
                o.line("}");
                o.line("");
                writer(o, ctx, gb, cn, r, &gst, *count, &spath);
            }
            Section::Var {
                name,
                len,
                data_offset,
                text,
                ..
            } => {
                let gate = if since > 0 {
                    format!(" || r.st.ver < {since}")
                } else {
                    String::new()
                };
                // The setter for bytes and, for text, the one for a string: the same body.
                let mut forms = vec![(&sn.set, "[]byte", "")];
                if *text {
                    forms.push((&sn.set_string, "string", " from a string"));
                }
                for (setter, ty, from) in forms {
                    o.doc(&format!(
                        "{setter} writes the `{name}` var data{from} (in schema order)."
                    ));
                    o.line(&format!("func ({recv}) {setter}(v {ty}) {ret} {{"));
                    o.line(&format!("r := {rr}"));
                    iff(
                        o,
                        &format!("!r.{low}Sec({i}, {spath}){gate}"),
                        &format!("return {this}"),
                    );
                    if len.max != u64::MAX {
                        o.line(&format!("if uint64(len(v)) > {} {{", len.max));
                        o.line(&format!("r.st.fail(ErrValueTooLong, {spath})"));
                        o.line(&format!("return {this}"));
                        o.line("}");
                    }
                    var_write(o, ctx, len, *data_offset, &spath);
                    o.line(&format!("return {this}"));
                    o.line("}");
                    o.line("");
                }
            }
        }
    }
}

/// Reserves a var-data section for `v` and writes it: the bytes are reserved without zeroing, so
/// any head bytes the length does not cover are cleared first.
fn var_write(o: &mut Out, ctx: &Ctx, len: &sbekit_plan::Slot, data_offset: usize, spath: &str) {
    o.line(&format!(
        "if p := r.st.takeRaw({data_offset}+len(v), {spath}); p != nil {{"
    ));
    let covered = len.constant.is_none() && len.offset == 0 && len.width() == data_offset;
    if !covered && data_offset > 0 {
        o.line(&format!("clear(p[:{data_offset}])"));
    }
    if let Some(x) = slot_store(ctx, len, "p", "0", "len(v)") {
        o.line(&x);
    }
    o.line(&format!("copy(p[{data_offset}:], v)"));
    o.line("}");
}

fn group_body(b: &Body, gi: usize) -> Option<&Body> {
    b.sections
        .iter()
        .filter_map(|s| match s {
            Section::Group { body, .. } => Some(body.as_ref()),
            Section::Var { .. } => None,
        })
        .nth(gi)
}

/// A group's writer: `Next` completes the previous entry and starts the next.
#[allow(clippy::too_many_arguments)]
fn writer(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    r: &str,
    state: &str,
    count: sbekit_plan::Slot,
    spath: &str,
) {
    let (w, low) = (&n.writer, &n.low);
    let k = b.sections.len();
    o.doc(&format!(
        "{w} adds entries to the `{}` group; the count in its header follows.",
        n.path
    ));
    o.line(&format!("type {w} struct {{"));
    o.fields(&[("r".into(), format!("*{r}"))]);
    o.line("}");
    o.line("");
    o.doc("Count is the number of entries written so far.");
    o.line(&format!(
        "func (w {w}) Count() int {{ return w.r.{state}.n }}"
    ));
    o.line("");
    o.doc("Next starts the next entry (its block zeroed) and returns its encoder.");
    o.line(&format!("func (w {w}) Next() {} {{", n.enc));
    o.line("r := w.r");
    o.line(&format!("s := &r.{state}"));
    o.line(&format!("e := {}{{r: r}}", n.enc));
    o.line("if s.dim == nil || r.st.kind != 0 {");
    o.line("s.b = nil");
    o.line("return e");
    o.line("}");
    if k > 0 {
        o.line("if s.n > 0 {");
        o.line(&format!("r.{low}Close()"));
        o.line(&format!("r.{low}Fill({k})"));
        o.line("}");
    }
    if count.max != u64::MAX {
        o.line(&format!("if uint64(s.n) >= {} {{", count.max));
        o.line(&format!("r.st.fail(ErrCountTooLarge, {spath})"));
        o.line("s.b = nil");
        o.line("return e");
        o.line("}");
    }
    o.line(&format!(
        "s.b = r.st.take({low}BlockLength(r.st.ver), {spath})"
    ));
    iff(o, "s.b == nil", "return e");
    o.line("s.n++");
    o.line("s.next = 0");
    if let Some(x) = slot_store(ctx, &count, "s.dim", "0", "s.n") {
        o.line(&x);
    }
    for gi in 0..n.children.len() {
        o.line(&format!("s.g{gi}.dim, s.g{gi}.b = nil, nil"));
    }
    o.line("return e");
    o.line("}");
    o.line("");
}

/// `Message`, `AnyDecoder` and `TemplateIDOf`.
fn any(o: &mut Out, ctx: &Ctx) {
    let h = &ctx.plan.header;
    o.doc("Message is a decoded message of any type.");
    o.line("type Message interface {");
    o.doc("SbeTemplateID is the message's template id.");
    o.line("SbeTemplateID() uint64");
    o.doc("SbeActingVersion is the schema version the writer used.");
    o.line("SbeActingVersion() uint64");
    o.doc("SbeEncodedLength is the length of the message, header included.");
    o.line("SbeEncodedLength() int");
    o.doc("AppendJSON appends the message as `sbekit decode` prints it.");
    o.line("AppendJSON(dst []byte) []byte");
    o.line("}");
    o.line("");
    o.doc("TemplateIDOf reads the template id from the message header at the start of b.");
    o.line("func TemplateIDOf(b []byte) (uint64, error) {");
    iff(
        o,
        "len(b) < HeaderLength",
        "return 0, derr(ErrTruncated, 0, 0, \"\")",
    );
    o.line(&format!(
        "return {}, nil",
        slot_load(ctx, &h.slots.template_id, "b", "0")
    ));
    o.line("}");
    o.line("");
    o.doc("AnyDecoder decodes messages of every type of the schema, dispatching on the template id; it holds one decoder per type, so decoding allocates nothing.");
    o.line("type AnyDecoder struct {");
    let rows: Vec<(String, String)> = ctx
        .n
        .msgs
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("m{i}"), n.dec.clone()))
        .collect();
    o.fields(&rows);
    o.line("}");
    o.line("");
    o.doc("Decode checks the message at the start of b as its type's Wrap does and returns its decoder (valid until the next Decode of that type).");
    o.line("func (a *AnyDecoder) Decode(b []byte) (Message, error) {");
    o.line("t, err := TemplateIDOf(b)");
    iff(o, "err != nil", "return nil, err");
    o.line("switch t {");
    for (i, m) in ctx.plan.messages.iter().enumerate() {
        o.line(&format!("case {}:", m.id));
        iff(
            o,
            &format!("err := a.m{i}.Wrap(b); err != nil"),
            "return nil, err",
        );
        o.line(&format!("return &a.m{i}, nil"));
    }
    o.line("}");
    o.line(&format!(
        "return nil, derr(ErrWrongTemplateID, {}, 0, \"\")",
        h.slots.template_id.offset
    ));
    o.line("}");
    o.line("");
}
