//! The encoders of `messages.h`: per message and entry the encoder with ordered sections, and per group the writer that keeps its count.

use super::*;

pub(super) fn encoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let e = &n.enc;
    let k = b.sections.len();
    let path = &n.path;
    let up = &ctx.up;
    match msg {
        Some(m) => o.doc(&format!(
            "Writes a `{}` message (template id {}): `{e}_init` over a buffer, set fields, write groups and var data in schema order, then `{e}_finish`. Errors (a buffer too small, sections out of order, values too long) are kept and reported by `{e}_finish`.",
            b.name, m.id
        )),
        None => o.doc(&format!(
            "Writes one entry of the `{path}` group (from `{}_next`).",
            n.writer
        )),
    }
    o.line(&format!("typedef struct {e} {{"));
    if msg.is_some() {
        o.doc("Internal: the cursor (the message encoder owns it; entries point at it).");
        o.line("sbekit_cursor cur;");
    } else {
        o.doc("Internal: the cursor.");
        o.line("sbekit_cursor* c;");
    }
    o.doc("Internal: the block (NULL when it could not be reserved).");
    o.line("uint8_t* blk;");
    o.doc("Internal: the next section that may be written.");
    o.line("unsigned next;");
    o.line(&format!("}} {e};"));
    o.line("");
    let cur = if msg.is_some() { "(&e->cur)" } else { "e->c" };
    o.doc("The block length written at version `v` (older versions write the fields they have).");
    let req = required_expr(&b.required, "v").unwrap_or_else(|| "(size_t)0".into());
    if ctx.plan.version == 0 {
        o.line(&format!(
            "static inline size_t {e}_block_length_at(uint64_t v) {{ (void)v; return {}; }}",
            b.block_length
        ));
    } else {
        o.line(&format!(
            "static inline size_t {e}_block_length_at(uint64_t v) {{ return v >= {}u ? (size_t){} : {req}; }}",
            ctx.plan.version, b.block_length
        ));
    }
    // Section order: section `i` may be written when no later one was; the ones before it that
    // were skipped are written empty first.
    o.line(&format!(
        "static inline void {e}_sbe_fill({e}* e, unsigned to);"
    ));
    o.doc("Internal: may section `i` be written now?");
    o.line(&format!(
        "static inline bool {e}_sbe_section({e}* e, unsigned i) {{"
    ));
    o.line("if (e->next > i) {");
    o.line(&format!(
        "sbekit_cursor_fail({cur}, SBEKIT_OUT_OF_ORDER, {});",
        c_str(path)
    ));
    o.line("return false;");
    o.line("}");
    o.line(&format!("if (e->next < i) {e}_sbe_fill(e, i);"));
    o.line("e->next = i + 1;");
    o.line("return true;");
    o.line("}");
    if let Some(m) = msg {
        o.doc(&format!(
            "Starts a message at `buf` (`cap` bytes; `buf` may be NULL only when `cap` is 0): writes the header and reserves the block (zeroed). `version` is the acting version to write ({up}_SCHEMA_VERSION unless writing for older readers)."
        ));
        o.line(&format!(
            "static inline void {e}_init({e}* e, uint8_t* buf, size_t cap, uint64_t version) {{"
        ));
        o.line("uint8_t* h;");
        o.line("e->next = 0;");
        o.line("e->blk = NULL;");
        o.line(&format!(
            "h = sbekit_cursor_start(&e->cur, buf, cap, version, {up}_HEADER_LENGTH + {e}_block_length_at(version), {});",
            c_str(path)
        ));
        o.line("if (h == NULL) return;");
        o.line(&format!("e->blk = h + {up}_HEADER_LENGTH;"));
        let hd = &ctx.plan.header;
        for (f, val) in [
            (&hd.block_length, format!("{e}_block_length_at(version)")),
            (&hd.template_id, m.id.to_string()),
            (&hd.schema_id, format!("{up}_SCHEMA_ID")),
            (&hd.version, "version".to_string()),
        ] {
            if let Kind::Prim(p) = &f.kind {
                if !f.is_constant() {
                    o.line(&format!(
                        "{};",
                        crate::prim::store(
                            ctx,
                            p.ty,
                            &format!("h + {}", f.offset),
                            &format!("({})({val})", cty(p.ty))
                        )
                    ));
                }
            }
        }
        o.line("}");
        o.doc("Completes the message (skipped sections are written empty): 0 and its length in bytes, header included, in `*len`; or the first error's kind, with the error in `err` (when not NULL).");
        o.line(&format!(
            "static inline int {e}_finish({e}* e, size_t* len, sbekit_error* err) {{"
        ));
        if k > 0 {
            o.line(&format!("if (e->next < {k}u) {e}_sbe_fill(e, {k}u);"));
        }
        o.line("if (e->cur.err.kind != SBEKIT_OK) {");
        o.line("if (err != NULL) *err = e->cur.err;");
        o.line("return (int)e->cur.err.kind;");
        o.line("}");
        o.line("if (len != NULL) *len = (size_t)(e->cur.at - e->cur.buf);");
        o.line("return 0;");
        o.line("}");
    } else {
        o.doc("Internal: starts an entry at the cursor.");
        o.line(&format!(
            "static inline void {e}_sbe_start({e}* e, sbekit_cursor* c) {{"
        ));
        o.line("e->c = c;");
        if k > 0 {
            o.line("e->next = 0;");
        }
        o.line(&format!(
            "e->blk = sbekit_cursor_take(c, {e}_block_length_at(c->version), {});",
            c_str(path)
        ));
        o.line("}");
        o.doc("Internal: completes the entry (skipped sections written empty).");
        o.line(&format!("static inline void {e}_sbe_complete({e}* e) {{"));
        if k > 0 {
            o.line(&format!("if (e->next < {k}u) {e}_sbe_fill(e, {k}u);"));
        } else {
            o.line("(void)e;");
        }
        o.line("}");
    }
    let version = format!("{cur}->version");
    let sink = Sink {
        ty: e,
        base: "e->blk",
        version: Some(&version),
        cur,
        cur_nullable: false,
    };
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        setter(o, ctx, f, fname, &sink);
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let sname = &sn.setter();
        match s {
            Section::Group { name, since, .. } => {
                let cn = &n.children[gi];
                gi += 1;
                // Whether the section is written: in order, and in the version written.
                let mut live = format!("{e}_sbe_section(e, {i}u)");
                if *since > 0 {
                    live = format!("{live} && {cur}->version >= {since}u");
                }
                o.doc(&format!(
                    "Starts the `{name}` group in `w`: add entries with `{}_next(w)`, then `{}_end(w)` (which writes the count).",
                    cn.writer, cn.writer
                ));
                o.line(&format!(
                    "static inline void {sname}({e}* e, {}* w) {{",
                    cn.writer
                ));
                o.line(&format!("{}_sbe_start(w, {cur}, {live});", cn.writer));
                o.line("}");
                if let Some(counted) = &sn.set_counted {
                    o.doc(&format!(
                        "Starts the `{name}` group in `w` with `n` entries (of a fixed size): the dimensions and every entry (zeroed) in one capacity check, the count written. Set entry `i` (below `n`) through `{w}_entry(w, i)`; `{w}_next(w)` may add more, then `{w}_end(w)` writes the count again.",
                        w = cn.writer
                    ));
                    o.line(&format!(
                        "static inline void {counted}({e}* e, {}* w, size_t n) {{",
                        cn.writer
                    ));
                    o.line(&format!("{}_sbe_start_n(w, {cur}, {live}, n);", cn.writer));
                    o.line("}");
                }
            }
            Section::Var {
                name, since, len, ..
            } => {
                let vpath = format!("{path}.{name}");
                let l = s.data_offset();
                o.doc(&format!("Writes the `{name}` data (`len` bytes at `v`)."));
                o.line(&format!(
                    "static inline void {sname}({e}* e, const void* v, size_t len) {{"
                ));
                o.line("uint8_t* p;");
                o.line(&format!("if (!{e}_sbe_section(e, {i}u)) return;"));
                if *since > 0 {
                    o.line(&format!("if ({cur}->version < {since}u) return;"));
                }
                if len.max != u64::MAX {
                    o.line(&format!(
                        "if (len > {}) {{ sbekit_cursor_fail({cur}, SBEKIT_VALUE_TOO_LONG, {}); return; }}",
                        ulit(len.max),
                        c_str(&vpath)
                    ));
                }
                o.line(&format!(
                    "p = sbekit_cursor_take_raw({cur}, {l} + len, {});",
                    c_str(&vpath)
                ));
                o.line("if (p == NULL) return;");
                o.line(&format!("memset(p, 0, {l});"));
                o.line(&format!("{};", slot_store(ctx, len, "p", "len")));
                o.line(&format!("if (len > 0) memcpy(p + {l}, v, len);"));
                o.line("}");
            }
        }
    }
    o.doc("Internal: writes the sections before `to` that were skipped, empty.");
    o.line(&format!(
        "static inline void {e}_sbe_fill({e}* e, unsigned to) {{"
    ));
    if k == 0 {
        o.line("(void)e;");
        o.line("(void)to;");
    }
    for o_step in b.encode_order() {
        let (i, s) = (o_step.index, o_step.section);
        let step = match o_step.empty {
            // The dimensions alone: the block length, and a count of 0 (zeroed).
            Empty::Group { child, group } => format!(
                "{{ uint8_t* d = sbekit_cursor_take({cur}, {}, {}); if (d != NULL) {}; }}",
                group.dim_size,
                c_str(&format!("{path}.{}", s.name())),
                slot_store(
                    ctx,
                    group.block_len,
                    "d",
                    &format!("{}_block_length_at({cur}->version)", n.children[child].enc)
                )
            ),
            Empty::Var { prefix, .. } => {
                let vpath = format!("{path}.{}", s.name());
                format!(
                    "(void)sbekit_cursor_take({cur}, {prefix}, {});",
                    c_str(&vpath)
                )
            }
        };
        let mut cond = format!("e->next <= {i}u && to > {i}u");
        if let Some(c) = since_cond(s.since(), &format!("{cur}->version")) {
            cond = format!("{cond} && {c}");
        }
        o.line(&format!("if ({cond}) {step}"));
    }
    if k > 0 {
        o.line("if (e->next < to) e->next = to;");
    }
    o.line("}");
    o.line("");
}

