//! `types.go`: enums (named integer types that keep unknown values), sets (bit masks with a
//! test per choice), composites (a decoder view and an encoder view each), and the field
//! accessors shared by composites, messages and group entries.

use crate::prim::{go_bytes, gty, is_null, literal, load, load_bits, store};
use crate::{go_file, Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::FieldNames;
use sbekit_plan::{Constant, Field, Kind};

/// The text of `types.go`.
pub fn types_go(ctx: &Ctx) -> String {
    let mut o = Out::default();
    for (k, e) in &ctx.plan.enums {
        let n = &ctx.n.enums[k];
        let t = &n.ty;
        o.doc(&e.description.clone().unwrap_or_else(|| {
            format!("{t} is the `{k}` enum; values the schema does not list are kept.")
        }));
        o.line(&format!("type {t} {}", gty(e.ty)));
        o.line("");
        for ((name, v, d), c) in e.values.iter().zip(&n.values) {
            o.doc(&format!(
                "{c} is `{name}`{}.",
                d.as_deref().map(|d| format!(": {d}")).unwrap_or_default()
            ));
            o.line(&format!(
                "const {c} {t} = {}",
                crate::prim::int_digits(v, e.ty)
            ));
            o.line("");
        }
        o.doc(&format!("{} is the null value (no value).", n.null));
        o.line(&format!(
            "const {} {t} = {}",
            n.null,
            crate::prim::int_digits(&e.null, e.ty)
        ));
        o.line("");
        o.doc("AppendJSON appends the value as `sbekit decode` prints it: its name, null, or the number of a value the schema does not list.");
        o.line(&format!("func (v {t}) AppendJSON(dst []byte) []byte {{"));
        o.line(&format!("if v == {} {{", n.null));
        o.line("return append(dst, \"null\"...)");
        o.line("}");
        for ((name, _, _), c) in e.values.iter().zip(&n.values) {
            o.line(&format!("if v == {c} {{"));
            o.line(&format!(
                "return append(dst, {}...)",
                go_bytes(sbekit_plan::json::quote(name).as_bytes())
            ));
            o.line("}");
        }
        o.line("return strconv.AppendInt(dst, int64(v), 10)");
        o.line("}");
        o.line("");
    }
    for (k, s) in &ctx.plan.sets {
        let n = &ctx.n.sets[k];
        let t = &n.ty;
        o.doc(&s.description.clone().unwrap_or_else(|| {
            format!("{t} is the `{k}` bit set; bits the schema does not name are kept.")
        }));
        o.line(&format!("type {t} {}", gty(s.ty)));
        o.line("");
        for (((name, bit, _), m), test) in s.choices.iter().zip(&n.masks).zip(&n.choices) {
            o.doc(&format!("{m} is the mask of choice `{name}` (bit {bit})."));
            o.line(&format!("const {m} {t} = 1 << {bit}"));
            o.line("");
            o.doc(&format!("{test} reports whether choice `{name}` is set."));
            o.line(&format!(
                "func (s {t}) {test}() bool {{ return s&{m} != 0 }}"
            ));
            o.line("");
        }
        o.doc("AppendJSON appends the set as `sbekit decode` prints it: each choice and whether it is set.");
        o.line(&format!("func (s {t}) AppendJSON(dst []byte) []byte {{"));
        let mut first = true;
        for ((name, _, _), m) in s.choices.iter().zip(&n.masks) {
            let key = format!(
                "{}{}:",
                if first { "{" } else { "," },
                sbekit_plan::json::quote(name)
            );
            first = false;
            o.line(&format!(
                "dst = append(dst, {}...)",
                go_bytes(key.as_bytes())
            ));
            o.line(&format!("dst = appendBool(dst, s&{m} != 0)"));
        }
        if first {
            o.line("_ = s");
            o.line("return append(dst, \"{}\"...)");
        } else {
            o.line("return append(dst, '}')");
        }
        o.line("}");
        o.line("");
    }
    for (k, c) in ctx.plan.composites.iter() {
        let n = &ctx.n.composites[k];
        let members = ctx.plan.gated_members(k);
        o.doc(&c.description.clone().unwrap_or_else(|| {
            format!(
                "{} reads the `{k}` composite (a view of {} bytes).",
                n.dec, c.size
            )
        }));
        o.line(&format!("type {} struct {{", n.dec));
        o.fields(&[
            ("b".into(), "[]byte".into()),
            ("av".into(), "uint64".into()),
        ]);
        o.line("}");
        o.line("");
        o.doc("SbeActingVersion is the schema version the composite is read at.");
        o.line(&format!(
            "func (c {}) SbeActingVersion() uint64 {{ return c.av }}",
            n.dec
        ));
        o.line("");
        let src = Src {
            recv: format!("c {}", n.dec),
            blk: "c.b".into(),
            av: "c.av".into(),
        };
        for (f, fname) in members.iter().zip(&n.members) {
            getter(&mut o, ctx, f, fname, &src);
        }
        o.doc(&format!("{} writes the `{k}` composite in place.", n.enc));
        o.line(&format!("type {} struct {{", n.enc));
        o.fields(&[
            ("b".into(), "[]byte".into()),
            ("st".into(), "*encState".into()),
        ]);
        o.line("}");
        o.line("");
        let sink = Sink {
            recv: format!("c {}", n.enc),
            ret: n.enc.clone(),
            this: "c".into(),
            blk: "c.b".into(),
            ver: None,
            st: "c.st".into(),
            st_call: "c.st".into(),
            path: k.clone(),
        };
        for (f, fname) in c.members.iter().zip(&n.members) {
            setter(&mut o, ctx, f, fname, &sink);
        }
    }
    go_file(&ctx.n.package, &o.s)
}

/// The Go value type of a (non-constant) field.
pub fn value_type(ctx: &Ctx, f: &Field) -> String {
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => "[]byte".into(),
        Kind::Prim(p) if p.len != 1 => format!("[{}]{}", p.len, gty(p.ty)),
        Kind::Prim(p) => gty(p.ty).into(),
        Kind::Enum { ty, .. } => ctx.n.enums[ty].ty.clone(),
        Kind::Set { ty } => ctx.n.sets[ty].ty.clone(),
        Kind::Composite { ty } => ctx.n.composites[ty].dec.clone(),
    }
}

