//! Encoders: a message's root block and each group entry, and the groups' writers.
//!
//! As with the Rust encoders, the writer keeps the group counts and the section order: groups
//! and var data are written in schema order, and sections the caller skips are written empty.
//! The header slots, section order, dimension and length slots come from the codec plan
//! ([`sbekit_plan::Body::sections`]); the field setters render the plan's fields.

use crate::decoder::required_expr;
use crate::fields::{encoder_slots, setter};
use crate::plan::{groups, header, vars, GroupRef};
use crate::prim::slot_write;
use crate::{BlockNames, Ctx, Out};
use sbekit_plan::json::quote;
use sbekit_plan::{Body, Empty};

/// Emits a message's encoder classes: nested groups first.
pub fn message_encoder(o: &mut Out, ctx: &Ctx, m: &sbekit_plan::Message, n: &BlockNames) {
    // `generate` has checked that every message has its header checks.
    let Some(h) = header(m) else {
        return;
    };
    let body = &m.body;
    for (g, gn) in groups(body).zip(&n.children) {
        group_encoder(o, ctx, &g, gn);
    }
    o.doc(&format!(
        "Writes a `{}` message (template id {}): `wrap`, set fields, groups and var data in schema order, then `finish`.",
        body.name, m.id
    ));
    o.line(&format!("export class {} {{", n.enc));
    o.doc("The message's template id.");
    o.line(&format!("static readonly TEMPLATE_ID = {};", m.id));
    o.doc("The block length written.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        body.block_length
    ));
    block_length_at(o, ctx, body);
    o.line("private readonly $t = new rt.Tail();");
    o.line("private $start = 0;");
    state(o, ctx, body, n);
    o.doc(
        "Starts a message at `offset` of `b`: writes the header and reserves the block (zeroed). `version` is the schema version to write (default: the schema's): an older one writes its block lengths and leaves newer fields, groups and var data out.",
    );
    o.line("wrap(b: Uint8Array, offset = 0, version: number = SCHEMA_VERSION): this {");
    o.line("const t = this.$t;");
    o.line("t.reset(b, offset);");
    o.line("t.version = version;");
    o.line("this.$v = t.v;");
    o.line("this.$b = b;");
    o.line("this.$start = offset;");
    o.line("const h = t.take(HEADER_LENGTH);");
    for (slot, val) in [
        (h.block_length, block_len(ctx, body, &n.enc, "version")),
        (h.template_id.0, h.template_id.1.to_string()),
        (h.schema_id, "SCHEMA_ID".to_string()),
        (h.version, "version".to_string()),
    ] {
        if let Some(w) = slot_write(ctx, "t.v", slot, "h", &val) {
            o.line(&format!("{w};"));
        }
    }
    o.line(&format!(
        "this.$o = t.take({});",
        block_len(ctx, body, &n.enc, "version")
    ));
    o.line("this.$next = 0;");
    o.line("return this;");
    o.line("}");
    o.doc("Completes the message (skipped sections are written empty); returns its length in bytes, header included.");
    o.line("finish(): number {");
    o.line(&format!("this.$fill({});", body.sections.len()));
    o.line("return this.$t.pos - this.$start;");
    o.line("}");
    members(o, ctx, body, n);
    o.line("}");
    o.line("");
}

