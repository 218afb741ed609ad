//! Field accessors, shared by composites and blocks: getters on decoders (reading `sbe_b` at
//! `sbe_p + offset`, acting version `sbe_av`), setters on encoders (writing `sbe_b` at
//! `sbe_p + offset`, skipping fields newer than the version `sbe_v` being written).
//!
//! Absent values: a field newer than the acting version reads as its null value, and an
//! optional field may hold it; the presence test says which. No boxing.

use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::json::utf8_declared;
use sbekit_plan::names::FieldNames;
use sbekit_plan::{Constant, Field, Kind};

fn doc(o: &mut Out, ctx: &Ctx, f: &Field, what: &str) {
    let mut d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("The `{}` {what}.", f.name));
    if f.since > 0 && !f.is_constant() {
        d.push_str(&format!(
            "\nSince schema version {}: its null value (and `{}` false) when the acting version is older.",
            f.since,
            ctx.d.member("has")
        ));
    }
    o.doc(&d);
}

/// The condition under which the field is on the wire at acting version `av` (`None`: always).
pub fn present(f: &Field, av: &str) -> Option<String> {
    (f.since > 0).then(|| format!("{av} >= {}", f.since))
}

/// The decoder and encoder classes of a set or composite field.
fn flyweights<'c>(ctx: &'c Ctx, f: &Field) -> Option<(&'c str, &'c str)> {
    match &f.kind {
        Kind::Set { ty } => Some((&ctx.n.sets[ty].ty, &ctx.n.sets[ty].enc)),
        Kind::Composite { ty } => Some((&ctx.n.composites[ty].dec, &ctx.n.composites[ty].enc)),
        _ => None,
    }
}

/// Emits the getter of a constant field; false if the field is not a constant.
fn constant_getter(o: &mut Out, ctx: &Ctx, f: &Field, name: &str) -> bool {
    let d = ctx.d;
    let Some(c) = ctx.plan.constant(f) else {
        return false;
    };
    let (ty, value) = match c {
        Constant::Text(b) => (d.string().to_string(), d.bytes_lit(&b)),
        Constant::Number(v, ty) => (d.ty(ty).to_string(), d.literal(&v, ty)),
        Constant::Enum { ty, index } => {
            let en = &ctx.n.enums[ty];
            let value = d.enum_constant(&ctx.plan.enums[ty], en, index);
            (en.ty.clone(), value)
        }
    };
    doc(o, ctx, f, "constant");
    o.line(&format!("public {ty} {name}() {{ return {value}; }}"));
    true
}

/// The raw-value accessor of an enum field (empty for other fields).
pub fn raw(n: &FieldNames) -> &str {
    n.raw.as_deref().unwrap_or_default()
}

