//! `owned.h`: owned values. Per message, group entry and composite a plain struct
//! (`<prefix>_car_owned`) holding what the decoder's getters read, by value: numbers, enums and
//! sets as their types, arrays as arrays, char arrays as all their bytes (`char[N]`, the text up
//! to the first NUL, as the getter reads it), composites as their owned structs. A field whose
//! getter may find nothing ([`sbekit_plan::Field::may_be_absent`]: an optional value holding its
//! null, or a field newer than the acting version) has a presence flag `has_<name>`, as the
//! getter returns `bool`: false reads as a value of 0 and writes the null value, or nothing for a
//! field newer than the version written. Constants are not stored. Groups are (pointer, count)
//! pairs and var data `sbekit_str` / `sbekit_bytes` views: decoding copies them into a
//! caller-supplied `sbekit_arena` (no `malloc`), and reports `SBEKIT_ARENA_TOO_SMALL`, with the
//! bytes needed, when it is too small; encoding reads them wherever they point. A message's
//! struct carries its `acting_version`: `encode` writes at that version through the encoders,
//! the bytes `reencode` writes for the same values.
//!
//! Functions: `<owned>_from_dec` (from a checked decoder), `_decode` (from a buffer), `_encode`
//! and `_equal` per message; `<owned>_validate` per message, group entry and composite;
//! `<prefix>_any_owned` with `_from_any`, `_decode`, `_encode`, `_equal` and `_validate` over
//! every message (dispatch on the template id, as `decode_any`).
//!
//! `validate` checks a value against the schema from the plan's facts: a number against its
//! field's [`sbekit_plan::Range`] (each element of an array), an enum value against the values
//! [`sbekit_plan::EnumDef`] lists (through one `<enum>_listed` per enum), a composite by its own
//! `validate`, a group's entry count against its count slot's `max` (then each entry), var data's
//! length against its length slot's `max`. It returns 0 or the kind of the first rule broken,
//! with the element's schema path in the `sbekit_error`, as decoding does. `encode` does not call
//! it: a decoded value, whatever it holds, goes back as the bytes it came from.

use crate::fields::{is_array, value_type};
use crate::json::{fields_copy, Src};
use crate::names::{OwnedBody, OwnedMember, OwnedSection};
use crate::prim::{c_str, cty, is_float, literal, ulit};
use crate::{Ctx, Out};
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::{BodyNames, FieldNames};
use sbekit_plan::{Body, EnumDef, Field, Kind, Range, Section};

/// The text of `owned.h`.
pub fn owned_h(ctx: &Ctx) -> String {
    let mut o = Out::default();
    let g = ctx.open_header(&mut o, "owned", &["sbekit_rt", "types", "messages"]);
    o.doc(VALIDATE_RULES);
    o.line("");
    for (k, e) in &ctx.plan.enums {
        listed(&mut o, ctx, k, e);
    }
    for (k, _) in ctx.plan.composites_members_first() {
        composite(&mut o, ctx, k);
    }
    for ((m, n), on) in ctx
        .plan
        .messages
        .iter()
        .zip(&ctx.n.messages)
        .zip(&ctx.owned.messages)
    {
        body(&mut o, ctx, &m.body, n, on, true);
        message_api(&mut o, n, on);
    }
    any(&mut o, ctx);
    o.line(&format!("#endif  // {g}"));
    o.s
}

/// The declaration of the members of field `f`.
fn member_decl(o: &mut Out, ctx: &Ctx, f: &Field, m: &OwnedMember) {
    o.doc(f.description.as_deref().unwrap_or(&format!(
        "The `{}` field{}.",
        f.name,
        if f.is_char_array() {
            ": all its bytes (the text is up to the first NUL)"
        } else {
            ""
        }
    )));
    let v = &m.name;
    let decl = match &f.kind {
        Kind::Composite { ty } => format!("{} {v};", ctx.owned.composites[ty].ty),
        Kind::Prim(p) if p.len != 1 => format!("{} {v}[{}];", cty(p.ty), p.len),
        _ => format!("{} {v};", value_type(ctx, f)),
    };
    o.line(&decl);
    if let Some(h) = &m.has {
        let what = match (f.is_nullable(), f.since > 0) {
            (true, true) => format!(
                "not null (false: written as the null value), and the acting version is {} or newer",
                f.since
            ),
            (true, false) => "not null (false: written as the null value)".to_string(),
            _ => format!(
                "present: the acting version is {} or newer (false: not written)",
                f.since
            ),
        };
        o.doc(&format!("True when `{v}` holds a value: {what}."));
        o.line(&format!("bool {h};"));
    }
}