fn group_encoder(o: &mut Out, ctx: &Ctx, g: &GroupRef, n: &BlockNames) {
    for (c, cn) in groups(g.body).zip(&n.children) {
        group_encoder(o, ctx, &c, cn);
    }
    o.doc(&format!("Writes one entry of the `{}` group.", n.path));
    o.line(&format!("export class {} {{", n.enc));
    o.doc("The block length written.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        g.body.block_length
    ));
    block_length_at(o, ctx, g.body);
    o.line("private $t = new rt.Tail();");
    state(o, ctx, g.body, n);
    o.doc("Internal: starts an entry at the cursor.");
    o.line("$begin(t: rt.Tail): void {");
    o.line("this.$t = t;");
    o.line("this.$v = t.v;");
    o.line("this.$b = t.b;");
    o.line(&format!(
        "this.$o = t.take({});",
        block_len(ctx, g.body, &n.enc, "t.version")
    ));
    o.line("this.$next = 0;");
    o.line("}");
    o.doc("Internal: completes the entry (skipped sections written empty).");
    o.line(&format!(
        "$complete(): void {{ this.$fill({}); }}",
        g.body.sections.len()
    ));
    members(o, ctx, g.body, n);
    o.line("}");
    o.line("");

    o.doc(&format!(
        "Adds entries to the `{}` group; the count is kept by the writer.",
        n.path
    ));
    o.line(&format!("export class {} {{", n.writer));
    o.line("private $t = new rt.Tail();");
    o.line("private $d = 0;");
    o.line("private $n = 0;");
    o.line(&format!("private readonly $e = new {}();", n.enc));
    // When blockLength and numInGroup cover the dimension, both are written: no zeroing.
    let covered = g.block_len.constant.is_none()
        && g.count.constant.is_none()
        && g.block_len.width() + g.count.width() == g.dim_size;
    let reserve = if covered { "skip" } else { "take" };
    o.doc("Internal: writes an empty group.");
    o.line("static $empty(t: rt.Tail): void {");
    o.line(&format!("const p = t.{reserve}({});", g.dim_size));
    if covered {
        if let Some(w) = slot_write(ctx, "t.v", g.count, "p", "0") {
            o.line(&format!("{w};"));
        }
    }
    if let Some(w) = slot_write(
        ctx,
        "t.v",
        g.block_len,
        "p",
        &block_len(ctx, g.body, &n.enc, "t.version"),
    ) {
        o.line(&format!("{w};"));
    }
    o.line("}");
    o.doc("Internal: starts the group at the cursor.");
    o.line("$begin(t: rt.Tail): void {");
    o.line("this.$t = t;");
    o.line("this.$n = 0;");
    o.line(&format!("this.$d = t.{reserve}({});", g.dim_size));
    if covered {
        if let Some(w) = slot_write(ctx, "t.v", g.count, "this.$d", "0") {
            o.line(&format!("{w};"));
        }
    }
    if let Some(w) = slot_write(
        ctx,
        "t.v",
        g.block_len,
        "this.$d",
        &block_len(ctx, g.body, &n.enc, "t.version"),
    ) {
        o.line(&format!("{w};"));
    }
    o.line("}");
    o.doc("Adds an entry: `f` sets its fields, groups and var data.");
    o.line(&format!("entry(f: (e: {}) => void): this {{", n.enc));
    o.line(&format!(
        "if (this.$n >= {}) throw new rt.SbeEncodeError(\"countTooLarge\", this.$d, `more than {} entries`);",
        g.count.max, g.count.max
    ));
    o.line("this.$n++;");
    if let Some(w) = slot_write(ctx, "this.$t.v", g.count, "this.$d", "this.$n") {
        o.line(&format!("{w};"));
    }
    o.line("const e = this.$e;");
    o.line("e.$begin(this.$t);");
    o.line("f(e);");
    o.line("e.$complete();");
    o.line("return this;");
    o.line("}");
    o.doc("Entries added so far.");
    o.line("get count(): number { return this.$n; }");
    o.line("}");
    o.line("");
}

fn state(o: &mut Out, ctx: &Ctx, b: &Body, n: &BlockNames) {
    o.line("private $v: DataView = rt.EMPTY_VIEW;");
    o.line("private $b: Uint8Array = rt.EMPTY;");
    o.line("private $o = 0;");
    o.line("private $next = 0;");
    for (k, f) in b.fields.iter().enumerate() {
        if let Some(s) = encoder_slots(ctx, f, k) {
            o.line(&s);
        }
    }
    for (k, cn) in n.children.iter().enumerate() {
        o.line(&format!("private readonly $g{k} = new {}();", cn.writer));
    }
}