/// Emits the getter(s) of field number `i`.
pub fn getter(o: &mut Out, ctx: &Ctx, i: usize, f: &Field, n: &FieldNames) {
    let d = ctx.d;
    let name = &n.name;
    let pos = format!("sbe_p + {}", f.offset);
    if constant_getter(o, ctx, f, name) {
        return;
    }
    let gate = present(f, "sbe_av");
    // The presence test.
    let null_test = |x: &str| -> Option<String> {
        if !f.is_nullable() {
            return None;
        }
        match &f.kind {
            Kind::Prim(p) => Some(d.is_null(x, &p.null, p.ty)),
            Kind::Enum { ty, .. } => {
                let e = &ctx.plan.enums[ty];
                Some(d.is_null(x, &e.null, e.ty))
            }
            _ => None,
        }
    };
    if f.may_be_absent() {
        o.doc(&format!(
            "True if `{}` holds a value: it is on the wire at the acting version{}.",
            f.name,
            if f.is_nullable() {
                " and is not its null value"
            } else {
                ""
            }
        ));
        let value = match &f.kind {
            Kind::Enum { .. } => format!("{}()", raw(n)),
            Kind::Prim(p) if p.len == 1 => format!("{name}()"),
            _ => String::new(),
        };
        let mut conds = Vec::new();
        if let Some(g) = &gate {
            conds.push(g.clone());
        }
        if let Some(t) = null_test(&value) {
            conds.push(format!("!({t})"));
        }
        if conds.is_empty() {
            conds.push("true".into());
        }
        o.line(&format!(
            "public {} {}() {{ return {}; }}",
            d.boolean(),
            n.has,
            conds.join(" && ")
        ));
    }
    match &f.kind {
        Kind::Prim(p) => {
            let t = d.ty(p.ty);
            o.doc(&format!("The null value of `{}`.", f.name));
            o.line(&format!(
                "public static {t} {}() {{ return {}; }}",
                n.null,
                d.literal(&p.null, p.ty)
            ));
            let null = d.literal(&p.null, p.ty);
            if p.len == 1 {
                doc(o, ctx, f, "field");
                let load = d.load(p.ty, "sbe_b", &pos);
                match &gate {
                    Some(g) => o.line(&format!(
                        "public {t} {name}() {{ return {g} ? {load} : {null}; }}"
                    )),
                    None => o.line(&format!("public {t} {name}() {{ return {load}; }}")),
                }
            } else {
                array_getters(o, ctx, f, n, &pos, gate.as_deref());
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            let t = d.ty(e.ty);
            o.doc(&format!(
                "The raw value of `{}` (values the schema does not list are kept).",
                f.name
            ));
            let load = d.load(e.ty, "sbe_b", &pos);
            match &gate {
                Some(g) => o.line(&format!(
                    "public {t} {}() {{ return {g} ? {load} : {}; }}",
                    raw(n),
                    d.literal(&e.null, e.ty)
                )),
                None => o.line(&format!("public {t} {}() {{ return {load}; }}", raw(n))),
            }
            doc(o, ctx, f, d.enum_getter_doc());
            o.line(&format!(
                "public {} {name}() {{ return {}; }}",
                en.ty,
                d.enum_of_raw(&en.ty, &format!("{}()", raw(n)))
            ));
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            let (cls, _) = flyweights(ctx, f).unwrap_or_default();
            let av = if matches!(f.kind, Kind::Composite { .. }) {
                ", sbe_av"
            } else {
                ""
            };
            o.line(&format!(
                "private {} {cls} sbe_f{i} = new {cls}();",
                d.readonly()
            ));
            doc(o, ctx, f, "field (a flyweight, reused)");
            let wrap = d.member("wrap");
            match &gate {
                Some(g) => o.line(&format!(
                    "public {cls} {name}() {{ return {g} ? sbe_f{i}.{wrap}(sbe_b, {pos}{av}) : sbe_f{i}.{wrap}(SbeSchema.{}, 0{av}); }}",
                    d.konst("ABSENT")
                )),
                None => o.line(&format!(
                    "public {cls} {name}() {{ return sbe_f{i}.{wrap}(sbe_b, {pos}{av}); }}"
                )),
            }
        }
    }
}

/// The getters of an array field at `pos`: its length, an element, and for a char array a
/// copy out and its text.
fn array_getters(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, pos: &str, gate: Option<&str>) {
    let Kind::Prim(p) = &f.kind else {
        return;
    };
    let d = ctx.d;
    let (t, fin) = (d.ty(p.ty), d.fixed());
    let w = p.ty.size();
    let null = d.literal(&p.null, p.ty);
    let name = &n.name;
    o.doc(&format!("Elements in `{}`.", f.name));
    o.line(&format!(
        "public static int {}() {{ return {}; }}",
        n.length, p.len
    ));
    doc(o, ctx, f, "array: element `index`");
    o.line(&format!("public {t} {name}({fin}int index) {{"));
    o.line(&d.check_index(p.len));
    if let Some(g) = gate {
        o.line(&format!("if (!({g})) return {null};"));
    }
    o.line(&format!(
        "return {};",
        d.load(p.ty, "sbe_b", &format!("{pos} + index * {w}"))
    ));
    o.line("}");
    if p.ty != P::Char {
        return;
    }
    o.doc(&format!("Copies all {} bytes of `{}` (NULs included) into `dst` at `dstOffset`; the number copied (0 when absent).", p.len, f.name));
    o.line(&format!(
        "public int {}({fin}byte[] dst, {fin}int dstOffset) {{",
        n.get
    ));
    if let Some(g) = gate {
        o.line(&format!("if (!({g})) return 0;"));
    }
    o.line(&format!(
        "{};",
        d.copy_out(pos, "dst", "dstOffset", &p.len.to_string())
    ));
    o.line(&format!("return {};", p.len));
    o.line("}");
    let utf8 = utf8_declared(p.char_encoding.as_deref());
    o.doc(&format!(
        "The text of `{}` up to its first NUL, decoded as {} (allocates).",
        f.name,
        d.charset(utf8)
    ));
    o.line(&format!("public {} {}() {{", d.string(), n.string));
    if let Some(g) = gate {
        o.line(&format!("if (!({g})) return \"\";"));
    }
    d.fixed_text(o, pos, p.len, utf8);
    o.line("}");
}

/// Emits the setter(s) of field number `i` on encoder class `cls`; `versioned`: the encoder
/// writes a version `sbe_v` and skips fields newer than it; `set_bit`: the field's bit in the
/// encoder's `sbe_set` when its zeroing is deferred.
#[allow(clippy::too_many_arguments)]
pub fn setter(
    o: &mut Out,
    ctx: &Ctx,
    cls: &str,
    i: usize,
    f: &Field,
    n: &FieldNames,
    versioned: bool,
    set_bit: Option<usize>,
) {
    if f.is_constant() {
        return;
    }
    let d = ctx.d;
    let fin = d.fixed();
    let name = &n.name;
    let pos = format!("sbe_p + {}", f.offset);
    let skip = if versioned && f.since > 0 {
        Some(format!("sbe_v < {}", f.since))
    } else {
        None
    };
    let head = |o: &mut Out| {
        if let Some(s) = &skip {
            o.line(&format!("if ({s}) return this;"));
        }
    };
    let desc = f
        .description
        .clone()
        .unwrap_or_else(|| format!("Sets the `{}` field.", f.name));
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => {
            o.doc(&desc);
            d.hot(o);
            o.line(&format!(
                "public {cls} {name}({fin}{} value) {{",
                d.ty(p.ty)
            ));
            head(o);
            o.line(&format!("{};", d.store(p.ty, "sbe_b", &pos, "value")));
            mark_set(o, set_bit);
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            let w = p.ty.size();
            o.doc(&format!("{desc}\nElement `index`."));
            d.hot(o);
            o.line(&format!(
                "public {cls} {name}({fin}int index, {fin}{} value) {{",
                d.ty(p.ty)
            ));
            o.line(&d.check_index(p.len));
            head(o);
            o.line(&format!(
                "{};",
                d.store(p.ty, "sbe_b", &format!("{pos} + index * {w}"), "value")
            ));
            o.line("return this;");
            o.line("}");
            if p.ty != P::Char {
                return;
            }
            let len = p.len;
            let too_long = d.encode_error("VALUE_TOO_LONG", &d.str_lit(&f.name));
            o.doc(&format!("{desc}\nFrom `length` bytes of `src` at `srcOffset`, padded with NULs; more than {len} bytes is an error (`VALUE_TOO_LONG`)."));
            d.hot(o);
            o.line(&format!(
                "public {cls} {}({fin}byte[] src, {fin}int srcOffset, {fin}int length) {{",
                n.put
            ));
            o.line(&format!("if (length < 0 || length > {len}) {too_long}"));
            head(o);
            o.line(&format!(
                "{};",
                d.copy_in(&pos, "src", "srcOffset", "length")
            ));
            // A loop: the padding is short.
            o.line(&format!(
                "for (int sbe_i = length; sbe_i < {len}; sbe_i++) {};",
                d.put_byte(&format!("{pos} + sbe_i"), d.zero_byte())
            ));
            o.line("return this;");
            o.line("}");
            let utf8 = utf8_declared(p.char_encoding.as_deref());
            o.doc(&format!(
                "{desc}\nFrom text ({}), padded with NULs; longer text is an error (`VALUE_TOO_LONG`).",
                text_encoding(utf8)
            ));
            if text_setter(o, ctx, cls, name, &n.put, utf8) {
                o.line(&format!("{fin}int sbe_n = {};", d.text_length("value")));
                o.line(&format!("if (sbe_n > {len}) {too_long}"));
                head(o);
                o.line(&format!("for (int sbe_i = 0; sbe_i < {len}; sbe_i++) {{"));
                o.line(&format!(
                    "{fin}char sbe_c = sbe_i < sbe_n ? {} : {};",
                    d.char_at("value", "sbe_i"),
                    d.nul_char()
                ));
                o.line(&format!(
                    "{};",
                    d.put_byte(
                        &format!("{pos} + sbe_i"),
                        "(byte) (sbe_c > 0xFF ? '?' : sbe_c)"
                    )
                ));
                o.line("}");
                o.line("return this;");
            }
            o.line("}");
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            let t = d.ty(e.ty);
            o.doc(&desc);
            d.hot(o);
            o.line(&format!(
                "public {cls} {name}({fin}{} value) {{ return {}({}); }}",
                en.ty,
                raw(n),
                d.raw_of_enum(e.ty)
            ));
            o.doc(&format!(
                "{desc}\nAs a raw value (any value, listed or not)."
            ));
            d.hot(o);
            o.line(&format!("public {cls} {}({fin}{t} value) {{", raw(n)));
            head(o);
            o.line(&format!("{};", d.store(e.ty, "sbe_b", &pos, "value")));
            mark_set(o, set_bit);
            o.line("return this;");
            o.line("}");
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            let (_, c) = flyweights(ctx, f).unwrap_or_default();
            o.line(&format!(
                "private {} {c} sbe_f{i} = new {c}();",
                d.readonly()
            ));
            o.doc(&format!(
                "The `{}` field, to set in place (a flyweight, reused){}.",
                f.name,
                if skip.is_some() {
                    "; writes to a scratch buffer when the version written is older than the field"
                } else {
                    ""
                }
            ));
            let wrap = d.member("wrap");
            d.hot(o);
            match &skip {
                Some(s) => o.line(&format!(
                    "public {c} {name}() {{ return {s} ? sbe_f{i}.{wrap}({}(), 0) : sbe_f{i}.{wrap}(sbe_b, {pos}); }}",
                    d.scratch_method()
                )),
                None => o.line(&format!(
                    "public {c} {name}() {{ return sbe_f{i}.{wrap}(sbe_b, {pos}); }}"
                )),
            }
        }
    }
}