/// The struct's members for `fields` (those not constant).
fn members_decl(o: &mut Out, ctx: &Ctx, fields: &[Field], members: &[Option<OwnedMember>]) {
    for (f, m) in fields.iter().zip(members) {
        if let Some(m) = m {
            member_decl(o, ctx, f, m);
        }
    }
}

/// Statements reading the fields of decoder `d` into owned value `o`.
fn fields_read(
    o: &mut Out,
    ctx: &Ctx,
    fields: &[Field],
    names: &[FieldNames],
    members: &[Option<OwnedMember>],
) {
    for ((f, n), m) in fields.iter().zip(names).zip(members) {
        let Some(m) = m else {
            continue;
        };
        let (get, v) = (&n.name, &m.name);
        let has = m.has.as_deref();
        match (&f.kind, has) {
            (Kind::Composite { ty }, Some(h)) => {
                let (cdec, cown) = (&ctx.n.composites[ty].dec, &ctx.owned.composites[ty].ty);
                o.line(&format!(
                    "{{ {cdec} x; o->{h} = {get}(d, &x); if (o->{h}) {cown}_sbe_read(&o->{v}, &x); }}"
                ));
            }
            (Kind::Composite { ty }, None) => {
                let (cdec, cown) = (&ctx.n.composites[ty].dec, &ctx.owned.composites[ty].ty);
                o.line(&format!(
                    "{{ const {cdec} x = {get}(d); {cown}_sbe_read(&o->{v}, &x); }}"
                ));
            }
            (Kind::Prim(p), _) if p.ty == P::Char && p.len != 1 => {
                // All the bytes, NULs included: what `reencode` copies.
                let raw = n.raw.as_deref().unwrap_or(get);
                let len = p.len;
                match has {
                    Some(h) => o.line(&format!(
                        "{{ sbekit_str x; o->{h} = {raw}(d, &x); if (o->{h}) memcpy(o->{v}, x.data, {len}); }}"
                    )),
                    None => o.line(&format!(
                        "{{ const sbekit_str x = {raw}(d); memcpy(o->{v}, x.data, {len}); }}"
                    )),
                }
            }
            _ if is_array(f).is_some() => match has {
                Some(h) => o.line(&format!("o->{h} = {get}(d, o->{v});")),
                None => o.line(&format!("{get}(d, o->{v});")),
            },
            (_, Some(h)) => o.line(&format!("o->{h} = {get}(d, &o->{v});")),
            (_, None) => o.line(&format!("o->{v} = {get}(d);")),
        }
    }
}

/// The comparison of the fields' members of `x` and `y` (false returned on a difference).
fn fields_equal(o: &mut Out, ctx: &Ctx, fields: &[Field], members: &[Option<OwnedMember>]) {
    for (f, m) in fields.iter().zip(members) {
        let Some(m) = m else {
            continue;
        };
        let v = &m.name;
        let differ = match &f.kind {
            Kind::Composite { ty } => {
                format!("!{}_equal(&x->{v}, &y->{v})", ctx.owned.composites[ty].ty)
            }
            _ => format!("memcmp(&x->{v}, &y->{v}, sizeof x->{v}) != 0"),
        };
        match &m.has {
            Some(h) => o.line(&format!(
                "if (x->{h} != y->{h} || (x->{h} && {differ})) return false;"
            )),
            None => o.line(&format!("if ({differ}) return false;")),
        }
    }
}

