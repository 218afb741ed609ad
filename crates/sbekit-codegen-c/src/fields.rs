//! Field accessors, shared by composites and blocks: getters on decoder types, setters on encoder
//! types.
//!
//! A getter reads at `base + offset` (its block or composite start) and knows the acting version
//! `d->av`. One that may find nothing ([`sbekit_plan::Field::may_be_absent`]: an optional value
//! holding its null, a field newer than the acting version) returns `bool` (present) and writes
//! the value through its last argument. A
//! setter writes at `base + offset` after its guard (the block may not have been reserved, when
//! the buffer was too small).

use crate::prim::{c_bytes, c_str, cty, is_null, literal, load, store};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::FieldNames;
use sbekit_plan::{Constant, Field, Kind};

/// Arrays up to this length are read and written element by element in straight lines (gcc -O2
/// does not unroll such loops, and a loop costs a compare and a branch per element).
const UNROLL: usize = 8;

/// The statement `stmt(i, at)` for each element `i` of an array of `len` elements of `size`
/// bytes (`at`: the element's byte offset in the array): straight lines up to [`UNROLL`], else a
/// loop over `i`.
fn each(o: &mut Out, len: usize, size: usize, stmt: impl Fn(&str, &str) -> String) {
    if len <= UNROLL {
        for i in 0..len {
            o.line(&stmt(&i.to_string(), &(i * size).to_string()));
        }
    } else {
        let at = format!("i * {size}");
        o.line(&format!("for (i = 0; i < {len}; ++i) {}", stmt("i", &at)));
    }
}

/// True for a numeric array (getters and setters take `T v[N]`).
pub fn is_array(f: &Field) -> Option<(P, usize)> {
    match &f.kind {
        Kind::Prim(p) if p.ty != P::Char && p.len != 1 => Some((p.ty, p.len)),
        _ => None,
    }
}

/// The value type of a (non-constant, non-array) field.
pub fn value_type(ctx: &Ctx, f: &Field) -> String {
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => "sbekit_str".into(),
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
            "\nSince schema version {}: absent (false) when the message's acting version is older.",
            f.since
        ));
    }
    o.doc(&d);
}

