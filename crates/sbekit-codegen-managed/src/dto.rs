//! Owned values (DTOs), with the reference's method shapes: a class per set, composite, message
//! and group entry (`CarDto`, `CarDto.FuelFiguresDto`) holding what the decoders read, with
//! accessors (`serialNumber()`, `serialNumber(v)`, setters validating), groups as lists, var
//! data as text or bytes, `decodeWith(decoder, dto)`, `encodeWith(encoder, dto)`, a message's
//! `decodeFrom`, `encodeWith(dto, buffer, offset)`, `encodeWithHeaderWith` and
//! `computeEncodedLength()`, and `equals`, `hashCode` and a readable `toString`.
//!
//! A DTO keeps every bit the decoders read, so that it writes the bytes the flyweights'
//! re-encoding writes: enums and sets as raw values, char arrays and var data as bytes (their
//! text accessors decode them), and a message's acting version, at which `encodeWithHeaderWith`
//! writes it (an older writer's message is written back at its version, through the encoders'
//! versioned `wrap`, exactly as the dispatcher's `reencode`). Decoding never validates (it keeps
//! what is on the wire); setters do (the plan's bounds, valid enum values, text lengths, group
//! counts), and encoding checks the group counts again (lists are mutable).

use crate::names::DtoClass;
use crate::{Ctx, Dialect, Out};
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::json::utf8_declared;
use sbekit_plan::names::{BodyNames, FieldNames};
use sbekit_plan::{Body, Field, Kind, Message, Section};

/// Every DTO file: `(class name, source)`: sets, composites, then messages (entries nested).
pub fn dtos(ctx: &Ctx, dn: &crate::names::DtoNames) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, s) in &ctx.plan.sets {
        out.push((dn.sets[k].class.clone(), set_dto(ctx, k, s, &dn.sets[k])));
    }
    for k in ctx.plan.composites.keys() {
        out.push((
            dn.composites[k].class.clone(),
            composite_dto(ctx, dn, k, &dn.composites[k]),
        ));
    }
    let imports = [ctx.d.reader_import(), ctx.d.writer_import()];
    for ((m, n), c) in ctx
        .plan
        .messages
        .iter()
        .zip(&ctx.n.messages)
        .zip(&dn.messages)
    {
        let mut o = ctx.out();
        ctx.head(&mut o, &imports);
        let at = At {
            dec: n.dec.clone(),
            enc: n.enc.clone(),
            msg: Some(m),
        };
        body_dto(&mut o, ctx, dn, &m.body, n, c, &at);
        ctx.tail(&mut o);
        out.push((c.class.clone(), o.s));
    }
    out
}

/// Where a body's DTO stands: its decoder and encoder classes (qualified) and, for a message,
/// the message.
struct At<'a> {
    dec: String,
    enc: String,
    msg: Option<&'a Message>,
}

/// The exception a setter throws for a value it refuses, with message expression `msg`.
fn refuse(d: &dyn Dialect, msg: &str) -> String {
    format!("throw new {}({msg});", d.word("IllegalArgumentException"))
}

/// A string literal of `what` followed by `: `, for an error message.
fn label(d: &dyn Dialect, what: &str) -> String {
    d.str_lit(&format!("{what}: "))
}

/// The storage of field `i`.
fn slot(i: usize) -> String {
    format!("sbe_f{i}")
}

/// The owned type of a non-constant field and its initial value.
fn field_ty(ctx: &Ctx, dn: &crate::names::DtoNames, f: &Field) -> (String, String) {
    let d = ctx.d;
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => {
            let t = d.ty(p.ty).to_string();
            let init = if f.may_be_absent() {
                d.literal(&p.null, p.ty)
            } else {
                d.literal(&zero(p.ty), p.ty)
            };
            (t, init)
        }
        Kind::Prim(p) => {
            let t = if p.ty == P::Char { "byte" } else { d.ty(p.ty) };
            (format!("{t}[]"), format!("new {t}[{}]", p.len))
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            (d.ty(e.ty).to_string(), d.literal(&e.null, e.ty))
        }
        Kind::Set { ty } => {
            let c = &dn.sets[ty].class;
            (c.clone(), format!("new {c}()"))
        }
        Kind::Composite { ty } => {
            let c = &dn.composites[ty].class;
            (c.clone(), format!("new {c}()"))
        }
    }
}

/// The value 0 of a type.
fn zero(ty: P) -> PrimitiveValue {
    match ty {
        P::Float | P::Double => PrimitiveValue::Float(0.0),
        P::Int8 | P::Int16 | P::Int32 | P::Int64 | P::Char => PrimitiveValue::Int(0),
        _ => PrimitiveValue::UInt(0),
    }
}

/// The statements that refuse `x` (a value of `f`'s element type) outside the plan's bounds
/// ([`Field::range`]; where the language's type is wider, also outside the wire type's); an
/// optional scalar's null value is allowed.
fn range_checks(ctx: &Ctx, f: &Field, x: &str, what: &str) -> Vec<String> {
    let d = ctx.d;
    let Kind::Prim(p) = &f.kind else {
        return Vec::new();
    };
    let (lo, hi) = f
        .range
        .as_ref()
        .map_or((None, None), |r| (r.min.as_ref(), r.max.as_ref()));
    let wire = wire_extremes(p.ty);
    let lo = lo
        .cloned()
        .or_else(|| d.widened(p.ty).then(|| wire.0.clone()));
    let hi = hi
        .cloned()
        .or_else(|| d.widened(p.ty).then(|| wire.1.clone()));
    let allow_null = if f.may_be_absent() && p.len == 1 {
        format!("!({}) && ", d.is_null(x, &p.null, p.ty))
    } else {
        String::new()
    };
    let mut out = Vec::new();
    for (bound, op, word) in [
        (lo, "<", "below the minimum"),
        (hi, ">", "above the maximum"),
    ] {
        if let Some(b) = bound {
            let lit = d.literal(&b, p.ty);
            out.push(format!(
                "if ({allow_null}{}) {}",
                d.compare(p.ty, x, op, &lit),
                refuse(
                    d,
                    &format!(
                        "{} + {} + {} + {lit}",
                        label(d, what),
                        d.value_text(p.ty, x),
                        d.str_lit(&format!(" is {word} "))
                    )
                )
            ));
        }
    }
    out
}

