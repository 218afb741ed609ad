//! The schema's sets and composites as decoder and encoder flyweights, and the list of every
//! type's source (enums are the dialect's own: a Java enum and a C# enum have little in common).

use crate::fields::{getter, setter};
use crate::json::{fields_copy, fields_json, put};
use crate::{Ctx, Out};
use sbekit_plan::json::quote;
use sbekit_plan::SetDef;

/// Every enum, set and composite: `(class name, source)`.
pub fn types(ctx: &Ctx) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, e) in &ctx.plan.enums {
        out.push((ctx.n.enums[k].ty.clone(), ctx.d.enum_source(ctx, k, e)));
    }
    for (k, s) in &ctx.plan.sets {
        let (d, e) = set_src(ctx, k, s);
        out.push((ctx.n.sets[k].ty.clone(), d));
        out.push((ctx.n.sets[k].enc.clone(), e));
    }
    for k in ctx.plan.composites.keys() {
        let (d, e) = composite_src(ctx, k);
        out.push((ctx.n.composites[k].dec.clone(), d));
        out.push((ctx.n.composites[k].enc.clone(), e));
    }
    out
}

/// `SbeSchema`'s members: the schema's id, version, semantic version, byte order and header
/// size, the empty-entry budget, and the largest set or composite with the zeros an absent one
/// reads.
pub fn schema_constants(o: &mut Out, ctx: &Ctx) {
    let (d, p) = (ctx.d, ctx.plan);
    let long = d.word("public static final long");
    let internal_int = d.word("static final int");
    let max = p
        .composites
        .values()
        .map(|c| c.size)
        .chain(p.sets.values().map(|s| s.ty.size()))
        .max()
        .unwrap_or(0)
        .max(8);
    o.doc("The schema's id (`messageSchema id`).");
    o.line(&format!("{long} {} = {}L;", d.konst("SCHEMA_ID"), p.id));
    o.doc("The schema's version: what encoders write unless told otherwise.");
    o.line(&format!(
        "{long} {} = {}L;",
        d.konst("SCHEMA_VERSION"),
        p.version
    ));
    o.doc("The schema's `semanticVersion` (empty when it has none).");
    o.line(&format!(
        "{} {} = {};",
        d.word("public static final String"),
        d.konst("SEMANTIC_VERSION"),
        d.str_lit(p.semantic_version.as_deref().unwrap_or(""))
    ));
    d.byte_order(o, p.byte_order == sbekit_ir::ByteOrder::BigEndian);
    o.doc("Size of the message header in bytes.");
    o.line(&format!(
        "{} {} = {};",
        d.const_int(),
        d.konst("HEADER_LENGTH"),
        p.header.size
    ));
    o.doc("Entries of groups whose entries take no bytes that one message may declare in all (work stays bounded by the input, as in `sbekit decode`).");
    o.line(&format!(
        "{long} {} = 1048576L;",
        d.konst("MAX_EMPTY_ENTRIES")
    ));
    o.doc("The largest set or composite, in bytes.");
    o.line(&format!(
        "{internal_int} {} = {max};",
        d.konst("MAX_TYPE_SIZE")
    ));
    o.doc("Zeros, read by the flyweight of a set or composite field absent at the acting version.");
    o.line(d.absent());
    d.raw_reads(o);
}

/// A flyweight class's opening: its constant size, buffer and position, and `wrap`
/// (`acting`: it also keeps the acting version); the class stays open.
fn flyweight_head(o: &mut Out, ctx: &Ctx, cls: &str, size: usize, decoder: bool, acting: bool) {
    let d = ctx.d;
    let state = d.state();
    let buf = if decoder { d.reader() } else { d.writer() };
    o.line(&format!("{} {cls} {{", d.class(false)));
    o.doc("Encoded size in bytes.");
    o.line(&format!("{} {} = {size};", d.const_int(), d.konst("SIZE")));
    o.line(&format!("{state} {buf} sbe_b;"));
    o.line(&format!("{state} int sbe_p;"));
    if acting {
        o.line(&format!("{state} long sbe_av;"));
    }
    o.line("");
}

