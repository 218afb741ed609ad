//! Decoders: a message's root block and each group entry, and the groups' iterables.
//!
//! `$parse` checks a block and everything after it (groups, var data) against the buffer once
//! and records where each section starts, so accessors read fixed offsets without checks.
//! The checks, their slots and the sections' order come from the codec plan
//! ([`sbekit_plan::Message::checks`], [`sbekit_plan::Body::sections`]), and so do the fields
//! the accessors read ([`sbekit_plan::Body::fields`]).

use crate::fields::{decoder_slots, getter};
use crate::plan::{groups, header, vars, GroupRef, Header};
use crate::prim::slot_read;
use crate::{BlockNames, Ctx, Out};
use sbekit_plan::json::quote;
use sbekit_plan::{Body, RequiredLengths, Section};

/// The block length a block needs at acting version `av` (a TypeScript expression).
pub fn required_expr(required: &RequiredLengths, av: &str) -> String {
    sbekit_plan::program::required_expr(
        required,
        |n| n.to_string(),
        |v, len, e| format!("{av} >= {v} ? {len} : {e}"),
    )
    .unwrap_or_else(|| "0".into())
}

/// Emits a message's decoder classes: nested groups first (classes are not hoisted).
pub fn message_decoder(o: &mut Out, ctx: &Ctx, m: &sbekit_plan::Message, n: &BlockNames) {
    let body = &m.body;
    for (g, gn) in groups(body).zip(&n.children) {
        group_decoder(o, ctx, &g, gn);
    }
    let d = body
        .description
        .clone()
        .unwrap_or_else(|| format!("Reads a `{}` message (template id {}).", body.name, m.id));
    o.doc(&format!(
        "{d}\nCreated by `decode` or `wrap`, which check the whole message once; accessors then cannot fail."
    ));
    o.line(&format!("export class {} {{", n.dec));
    o.doc("The message's template id.");
    o.line(&format!("static readonly TEMPLATE_ID = {};", m.id));
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        body.block_length
    ));
    o.doc("The shortest block accepted (the fields every version has).");
    o.line(&format!(
        "static readonly MIN_BLOCK_LENGTH = {};",
        body.min_block
    ));
    block_state(o, ctx, body, n);
    o.doc("Checks the message at `offset` of `b` (header included) and returns a new decoder.");
    o.line(&format!(
        "static decode(b: Uint8Array, offset = 0): {} {{",
        n.dec
    ));
    o.line(&format!("return new {}().wrap(b, offset);", n.dec));
    o.line("}");
    o.doc("Checks the message at `offset` of `b` (header included); reuses this decoder.");
    o.line("wrap(b: Uint8Array, offset = 0): this {");
    o.line("if (b !== this.$b) {");
    o.line("this.$b = b;");
    o.line("this.$v = rt.view(b);");
    o.line("}");
    o.line("const v = this.$v;");
    // `generate` has checked that every message has its header checks.
    let Some(Header {
        schema_id,
        template_id,
        block_length,
        version,
        required,
    }) = header(m)
    else {
        return;
    };
    o.line("let bl: number, ver: number;");
    o.line("try {");
    o.line("rt.checkOffset(offset, HEADER_LENGTH, b.byteLength);");
    // A constant schemaId is not on the wire: there is nothing to check (as `sbekit decode`).
    if schema_id.constant.is_none() {
        o.line(&format!(
            "const sid: number = {};",
            slot_read(ctx, "v", schema_id, "offset")
        ));
        o.line(&format!(
            "if (sid !== SCHEMA_ID) throw new rt.SbeDecodeError(\"wrongSchemaId\", offset + {}, `schema id ${{sid}}, expected ${{SCHEMA_ID}}`);",
            schema_id.offset
        ));
    }
    o.line(&format!(
        "const tid: number = {};",
        slot_read(ctx, "v", template_id.0, "offset")
    ));
    o.line(&format!(
        "if (tid !== {}) throw new rt.SbeDecodeError(\"wrongTemplateId\", offset + {}, `template id ${{tid}}, expected {}`);",
        template_id.1, template_id.0.offset, template_id.1
    ));
    o.line(&format!(
        "bl = {};",
        slot_read(ctx, "v", block_length, "offset")
    ));
    o.line(&format!(
        "ver = {};",
        slot_read(ctx, "v", version, "offset")
    ));
    o.line("} catch (e) {");
    o.line(&format!("throw rt.within(e, {});", quote(&body.name)));
    o.line("}");
    o.line("return this.wrapBody(b, offset + HEADER_LENGTH, bl, ver);");
    o.line("}");
    o.doc("Checks the body at `pos` of `b`, after a header already read (block length and acting version from it).");
    o.line(
        "wrapBody(b: Uint8Array, pos: number, blockLength: number, actingVersion: number): this {",
    );
    o.line("if (b !== this.$b) {");
    o.line("this.$b = b;");
    o.line("this.$v = rt.view(b);");
    o.line("}");
    o.line("try {");
    o.line(&format!(
        "const req = {};",
        required_expr(required, "actingVersion")
    ));
    o.line("if (!(blockLength >= req)) throw new rt.SbeDecodeError(\"blockLengthTooShort\", pos - HEADER_LENGTH, `block length ${blockLength}, at least ${req} needed at version ${actingVersion}`);");
    o.line("rt.emptyEntries.left = rt.MAX_EMPTY_ENTRIES;");
    o.line("this.$parse(this.$v, b, pos, blockLength, actingVersion, b.byteLength);");
    o.line("} catch (e) {");
    o.line(&format!("throw rt.within(e, {});", quote(&body.name)));
    o.line("}");
    o.line("return this;");
    o.line("}");
    o.doc("Bytes from the start of the header to the end of the message.");
    o.line("sbeEncodedLength(): number { return this.$end - this.$o + HEADER_LENGTH; }");
    block_body(o, ctx, body, n);
    o.line("}");
    o.line("");
}