/// The smallest and largest values of a wire type (for a language whose type is wider).
fn wire_extremes(ty: P) -> (PrimitiveValue, PrimitiveValue) {
    let u = |bits: u32| {
        PrimitiveValue::UInt(if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        })
    };
    match ty {
        P::Uint8 | P::None | P::Char => (PrimitiveValue::UInt(0), u(8)),
        P::Uint16 => (PrimitiveValue::UInt(0), u(16)),
        P::Uint32 => (PrimitiveValue::UInt(0), u(32)),
        _ => (PrimitiveValue::UInt(0), u(64)),
    }
}

/// The accessors of a non-constant field `i`: getter, validating setter, the presence test
/// of a scalar or enum that may hold no value, a char array's text and bytes.
#[allow(clippy::too_many_arguments)]
fn field_accessors(
    o: &mut Out,
    ctx: &Ctx,
    dn: &crate::names::DtoNames,
    cls: &str,
    i: usize,
    f: &Field,
    n: &FieldNames,
    bytes: &str,
    path: &str,
) {
    let d = ctx.d;
    let fin = d.fixed();
    let s = slot(i);
    let name = &n.name;
    let what = format!("{path}.{}", f.name);
    let (ty, _) = field_ty(ctx, dn, f);
    let desc = f.description.clone().unwrap_or_default();
    let setter_head = |o: &mut Out, t: &str, doc: &str| {
        o.doc(doc);
        o.line(&format!("public {cls} {name}({fin}{t} value) {{"));
    };
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => {
            if f.may_be_absent() {
                o.doc(&format!(
                    "True if `{}` holds a value (not its null value, `{}()`, which an optional field or one newer than the acting version holds).",
                    f.name, n.null
                ));
                o.line(&format!(
                    "public {} {}() {{ return !({}); }}",
                    d.boolean(),
                    n.has,
                    d.is_null(&s, &p.null, p.ty)
                ));
                o.doc(&format!("The null value of `{}`.", f.name));
                o.line(&format!(
                    "public static {ty} {}() {{ return {}; }}",
                    n.null,
                    d.literal(&p.null, p.ty)
                ));
            }
            o.doc(&format!("{desc}\nThe `{}` field.", f.name));
            o.line(&format!("public {ty} {name}() {{ return {s}; }}"));
            setter_head(
                o,
                &ty,
                &format!(
                    "Sets `{}`; a value outside its range is refused (`{}`){}.",
                    f.name,
                    d.word("IllegalArgumentException"),
                    if f.may_be_absent() {
                        ", its null value (no value) allowed"
                    } else {
                        ""
                    }
                ),
            );
            for l in range_checks(ctx, f, "value", &what) {
                o.line(&l);
            }
            o.line(&format!("{s} = value;"));
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) if p.ty == P::Char => {
            let utf8 = utf8_declared(p.char_encoding.as_deref());
            let len = p.len;
            o.doc(&format!(
                "{desc}\nThe `{}` text, up to its first NUL ({}).",
                f.name,
                d.charset(utf8)
            ));
            o.line(&format!("public {} {name}() {{", d.string()));
            o.line("int sbe_n = 0;");
            o.line(&format!(
                "while (sbe_n < {len} && {s}[sbe_n] != 0) sbe_n++;"
            ));
            o.line(&format!("return {};", d.text_of(&s, "sbe_n", utf8)));
            o.line("}");
            setter_head(
                o,
                d.string(),
                &format!(
                    "Sets the `{}` text ({}), padded with NULs; text longer than {len} bytes is refused (`{}`).",
                    f.name,
                    d.charset(utf8),
                    d.word("IllegalArgumentException")
                ),
            );
            text_bytes(o, ctx, utf8, &what);
            o.line(&too_long(d, "sbe_t", len as u64, "bytes", &what));
            fill_array(o, d, &s, "sbe_t", len);
            o.line("return this;");
            o.line("}");
            o.doc(&format!(
                "All {len} bytes of `{}` (NULs included): the array itself.",
                f.name
            ));
            o.line(&format!("public byte[] {bytes}() {{ return {s}; }}"));
            o.doc(&format!(
                "Sets the bytes of `{}`, padded with NULs; more than {len} is refused.",
                f.name
            ));
            o.line(&format!("public {cls} {bytes}({fin}byte[] value) {{"));
            if let Some(c) = d.require_non_null("value", &what) {
                o.line(&c);
            }
            o.line(&too_long(d, "value", len as u64, "bytes", &what));
            fill_array(o, d, &s, "value", len);
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            let len = p.len;
            o.doc(&format!(
                "{desc}\nThe `{}` array (all {len} elements): the array itself.",
                f.name
            ));
            o.line(&format!("public {ty} {name}() {{ return {s}; }}"));
            setter_head(
                o,
                &ty,
                &format!(
                    "Sets the `{}` array: up to {len} elements (the rest 0), each in range; otherwise refused (`{}`).",
                    f.name,
                    d.word("IllegalArgumentException")
                ),
            );
            if let Some(c) = d.require_non_null("value", &what) {
                o.line(&c);
            }
            o.line(&too_long(d, "value", len as u64, "elements", &what));
            let checks = range_checks(ctx, f, "value[sbe_i]", &what);
            if !checks.is_empty() {
                o.line(&format!(
                    "for (int sbe_i = 0; sbe_i < value.{}; sbe_i++) {{",
                    d.length()
                ));
                for l in checks {
                    o.line(&l);
                }
                o.line("}");
            }
            fill_array(o, d, &s, "value", len);
            o.line("return this;");
            o.line("}");
        }
        Kind::Enum { ty: et, .. } => {
            let e = &ctx.plan.enums[et];
            let en = &ctx.n.enums[et];
            let raw = n.raw.as_deref().unwrap_or_default();
            let rt = d.ty(e.ty);
            if f.may_be_absent() {
                o.doc(&format!(
                    "True if `{}` holds a value (not the enum's null value).",
                    f.name
                ));
                o.line(&format!(
                    "public {} {}() {{ return !({}); }}",
                    d.boolean(),
                    n.has,
                    d.is_null(&s, &e.null, e.ty)
                ));
            }
            o.doc(&format!("{desc}\nThe `{}` field.", f.name));
            o.line(&format!(
                "public {} {name}() {{ return {}; }}",
                en.ty,
                d.enum_of_raw(&en.ty, &s)
            ));
            o.doc(&format!("The raw value of `{}`.", f.name));
            o.line(&format!("public {rt} {raw}() {{ return {s}; }}"));
            setter_head(
                o,
                &en.ty,
                &format!(
                    "Sets `{}` (the null value allowed); a value the schema does not list is refused (`{}`).",
                    f.name,
                    d.word("IllegalArgumentException")
                ),
            );
            for l in d.enum_setter(en, e.ty, raw, &what) {
                o.line(&l);
            }
            o.line("}");
            o.doc(&format!(
                "Sets the raw value of `{}`: a listed value or the null value, else refused (`{}`).",
                f.name,
                d.word("IllegalArgumentException")
            ));
            o.line(&format!("public {cls} {raw}({fin}{rt} value) {{"));
            let mut ok: Vec<String> = e
                .values
                .iter()
                .map(|(_, v, _)| format!("value == {}", d.literal(v, e.ty)))
                .collect();
            ok.push(format!("value == {}", d.literal(&e.null, e.ty)));
            o.line(&format!(
                "if (!({})) {}",
                ok.join(" || "),
                refuse(
                    d,
                    &format!(
                        "{} + {} + {}",
                        label(d, &what),
                        d.value_text(e.ty, "value"),
                        d.str_lit(" is not a value of the enum")
                    )
                )
            ));
            o.line(&format!("{s} = value;"));
            o.line("return this;");
            o.line("}");
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            o.doc(&format!(
                "{desc}\nThe `{}` field (the value itself).",
                f.name
            ));
            o.line(&format!("public {ty} {name}() {{ return {s}; }}"));
            setter_head(o, &ty, &format!("Sets `{}`.", f.name));
            if let Some(c) = d.require_non_null("value", &what) {
                o.line(&c);
            }
            o.line(&format!("{s} = value;"));
            o.line("return this;");
            o.line("}");
        }
    }
}

