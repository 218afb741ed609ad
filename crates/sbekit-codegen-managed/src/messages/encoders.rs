//! The encoders of each message file: the fluent encoder with its section order, group writers
//! and the zeroing of reservations.

use super::*;

/// The encoder of a message (`msg`) or group entry; `top` is the message encoder class.
pub(super) fn encoder(
    o: &mut Out,
    ctx: &Ctx,
    b: &Body,
    n: &BodyNames,
    msg: Option<&Message>,
    sec: Option<&Section>,
    top: &str,
) {
    let d = ctx.d;
    let (fin, state, ro) = (d.fixed(), d.state(), d.readonly());
    let m_ = |name: &str| d.member(name);
    let e = &n.enc;
    let k = b.sections.len();
    let path = d.str_lit(&n.path);
    let req = required_expr(&b.required, "v").unwrap_or_else(|| "0".into());
    match msg {
        Some(m) => {
            o.doc(&format!(
                "Writes a `{}` message (template id {}), fluently: `{}` writes the header and reserves the block; set fields, then write groups and var data in schema order (a section after a later one throws `SbeEncodeException` `{}`; skipped ones are written empty); `{}()` completes the message (what was left unset reads as zero) and gives its length.",
                b.name, m.id, m_("wrap"), d.error_kind("OUT_OF_ORDER"), m_("encodedLength")
            ));
            o.line(&format!("{} {e} {{", d.class(false)));
            int_const(o, ctx, "The message's template id.", "TEMPLATE_ID", m.id);
        }
        None => {
            o.doc(&format!(
                "Writes the entries of the `{}` group: `{}()` adds an entry (the count is kept in the group's dimension as you go), then set its fields and sections.",
                n.path,
                m_("next")
            ));
            o.line(&format!("{} {e} {{", d.class(true)));
        }
    }
    block_length_const(o, ctx, b);
    if msg.is_some() && !d.message_holds_itself() {
        o.line(&format!("{state} {top} sbe_m {{ get {{ return this; }} }}"));
    } else {
        o.line(&format!("{state} {ro} {top} sbe_m;"));
    }
    o.line(&format!("{state} {} sbe_b;", d.writer()));
    let mut own = vec!["int sbe_p", "long sbe_v", "int sbe_next"];
    let boolean = d.boolean();
    let (entry, on) = (format!("{boolean} sbe_entry"), format!("{boolean} sbe_on"));
    if msg.is_some() {
        own.extend(["int sbe_o", "int sbe_lim"]);
        own.extend(d.message_encoder_state().iter().copied());
    } else {
        own.extend([
            "int sbe_dim",
            "long sbe_count",
            "long sbe_limit",
            entry.as_str(),
            on.as_str(),
        ]);
    }
    let late = deferred(ctx, b);
    if !late.is_empty() {
        own.push("long sbe_set");
    }
    for v in own {
        o.line(&format!("{state} {v};"));
    }
    let gs = groups(b);
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!("{state} {ro} {} sbe_g{i};", n.children[gi].enc));
    }
    o.line("");
    if msg.is_some() {
        o.doc(&format!("An encoder; `{}` it over a buffer.", m_("wrap")));
        o.line(&format!("public {e}() {{"));
        if d.message_holds_itself() {
            o.line("sbe_m = this;");
        }
    } else {
        o.line(&format!("{}{e}({fin}{top} m) {{", d.internal()));
        o.line("sbe_m = m;");
    }
    for (gi, (i, _, _)) in gs.iter().enumerate() {
        o.line(&format!("sbe_g{i} = new {}(sbe_m);", n.children[gi].enc));
    }
    o.line("}");
    let (block_length, schema_version) = (d.konst("BLOCK_LENGTH"), d.konst("SCHEMA_VERSION"));
    let sbe_block_length = m_("sbeBlockLength");
    o.doc("The block length written at version `v` (older versions write the fields they have).");
    if ctx.plan.version == 0 {
        o.line(&format!(
            "public static int {sbe_block_length}({fin}long v) {{ return {block_length}; }}"
        ));
    } else {
        o.line(&format!(
            "public static int {sbe_block_length}({fin}long v) {{ return v >= SbeSchema.{schema_version} ? {block_length} : {req}; }}"
        ));
    }
    o.doc("The version being written.");
    o.line(&format!(
        "public long {}() {{ return sbe_v; }}",
        m_("version")
    ));
    match msg {
        Some(m) => message_fns(o, ctx, b, m, e, k),
        None => {
            let Some(g) = sec.and_then(Section::as_group) else {
                o.line("}");
                return;
            };
            entry_fns(o, ctx, b, n, e, k, &g);
        }
    }
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        let bit = late.iter().position(|&j| j == i);
        setter(o, ctx, e, i, f, fname, true, bit);
    }
    zero_unset_fn(o, ctx, b, &late);
    if needs_scratch(&b.fields) {
        d.scratch(o);
    }
    section_setters(o, ctx, b, n, e);
    order_fns(o, ctx, b, n, k, &path);
    // Nested entry encoders.
    if msg.is_some() {
        for (gsec, gb, cn) in all_groups(b, n) {
            o.line("");
            encoder(o, ctx, gb, cn, None, Some(gsec), top);
        }
    }
    o.line("}");
}

