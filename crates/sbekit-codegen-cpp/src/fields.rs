//! Field accessors, shared by composites and blocks: getters on decoders, setters on encoders.
//!
//! A decoder reads at `base + offset` (its block or composite start) and knows the acting
//! version `sbe_av_`; an encoder writes at `base + offset` after its guard (the block may not have
//! been reserved, when the buffer was too small).

use crate::prim::{cpp_bytes, cty, is_null, literal, load, store};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::FieldNames;
use sbekit_plan::{Constant, Field, Kind};

/// The value type of a (non-constant) field, without `std::optional`.
pub fn value_type(ctx: &Ctx, f: &Field) -> String {
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => "std::string_view".into(),
        Kind::Prim(p) if p.len != 1 => format!("std::array<{}, {}>", cty(p.ty), p.len),
        Kind::Prim(p) => cty(p.ty).into(),
        Kind::Enum { ty, .. } => ctx.n.enums[ty].ty.clone(),
        Kind::Set { ty } => ctx.n.sets[ty].ty.clone(),
        Kind::Composite { ty } => ctx.n.composites[ty].dec.clone(),
    }
}

fn doc(o: &mut Out, f: &Field, what: &str) {
    let mut d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("The `{}` {what}.", f.name));
    if f.since > 0 && !f.is_constant() {
        d.push_str(&format!(
            "\nSince schema version {}: empty when the message's acting version is older.",
            f.since
        ));
    }
    o.doc(&d);
}

/// Emits the getter(s) of `f` on a decoder reading at `base` with acting version `sbe_av_`.
pub fn getter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, base: &str) {
    let name = &n.name;
    let ptr = format!("{base} + {}", f.offset);
    if let Some(k) = ctx.plan.constant(f) {
        doc(o, f, "constant");
        let (ty, value) = match k {
            Constant::Text(b) => {
                o.line(&format!(
                    "static constexpr std::string_view {name}() noexcept {{ return std::string_view({}, {}); }}",
                    cpp_bytes(&b),
                    b.len()
                ));
                if let Some(r) = &n.raw {
                    o.line(&format!(
                        "static constexpr std::string_view {r}() noexcept {{ return {name}(); }}"
                    ));
                }
                return;
            }
            Constant::Number(v, ty) => (cty(ty).to_string(), literal(&v, ty)),
            Constant::Enum { ty, index } => {
                let en = &ctx.n.enums[ty];
                let value = en.values.get(index).cloned().unwrap_or_default();
                (en.ty.clone(), format!("{}::{value}", en.ty))
            }
        };
        o.line(&format!(
            "static constexpr {ty} {name}() noexcept {{ return {value}; }}"
        ));
        return;
    }
    let vt = value_type(ctx, f);
    let opt = f.may_be_absent();
    let ret = if opt {
        format!("std::optional<{vt}>")
    } else {
        vt.clone()
    };
    doc(o, f, "field");
    o.line(&format!("{ret} {name}() const noexcept {{"));
    if f.since > 0 {
        o.line(&format!("if (sbe_av_ < {}u) return std::nullopt;", f.since));
    }
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.line(&format!(
                "return ::sbekit::rt::until_nul({ptr}, {});",
                p.len
            ));
        }
        Kind::Prim(p) if p.len != 1 => {
            o.line(&format!("{vt} sbe_a{{}};"));
            o.line(&format!(
                "::sbekit::rt::load_array<{}, {}>({ptr}, sbe_a.data(), {});",
                cty(p.ty),
                ctx.big(),
                p.len
            ));
            o.line("return sbe_a;");
        }
        Kind::Prim(p) => {
            if f.is_nullable() {
                o.line(&format!("const {vt} sbe_x = {};", load(ctx, p.ty, &ptr)));
                o.line(&format!(
                    "if ({}) return std::nullopt;",
                    is_null("sbe_x", &p.null, p.ty)
                ));
                o.line("return sbe_x;");
            } else {
                o.line(&format!("return {};", load(ctx, p.ty, &ptr)));
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            if f.is_nullable() {
                o.line(&format!(
                    "const {} sbe_x = {};",
                    cty(e.ty),
                    load(ctx, e.ty, &ptr)
                ));
                o.line(&format!(
                    "if ({}) return std::nullopt;",
                    is_null("sbe_x", &e.null, e.ty)
                ));
                o.line(&format!("return static_cast<{vt}>(sbe_x);"));
            } else {
                o.line(&format!(
                    "return static_cast<{vt}>({});",
                    load(ctx, e.ty, &ptr)
                ));
            }
        }
        Kind::Set { ty } => {
            let s = &ctx.plan.sets[ty];
            o.line(&format!("return {vt}({});", load(ctx, s.ty, &ptr)));
        }
        Kind::Composite { .. } => {
            o.line(&format!("return {vt}({ptr}, sbe_av_);"));
        }
    }
    o.line("}");
    if let (Some(r), Kind::Prim(p)) = (&n.raw, &f.kind) {
        o.doc(&format!(
            "All {} bytes of the `{}` field (NULs included).",
            p.len, f.name
        ));
        let rt = if f.since > 0 {
            "std::optional<std::string_view>"
        } else {
            "std::string_view"
        };
        o.line(&format!("{rt} {r}() const noexcept {{"));
        if f.since > 0 {
            o.line(&format!("if (sbe_av_ < {}u) return std::nullopt;", f.since));
        }
        o.line(&format!(
            "return std::string_view(reinterpret_cast<const char*>({ptr}), {});",
            p.len
        ));
        o.line("}");
    }
}

