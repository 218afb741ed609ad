//! The decoders of `messages.hpp`: per message and group entry a decoder whose accessors cannot
//! fail, the message's `decode` (the plan's checks, run once) and the group iterators.

use crate::fields::getter;
use crate::messages::{err, header_value, required_expr, since_cond};
use crate::names::BodyNames;
use crate::prim::{cty, slot_load};
use crate::{Ctx, Out};
use sbekit_plan::{Body, Check, Kind, Message, Section};

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
    for (i, (s, sname)) in b.sections.iter().zip(&n.sections).enumerate() {
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
    let mut gi = 0;
    for (i, s) in b.sections.iter().enumerate() {
        o.line(&format!("sbe_d.sbe_sec_[{i}] = sbe_q;"));
        let step = match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                format!("sbe_q = {}::sbe_end(sbe_b, sbe_q, sbe_av);", cn.iter)
            }
            Section::Var { len, .. } => {
                let l = s.data_offset();
                format!("sbe_q += {l} + {};", slot_load(ctx, len, "sbe_b + sbe_q"))
            }
        };
        match since_cond(s.since(), "sbe_av") {
            Some(c) => o.line(&format!("if ({c}) {step}")),
            None => o.line(&step),
        }
    }
    o.line(&format!("sbe_d.sbe_sec_[{k}] = sbe_q;"));
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
    let name = &m.body.name;
    o.doc("Checks the message at the start of `b` (`n` bytes, header included) once: header, block lengths, every group count and var-data length. On success accessors cannot fail; on failure the error has the kind, byte offset and element path.");
    // Inlined into the caller, the decoder it returns stays in registers.
    o.line(&format!(
        "SBEKIT_ALWAYS_INLINE static ::sbekit::rt::Result<{d}> decode(const std::uint8_t* sbe_b, std::size_t sbe_n) noexcept {{"
    ));
    let mut hdr = 0;
    let mut sec = 0;
    let has_groups = m.checks.iter().any(|c| matches!(c, Check::Group { .. }));
    let sections: Vec<&Check> = m.checks.iter().filter(|c| is_section(c)).collect();
    let mut head_done = false;
    for c in &m.checks {
        match c {
            Check::Header { size } => {
                hdr = *size;
                o.line(&format!(
                    "if (sbe_n < {size}) {}",
                    err("Truncated", "0", name)
                ));
            }
            // A constant schema id is not on the wire: it is the schema's by definition.
            Check::SchemaId { .. } if ctx.plan.header.schema_id.is_constant() => {}
            Check::SchemaId { slot, expected } => o.line(&format!(
                "if ({} != {expected}u) {}",
                slot_load(ctx, slot, "sbe_b"),
                err("WrongSchemaId", &slot.offset.to_string(), name)
            )),
            Check::TemplateId { slot, expected } => o.line(&format!(
                "if ({} != {expected}u) {}",
                header_value(ctx, &ctx.plan.header.template_id, slot, "sbe_b"),
                err("WrongTemplateId", &slot.offset.to_string(), name)
            )),
            Check::RootBlock {
                block_length,
                version,
                required,
            } => {
                o.line(&format!(
                    "const std::size_t sbe_bl = {};",
                    header_value(ctx, &ctx.plan.header.block_length, block_length, "sbe_b")
                ));
                o.line(&format!(
                    "const std::uint64_t sbe_av = static_cast<std::uint64_t>({});",
                    header_value(ctx, &ctx.plan.header.version, version, "sbe_b")
                ));
                if let Some(req) = required_expr(required, "sbe_av") {
                    o.line(&format!(
                        "if (sbe_bl < {req}) {}",
                        err(
                            "BlockLengthTooShort",
                            &block_length.offset.to_string(),
                            name
                        )
                    ));
                }
                // The first section's head (a group's dimensions, a length) is checked with
                // the block: one test on the way that succeeds, the exact error otherwise.
                // Only for a block length below 2^32, so that the sum (in 64 bits) is exact.
                let narrow =
                    block_length.width() <= 4 || ctx.plan.header.block_length.is_constant();
                match head(sections.first()).filter(|_| narrow) {
                    Some((size, path)) => {
                        merged_check(
                            o,
                            &format!("static_cast<std::uint64_t>(sbe_bl) + {size} > sbe_n - {hdr}"),
                            &format!("sbe_n - {hdr} < sbe_bl"),
                            err("Truncated", &hdr.to_string(), name),
                            err("Truncated", &format!("{hdr} + sbe_bl"), &path),
                        );
                        head_done = true;
                    }
                    None => o.line(&format!(
                        "if (sbe_n - {hdr} < sbe_bl) {}",
                        err("Truncated", &hdr.to_string(), name)
                    )),
                }
                if !m.body.sections.is_empty() {
                    o.line(&format!("std::size_t sbe_q = {hdr} + sbe_bl;"));
                    // The check walk records where the root's sections start, so the decoder
                    // needs no second walk.
                    o.line(&format!("{d} sbe_d;"));
                }
                if has_groups {
                    o.doc("Entries of empty-block groups cost work but no bytes: bounded as `sbekit decode` bounds them.");
                    o.line("std::size_t sbe_budget = SBEKIT_MAX_EMPTY_ENTRIES;");
                }
            }
            Check::Group { .. } | Check::VarData { .. } => {
                o.line(&format!("sbe_d.sbe_sec_[{sec}] = sbe_q;"));
                sec += 1;
                let next = head(sections.get(sec));
                head_done = section_check(o, ctx, c, 1, head_done, next);
            }
        }
    }
    if !m
        .checks
        .iter()
        .any(|c| matches!(c, Check::RootBlock { .. }))
    {
        // Every plan has a root block check; without one there is nothing to decode.
        o.line(&err("Truncated", "0", name));
    } else {
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
    }
    o.line("}");
}