/// The fields of a body whose zeroing waits for the block's completion: those whose setter
/// writes every byte (a number or an enum, not a constant), up to the 64 bits of `sbe_set`.
/// Field indexes, in bit order. A reserved block's other bytes (padding, sets, composites,
/// arrays) are zeroed when it is reserved; these only if the caller left them unset, so that
/// `next()` and `wrap`, which are inlined into the caller, store nothing a setter stores again.
/// None where the dialect zeroes whole blocks ([`crate::Dialect::defers_zeroing`]).
fn deferred(ctx: &Ctx, b: &Body) -> Vec<usize> {
    if !ctx.d.defers_zeroing() {
        return Vec::new();
    }
    b.fields
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            !f.is_constant()
                && matches!(&f.kind, Kind::Prim(p) if p.len == 1)
                    | matches!(&f.kind, Kind::Enum { .. })
        })
        .map(|(i, _)| i)
        .take(64)
        .collect()
}

/// `sbe_set` with every deferred field's bit.
fn all_set(late: &[usize]) -> String {
    if late.len() == 64 {
        "-1L".into()
    } else {
        format!("{}L", (1u64 << late.len()) - 1)
    }
}

/// Zeroes the `n` bytes at `base` of `buf` reserved for version `v`, except those `covered`
/// (stored next, or deferred): straight-line at the schema's version, then `sbe_set` cleared
/// when the body defers fields; at an older version the statement `older` (a call that zeroes
/// all that version reserves) and `sbe_set` full.
#[allow(clippy::too_many_arguments)]
fn reserve_zeroing(
    o: &mut Out,
    ctx: &Ctx,
    buf: &str,
    base: &str,
    n: usize,
    v: &str,
    older: &str,
    covered: &dyn Fn(usize) -> bool,
    late: &[usize],
) {
    let d = ctx.d;
    let current = |o: &mut Out| {
        for (start, len) in crate::uncovered_runs(n, covered) {
            let at = if start == 0 {
                base.to_string()
            } else {
                format!("{base} + {start}")
            };
            d.zero(o, buf, &at, len);
        }
        if !late.is_empty() {
            o.line("sbe_set = 0L;");
        }
    };
    if ctx.plan.version == 0 {
        current(o);
    } else {
        o.line(&format!(
            "if ({v} >= SbeSchema.{}) {{",
            d.konst("SCHEMA_VERSION")
        ));
        current(o);
        o.line("} else {");
        o.line(older);
        if !late.is_empty() {
            o.line(&format!("sbe_set = {};", all_set(late)));
        }
        o.line("}");
    }
}

