//! The encoders of `messages.go`: per message and group entry the fluent encoder, and per
//! group the writer that keeps its count.

use super::*;

/// The state struct of a body's encoder (kept in the message encoder) and the encoder.
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
pub(super) fn encoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    root: &BodyNames,
    state: &str,
    dim_size: Option<usize>,
) {
    let (e, low, r) = (&n.enc, &n.private, &root.enc);
    let k = b.sections.len();
    let path = go_str(&n.path);
    let st = format!("r.{state}");
    // The state: block, next section, and for a group its dimension and count.
    let mut rows: Vec<(String, String)> =
        vec![("b".into(), "[]byte".into()), ("next".into(), "int".into())];
    if let Some(dim_size) = dim_size {
        // The group's dimension as an array pointer: its stores need no bounds test.
        rows.extend([
            ("dim".into(), format!("*[{dim_size}]byte")),
            ("n".into(), "int".into()),
            ("lim".into(), "int".into()),
            ("end".into(), "int".into()),
        ]);
    }
    for (gi, cn) in n.children.iter().enumerate() {
        rows.push((format!("g{gi}"), format!("{}State", cn.private)));
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
    // Section order, on the message encoder. The common case (the next section in order, no
    // nested group left open) is small enough for Go to inline; the rest is out of line.
    // `next` is the next section while the body has a block and no nested group with sections
    // of its own is open (it is then `secOpen` more); without a block it is never a section's
    // index. A group whose entries have no sections (a leaf) writes its count at each entry and
    // is open while nothing else was written after it (`end`), so it never sets `secOpen`.
    let flagged = opens(b);
    if k > 0 {
        o.line(&format!(
            "func (r *{r}) {low}Sec(i int, path string) bool {{"
        ));
        o.line(&format!("if {st}.next == i {{"));
        o.line(&format!("{st}.next = i + 1"));
        o.line("return true");
        o.line("}");
        o.line(&format!("return r.{low}SecSlow(i, path)"));
        o.line("}");
        o.line("");
        o.line(&format!(
            "func (r *{r}) {low}SecSlow(i int, path string) bool {{"
        ));
        o.line(&format!("s := &{st}"));
        iff(o, "s.b == nil || r.st.kind != 0", "return false");
        if flagged {
            o.line("if s.next >= secOpen {");
            o.line("s.next -= secOpen");
            o.line(&format!("r.{low}Close()"));
            o.line("}");
        }
        o.line("if i < s.next {");
        o.line("r.st.fail(ErrOutOfOrder, path)");
        o.line("return false");
        o.line("}");
        iff(o, "s.next < i", &format!("r.{low}Fill(i)"));
        o.line("s.next = i + 1");
        o.line("return true");
        o.line("}");
        o.line("");
    }
    if flagged {
        o.line(&format!("func (r *{r}) {low}Close() {{"));
        o.line(&format!("s := &{st}"));
        let mut counts = b.sections.iter().filter_map(|s| match s {
            Section::Group { count, .. } => Some(count),
            Section::Var { .. } => None,
        });
        for (gi, cn) in n.children.iter().enumerate() {
            let gb = group_body(b, gi).expect("a body per nested group");
            let ck = gb.sections.len();
            let count = counts.next().expect("a count per nested group");
            o.line(&format!("if g := &s.g{gi}; g.dim != nil {{"));
            if ck > 0 {
                o.line(&format!("if g.n > 0 && g.next != {ck} {{"));
                if opens(gb) {
                    o.line("if g.next >= secOpen {");
                    o.line("g.next -= secOpen");
                    o.line(&format!("r.{}Close()", cn.private));
                    o.line("}");
                }
                o.line(&format!("r.{}Fill({ck})", cn.private));
                o.line("}");
            }
            if ck > 0 {
                if let Some(x) = slot_store(ctx, count, "g.dim", "0", "g.n") {
                    o.line(&x);
                }
            }
            o.line(&format!("g.dim, g.b, g.lim, g.next = nil, nil, 0, {ck}"));
            o.line("}");
        }
        o.line("}");
        o.line("");
    }
    if k > 0 {
        o.line(&format!("func (r *{r}) {low}Fill(to int) {{"));
        o.line(&format!("s := &{st}"));
        o.line("for ; s.next < to; s.next++ {");
        o.line("switch s.next {");
        for step in b.encode_order() {
            let (i, s) = (step.index, step.section);
            let since = s.since();
            let spath = go_str(&format!("{}.{}", n.path, s.name()));
            o.line(&format!("case {i}:"));
            match step.empty {
                Empty::Group { child, group } => {
                    let (cn, dim_size, block_len) =
                        (&n.children[child], group.dim_size, group.block_len);
                    if since > 0 {
                        o.line(&format!("if r.st.ver >= {since} {{"));
                    }
                    match slot_store(
                        ctx,
                        block_len,
                        "d",
                        "0",
                        &format!("{}BlockLength(r.st.ver)", cn.private),
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
                Empty::Var { prefix, .. } => {
                    if since > 0 {
                        iff(
                            o,
                            &format!("r.st.ver >= {since}"),
                            &format!("r.st.take({prefix}, {spath})"),
                        );
                    } else {
                        o.line(&format!("r.st.take({prefix}, {spath})"));
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
            // Inlinable, so that the caller's zeroing of a new encoder and this one merge.
            o.line(&format!("*e = {e}{{}}"));
            o.line("return e.wrap(buf, version)");
            o.line("}");
            o.line("");
            o.line(&format!(
                "func (e *{e}) wrap(buf []byte, version uint64) *{e} {{"
            ));
            o.line("e.st.buf, e.st.ver = buf, version");
            o.line(&format!("bl := {low}BlockLength(version)"));
            o.line(&format!("h := e.st.take(HeaderLength+bl, {path})"));
            o.line("if h == nil {");
            if k > 0 {
                o.line("e.s.next = -1");
            }
            o.line("return e");
            o.line("}");
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
                if flagged {
                    o.line("if e.s.next >= secOpen {");
                    o.line("e.s.next -= secOpen");
                    o.line(&format!("e.{low}Close()"));
                    o.line("}");
                }
                iff(o, &format!("e.s.next < {k}"), &format!("e.{low}Fill({k})"));
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
                    sn.setter()
                ));
                o.line(&format!("func ({recv}) {}() {} {{", sn.setter(), cn.writer));
                o.line(&format!("r := {rr}"));
                o.line(&format!("w := {}{{r: r}}", cn.writer));
                let gate = if since > 0 {
                    format!(" || r.st.ver < {since}")
                } else {
                    String::new()
                };
                iff(o, &format!("!r.{low}Sec({i}, {spath}){gate}"), "return w");
                o.line(&format!("s := &r.{gst}"));
                o.line(&format!("d := r.st.take({dim_size}, {spath})"));
                iff(o, "d == nil", "return w");
                o.line(&format!("s.dim = (*[{dim_size}]byte)(d)"));
                if let Some(x) = slot_store(
                    ctx,
                    block_len,
                    "s.dim",
                    "0",
                    &format!("{}BlockLength(r.st.ver)", cn.private),
                ) {
                    o.line(&x);
                }
                let lim = if count.max == u64::MAX || count.max > 1 << 62 {
                    1u64 << 62
                } else {
                    count.max
                };
                let gk = gb.sections.len();
                o.line(&format!("s.b, s.n, s.next, s.lim = nil, 0, {gk}, {lim}"));
                if gk == 0 {
                    o.line("s.end = r.st.pos");
                } else {
                    o.line(&format!("r.{state}.next += secOpen"));
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
                ..
            } => {
                let gate = if since > 0 {
                    format!(" || r.st.ver < {since}")
                } else {
                    String::new()
                };
                // The whole write, for bytes and strings, out of line: every case the inlined
                // setters below leave to it (out of order, too long, too big, an older version).
                let slow = format!("{low}Set{}", sn.setter().trim_start_matches("Set"));
                o.line(&format!("func {slow}[T []byte | string](r *{r}, v T) {{"));
                iff(o, &format!("!r.{low}Sec({i}, {spath}){gate}"), "return");
                if len.max != u64::MAX {
                    o.line(&format!("if uint64(len(v)) > {} {{", len.max));
                    o.line(&format!("r.st.fail(ErrValueTooLong, {spath})"));
                    o.line("return");
                    o.line("}");
                }
                var_write(o, ctx, len, *data_offset, &spath);
                o.line("}");
                o.line("");
                // The in-order case, when the prefix is just the length, inline: one capacity
                // test, the prefix and the bytes.
                let fast = len.constant.is_none()
                    && len.offset == 0
                    && len.width() == *data_offset
                    && since == 0;
                // The setter for bytes and, for text, the one for a string: the same body.
                let mut forms = vec![(sn.setter(), "[]byte", "")];
                if let Some(set_string) = &sn.set_string {
                    forms.push((set_string, "string", " from a string"));
                }
                for (setter, ty, from) in forms {
                    o.doc(&format!(
                        "{setter} writes the `{name}` var data{from} (in schema order)."
                    ));
                    o.line(&format!("func ({recv}) {setter}(v {ty}) {ret} {{"));
                    o.line(&format!("r := {rr}"));
                    if fast {
                        let too_long = if len.max == u64::MAX {
                            String::new()
                        } else {
                            format!("uint64(len(v)) > {} || ", len.max)
                        };
                        o.line("p := r.st.pos");
                        o.line(&format!("q := p + {data_offset} + len(v)"));
                        o.line(&format!(
                            "if {too_long}r.{state}.next != {i} || q > len(r.st.buf) {{"
                        ));
                        o.line(&format!("{slow}(r, v)"));
                        o.line(&format!("return {this}"));
                        o.line("}");
                        o.line("b := r.st.buf[p:q:q]");
                        if let Some(x) = slot_store(ctx, len, "b", "0", "len(v)") {
                            o.line(&x);
                        }
                        o.line(&format!("copy(b[{data_offset}:], v)"));
                        o.line("r.st.pos = q");
                        o.line(&format!("r.{state}.next = {}", i + 1));
                    } else {
                        o.line(&format!("{slow}(r, v)"));
                    }
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
pub(super) fn var_write(
    o: &mut Out,
    ctx: &Ctx,
    len: &sbekit_plan::Slot,
    data_offset: usize,
    spath: &str,
) {
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

/// Whether a body has a nested group whose entries have sections (one that sets `secOpen`).
fn opens(b: &Body) -> bool {
    b.sections.iter().any(|s| match s {
        Section::Group { body, .. } => !body.sections.is_empty(),
        Section::Var { .. } => false,
    })
}

pub(super) fn group_body(b: &Body, gi: usize) -> Option<&Body> {
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
pub(super) fn writer(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    r: &str,
    state: &str,
    count: sbekit_plan::Slot,
    spath: &str,
) {
    let (w, low) = (&n.writer, &n.private);
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
    // The common case inline: the group open and below its largest count, the previous entry
    // complete (its `next` is the body's section count: no section skipped, no nested group
    // open), the block fits. Its count is written when the group closes.
    o.doc("Next starts the next entry (its block zeroed) and returns its encoder.");
    // An entry is counted: its sections start over, or a leaf group's count is written.
    let counted = |o: &mut Out, end: &str| {
        o.line("s.n++");
        if k > 0 {
            o.line("s.next = 0");
        } else {
            o.line(&format!("s.end = {end}"));
            if let Some(x) = slot_store(ctx, &count, "s.dim", "0", "s.n") {
                o.line(&x);
            }
        }
    };
    o.line(&format!("func (w {w}) Next() {} {{", n.enc));
    o.line("r := w.r");
    o.line(&format!("s := &r.{state}"));
    o.line("p := r.st.pos");
    o.line(&format!("q := p + {low}BlockLength(r.st.ver)"));
    let in_order = if k > 0 {
        format!(" || s.next != {k}")
    } else {
        " || p != s.end".to_string()
    };
    o.line(&format!(
        "if s.n >= s.lim{in_order} || q > len(r.st.buf) {{"
    ));
    o.line("return w.nextSlow()");
    o.line("}");
    o.line("b := r.st.buf[p:q:q]");
    o.line("clear(b)");
    o.line("s.b = b");
    o.line("r.st.pos = q");
    counted(o, "q");
    o.line(&format!("return {}{{r: r}}", n.enc));
    o.line("}");
    o.line("");
    o.line(&format!("func (w {w}) nextSlow() {} {{", n.enc));
    o.line("r := w.r");
    o.line(&format!("s := &r.{state}"));
    o.line(&format!("e := {}{{r: r}}", n.enc));
    let moved = if k == 0 { " || r.st.pos != s.end" } else { "" };
    o.line(&format!("if s.dim == nil || r.st.kind != 0{moved} {{"));
    o.line(&format!("s.b, s.next, s.lim = nil, {k}, 0"));
    o.line("return e");
    o.line("}");
    if k > 0 {
        if opens(b) {
            o.line("if s.next >= secOpen {");
            o.line("s.next -= secOpen");
            o.line(&format!("r.{low}Close()"));
            o.line("}");
        }
        // The previous entry's skipped sections are written empty.
        iff(
            o,
            &format!("s.n > 0 && s.next < {k}"),
            &format!("r.{low}Fill({k})"),
        );
    }
    if count.max != u64::MAX {
        o.line(&format!("if uint64(s.n) >= {} {{", count.max));
        o.line(&format!("r.st.fail(ErrCountTooLarge, {spath})"));
        o.line(&format!("s.b, s.next, s.lim = nil, {k}, 0"));
        o.line("return e");
        o.line("}");
    }
    o.line(&format!(
        "s.b = r.st.take({low}BlockLength(r.st.ver), {spath})"
    ));
    o.line("if s.b == nil {");
    o.line(&format!("s.next, s.lim = {k}, 0"));
    o.line("return e");
    o.line("}");
    counted(o, "r.st.pos");
    o.line("return e");
    o.line("}");
    o.line("");
}