/// The statement refusing array `v` of more than `max` elements (`unit`).
fn too_long(d: &dyn Dialect, v: &str, max: u64, unit: &str, what: &str) -> String {
    let len = d.length();
    let msg = format!(
        "{} + {v}.{len} + {}",
        label(d, what),
        d.str_lit(&format!(" {unit}, more than {max}"))
    );
    format!("if ({v}.{len} > {max}) {}", refuse(d, &msg))
}

/// Declares `sbe_t`, the bytes of text `value` (UTF-8, or one byte per char: a char above
/// U+00FF is refused).
fn text_bytes(o: &mut Out, ctx: &Ctx, utf8: bool, what: &str) {
    let d = ctx.d;
    if let Some(c) = d.require_non_null("value", what) {
        o.line(&c);
    }
    if utf8 {
        o.line(d.utf8_bytes());
        return;
    }
    let n = d.text_length("value");
    o.line(&format!("{}byte[] sbe_t = new byte[{n}];", d.fixed()));
    o.line(&format!("for (int sbe_i = 0; sbe_i < {n}; sbe_i++) {{"));
    o.line(&format!(
        "{}char sbe_c = {};",
        d.fixed(),
        d.char_at("value", "sbe_i")
    ));
    o.line(&format!(
        "if (sbe_c > 0xFF) {}",
        refuse(
            d,
            &format!(
                "{} + {}",
                label(d, what),
                d.str_lit("a char above U+00FF has no Latin-1 byte")
            )
        )
    ));
    o.line("sbe_t[sbe_i] = (byte) sbe_c;");
    o.line("}");
}

/// Copies `src` into the array `dst` of `len` elements, the rest zero.
fn fill_array(o: &mut Out, d: &dyn Dialect, dst: &str, src: &str, len: usize) {
    // Two loops, not a conditional: C# types `c ? aByte : 0` as an `int`.
    let n = format!("{src}.{}", d.length());
    o.line(&format!(
        "for (int sbe_i = 0; sbe_i < {n}; sbe_i++) {dst}[sbe_i] = {src}[sbe_i];"
    ));
    o.line(&format!(
        "for (int sbe_i = {n}; sbe_i < {len}; sbe_i++) {dst}[sbe_i] = 0;"
    ));
}

