//! The encoders of `messages.hpp`: per message and group entry a fluent encoder with ordered
//! sections, and per group a writer that keeps the count.

use crate::fields::{setter, Sink};
use crate::messages::{required_expr, since_cond, NPOS};
use crate::prim::{cpp_str, cty, slot_store};
use crate::{Ctx, Out};
use sbekit_plan::names::BodyNames;
use sbekit_plan::{Body, Empty, Group, Kind, Message, Section};

pub(crate) fn encoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let e = &n.enc;
    let k = b.sections.len();
    let path = &n.path;
    match msg {
        Some(m) => o.doc(&format!(
            "Writes a `{}` message (template id {}): construct over a buffer, set fields, write groups and var data in schema order, then `finish()`. Errors (a buffer too small, sections out of order, values too long) are kept and reported by `finish()`.",
            b.name, m.id
        )),
        None => o.doc(&format!("Writes one entry of the `{path}` group.")),
    }
    o.line(&format!("class {e} {{"));
    o.line("public:");
    if let Some(m) = msg {
        let t = match &ctx.plan.header.template_id.kind {
            Kind::Prim(p) => cty(p.ty),
            _ => "std::uint16_t",
        };
        o.doc("The message's template id.");
        o.line(&format!("static constexpr {t} TEMPLATE_ID = {};", m.id));
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "static constexpr std::size_t BLOCK_LENGTH = {};",
        b.block_length
    ));
    o.doc("The block length written at version `v` (older versions write the fields they have).");
    let req = required_expr(&b.required, "sbe_v").unwrap_or_else(|| "std::size_t{0}".into());
    if ctx.plan.version == 0 {
        o.line("static constexpr std::size_t sbe_block_length(std::uint64_t) noexcept { return BLOCK_LENGTH; }");
    } else {
        o.line(&format!(
            "static constexpr std::size_t sbe_block_length(std::uint64_t sbe_v) noexcept {{ return sbe_v >= {}u ? BLOCK_LENGTH : {req}; }}",
            ctx.plan.version
        ));
    }
    // The message encoder owns the cursor; entries and composites point at it. No encoder
    // points at itself, so once everything is inlined the cursor can live in registers.
    let cur = if msg.is_some() {
        "(&sbe_cur_)"
    } else {
        "sbe_c_"
    };
    if let Some(m) = msg {
        o.doc("Starts a message at `buf` (`cap` bytes): writes the header and reserves the block (zeroed), with one capacity check. `version` is the acting version to write (default: the schema's).");
        o.line(&format!(
            "{e}(std::uint8_t* sbe_buf, std::size_t sbe_cap, std::uint64_t sbe_version = SCHEMA_VERSION) noexcept {{"
        ));
        o.line("sbe_cur_.buf = sbe_buf;");
        o.line("sbe_cur_.cap = sbe_buf == nullptr ? 0 : sbe_cap;");
        o.line("sbe_cur_.version = sbe_version;");
        // At the schema's version the size is a constant, so the zeroing is inlined.
        if ctx.plan.version == 0 {
            o.line(&format!(
                "std::uint8_t* sbe_h = sbe_cur_.take_ptr(HEADER_LENGTH + BLOCK_LENGTH, {});",
                cpp_str(path)
            ));
        } else {
            o.line(&format!(
                "std::uint8_t* sbe_h = sbe_version >= SCHEMA_VERSION ? sbe_cur_.take_ptr(HEADER_LENGTH + BLOCK_LENGTH, {0}) : sbe_cur_.take_ptr(HEADER_LENGTH + sbe_block_length(sbe_version), {0});",
                cpp_str(path)
            ));
        }
        o.line("if (sbe_h == nullptr) return;");
        o.line("sbe_blk_ = sbe_h + HEADER_LENGTH;");
        let h = &ctx.plan.header;
        for (f, val) in [
            (&h.block_length, "sbe_block_length(sbe_version)".to_string()),
            (&h.template_id, m.id.to_string()),
            (&h.schema_id, "SCHEMA_ID".to_string()),
            (&h.version, "sbe_version".to_string()),
        ] {
            if let Kind::Prim(p) = &f.kind {
                if !f.is_constant() {
                    o.line(&format!(
                        "{};",
                        crate::prim::store(
                            ctx,
                            p.ty,
                            &format!("sbe_h + {}", f.offset),
                            &format!("static_cast<{}>({val})", cty(p.ty))
                        )
                    ));
                }
            }
        }
        o.line("}");
        o.line(&format!("{e}(const {e}&) = delete;"));
        o.line(&format!("{e}& operator=(const {e}&) = delete;"));
        o.doc("Completes the message (skipped sections are written empty); its length in bytes, header included, or the first error.");
        o.line("::sbekit::rt::Result<std::size_t> finish() noexcept {");
        if k > 0 {
            o.line(&format!("if (sbe_next_ < {k}u) sbe_fill({k}u);"));
        }
        o.line("if (!sbe_cur_.good()) return sbe_cur_.err;");
        o.line("return sbe_cur_.pos;");
        o.line("}");
    } else {
        o.doc("Internal: starts an entry at the cursor.");
        let take = if ctx.plan.version == 0 {
            format!("sbe_c->take_ptr(BLOCK_LENGTH, {})", cpp_str(path))
        } else {
            format!(
                "sbe_c->version >= SCHEMA_VERSION ? sbe_c->take_ptr(BLOCK_LENGTH, {0}) : sbe_c->take_ptr(sbe_block_length(sbe_c->version), {0})",
                cpp_str(path)
            )
        };
        o.line(&format!(
            "explicit {e}(::sbekit::rt::Cursor* sbe_c) noexcept : sbe_c_(sbe_c), sbe_blk_({take}) {{}}"
        ));
        if b.is_fixed() {
            o.doc("Internal: an entry at `blk`, reserved (zeroed) by the writer's `entries`.");
            o.line(&format!(
                "{e}(::sbekit::rt::Cursor* sbe_c, std::uint8_t* sbe_blk) noexcept : sbe_c_(sbe_c), sbe_blk_(sbe_blk) {{}}"
            ));
        }
        o.line(&format!("{e}(const {e}&) = delete;"));
        o.line(&format!("{e}& operator=(const {e}&) = delete;"));
        o.doc("Internal: completes the entry (skipped sections written empty).");
        if k > 0 {
            o.line(&format!(
                "void sbe_complete() noexcept {{ if (sbe_next_ < {k}u) sbe_fill({k}u); }}"
            ));
        } else {
            o.line("void sbe_complete() noexcept {}");
        }
    }
    let version = format!("{cur}->version");
    let sink = Sink {
        cls: e,
        base: "sbe_blk_",
        ok: "sbe_blk_ != nullptr",
        version: Some(&version),
        cur,
        cur_nullable: false,
    };
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        setter(o, ctx, f, fname, &sink);
    }
    let mut gi = 0;
    for (i, (s, sname)) in b
        .sections
        .iter()
        .zip(n.sections.iter().map(|x| &x.name))
        .enumerate()
    {
        match s {
            Section::Group {
                name, since, body, ..
            } => {
                let gb: &Body = body;
                let cn = &n.children[gi];
                gi += 1;
                o.doc(&format!(
                    "Writes the `{name}` group: `f` gets a `{}` and adds entries with `entry`; the count is kept for you.",
                    cn.writer
                ));
                // Both forms start alike: the section's place in the order, then its version.
                let open = |o: &mut Out, params: &str| {
                    o.line(&format!(
                        "template <class F> {e}& {sname}({params}) noexcept {{"
                    ));
                    o.line(&format!("if (!sbe_section({i}u)) return *this;"));
                    if *since > 0 {
                        o.line(&format!("if ({cur}->version < {since}u) return *this;"));
                    }
                };
                open(o, "F&& sbe_f");
                o.line(&format!("{} sbe_w({cur});", cn.writer));
                o.line("sbe_f(sbe_w);");
                o.line("sbe_w.sbe_close();");
                o.line("return *this;");
                o.line("}");
                if gb.is_fixed() {
                    o.doc(&format!(
                        "Writes the `{name}` group with `k` entries, reserved with one capacity check for the whole group: `f(e, i)` gets a `{}` and sets the fields of entry `i`.",
                        cn.enc
                    ));
                    open(o, "std::size_t sbe_k, F&& sbe_f");
                    o.line(&format!("{} sbe_w({cur}, sbe_k);", cn.writer));
                    o.line("if (!sbe_w.sbe_reserved()) return *this;");
                    o.line("for (std::size_t sbe_i = 0; sbe_i < sbe_k; ++sbe_i) {");
                    o.line(&format!("{} sbe_e({cur}, sbe_w.sbe_entry(sbe_i));", cn.enc));
                    o.line("sbe_f(sbe_e, sbe_i);");
                    o.line("}");
                    o.line("sbe_w.sbe_close();");
                    o.line("return *this;");
                    o.line("}");
                }
            }
            Section::Var {
                name, since, len, ..
            } => {
                let vpath = format!("{path}.{name}");
                let l = s.data_offset();
                o.doc(&format!("Writes the `{name}` data."));
                o.line(&format!("{e}& {sname}(std::string_view sbe_v) noexcept {{"));
                o.line(&format!("if (!sbe_section({i}u)) return *this;"));
                if *since > 0 {
                    o.line(&format!("if ({cur}->version < {since}u) return *this;"));
                }
                if len.max != u64::MAX {
                    o.line(&format!(
                        "if (sbe_v.size() > {}u) {{ {cur}->fail(::sbekit::rt::ErrorKind::ValueTooLong, {}); return *this; }}",
                        len.max,
                        cpp_str(&vpath)
                    ));
                }
                // Every byte is written below (the length's slot zeroed first, for any gap
                // before the data), so the reservation is not zeroed.
                o.line(&format!(
                    "const std::size_t sbe_at = {cur}->take_raw({l} + sbe_v.size(), {});",
                    cpp_str(&vpath)
                ));
                o.line(&format!("if (sbe_at == {NPOS}) return *this;"));
                o.line(&format!("std::uint8_t* sbe_p = {cur}->buf + sbe_at;"));
                o.line(&format!("std::memset(sbe_p, 0, {l});"));
                o.line(&format!(
                    "{};",
                    slot_store(ctx, len, "sbe_p", "sbe_v.size()")
                ));
                o.line(&format!(
                    "if (!sbe_v.empty()) std::memcpy(sbe_p + {l}, sbe_v.data(), sbe_v.size());"
                ));
                o.line("return *this;");
                o.line("}");
                o.doc(&format!("Writes the `{name}` data from bytes."));
                o.line(&format!(
                    "{e}& {sname}(::sbekit::rt::Bytes sbe_v) noexcept {{ return {sname}(sbe_v.view()); }}"
                ));
            }
        }
    }
    o.line("private:");
    // Section `i` may be written when no later one was: the sections before it that were
    // skipped are written empty first. After an error the cursor has no capacity left, so
    // what follows reserves nothing.
    o.line("bool sbe_section(unsigned sbe_i) noexcept {");
    o.line("if (sbe_next_ > sbe_i) {");
    o.line(&format!(
        "{cur}->fail(::sbekit::rt::ErrorKind::OutOfOrder, {});",
        cpp_str(path)
    ));
    o.line("return false;");
    o.line("}");
    // The fill is a call only when sections were skipped.
    o.line("if (sbe_next_ < sbe_i) sbe_fill(sbe_i);");
    o.line("sbe_next_ = sbe_i + 1;");
    o.line("return true;");
    o.line("}");
    // Straight-line, so that with a constant `to` (every call site) it folds away.
    o.line("void sbe_fill(unsigned sbe_to) noexcept {");
    if k == 0 {
        o.line("(void)sbe_to;");
    }
    for o_step in b.encode_order() {
        let (i, s) = (o_step.index, o_step.section);
        let step = match o_step.empty {
            Empty::Group { child, .. } => format!(
                "{{ {} sbe_w({cur}); sbe_w.sbe_close(); }}",
                n.children[child].writer
            ),
            Empty::Var { prefix, .. } => {
                let vpath = format!("{path}.{}", s.name());
                format!("(void){cur}->take({prefix}, {});", cpp_str(&vpath))
            }
        };
        let mut cond = format!("sbe_next_ <= {i}u && sbe_to > {i}u");
        if i == 0 {
            cond = "sbe_next_ == 0u && sbe_to > 0u".into();
        }
        if let Some(c) = since_cond(s.since(), &format!("{cur}->version")) {
            cond = format!("{cond} && {c}");
        }
        o.line(&format!("if ({cond}) {step}"));
    }
    if k > 0 {
        o.line("if (sbe_next_ < sbe_to) sbe_next_ = sbe_to;");
    }
    o.line("}");
    if msg.is_some() {
        o.line("::sbekit::rt::Cursor sbe_cur_{};");
        o.line("std::uint8_t* sbe_blk_ = nullptr;");
    } else {
        o.line("::sbekit::rt::Cursor* sbe_c_;");
        o.line("std::uint8_t* sbe_blk_;");
    }
    o.line("unsigned sbe_next_ = 0;");
    o.line("};");
    o.line("");
}