pub(super) fn writer(o: &mut Out, ctx: &Ctx, g: &Group, n: &BodyNames) {
    let (dim_size, block_len, count) = (&g.dim_size, g.block_len, g.count);
    let fixed = g.body.is_fixed();
    let (w, e, path) = (&n.writer, &n.enc, &n.path);
    o.doc(&format!(
        "Adds entries to the `{path}` group; the count is kept by the writer and written by `{w}_end`."
    ));
    o.line(&format!("typedef struct {w} {{"));
    o.doc("Internal: the cursor entries are written at.");
    o.line("sbekit_cursor* c;");
    o.doc("Internal: a cursor of no capacity, for a group that is not written (out of order, or newer than the version written).");
    o.line("sbekit_cursor dead;");
    o.doc("Internal: the dimensions (NULL when they could not be reserved).");
    o.line("uint8_t* dim;");
    o.doc("Internal: entries added so far.");
    o.line("size_t n;");
    if fixed {
        o.doc("Internal: the first of the entries reserved at once (NULL when there are none).");
        o.line("uint8_t* ent;");
        o.doc("Internal: the entries reserved at once.");
        o.line("size_t k;");
    }
    if !fixed {
        o.doc("Internal: true while an entry is being written.");
        o.line("bool open;");
    }
    o.doc("Internal: the entry being written.");
    o.line(&format!("{e} e;"));
    o.line(&format!("}} {w};"));
    o.doc("Internal: starts the group at the cursor (`live`), or a group that writes nothing.");
    o.line(&format!(
        "static inline void {w}_sbe_start({w}* w, sbekit_cursor* c, bool live) {{"
    ));
    o.line("w->c = c;");
    o.line("if (!live) {");
    o.line("sbekit_cursor_dead(&w->dead, c);");
    o.line("w->c = &w->dead;");
    o.line("}");
    o.line("w->n = 0;");
    if fixed {
        o.line("w->ent = NULL;");
        o.line("w->k = 0;");
    } else {
        o.line("w->open = false;");
    }
    o.line(&format!(
        "w->dim = live ? sbekit_cursor_take(c, {dim_size}, {}) : NULL;",
        c_str(path)
    ));
    o.line(&format!(
        "if (w->dim != NULL) {};",
        slot_store(
            ctx,
            block_len,
            "w->dim",
            &format!("{e}_block_length_at(c->version)")
        )
    ));
    o.line("}");
    if fixed {
        writer_counted(o, ctx, g, n);
    }
    o.doc("Adds an entry (completing the one before): the encoder to set its fields, groups and var data. More entries than the count allows are an error (SBEKIT_COUNT_TOO_LARGE, reported by `finish`).");
    o.line(&format!("static inline {e}* {w}_next({w}* w) {{"));
    if fixed {
        // Entries without sections need no completing.
        o.line("++w->n;");
    } else {
        o.line(&format!("if (w->open) {e}_sbe_complete(&w->e);"));
        o.line("++w->n;");
        o.line("w->open = true;");
    }
    o.line(&format!("{e}_sbe_start(&w->e, w->c);"));
    o.line("return &w->e;");
    o.line("}");

    o.doc("Entries added so far.");
    o.line(&format!(
        "static inline size_t {w}_count(const {w}* w) {{ return w->n; }}"
    ));
    o.doc("Completes the group: the last entry, then the count.");
    o.line(&format!("static inline void {w}_end({w}* w) {{"));
    if !fixed {
        o.line(&format!("if (w->open) {e}_sbe_complete(&w->e);"));
        o.line("w->open = false;");
    }
    o.line(&format!("if (w->n > {}) {{", ulit(count.max)));
    o.line(&format!(
        "sbekit_cursor_fail(w->c, SBEKIT_COUNT_TOO_LARGE, {});",
        c_str(path)
    ));
    o.line("return;");
    o.line("}");
    o.line(&format!(
        "if (w->dim != NULL) {};",
        slot_store(ctx, count, "w->dim", "w->n")
    ));
    o.line("}");
    o.line("");
}