/// The statement copying field `i` from `decoder` into `dto` (`decode`), or writing it from
/// `dto` with `encoder`.
fn copy_field(
    dn: &crate::names::DtoNames,
    i: usize,
    f: &Field,
    n: &FieldNames,
    decode: bool,
) -> String {
    let s = format!("dto.{}", slot(i));
    let (name, raw) = (&n.name, n.raw.as_deref().unwrap_or_default());
    let dto_class = |c: &DtoClass| {
        let (via, f) = if decode {
            ("decoder", &c.decode_with)
        } else {
            ("encoder", &c.encode_with)
        };
        format!("{}.{f}({via}.{name}(), {s});", c.class)
    };
    match (&f.kind, decode) {
        (Kind::Prim(p), true) if p.len == 1 => format!("{s} = decoder.{name}();"),
        (Kind::Prim(p), false) if p.len == 1 => format!("encoder.{name}({s});"),
        (Kind::Prim(p), true) => format!(
            "for (int sbe_i = 0; sbe_i < {}; sbe_i++) {s}[sbe_i] = decoder.{name}(sbe_i);",
            p.len
        ),
        (Kind::Prim(p), false) => format!(
            "for (int sbe_i = 0; sbe_i < {}; sbe_i++) encoder.{name}(sbe_i, {s}[sbe_i]);",
            p.len
        ),
        (Kind::Enum { .. }, true) => format!("{s} = decoder.{raw}();"),
        (Kind::Enum { .. }, false) => format!("encoder.{raw}({s});"),
        (Kind::Set { ty }, _) => dto_class(&dn.sets[ty]),
        (Kind::Composite { ty }, _) => dto_class(&dn.composites[ty]),
    }
}

/// `that` holds what this holds: the condition on field `i`.
fn field_equal(ctx: &Ctx, i: usize, f: &Field) -> String {
    let d = ctx.d;
    let (a, b) = (slot(i), format!("that.{}", slot(i)));
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => d.value_equal(p.ty, &a, &b),
        Kind::Prim(_) => d.arrays_equal(&a, &b),
        Kind::Enum { ty, .. } => d.value_equal(ctx.plan.enums[ty].ty, &a, &b),
        Kind::Set { .. } | Kind::Composite { .. } => format!("{a}.{}({b})", d.member("equals")),
    }
}

/// The hash of field `i`.
fn field_hash(ctx: &Ctx, i: usize, f: &Field) -> String {
    let d = ctx.d;
    let a = slot(i);
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => d.value_hash(p.ty, &a),
        Kind::Prim(_) => d.array_hash(&a),
        Kind::Enum { ty, .. } => d.value_hash(ctx.plan.enums[ty].ty, &a),
        Kind::Set { .. } | Kind::Composite { .. } => d.hash_of(&a),
    }
}

/// The readable text of field `i` (for `toString`).
fn field_text(ctx: &Ctx, i: usize, f: &Field, n: &FieldNames) -> String {
    let d = ctx.d;
    let a = slot(i);
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => d.value_text(p.ty, &a),
        Kind::Prim(p) if p.ty == P::Char => format!("'\"' + {}() + '\"'", n.name),
        Kind::Prim(_) => d.array_text(&a),
        Kind::Enum { .. } => format!("{}()", n.name),
        Kind::Set { .. } | Kind::Composite { .. } => a,
    }
}

/// `equals` and `hashCode` over `eq` (`(condition, hash)` per member) and `toString` over
/// `text` (`(key, text)` per member).
fn object_methods(
    o: &mut Out,
    ctx: &Ctx,
    cls: &str,
    eq: &[(String, String)],
    text: &[(String, String)],
) {
    let d = ctx.d;
    d.equals_head(o, cls);
    if eq.is_empty() {
        o.line("return true;");
    } else {
        let conds: Vec<&str> = eq.iter().map(|m| m.0.as_str()).collect();
        o.line(&format!("return {};", conds.join(" && ")));
    }
    o.line("}");
    d.hash_head(o);
    o.line("int sbe_h = 1;");
    for m in eq {
        o.line(&format!("sbe_h = 31 * sbe_h + {};", m.1));
    }
    o.line("return sbe_h;");
    o.line("}");
    d.dto_to_string_head(o);
    let append = d.member("append");
    o.line(&format!(
        "{}StringBuilder sbe_s = new StringBuilder({});",
        d.fixed(),
        d.str_lit(&format!("{cls}{{"))
    ));
    for (k, m) in text.iter().enumerate() {
        let key = if k == 0 {
            format!("{}=", m.0)
        } else {
            format!(", {}=", m.0)
        };
        o.line(&format!(
            "sbe_s.{append}({}).{append}({});",
            d.str_lit(&key),
            m.1
        ));
    }
    o.line(&format!(
        "return sbe_s.{append}('}}').{}();",
        d.member("toString")
    ));
    o.line("}");
}

/// Per member: `(condition, hash)` for equality, `(key, text)` for `toString`.
type Pairs = Vec<(String, String)>;

/// Splits `(condition, hash, key, text)` per member into [`object_methods`]' two lists.
fn split(ms: Vec<(String, String, String, String)>) -> (Pairs, Pairs) {
    ms.into_iter().map(|(a, b, c, d)| ((a, b), (c, d))).unzip()
}