/// True if byte `k` of a block is a deferred field's.
fn in_deferred(b: &Body, late: &[usize], k: usize) -> bool {
    late.iter().any(|&i| {
        let f = &b.fields[i];
        (f.offset..f.offset + f.size).contains(&k)
    })
}

/// `sbeZeroUnset`: zeroes the deferred fields the caller did not set (the block's completion).
fn zero_unset_fn(o: &mut Out, ctx: &Ctx, b: &Body, late: &[usize]) {
    if late.is_empty() {
        return;
    }
    let d = ctx.d;
    o.line(&format!("private void {}() {{", d.member("sbeZeroUnset")));
    o.line(&format!("{}long sbe_s = sbe_set;", d.fixed()));
    for (k, &i) in late.iter().enumerate() {
        let f = &b.fields[i];
        o.line(&format!("if ((sbe_s & (1L << {k})) == 0) {{"));
        d.zero(o, "sbe_b", &format!("sbe_p + {}", f.offset), f.size);
        o.line("}");
    }
    o.line(&format!("sbe_set = {};", all_set(late)));
    o.line("}");
}

/// The statement that completes a block's zeroing when a deferred field was left unset.
fn complete_block(ctx: &Ctx, late: &[usize], guard: &str) -> Option<String> {
    (!late.is_empty()).then(|| {
        format!(
            "if ({guard}sbe_set != {}) {}();",
            all_set(late),
            ctx.d.member("sbeZeroUnset")
        )
    })
}

/// The message encoder's `wrap`, `encodedLength` and reservations.
fn message_fns(o: &mut Out, ctx: &Ctx, b: &Body, m: &Message, e: &str, k: usize) {
    let d = ctx.d;
    let (fin, internal, string) = (d.fixed(), d.internal(), d.string());
    let m_ = |name: &str| d.member(name);
    let path = d.str_lit(&b.path.join("."));
    let h = &ctx.plan.header;
    let header_length = d.konst("HEADER_LENGTH");
    d.encoder_wraps(o, e);
    o.line("sbe_b = buffer;");
    o.line("sbe_o = offset;");
    o.line("sbe_lim = offset;");
    d.wrap_capacity(o);
    o.line("sbe_v = version;");
    o.line("sbe_next = 0;");
    o.line(&format!(
        "{fin}int sbe_h = {}(SbeSchema.{header_length} + {}(version), {path});",
        m_("sbeTakeRaw"),
        m_("sbeBlockLength")
    ));
    // Zeroed: the header's other members, the block's padding, sets, composites and arrays;
    // its numbers and enums when it is complete, if the caller left them unset.
    let reserved = format!(
        "SbeSchema.{header_length} + {}(version)",
        m_("sbeBlockLength")
    );
    let late = deferred(ctx, b);
    let hs = ctx.plan.header.size;
    // The header's members `wrap` stores below.
    let written: Vec<&sbekit_plan::Field> =
        [&h.block_length, &h.template_id, &h.schema_id, &h.version]
            .into_iter()
            .filter(|f| !f.is_constant() && matches!(f.kind, Kind::Prim(_)))
            .collect();
    let covered = |k: usize| {
        if k < hs {
            written
                .iter()
                .any(|f| (f.offset..f.offset + f.size).contains(&k))
        } else {
            in_deferred(b, &late, k - hs)
        }
    };
    reserve_zeroing(
        o,
        ctx,
        "buffer",
        "sbe_h",
        hs + b.block_length,
        "version",
        &format!("{}(sbe_h, {reserved});", m_("sbeZero")),
        &covered,
        &late,
    );
    o.line(&format!("sbe_p = sbe_h + SbeSchema.{header_length};"));
    let bl = format!("(long) {}(version)", m_("sbeBlockLength"));
    for l in super::header_stores(ctx, m, "buffer", "sbe_h", &bl, "version") {
        o.line(&l);
    }
    o.line("return this;");
    o.line("}");
    o.doc("Completes the message (sections not written are written empty) and gives its length in bytes, header included.");
    d.hot(o);
    o.line(&format!("public int {}() {{", m_("encodedLength")));
    if let Some(c) = complete_block(ctx, &late, "") {
        o.line(&c);
    }
    o.line(&format!("{}();", m_("sbeCloseOpen")));
    if k > 0 {
        o.line(&format!("{}({k});", m_("sbeFill")));
        o.line(&format!("sbe_next = {k};"));
    }
    o.line("return sbe_lim - sbe_o;");
    o.line("}");
    o.doc("Internal: reserves `n` zeroed bytes at the end of the message; their position.");
    o.line(&format!(
        "{internal}int {}({fin}int n, {fin}{string} path) {{",
        m_("sbeTake")
    ));
    o.line(&format!("{fin}int at = {}(n, path);", m_("sbeTakeRaw")));
    o.line(&format!("{}(at, n);", m_("sbeZero")));
    o.line("return at;");
    o.line("}");
    o.doc("Internal: reserves `n` bytes at the end of the message, not zeroed (the caller writes them all); their position.");
    d.hot(o);
    o.line(&format!(
        "{internal}int {}({fin}int n, {fin}{string} path) {{",
        m_("sbeTakeRaw")
    ));
    o.line(&format!("{fin}int at = sbe_lim;"));
    // `n` is never negative; `sbe_cap - at` does not overflow, and `at + n` fits once checked.
    d.grow_or_fail(o);
    o.line("sbe_lim = at + n;");
    o.line("return at;");
    o.line("}");
    d.grow_fn(o);
    o.doc("Internal: zeroes `n` bytes at `at`.");
    o.line(&format!(
        "{internal}void {}({fin}int at, {fin}int n) {{",
        m_("sbeZero")
    ));
    d.zero_body(o);
    o.line("}");
}

