//! The decoders of `messages.hpp`: per message and group entry a decoder whose accessors cannot
//! fail, the message's `decode` (the plan's checks, run once) and the group iterators.

use crate::fields::getter;
use crate::messages::{err, since_cond};
use crate::prim::{cty, slot_load};
use crate::{Ctx, Out};
use sbekit_plan::names::BodyNames;
use sbekit_plan::program::{self, CheckSyntax, Fail, HeaderValue, Local, LocateSyntax};
use sbekit_plan::{Body, Group, Kind, Message, Section, Slot};

pub(crate) fn decoder(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, msg: Option<&Message>) {
    let k = b.sections.len();
    let d = &n.dec;
    let desc = b.description.clone().unwrap_or_else(|| match msg {
        Some(m) => format!("Reads a `{}` message (template id {}).", b.name, m.id),
        None => format!("One entry of the `{}` group.", n.path),
    });
    o.doc(&desc);
    if msg.is_some() {
        o.doc("Made by `decode`, which checks the whole message once; accessors then cannot fail.");
    }
    o.line(&format!("class {d} {{"));
    o.line("public:");
    if let Some(m) = msg {
        o.doc("The message's template id.");
        let t = match &ctx.plan.header.template_id.kind {
            Kind::Prim(p) => cty(p.ty),
            _ => "std::uint16_t",
        };
        o.line(&format!("static constexpr {t} TEMPLATE_ID = {};", m.id));
    }
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "static constexpr std::size_t BLOCK_LENGTH = {};",
        b.block_length
    ));
    o.doc("A decoder of nothing (use `decode`).");
    o.line(&format!("{d}() noexcept = default;"));
    if let Some(m) = msg {
        decode_fn(o, ctx, m, n);
    }
    o.doc("The schema version the writer used (from the message header).");
    o.line("std::uint64_t sbeActingVersion() const noexcept { return sbe_av_; }");
    o.doc("The block length on the wire.");
    o.line("std::size_t sbeBlockLength() const noexcept { return sbe_bl_; }");
    if msg.is_some() {
        o.doc("Bytes from the start of the header to the end of the message.");
        o.line("std::size_t sbeEncodedLength() const noexcept { return sbe_end_; }");
    } else {
        o.doc("Bytes of this entry, nested groups and var data included.");
        o.line("std::size_t sbeEncodedLength() const noexcept { return sbe_end_ - sbe_p_; }");
    }
    o.doc("The buffer (the start of the message).");
    o.line("const std::uint8_t* sbeBuffer() const noexcept { return sbe_b_; }");
    for (f, fname) in b.fields.iter().zip(&n.fields) {
        getter(o, ctx, f, fname, "sbe_b_ + sbe_p_");
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
                name,
                description,
                since,
                ..
            } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(description.as_deref().unwrap_or(&format!(
                    "The entries of the `{name}` group (a range: `for (auto e : d.{sname}())`)."
                )));
                if *since > 0 {
                    o.doc(&format!(
                        "Since schema version {since}: no entries when the acting version is older."
                    ));
                }
                let present = since_cond(*since, "sbe_av_").unwrap_or_else(|| "true".into());
                o.line(&format!(
                    "{} {sname}() const noexcept {{ return {}::sbe_at(sbe_b_, sbe_sec_[{i}], sbe_av_, {present}); }}",
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
                let what = if *text {
                    "text (a view of the buffer)"
                } else {
                    "bytes (a view of the buffer)"
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
                let ret = if *text {
                    "std::string_view"
                } else {
                    "::sbekit::rt::Bytes"
                };
                o.line(&format!("{ret} {sname}() const noexcept {{"));
                if *since > 0 {
                    o.line(&format!("if (sbe_av_ < {since}u) return {ret}{{}};"));
                }
                o.line(&format!("const std::size_t sbe_s = sbe_sec_[{i}] + {l};"));
                if *text {
                    o.line(&format!(
                        "return std::string_view(reinterpret_cast<const char*>(sbe_b_ + sbe_s), sbe_sec_[{}] - sbe_s);",
                        i + 1
                    ));
                } else {
                    o.line(&format!(
                        "return ::sbekit::rt::Bytes{{sbe_b_ + sbe_s, sbe_sec_[{}] - sbe_s}};",
                        i + 1
                    ));
                }
                o.line("}");
            }
        }
    }
    // The trusted walk: the message was checked, so this only locates the sections.
    o.doc("Internal: a decoder of the checked body at `p` (block of `bl` bytes).");
    o.line(&format!(
        "static {d} sbe_at(const std::uint8_t* sbe_b, std::size_t sbe_p, std::size_t sbe_bl, std::uint64_t sbe_av) noexcept {{"
    ));
    o.line(&format!("{d} sbe_d;"));
    o.line("sbe_d.sbe_b_ = sbe_b;");
    o.line("sbe_d.sbe_p_ = sbe_p;");
    o.line("sbe_d.sbe_bl_ = sbe_bl;");
    o.line("sbe_d.sbe_av_ = sbe_av;");
    o.line("std::size_t sbe_q = sbe_p + sbe_bl;");
    for line in program::locate(b, n, &CppLocate(ctx)) {
        o.line(&line);
    }
    o.line("sbe_d.sbe_end_ = sbe_q;");
    o.line("return sbe_d;");
    o.line("}");
    o.doc("Internal: where the body ends.");
    o.line("std::size_t sbe_end() const noexcept { return sbe_end_; }");
    o.line("private:");
    o.line("const std::uint8_t* sbe_b_ = nullptr;");
    o.line("std::size_t sbe_p_ = 0;");
    o.line("std::size_t sbe_bl_ = 0;");
    o.line("std::size_t sbe_end_ = 0;");
    o.line("std::uint64_t sbe_av_ = 0;");
    o.line(&format!("std::size_t sbe_sec_[{}] = {{}};", k + 1));
    o.line("};");
    o.line("");
}

