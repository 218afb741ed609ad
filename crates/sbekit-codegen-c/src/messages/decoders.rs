//! The decoders of `messages.h`: per message and entry the decoder type, `decode` (the plan's checks, run once) and per group the iterator.

use super::*;

pub(super) fn decoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let k = b.sections.len();
    let d = &n.dec;
    let desc = b.description.clone().unwrap_or_else(|| match msg {
        Some(m) => format!("Reads a `{}` message (template id {}).", b.name, m.id),
        None => format!("One entry of the `{}` group.", n.path),
    });
    o.doc(&desc);
    if msg.is_some() {
        o.doc(&format!(
            "Filled by `{d}_decode`, which checks the whole message once; accessors then cannot fail."
        ));
    }
    o.line(&format!("typedef struct {d} {{"));
    o.doc("Internal: the buffer (the start of the message).");
    o.line("const uint8_t* b;");
    o.doc("Internal: where the block starts.");
    o.line("size_t p;");
    o.doc("Internal: the block length on the wire.");
    o.line("size_t bl;");
    o.doc("Internal: where the body ends (nested groups and var data included).");
    o.line("size_t end;");
    o.doc("Internal: the acting version.");
    o.line("uint64_t av;");
    o.doc("Internal: where each section starts, then the end.");
    o.line(&format!("size_t sec[{}];", k + 1));
    o.line(&format!("}} {d};"));
    o.line("");
    // Group iterators are declared before the entry decoders that use them (children first).
    o.doc("The schema version the writer used (from the message header).");
    o.line(&format!(
        "static inline uint64_t {d}_acting_version(const {d}* d) {{ return d->av; }}"
    ));
    o.doc("The block length on the wire.");
    o.line(&format!(
        "static inline size_t {d}_block_length(const {d}* d) {{ return d->bl; }}"
    ));
    if msg.is_some() {
        o.doc("Bytes from the start of the header to the end of the message.");
        o.line(&format!(
            "static inline size_t {d}_encoded_length(const {d}* d) {{ return d->end; }}"
        ));
    } else {
        o.doc("Bytes of this entry, nested groups and var data included.");
        o.line(&format!(
            "static inline size_t {d}_encoded_length(const {d}* d) {{ return d->end - d->p; }}"
        ));
    }
    o.doc("The buffer (the start of the message).");
    o.line(&format!(
        "static inline const uint8_t* {d}_buffer(const {d}* d) {{ return d->b; }}"
    ));
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        getter(o, ctx, f, fname, d, "d->b + d->p");
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let sname = &sn.name;
        match s {
            Section::Group {
                name,
                description,
                since,
                ..
            } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(description.as_deref().unwrap_or(&format!(
                    "The entries of the `{name}` group: `{} e; {} it = {sname}(d); while ({}_next(&it, &e)) ...`.",
                    cn.dec, cn.iter, cn.iter
                )));
                if *since > 0 {
                    o.doc(&format!(
                        "Since schema version {since}: no entries when the acting version is older."
                    ));
                }
                let present = since_cond(*since, "d->av").unwrap_or_else(|| "true".into());
                o.line(&format!(
                    "static inline {} {sname}(const {d}* d) {{ return {}_sbe_at(d->b, d->sec[{i}], d->av, {present}); }}",
                    cn.iter, cn.iter
                ));
            }
            Section::Var {
                name,
                description,
                since,
                text,
                ..
            } => {
                let l = s.data_offset();
                let (what, ret, cast) = if *text {
                    ("text (a view of the buffer)", "sbekit_str", "(const char*)")
                } else {
                    ("bytes (a view of the buffer)", "sbekit_bytes", "")
                };
                o.doc(
                    description
                        .as_deref()
                        .unwrap_or(&format!("The `{name}` variable-length {what}.")),
                );
                if *since > 0 {
                    o.doc(&format!(
                        "Since schema version {since}: empty when the acting version is older."
                    ));
                }
                o.line(&format!("static inline {ret} {sname}(const {d}* d) {{"));
                o.line(&format!("{ret} v;"));
                if *since > 0 {
                    o.line(&format!(
                        "if (d->av < {since}u) {{ v.data = NULL; v.len = 0; return v; }}"
                    ));
                }
                o.line(&format!("v.data = {cast}(d->b + d->sec[{i}] + {l});"));
                o.line(&format!("v.len = d->sec[{}] - d->sec[{i}] - {l};", i + 1));
                o.line("return v;");
                o.line("}");
            }
        }
    }
    // The trusted walk: the message was checked, so this only locates the sections.
    o.doc("Internal: a decoder of the checked body at `p` (block of `bl` bytes).");
    o.line(&format!(
        "static inline void {d}_sbe_at({d}* d, const uint8_t* b, size_t p, size_t bl, uint64_t av) {{"
    ));
    o.line("size_t q = p + bl;");
    o.line("d->b = b;");
    o.line("d->p = p;");
    o.line("d->bl = bl;");
    o.line("d->av = av;");
    for line in program::locate(b, n, &CLocate(ctx)) {
        o.line(&line);
    }
    o.line("d->end = q;");
    o.line("(void)av;");
    o.line("}");
    if let Some(m) = msg {
        decode_fn(o, ctx, m, n);
    }
    o.line("");
}