/// `<enum>_listed`: true when a value is one the `k` enum lists.
fn listed(o: &mut Out, ctx: &Ctx, k: &str, e: &EnumDef) {
    let (t, f) = (&ctx.n.enums[k].ty, &ctx.owned.listed[k]);
    o.doc(&format!(
        "True when `v` is a value the `{k}` enum lists (what owned values' `validate` requires)."
    ));
    o.line(&format!("static inline bool {f}({t} v) {{"));
    if e.values.is_empty() {
        o.line("(void)v;");
        o.line("return false;");
    } else {
        let tests: Vec<String> = ctx.n.enums[k]
            .values
            .iter()
            .map(|m| format!("v == {m}"))
            .collect();
        o.line(&format!("return {};", tests.join(" || ")));
    }
    o.line("}");
    o.line("");
}

/// What `validate` checks, once at the top of `owned.h`.
const VALIDATE_RULES: &str =
    "Validation: `<owned>_validate(&o, &err)` checks an owned value against the schema,
    as the other languages' owned values do: numbers within their field's valid range (`minValue`
    to `maxValue`, or the type's range without its null value; each element of an array; a NaN is
    outside any bounds a float field has), enum values the schema lists, composites by their own
    `validate` (paths `<composite>.<member>`), groups of no more entries than their count allows
    (then each entry), var data no longer than its length allows. A field whose `has_` flag is
    false is not checked, nor are char arrays and sets. It returns 0, or the kind of the first
    rule broken (SBEKIT_VALUE_OUT_OF_RANGE, SBEKIT_UNKNOWN_ENUM_VALUE, SBEKIT_COUNT_TOO_LARGE or
    SBEKIT_VALUE_TOO_LONG), also in `err` (when not NULL) with the element's schema path
    (`Car.modelYear`) and offset 0.
    `encode` does not call it: it writes what a value holds, so that a decoded message goes back
    as it came. Validate the values you build before encoding them.";

/// The doc of every `validate`.
const VALIDATE_DOC: &str = "Checks `o` against the schema (the rules are at the top of this header): 0, or the kind of the first rule broken, with the element's path in `err` (when not NULL). `encode` does not call it.";

/// True when the checks of `fields` loop over an array (with `i`).
fn fields_loop(fields: &[Field]) -> bool {
    fields.iter().any(|f| {
        let array = matches!(&f.kind, Kind::Prim(p) if p.ty != P::Char && p.len != 1);
        array && f.range.is_some() && !f.is_constant()
    })
}

/// The test that number `x` of type `ty` is outside `range` (each bound one the type can
/// exceed, so the test can hold; a NaN is outside any float bounds).
fn out_of_range(x: &str, ty: P, r: &Range) -> String {
    let (lo, hi) = (
        r.min.as_ref().map(|b| literal(b, ty)),
        r.max.as_ref().map(|b| literal(b, ty)),
    );
    if is_float(ty) {
        let within: Vec<String> = lo
            .map(|b| format!("{x} >= {b}"))
            .into_iter()
            .chain(hi.map(|b| format!("{x} <= {b}")))
            .collect();
        format!("!({})", within.join(" && "))
    } else {
        let beyond: Vec<String> = lo
            .map(|b| format!("{x} < {b}"))
            .into_iter()
            .chain(hi.map(|b| format!("{x} > {b}")))
            .collect();
        beyond.join(" || ")
    }
}