/// The value a getter returns when the field is absent: the null value, or the zero value.
pub(crate) fn absent(ctx: &Ctx, f: &Field) -> String {
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => literal(&p.null, p.ty),
        Kind::Prim(p) if p.ty == P::Char => "nil".into(),
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            format!(
                "{}({})",
                ctx.n.enums[ty].ty,
                crate::prim::int_digits(&e.null, e.ty)
            )
        }
        Kind::Set { .. } => format!("{}(0)", value_type(ctx, f)),
        _ => format!("{}{{}}", value_type(ctx, f)),
    }
}

/// Where a decoder reads: its receiver, block slice and acting version.
pub struct Src {
    /// `d *Car`.
    pub recv: String,
    /// `d.blk`.
    pub blk: String,
    /// `d.av`.
    pub av: String,
}

fn doc(o: &mut Out, f: &Field, lead: &str) {
    let mut d = format!("{lead}: the `{}` field", f.name);
    if let Some(x) = &f.description {
        d.push_str(&format!(" ({})", x.trim()));
    }
    d.push('.');
    if f.since > 0 && !f.is_constant() {
        d.push_str(&format!(
            "\nSince schema version {}: ok is false when the acting version is older.",
            f.since
        ));
    }
    o.doc(&d);
}

/// Emits the getter(s) of `f` on a decoder.
pub fn getter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, src: &Src) {
    let name = &n.name;
    let recv = &src.recv;
    if let Some(k) = ctx.plan.constant(f) {
        doc(o, f, &format!("{name} is constant"));
        let (ty, value) = match k {
            Constant::Text(b) => ("string".to_string(), go_bytes(&b)),
            Constant::Number(v, ty) => (gty(ty).to_string(), literal(&v, ty)),
            Constant::Enum { ty, index } => {
                let en = &ctx.n.enums[ty];
                let value = en.values.get(index).unwrap_or(&en.null);
                (en.ty.clone(), value.clone())
            }
        };
        o.line(&format!("func ({recv}) {name}() {ty} {{ return {value} }}"));
        o.line("");
        return;
    }
    let vt = value_type(ctx, f);
    let opt = f.may_be_absent();
    let ret = if opt {
        format!("({vt}, bool)")
    } else {
        vt.clone()
    };
    let (ok, nok) = if opt { (", true", ", false") } else { ("", "") };
    doc(
        o,
        f,
        &format!(
            "{name} reads {}",
            if f.is_nullable() {
                "an optional value (ok is false for the null value, which v then holds)"
            } else {
                "a value"
            }
        ),
    );
    o.line(&format!("func ({recv}) {name}() {ret} {{"));
    let end = f.offset + f.size;
    let blk = &src.blk;
    let cond = if f.since > 0 {
        format!("{} < {} || len({blk}) < {end}", src.av, f.since)
    } else {
        format!("len({blk}) < {end}")
    };
    o.line(&format!("if {cond} {{"));
    o.line(&format!("return {}{nok}", absent(ctx, f)));
    o.line("}");
    let off = f.offset.to_string();
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.line(&format!("return untilNul({blk}[{off}:{end}]){ok}"));
        }
        Kind::Prim(p) if p.len != 1 => {
            let w = p.ty.size();
            o.line(&format!("var a {vt}"));
            o.line("for i := range a {");
            let at = if f.offset == 0 {
                format!("{w}*i")
            } else {
                format!("{off}+{w}*i")
            };
            o.line(&format!("a[i] = {}", load(ctx, p.ty, blk, &at)));
            o.line("}");
            o.line(&format!("return a{ok}"));
        }
        Kind::Prim(p) => {
            if f.is_nullable() {
                o.line(&format!("x := {}", load(ctx, p.ty, blk, &off)));
                o.line(&format!("return x, !({})", is_null("x", &p.null, p.ty)));
            } else {
                o.line(&format!("return {}{ok}", load(ctx, p.ty, blk, &off)));
            }
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            let x = format!("{vt}({})", load_bits(ctx, e.ty, blk, &off));
            let x = if gty(e.ty) != "byte" && !matches!(e.ty, P::Uint16 | P::Uint32 | P::Uint64) {
                format!("{vt}({})", load(ctx, e.ty, blk, &off))
            } else {
                x
            };
            if f.is_nullable() {
                o.line(&format!("x := {x}"));
                o.line(&format!("return x, x != {}", ctx.n.enums[ty].null));
            } else {
                o.line(&format!("return {x}{ok}"));
            }
        }
        Kind::Set { ty } => {
            let s = &ctx.plan.sets[ty];
            o.line(&format!(
                "return {vt}({}){ok}",
                load_bits(ctx, s.ty, blk, &off)
            ));
        }
        Kind::Composite { .. } => {
            o.line(&format!(
                "return {vt}{{b: {blk}[{off}:{end}], av: {}}}{ok}",
                src.av
            ));
        }
    }
    o.line("}");
    o.line("");
    if let Kind::Prim(p) = &f.kind {
        if p.ty == P::Char && p.len != 1 {
            let r = n.raw.as_deref().unwrap_or_default();
            doc(
                o,
                f,
                &format!("{r} reads all {} bytes (NULs included)", p.len),
            );
            o.line(&format!(
                "func ({recv}) {r}() {} {{",
                if opt { "([]byte, bool)" } else { "[]byte" }
            ));
            o.line(&format!("if {cond} {{"));
            o.line(&format!("return nil{nok}"));
            o.line("}");
            o.line(&format!("return {blk}[{off}:{end}:{end}]{ok}"));
            o.line("}");
            o.line("");
        }
    }
}