/// A set's DTO: the raw value, a getter and setter per choice, `clear`.
fn set_dto(ctx: &Ctx, k: &str, s: &sbekit_plan::SetDef, c: &DtoClass) -> String {
    let d = ctx.d;
    let n = &ctx.n.sets[k];
    let (fin, t) = (d.fixed(), d.ty(s.ty));
    let cls = &c.class;
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(&format!(
        "An owned `{k}` bit set: a boolean per choice, over the raw value (unknown bits kept)."
    ));
    o.line(&format!("{} {cls} {{", d.class(false)));
    o.line(&format!("private {t} sbe_r;"));
    o.line("");
    o.doc("The raw value, unknown bits included.");
    o.line(&format!(
        "public {t} {}() {{ return sbe_r; }}",
        d.member("raw")
    ));
    o.doc("Sets the raw value (unknown bits included).");
    o.line(&format!(
        "public {cls} {}({fin}{t} value) {{",
        d.member("raw")
    ));
    o.line("sbe_r = value;");
    o.line("return this;");
    o.line("}");
    o.doc("Clears every bit.");
    o.line(&format!("public {cls} {}() {{", d.member("clear")));
    o.line(&format!("sbe_r = {};", d.literal(&zero(s.ty), s.ty)));
    o.line("return this;");
    o.line("}");
    for ((name, bit, doc), g) in s.choices.iter().zip(&n.choices) {
        let b = d.bit(*bit);
        o.doc(
            doc.as_deref()
                .unwrap_or(&format!("True if `{name}` is set.")),
        );
        o.line(&format!(
            "public {} {g}() {{ return ({} & {b}) != 0; }}",
            d.boolean(),
            d.as_bits("sbe_r")
        ));
        o.doc(&format!("Sets or clears `{name}`."));
        o.line(&format!("public {cls} {g}({fin}{} on) {{", d.boolean()));
        o.line(&format!(
            "sbe_r = {};",
            d.cast(
                s.ty,
                &format!(
                    "on ? ({} | {b}) : ({} & ~{b})",
                    d.as_bits("sbe_r"),
                    d.as_bits("sbe_r")
                )
            )
        ));
        o.line("return this;");
        o.line("}");
    }
    o.doc("Copies what `decoder` reads into `dto`.");
    o.line(&format!(
        "public static void {}({fin}{} decoder, {fin}{cls} dto) {{",
        c.decode_with, n.ty
    ));
    o.line(&format!("dto.sbe_r = decoder.{}();", d.member("raw")));
    o.line("}");
    o.doc("Writes `dto` with `encoder`.");
    o.line(&format!(
        "public static void {}({fin}{} encoder, {fin}{cls} dto) {{",
        c.encode_with, n.enc
    ));
    o.line(&format!("encoder.{}(dto.sbe_r);", d.member("raw")));
    o.line("}");
    let text: Vec<(String, String)> = s
        .choices
        .iter()
        .zip(&n.choices)
        .map(|((name, _, _), g)| (name.clone(), format!("{g}()")))
        .collect();
    let eq = [(
        d.value_equal(s.ty, "sbe_r", "that.sbe_r"),
        d.value_hash(s.ty, "sbe_r"),
    )];
    object_methods(&mut o, ctx, cls, &eq, &text);
    o.line("}");
    ctx.tail(&mut o);
    o.s
}

/// A composite's DTO.
fn composite_dto(ctx: &Ctx, dn: &crate::names::DtoNames, k: &str, c: &DtoClass) -> String {
    let d = ctx.d;
    let fin = d.fixed();
    let n = &ctx.n.composites[k];
    let members = ctx.plan.gated_members(k);
    let cls = &c.class;
    let mut o = ctx.out();
    ctx.head(&mut o, &[]);
    o.doc(&format!(
        "An owned `{k}` composite: what `{}` reads, held by value.",
        n.dec
    ));
    o.line(&format!("{} {cls} {{", d.class(false)));
    for (i, f) in members.iter().enumerate() {
        if f.is_constant() {
            continue;
        }
        let (t, init) = field_ty(ctx, dn, f);
        o.line(&format!("private {t} {} = {init};", slot(i)));
    }
    o.line("");
    for (i, (f, fname)) in members.iter().zip(&n.members).enumerate() {
        if f.is_constant() {
            continue;
        }
        field_accessors(&mut o, ctx, dn, cls, i, f, fname, &c.field_bytes[i], k);
    }
    o.doc("Copies what `decoder` reads into `dto`.");
    o.line(&format!(
        "public static void {}({fin}{} decoder, {fin}{cls} dto) {{",
        c.decode_with, n.dec
    ));
    for (i, (f, fname)) in members.iter().zip(&n.members).enumerate() {
        if !f.is_constant() {
            o.line(&copy_field(dn, i, f, fname, true));
        }
    }
    o.line("}");
    o.doc("Writes `dto` with `encoder`.");
    o.line(&format!(
        "public static void {}({fin}{} encoder, {fin}{cls} dto) {{",
        c.encode_with, n.enc
    ));
    for (i, (f, fname)) in members.iter().zip(&n.members).enumerate() {
        if !f.is_constant() {
            o.line(&copy_field(dn, i, f, fname, false));
        }
    }
    o.line("}");
    let ms: Vec<(String, String, String, String)> = members
        .iter()
        .zip(&n.members)
        .enumerate()
        .filter(|(_, (f, _))| !f.is_constant())
        .map(|(i, (f, fname))| {
            (
                field_equal(ctx, i, f),
                field_hash(ctx, i, f),
                f.name.clone(),
                field_text(ctx, i, f, fname),
            )
        })
        .collect();
    let (eq, text) = split(ms);
    object_methods(&mut o, ctx, cls, &eq, &text);
    o.line("}");
    ctx.tail(&mut o);
    o.s
}

/// The storage of section `i`.
fn sec(i: usize) -> String {
    format!("sbe_s{i}")
}