/// `decode`: the plan's checks, in wire order, then the trusted walk.
fn decode_fn(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames) {
    let d = &n.dec;
    o.doc("Checks the message at the start of `b` (`n` bytes, header included) once: header, block lengths, every group count and var-data length. On success accessors cannot fail; on failure the error has the kind, byte offset and element path.");
    // Inlined into the caller, the decoder it returns stays in registers.
    o.line(&format!(
        "SBEKIT_ALWAYS_INLINE static ::sbekit::rt::Result<{d}> decode(const std::uint8_t* sbe_b, std::size_t sbe_n) noexcept {{"
    ));
    let syntax = CppChecks {
        ctx,
        dec: d,
        sections: m.body.sections.len(),
    };
    for l in program::lines(m, &syntax) {
        o.line(&l);
    }
    let (hdr, sec) = (ctx.plan.header.size, m.body.sections.len());
    if m.body.sections.is_empty() {
        o.line(&format!("return sbe_at(sbe_b, {hdr}, sbe_bl, sbe_av);"));
    } else {
        o.line(&format!("sbe_d.sbe_sec_[{sec}] = sbe_q;"));
        o.line("sbe_d.sbe_b_ = sbe_b;");
        o.line(&format!("sbe_d.sbe_p_ = {hdr};"));
        o.line("sbe_d.sbe_bl_ = sbe_bl;");
        o.line("sbe_d.sbe_av_ = sbe_av;");
        o.line("sbe_d.sbe_end_ = sbe_q;");
        o.line("return sbe_d;");
    }
    o.line("}");
}

/// C++'s syntax for the plan's check program (`sbekit_plan::program`): `std::size_t` locals,
/// the message at `sbe_b`, `sbe_n` bytes, the cursor `sbe_q`; a failure returns an
/// `::sbekit::rt::Error`. It merges each section's head into the test before it.
struct CppChecks<'a> {
    ctx: &'a Ctx<'a>,
    /// The message's decoder type (the check walk fills one in).
    dec: &'a str,
    /// The root's sections.
    sections: usize,
}

impl CheckSyntax for CppChecks<'_> {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        err(f.error.name(), at, &f.path)
    }
    fn literal(&self, v: u64) -> String {
        format!("{v}u")
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        slot_load(self.ctx, slot, pos)
    }
    fn budget_max(&self) -> String {
        "SBEKIT_MAX_EMPTY_ENTRIES".into()
    }
    fn merges(&self) -> bool {
        true
    }
    fn widen(&self, expr: &str) -> String {
        format!("static_cast<std::uint64_t>({expr})")
    }
    fn product(&self, block: &str, count: &str) -> String {
        format!("static_cast<std::uint64_t>({block}) * {count}")
    }
    fn message_start(&self) -> String {
        "sbe_b".into()
    }
    fn header_value(&self, v: &HeaderValue) -> String {
        match v {
            HeaderValue::Constant(c) => format!("static_cast<std::size_t>({c}u)"),
            HeaderValue::Slot(s) => self.load_at(s, "sbe_b"),
        }
    }
    fn declare(&self, local: Local, value: &str) -> String {
        match local {
            Local::Version => {
                format!("const std::uint64_t sbe_av = static_cast<std::uint64_t>({value});")
            }
            l => format!("const std::size_t {} = {value};", self.local(l)),
        }
    }
    fn mark_section(&self, index: usize) -> String {
        format!("sbe_d.sbe_sec_[{index}] = sbe_q;")
    }
    fn start_budget(&self) -> String {
        format!(
            "/// Entries of empty-block groups cost work but no bytes: bounded as `sbekit decode` bounds them.\nstd::size_t sbe_budget = {};",
            self.budget_max()
        )
    }
    fn declare_cursor(&self, value: &str) -> String {
        // The check walk records where the root's sections start, so the decoder needs no
        // second walk; without sections there is nothing to walk.
        match self.sections {
            0 => String::new(),
            _ => format!("std::size_t sbe_q = {value};\n{} sbe_d;", self.dec),
        }
    }
    fn bytes(&self, n: usize) -> String {
        format!("std::size_t{{{n}}}")
    }
    fn version_literal(&self, version: u32) -> String {
        format!("{version}u")
    }
    fn index_type(&self) -> &'static str {
        "std::size_t"
    }
}