/// Emits the getter(s) of `f` on decoder type `d` reading at `base` with acting version
/// `d->av`.
pub fn getter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, d: &str, base: &str) {
    let name = &n.name;
    let ptr = format!("{base} + {}", f.offset);
    if let Some(k) = ctx.plan.constant(f) {
        doc(o, f, "constant");
        let value = match k {
            Constant::Text(b) => {
                o.line(&format!(
                    "static inline sbekit_str {name}(const {d}* d) {{ sbekit_str s; (void)d; s.data = {}; s.len = {}; return s; }}",
                    c_bytes(&b),
                    b.len()
                ));
                if let Some(r) = &n.raw {
                    o.line(&format!(
                        "static inline sbekit_str {r}(const {d}* d) {{ return {name}(d); }}"
                    ));
                }
                return;
            }
            Constant::Number(v, ty) => (cty(ty).to_string(), literal(&v, ty)),
            Constant::Enum { ty, index } => {
                let en = &ctx.n.enums[ty];
                let value = en.values.get(index).cloned();
                (en.ty.clone(), value.unwrap_or_else(|| "0".into()))
            }
        };
        o.line(&format!(
            "static inline {} {name}(const {d}* d) {{ (void)d; return {}; }}",
            value.0, value.1
        ));
        return;
    }
    let opt = f.may_be_absent();
    doc(o, f, "field");
    if let Some((t, len)) = is_array(f) {
        let ret = if opt { "bool" } else { "void" };
        o.line(&format!(
            "static inline {ret} {name}(const {d}* d, {} out[{len}]) {{",
            cty(t)
        ));
        if len > UNROLL {
            o.line("size_t i;");
        }
        if f.since > 0 {
            o.line(&format!("if (d->av < {}u) return false;", f.since));
        }
        each(o, len, t.size(), |i, at| {
            format!("out[{i}] = {};", load(ctx, t, &format!("{ptr} + {at}")))
        });
        if opt {
            o.line("return true;");
        }
        o.line("}");
        return;
    }
    let vt = value_type(ctx, f);
    if opt {
        o.line(&format!(
            "static inline bool {name}(const {d}* d, {vt}* out) {{"
        ));
        if f.since > 0 {
            o.line(&format!("if (d->av < {}u) return false;", f.since));
        }
    } else {
        o.line(&format!("static inline {vt} {name}(const {d}* d) {{"));
    }
    let ret = |o: &mut Out, v: &str| {
        if opt {
            o.line(&format!("*out = {v};"));
            o.line("return true;");
        } else {
            o.line(&format!("return {v};"));
        }
    };
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            ret(o, &format!("sbekit_until_nul({ptr}, {})", p.len));
        }
        Kind::Prim(p) => {
            if f.is_nullable() {
                o.line(&format!("const {vt} x = {};", load(ctx, p.ty, &ptr)));
                o.line(&format!(
                    "if ({}) return false;",
                    is_null("x", &p.null, p.ty)
                ));
                ret(o, "x");
            } else {
                ret(o, &load(ctx, p.ty, &ptr));
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            if f.is_nullable() {
                o.line(&format!("const {vt} x = {};", load(ctx, e.ty, &ptr)));
                o.line(&format!(
                    "if ({}) return false;",
                    is_null("x", &e.null, e.ty)
                ));
                ret(o, "x");
            } else {
                ret(o, &load(ctx, e.ty, &ptr));
            }
        }
        Kind::Set { ty } => {
            let s = &ctx.plan.sets[ty];
            ret(o, &load(ctx, s.ty, &ptr));
        }
        Kind::Composite { .. } => {
            o.line(&format!("{vt} c;"));
            o.line(&format!("c.p = {ptr};"));
            o.line("c.av = d->av;");
            ret(o, "c");
        }
    }
    o.line("}");
    if let (Some(r), Kind::Prim(p)) = (&n.raw, &f.kind) {
        o.doc(&format!(
            "All {} bytes of the `{}` field (NULs included).",
            p.len, f.name
        ));
        let s = format!(
            "sbekit_str s; s.data = (const char*)({ptr}); s.len = {};",
            p.len
        );
        if f.since > 0 {
            o.line(&format!(
                "static inline bool {r}(const {d}* d, sbekit_str* out) {{"
            ));
            o.line(&format!("if (d->av < {}u) return false;", f.since));
            o.line(&format!("{{ {s} *out = s; }}"));
            o.line("return true;");
            o.line("}");
        } else {
            o.line(&format!(
                "static inline sbekit_str {r}(const {d}* d) {{ {s} return s; }}"
            ));
        }
    }
}

/// How an encoder reaches its bytes.
pub struct Sink<'a> {
    /// The encoder type.
    pub ty: &'a str,
    /// Pointer to the block or composite start (an expression on `e`).
    pub base: &'a str,
    /// For blocks: the expression of the version being written (fields newer are skipped).
    pub version: Option<&'a str>,
    /// The cursor errors are recorded in (a `sbekit_cursor*` expression on `e`).
    pub cur: &'a str,
    /// True when `cur` may be NULL (a composite written outside a message).
    pub cur_nullable: bool,
}