/// `validate`'s checks of the fields' members of `o`; `path` is the owner's schema path.
fn fields_validate(
    o: &mut Out,
    ctx: &Ctx,
    fields: &[Field],
    members: &[Option<OwnedMember>],
    path: &str,
) {
    for (f, m) in fields.iter().zip(members) {
        let Some(m) = m else {
            continue;
        };
        let v = &m.name;
        let fail = |kind: &str| {
            format!(
                "return sbekit_fail(err, {kind}, 0, {});",
                c_str(&format!("{path}.{}", f.name))
            )
        };
        let when = |test: &str| match &m.has {
            Some(h) => format!("if (o->{h} && ({test}))"),
            None => format!("if ({test})"),
        };
        let guarded = |stmt: &str| match &m.has {
            Some(h) => format!("if (o->{h}) {stmt}"),
            None => stmt.to_string(),
        };
        match &f.kind {
            Kind::Prim(p) if p.ty == P::Char => {}
            Kind::Prim(p) => {
                // An optional value holding its null value would read back as not held.
                if let Some(n) = f.null_when_held() {
                    let test = crate::prim::is_null(&format!("o->{v}"), n, p.ty);
                    o.line(&format!(
                        "{} {}",
                        when(&test),
                        fail("SBEKIT_VALUE_OUT_OF_RANGE")
                    ));
                }
                let Some(r) = &f.range else {
                    continue;
                };
                if p.len == 1 {
                    let test = out_of_range(&format!("o->{v}"), p.ty, r);
                    o.line(&format!(
                        "{} {}",
                        when(&test),
                        fail("SBEKIT_VALUE_OUT_OF_RANGE")
                    ));
                } else {
                    let test = out_of_range(&format!("o->{v}[i]"), p.ty, r);
                    o.line(&guarded(&format!(
                        "for (i = 0; i < {}; ++i) if ({test}) {}",
                        p.len,
                        fail("SBEKIT_VALUE_OUT_OF_RANGE")
                    )));
                }
            }
            Kind::Enum { ty, .. } => {
                let test = format!("!{}(o->{v})", ctx.owned.listed[ty]);
                o.line(&format!(
                    "{} {}",
                    when(&test),
                    fail("SBEKIT_UNKNOWN_ENUM_VALUE")
                ));
            }
            Kind::Set { .. } => {}
            Kind::Composite { ty } => o.line(&guarded(&format!(
                "{{ const int r = {}_validate(&o->{v}, err); if (r != 0) return r; }}",
                ctx.owned.composites[ty].ty
            ))),
        }
    }
}

/// A composite's owned struct, its `equal`, and its read and write.
fn composite(o: &mut Out, ctx: &Ctx, k: &str) {
    let n = &ctx.n.composites[k];
    let on = &ctx.owned.composites[k];
    let t = &on.ty;
    let members = ctx.plan.gated_members(k);
    o.doc(&format!(
        "An owned `{k}` composite: what `{}` reads, held by value.",
        n.dec
    ));
    o.line(&format!("typedef struct {t} {{"));
    members_decl(o, ctx, &members, &on.members);
    if let Some(e) = &on.empty {
        o.doc("Nothing to hold (every member is a constant): a placeholder.");
        o.line(&format!("char {e};"));
    }
    o.line(&format!("}} {t};"));
    o.doc("True when `x` and `y` hold the same values (numbers bit for bit, as written).");
    o.line(&format!(
        "static inline bool {t}_equal(const {t}* x, const {t}* y) {{"
    ));
    o.line("(void)x;");
    o.line("(void)y;");
    fields_equal(o, ctx, &members, &on.members);
    o.line("return true;");
    o.line("}");
    o.doc(VALIDATE_DOC);
    o.line(&format!(
        "static inline int {t}_validate(const {t}* o, sbekit_error* err) {{"
    ));
    if fields_loop(&members) {
        o.line("size_t i;");
    }
    o.line("(void)o;");
    o.line("(void)err;");
    fields_validate(o, ctx, &members, &on.members, k);
    o.line("return 0;");
    o.line("}");
    o.doc(&format!("Internal: reads a `{k}` composite."));
    o.line(&format!(
        "static inline void {t}_sbe_read({t}* o, const {}* d) {{",
        n.dec
    ));
    o.line("memset(o, 0, sizeof *o);");
    o.line("(void)d;");
    fields_read(o, ctx, &members, &n.members, &on.members);
    o.line("}");
    o.doc(&format!("Internal: writes an owned `{k}` composite."));
    o.line(&format!(
        "static inline void {t}_sbe_write(const {t}* d, {} c) {{",
        n.enc
    ));
    o.line(&format!("{}* e = &c;", n.enc));
    o.line("(void)d;");
    o.line("(void)e;");
    fields_copy(o, ctx, &members, &n.members, Src::Owned(&on.members));
    o.line("}");
    o.line("");
}

