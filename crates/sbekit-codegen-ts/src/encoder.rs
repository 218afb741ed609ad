//! Encoders: a message's root block and each group entry, and the groups' writers.
//!
//! As with the Rust encoders, the writer keeps the group counts and the section order: groups
//! and var data are written in schema order, and sections the caller skips are written empty.

use crate::decoder::quote;
use crate::fields::{encoder_slots, setter};
use crate::prim::slot_write;
use crate::{BlockNames, Ctx, Out};
use sbekit_ir::layout::{Block, Group, Message};

/// Emits a message's encoder classes: nested groups first.
pub fn message_encoder(o: &mut Out, ctx: &Ctx, m: &Message, n: &BlockNames) {
    for (g, gn) in m.block.groups.iter().zip(&n.children) {
        group_encoder(o, ctx, g, gn);
    }
    o.doc(&format!(
        "Writes a `{}` message (template id {}): `wrap`, set fields, groups and var data in schema order, then `finish`.",
        m.name, m.id
    ));
    o.line(&format!("export class {} {{", n.enc));
    o.doc("The message's template id.");
    o.line(&format!("static readonly TEMPLATE_ID = {};", m.id));
    o.doc("The block length written.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        m.block.block_length
    ));
    o.line("private readonly $t = new rt.Tail();");
    o.line("private $start = 0;");
    state(o, ctx, &m.block, n);
    o.doc(
        "Starts a message at `offset` of `b`: writes the header and reserves the block (zeroed).",
    );
    o.line("wrap(b: Uint8Array, offset = 0): this {");
    o.line("const t = this.$t;");
    o.line("t.reset(b, offset);");
    o.line("this.$v = t.v;");
    o.line("this.$b = b;");
    o.line("this.$start = offset;");
    o.line("const h = t.take(HEADER_LENGTH);");
    let h = &ctx.l.header;
    for (slot, val) in [
        (&h.block_length, m.block.block_length.to_string()),
        (&h.template_id, m.id.to_string()),
        (&h.schema_id, "SCHEMA_ID".to_string()),
        (&h.version, "SCHEMA_VERSION".to_string()),
    ] {
        if let Some(w) = slot_write(ctx, "t.v", slot, "h", &val) {
            o.line(&format!("{w};"));
        }
    }
    o.line(&format!("this.$o = t.take({});", m.block.block_length));
    o.line("this.$next = 0;");
    o.line("return this;");
    o.line("}");
    o.doc("Completes the message (skipped sections are written empty); returns its length in bytes, header included.");
    o.line("finish(): number {");
    o.line(&format!(
        "this.$fill({});",
        m.block.groups.len() + m.block.var_data.len()
    ));
    o.line("return this.$t.pos - this.$start;");
    o.line("}");
    body(o, ctx, &m.block, n);
    o.line("}");
    o.line("");
}