pub(crate) fn writer(o: &mut Out, ctx: &Ctx, g: &Group, n: &BodyNames) {
    let (dim_size, block_len, count, b) = (&g.dim_size, g.block_len, g.count, g.body);
    let (w, e, path) = (&n.writer, &n.enc, &n.path);
    o.doc(&format!(
        "Adds entries to the `{path}` group; the count is kept by the writer."
    ));
    o.line(&format!("class {w} {{"));
    o.line("public:");
    o.doc("Internal: starts the group at the cursor (an empty group until entries are added).");
    o.line(&format!(
        "explicit {w}(::sbekit::rt::Cursor* sbe_c) noexcept : sbe_c_(sbe_c), sbe_d_(sbe_c->take_ptr({dim_size}, {})) {{",
        cpp_str(path)
    ));
    o.line("if (sbe_d_ != nullptr) {");
    o.line(&format!(
        "{};",
        slot_store(
            ctx,
            block_len,
            "sbe_d_",
            &format!("{e}::sbe_block_length(sbe_c_->version)")
        )
    ));
    o.line("}");
    o.line("}");
    if b.is_fixed() {
        o.doc("Internal: starts the group with `k` entries reserved (zeroed) after its dimensions, with one capacity check.");
        o.line(&format!(
            "{w}(::sbekit::rt::Cursor* sbe_c, std::size_t sbe_k) noexcept : sbe_c_(sbe_c), sbe_d_(nullptr) {{"
        ));
        o.line(&format!("if (sbe_k > {}u) {{", count.max));
        o.line(&format!(
            "sbe_c_->fail(::sbekit::rt::ErrorKind::CountTooLarge, {});",
            cpp_str(path)
        ));
        o.line("return;");
        o.line("}");
        o.line(&format!(
            "sbe_d_ = sbe_c_->take_blocks({dim_size}, {e}::sbe_block_length(sbe_c_->version), sbe_k, {});",
            cpp_str(path)
        ));
        o.line("if (sbe_d_ == nullptr) return;");
        o.line(&format!(
            "{};",
            slot_store(
                ctx,
                block_len,
                "sbe_d_",
                &format!("{e}::sbe_block_length(sbe_c_->version)")
            )
        ));
        o.line("sbe_n_ = sbe_k;");
        o.line("}");
        o.doc("Internal: true when the entries of the constructor above were reserved.");
        o.line("bool sbe_reserved() const noexcept { return sbe_d_ != nullptr; }");
        o.doc("Internal: entry `i` of those reserved by the constructor above.");
        o.line(&format!(
            "std::uint8_t* sbe_entry(std::size_t sbe_i) const noexcept {{ return sbe_d_ + {dim_size} + sbe_i * {e}::sbe_block_length(sbe_c_->version); }}"
        ));
    }
    o.line(&format!("{w}(const {w}&) = delete;"));
    o.line(&format!("{w}& operator=(const {w}&) = delete;"));
    o.doc(&format!(
        "Adds an entry: `f` gets a `{e}` and sets its fields, groups and var data. More entries than the count allows are an error (`countTooLarge`, reported by `finish()`)."
    ));
    o.line(&format!(
        "template <class F> {w}& entry(F&& sbe_f) noexcept {{"
    ));
    // No test here: after an error the cursor has no capacity, so the entry reserves nothing;
    // the count is checked once, by `sbe_close`.
    o.line("++sbe_n_;");
    o.line(&format!("{e} sbe_e(sbe_c_);"));
    o.line("sbe_f(sbe_e);");
    o.line("sbe_e.sbe_complete();");
    o.line("return *this;");
    o.line("}");
    if b.is_fixed() {
        o.doc(&format!(
            "Adds `k` entries with one capacity check for them all: `f(e, i)` gets a `{e}` and sets the fields of entry `i`."
        ));
        o.line(&format!(
            "template <class F> {w}& entries(std::size_t sbe_k, F&& sbe_f) noexcept {{"
        ));
        o.line(&format!(
            "if (sbe_n_ > {0}u || sbe_k > {0}u - sbe_n_) {{",
            count.max
        ));
        o.line(&format!(
            "sbe_c_->fail(::sbekit::rt::ErrorKind::CountTooLarge, {});",
            cpp_str(path)
        ));
        o.line("return *this;");
        o.line("}");
        o.line(&format!(
            "const std::size_t sbe_bl = {e}::sbe_block_length(sbe_c_->version);"
        ));
        o.line(&format!(
            "std::uint8_t* sbe_p = sbe_c_->take_blocks(0, sbe_bl, sbe_k, {});",
            cpp_str(path)
        ));
        o.line("if (sbe_p == nullptr) return *this;");
        o.line("sbe_n_ += sbe_k;");
        o.line("for (std::size_t sbe_i = 0; sbe_i < sbe_k; ++sbe_i) {");
        o.line(&format!("{e} sbe_e(sbe_c_, sbe_p + sbe_i * sbe_bl);"));
        o.line("sbe_f(sbe_e, sbe_i);");
        o.line("}");
        o.line("return *this;");
        o.line("}");
    }
    o.doc("Entries added so far.");
    o.line("std::size_t count() const noexcept { return sbe_n_; }");
    o.doc("Internal: writes the count (once, when the group is complete).");
    o.line("void sbe_close() noexcept {");
    o.line(&format!("if (sbe_n_ > {}u) {{", count.max));
    o.line(&format!(
        "sbe_c_->fail(::sbekit::rt::ErrorKind::CountTooLarge, {});",
        cpp_str(path)
    ));
    o.line("return;");
    o.line("}");
    o.line(&format!(
        "if (sbe_d_ != nullptr) {};",
        slot_store(ctx, count, "sbe_d_", "sbe_n_")
    ));
    o.line("}");
    o.line("private:");
    o.line("::sbekit::rt::Cursor* sbe_c_;");
    o.line("std::uint8_t* sbe_d_;");
    o.line("std::size_t sbe_n_ = 0;");
    o.line("};");
    o.line("");
}