/// Setters, section bookkeeping, group and var-data writers. Sections are numbered in the
/// plan's wire order (groups, then var data).
fn members(o: &mut Out, ctx: &Ctx, body: &Body, n: &BlockNames) {
    for (k, (f, fname)) in body.fields.iter().zip(&n.members.fields).enumerate() {
        setter(o, ctx, f, fname, k, true);
    }
    let ns = body.sections.len();
    o.line("private $section(i: number): void {");
    o.line("if (this.$next > i) throw rt.outOfOrder(this.$t.pos, i, this.$next);");
    o.line("this.$fill(i);");
    o.line("this.$next = i + 1;");
    o.line("}");
    o.line("private $fill(to: number): void {");
    if ns == 0 {
        o.line("this.$next = Math.max(this.$next, to);");
    } else {
        o.line("for (let i = this.$next; i < to; i++) {");
        o.line("switch (i) {");
        for step in body.encode_order() {
            let (k, sec) = (step.index, step.section);
            match step.empty {
                Empty::Group { child, .. } => {
                    o.line(&format!(
                        "case {k}: {}{}.$empty(this.$t); break;",
                        since_guard(sec.since()),
                        n.children[child].writer
                    ));
                }
                Empty::Var { prefix: data, len } => {
                    match slot_write(ctx, "this.$t.v", len, "this.$t.pos", "0") {
                        // The prefix is the length alone: write a zero length.
                        Some(w) if data == len.width() => o.line(&format!(
                            "case {k}: {}{{ {w}; this.$t.skip({data}); }} break;",
                            since_guard(sec.since())
                        )),
                        _ => o.line(&format!(
                            "case {k}: {}this.$t.take({data}); break;",
                            since_guard(sec.since())
                        )),
                    }
                }
            }
        }
        o.line("}");
        o.line("}");
        o.line("if (this.$next < to) this.$next = to;");
    }
    o.line("}");
    for (k, ((g, cn), gname)) in groups(body)
        .zip(&n.children)
        .zip(&n.members.groups)
        .enumerate()
    {
        o.doc(&format!(
            "Writes the `{}` group: `f` adds the entries with `entry`; the count is kept for you.",
            g.name
        ));
        o.line(&format!("{gname}(f: (g: {}) => void): this {{", cn.writer));
        o.line(&format!("this.$section({k});"));
        if g.since > 0 {
            o.line(&format!("if (this.$t.version < {}) return this;", g.since));
        }
        o.line(&format!("const g = this.$g{k};"));
        o.line("g.$begin(this.$t);");
        o.line("f(g);");
        o.line("return this;");
        o.line("}");
    }
    for (vd, (vname, _, _)) in vars(body).zip(&n.members.vars) {
        let (k, name, len, data) = (vd.index, vd.name, vd.len, vd.data_offset);
        o.doc(&format!("Writes the `{name}` data (text as UTF-8)."));
        o.line(&format!("{vname}(x: Uint8Array | string): this {{"));
        o.line(&format!("this.$section({k});"));
        if vd.since > 0 {
            o.line(&format!("if (this.$t.version < {}) return this;", vd.since));
        }
        o.line("const d = rt.bytes(x);");
        o.line(&format!(
            "if (d.length > {}) throw new rt.SbeEncodeError(\"valueTooLong\", this.$t.pos, `${{d.length}} bytes for {}, at most {}`);",
            len.max,
            quote(name).trim_matches('"'),
            len.max
        ));
        o.line(&format!("const p = this.$t.skip({data} + d.length);"));
        if let Some(w) = slot_write(ctx, "this.$v", len, "p", "d.length") {
            o.line(&format!("{w};"));
        }
        o.line(&format!("this.$b.set(d, p + {data});"));
        o.line("return this;");
        o.line("}");
    }
}

/// `if (<version> >= since) ` for a section newer than version 0 (written only at versions
/// that have it), else nothing.
fn since_guard(since: u32) -> String {
    if since > 0 {
        format!("if (this.$t.version >= {since}) ")
    } else {
        String::new()
    }
}

/// The static `$blockLength(v)` of an encoder class: the block length written at version `v`
/// (older versions write the fields they have), for schemas with versions.
fn block_length_at(o: &mut Out, ctx: &Ctx, b: &Body) {
    if ctx.plan.version == 0 {
        return;
    }
    o.doc("The block length written at schema version `v`.");
    o.line(&format!(
        "static $blockLength(v: number): number {{ return v >= SCHEMA_VERSION ? {} : {}; }}",
        b.block_length,
        required_expr(&b.required, "v")
    ));
}

/// The block length the encoder class `cls` of `b` writes at version expression `v`.
fn block_len(ctx: &Ctx, b: &Body, cls: &str, v: &str) -> String {
    if ctx.plan.version == 0 {
        b.block_length.to_string()
    } else {
        format!("{cls}.$blockLength({v})")
    }
}