fn group_encoder(o: &mut Out, ctx: &Ctx, g: &Group, n: &BlockNames) {
    for (c, cn) in g.block.groups.iter().zip(&n.children) {
        group_encoder(o, ctx, c, cn);
    }
    o.doc(&format!("Writes one entry of the `{}` group.", n.path));
    o.line(&format!("export class {} {{", n.enc));
    o.doc("The block length written.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        g.block.block_length
    ));
    o.line("private $t = new rt.Tail();");
    state(o, ctx, &g.block, n);
    o.doc("Internal: starts an entry at the cursor.");
    o.line("$begin(t: rt.Tail): void {");
    o.line("this.$t = t;");
    o.line("this.$v = t.v;");
    o.line("this.$b = t.b;");
    o.line(&format!("this.$o = t.take({});", g.block.block_length));
    o.line("this.$next = 0;");
    o.line("}");
    o.doc("Internal: completes the entry (skipped sections written empty).");
    o.line(&format!(
        "$complete(): void {{ this.$fill({}); }}",
        g.block.groups.len() + g.block.var_data.len()
    ));
    body(o, ctx, &g.block, n);
    o.line("}");
    o.line("");

    let dim = &g.dimension;
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
    let covered = dim.block_length.constant.is_none()
        && dim.num_in_group.constant.is_none()
        && dim.block_length.ty.size() + dim.num_in_group.ty.size() == dim.size;
    let reserve = if covered { "skip" } else { "take" };
    o.doc("Internal: writes an empty group.");
    o.line("static $empty(t: rt.Tail): void {");
    o.line(&format!("const p = t.{reserve}({});", dim.size));
    if covered {
        if let Some(w) = slot_write(ctx, "t.v", &dim.num_in_group, "p", "0") {
            o.line(&format!("{w};"));
        }
    }
    if let Some(w) = slot_write(
        ctx,
        "t.v",
        &dim.block_length,
        "p",
        &g.block.block_length.to_string(),
    ) {
        o.line(&format!("{w};"));
    }
    o.line("}");
    o.doc("Internal: starts the group at the cursor.");
    o.line("$begin(t: rt.Tail): void {");
    o.line("this.$t = t;");
    o.line("this.$n = 0;");
    o.line(&format!("this.$d = t.{reserve}({});", dim.size));
    if covered {
        if let Some(w) = slot_write(ctx, "t.v", &dim.num_in_group, "this.$d", "0") {
            o.line(&format!("{w};"));
        }
    }
    if let Some(w) = slot_write(
        ctx,
        "t.v",
        &dim.block_length,
        "this.$d",
        &g.block.block_length.to_string(),
    ) {
        o.line(&format!("{w};"));
    }
    o.line("}");
    o.doc("Adds an entry: `f` sets its fields, groups and var data.");
    o.line(&format!("entry(f: (e: {}) => void): this {{", n.enc));
    o.line(&format!(
        "if (this.$n >= {}) throw new rt.SbeEncodeError(\"countTooLarge\", this.$d, `more than {} entries`);",
        dim.num_in_group.max, dim.num_in_group.max
    ));
    o.line("this.$n++;");
    if let Some(w) = slot_write(ctx, "this.$t.v", &dim.num_in_group, "this.$d", "this.$n") {
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

fn state(o: &mut Out, ctx: &Ctx, b: &Block, n: &BlockNames) {
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

/// Setters, section bookkeeping, group and var-data writers.
fn body(o: &mut Out, ctx: &Ctx, b: &Block, n: &BlockNames) {
    for (k, (f, fname)) in b.fields.iter().zip(&n.members.fields).enumerate() {
        setter(o, ctx, f, fname, k);
    }
    let ng = b.groups.len();
    let ns = ng + b.var_data.len();
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
        for (k, cn) in n.children.iter().enumerate() {
            o.line(&format!("case {k}: {}.$empty(this.$t); break;", cn.writer));
        }
        for (k, vd) in b.var_data.iter().enumerate() {
            let w = slot_write(ctx, "this.$t.v", &vd.length, "this.$t.pos", "0");
            match w {
                // The prefix is the length alone: write a zero length.
                Some(w) if vd.data_offset == vd.length.ty.size() => o.line(&format!(
                    "case {}: {}; this.$t.skip({}); break;",
                    ng + k,
                    w,
                    vd.data_offset
                )),
                _ => o.line(&format!(
                    "case {}: this.$t.take({}); break;",
                    ng + k,
                    vd.data_offset
                )),
            }
        }
        o.line("}");
        o.line("}");
        o.line("if (this.$next < to) this.$next = to;");
    }
    o.line("}");
    for (k, ((g, cn), gname)) in b
        .groups
        .iter()
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
        o.line(&format!("const g = this.$g{k};"));
        o.line("g.$begin(this.$t);");
        o.line("f(g);");
        o.line("return this;");
        o.line("}");
    }
    for (k, (vd, (vname, _, _))) in b.var_data.iter().zip(&n.members.vars).enumerate() {
        o.doc(&format!("Writes the `{}` data (text as UTF-8).", vd.name));
        o.line(&format!("{vname}(x: Uint8Array | string): this {{"));
        o.line(&format!("this.$section({});", ng + k));
        o.line("const d = rt.bytes(x);");
        o.line(&format!(
            "if (d.length > {}) throw new rt.SbeEncodeError(\"valueTooLong\", this.$t.pos, `${{d.length}} bytes for {}, at most {}`);",
            vd.length.max,
            quote(&vd.name).trim_matches('"'),
            vd.length.max
        ));
        o.line(&format!(
            "const p = this.$t.skip({} + d.length);",
            vd.data_offset
        ));
        if let Some(w) = slot_write(ctx, "this.$v", &vd.length, "p", "d.length") {
            o.line(&format!("{w};"));
        }
        o.line(&format!("this.$b.set(d, p + {});", vd.data_offset));
        o.line("return this;");
        o.line("}");
    }
}