/// A set's or composite's flyweight file up to its accessors: the file head, the class
/// documented `doc` with its state, and `wrap` (a decoder's keeps the acting version when
/// `acting`).
fn open_flyweight(
    ctx: &Ctx,
    doc: &str,
    cls: &str,
    size: usize,
    decoder: bool,
    acting: bool,
) -> Out {
    let d = ctx.d;
    let mut o = ctx.out();
    let import = if decoder {
        d.reader_import()
    } else {
        d.writer_import()
    };
    ctx.head(&mut o, &[import]);
    o.doc(doc);
    flyweight_head(&mut o, ctx, cls, size, decoder, acting);
    o
}

/// A decoder flyweight's end: `sbeCopyTo` into encoder `enc` (documented `doc`, its body
/// written by `copy`), `toString` and the file's end; the file.
fn close_decoder(
    mut o: Out,
    ctx: &Ctx,
    doc: &str,
    enc: &str,
    copy: impl FnOnce(&mut Out),
) -> String {
    o.doc(doc);
    o.line(&format!(
        "public void {}({}{enc} e) {{",
        ctx.d.member("sbeCopyTo"),
        ctx.d.fixed()
    ));
    copy(&mut o);
    o.line("}");
    to_string(&mut o, ctx);
    o.line("}");
    ctx.tail(&mut o);
    o.s
}

/// `wrap` of a flyweight (`av`: with the acting version).
fn wrap(o: &mut Out, ctx: &Ctx, cls: &str, decoder: bool, av: bool) {
    let d = ctx.d;
    let fin = d.fixed();
    let buf = if decoder { d.reader() } else { d.writer() };
    let acting = if av {
        format!(", {fin}long actingVersion")
    } else {
        String::new()
    };
    o.line(&format!(
        "public {cls} {}({fin}{buf} buffer, {fin}int offset{acting}) {{",
        d.member("wrap")
    ));
    o.line("sbe_b = buffer;");
    o.line("sbe_p = offset;");
    if av {
        o.line("sbe_av = actingVersion;");
    }
    o.line("return this;");
    o.line("}");
}

/// `appendJson`'s opening line.
pub fn append_json_head(o: &mut Out, ctx: &Ctx) {
    let d = ctx.d;
    o.line(&format!(
        "public StringBuilder {}({}StringBuilder {}) {{",
        d.member("appendJson"),
        d.fixed(),
        d.builder()
    ));
}

/// `toString`: the JSON `appendJson` appends.
pub fn to_string(o: &mut Out, ctx: &Ctx) {
    let d = ctx.d;
    d.to_string_head(o);
    o.line(&format!(
        "return {}(new StringBuilder()).{}();",
        d.member("appendJson"),
        d.member("toString")
    ));
    o.line("}");
}