/// Emits the setter(s) of `f` on an encoder (nothing for constants).
pub fn setter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, s: &Sink) {
    if f.is_constant() {
        return;
    }
    let name = &n.setter();
    let ty = s.ty;
    let ptr = format!("{} + {}", s.base, f.offset);
    let d = f
        .description
        .clone()
        .unwrap_or_else(|| format!("Sets the `{}` field.", f.name));
    let head = |o: &mut Out| {
        o.line(&format!("if ({} == NULL) return;", s.base));
        if let (Some(v), true) = (s.version, f.since > 0) {
            o.line(&format!("if ({v} < {}u) return;", f.since));
        }
    };
    match &f.kind {
        Kind::Composite { ty: cty_ } => {
            let c = &ctx.n.composites[cty_];
            o.doc(&format!(
                "The `{}` composite, to set its members (a writer of nothing when the block was not reserved or the field is newer than the version written).",
                f.name
            ));
            o.line(&format!("static inline {} {name}({ty}* e) {{", c.enc));
            o.line(&format!("{} c;", c.enc));
            let mut cond = format!("{} != NULL", s.base);
            if let (Some(v), true) = (s.version, f.since > 0) {
                cond = format!("{cond} && {v} >= {}u", f.since);
            }
            o.line(&format!("c.p = ({cond}) ? {ptr} : NULL;"));
            o.line(&format!("c.c = {};", s.cur));
            o.line("return c;");
            o.line("}");
        }
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.doc(&format!(
                "{d}\nShorter text is padded with NUL bytes; longer text is an error (SBEKIT_VALUE_TOO_LONG)."
            ));
            o.line(&format!(
                "static inline void {name}({ty}* e, const char* v, size_t len) {{"
            ));
            head(o);
            let guard = if s.cur_nullable {
                format!(" && {} != NULL", s.cur)
            } else {
                String::new()
            };
            o.line(&format!(
                "if (!sbekit_put_fixed({ptr}, {}, v, len){guard}) sbekit_cursor_fail({}, SBEKIT_VALUE_TOO_LONG, {});",
                p.len,
                s.cur,
                c_str(&f.name)
            ));
            o.line("}");
        }
        Kind::Prim(p) if p.len != 1 => {
            o.doc(&d);
            o.line(&format!(
                "static inline void {name}({ty}* e, const {} v[{}]) {{",
                cty(p.ty),
                p.len
            ));
            if p.len > UNROLL {
                o.line("size_t i;");
            }
            head(o);
            each(o, p.len, p.ty.size(), |i, at| {
                format!(
                    "{};",
                    store(ctx, p.ty, &format!("{ptr} + {at}"), &format!("v[{i}]"))
                )
            });
            o.line("}");
        }
        Kind::Prim(p) => {
            o.doc(&d);
            let t = cty(p.ty);
            o.line(&format!("static inline void {name}({ty}* e, {t} v) {{"));
            head(o);
            o.line(&format!("{};", store(ctx, p.ty, &ptr, "v")));
            o.line("}");
            if let Some(nn) = &n.set_null {
                o.doc(&format!(
                    "Writes the null value (absent) into `{}`.",
                    f.name
                ));
                o.line(&format!("static inline void {nn}({ty}* e) {{"));
                head(o);
                o.line(&format!(
                    "{};",
                    store(ctx, p.ty, &ptr, &literal(&p.null, p.ty))
                ));
                o.line("}");
            }
        }
        Kind::Enum { ty: ety, .. } => {
            let e = &ctx.plan.enums[ety];
            let et = &ctx.n.enums[ety].ty;
            o.doc(&d);
            o.line(&format!("static inline void {name}({ty}* e, {et} v) {{"));
            head(o);
            o.line(&format!("{};", store(ctx, e.ty, &ptr, "v")));
            o.line("}");
            if let Some(nn) = &n.set_null {
                o.doc(&format!(
                    "Writes the null value (absent) into `{}`.",
                    f.name
                ));
                o.line(&format!("static inline void {nn}({ty}* e) {{"));
                head(o);
                o.line(&format!(
                    "{};",
                    store(ctx, e.ty, &ptr, &literal(&e.null, e.ty))
                ));
                o.line("}");
            }
        }
        Kind::Set { ty: sty } => {
            let sd = &ctx.plan.sets[sty];
            let st = &ctx.n.sets[sty].ty;
            o.doc(&d);
            o.line(&format!("static inline void {name}({ty}* e, {st} v) {{"));
            head(o);
            o.line(&format!("{};", store(ctx, sd.ty, &ptr, "v")));
            o.line("}");
        }
    }
}