fn group_decoder(o: &mut Out, ctx: &Ctx, g: &GroupRef, n: &BlockNames) {
    for (c, cn) in groups(g.body).zip(&n.children) {
        group_decoder(o, ctx, &c, cn);
    }
    let d = g
        .description
        .clone()
        .unwrap_or_else(|| format!("One entry of the `{}` group.", n.path));
    o.doc(&format!(
        "{d}\nA flyweight: iteration moves it to the next entry."
    ));
    o.line(&format!("export class {} {{", n.dec));
    o.doc("The block length this schema version writes.");
    o.line(&format!(
        "static readonly BLOCK_LENGTH = {};",
        g.body.block_length
    ));
    block_state(o, ctx, g.body, n);
    o.doc("Bytes of this entry, nested groups and var data included.");
    o.line("sbeEncodedLength(): number { return this.$end - this.$o; }");
    block_body(o, ctx, g.body, n);
    o.line("}");
    o.line("");

    // The iterable over the entries.
    o.doc(&format!(
        "The entries of the `{}` group: `for (const e of group)`; the entry decoder is reused.",
        n.path
    ));
    o.line(&format!("export class {} {{", n.group));
    o.line(&format!(
        "private static readonly $scratch = new {}();",
        n.dec
    ));
    o.line("private $v: DataView = rt.EMPTY_VIEW;");
    o.line("private $b: Uint8Array = rt.EMPTY;");
    o.line("private $p = 0;");
    o.line("private $bl = 0;");
    o.line("private $n = 0;");
    o.line("private $i = 0;");
    o.line("private $av = 0;");
    o.line(&format!("private readonly $e = new {}();", n.dec));
    o.line(&format!(
        "private readonly $r: IteratorYieldResult<{}> = {{ done: false, value: this.$e }};",
        n.dec
    ));
    o.doc("Internal: checks the group at `p`; returns where it ends.");
    o.line(
        "static $skip(v: DataView, b: Uint8Array, p: number, av: number, lim: number): number {",
    );
    let at = quote(&format!(".{}", g.name));
    o.line(&format!(
        "if (p + {} > lim) throw rt.truncated(p, {}, lim).within({at});",
        g.dim_size, g.dim_size
    ));
    o.line(&format!(
        "const bl = {};",
        slot_read(ctx, "v", g.block_len, "p")
    ));
    o.line(&format!("const n = {};", slot_read(ctx, "v", g.count, "p")));
    if g.count.ty.is_signed_int() {
        o.line(&format!(
            "if (n < 0) throw new rt.SbeDecodeError(\"badCount\", p + {}, `count ${{n}}`).within({at});",
            g.count.offset
        ));
    }
    o.line(&format!(
        "const req = {};",
        required_expr(&g.body.required, "av")
    ));
    o.line(&format!(
        "if (n > 0 && !(bl >= req)) throw new rt.SbeDecodeError(\"blockLengthTooShort\", p, `block length ${{bl}}, at least ${{req}} needed at version ${{av}}`).within({at});"
    ));
    // Entries of no bytes are not bounded by the buffer: they draw on the message's budget.
    o.line("if (bl === 0 && n > 0) {");
    o.line(&format!(
        "if (n > rt.emptyEntries.left) throw new rt.SbeDecodeError(\"tooManyEntries\", p, `more than ${{rt.MAX_EMPTY_ENTRIES}} entries of empty-block groups in one message`).within({at});"
    ));
    o.line("rt.emptyEntries.left -= Number(n);");
    o.line("}");
    o.line(&format!("p += {};", g.dim_size));
    if g.body.is_fixed() {
        // Fixed-size entries: one multiplication, however hostile the count.
        o.line("if (bl * n > lim - p) {");
        o.line("const k = Math.floor((lim - p) / bl);");
        o.line(&format!(
            "throw rt.truncated(p + k * bl, bl, lim).within(`.{}[${{k}}]`);",
            g.name
        ));
        o.line("}");
        o.line("return p + bl * n;");
    } else {
        o.line(&format!("const e = {}.$scratch;", n.group));
        o.line("for (let i = 0; i < n; i++) {");
        o.line("let q: number;");
        o.line("try {");
        o.line("q = e.$parse(v, b, p, bl, av, lim);");
        o.line("} catch (x) {");
        o.line(&format!("throw rt.within(x, `.{}[${{i}}]`);", g.name));
        o.line("}");
        o.line("// An entry of no bytes: the rest are alike, so stop (bounded work).");
        o.line("if (q === p) break;");
        o.line("p = q;");
        o.line("}");
        o.line("return p;");
    }
    o.line("}");
    o.doc("Internal: points the iterable at a checked group.");
    o.line("$reset(v: DataView, b: Uint8Array, p: number, av: number, present: boolean): this {");
    o.line("this.$v = v;");
    o.line("this.$b = b;");
    o.line("this.$av = av;");
    o.line("this.$i = 0;");
    o.line("if (present) {");
    o.line(&format!(
        "this.$bl = {};",
        slot_read(ctx, "v", g.block_len, "p")
    ));
    o.line(&format!("this.$n = {};", slot_read(ctx, "v", g.count, "p")));
    o.line(&format!("this.$p = p + {};", g.dim_size));
    o.line("} else {");
    o.line("this.$bl = 0;");
    o.line("this.$n = 0;");
    o.line("this.$p = p;");
    o.line("}");
    if g.body.is_fixed() {
        o.line("const e = this.$e;");
        o.line("e.$v = v;");
        o.line("e.$b = b;");
        o.line("e.$bl = this.$bl;");
        o.line("e.$av = av;");
    }
    o.line("return this;");
    o.line("}");
    o.doc("The number of entries.");
    o.line("get count(): number { return this.$n; }");
    o.line("[Symbol.iterator](): this { return this; }");
    o.doc("The next entry (the same decoder object, moved).");
    o.line(&format!("next(): IteratorResult<{}, undefined> {{", n.dec));
    o.line("if (this.$i >= this.$n) return rt.DONE;");
    if g.body.is_fixed() {
        // Fixed-size entries: moving the flyweight is all there is to do.
        o.line("const e = this.$e;");
        o.line("e.$o = this.$p;");
        o.line("this.$p = e.$end = this.$p + this.$bl;");
    } else {
        o.line("this.$p = this.$e.$parse(this.$v, this.$b, this.$p, this.$bl, this.$av, this.$b.byteLength);");
    }
    o.line("this.$i++;");
    o.line("return this.$r;");
    o.line("}");
    o.line("}");
    o.line("");
}