fn set_src(ctx: &Ctx, k: &str, s: &SetDef) -> (String, String) {
    let d = ctx.d;
    let n = &ctx.n.sets[k];
    let t = d.ty(s.ty);
    let (fin, sb) = (d.fixed(), d.builder());
    let (raw, size) = (d.member("raw"), s.ty.size());
    let doc = format!(
        "Reads the `{k}` bit set (a flyweight): a getter per choice; `{raw}()` keeps every bit."
    );
    let mut o = open_flyweight(
        ctx,
        s.description.as_deref().unwrap_or(&doc),
        &n.ty,
        size,
        true,
        false,
    );
    o.doc("Reads the set at `offset` of `buffer`.");
    wrap(&mut o, ctx, &n.ty, true, false);
    o.doc("The raw value, unknown bits included.");
    o.line(&format!(
        "public {t} {raw}() {{ return {}; }}",
        d.load(s.ty, "sbe_b", "sbe_p")
    ));
    for ((c, bit, doc), g) in s.choices.iter().zip(&n.choices) {
        o.doc(doc.as_deref().unwrap_or(&format!("True if `{c}` is set.")));
        o.line(&format!(
            "public {} {g}() {{ return ({} & {}) != 0; }}",
            d.boolean(),
            d.as_bits(&format!("{raw}()")),
            d.bit(*bit)
        ));
    }
    o.doc("Appends the set as `sbekit decode` prints it: an object of booleans.");
    append_json_head(&mut o, ctx);
    put(&mut o, ctx, "{");
    for (i, ((c, _, _), g)) in s.choices.iter().zip(&n.choices).enumerate() {
        put(
            &mut o,
            ctx,
            &format!("{}{}:", if i == 0 { "" } else { "," }, quote(c)),
        );
        o.line(&format!(
            "{sb}.{}({g}() ? \"true\" : \"false\");",
            d.member("append")
        ));
    }
    put(&mut o, ctx, "}");
    o.line(&format!("return {sb};"));
    o.line("}");
    let dec = close_decoder(o, ctx, "Copies the raw value into `e`.", &n.enc, |o| {
        o.line(&format!("e.{raw}({raw}());"));
    });

    let mut o = open_flyweight(
        ctx,
        &format!("Writes the `{k}` bit set in place (a flyweight): a setter per choice, or `raw`."),
        &n.enc,
        size,
        false,
        false,
    );
    o.doc("Writes the set at `offset` of `buffer`.");
    wrap(&mut o, ctx, &n.enc, false, false);
    o.doc("Clears every bit.");
    d.hot(&mut o);
    o.line(&format!("public {} {}() {{", n.enc, d.member("clear")));
    o.line(&format!("{};", d.store_long(s.ty, "sbe_b", "sbe_p", "0L")));
    o.line("return this;");
    o.line("}");
    o.doc("Sets the raw value (unknown bits included).");
    o.line(&format!("public {} {raw}({fin}{t} value) {{", n.enc));
    o.line(&format!("{};", d.store(s.ty, "sbe_b", "sbe_p", "value")));
    o.line("return this;");
    o.line("}");
    for ((c, bit, _), g) in s.choices.iter().zip(&n.choices) {
        let bit = d.bit(*bit);
        o.doc(&format!("Sets or clears `{c}`."));
        d.hot(&mut o);
        o.line(&format!("public {} {g}({fin}{} on) {{", n.enc, d.boolean()));
        o.line(&format!(
            "{fin}{} sbe_r = {};",
            d.bits_type(),
            d.as_bits(&d.load(s.ty, "sbe_b", "sbe_p"))
        ));
        o.line(&format!(
            "{};",
            d.store_long(
                s.ty,
                "sbe_b",
                "sbe_p",
                &format!("on ? (sbe_r | {bit}) : (sbe_r & ~{bit})")
            )
        ));
        o.line("return this;");
        o.line("}");
    }
    o.line("}");
    ctx.tail(&mut o);
    (dec, o.s)
}

fn composite_src(ctx: &Ctx, k: &str) -> (String, String) {
    let d = ctx.d;
    let c = &ctx.plan.composites[k];
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    let sb = d.builder();
    let doc = format!(
        "Reads the `{k}` composite (a flyweight over {} bytes).",
        c.size
    );
    let mut o = open_flyweight(
        ctx,
        c.description.as_deref().unwrap_or(&doc),
        &n.dec,
        c.size,
        true,
        true,
    );
    o.doc("Reads the composite at `offset` of `buffer`, at acting version `actingVersion`.");
    wrap(&mut o, ctx, &n.dec, true, true);
    o.doc("The buffer read.");
    o.line(&format!(
        "public {} {}() {{ return sbe_b; }}",
        d.reader(),
        d.member("buffer")
    ));
    o.doc("Where the composite starts in the buffer.");
    o.line(&format!(
        "public int {}() {{ return sbe_p; }}",
        d.member("offset")
    ));
    o.doc("The acting version.");
    o.line(&format!(
        "public long {}() {{ return sbe_av; }}",
        d.member("actingVersion")
    ));
    for (i, (f, fname)) in members.iter().zip(&n.members).enumerate() {
        getter(&mut o, ctx, i, f, fname);
    }
    o.doc("Appends the composite as `sbekit decode` prints it.");
    append_json_head(&mut o, ctx);
    put(&mut o, ctx, "{");
    fields_json(&mut o, ctx, &members, &n.members, true);
    put(&mut o, ctx, "}");
    o.line(&format!("return {sb};"));
    o.line("}");
    let dec = close_decoder(o, ctx, "Copies every member into `e`.", &n.enc, |o| {
        fields_copy(o, ctx, &members, &n.members);
    });

    let mut o = open_flyweight(
        ctx,
        &format!("Writes the `{k}` composite in place (a flyweight)."),
        &n.enc,
        c.size,
        false,
        false,
    );
    o.doc("Writes the composite at `offset` of `buffer`.");
    wrap(&mut o, ctx, &n.enc, false, false);
    for (i, (f, fname)) in members.iter().zip(&n.members).enumerate() {
        setter(&mut o, ctx, &n.enc, i, f, fname, false, None);
    }
    o.line("}");
    ctx.tail(&mut o);
    (dec, o.s)
}