/// The writer's start with the count given up front (entries of a fixed size): one capacity
/// check for the dimensions and all the entries, then entries located by their index alone.
fn writer_counted(o: &mut Out, ctx: &Ctx, g: &Group, n: &BodyNames) {
    let (dim_size, block_len, count) = (&g.dim_size, g.block_len, g.count);
    let (w, e, path) = (&n.writer, &n.enc, &n.path);
    // At most 2^32 - 1 entries: their size then fits 64 bits (`sbekit_cursor_take_n`).
    let max = count.max.min(u64::from(u32::MAX));
    o.doc("Internal: starts the group at the cursor (`live`) with `n` entries reserved at once, or a group that writes nothing.");
    o.line(&format!(
        "static inline void {w}_sbe_start_n({w}* w, sbekit_cursor* c, bool live, size_t n) {{"
    ));
    o.line("uint8_t* p;");
    o.line("w->c = c;");
    o.line("w->n = 0;");
    o.line("w->ent = NULL;");
    o.line("w->k = 0;");
    o.line("w->dim = NULL;");
    o.line("if (!live) {");
    o.line("sbekit_cursor_dead(&w->dead, c);");
    o.line("w->c = &w->dead;");
    o.line("return;");
    o.line("}");
    o.line(&format!("if (n > {}) {{", ulit(max)));
    o.line(&format!(
        "sbekit_cursor_fail(c, SBEKIT_COUNT_TOO_LARGE, {});",
        c_str(path)
    ));
    o.line("return;");
    o.line("}");
    o.line(&format!(
        "p = sbekit_cursor_take_n(c, {dim_size}, n, {e}_block_length_at(c->version), {});",
        c_str(path)
    ));
    o.line("if (p == NULL) return;");
    o.line("w->dim = p;");
    o.line(&format!("w->ent = p + {dim_size};"));
    o.line("w->n = n;");
    o.line("w->k = n;");
    o.line(&format!(
        "{};",
        slot_store(
            ctx,
            block_len,
            "p",
            &format!("{e}_block_length_at(c->version)")
        )
    ));
    o.line(&format!("{};", slot_store(ctx, count, "p", "n")));
    o.line("}");
    o.doc("Entry `i` of those reserved at once (below their count): the encoder to set its fields. Any other index is an error (SBEKIT_COUNT_TOO_LARGE, reported by `finish`) and writes nothing.");
    o.line(&format!(
        "static inline {e}* {w}_entry({w}* w, size_t i) {{"
    ));
    o.line("w->e.c = w->c;");
    o.line("if (i >= w->k) {");
    o.line(&format!(
        "sbekit_cursor_note(w->c, SBEKIT_COUNT_TOO_LARGE, {});",
        c_str(path)
    ));
    o.line("w->e.blk = NULL;");
    o.line("return &w->e;");
    o.line("}");
    o.line(&format!(
        "w->e.blk = w->ent + i * {e}_block_length_at(w->c->version);"
    ));
    o.line("SBEKIT_NOT_NULL(w->e.blk);");
    o.line("return &w->e;");
    o.line("}");
}