/// Notes in `sbe_set` that a field whose zeroing is deferred was written (see
/// `messages::encoders::deferred`).
fn mark_set(o: &mut Out, set_bit: Option<usize>) {
    if let Some(k) = set_bit {
        o.line(&format!("sbe_set |= 1L << {k};"));
    }
}

/// How a text setter writes text, for its documentation.
pub fn text_encoding(utf8: bool) -> &'static str {
    if utf8 {
        "encoded as UTF-8; allocates"
    } else {
        "one byte per char, chars above U+00FF written as `?`"
    }
}

/// A text setter `name` of class `cls`: its opening line and, for UTF-8, its body (the text's
/// bytes written through `put`); true if the body is left to the caller (one byte per char).
pub fn text_setter(o: &mut Out, ctx: &Ctx, cls: &str, name: &str, put: &str, utf8: bool) -> bool {
    let d = ctx.d;
    o.line(&format!("public {cls} {name}({} value) {{", d.text_param()));
    if utf8 {
        o.line(d.utf8_bytes());
        o.line(&format!("return {put}(sbe_t, 0, sbe_t.{});", d.length()));
    }
    !utf8
}

/// True if the encoder of these fields needs a scratch buffer (a set or composite field newer
/// than version 0).
pub fn needs_scratch(fields: &[Field]) -> bool {
    fields
        .iter()
        .any(|f| f.since > 0 && matches!(f.kind, Kind::Set { .. } | Kind::Composite { .. }))
}