/// A group entry encoder's `sbeBegin`, `next`, `count` and completion.
fn entry_fns(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, e: &str, k: usize, g: &Group) {
    let (dim, bl_slot, count_slot) = (g.dim_size, g.block_len, g.count);
    let d = ctx.d;
    let (fin, internal) = (d.fixed(), d.internal());
    let m_ = |name: &str| d.member(name);
    let path = d.str_lit(&n.path);
    let block_length = format!("{}(sbe_v)", m_("sbeBlockLength"));
    let late = deferred(ctx, b);
    o.doc("Internal: starts the group (reserves its dimension, written when the group is complete; no entries yet); `on`: the version written has it.");
    d.hot(o);
    o.line(&format!(
        "{internal}void {}({fin}{} on) {{",
        m_("sbeBegin"),
        d.boolean()
    ));
    o.line("sbe_b = sbe_m.sbe_b;");
    o.line("sbe_v = sbe_m.sbe_v;");
    o.line("sbe_count = 0;");
    o.line("sbe_entry = false;");
    o.line("sbe_on = on;");
    // No entry yet: nothing to complete (`next` and `sbeClose` need no count test).
    if !late.is_empty() {
        o.line(&format!("sbe_set = {};", all_set(&late)));
    }
    // `next` takes its fast path while `sbe_count < sbe_limit`: 0 when the version written
    // lacks the group or is older than the schema's (both out of line, in `next`'s slow path).
    // (A count type wider than a `long` is capped: no buffer holds that many entries.)
    let max = count_slot.max.min(i64::MAX as u64);
    if ctx.plan.version == 0 {
        o.line(&format!("sbe_limit = on ? {max}L : 0L;"));
    } else {
        o.line(&format!(
            "sbe_limit = on && sbe_v >= SbeSchema.{} ? {max}L : 0L;",
            d.konst("SCHEMA_VERSION")
        ));
    }
    // The dimension is only reserved here and written once, by `sbeClose`: fewer stores in
    // `sbeBegin`, which is inlined into the caller (C2 stops inlining at a budget of bytecode).
    o.line(&format!(
        "if (on) sbe_dim = sbe_m.{}({dim}, {path});",
        m_("sbeTakeRaw")
    ));
    o.line("}");
    o.doc(&format!("Adds an entry (the count is written to the dimension when the group is complete); more than {} is an error (`COUNT_TOO_LARGE`).", count_slot.max));
    d.hot(o);
    o.line(&format!("public {e} {}() {{", m_("next")));
    // One test sends refusals and an older version's entries out of line: the fast path
    // reserves the schema version's block, a constant length, zeroed by straight-line stores.
    let older = ctx.plan.version != 0;
    if older {
        o.line(&format!(
            "if (sbe_count >= sbe_limit) return {}();",
            m_("sbeNextSlow")
        ));
    } else {
        o.line(&format!(
            "if (sbe_count >= sbe_limit) {}();",
            m_("sbeRefuse")
        ));
    }
    let complete_previous = |o: &mut Out| {
        if k > 0 {
            o.line(&format!("if (sbe_entry) {}();", m_("sbeComplete")));
        }
        if let Some(c) = complete_block(ctx, &late, "") {
            o.line(&c);
        }
    };
    let counted = |o: &mut Out| {
        o.line("sbe_count++;");
        if k > 0 {
            o.line("sbe_next = 0;");
            o.line("sbe_entry = true;");
        }
        o.line("return this;");
        o.line("}");
    };
    complete_previous(o);
    // Zeroed through locals: a field read after an Agrona store is read again (the JIT cannot
    // tell the buffer's memory from the encoder's fields).
    o.line(&format!(
        "{fin}int sbe_at = sbe_m.{}({}, {path});",
        m_("sbeTakeRaw"),
        d.konst("BLOCK_LENGTH")
    ));
    o.line("sbe_p = sbe_at;");
    let runs = crate::uncovered_runs(b.block_length, |k| in_deferred(b, &late, k));
    if !runs.is_empty() {
        o.line(&format!("{fin}{} sbe_buf = sbe_b;", d.writer()));
    }
    for (start, len) in runs {
        d.zero(o, "sbe_buf", &format!("sbe_at + {start}"), len);
    }
    if !late.is_empty() {
        o.line("sbe_set = 0L;");
    }
    counted(o);
    let max = count_slot.max.min(i64::MAX as u64);
    // A closed group (`sbe_limit` -1): its dimension is written and later sections follow.
    let closed = format!(
        "if (sbe_limit < 0L) {}",
        d.encode_error("OUT_OF_ORDER", &path)
    );
    if older {
        o.line(&format!("private {e} {}() {{", m_("sbeNextSlow")));
        o.line(&closed);
        o.line(&format!("if (!sbe_on) {}", d.not_in_version(&n.path)));
        o.line(&format!(
            "if (sbe_count >= {max}L) {}",
            d.encode_error("COUNT_TOO_LARGE", &path)
        ));
        // An older version: its shorter block, zeroed whole.
        complete_previous(o);
        o.line(&format!("{fin}int sbe_n = {block_length};"));
        o.line(&format!(
            "sbe_p = sbe_m.{}(sbe_n, {path});",
            m_("sbeTakeRaw")
        ));
        o.line(&format!("sbe_m.{}(sbe_p, sbe_n);", m_("sbeZero")));
        if !late.is_empty() {
            o.line(&format!("sbe_set = {};", all_set(&late)));
        }
        counted(o);
    } else {
        o.line(&format!("private void {}() {{", m_("sbeRefuse")));
        o.line(&closed);
        o.line(&format!("if (!sbe_on) {}", d.not_in_version(&n.path)));
        o.line(&d.encode_error("COUNT_TOO_LARGE", &path));
        o.line("}");
    }
    o.doc("Entries added so far.");
    o.line(&format!(
        "public int {}() {{ return (int) sbe_count; }}",
        m_("count")
    ));
    o.doc("Internal: completes the group: its count, and the last entry.");
    d.hot(o);
    o.line(&format!("{internal}void {}() {{", m_("sbeClose")));
    // The count once, here, rather than at every entry: `next` is inlined into the caller.
    // Every byte of the dimension: its gaps zeroed, the block length, the count.
    o.line("if (sbe_on) {");
    d.zero_prefix(o, "sbe_dim", dim, &[bl_slot, count_slot]);
    let bl_value = format!("(long) {block_length}");
    match bl_slot.joined(count_slot) {
        // Both in one store when they are adjacent (the usual `groupSizeEncoding`).
        Some((both, bl_shift, count_shift)) => {
            let value = super::joined_value(&[
                (&bl_value, bl_shift, bl_slot.width()),
                ("sbe_count", count_shift, count_slot.width()),
            ]);
            o.line(&format!(
                "{};",
                d.slot_store(&both, "sbe_b", "sbe_dim", &value)
            ));
        }
        None => {
            o.line(&format!(
                "{};",
                d.slot_store(bl_slot, "sbe_b", "sbe_dim", &bl_value)
            ));
            o.line(&format!(
                "{};",
                d.slot_store(count_slot, "sbe_b", "sbe_dim", "sbe_count")
            ));
        }
    }
    o.line("}");
    if let Some(c) = complete_block(ctx, &late, "") {
        o.line(&c);
    }
    if k > 0 {
        o.line(&format!("if (sbe_entry) {}();", m_("sbeComplete")));
        o.line("sbe_entry = false;");
    }
    // An entry added now would land after what follows the group, uncounted: `next` refuses it.
    o.line("sbe_limit = -1L;");
    o.line("}");
    o.line(&format!("private void {}() {{", m_("sbeComplete")));
    o.line(&format!("{}();", m_("sbeCloseOpen")));
    if k > 0 {
        o.line(&format!("{}({k});", m_("sbeFill")));
        o.line(&format!("sbe_next = {k};"));
    }
    o.line("}");
}