pub(crate) fn iter(o: &mut Out, ctx: &Ctx, g: &Group, n: &BodyNames) {
    let (dim_size, block_len, count, b) = (&g.dim_size, g.block_len, g.count, g.body);
    let (it, d) = (&n.iter, &n.dec);
    o.doc(&format!(
        "The entries of the `{}` group: a range of `{d}`.",
        n.path
    ));
    o.line(&format!("class {it} {{"));
    o.line("public:");
    o.doc("An input iterator over the entries.");
    o.line("class iterator {");
    o.line("public:");
    o.doc("The end.");
    o.line("iterator() noexcept = default;");
    if b.is_fixed() {
        // Entries of a fixed size: the iterator only moves an offset.
        o.doc("At entry `i`, at offset `p` of `b` (entries of `bl` bytes, acting version `av`).");
        o.line("iterator(const std::uint8_t* sbe_b, std::size_t sbe_p, std::size_t sbe_bl, std::uint64_t sbe_av, std::size_t sbe_i) noexcept : sbe_b_(sbe_b), sbe_p_(sbe_p), sbe_bl_(sbe_bl), sbe_av_(sbe_av), sbe_i_(sbe_i) {}");
        o.doc("The current entry.");
        o.line(&format!(
            "{d} operator*() const noexcept {{ return {d}::sbe_at(sbe_b_, sbe_p_, sbe_bl_, sbe_av_); }}"
        ));
        o.doc("Moves to the next entry.");
        o.line("iterator& operator++() noexcept {");
        o.line("sbe_p_ += sbe_bl_;");
        o.line("++sbe_i_;");
        o.line("return *this;");
        o.line("}");
    } else {
        o.doc("At entry `i` of `n`, whose decoder is `cur`.");
        o.line(&format!(
            "iterator({d} sbe_cur, std::size_t sbe_i, std::size_t sbe_n) noexcept : sbe_cur_(sbe_cur), sbe_i_(sbe_i), sbe_n_(sbe_n) {{}}"
        ));
        o.doc("The current entry.");
        o.line(&format!(
            "{d} operator*() const noexcept {{ return sbe_cur_; }}"
        ));
        o.doc("Moves to the next entry.");
        o.line("iterator& operator++() noexcept {");
        o.line(&format!(
            "if (++sbe_i_ < sbe_n_) sbe_cur_ = {d}::sbe_at(sbe_cur_.sbeBuffer(), sbe_cur_.sbe_end(), sbe_cur_.sbeBlockLength(), sbe_cur_.sbeActingVersion());"
        ));
        o.line("return *this;");
        o.line("}");
    }
    o.doc("True unless both are at the same entry.");
    o.line(
        "bool operator!=(const iterator& sbe_o) const noexcept { return sbe_i_ != sbe_o.sbe_i_; }",
    );
    o.doc("True if both are at the same entry.");
    o.line(
        "bool operator==(const iterator& sbe_o) const noexcept { return sbe_i_ == sbe_o.sbe_i_; }",
    );
    o.line("private:");
    if b.is_fixed() {
        o.line("const std::uint8_t* sbe_b_ = nullptr;");
        o.line("std::size_t sbe_p_ = 0;");
        o.line("std::size_t sbe_bl_ = 0;");
        o.line("std::uint64_t sbe_av_ = 0;");
        o.line("std::size_t sbe_i_ = 0;");
    } else {
        o.line(&format!("{d} sbe_cur_{{}};"));
        o.line("std::size_t sbe_i_ = 0;");
        o.line("std::size_t sbe_n_ = 0;");
    }
    o.line("};");
    o.doc("The number of entries.");
    o.line("std::size_t count() const noexcept { return sbe_n_; }");
    let (begin, end) = if b.is_fixed() {
        (
            "iterator(sbe_b_, sbe_p_, sbe_bl_, sbe_av_, 0)".to_string(),
            "iterator(sbe_b_, sbe_p_, sbe_bl_, sbe_av_, sbe_n_)".to_string(),
        )
    } else {
        (
            format!("sbe_n_ == 0 ? end() : iterator({d}::sbe_at(sbe_b_, sbe_p_, sbe_bl_, sbe_av_), 0, sbe_n_)"),
            format!("iterator({d}{{}}, sbe_n_, sbe_n_)"),
        )
    };
    o.doc("The first entry.");
    o.line(&format!(
        "iterator begin() const noexcept {{ return {begin}; }}"
    ));
    o.doc("Past the last entry.");
    o.line(&format!(
        "iterator end() const noexcept {{ return {end}; }}"
    ));
    o.doc("Internal: the checked group at `p`, or no entries when it is absent.");
    o.line(&format!(
        "static {it} sbe_at(const std::uint8_t* sbe_b, std::size_t sbe_p, std::uint64_t sbe_av, bool sbe_present) noexcept {{"
    ));
    o.line(&format!("{it} sbe_g;"));
    o.line("sbe_g.sbe_b_ = sbe_b;");
    o.line("sbe_g.sbe_av_ = sbe_av;");
    o.line("sbe_g.sbe_p_ = sbe_p;");
    o.line("if (sbe_present) {");
    o.line(&format!(
        "sbe_g.sbe_bl_ = {};",
        slot_load(ctx, block_len, "sbe_b + sbe_p")
    ));
    o.line(&format!(
        "sbe_g.sbe_n_ = {};",
        slot_load(ctx, count, "sbe_b + sbe_p")
    ));
    o.line(&format!("sbe_g.sbe_p_ = sbe_p + {dim_size};"));
    o.line("}");
    o.line("return sbe_g;");
    o.line("}");
    o.doc("Internal: where the checked group at `p` ends.");
    o.line("static std::size_t sbe_end(const std::uint8_t* sbe_b, std::size_t sbe_p, std::uint64_t sbe_av) noexcept {");
    o.line(&format!(
        "const std::size_t sbe_bl = {};",
        slot_load(ctx, block_len, "sbe_b + sbe_p")
    ));
    o.line(&format!(
        "const std::size_t sbe_n = {};",
        slot_load(ctx, count, "sbe_b + sbe_p")
    ));
    o.line(&format!("std::size_t sbe_q = sbe_p + {dim_size};"));
    if b.is_fixed() {
        o.line("(void)sbe_av;");
        o.line("return sbe_q + sbe_bl * sbe_n;");
    } else {
        o.line("for (std::size_t sbe_i = 0; sbe_i < sbe_n; ++sbe_i) {");
        o.line(&format!(
            "sbe_q = {d}::sbe_at(sbe_b, sbe_q, sbe_bl, sbe_av).sbe_end();"
        ));
        o.line("}");
        o.line("return sbe_q;");
    }
    o.line("}");
    o.line("private:");
    o.line("const std::uint8_t* sbe_b_ = nullptr;");
    o.line("std::size_t sbe_p_ = 0;");
    o.line("std::size_t sbe_bl_ = 0;");
    o.line("std::size_t sbe_n_ = 0;");
    o.line("std::uint64_t sbe_av_ = 0;");
    o.line("};");
    o.line("");
}

/// C++'s spelling of the walk that locates a checked body's sections (`sbe_d`, `sbe_b`,
/// `sbe_q`, `sbe_av`).
struct CppLocate<'a>(&'a Ctx<'a>);

impl LocateSyntax for CppLocate<'_> {
    fn mark(&self, index: usize) -> String {
        format!("sbe_d.sbe_sec_[{index}] = sbe_q;")
    }
    fn skip_group(&self, iter: &str) -> String {
        format!("sbe_q = {iter}::sbe_end(sbe_b, sbe_q, sbe_av);")
    }
    fn skip_var(&self, prefix: usize, len: &Slot) -> String {
        format!(
            "sbe_q += {prefix} + {};",
            slot_load(self.0, len, "sbe_b + sbe_q")
        )
    }
    fn gated(&self, since: u32, stmt: &str) -> String {
        format!("if (sbe_av >= {since}u) {stmt}")
    }
}