/// A test that also covers the next section's head: `fast` fails when either does; on that
/// (cold) branch `exact` tells which, so the error is the one the two tests in turn would give.
fn merged_check(o: &mut Out, fast: &str, exact: &str, exact_err: String, next_err: String) {
    o.line(&format!("if ({fast}) {{"));
    o.line(&format!("if ({exact}) {exact_err}"));
    o.line(&next_err);
    o.line("}");
}

/// True for the checks of a group or var-data section.
fn is_section(c: &Check) -> bool {
    matches!(c, Check::Group { .. } | Check::VarData { .. })
}

/// The head of a section present at every version: the bytes it needs before anything else
/// (a group's dimensions, a length) and its path. `None` for a section gated by a version.
fn head(c: Option<&&Check>) -> Option<(usize, String)> {
    match c {
        Some(Check::Group {
            path,
            since: 0,
            dim_size,
            ..
        }) => Some((*dim_size, path.clone())),
        Some(Check::VarData {
            path,
            since: 0,
            data_offset,
            ..
        }) => Some((*data_offset, path.clone())),
        _ => None,
    }
}

/// The checks of one section at `sbe_q`. `head_done`: its head was checked by the section
/// before. `next`: the head of the section after, checked here with this one's last test when
/// that test allows it. Returns whether it did.
fn section_check(
    o: &mut Out,
    ctx: &Ctx,
    c: &Check,
    depth: usize,
    head_done: bool,
    next: Option<(usize, String)>,
) -> bool {
    // `next` is merged only when this section is present at every version, so that the test
    // carrying it always runs.
    let next = match c {
        Check::Group { since: 0, .. } | Check::VarData { since: 0, .. } => next,
        _ => None,
    };
    let mut merged = false;
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
            let (bl, cnt, i) = (
                format!("sbe_bl{depth}"),
                format!("sbe_c{depth}"),
                format!("sbe_i{depth}"),
            );
            match since_cond(*since, "sbe_av") {
                Some(c) => o.line(&format!("if ({c}) {{")),
                None => o.line("{"),
            }
            if !head_done {
                o.line(&format!(
                    "if (sbe_n - sbe_q < {dim_size}) {}",
                    err("Truncated", "sbe_q", path)
                ));
            }
            o.line(&format!(
                "const std::size_t {bl} = {};",
                slot_load(ctx, block_length, "sbe_b + sbe_q")
            ));
            o.line(&format!(
                "const std::size_t {cnt} = {};",
                slot_load(ctx, count, "sbe_b + sbe_q")
            ));
            if count.max != u64::MAX {
                o.line(&format!(
                    "if ({cnt} > {}u) {}",
                    count.max,
                    err(
                        "InvalidDimension",
                        &format!("sbe_q + {}", count.offset),
                        path
                    )
                ));
            }
            if let Some(req) = required_expr(required, "sbe_av") {
                o.line(&format!(
                    "if ({cnt} > 0 && {bl} < {req}) {}",
                    err(
                        "BlockLengthTooShort",
                        &format!("sbe_q + {}", block_length.offset),
                        path
                    )
                ));
            }
            o.line(&format!("sbe_q += {dim_size};"));
            o.line(&format!("if ({bl} == 0) {{"));
            o.line(&format!(
                "if ({cnt} > sbe_budget) {}",
                err("EmptyEntryBudget", "sbe_q", path)
            ));
            o.line(&format!("sbe_budget -= {cnt};"));
            o.line("}");
            if entry.is_empty() {
                // Narrow slots: the product cannot overflow, so no division (tens of cycles).
                if block_length.width() <= 4 && count.width() <= 4 {
                    let size = format!("static_cast<std::uint64_t>({bl}) * {cnt}");
                    match &next {
                        Some((h, npath)) => {
                            merged_check(
                                o,
                                &format!("{size} + {h} > sbe_n - sbe_q"),
                                &format!("{size} > sbe_n - sbe_q"),
                                err("Truncated", "sbe_q", path),
                                err("Truncated", &format!("sbe_q + {bl} * {cnt}"), npath),
                            );
                            merged = true;
                        }
                        None => o.line(&format!(
                            "if ({size} > sbe_n - sbe_q) {}",
                            err("Truncated", "sbe_q", path)
                        )),
                    }
                } else {
                    o.line(&format!(
                        "if ({bl} != 0 && {cnt} > (sbe_n - sbe_q) / {bl}) {}",
                        err("Truncated", "sbe_q", path)
                    ));
                }
                o.line(&format!("sbe_q += {bl} * {cnt};"));
            } else {
                o.line(&format!("for (std::size_t {i} = 0; {i} < {cnt}; ++{i}) {{"));
                let inner: Vec<&Check> = entry.iter().filter(|e| is_section(e)).collect();
                let mut done = false;
                // Only for a block length below 2^32, so that the sum (in 64 bits) is exact.
                match head(inner.first()).filter(|_| block_length.width() <= 4) {
                    Some((h, ipath)) => {
                        merged_check(
                            o,
                            &format!("static_cast<std::uint64_t>({bl}) + {h} > sbe_n - sbe_q"),
                            &format!("sbe_n - sbe_q < {bl}"),
                            err("Truncated", "sbe_q", path),
                            err("Truncated", &format!("sbe_q + {bl}"), &ipath),
                        );
                        done = true;
                    }
                    None => o.line(&format!(
                        "if (sbe_n - sbe_q < {bl}) {}",
                        err("Truncated", "sbe_q", path)
                    )),
                }
                o.line(&format!("sbe_q += {bl};"));
                for (j, e) in inner.iter().enumerate() {
                    done = section_check(o, ctx, e, depth + 1, done, head(inner.get(j + 1)));
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
            let l = *data_offset;
            let len = format!("sbe_l{depth}");
            match since_cond(*since, "sbe_av") {
                Some(c) => o.line(&format!("if ({c}) {{")),
                None => o.line("{"),
            }
            if !head_done {
                o.line(&format!(
                    "if (sbe_n - sbe_q < {l}) {}",
                    err("Truncated", "sbe_q", path)
                ));
            }
            o.line(&format!(
                "const std::size_t {len} = {};",
                slot_load(ctx, length, "sbe_b + sbe_q")
            ));
            if length.max != u64::MAX {
                o.line(&format!(
                    "if ({len} > {}u) {}",
                    length.max,
                    err(
                        "InvalidDimension",
                        &format!("sbe_q + {}", length.offset),
                        path
                    )
                ));
            }
            // A checked length is small enough to add the next head to it.
            // Only when the length was checked below 2^32, so that the sum (in 64 bits) is
            // exact.
            match (&next, length.max <= u64::from(u32::MAX)) {
                (Some((h, npath)), true) => {
                    merged_check(
                        o,
                        &format!("static_cast<std::uint64_t>({len}) + {h} > sbe_n - sbe_q - {l}"),
                        &format!("sbe_n - sbe_q - {l} < {len}"),
                        err("Truncated", &format!("sbe_q + {l}"), path),
                        err("Truncated", &format!("sbe_q + {l} + {len}"), npath),
                    );
                    merged = true;
                }
                _ => o.line(&format!(
                    "if (sbe_n - sbe_q - {l} < {len}) {}",
                    err("Truncated", &format!("sbe_q + {l}"), path)
                )),
            }
            o.line(&format!("sbe_q += {l} + {len};"));
            o.line("}");
        }
        _ => {}
    }
    merged
}

pub(crate) fn iter(o: &mut Out, ctx: &Ctx, s: &Section, b: &Body, n: &BodyNames) {
    let Section::Group {
        dim_size,
        block_len,
        count,
        ..
    } = s
    else {
        return;
    };
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