/// The writers of the groups and var data of a body.
fn section_setters(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, e: &str) {
    let d = ctx.d;
    let fin = d.fixed();
    let m_ = |name: &str| d.member(name);
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let name = &sn.name;
        let on = since_cond(s.since(), "sbe_v").unwrap_or_else(|| "true".into());
        // The next section in order needs no refusal and fills nothing: it only completes the
        // group before it, if any. Small, as the caller inlines it; the rest is `sbeSection`.
        let close_before = match i.checked_sub(1).map(|j| (j, &b.sections[j])) {
            Some((j, Section::Group { .. })) => format!("sbe_g{j}.{}(); ", m_("sbeClose")),
            _ => String::new(),
        };
        let section = format!(
            "if (sbe_next == {i}) {{ {close_before}sbe_next = {}; }} else {}({i});",
            i + 1,
            m_("sbeSection")
        );
        match s {
            Section::Group { name: sname, .. } => {
                let cn = &n.children[gi];
                gi += 1;
                o.doc(&format!(
                    "Starts the `{sname}` group: add entries with `{}()`.",
                    m_("next")
                ));
                d.hot(o);
                o.line(&format!("public {} {name}() {{", cn.enc));
                o.line(&section);
                o.line(&format!("sbe_g{i}.{}({on});", m_("sbeBegin")));
                o.line(&format!("return sbe_g{i};"));
                o.line("}");
            }
            Section::Var {
                name: sname,
                len,
                char_encoding,
                ..
            } => {
                let l = s.data_offset();
                let vpath = d.str_lit(&format!("{}.{sname}", n.path));
                let too_long = d.encode_error("VALUE_TOO_LONG", &vpath);
                let too_long = if len.max < i32::MAX as u64 {
                    format!("if (length < 0 || length > {}) {too_long}", len.max)
                } else {
                    format!("if (length < 0) {too_long}")
                };
                let skip =
                    (s.since() > 0).then(|| format!("if (sbe_v < {}) return this;", s.since()));
                // Every byte is written: the prefix zeroed (or its gaps), its length, the data.
                let reserve = |o: &mut Out| {
                    o.line(&too_long);
                    o.line(&format!(
                        "{fin}int sbe_at = sbe_m.{}({l} + length, {vpath});",
                        m_("sbeTakeRaw")
                    ));
                    d.zero_prefix(o, "sbe_at", l, &[len]);
                    o.line(&format!(
                        "{};",
                        d.slot_store(len, "sbe_b", "sbe_at", "(long) length")
                    ));
                };
                for (src, doc) in d.byte_sources() {
                    o.doc(&format!(
                        "Writes the `{sname}` data: `length` bytes of {doc} at `srcOffset`."
                    ));
                    d.hot(o);
                    o.line(&format!(
                        "public {e} {name}({fin}{src} src, {fin}int srcOffset, {fin}int length) {{"
                    ));
                    o.line(&section);
                    if let Some(s) = &skip {
                        o.line(s);
                    }
                    reserve(o);
                    o.line(&format!(
                        "{};",
                        d.copy_in(&format!("sbe_at + {l}"), "src", "srcOffset", "length")
                    ));
                    o.line("return this;");
                    o.line("}");
                }
                let utf8 = utf8_declared(char_encoding.as_deref());
                o.doc(&format!(
                    "Writes the `{sname}` data from text ({}).",
                    text_encoding(utf8)
                ));
                if text_setter(o, ctx, e, name, name, utf8) {
                    o.line(&section);
                    if let Some(s) = &skip {
                        o.line(s);
                    }
                    o.line(&format!("{fin}int length = {};", d.text_length("value")));
                    reserve(o);
                    o.line("for (int sbe_i = 0; sbe_i < length; sbe_i++) {");
                    o.line(&format!(
                        "{fin}char sbe_c = {};",
                        d.char_at("value", "sbe_i")
                    ));
                    o.line(&format!(
                        "{};",
                        d.put_byte(
                            &format!("sbe_at + {l} + sbe_i"),
                            "(byte) (sbe_c > 0xFF ? '?' : sbe_c)"
                        )
                    ));
                    o.line("}");
                    o.line("return this;");
                }
                o.line("}");
            }
        }
    }
}

