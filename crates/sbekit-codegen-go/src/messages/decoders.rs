//! The decoders of `messages.go`: per message and group entry the flyweight type, its
//! accessors and `Wrap` (the plan's checks run once), and per group the iterator.

use super::*;

/// The decoder type, its accessors and (for a message) `Wrap`.
pub(super) fn decoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let k = b.sections.len();
    let d = &n.dec;
    let low = &n.private;
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
    let mut fields = vec![
        ("buf".into(), "[]byte".into()),
        ("blk".into(), "[]byte".into()),
        ("p".into(), "int".into()),
        ("av".into(), "uint64".into()),
        ("sec".into(), format!("[{}]int", k + 1)),
    ];
    // Each group's iterator lives in the decoder, as the reference's flyweights keep theirs:
    // returning a struct of slices by value costs Go a copy through memory per group.
    fields.extend(
        n.children
            .iter()
            .enumerate()
            .map(|(j, c)| (format!("g{j}"), c.iter.clone())),
    );
    o.fields(&fields);
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
                    "{} iterates over the entries of the `{name}` group: for it := d.{}(); it.Next(); {{ e := it.Entry() }}. The iterator lives in the decoder: calling {}() again starts it over.{}",
                    sn.name,
                    sn.name,
                    sn.name,
                    if since > 0 {
                        format!(" No entries when the acting version is older than {since}.")
                    } else {
                        String::new()
                    }
                ));
                o.line(&format!("func (d *{d}) {}() *{} {{", sn.name, cn.iter));
                o.line(&format!("it := &d.g{}", gi - 1));
                o.line("it.i, it.n = 0, 0");
                o.line(&format!("p := d.sec[{i}]"));
                iff(o, &format!("{gate}p+{dim_size} > len(d.buf)"), "return it");
                o.line("it.cur.buf, it.cur.av = d.buf, d.av");
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
                name, data_offset, ..
            } => {
                o.doc(&format!(
                    "{} is the `{name}` var data: a view of the buffer (nil when absent).",
                    sn.name
                ));
                o.line(&format!("func (d *{d}) {}() []byte {{", sn.name));
                o.line(&format!(
                    "s, t := d.sec[{i}]+{data_offset}, d.sec[{}]",
                    i + 1
                ));
                iff(o, &format!("{gate}s > t || t > len(d.buf)"), "return nil");
                o.line("return d.buf[s:t:t]");
                o.line("}");
                o.line("");
                if let Some(string) = &sn.string {
                    o.doc(&format!(
                        "{string} is the `{name}` var data as a string (a copy)."
                    ));
                    o.line(&format!(
                        "func (d *{d}) {string}() string {{ return string(d.{}()) }}",
                        sn.name
                    ));
                    o.line("");
                }
            }
        }
    }
    if msg.is_none() {
        // The trusted walk: the message was checked, so this only locates the sections. The
        // buffer and acting version are the group's, set once by its iterator.
        o.line(&format!("func (d *{d}) at(p, bl int) {{"));
        o.line("b := d.buf");
        o.line("d.p = p");
        o.line("d.blk = b[p : p+bl]");
        o.line("q := p + bl");
        let mut gi = 0;
        for (i, s) in b.sections.iter().enumerate() {
            o.line(&format!("d.sec[{i}] = q"));
            let step = match s {
                Section::Group { .. } => {
                    let cn = &n.children[gi];
                    gi += 1;
                    format!("q = {}End(b, q, d.av)", cn.private)
                }
                Section::Var {
                    len, data_offset, ..
                } => format!(
                    "q += {data_offset} + int({})",
                    slot_load(ctx, len, "b", "q")
                ),
            };
            if s.since() > 0 {
                iff(o, &format!("d.av >= {}", s.since()), &step);
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
            n.private
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
            o.line(&format!("e := {d}{{buf: b, av: av}}"));
            o.line("for i := 0; i < n; i++ {");
            o.line("e.at(q, bl)");
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
        ("cur".into(), d.clone()),
        ("p".into(), "int".into()),
        ("bl".into(), "int".into()),
        ("n".into(), "int".into()),
        ("i".into(), "int".into()),
    ]);
    o.line("}");
    o.line("");
    o.doc("Count is the number of entries.");
    o.line(&format!("func (it *{it}) Count() int {{ return it.n }}"));
    o.line("");
    o.doc("Next moves to the next entry; false after the last.");
    o.line(&format!("func (it *{it}) Next() bool {{"));
    iff(o, "it.i >= it.n", "return false");
    o.line("it.cur.at(it.p, it.bl)");
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
    o.doc("Wrap checks the message at the start of b (header, block lengths, every group count and var-data length) and points the decoder at it. On failure the error is a *DecodeError with the kind, byte offset and element path, and the decoder is left as it was.");
    o.line(&format!("func (d *{d}) Wrap(b []byte) error {{"));
    o.line("n := uint64(len(b))");
    let (full, usual) = (
        GoChecks {
            ctx,
            low: &n.private,
            usual: false,
        },
        GoChecks {
            ctx,
            low: &n.private,
            usual: true,
        },
    );
    if let Some(lines) = program::usual_lines(m, ctx.plan.version, &usual) {
        // The usual message first, with fewer tests; anything else (or anything wrong) goes
        // on to the full checks, which name the error.
        o.line("{");
        for l in lines {
            o.line(&l);
        }
        commit(o, ctx, m);
        o.line("}");
        o.line("full:");
    }
    for l in program::lines(m, &full) {
        o.line(&l);
    }
    commit(o, ctx, m);
    o.line("}");
    o.line("");
}