/// `decode`: the plan's checks, in wire order, then the decoder filled in.
pub(super) fn decode_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    o.doc("Checks the message at the start of `b` (`n` bytes, header included) once: header, block lengths, every group count and var-data length. Returns 0 and fills `d` on success (accessors then cannot fail); otherwise an `sbekit_kind`, with the kind, byte offset and element path in `err` (when not NULL).");
    o.line(&format!(
        "static inline int {d}_decode({d}* d, const uint8_t* b, size_t n, sbekit_error* err) {{"
    ));
    for l in program::lines(m, &CChecks { ctx }) {
        o.line(&l);
    }
    let (hdr, sec) = (ctx.plan.header.size, m.body.sections.len());
    o.line(&format!("d->sec[{sec}] = q;"));
    o.line("d->b = b;");
    o.line(&format!("d->p = {hdr};"));
    o.line("d->bl = bl;");
    o.line("d->av = av;");
    o.line("d->end = q;");
    o.line("(void)err;");
    o.line("return 0;");
    o.line("}");
}

/// C's syntax for the plan's check program (`sbekit_plan::program`): `size_t` locals, the
/// message at `b`, `n` bytes, the cursor `q`; a failure returns `sbekit_fail`'s kind. It merges
/// each section's head into the test before it.
struct CChecks<'a> {
    ctx: &'a Ctx<'a>,
}

impl CheckSyntax for CChecks<'_> {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        err(f.error.screaming(), at, &f.path)
    }
    fn literal(&self, v: u64) -> String {
        ulit(v)
    }
    // A section's head is checked with the test before it: one test on the way that succeeds.
    fn merges(&self) -> bool {
        true
    }
    // A charge that can only be of 0 entries is left out (gcc does not see that it is).
    fn drops_covered_charges(&self) -> bool {
        true
    }
    fn widen(&self, expr: &str) -> String {
        format!("(uint64_t)({expr})")
    }
    fn product(&self, block: &str, count: &str) -> String {
        format!("(uint64_t){block} * {count}")
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(self.ctx, slot, pos)
    }
    fn budget_max(&self) -> String {
        "SBEKIT_MAX_EMPTY_ENTRIES".into()
    }
    fn prefix(&self) -> &'static str {
        ""
    }
    fn message_start(&self) -> String {
        "b".into()
    }
    fn header_value(&self, v: &HeaderValue) -> String {
        match v {
            HeaderValue::Constant(c) => format!("(size_t){c}u"),
            HeaderValue::Slot(s) => self.load_at(s, "b"),
        }
    }
    fn declare(&self, local: Local, value: &str) -> String {
        match local {
            Local::RootBlock => format!("const size_t bl = {value};"),
            Local::Version => format!("const uint64_t av = (uint64_t)({value});"),
            l => format!("size_t {} = {value};", self.local(l)),
        }
    }
    fn mark_section(&self, index: usize) -> String {
        format!("d->sec[{index}] = q;")
    }
    fn start_budget(&self) -> String {
        "// Entries of empty-block groups cost work but no bytes: bounded as `sbekit decode` bounds them.\nsize_t budget = SBEKIT_MAX_EMPTY_ENTRIES;\n(void)budget;".into()
    }
    fn declare_cursor(&self, value: &str) -> String {
        format!("size_t q = {value};")
    }
    fn product_exceeds(&self, block: &str, count: &str, room: &str) -> String {
        format!("(uint64_t){block} * {count} > (uint64_t)({room})")
    }
    fn bytes(&self, n: usize) -> String {
        format!("(size_t){n}")
    }
    fn version_literal(&self, version: u32) -> String {
        format!("{version}u")
    }
    fn index_type(&self) -> &'static str {
        "size_t"
    }
}

