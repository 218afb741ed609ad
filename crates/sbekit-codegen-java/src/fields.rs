//! Field accessors, shared by composites and blocks: getters on decoders (reading `sbe_b` at
//! `sbe_p + offset`, acting version `sbe_av`), setters on encoders (writing `sbe_b` at
//! `sbe_p + offset`, skipping fields newer than the version `sbe_v` being written).
//!
//! Absent values: a field newer than the acting version reads as its null value, and an
//! optional field may hold it; `hasX()` says which. No boxing.

use crate::names::FieldNames;
use crate::prim::{is_null, java_bytes, jty, literal, load, store};
use crate::{Ctx, Out};
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_plan::json::utf8_declared;
use sbekit_plan::{Field, Kind};

fn doc(o: &mut Out, f: &Field, what: &str) {
    let mut d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("The `{}` {what}.", f.name));
    if f.since > 0 && !f.is_constant() {
        d.push_str(&format!(
            "\nSince schema version {}: its null value (and `has` false) when the acting version is older.",
            f.since
        ));
    }
    o.doc(&d);
}

/// A constant's bytes up to the first NUL.
fn const_bytes(v: &PrimitiveValue) -> Vec<u8> {
    match v {
        PrimitiveValue::Bytes(b) => {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            b[..end].to_vec()
        }
        other => vec![sbekit_ir::layout::wire_bits(other, P::Char) as u8],
    }
}

/// The condition under which the field is on the wire at acting version `av` (`None`: always).
pub fn present(f: &Field, av: &str) -> Option<String> {
    (f.since > 0).then(|| format!("{av} >= {}", f.since))
}

/// The decoder class of a set or composite field.
pub fn flyweight_dec(ctx: &Ctx, f: &Field) -> Option<String> {
    match &f.kind {
        Kind::Set { ty } => Some(ctx.n.sets[ty].dec.clone()),
        Kind::Composite { ty } => Some(ctx.n.comps[ty].dec.clone()),
        _ => None,
    }
}

/// The encoder class of a set or composite field.
pub fn flyweight_enc(ctx: &Ctx, f: &Field) -> Option<String> {
    match &f.kind {
        Kind::Set { ty } => Some(ctx.n.sets[ty].enc.clone()),
        Kind::Composite { ty } => Some(ctx.n.comps[ty].enc.clone()),
        _ => None,
    }
}