/// A message's or group entry's DTO class (entries nested in it).
#[allow(clippy::too_many_arguments)]
fn body_dto(
    o: &mut Out,
    ctx: &Ctx,
    dn: &crate::names::DtoNames,
    b: &Body,
    n: &BodyNames,
    c: &DtoClass,
    at: &At,
) {
    let d = ctx.d;
    let fin = d.fixed();
    let cls = &c.class;
    let path = b.path.join(".");
    let is_msg = at.msg.is_some();
    o.doc(&format!(
        "{}\nAn owned `{path}` {}: what `{}` reads, held by value (groups as lists, var data as bytes or text); setters refuse values outside the schema's ranges.",
        b.description.as_deref().unwrap_or(""),
        if is_msg { "message" } else { "group entry" },
        n.dec
    ));
    o.line(&format!("{} {cls} {{", d.class(!is_msg)));
    if is_msg {
        o.line(&format!(
            "private long sbe_av = SbeSchema.{};",
            d.konst("SCHEMA_VERSION")
        ));
    }
    for (i, f) in b.fields.iter().enumerate() {
        if f.is_constant() {
            continue;
        }
        let (t, init) = field_ty(ctx, dn, f);
        o.line(&format!("private {t} {} = {init};", slot(i)));
    }
    let mut gi = 0;
    for (i, s) in b.sections.iter().enumerate() {
        match s {
            Section::Group { .. } => {
                let e = &c.children[gi].class;
                gi += 1;
                o.line(&format!(
                    "private {} {} = {};",
                    d.list_of(e),
                    sec(i),
                    d.new_list(e)
                ));
            }
            Section::Var { .. } => o.line(&format!("private byte[] {} = new byte[0];", sec(i))),
        }
    }
    o.line("");
    if is_msg {
        let av = &c.acting_version;
        o.doc("The schema version the message is written at: `SCHEMA_VERSION`, or an older writer's (kept by `decodeWith`); `encodeWithHeaderWith` writes that version's blocks and sections.");
        o.line(&format!("public long {av}() {{ return sbe_av; }}"));
        o.doc("Sets the version the message is written at (not negative).");
        o.line(&format!("public {cls} {av}({fin}long value) {{"));
        o.line(&format!(
            "if (value < 0) {}",
            refuse(
                d,
                &format!("{} + value", label(d, &format!("{path} acting version")))
            )
        ));
        o.line("sbe_av = value;");
        o.line("return this;");
        o.line("}");
    }
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        if f.is_constant() {
            continue;
        }
        field_accessors(o, ctx, dn, cls, i, f, fname, &c.field_bytes[i], &path);
    }
    // Sections.
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let name = &sn.name;
        let st = sec(i);
        let what = format!("{path}.{}", s.name());
        match s {
            Section::Group { count, .. } => {
                let e = &c.children[gi].class;
                gi += 1;
                let lt = d.list_of(e);
                o.doc(&format!(
                    "{}\nThe `{}` group's entries (the list itself).",
                    s.description().map_or("", |x| x.as_str()),
                    s.name()
                ));
                o.line(&format!("public {lt} {name}() {{ return {st}; }}"));
                o.doc(&format!(
                    "Sets the `{}` group's entries; more than {} (its count type's maximum) is refused (`{}`).",
                    s.name(),
                    count.max,
                    d.word("IllegalArgumentException")
                ));
                o.line(&format!("public {cls} {name}({fin}{lt} value) {{"));
                if let Some(r) = d.require_non_null("value", &what) {
                    o.line(&r);
                }
                o.line(&count_check(d, "value", count.max, &what));
                o.line(&format!("{st} = value;"));
                o.line("return this;");
                o.line("}");
            }
            Section::Var {
                len, char_encoding, ..
            } => {
                let max = len.max;
                let too_long =
                    |v: &str| (max < i32::MAX as u64).then(|| too_long(d, v, max, "bytes", &what));
                let desc = s.description().map_or("", |x| x.as_str());
                let bytes_name = if char_encoding.is_some() {
                    c.section_bytes[i].clone()
                } else {
                    name.clone()
                };
                if let Some(enc) = char_encoding {
                    let utf8 = utf8_declared(Some(enc));
                    o.doc(&format!(
                        "{desc}\nThe `{}` data as text ({}).",
                        s.name(),
                        d.charset(utf8)
                    ));
                    o.line(&format!(
                        "public {} {name}() {{ return {}; }}",
                        d.string(),
                        d.text_of(&st, &format!("{st}.{}", d.length()), utf8)
                    ));
                    o.doc(&format!(
                        "Sets the `{}` data from text ({}); more than {max} bytes is refused (`{}`).",
                        s.name(),
                        d.charset(utf8),
                        d.word("IllegalArgumentException")
                    ));
                    o.line(&format!(
                        "public {cls} {name}({fin}{} value) {{",
                        d.string()
                    ));
                    text_bytes(o, ctx, utf8, &what);
                    if let Some(t) = too_long("sbe_t") {
                        o.line(&t);
                    }
                    o.line(&format!("{st} = sbe_t;"));
                    o.line("return this;");
                    o.line("}");
                }
                o.doc(&format!(
                    "{desc}\nThe `{}` data's bytes (the array itself).",
                    s.name()
                ));
                o.line(&format!("public byte[] {bytes_name}() {{ return {st}; }}"));
                o.doc(&format!(
                    "Sets the `{}` data's bytes (kept, not copied); more than {max} is refused (`{}`).",
                    s.name(),
                    d.word("IllegalArgumentException")
                ));
                o.line(&format!("public {cls} {bytes_name}({fin}byte[] value) {{"));
                if let Some(r) = d.require_non_null("value", &what) {
                    o.line(&r);
                }
                if let Some(t) = too_long("value") {
                    o.line(&t);
                }
                o.line(&format!("{st} = value;"));
                o.line("return this;");
                o.line("}");
            }
        }
    }
    // decodeWith.
    o.doc(
        "Copies what `decoder` reads into `dto` (values as they are on the wire, not validated).",
    );
    o.line(&format!(
        "public static void {}({fin}{} decoder, {fin}{cls} dto) {{",
        c.decode_with, at.dec
    ));
    if is_msg {
        o.line(&format!(
            "dto.sbe_av = decoder.{}();",
            d.member("actingVersion")
        ));
    }
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        if !f.is_constant() {
            o.line(&copy_field(dn, i, f, fname, true));
        }
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let st = format!("dto.{}", sec(i));
        match s {
            Section::Group { .. } => {
                let cc = &c.children[gi];
                gi += 1;
                let e = &cc.class;
                o.line(&format!(
                    "{fin}{} sbe_l{i} = {};",
                    d.list_of(e),
                    d.new_list(e)
                ));
                o.line(&format!(
                    "{} {{",
                    d.for_each(&format!("decoder.{}()", sn.name))
                ));
                o.line(&format!("{fin}{e} sbe_e = new {e}();"));
                o.line(&format!("{e}.{}(sbe_x, sbe_e);", cc.decode_with));
                o.line(&d.list_add(&format!("sbe_l{i}"), "sbe_e"));
                o.line("}");
                o.line(&format!("{st} = sbe_l{i};"));
            }
            Section::Var { .. } => {
                o.line(&format!("{st} = new byte[decoder.{}()];", sn.length));
                o.line(&format!(
                    "decoder.{}({st}, 0, {st}.{});",
                    sn.get,
                    d.length()
                ));
            }
        }
    }
    o.line("}");
    if let Some(m) = at.msg {
        decode_from(o, ctx, m, n, c);
    }
    // encodeWith.
    o.doc(&format!(
        "Writes `dto` with `encoder` (wrapped at the version to write; fields and sections newer than it are left out); a group with more entries than its count type allows is refused (`{}`).",
        d.word("IllegalArgumentException")
    ));
    o.line(&format!(
        "public static void {}({fin}{} encoder, {fin}{cls} dto) {{",
        c.encode_with, at.enc
    ));
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        if !f.is_constant() {
            o.line(&copy_field(dn, i, f, fname, false));
        }
    }
    let mut gi = 0;
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let st = format!("dto.{}", sec(i));
        let what = format!("{path}.{}", s.name());
        match s {
            Section::Group { count, .. } => {
                let cc = &c.children[gi];
                let cn = &n.children[gi];
                gi += 1;
                o.line(&count_check(d, &st, count.max, &what));
                o.line(&format!(
                    "{fin}{}.{} sbe_w{i} = encoder.{}();",
                    at.enc_top(),
                    cn.enc,
                    sn.name
                ));
                o.line(&format!("{} {{", d.for_in("sbe_e", &cc.class, &st)));
                o.line(&format!(
                    "{}.{}(sbe_w{i}.{}(), sbe_e);",
                    cc.class,
                    cc.encode_with,
                    d.member("next")
                ));
                o.line("}");
            }
            Section::Var { .. } => o.line(&format!(
                "encoder.{}({st}, 0, {st}.{});",
                sn.name,
                d.length()
            )),
        }
    }
    o.line("}");
    // Lengths.
    o.doc("The bytes `encodeWith` writes at version `v` (the header aside).");
    o.line(&format!(
        "{}int {}({fin}long v) {{",
        d.internal(),
        d.member("sbeEncodedLength")
    ));
    o.line(&format!(
        "int sbe_n = {}.{}(v);",
        at.enc,
        d.member("sbeBlockLength")
    ));
    let mut gi = 0;
    for (i, s) in b.sections.iter().enumerate() {
        let st = sec(i);
        let step = match s {
            Section::Group { dim_size, .. } => {
                let cc = &c.children[gi];
                gi += 1;
                format!(
                    "{{ sbe_n += {dim_size}; {} sbe_n += sbe_e.{}(v); }}",
                    d.for_in("sbe_e", &cc.class, &st),
                    d.member("sbeEncodedLength")
                )
            }
            Section::Var { data_offset, .. } => {
                format!("sbe_n += {data_offset} + {st}.{};", d.length())
            }
        };
        if s.since() > 0 {
            o.line(&format!("if (v >= {}) {step}", s.since()));
        } else {
            o.line(&step);
        }
    }
    o.line("return sbe_n;");
    o.line("}");
    o.doc(if is_msg {
        "The bytes `encodeWith` writes at the acting version, the header aside."
    } else {
        "The bytes `encodeWith` writes at the schema's version."
    });
    o.line(&format!(
        "public int {}() {{ return {}({}); }}",
        c.length,
        d.member("sbeEncodedLength"),
        if is_msg {
            "sbe_av".to_string()
        } else {
            format!("SbeSchema.{}", d.konst("SCHEMA_VERSION"))
        }
    ));
    if is_msg {
        encode_fns(o, ctx, n, c);
    }
    // equals, hashCode, toString.
    let mut ms: Vec<(String, String, String, String)> = Vec::new();
    if is_msg {
        ms.push((
            "sbe_av == that.sbe_av".into(),
            d.value_hash(P::Int64, "sbe_av"),
            "actingVersion".into(),
            "sbe_av".into(),
        ));
    }
    for (i, (f, fname)) in b.fields.iter().zip(&n.fields).enumerate() {
        if !f.is_constant() {
            ms.push((
                field_equal(ctx, i, f),
                field_hash(ctx, i, f),
                f.name.clone(),
                field_text(ctx, i, f, fname),
            ));
        }
    }
    for (i, (s, sn)) in b.sections.iter().zip(&n.sections).enumerate() {
        let st = sec(i);
        let that = format!("that.{st}");
        match s {
            Section::Group { .. } => ms.push((
                d.list_equal(&st, &that),
                d.list_hash(&st),
                s.name().into(),
                d.list_text(&st),
            )),
            Section::Var { char_encoding, .. } => ms.push((
                d.arrays_equal(&st, &that),
                d.array_hash(&st),
                s.name().into(),
                if char_encoding.is_some() {
                    format!("'\"' + {}() + '\"'", sn.name)
                } else {
                    d.array_text(&st)
                },
            )),
        }
    }
    let (eq, text) = split(ms);
    object_methods(o, ctx, cls, &eq, &text);
    // Entries, nested.
    let mut gi = 0;
    for s in &b.sections {
        if let Section::Group { body, .. } = s {
            let cn = &n.children[gi];
            let cc = &c.children[gi];
            gi += 1;
            o.line("");
            let inner = At {
                dec: format!("{}.{}", at.dec_top(), cn.dec),
                enc: format!("{}.{}", at.enc_top(), cn.enc),
                msg: None,
            };
            body_dto(o, ctx, dn, body, cn, cc, &inner);
        }
    }
    o.line("}");
}