/// How an encoder reaches its bytes.
pub struct Sink<'a> {
    /// The encoder class (setters return `Cls&`).
    pub cls: &'a str,
    /// Pointer to the block or composite start.
    pub base: &'a str,
    /// True when the bytes may be written (the block or composite was reserved).
    pub ok: &'a str,
    /// For blocks: the expression of the version being written (fields newer are skipped).
    pub version: Option<&'a str>,
    /// The cursor errors are recorded in (a `Cursor*` expression).
    pub cur: &'a str,
    /// True when `cur` may be null (a composite written outside a message).
    pub cur_nullable: bool,
}

/// Emits the setter of `f` on an encoder (nothing for constants).
pub fn setter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, s: &Sink) {
    if f.is_constant() {
        return;
    }
    let name = &n.name;
    let cls = s.cls;
    let ptr = format!("{} + {}", s.base, f.offset);
    let d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("Sets the `{}` field.", f.name));
    let head = |o: &mut Out| {
        o.line(&format!("if (!({})) return *this;", s.ok));
        if let (Some(v), true) = (s.version, f.since > 0) {
            o.line(&format!("if ({v} < {}u) return *this;", f.since));
        }
    };
    match &f.kind {
        Kind::Composite { ty } => {
            let c = &ctx.n.composites[ty];
            o.doc(&format!("The `{}` composite, to set its members.", f.name));
            o.line(&format!("{} {name}() noexcept {{", c.enc));
            let mut cond = s.ok.to_string();
            if let (Some(v), true) = (s.version, f.since > 0) {
                cond = format!("{cond} && {v} >= {}u", f.since);
            }
            o.line(&format!(
                "return {}(({cond}) ? {ptr} : nullptr, {});",
                c.enc, s.cur
            ));
            o.line("}");
        }
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.doc(&format!(
                "{d}\nShorter text is padded with NUL bytes; longer text is an error (`valueTooLong`)."
            ));
            o.line(&format!(
                "{cls}& {name}(std::string_view sbe_v) noexcept {{"
            ));
            head(o);
            let guard = if s.cur_nullable {
                format!(" && {} != nullptr", s.cur)
            } else {
                String::new()
            };
            o.line(&format!(
                "if (!::sbekit::rt::put_fixed({ptr}, {}, sbe_v){guard}) {}->fail(::sbekit::rt::ErrorKind::ValueTooLong, {});",
                p.len,
                s.cur,
                crate::prim::cpp_str(&f.name)
            ));
            o.line("return *this;");
            o.line("}");
        }
        Kind::Prim(p) if p.len != 1 => {
            o.doc(&d);
            o.line(&format!(
                "{cls}& {name}(const std::array<{}, {}>& sbe_v) noexcept {{",
                cty(p.ty),
                p.len
            ));
            head(o);
            o.line(&format!(
                "::sbekit::rt::store_array<{}, {}>({ptr}, sbe_v.data(), {});",
                cty(p.ty),
                ctx.big(),
                p.len
            ));
            o.line("return *this;");
            o.line("}");
        }
        Kind::Prim(p) => {
            o.doc(&d);
            let t = cty(p.ty);
            if f.is_nullable() {
                o.line(&format!(
                    "{cls}& {name}(std::optional<{t}> sbe_v) noexcept {{"
                ));
                head(o);
                o.line(&format!(
                    "{};",
                    store(
                        ctx,
                        p.ty,
                        &ptr,
                        &format!("sbe_v ? *sbe_v : {}", literal(&p.null, p.ty))
                    )
                ));
            } else {
                o.line(&format!("{cls}& {name}({t} sbe_v) noexcept {{"));
                head(o);
                o.line(&format!("{};", store(ctx, p.ty, &ptr, "sbe_v")));
            }
            o.line("return *this;");
            o.line("}");
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let et = &ctx.n.enums[ty].ty;
            let u = cty(e.ty);
            o.doc(&d);
            if f.is_nullable() {
                o.line(&format!(
                    "{cls}& {name}(std::optional<{et}> sbe_v) noexcept {{"
                ));
                head(o);
                o.line(&format!(
                    "{};",
                    store(
                        ctx,
                        e.ty,
                        &ptr,
                        &format!(
                            "sbe_v ? static_cast<{u}>(*sbe_v) : {}",
                            literal(&e.null, e.ty)
                        )
                    )
                ));
            } else {
                o.line(&format!("{cls}& {name}({et} sbe_v) noexcept {{"));
                head(o);
                o.line(&format!(
                    "{};",
                    store(ctx, e.ty, &ptr, &format!("static_cast<{u}>(sbe_v)"))
                ));
            }
            o.line("return *this;");
            o.line("}");
        }
        Kind::Set { ty } => {
            let sd = &ctx.plan.sets[ty];
            let st = &ctx.n.sets[ty].ty;
            o.doc(&d);
            o.line(&format!("{cls}& {name}({st} sbe_v) noexcept {{"));
            head(o);
            o.line(&format!("{};", store(ctx, sd.ty, &ptr, "sbe_v.raw()")));
            o.line("return *this;");
            o.line("}");
        }
    }
}