/// A body's owned struct (its groups' entries first), its `equal`, and its read and write.
fn body(o: &mut Out, ctx: &Ctx, b: &Body, n: &BodyNames, on: &OwnedBody, msg: bool) {
    let mut gi = 0;
    for s in &b.sections {
        if let Section::Group { body: gb, .. } = s {
            body(o, ctx, gb, &n.children[gi], &on.children[gi], false);
            gi += 1;
        }
    }
    let t = &on.ty;
    let sections: Vec<(&Section, &OwnedSection)> = b.sections.iter().zip(&on.sections).collect();
    // The entries' owned types, per group section.
    let entry = |i: usize| -> &str {
        let k = b.sections[..i]
            .iter()
            .filter(|s| s.as_group().is_some())
            .count();
        &on.children[k].ty
    };
    if msg {
        o.doc(&format!(
            "An owned `{}` message: what `{}` reads, held by value. Groups and var data point into the arena it was decoded into (or wherever the caller points them).",
            n.path, n.dec
        ));
    } else {
        o.doc(&format!(
            "An owned entry of the `{}` group: what `{}` reads, held by value.",
            n.path, n.dec
        ));
    }
    o.line(&format!("typedef struct {t} {{"));
    if msg {
        o.doc("The schema version the message is written at (its writer's, from the header): `encode` writes that version's block and sections.");
        o.line("uint64_t acting_version;");
    }
    members_decl(o, ctx, &b.fields, &on.fields);
    for (i, (s, m)) in sections.iter().enumerate() {
        let v = &m.name;
        let since = if s.since() > 0 {
            format!(
                " Since schema version {}: empty in a message of an older version.",
                s.since()
            )
        } else {
            String::new()
        };
        match s {
            Section::Group { name, .. } => {
                o.doc(&format!(
                    "The entries of the `{name}` group (`{}` of them).{since}",
                    m.count.as_deref().unwrap_or_default()
                ));
                o.line(&format!("const {}* {v};", entry(i)));
                o.doc(&format!("The number of entries of `{v}`."));
                o.line(&format!(
                    "size_t {};",
                    m.count.as_deref().unwrap_or_default()
                ));
            }
            Section::Var { name, text, .. } => {
                o.doc(&format!("The `{name}` data.{since}"));
                let ty = if *text { "sbekit_str" } else { "sbekit_bytes" };
                o.line(&format!("{ty} {v};"));
            }
        }
    }
    if let Some(e) = &on.empty {
        o.doc("Nothing to hold (no fields but constants, no sections): a placeholder.");
        o.line(&format!("char {e};"));
    }
    o.line(&format!("}} {t};"));

    // equal
    o.doc("True when `x` and `y` hold the same values (numbers bit for bit, as written; groups and var data by content).");
    o.line(&format!(
        "static inline bool {t}_equal(const {t}* x, const {t}* y) {{"
    ));
    if b.groups().next().is_some() {
        o.line("size_t i;");
    }
    o.line("(void)x;");
    o.line("(void)y;");
    if msg {
        o.line("if (x->acting_version != y->acting_version) return false;");
    }
    fields_equal(o, ctx, &b.fields, &on.fields);
    for (i, (s, m)) in sections.iter().enumerate() {
        let v = &m.name;
        match s {
            Section::Group { .. } => {
                let c = m.count.as_deref().unwrap_or_default();
                o.line(&format!("if (x->{c} != y->{c}) return false;"));
                o.line(&format!(
                    "for (i = 0; i < x->{c}; ++i) if (!{}_equal(&x->{v}[i], &y->{v}[i])) return false;",
                    entry(i)
                ));
            }
            Section::Var { .. } => o.line(&format!(
                "if (x->{v}.len != y->{v}.len || (x->{v}.len > 0 && memcmp(x->{v}.data, y->{v}.data, x->{v}.len) != 0)) return false;"
            )),
        }
    }
    o.line("return true;");
    o.line("}");

    // validate
    o.doc(VALIDATE_DOC);
    o.line(&format!(
        "static inline int {t}_validate(const {t}* o, sbekit_error* err) {{"
    ));
    if b.groups().next().is_some() || fields_loop(&b.fields) {
        o.line("size_t i;");
    }
    o.line("(void)o;");
    o.line("(void)err;");
    fields_validate(o, ctx, &b.fields, &on.fields, &n.path);
    for (i, (s, m)) in sections.iter().enumerate() {
        let v = &m.name;
        let spath = c_str(&format!("{}.{}", n.path, s.name()));
        match s {
            Section::Group { count, .. } => {
                let c = m.count.as_deref().unwrap_or_default();
                if count.max != u64::MAX {
                    o.line(&format!(
                        "if (o->{c} > {}) return sbekit_fail(err, SBEKIT_COUNT_TOO_LARGE, 0, {spath});",
                        ulit(count.max)
                    ));
                }
                o.line(&format!(
                    "for (i = 0; i < o->{c}; ++i) {{ const int r = {}_validate(&o->{v}[i], err); if (r != 0) return r; }}",
                    entry(i)
                ));
            }
            Section::Var { len, .. } => {
                if len.max != u64::MAX {
                    o.line(&format!(
                        "if (o->{v}.len > {}) return sbekit_fail(err, SBEKIT_VALUE_TOO_LONG, 0, {spath});",
                        ulit(len.max)
                    ));
                }
            }
        }
    }
    o.line("return 0;");
    o.line("}");

    // read
    let d = &n.dec;
    o.doc(&format!(
        "Internal: reads `{}`, copying groups and var data into `a` (counted, not copied, once it is full).",
        n.path
    ));
    o.line(&format!(
        "static inline void {t}_sbe_read({t}* o, const {d}* d, sbekit_arena* a) {{"
    ));
    o.line("memset(o, 0, sizeof *o);");
    o.line("(void)d;");
    o.line("(void)a;");
    if msg {
        o.line(&format!("o->acting_version = {d}_acting_version(d);"));
    }
    fields_read(o, ctx, &b.fields, &n.fields, &on.fields);
    let mut gi = 0;
    for (i, ((s, m), sn)) in sections.iter().zip(&n.sections).enumerate() {
        let (v, get) = (&m.name, &sn.name);
        match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                let e = entry(i);
                let c = m.count.as_deref().unwrap_or_default();
                o.line("{");
                o.line(&format!("{} it = {get}(d);", cn.iter));
                o.line(&format!("const size_t n = {}_count(&it);", cn.iter));
                o.line(&format!(
                    "{e}* v = ({e}*)sbekit_arena_take(a, n, sizeof({e}), _Alignof({e}));"
                ));
                o.doc("Where entries go once the arena is full: read all the same, to count what they need.");
                o.line(&format!("{e} spare;"));
                o.line(&format!("{} x;", cn.dec));
                o.line("size_t i = 0;");
                o.line(&format!("while ({}_next(&it, &x)) {{", cn.iter));
                o.line(&format!("{e}_sbe_read(v != NULL ? &v[i] : &spare, &x, a);"));
                o.line("++i;");
                o.line("}");
                o.line(&format!("o->{v} = v;"));
                o.line(&format!("o->{c} = v != NULL ? n : 0;"));
                o.line("}");
            }
            Section::Var { text, .. } => {
                let (ty, ct) = if *text {
                    ("sbekit_str", "char")
                } else {
                    ("sbekit_bytes", "uint8_t")
                };
                o.line("{");
                o.line(&format!("const {ty} x = {get}(d);"));
                o.line(&format!(
                    "{ct}* p = ({ct}*)sbekit_arena_take(a, x.len, 1, 1);"
                ));
                o.line("if (p != NULL) memcpy(p, x.data, x.len);");
                o.line(&format!("o->{v}.data = p;"));
                o.line(&format!("o->{v}.len = p != NULL ? x.len : 0;"));
                o.line("}");
            }
        }
    }
    o.line("}");

    // write
    let e = &n.enc;
    o.doc(&format!(
        "Internal: writes an owned `{}` with its encoder (as `{d}_sbe_copy` writes a decoded one).",
        n.path
    ));
    o.line(&format!(
        "static inline void {t}_sbe_write(const {t}* d, {e}* e) {{"
    ));
    if b.groups().next().is_some() {
        o.line("size_t i;");
    }
    o.line("(void)d;");
    o.line("(void)e;");
    fields_copy(o, ctx, &b.fields, &n.fields, Src::Owned(&on.fields));
    let mut gi = 0;
    for (i, ((s, m), sn)) in sections.iter().zip(&n.sections).enumerate() {
        let v = &m.name;
        match s {
            Section::Group { .. } => {
                let cn = &n.children[gi];
                gi += 1;
                let c = m.count.as_deref().unwrap_or_default();
                o.line("{");
                o.line(&format!("{} w;", cn.writer));
                if let Some(counted) = &sn.set_counted {
                    // Entries of a fixed size: all reserved at once, located by index.
                    o.line(&format!("{counted}(e, &w, d->{c});"));
                    o.line(&format!(
                        "for (i = 0; i < d->{c}; ++i) {}_sbe_write(&d->{v}[i], {}_entry(&w, i));",
                        entry(i),
                        cn.writer
                    ));
                } else {
                    o.line(&format!("{}(e, &w);", sn.setter()));
                    o.line(&format!(
                        "for (i = 0; i < d->{c}; ++i) {}_sbe_write(&d->{v}[i], {}_next(&w));",
                        entry(i),
                        cn.writer
                    ));
                    o.line(&format!("{}_end(&w);", cn.writer));
                }
                o.line("}");
            }
            Section::Var { .. } => {
                o.line(&format!("{}(e, d->{v}.data, d->{v}.len);", sn.setter()));
            }
        }
    }
    o.line("}");
    o.line("");
}