/// Instance fields of a block decoder.
fn block_state(o: &mut Out, ctx: &Ctx, b: &Body, n: &BlockNames) {
    // Not `private`: a group iterator moves its entry flyweight by setting them (`$` = internal).
    o.line("$v: DataView = rt.EMPTY_VIEW;");
    o.line("$b: Uint8Array = rt.EMPTY;");
    o.line("$o = 0;");
    o.line("$bl = 0;");
    o.line("$av = 0;");
    o.line("$end = 0;");
    for k in 0..b.sections.len() {
        o.line(&format!("private $s{k} = 0;"));
    }
    for (k, f) in b.fields.iter().enumerate() {
        if let Some(s) = decoder_slots(ctx, f, k) {
            o.line(&s);
        }
    }
    for (k, cn) in n.children.iter().enumerate() {
        o.line(&format!("private readonly $g{k} = new {}();", cn.group));
    }
}

/// `$parse`, the common accessors and every field, group and var-data accessor.
fn block_body(o: &mut Out, ctx: &Ctx, body: &Body, n: &BlockNames) {
    o.doc("Internal: checks the block at `p` (of `bl` bytes) and what follows; returns where it ends.");
    o.line("$parse(v: DataView, b: Uint8Array, p: number, bl: number, av: number, lim: number): number {");
    o.line("if (p + bl > lim) throw rt.truncated(p, bl, lim);");
    o.line("this.$v = v;");
    o.line("this.$b = b;");
    o.line("this.$o = p;");
    o.line("this.$bl = bl;");
    o.line("this.$av = av;");
    o.line("p += bl;");
    // The sections in wire order: the groups' checks, then each var-data prefix and bytes.
    let mut gs = n.children.iter();
    let mut vs = vars(body);
    for (k, sec) in body.sections.iter().enumerate() {
        o.line(&format!("this.$s{k} = p;"));
        match sec {
            Section::Group { since, .. } => {
                let Some(cn) = gs.next() else { break };
                let call = format!("p = {}.$skip(v, b, p, av, lim);", cn.group);
                if *since > 0 {
                    o.line(&format!("if (av >= {since}) {call}"));
                } else {
                    o.line(&call);
                }
            }
            Section::Var { .. } => {
                let Some(vd) = vs.next() else { break };
                let (data, len, since) = (vd.data_offset, vd.len, vd.since);
                let at = quote(&format!(".{}", vd.name));
                if since > 0 {
                    o.line(&format!("if (av >= {since}) {{"));
                } else {
                    o.line("{");
                }
                o.line(&format!(
                    "if (p + {data} > lim) throw rt.truncated(p, {data}, lim).within({at});"
                ));
                o.line(&format!("const n = {};", slot_read(ctx, "v", len, "p")));
                if len.ty.is_signed_int() {
                    o.line(&format!(
                        "if (n < 0) throw new rt.SbeDecodeError(\"badCount\", p, `length ${{n}}`).within({at});"
                    ));
                }
                o.line(&format!(
                    "if (n > lim - p - {data}) throw rt.truncated(p + {data}, n, lim).within({at});"
                ));
                o.line(&format!("p += {data} + n;"));
                o.line("}");
            }
        }
    }
    o.line("this.$end = p;");
    o.line("return p;");
    o.line("}");
    o.doc("The schema version the writer used (from the message header).");
    o.line("sbeActingVersion(): number { return this.$av; }");
    o.doc("The block length on the wire.");
    o.line("sbeBlockLength(): number { return this.$bl; }");
    for (k, (f, fname)) in body.fields.iter().zip(&n.members.fields).enumerate() {
        getter(o, ctx, f, fname, k);
    }
    for (k, ((g, cn), gname)) in groups(body)
        .zip(&n.children)
        .zip(&n.members.groups)
        .enumerate()
    {
        o.doc(
            &g.description
                .clone()
                .unwrap_or_else(|| format!("The entries of the `{}` group (iterable).", g.name)),
        );
        let present = if g.since > 0 {
            format!("this.$av >= {}", g.since)
        } else {
            "true".into()
        };
        o.line(&format!(
            "{gname}(): {} {{ return this.$g{k}.$reset(this.$v, this.$b, this.$s{k}, this.$av, {present}); }}",
            cn.group
        ));
    }
    let ns = body.sections.len();
    for (vd, (vname, sname, lname)) in vars(body).zip(&n.members.vars) {
        let s = vd.index;
        let data = vd.data_offset;
        o.doc(&vd.description.clone().unwrap_or_else(|| {
            format!("The `{}` data (a view of the buffer, not a copy).", vd.name)
        }));
        o.line(&format!("{vname}(): Uint8Array {{"));
        if vd.since > 0 {
            o.line(&format!("if (this.$av < {}) return rt.EMPTY;", vd.since));
        }
        let end = if s + 1 < ns {
            format!("this.$s{}", s + 1)
        } else {
            "this.$end".to_string()
        };
        o.line(&format!("const p = this.$s{s} + {data};"));
        o.line(&format!("return rt.at(this.$b, p, {end} - p);"));
        o.line("}");
        o.doc(&format!(
            "The length of the `{}` data in bytes (no view created).",
            vd.name
        ));
        o.line(&format!("{lname}(): number {{"));
        if vd.since > 0 {
            o.line(&format!("if (this.$av < {}) return 0;", vd.since));
        }
        o.line(&format!("return {end} - this.$s{s} - {data};"));
        o.line("}");
        let enc = vd.char_encoding.unwrap_or("utf-8");
        o.doc(&format!("The `{}` data as text ({enc}).", vd.name));
        o.line(&format!(
            "{sname}(): string {{ return rt.text(this.{vname}(), {}); }}",
            quote(enc)
        ));
    }
}