impl At<'_> {
    /// The message decoder class (entries' decoders are nested in it).
    fn dec_top(&self) -> &str {
        self.dec.split('.').next().unwrap_or_default()
    }
    /// The message encoder class.
    fn enc_top(&self) -> &str {
        self.enc.split('.').next().unwrap_or_default()
    }
}

/// The statement refusing a list `list` of more than `max` entries.
fn count_check(d: &dyn Dialect, list: &str, max: u64, what: &str) -> String {
    format!(
        "if ({} > {}) {}",
        d.list_size(list),
        max.min(i32::MAX as u64),
        refuse(
            d,
            &format!(
                "{} + {} + {}",
                label(d, what),
                d.list_size(list),
                d.str_lit(&format!(
                    " entries, more than the count type allows ({max})"
                ))
            )
        )
    )
}

/// A message's `decodeFrom`: the reference's shape, the message's block at `offset` (its
/// header before it is not read): the decoders check a whole message, so a header of the
/// given block length and version is written in front of a copy.
fn decode_from(o: &mut Out, ctx: &Ctx, m: &Message, n: &BodyNames, c: &DtoClass) {
    let d = ctx.d;
    let fin = d.fixed();
    let cls = &c.class;
    let hl = format!("SbeSchema.{}", d.konst("HEADER_LENGTH"));
    o.doc("Decodes the message whose block starts at `offset` of `buffer` (after its header, which is not read) with the header's block length and version; throws `SbeDecodeException` for malformed input.");
    o.line(&format!(
        "public static {cls} {}({fin}{} buffer, {fin}int offset, {fin}int actingBlockLength, {fin}int actingVersion) {{",
        c.decode_from,
        d.reader()
    ));
    o.line(&format!(
        "{fin}int sbe_n = {} - offset;",
        d.capacity("buffer")
    ));
    o.line(&format!(
        "{fin}{} sbe_b = {};",
        d.writer(),
        d.new_buffer(&format!("{hl} + sbe_n"))
    ));
    for l in
        crate::messages::header_stores(ctx, m, "sbe_b", "0", "actingBlockLength", "actingVersion")
    {
        o.line(&l);
    }
    o.line(&format!(
        "{};",
        d.copy_buffers("sbe_b", &hl, "buffer", "offset", "sbe_n")
    ));
    o.line(&format!("{fin}{cls} dto = new {cls}();"));
    o.line(&format!(
        "{}(new {}().{}(sbe_b, 0, {hl} + sbe_n), dto);",
        c.decode_with,
        n.dec,
        d.member("wrap")
    ));
    o.line("return dto;");
    o.line("}");
}