/// A message's `from_dec`, `decode` and `encode`.
fn message_api(o: &mut Out, n: &BodyNames, on: &OwnedBody) {
    let (t, d, e) = (&on.ty, &n.dec, &n.enc);
    let path = c_str(&n.path);
    o.doc("The values decoder `d` reads, into `o`: groups' entries and var data copied into arena `a`. 0, or SBEKIT_ARENA_TOO_SMALL (in `err` when not NULL) with `a->used` the bytes the arena needed; `o` is then not usable.");
    o.line(&format!(
        "static inline int {t}_from_dec({t}* o, const {d}* d, sbekit_arena* a, sbekit_error* err) {{"
    ));
    o.line(&format!("{t}_sbe_read(o, d, a);"));
    o.line(&format!(
        "if (!sbekit_arena_ok(a)) return sbekit_fail(err, SBEKIT_ARENA_TOO_SMALL, 0, {path});"
    ));
    o.line("return 0;");
    o.line("}");
    o.doc(&format!("Decodes the `{}` message at the start of `b` (`n` bytes; checked as `{d}_decode` checks it) into `o`, copying groups and var data into arena `a`: 0, or the error kind (details in `err`).", n.path));
    o.line(&format!(
        "static inline int {t}_decode({t}* o, const uint8_t* b, size_t n, sbekit_arena* a, sbekit_error* err) {{"
    ));
    o.line(&format!("{d} d;"));
    o.line(&format!("const int r = {d}_decode(&d, b, n, err);"));
    o.line("if (r != 0) return r;");
    o.line(&format!("return {t}_from_dec(o, &d, a, err);"));
    o.line("}");
    o.doc("Writes `o` with the encoders at its acting version into `buf` (`cap` bytes), header first: the bytes the encoders write for the same values (an older version's block and sections for an older acting version). 0 and the length in `*len`, or the first error's kind (details in `err`): a buffer too small, too many entries, var data too long. It writes what `o` holds without calling `validate` (a decoded message goes back byte for byte, unknown enum values and numbers out of range included): validate values you build first.");
    o.line(&format!(
        "static inline int {t}_encode(const {t}* o, uint8_t* buf, size_t cap, size_t* len, sbekit_error* err) {{"
    ));
    o.line(&format!("{e} e;"));
    o.line(&format!("{e}_init(&e, buf, cap, o->acting_version);"));
    o.line(&format!("{t}_sbe_write(o, &e);"));
    o.line(&format!("return {e}_finish(&e, len, err);"));
    o.line("}");
    o.line("");
}

