//! Field accessors, shared by composites and blocks: getters on decoders, setters on encoders.
//!
//! A decoder class has `$v` (DataView), `$b` (Uint8Array), `$o` (start of its block or
//! composite) and `$av` (acting version); an encoder class has `$v`, `$b` and `$o`.
//!
//! Fields are the codec plan's ([`sbekit_plan::Field`]: offset, version gate, presence, null
//! and constant values, type references by schema name); the referenced enum and set
//! definitions are the schema's type tables, which `types.ts` emits whole.

use crate::prim::{self, is_big, is_float, literal, read, ts_type, write};
use crate::{Ctx, FieldNames, Out};
use sbekit_ir::{Presence, PrimitiveType as P};
use sbekit_plan::{Field, Kind};

fn is_optional(f: &Field) -> bool {
    f.presence == Presence::Optional
}

fn doc(o: &mut Out, f: &Field, what: &str) {
    let mut d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("The `{}` {what}.", f.name));
    if f.since > 0 && !f.is_constant() {
        d.push_str(&format!(
            "\nSince schema version {}: null when the message's acting version is older.",
            f.since
        ));
    }
    o.doc(&d);
}

/// The TypeScript type an enum field's getter returns (without `| null`).
pub fn enum_type(ctx: &Ctx, def: usize) -> String {
    let raw = if is_big(ctx.types.enums[def].1.ty) {
        "rt.RawBig"
    } else {
        "rt.Raw"
    };
    format!("{} | {raw}", ctx.enums[def])
}

fn const_text(v: &sbekit_ir::PrimitiveValue) -> String {
    sbekit_plan::json::value(v, P::Char)
}