/// Where an encoder writes: its receiver, what setters return, its block slice, the version
/// written, its encoder state and its element path.
pub struct Sink {
    /// `e *CarEncoder`.
    pub recv: String,
    /// `*CarEncoder`.
    pub ret: String,
    /// The receiver's name (`e`).
    pub this: String,
    /// `e.s.b`.
    pub blk: String,
    /// `e.st.ver` (`None`: composites, written whenever their holder is).
    pub ver: Option<String>,
    /// An expression of type `*encState`.
    pub st: String,
    /// The encoder state as a method receiver (`e.st`).
    pub st_call: String,
    /// The element path for errors.
    pub path: String,
}

/// Emits the setter of `f` on an encoder (nothing for constants).
pub fn setter(o: &mut Out, ctx: &Ctx, f: &Field, n: &FieldNames, s: &Sink) {
    if f.is_constant() {
        return;
    }
    let (recv, ret, this, blk) = (&s.recv, &s.ret, &s.this, &s.blk);
    let end = f.offset + f.size;
    let off = f.offset.to_string();
    let mut cond = format!("len({blk}) >= {end}");
    if let (Some(v), true) = (&s.ver, f.since > 0) {
        cond = format!("{v} >= {} && {cond}", f.since);
    }
    let name = &n.setter();
    if let Kind::Composite { ty } = &f.kind {
        let cn = &ctx.n.composites[ty];
        doc(o, f, &format!("{name} writes the composite"));
        o.line(&format!("func ({recv}) {name}() {} {{", cn.enc));
        o.line(&format!("if {cond} {{"));
        o.line(&format!(
            "return {}{{b: {blk}[{off}:{end}:{end}], st: {}}}",
            cn.enc, s.st
        ));
        o.line("}");
        o.line(&format!("return {}{{st: {}}}", cn.enc, s.st));
        o.line("}");
        o.line("");
        return;
    }
    let vt = value_type(ctx, f);
    doc(o, f, &format!("{name} writes"));
    o.line(&format!("func ({recv}) {name}(v {vt}) {ret} {{"));
    match &f.kind {
        Kind::Prim(p) if p.ty == P::Char && p.len != 1 => {
            o.line(&format!("if len(v) > {} {{", p.len));
            o.line(&format!(
                "{}.fail(ErrValueTooLong, {})",
                s.st_call,
                crate::prim::go_str(&format!("{}.{}", s.path, f.name))
            ));
            o.line(&format!("return {this}"));
            o.line("}");
            o.line(&format!("if {cond} {{"));
            o.line(&format!("b := {blk}[{off}:{end}]"));
            o.line("clear(b[copy(b, v):])");
            o.line("}");
        }
        Kind::Prim(p) if p.len != 1 => {
            let w = p.ty.size();
            let at = if f.offset == 0 {
                format!("{w}*i")
            } else {
                format!("{off}+{w}*i")
            };
            o.line(&format!("if {cond} {{"));
            o.line("for i, x := range v {");
            o.line(&store(ctx, p.ty, blk, &at, "x"));
            o.line("}");
            o.line("}");
        }
        Kind::Prim(p) => {
            o.line(&format!("if {cond} {{"));
            o.line(&store(ctx, p.ty, blk, &off, "v"));
            o.line("}");
        }
        Kind::Enum { ty, .. } => {
            let e = &ctx.plan.enums[ty];
            o.line(&format!("if {cond} {{"));
            o.line(&store(ctx, e.ty, blk, &off, &format!("{}(v)", gty(e.ty))));
            o.line("}");
        }
        Kind::Set { ty } => {
            let st = &ctx.plan.sets[ty];
            o.line(&format!("if {cond} {{"));
            o.line(&store(ctx, st.ty, blk, &off, &format!("{}(v)", gty(st.ty))));
            o.line("}");
        }
        Kind::Composite { .. } => {}
    }
    o.line(&format!("return {this}"));
    o.line("}");
    o.line("");
}