/// Emits the getter(s) of field number `i`.
pub fn getter(o: &mut Out, ctx: &Ctx, i: usize, f: &Field, n: &FieldNames) {
    let name = &n.name;
    let pos = format!("sbe_p + {}", f.offset);
    match &f.kind {
        Kind::Prim(p) if f.is_constant() => {
            let v = p.constant.clone().unwrap_or(p.null.clone());
            doc(o, f, "constant");
            if p.ty == P::Char && (matches!(v, PrimitiveValue::Bytes(_)) || p.len != 1) {
                o.line(&format!(
                    "public String {name}() {{ return {}; }}",
                    java_bytes(&const_bytes(&v))
                ));
            } else {
                o.line(&format!(
                    "public {} {name}() {{ return {}; }}",
                    jty(p.ty),
                    literal(&v, p.ty)
                ));
            }
            return;
        }
        Kind::Enum {
            ty,
            constant: Some(c),
            ..
        } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            let k = e.constant_index(c);
            doc(o, f, "constant");
            o.line(&format!(
                "public {} {name}() {{ return {}.{}; }}",
                en.ty,
                en.ty,
                en.variants
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| "NULL_VAL".into())
            ));
            return;
        }
        _ => {}
    }
    let gate = present(f, "sbe_av");
    // The presence test.
    let null_test = |x: &str| -> Option<String> {
        if !f.is_nullable() {
            return None;
        }
        match &f.kind {
            Kind::Prim(p) => Some(is_null(x, &p.null, p.ty)),
            Kind::Enum { ty, .. } => {
                let e = &ctx.plan.enums[ty];
                Some(is_null(x, &e.null, e.ty))
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
            Kind::Enum { .. } => format!("{}()", n.raw),
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
            "public boolean {}() {{ return {}; }}",
            n.has,
            conds.join(" && ")
        ));
    }
    match &f.kind {
        Kind::Prim(p) => {
            let t = jty(p.ty);
            o.doc(&format!("The null value of `{}`.", f.name));
            o.line(&format!(
                "public static {t} {}() {{ return {}; }}",
                n.null,
                literal(&p.null, p.ty)
            ));
            let null = literal(&p.null, p.ty);
            if p.len == 1 {
                doc(o, f, "field");
                match &gate {
                    Some(g) => o.line(&format!(
                        "public {t} {name}() {{ return {g} ? {} : {null}; }}",
                        load(p.ty, "sbe_b", &pos)
                    )),
                    None => o.line(&format!(
                        "public {t} {name}() {{ return {}; }}",
                        load(p.ty, "sbe_b", &pos)
                    )),
                }
            } else {
                let w = p.ty.size();
                o.doc(&format!("Elements in `{}`.", f.name));
                o.line(&format!(
                    "public static int {}() {{ return {}; }}",
                    n.length, p.len
                ));
                doc(o, f, "array: element `index`");
                o.line(&format!("public {t} {name}(final int index) {{"));
                o.line(&format!("java.util.Objects.checkIndex(index, {});", p.len));
                if let Some(g) = &gate {
                    o.line(&format!("if (!({g})) return {null};"));
                }
                o.line(&format!(
                    "return {};",
                    load(p.ty, "sbe_b", &format!("{pos} + index * {w}"))
                ));
                o.line("}");
                if p.ty == P::Char {
                    o.doc(&format!("Copies all {} bytes of `{}` (NULs included) into `dst` at `dstOffset`; the number copied (0 when absent).", p.len, f.name));
                    o.line(&format!(
                        "public int {}(final byte[] dst, final int dstOffset) {{",
                        n.get
                    ));
                    if let Some(g) = &gate {
                        o.line(&format!("if (!({g})) return 0;"));
                    }
                    o.line(&format!(
                        "sbe_b.getBytes({pos}, dst, dstOffset, {});",
                        p.len
                    ));
                    o.line(&format!("return {};", p.len));
                    o.line("}");
                    let cs = if utf8_declared(p.char_encoding.as_deref()) {
                        "UTF_8"
                    } else {
                        "ISO_8859_1"
                    };
                    o.doc(&format!(
                        "The text of `{}` up to its first NUL, decoded as {cs} (allocates).",
                        f.name
                    ));
                    o.line(&format!("public String {}() {{", n.string));
                    if let Some(g) = &gate {
                        o.line(&format!("if (!({g})) return \"\";"));
                    }
                    o.line(&format!(
                        "final byte[] sbe_t = new byte[SbeJson.untilNul(sbe_b, {pos}, {})];",
                        p.len
                    ));
                    o.line(&format!("sbe_b.getBytes({pos}, sbe_t);"));
                    o.line(&format!(
                        "return new String(sbe_t, java.nio.charset.StandardCharsets.{cs});"
                    ));
                    o.line("}");
                }
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            let t = jty(e.ty);
            o.doc(&format!(
                "The raw value of `{}` (values the schema does not list are kept).",
                f.name
            ));
            match &gate {
                Some(g) => o.line(&format!(
                    "public {t} {}() {{ return {g} ? {} : {}; }}",
                    n.raw,
                    load(e.ty, "sbe_b", &pos),
                    literal(&e.null, e.ty)
                )),
                None => o.line(&format!(
                    "public {t} {}() {{ return {}; }}",
                    n.raw,
                    load(e.ty, "sbe_b", &pos)
                )),
            }
            doc(o, f, "field (`NULL_VAL` for the null value, `SBE_UNKNOWN` for a value the schema does not list)");
            o.line(&format!(
                "public {} {name}() {{ return {}.get({}()); }}",
                en.ty, en.ty, n.raw
            ));
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            let cls = flyweight_dec(ctx, f).unwrap_or_default();
            let av = if matches!(f.kind, Kind::Composite { .. }) {
                ", sbe_av"
            } else {
                ""
            };
            o.line(&format!("private final {cls} sbe_f{i} = new {cls}();"));
            doc(o, f, "field (a flyweight, reused)");
            match &gate {
                Some(g) => o.line(&format!(
                    "public {cls} {name}() {{ return {g} ? sbe_f{i}.wrap(sbe_b, {pos}{av}) : sbe_f{i}.wrap(SbeSchema.ABSENT, 0{av}); }}"
                )),
                None => o.line(&format!(
                    "public {cls} {name}() {{ return sbe_f{i}.wrap(sbe_b, {pos}{av}); }}"
                )),
            }
        }
    }
}