/// Emits the getters of `f` (member `idx` of its class) on a decoder class.
pub fn getter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, idx: usize) {
    let off = format!("this.$o + {}", f.offset);
    let guard = if f.since > 0 && !f.is_constant() {
        Some(format!("if (this.$av < {}) return null;", f.since))
    } else {
        None
    };
    let nul = if guard.is_some() { " | null" } else { "" };
    let name = &n.name;
    match &f.kind {
        Kind::Prim(p) if f.is_constant() => {
            let v = p.constant.clone().unwrap_or(p.null.clone());
            doc(o, f, "constant");
            if p.ty == P::Char {
                o.line(&format!(
                    "{name}(): string {{ return {}; }}",
                    const_text(&v)
                ));
                if let Some(s) = &n.string {
                    o.line(&format!("{s}(): string {{ return this.{name}(); }}"));
                }
            } else {
                o.line(&format!(
                    "{name}(): {} {{ return {}; }}",
                    ts_type(p.ty),
                    literal(&v, p.ty)
                ));
            }
        }
        Kind::Enum {
            ty,
            constant: Some(c),
            ..
        } => {
            let Some(i) = ctx.enum_index(ty) else { return };
            let key = serde_json::to_string(c).unwrap_or_default();
            doc(o, f, "constant");
            o.line(&format!(
                "{name}(): {} {{ return {}[{key}]; }}",
                ctx.enums[i], ctx.enums[i]
            ));
        }
        Kind::Enum { ty, .. } => {
            let Some(i) = ctx.enum_index(ty) else { return };
            let e = &ctx.types.enums[i].1;
            doc(o, f, "field");
            let null = if is_optional(f) { " | null" } else { nul };
            o.line(&format!("{name}(): {}{null} {{", enum_type(ctx, i)));
            if let Some(g) = &guard {
                o.line(g);
            }
            let r = read(ctx, "this.$v", e.ty, &off);
            if is_optional(f) {
                o.line(&format!("const x = {r};"));
                o.line(&format!(
                    "return {} ? null : x;",
                    prim::is_null("x", &e.null, e.ty)
                ));
            } else {
                o.line(&format!("return {r};"));
            }
            o.line("}");
        }
        Kind::Set { ty } => {
            let Some(i) = ctx.set_index(ty) else { return };
            let s = &ctx.types.sets[i].1;
            doc(o, f, "field");
            o.line(&format!("{name}(): {}{nul} {{", ctx.sets[i]));
            if let Some(g) = &guard {
                o.line(g);
            }
            o.line(&format!(
                "return new {}({});",
                ctx.sets[i],
                read(ctx, "this.$v", s.ty, &off)
            ));
            o.line("}");
        }
        Kind::Composite { ty } => {
            let Some(i) = ctx.composite_index(ty) else {
                return;
            };
            doc(o, f, "field");
            o.line(&format!("{name}(): {}{nul} {{", ctx.comp_dec[i]));
            if let Some(g) = &guard {
                o.line(g);
            }
            o.line(&format!(
                "return this.$c{idx}.$at(this.$v, this.$b, {off}, this.$av);"
            ));
            o.line("}");
        }
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            let enc = p.char_encoding.as_deref().unwrap_or("utf-8");
            doc(
                o,
                f,
                "field (bytes; the text getter stops at the first NUL)",
            );
            o.line(&format!("{name}(): Uint8Array{nul} {{"));
            if let Some(g) = &guard {
                o.line(g);
            }
            o.line(&format!("const p = {off};"));
            o.line(&format!("return rt.at(this.$b, p, {});", p.len));
            o.line("}");
            if let Some(s) = &n.string {
                o.doc(&format!("The `{}` field as text ({enc}).", f.name));
                o.line(&format!("{s}(): string{nul} {{"));
                o.line(&format!("const b = this.{name}();"));
                let enc = serde_json::to_string(enc).unwrap_or_default();
                if nul.is_empty() {
                    o.line(&format!("return rt.text(rt.untilNul(b), {enc});"));
                } else {
                    o.line(&format!(
                        "return b === null ? null : rt.text(rt.untilNul(b), {enc});"
                    ));
                }
                o.line("}");
            }
        }
        Kind::Prim(p) if p.len != 1 => {
            let t = ts_type(p.ty);
            doc(o, f, "field");
            o.line(&format!("{name}(): {t}[]{nul} {{"));
            if let Some(g) = &guard {
                o.line(g);
            }
            o.line(&format!("const p = {off};"));
            o.line(&format!("const r: {t}[] = new Array<{t}>({});", p.len));
            o.line(&format!(
                "for (let i = 0; i < {}; i++) r[i] = {};",
                p.len,
                read(ctx, "this.$v", p.ty, &format!("p + i * {}", p.ty.size()))
            ));
            o.line("return r;");
            o.line("}");
            if let Some(at) = &n.at {
                o.doc(&format!(
                    "Element `i` of the `{}` field (0 <= i < {}).",
                    f.name, p.len
                ));
                o.line(&format!("{at}(i: number): {t}{nul} {{"));
                if let Some(g) = &guard {
                    o.line(g);
                }
                o.line(&format!(
                    "if (!(i >= 0 && i < {} && Number.isInteger(i))) throw new RangeError(`index ${{i}} outside 0..{}`);",
                    p.len,
                    p.len - 1
                ));
                o.line(&format!(
                    "return {};",
                    read(
                        ctx,
                        "this.$v",
                        p.ty,
                        &format!("{off} + i * {}", p.ty.size())
                    )
                ));
                o.line("}");
            }
        }
        Kind::Prim(p) => {
            let null = if is_optional(f) { " | null" } else { nul };
            doc(o, f, "field");
            o.line(&format!("{name}(): {}{null} {{", ts_type(p.ty)));
            if let Some(g) = &guard {
                o.line(g);
            }
            let r = read(ctx, "this.$v", p.ty, &off);
            if is_optional(f) {
                o.line(&format!("const x = {r};"));
                o.line(&format!(
                    "return {} ? null : x;",
                    prim::is_null("x", &p.null, p.ty)
                ));
            } else {
                o.line(&format!("return {r};"));
            }
            o.line("}");
            if let Some(s) = &n.string {
                let enc = serde_json::to_string(p.char_encoding.as_deref().unwrap_or("utf-8"))
                    .unwrap_or_default();
                o.doc(&format!("The `{}` character as text.", f.name));
                o.line(&format!("{s}(): string{null} {{"));
                o.line(&format!("const x = this.{name}();"));
                if null.is_empty() {
                    o.line(&format!(
                        "return rt.text(rt.untilNul(Uint8Array.of(x)), {enc});"
                    ));
                } else {
                    o.line(&format!(
                        "return x === null ? null : rt.text(rt.untilNul(Uint8Array.of(x)), {enc});"
                    ));
                }
                o.line("}");
            }
        }
    }
}

/// Field declarations a decoder class needs for `f` (cached composite decoders).
pub fn decoder_slots(ctx: &Ctx, f: &Field, idx: usize) -> Option<String> {
    match &f.kind {
        Kind::Composite { ty } => Some(format!(
            "private readonly $c{idx} = new {}();",
            ctx.comp_dec[ctx.composite_index(ty)?]
        )),
        _ => None,
    }
}

/// Field declarations an encoder class needs for `f` (cached composite encoders).
pub fn encoder_slots(ctx: &Ctx, f: &Field, idx: usize) -> Option<String> {
    match &f.kind {
        Kind::Composite { ty } => Some(format!(
            "private readonly $c{idx} = new {}();",
            ctx.comp_enc[ctx.composite_index(ty)?]
        )),
        _ => None,
    }
}