/// A message's writes into a buffer: `encodeWith(dto, buffer, offset)` (the block and
/// sections, no header), `encodeWithHeaderWith`, `bytes` and `bytesWithHeader`.
fn encode_fns(o: &mut Out, ctx: &Ctx, n: &BodyNames, c: &DtoClass) {
    let d = ctx.d;
    let fin = d.fixed();
    let cls = &c.class;
    let w = d.writer();
    let hl = format!("SbeSchema.{}", d.konst("HEADER_LENGTH"));
    o.doc("Writes `dto` at `offset` of `buffer`, header first, at its acting version; its length in bytes. Throws `SbeEncodeException` when the buffer is too small.");
    o.line(&format!(
        "public static int {}({fin}{cls} dto, {fin}{w} buffer, {fin}int offset) {{",
        c.encode_with_header
    ));
    o.line(&format!(
        "{fin}{} sbe_e = new {}().{}(buffer, offset, dto.sbe_av);",
        n.enc,
        n.enc,
        d.member("wrap")
    ));
    o.line(&format!("{}(sbe_e, dto);", c.encode_with));
    o.line(&format!("return sbe_e.{}();", d.member("encodedLength")));
    o.line("}");
    o.doc("Writes `dto`'s block and sections at `offset` of `buffer`, without the header (the reference's shape: write the header yourself); their length in bytes.");
    o.line(&format!(
        "public static int {}({fin}{cls} dto, {fin}{w} buffer, {fin}int offset) {{",
        c.encode_with
    ));
    o.line(&format!(
        "{fin}{w} sbe_b = {};",
        d.new_buffer(&format!("{hl} + dto.{}()", c.length))
    ));
    o.line(&format!(
        "{fin}int sbe_n = {}(dto, sbe_b, 0) - {hl};",
        c.encode_with_header
    ));
    o.line(&format!(
        "{};",
        d.copy_buffers("buffer", "offset", "sbe_b", &hl, "sbe_n")
    ));
    o.line("return sbe_n;");
    o.line("}");
    for (k, (doc, extra, write)) in [
        (
            "`dto`'s block and sections, without the header, in a new array.",
            String::new(),
            &c.encode_with,
        ),
        (
            "`dto`, header first, in a new array.",
            format!("{hl} + "),
            &c.encode_with_header,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        o.doc(doc);
        o.line(&format!(
            "public static byte[] {}({fin}{cls} dto) {{",
            c.bytes[k]
        ));
        o.line(&format!(
            "{fin}byte[] sbe_a = new byte[{extra}dto.{}()];",
            c.length
        ));
        o.line(&format!("{write}(dto, {}, 0);", d.writer_of_array("sbe_a")));
        o.line("return sbe_a;");
        o.line("}");
    }
}