/// Emits the setter(s) of field number `i` on encoder class `cls`; `versioned`: the encoder
/// writes a version `sbe_v` and skips fields newer than it.
pub fn setter(
    o: &mut Out,
    ctx: &Ctx,
    cls: &str,
    i: usize,
    f: &Field,
    n: &FieldNames,
    versioned: bool,
) {
    if f.is_constant() {
        return;
    }
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
    let d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("Sets the `{}` field.", f.name));
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => {
            o.doc(&d);
            o.line(&format!(
                "public {cls} {name}(final {} value) {{",
                jty(p.ty)
            ));
            head(o);
            o.line(&format!("{};", store(p.ty, "sbe_b", &pos, "value")));
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            let w = p.ty.size();
            o.doc(&format!("{d}\nElement `index`."));
            o.line(&format!(
                "public {cls} {name}(final int index, final {} value) {{",
                jty(p.ty)
            ));
            o.line(&format!("java.util.Objects.checkIndex(index, {});", p.len));
            head(o);
            o.line(&format!(
                "{};",
                store(p.ty, "sbe_b", &format!("{pos} + index * {w}"), "value")
            ));
            o.line("return this;");
            o.line("}");
            if p.ty == P::Char {
                let len = p.len;
                o.doc(&format!("{d}\nFrom `length` bytes of `src` at `srcOffset`, padded with NULs; more than {len} bytes is an error (`VALUE_TOO_LONG`)."));
                o.line(&format!(
                    "public {cls} {}(final byte[] src, final int srcOffset, final int length) {{",
                    n.put
                ));
                o.line(&format!(
                    "if (length < 0 || length > {len}) throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_TOO_LONG, {});",
                    crate::prim::java_str(&f.name)
                ));
                head(o);
                o.line(&format!("sbe_b.putBytes({pos}, src, srcOffset, length);"));
                // A loop, not `setMemory` (a native call on JDK 17): the padding is short.
                o.line(&format!(
                    "for (int sbe_i = length; sbe_i < {len}; sbe_i++) sbe_b.putByte({pos} + sbe_i, (byte) 0);"
                ));
                o.line("return this;");
                o.line("}");
                let utf8 = utf8_declared(p.char_encoding.as_deref());
                o.doc(&format!(
                    "{d}\nFrom text ({}), padded with NULs; longer text is an error (`VALUE_TOO_LONG`).",
                    if utf8 {
                        "encoded as UTF-8; allocates"
                    } else {
                        "one byte per char, chars above U+00FF written as `?`"
                    }
                ));
                o.line(&format!("public {cls} {name}(final CharSequence value) {{"));
                if utf8 {
                    o.line("final byte[] sbe_t = value.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);");
                    o.line(&format!("return {}(sbe_t, 0, sbe_t.length);", n.put));
                } else {
                    o.line("final int sbe_n = value.length();");
                    o.line(&format!(
                        "if (sbe_n > {len}) throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_TOO_LONG, {});",
                        crate::prim::java_str(&f.name)
                    ));
                    head(o);
                    o.line(&format!("for (int sbe_i = 0; sbe_i < {len}; sbe_i++) {{"));
                    o.line("final char sbe_c = sbe_i < sbe_n ? value.charAt(sbe_i) : 0;");
                    o.line(&format!(
                        "sbe_b.putByte({pos} + sbe_i, (byte) (sbe_c > 0xFF ? '?' : sbe_c));"
                    ));
                    o.line("}");
                    o.line("return this;");
                }
                o.line("}");
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            o.doc(&d);
            o.line(&format!(
                "public {cls} {name}(final {} value) {{ return {}(value.value()); }}",
                en.ty, n.raw
            ));
            o.doc(&format!("{d}\nAs a raw value (any value, listed or not)."));
            o.line(&format!(
                "public {cls} {}(final {} value) {{",
                n.raw,
                jty(e.ty)
            ));
            head(o);
            o.line(&format!("{};", store(e.ty, "sbe_b", &pos, "value")));
            o.line("return this;");
            o.line("}");
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            let c = flyweight_enc(ctx, f).unwrap_or_default();
            o.line(&format!("private final {c} sbe_f{i} = new {c}();"));
            o.doc(&format!(
                "The `{}` field, to set in place (a flyweight, reused){}.",
                f.name,
                if skip.is_some() {
                    "; writes to a scratch buffer when the version written is older than the field"
                } else {
                    ""
                }
            ));
            match &skip {
                Some(s) => o.line(&format!(
                    "public {c} {name}() {{ return {s} ? sbe_f{i}.wrap(sbe_scratch(), 0) : sbe_f{i}.wrap(sbe_b, {pos}); }}"
                )),
                None => o.line(&format!(
                    "public {c} {name}() {{ return sbe_f{i}.wrap(sbe_b, {pos}); }}"
                )),
            }
        }
    }
}

/// True if the encoder of these fields needs a scratch buffer (a set or composite field newer
/// than version 0).
pub fn needs_scratch(fields: &[Field]) -> bool {
    fields
        .iter()
        .any(|f| f.since > 0 && matches!(f.kind, Kind::Set { .. } | Kind::Composite { .. }))
}

/// Emits the scratch buffer accessor of an encoder (see [`needs_scratch`]).
pub fn scratch(o: &mut Out) {
    o.line("private org.agrona.concurrent.UnsafeBuffer sbe_scratch;");
    o.line("private MutableDirectBuffer sbe_scratch() {");
    o.line("if (sbe_scratch == null) sbe_scratch = new org.agrona.concurrent.UnsafeBuffer(new byte[SbeSchema.MAX_TYPE_SIZE]);");
    o.line("return sbe_scratch;");
    o.line("}");
}