/// The section order: `sbeSection` (refuses a section after a later one), `sbeCloseOpen`
/// (completes an open group) and `sbeFill` (writes skipped sections empty).
fn order_fns(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, k: usize, path: &str) {
    let d = ctx.d;
    let fin = d.fixed();
    let m_ = |name: &str| d.member(name);
    let close_open = m_("sbeCloseOpen");
    if k > 0 || d.emits_unused_private() {
        o.line(&format!("private void {}({fin}int i) {{", m_("sbeSection")));
        o.line(&format!(
            "if (sbe_next > i) {}",
            d.encode_error("OUT_OF_ORDER", path)
        ));
        o.line(&format!("{close_open}();"));
        o.line(&format!("{}(i);", m_("sbeFill")));
        o.line("sbe_next = i + 1;");
        o.line("}");
    }
    o.line(&format!("private void {close_open}() {{"));
    for (i, _, _) in groups(b) {
        o.line(&format!(
            "if (sbe_next - 1 == {i}) sbe_g{i}.{}();",
            m_("sbeClose")
        ));
    }
    o.line("}");
    o.line(&format!("private void {}({fin}int to) {{", m_("sbeFill")));
    for o_step in b.encode_order() {
        let (i, s) = (o_step.index, o_step.section);
        let on = since_cond(s.since(), "sbe_v");
        let step = match o_step.empty {
            Empty::Group { .. } => format!(
                "sbe_g{i}.{}({}); sbe_g{i}.{}();",
                m_("sbeBegin"),
                on.clone().unwrap_or_else(|| "true".into()),
                m_("sbeClose")
            ),
            Empty::Var { prefix, .. } => {
                let t = format!(
                    "sbe_m.{}({prefix}, {});",
                    m_("sbeTake"),
                    d.str_lit(&format!("{}.{}", n.path, s.name()))
                );
                match &on {
                    Some(c) => format!("if ({c}) {t}"),
                    None => t,
                }
            }
        };
        o.line(&format!("if (sbe_next <= {i} && to > {i}) {{ {step} }}"));
    }
    o.line("}");
}