pub(super) fn iter(o: &mut Out, ctx: &Ctx, g: &Group, n: &BodyNames) {
    let (dim_size, block_len, count, b) = (&g.dim_size, g.block_len, g.count, g.body);
    let (it, d) = (&n.iter, &n.dec);
    o.doc(&format!(
        "The entries of the `{}` group: `{it}_next` fills a `{d}` per entry.",
        n.path
    ));
    o.line(&format!("typedef struct {it} {{"));
    o.doc("Internal: the buffer.");
    o.line("const uint8_t* b;");
    o.doc("Internal: where the next entry starts.");
    o.line("size_t p;");
    o.doc("Internal: the entries' block length.");
    o.line("size_t bl;");
    o.doc("Internal: the number of entries.");
    o.line("size_t n;");
    o.doc("Internal: entries read so far.");
    o.line("size_t i;");
    o.doc("Internal: the acting version.");
    o.line("uint64_t av;");
    o.line(&format!("}} {it};"));
    o.doc("The number of entries.");
    o.line(&format!(
        "static inline size_t {it}_count(const {it}* it) {{ return it->n; }}"
    ));
    o.doc("Fills `e` with the next entry and returns true, or returns false after the last.");
    o.line(&format!(
        "static inline bool {it}_next({it}* it, {d}* e) {{"
    ));
    o.line("if (it->i >= it->n) return false;");
    o.line(&format!("{d}_sbe_at(e, it->b, it->p, it->bl, it->av);"));
    o.line("it->p = e->end;");
    o.line("++it->i;");
    o.line("return true;");
    o.line("}");
    o.doc("Internal: the checked group at `p`, or no entries when it is absent.");
    o.line(&format!(
        "static inline {it} {it}_sbe_at(const uint8_t* b, size_t p, uint64_t av, bool present) {{"
    ));
    o.line(&format!("{it} g;"));
    o.line("g.b = b;");
    o.line("g.av = av;");
    o.line("g.p = p;");
    o.line("g.bl = 0;");
    o.line("g.n = 0;");
    o.line("g.i = 0;");
    o.line("if (present) {");
    o.line(&format!("g.bl = {};", slot_load(ctx, block_len, "b + p")));
    o.line(&format!("g.n = {};", slot_load(ctx, count, "b + p")));
    o.line(&format!("g.p = p + {dim_size};"));
    o.line("}");
    o.line("return g;");
    o.line("}");
    o.doc("Internal: where the checked group at `p` ends.");
    o.line(&format!(
        "static inline size_t {it}_sbe_end(const uint8_t* b, size_t p, uint64_t av) {{"
    ));
    o.line(&format!(
        "const size_t bl = {};",
        slot_load(ctx, block_len, "b + p")
    ));
    o.line(&format!(
        "const size_t n = {};",
        slot_load(ctx, count, "b + p")
    ));
    o.line(&format!("size_t q = p + {dim_size};"));
    if b.is_fixed() {
        o.line("(void)av;");
        o.line("return q + bl * n;");
    } else {
        o.line("size_t i;");
        o.line(&format!("{d} e;"));
        o.line("for (i = 0; i < n; ++i) {");
        o.line(&format!("{d}_sbe_at(&e, b, q, bl, av);"));
        o.line("q = e.end;");
        o.line("}");
        o.line("return q;");
    }
    o.line("}");
    o.line("");
}

/// C's spelling of the walk that locates a checked body's sections (`d`, `b`, `q`, `av`).
struct CLocate<'a>(&'a Ctx<'a>);

impl LocateSyntax for CLocate<'_> {
    fn mark(&self, index: usize) -> String {
        format!("d->sec[{index}] = q;")
    }
    fn skip_group(&self, iter: &str) -> String {
        format!("q = {iter}_sbe_end(b, q, av);")
    }
    fn skip_var(&self, prefix: usize, len: &Slot) -> String {
        format!("q += {prefix} + {};", slot_load(self.0, len, "b + q"))
    }
    fn gated(&self, since: u32, stmt: &str) -> String {
        format!("if (av >= {since}u) {stmt}")
    }
}
