//! Field accessors, shared by composites and blocks: getters on decoders (reading `sbe_b` at
//! `sbe_p + offset`, acting version `sbe_av`), setters on encoders (writing `sbe_b` at
//! `sbe_p + offset`, skipping fields newer than the version `sbe_v` being written).
//!
//! Absent values: a field newer than the acting version reads as its null value, and an
//! optional field may hold it; `HasX()` says which. No boxing, no `Nullable<T>`.

use crate::names::FieldNames;
use crate::prim::{cs_bytes, cs_str, cty, is_null, literal, load, store};
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
            "\nSince schema version {}: its null value (and `Has` false) when the acting version is older.",
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
                    "public string {name}() {{ return {}; }}",
                    cs_bytes(&const_bytes(&v))
                ));
            } else {
                o.line(&format!(
                    "public {} {name}() {{ return {}; }}",
                    cty(p.ty),
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
            // The same value as every other generator renders (the first one, were the
            // name not listed; C# once rendered the null value there).
            let k = e.constant_index(c);
            doc(o, f, "constant");
            let v = e.values.get(k).map_or(e.null.clone(), |v| v.1.clone());
            o.line(&format!(
                "public {} {name}() {{ return ({}) {}; }}",
                en.ty,
                en.ty,
                literal(&v, e.ty)
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
            "public bool {}() {{ return {}; }}",
            n.has,
            conds.join(" && ")
        ));
    }
    match &f.kind {
        Kind::Prim(p) => {
            let t = cty(p.ty);
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
                o.line(&format!("public {t} {name}(int index) {{"));
                o.line(&format!("if ((uint) index >= {}) throw new System.ArgumentOutOfRangeException(nameof(index));", p.len));
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
                        "public int {}(byte[] dst, int dstOffset) {{",
                        n.get
                    ));
                    if let Some(g) = &gate {
                        o.line(&format!("if (!({g})) return 0;"));
                    }
                    o.line(&format!(
                        "System.Array.Copy(sbe_b, {pos}, dst, dstOffset, {});",
                        p.len
                    ));
                    o.line(&format!("return {};", p.len));
                    o.line("}");
                    let utf8 = utf8_declared(p.char_encoding.as_deref());
                    o.doc(&format!(
                        "The text of `{}` up to its first NUL, decoded as {} (allocates).",
                        f.name,
                        if utf8 { "UTF-8" } else { "Latin-1" }
                    ));
                    o.line(&format!("public string {}() {{", n.string));
                    if let Some(g) = &gate {
                        o.line(&format!("if (!({g})) return \"\";"));
                    }
                    o.line(&format!(
                        "int sbe_n = SbeJson.UntilNul(sbe_b, {pos}, {});",
                        p.len
                    ));
                    if utf8 {
                        o.line(&format!(
                            "return System.Text.Encoding.UTF8.GetString(sbe_b, {pos}, sbe_n);"
                        ));
                    } else {
                        o.line(&format!("return SbeJson.Latin1(sbe_b, {pos}, sbe_n);"));
                    }
                    o.line("}");
                }
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let en = &ctx.n.enums[ty];
            let t = cty(e.ty);
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
            doc(
                o,
                f,
                "field (any value is kept: one the schema does not list is a value of no name)",
            );
            o.line(&format!(
                "public {} {name}() {{ return ({}) {}(); }}",
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
            o.line(&format!("private readonly {cls} sbe_f{i} = new {cls}();"));
            doc(o, f, "field (a flyweight, reused)");
            match &gate {
                Some(g) => o.line(&format!(
                    "public {cls} {name}() {{ return {g} ? sbe_f{i}.Wrap(sbe_b, {pos}{av}) : sbe_f{i}.Wrap(SbeSchema.Absent, 0{av}); }}"
                )),
                None => o.line(&format!(
                    "public {cls} {name}() {{ return sbe_f{i}.Wrap(sbe_b, {pos}{av}); }}"
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
            o.line(&format!("public {cls} {name}({} value) {{", cty(p.ty)));
            head(o);
            o.line(&format!("{};", store(p.ty, "sbe_b", &pos, "value")));
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            let w = p.ty.size();
            o.doc(&format!("{d}\nElement `index`."));
            o.line(&format!(
                "public {cls} {name}(int index, {} value) {{",
                cty(p.ty)
            ));
            o.line(&format!("if ((uint) index >= {}) throw new System.ArgumentOutOfRangeException(nameof(index));", p.len));
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
                    "public {cls} {}(byte[] src, int srcOffset, int length) {{",
                    n.put
                ));
                o.line(&format!(
                    "if (length < 0 || length > {len}) throw new SbeEncodeException(SbeEncodeErrorKind.ValueTooLong, {});",
                    cs_str(&f.name)
                ));
                head(o);
                o.line(&format!(
                    "System.Array.Copy(src, srcOffset, sbe_b, {pos}, length);"
                ));
                o.line(&format!(
                    "for (int sbe_i = length; sbe_i < {len}; sbe_i++) sbe_b[{pos} + sbe_i] = 0;"
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
                o.line(&format!("public {cls} {name}(string value) {{"));
                if utf8 {
                    o.line("byte[] sbe_t = System.Text.Encoding.UTF8.GetBytes(value);");
                    o.line(&format!("return {}(sbe_t, 0, sbe_t.Length);", n.put));
                } else {
                    o.line("int sbe_n = value.Length;");
                    o.line(&format!(
                        "if (sbe_n > {len}) throw new SbeEncodeException(SbeEncodeErrorKind.ValueTooLong, {});",
                        cs_str(&f.name)
                    ));
                    head(o);
                    o.line(&format!("for (int sbe_i = 0; sbe_i < {len}; sbe_i++) {{"));
                    o.line("char sbe_c = sbe_i < sbe_n ? value[sbe_i] : '\\0';");
                    o.line(&format!(
                        "sbe_b[{pos} + sbe_i] = (byte) (sbe_c > 0xFF ? '?' : sbe_c);"
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
                "public {cls} {name}({} value) {{ return {}(({}) value); }}",
                en.ty,
                n.raw,
                cty(e.ty)
            ));
            o.doc(&format!("{d}\nAs a raw value (any value, listed or not)."));
            o.line(&format!("public {cls} {}({} value) {{", n.raw, cty(e.ty)));
            head(o);
            o.line(&format!("{};", store(e.ty, "sbe_b", &pos, "value")));
            o.line("return this;");
            o.line("}");
        }
        Kind::Set { .. } | Kind::Composite { .. } => {
            let c = flyweight_enc(ctx, f).unwrap_or_default();
            o.line(&format!("private readonly {c} sbe_f{i} = new {c}();"));
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
                    "public {c} {name}() {{ return {s} ? sbe_f{i}.Wrap(SbeScratch(), 0) : sbe_f{i}.Wrap(sbe_b, {pos}); }}"
                )),
                None => o.line(&format!(
                    "public {c} {name}() {{ return sbe_f{i}.Wrap(sbe_b, {pos}); }}"
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
    o.line("internal byte[] sbe_scratch;");
    o.line("private byte[] SbeScratch() {");
    o.line("if (sbe_scratch == null) sbe_scratch = new byte[SbeSchema.MaxTypeSize];");
    o.line("return sbe_scratch;");
    o.line("}");
}