/// The owned value of any message, and its functions.
fn any(o: &mut Out, ctx: &Ctx) {
    let p = &ctx.n.package;
    let up = &ctx.up;
    let a = &ctx.owned.any;
    let all = || ctx.n.messages.iter().zip(&ctx.owned.messages).enumerate();
    o.doc(&format!(
        "An owned message of any of the schema's types: what `{p}_decode_any` reads, held by value."
    ));
    o.line(&format!("typedef struct {a} {{"));
    o.doc(&format!(
        "Which message (`{up}_ANY_*`, as `{p}_any.which`)."
    ));
    o.line("int which;");
    o.doc("The message's owned value.");
    o.line("union {");
    o.doc("No message.");
    o.line("char none;");
    for (i, (n, on)) in all() {
        o.doc(&format!("`{}`.", n.path));
        o.line(&format!("{} m{i};", on.ty));
    }
    o.line("} u;");
    o.line(&format!("}} {a};"));
    o.doc("The values decoded message `m` reads, into `o` (groups and var data copied into arena `a`): 0, or the error kind (details in `err`), SBEKIT_ARENA_TOO_SMALL with `a->used` the bytes needed.");
    o.line(&format!(
        "static inline int {a}_from_any({a}* o, const {p}_any* m, sbekit_arena* a, sbekit_error* err) {{"
    ));
    o.line("o->which = m->which;");
    for (i, (n, on)) in all() {
        o.line(&format!(
            "if (m->which == {}) return {}_from_dec(&o->u.m{i}, &m->u.m{i}, a, err);",
            n.tag, on.ty
        ));
    }
    o.line("(void)a;");
    o.line(&format!("o->which = {up}_ANY_NONE;"));
    o.line("return sbekit_fail(err, SBEKIT_WRONG_TEMPLATE_ID, 0, \"\");");
    o.line("}");
    o.doc("Decodes the message at the start of `b` (`n` bytes), whichever it is (as `decode_any`), into `o`, copying groups and var data into arena `a`: 0, or the error kind (details in `err`).");
    o.line(&format!(
        "static inline int {a}_decode({a}* o, const uint8_t* b, size_t n, sbekit_arena* a, sbekit_error* err) {{"
    ));
    o.line(&format!("{p}_any m;"));
    o.line(&format!("const int r = {p}_decode_any(&m, b, n, err);"));
    o.line(&format!("o->which = {up}_ANY_NONE;"));
    o.line("if (r != 0) return r;");
    o.line(&format!("return {a}_from_any(o, &m, a, err);"));
    o.line("}");
    // `<any>_<f>(o, <args>, err)`: the message's `<f>`, or SBEKIT_WRONG_TEMPLATE_ID.
    let dispatch = |o: &mut Out, doc: &str, f: &str, params: &str, args: &[&str]| {
        o.doc(doc);
        o.line(&format!(
            "static inline int {a}_{f}(const {a}* o, {params}sbekit_error* err) {{"
        ));
        for (i, (n, on)) in all() {
            let pass: String = args.iter().map(|x| format!("{x}, ")).collect();
            o.line(&format!(
                "if (o->which == {}) return {}_{f}(&o->u.m{i}, {pass}err);",
                n.tag, on.ty
            ));
        }
        for x in args {
            o.line(&format!("(void){x};"));
        }
        o.line("return sbekit_fail(err, SBEKIT_WRONG_TEMPLATE_ID, 0, \"\");");
        o.line("}");
    };
    dispatch(
        o,
        "Writes owned message `o` at its acting version into `buf` (`cap` bytes), as its `encode`: 0 and the length in `*len`, or the first error's kind (details in `err`).",
        "encode",
        "uint8_t* buf, size_t cap, size_t* len, ",
        &["buf", "cap", "len"],
    );
    dispatch(
        o,
        "Checks owned message `o` against the schema, as its `validate` (0, or the first rule broken, with its path in `err`); SBEKIT_WRONG_TEMPLATE_ID when it holds no message. `encode` does not call it.",
        "validate",
        "",
        &[],
    );
    o.doc("True when `x` and `y` are the same message with the same values.");
    o.line(&format!(
        "static inline bool {a}_equal(const {a}* x, const {a}* y) {{"
    ));
    o.line("if (x->which != y->which) return false;");
    for (i, (n, on)) in all() {
        o.line(&format!(
            "if (x->which == {}) return {}_equal(&x->u.m{i}, &y->u.m{i});",
            n.tag, on.ty
        ));
    }
    o.line("return true;");
    o.line("}");
    o.line("");
}