/// Emits the setter of `f` on an encoder class (nothing for constants).
/// `in_block`: a field of a message or entry block, whose encoder writes at `this.$t.version`: a
/// field newer than that is not written (its setter does nothing; a composite's writes go to
/// scratch bytes).
pub fn setter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, idx: usize, in_block: bool) {
    if f.is_constant() {
        return;
    }
    let gate = in_block && f.since > 0;
    let skip = format!("if (this.$t.version < {}) return this;", f.since);
    let mut o = Gate {
        o,
        line: gate.then_some(skip),
    };
    let o = &mut o;
    let off = format!("this.$o + {}", f.offset);
    let name = &n.name;
    let d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("Sets the `{}` field.", f.name));
    match &f.kind {
        Kind::Enum { ty, .. } => {
            let Some(i) = ctx.enum_index(ty) else { return };
            let e = &ctx.types.enums[i].1;
            o.doc(&d);
            let nul = if is_optional(f) { " | null" } else { "" };
            o.line(&format!("{name}(x: {}{nul}): this {{", enum_type(ctx, i)));
            let val = if is_optional(f) {
                format!("x === null ? {} : x", literal(&e.null, e.ty))
            } else {
                "x".to_string()
            };
            o.line(&format!("{};", write(ctx, "this.$v", e.ty, &off, &val)));
            o.line("return this;");
            o.line("}");
        }
        Kind::Set { ty } => {
            let Some(i) = ctx.set_index(ty) else { return };
            let s = &ctx.types.sets[i].1;
            o.doc(&d);
            o.line(&format!(
                "{name}(x: {} | {}): this {{",
                ctx.sets[i],
                ts_type(s.ty)
            ));
            o.line(&format!(
                "{};",
                write(
                    ctx,
                    "this.$v",
                    s.ty,
                    &off,
                    &format!("typeof x === \"{}\" ? x : x.raw", ts_type(s.ty))
                )
            ));
            o.line("return this;");
            o.line("}");
        }
        Kind::Composite { ty } => {
            let Some(i) = ctx.composite_index(ty) else {
                return;
            };
            o.doc(&format!("The `{}` composite, to set its members.", f.name));
            o.o.line(&format!("{name}(): {} {{", ctx.comp_enc[i]));
            if gate {
                let size = ctx.types.composites[i].1.size;
                o.o.line(&format!(
                    "if (this.$t.version < {}) {{ const s = new Uint8Array({size}); return this.$c{idx}.$at(rt.view(s), s, 0); }}",
                    f.since
                ));
            }
            o.o.line(&format!(
                "return this.$c{idx}.$at(this.$v, this.$b, {off});"
            ));
            o.o.line("}");
        }
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.doc(&format!(
                "{d}\nText is written as UTF-8; shorter values are padded with NUL bytes."
            ));
            o.line(&format!("{name}(x: Uint8Array | string): this {{"));
            o.line(&format!("rt.putFixed(this.$b, {off}, {}, x);", p.len));
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) if p.len != 1 => {
            let t = ts_type(p.ty);
            let zero = if is_big(p.ty) { "0n" } else { "0" };
            o.doc(&format!(
                "{d}\nMissing trailing elements are written as zero."
            ));
            o.line(&format!("{name}(x: ArrayLike<{t}>): this {{"));
            o.line(&format!("const p = {off};"));
            o.line(&format!("rt.checkLength(p, x.length, {});", p.len));
            o.line(&format!(
                "for (let i = 0; i < {}; i++) {};",
                p.len,
                write(
                    ctx,
                    "this.$v",
                    p.ty,
                    &format!("p + i * {}", p.ty.size()),
                    &format!("i < x.length ? x[i]! : {zero}")
                )
            ));
            o.line("return this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            o.doc(&d);
            let t = ts_type(p.ty);
            let (sig, val) = if is_optional(f) {
                (
                    format!("{t} | null"),
                    format!("x === null ? {} : x", literal(&p.null, p.ty)),
                )
            } else {
                (t.to_string(), "x".to_string())
            };
            let _ = is_float(p.ty);
            o.line(&format!("{name}(x: {sig}): this {{"));
            o.line(&format!("{};", write(ctx, "this.$v", p.ty, &off, &val)));
            o.line("return this;");
            o.line("}");
        }
    }
}

/// An [`Out`] that puts `line` (the version check of a setter) first in each setter's body: after
/// the first line that opens a method (`...): this {`).
struct Gate<'o> {
    o: &'o mut Out,
    line: Option<String>,
}

impl Gate<'_> {
    fn line(&mut self, l: &str) {
        self.o.line(l);
        if l.ends_with("): this {") {
            if let Some(g) = &self.line {
                self.o.line(g);
            }
        }
    }

    fn doc(&mut self, d: &str) {
        self.o.doc(d);
    }
}