/// The end of a check program that passed: the decoder takes the message, and `Wrap` returns.
fn commit(o: &mut Out, ctx: &Ctx, m: &Message) {
    let (hdr, sec) = (ctx.plan.header.size, m.body.sections.len());
    o.line(&format!("sec{sec} := int(q)"));
    o.line("d.buf, d.p, d.av = b, 0, av");
    // Element by element: an array assembled on the stack and copied whole is read back
    // with wide loads that stall on the narrow stores just made.
    let idx: Vec<usize> = (0..=sec).collect();
    o.line(&format!(
        "{} = {}",
        idx.iter()
            .map(|i| format!("d.sec[{i}]"))
            .collect::<Vec<_>>()
            .join(", "),
        idx.iter()
            .map(|i| format!("sec{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    o.line(&format!("d.blk = b[{hdr} : {hdr}+bl]"));
    o.line("return nil");
}

/// Go's syntax for the plan's check program (`sbekit_plan::program`): `uint64` locals
/// declared with `:=`, the message at the start of `b`, `n` bytes, the cursor `q`; a failure
/// returns a `*DecodeError`.
struct GoChecks<'a> {
    ctx: &'a Ctx<'a>,
    /// The message's lower-camel name: its decoder declares `<low>Required(v)`.
    low: &'a str,
    /// The usual message's program (`program::usual_of_message`): a failure goes on to the
    /// label `full` (the full checks), and heads are merged into the test before them.
    usual: bool,
}

impl CheckSyntax for GoChecks<'_> {
    fn merges(&self) -> bool {
        self.usual
    }
    fn fails_alike(&self) -> bool {
        self.usual
    }
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        if self.usual {
            return "goto full".into();
        }
        let kind = match f.error {
            CheckError::Truncated => "ErrTruncated",
            CheckError::WrongSchemaId => "ErrWrongSchemaID",
            CheckError::WrongTemplateId => "ErrWrongTemplateID",
            CheckError::BlockLengthTooShort => "ErrBlockLengthTooShort",
            CheckError::InvalidDimension => "ErrInvalidDimension",
            CheckError::EmptyEntryBudget => "ErrEmptyEntryBudget",
        };
        format!("return derr({kind}, {at}, {})", go_str(&f.path))
    }
    fn at(&self, a: At) -> String {
        // derr(kind, base, offset inside the structure, path).
        match a {
            At::Offset(k) => format!("{k}, 0"),
            At::Cursor => "q, 0".into(),
            At::CursorPlus(k) => format!("q, {k}"),
        }
    }
    fn at_expr(&self, expr: &str) -> String {
        format!("{expr}, 0")
    }
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("({a})/{b}")
    }
    fn literal(&self, v: u64) -> String {
        v.to_string()
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(self.ctx, slot, "b", pos)
    }
    fn budget_max(&self) -> String {
        "uint64(MaxEmptyEntries)".into()
    }
    fn prefix(&self) -> &'static str {
        ""
    }
    fn message_start(&self) -> String {
        "0".into()
    }
    fn header_value(&self, v: &HeaderValue) -> String {
        match v {
            HeaderValue::Constant(c) => format!("uint64({c})"),
            HeaderValue::Slot(s) => self.load_at(s, "0"),
        }
    }
    fn load(&self, slot: &Slot) -> String {
        self.load_at(slot, "q")
    }
    fn declare(&self, local: Local, value: &str) -> String {
        format!("{} := {value}", self.local(local))
    }
    fn mark_section(&self, index: usize) -> String {
        format!("sec{index} := int(q)")
    }
    fn start_budget(&self) -> String {
        format!("budget := {}", self.budget_max())
    }
    fn declare_cursor(&self, value: &str) -> String {
        format!("q := {value}")
    }
    fn end(&self) -> &'static str {
        ""
    }
    fn required(&self, block: Local, required: &[(u32, usize)]) -> Option<String> {
        match block {
            // The root's is a function of the decoder's (its accessors use it too).
            Local::RootBlock => Some(format!("{}Required(av)", self.low)),
            _ => program::required_expr(required, |n| n.to_string(), |v, b, e| self.pick(v, b, e)),
        }
    }
    fn pick(&self, version: u32, bytes: &str, otherwise: &str) -> String {
        format!("pick({}, {bytes}, {otherwise})", self.since(version))
    }
    fn when(&self, cond: &str, stmt: &str) -> String {
        // As gofmt writes it.
        format!("if {cond} {{\n{stmt}\n}}")
    }
    fn open(&self, cond: Option<&str>) -> String {
        match cond {
            Some(c) => format!("if {c} {{"),
            None => "{".to_string(),
        }
    }
    fn open_loop(&self, index: Local, count: Local) -> String {
        let i = self.local(index);
        format!(
            "for {i} := uint64(0); {i} < {}; {i}++ {{",
            self.local(count)
        )
    }
    fn minus(&self, a: &str, b: &str) -> String {
        format!("{a}-{b}")
    }
    fn plus(&self, a: &str, b: &str) -> String {
        format!("{a}+{b}")
    }
    fn times(&self, a: &str, b: &str) -> String {
        format!("{a}*{b}")
    }
    fn product(&self, block: &str, count: &str) -> String {
        self.times(block, count)
    }
}
