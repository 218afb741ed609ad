//! The JSON printer and the re-encoder, rendered from the plan: `to_json` prints a decoded
//! message as `sbekit decode` does (text by `sbekit_otf::text`'s rule), and `reencode` writes a
//! decoded message again with the generated encoders at its acting version. Together they are
//! what `sbekit conformance` checks (the conformance program that drives them is rendered by
//! [`super::conformance`]).
//!
//! Everything here is added after the codecs and only calls their public accessors and setters
//! (plus, for older acting versions, the encoders' blocks), so the codecs stay as they are.

use super::*;
use sbekit_plan::json::{quote, utf8_declared as utf8, Member, SectionValue};

/// A Rust string literal that writes `s`.
fn put(s: &str) -> String {
    format!("w.write_str({s:?})?;")
}

/// What a getter returns, beyond the value: `Option` when absent (a body's field newer than
/// version 0) or null. A composite's member newer than its field reads as its value: the
/// printer gates it on the acting version instead.
fn getter_optional(f: &Field, in_body: bool) -> bool {
    if in_body {
        f.may_be_absent()
    } else {
        f.is_nullable()
    }
}

/// True when the setter takes an `Option` (as the getter returns, for a nullable value).
fn setter_optional(f: &Field) -> bool {
    f.is_nullable()
}

/// Where a copy into the encoders reads its values: a decoder's accessors (`reencode`), or an
/// owned value's fields (`encode_into`, see [`super::owned`]). Both are named `d` in the
/// rendered functions, whose names differ by [`Src::tag`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Src {
    /// A flyweight decoder (`CarDecoder`).
    Decoder,
    /// An owned value (`CarOwned`).
    Owned,
}

impl Src {
    /// The word in the rendered functions' names: `sbe_copy_b3`, `sbe_owned_b3`.
    pub(super) fn tag(self) -> &'static str {
        match self {
            Src::Decoder => "copy",
            Src::Owned => "owned",
        }
    }

    /// The parameter type of a body or composite whose decoder type is `{p}Decoder`.
    pub(super) fn param(self, p: &str) -> String {
        match self {
            Src::Decoder => format!("{p}Decoder<'_>"),
            Src::Owned => format!("{p}Owned"),
        }
    }

    /// The value of field `g` (an escaped name) as its getter returns it.
    fn get(self, g: &str, f: &Field, in_body: bool) -> String {
        match self {
            Src::Decoder => format!("d.{g}()"),
            Src::Owned if is_byte_array(f) => {
                if getter_optional(f, in_body) {
                    format!("d.{g}.as_ref()")
                } else {
                    format!("&d.{g}")
                }
            }
            Src::Owned => format!("d.{g}"),
        }
    }

    /// A group's entries as an iterator of what the entry copy takes, and their count.
    fn entries(self, g: &str, since: u32) -> (String, String) {
        match (self, since > 0) {
            (Src::Decoder, false) => (format!("d.{g}()"), format!("d.{g}().count()")),
            (Src::Decoder, true) => (
                format!("d.{g}().into_iter().flatten()"),
                format!("d.{g}().into_iter().flatten().count()"),
            ),
            (Src::Owned, _) => (format!("d.{g}.iter()"), format!("d.{g}.len()")),
        }
    }

    /// A group entry as the entry copy takes it (`x` is what [`Src::entries`] yields).
    fn entry(self) -> &'static str {
        match self {
            Src::Decoder => "&x",
            Src::Owned => "x",
        }
    }

    /// A var-data section's bytes.
    fn var(self, g: &str, since: u32) -> String {
        match (self, since > 0) {
            (Src::Decoder, false) => format!("d.{g}()"),
            (Src::Decoder, true) => format!("d.{g}().unwrap_or(&[])"),
            (Src::Owned, _) => format!("d.{g}.as_slice()"),
        }
    }
}

/// The names a body's copy functions use: its function index, its groups' indices, and the
/// decoder's (`fields`, `sections`) and encoder's (`efields`, `esections`) member names.
pub(super) struct CopyNames<'a, 'p> {
    pub(super) me: usize,
    pub(super) children: &'a [usize],
    pub(super) fields: &'a [(String, &'p Field)],
    pub(super) efields: &'a [(String, &'p Field)],
    pub(super) sections: &'a [(String, &'p Section)],
    pub(super) esections: &'a [(String, &'p Section)],
}

/// True for an array of bytes (`char` or `uint8`): its getter returns a reference.
pub(super) fn is_byte_array(f: &Field) -> bool {
    matches!(&f.kind, Kind::Prim(p) if p.len != 1 && rty(p.ty) == "u8")
}

impl Gen<'_> {
    pub(super) fn comp_index(&self, ty: &str) -> usize {
        self.s.composites.keys().position(|k| k == ty).unwrap_or(0)
    }
    fn enum_index(&self, ty: &str) -> usize {
        self.s.enums.keys().position(|k| k == ty).unwrap_or(0)
    }
    fn set_index(&self, ty: &str) -> usize {
        self.s.sets.keys().position(|k| k == ty).unwrap_or(0)
    }

    /// Statements writing the value `x` (the getter's value, without `Option`) of field `f`.
    fn value_json(&self, f: &Field, x: &str, av: &str) -> String {
        match &f.kind {
            Kind::Prim(p) if p.ty == PrimitiveType::Char && p.len == 1 => {
                format!("sbe_json_text(w, &[{x}], true)?;")
            }
            Kind::Prim(p) if p.ty == PrimitiveType::Char => format!(
                "sbe_json_text(w, rt::trim_nul({x}), {})?;",
                utf8(p.char_encoding.as_deref())
            ),
            Kind::Prim(p) if p.len != 1 => {
                let one = if p.ty.is_float() {
                    format!("sbe_json_{}(w, *v)?;", rty(p.ty))
                } else {
                    "write!(w, \"{}\", v)?;".to_string()
                };
                format!("w.write_str(\"[\")?; for (i, v) in {x}.iter().enumerate() {{ if i > 0 {{ w.write_str(\",\")?; }} {one} }} w.write_str(\"]\")?;")
            }
            Kind::Prim(p) if p.ty.is_float() => format!("sbe_json_{}(w, {x})?;", rty(p.ty)),
            Kind::Prim(_) => format!("write!(w, \"{{}}\", {x})?;"),
            Kind::Enum { ty, .. } => format!("sbe_json_e{}(w, {x})?;", self.enum_index(ty)),
            Kind::Set { ty } => format!("sbe_json_s{}(w, {x})?;", self.set_index(ty)),
            Kind::Composite { ty } => {
                format!("sbe_json_c{}(w, &{x}, {av})?;", self.comp_index(ty))
            }
        }
    }

    /// Statements writing the fields of a block or composite as JSON members. `d` is the
    /// decoder, `av` the acting version expression; `gate` gives the version below which a
    /// composite member is absent.
    fn fields_json(&mut self, fields: &[(String, &Field)], in_body: bool, av: &str, gate: u32) {
        let mut out = String::new();
        for (k, (m, f)) in fields.iter().enumerate() {
            let (key, fixed) = match self.s.json_member(k, f, true) {
                Member::Fixed(text) => {
                    w!(out, "{}", put(&text));
                    continue;
                }
                Member::Read(r) => (r.key, r.fixed),
            };
            w!(out, "{}", put(&key));
            let id = escape_with(self.keywords, m);
            let body = if getter_optional(f, in_body) {
                format!(
                    "match d.{id}() {{ {SOME}(x) => {{ {} }} {NONE} => {{ {} }} }}",
                    self.value_json(f, "x", av),
                    put(&fixed)
                )
            } else {
                format!("{{ {} }}", self.value_json(f, &format!("d.{id}()"), av))
            };
            if !in_body && f.since > gate {
                w!(
                    out,
                    "if {av} < {} {{ {} }} else {body}",
                    f.since,
                    put(&fixed)
                );
            } else {
                w!(out, "{body}");
            }
        }
        self.out.push_str(&out);
    }

    /// Statements copying the fields of `d` (a decoder or owned value, as `src` says) into
    /// encoder `e`.
    pub(super) fn fields_copy(
        &mut self,
        dec: &[(String, &Field)],
        enc: &[(String, &Field)],
        in_body: bool,
        src: Src,
    ) {
        let mut out = String::new();
        for ((dm, f), (em, _)) in dec.iter().zip(enc) {
            if f.is_constant() {
                continue;
            }
            let g = escape_with(self.keywords, dm);
            let s = escape_with(self.keywords, em);
            let versioned = in_body && f.since > 0;
            match &f.kind {
                Kind::Composite { ty } => {
                    let c = self.comp_index(ty);
                    let t = src.tag();
                    match (versioned, src) {
                        (true, Src::Decoder) => w!(
                            out,
                            "if let {SOME}(x) = d.{g}() {{ sbe_{t}_c{c}(&x, e.{s}()); }}"
                        ),
                        (true, Src::Owned) => w!(
                            out,
                            "if let {SOME}(x) = &d.{g} {{ sbe_{t}_c{c}(x, e.{s}()); }}"
                        ),
                        (false, Src::Decoder) => w!(out, "sbe_{t}_c{c}(&d.{g}(), e.{s}());"),
                        (false, Src::Owned) => w!(out, "sbe_{t}_c{c}(&d.{g}, e.{s}());"),
                    }
                }
                _ if versioned && !setter_optional(f) => {
                    let x = src.get(&g, f, in_body);
                    w!(out, "if let {SOME}(x) = {x} {{ e.{s}(x); }}");
                }
                _ => w!(out, "e.{s}({});", src.get(&g, f, in_body)),
            }
        }
        self.out.push_str(&out);
    }

    /// The copy of composite `name` (the `i`th) into its encoder: `sbe_copy_c{i}` from a
    /// decoder, `sbe_owned_c{i}` from an owned value.
    pub(super) fn composite_copy(
        &mut self,
        i: usize,
        name: &str,
        members: &[(String, &Field)],
        emembers: &[(String, &Field)],
        src: Src,
    ) {
        let t = type_name(name);
        let out = &mut self.out;
        let what = match src {
            Src::Decoder => "Copies a",
            Src::Owned => "Writes an owned",
        };
        w!(out, "/// {what} `{name}` composite.");
        w!(
            out,
            "#[allow(dead_code)] // A composite used only by constants has no caller."
        );
        w!(
            out,
            "fn sbe_{}_c{i}(d: &{}, mut e: {t}Encoder<'_>) {{",
            src.tag(),
            src.param(&t)
        );
        w!(out, "let _ = (d, &mut e);");
        self.fields_copy(members, emembers, false, src);
        w!(self.out, "}}");
        w!(self.out, "");
    }

    /// The JSON printer and the re-encoder for the whole plan.
    pub(super) fn json(&mut self) {
        let s = self.s;
        {
            let out = &mut self.out;
            w!(out, "/// Bytes as a JSON string: valid UTF-8 kept when `utf8`, otherwise one code point per byte");
            w!(out, "/// (Latin-1), as `sbekit decode` prints text.");
            w!(out, "#[allow(dead_code)] // Not every schema has text.");
            w!(out, "fn sbe_json_text<W: ::core::fmt::Write>(w: &mut W, b: &[u8], utf8: bool) -> ::core::fmt::Result {{");
            w!(out, "w.write_char('\"')?;");
            w!(
                out,
                "let text = if utf8 {{ ::core::str::from_utf8(b).ok() }} else {{ {NONE} }};"
            );
            w!(out, "let mut one = |c: char| -> ::core::fmt::Result {{ match c {{ '\"' => w.write_str(\"\\\\\\\"\"), '\\\\' => w.write_str(\"\\\\\\\\\"), c if (c as u32) < 0x20 => write!(w, \"\\\\u{{:04x}}\", c as u32), c => w.write_char(c) }} }};");
            w!(out, "match text {{ {SOME}(t) => {{ for c in t.chars() {{ one(c)?; }} }} {NONE} => {{ for &x in b {{ one(char::from(x))?; }} }} }}");
            w!(out, "w.write_char('\"')");
            w!(out, "}}");
            w!(out, "");
            for t in ["f32", "f64"] {
                w!(out, "/// A `{t}` as JSON: the shortest text that reads back the same; `null` if not finite.");
                w!(out, "#[allow(dead_code)] // Not every schema has floats.");
                w!(out, "fn sbe_json_{t}<W: ::core::fmt::Write>(w: &mut W, v: {t}) -> ::core::fmt::Result {{");
                w!(out, "if v.is_finite() {{ write!(w, \"{{v:?}}\") }} else {{ w.write_str(\"null\") }}");
                w!(out, "}}");
                w!(out, "");
            }
        }
        for (i, (name, e)) in s.enums.iter().enumerate() {
            let t = type_name(name);
            let out = &mut self.out;
            w!(out, "/// A `{name}` value as JSON: its name, `null` for the null value, else the number.");
            w!(
                out,
                "#[allow(dead_code)] // An enum used only by constants has no caller."
            );
            w!(out, "fn sbe_json_e{i}<W: ::core::fmt::Write>(w: &mut W, v: {t}) -> ::core::fmt::Result {{");
            w!(out, "let raw = v.to_raw();");
            w!(
                out,
                "if raw == {} {{ return w.write_str(\"null\"); }}",
                lit(&e.null, e.ty)
            );
            for (vn, v, _) in &e.values {
                w!(
                    out,
                    "if raw == {} {{ return w.write_str({:?}); }}",
                    lit(v, e.ty),
                    quote(vn)
                );
            }
            // As `sbekit decode`: chars and unsigned values zero-extended, signed ones
            // sign-extended, all as a signed 64-bit number.
            let raw = if e.ty == PrimitiveType::Uint64 {
                "raw as i64"
            } else {
                "i64::from(raw)"
            };
            w!(out, "write!(w, \"{{}}\", {raw})");
            w!(out, "}}");
            w!(out, "");
        }
        for (i, (name, d)) in s.sets.iter().enumerate() {
            let t = type_name(name);
            let out = &mut self.out;
            w!(
                out,
                "/// A `{name}` value as JSON: each choice, true or false."
            );
            w!(
                out,
                "#[allow(dead_code)] // A set used only by constants has no caller."
            );
            w!(out, "fn sbe_json_s{i}<W: ::core::fmt::Write>(w: &mut W, v: {t}) -> ::core::fmt::Result {{");
            if d.choices.is_empty() {
                w!(out, "let _ = v;");
            } else {
                w!(out, "let b = v.bits();");
            }
            w!(out, "{}", put("{"));
            for (k, (c, bit, _)) in d.choices.iter().enumerate() {
                let key = format!("{}{}:", if k == 0 { "" } else { "," }, quote(c));
                w!(out, "{}", put(&key));
                w!(
                    out,
                    "w.write_str(if b & {} != 0 {{ \"true\" }} else {{ \"false\" }})?;",
                    mask(*bit)
                );
            }
            w!(out, "w.write_str(\"}}\")");
            w!(out, "}}");
            w!(out, "");
        }
        for (i, (name, c)) in s.composites.iter().enumerate() {
            let t = type_name(name);
            let mut names = member_scope(DECODER_RESERVED);
            let members: Vec<(String, &Field)> =
                c.members.iter().map(|m| (names.take(&m.name), m)).collect();
            let mut enames = member_scope(ENCODER_RESERVED);
            let emembers: Vec<(String, &Field)> = c
                .members
                .iter()
                .map(|m| (enames.take(&m.name), m))
                .collect();
            let gate = self.s.composite_holder_since(name);
            let out = &mut self.out;
            w!(
                out,
                "/// A `{name}` composite as JSON, read at acting version `av`."
            );
            w!(
                out,
                "#[allow(dead_code)] // A composite used only by constants has no caller."
            );
            w!(out, "fn sbe_json_c{i}<W: ::core::fmt::Write>(w: &mut W, d: &{t}Decoder<'_>, av: u64) -> ::core::fmt::Result {{");
            w!(out, "let _ = (d, av);");
            w!(out, "{}", put("{"));
            self.fields_json(&members, false, "av", gate);
            let out = &mut self.out;
            w!(out, "w.write_str(\"}}\")");
            w!(out, "}}");
            w!(out, "");
            self.composite_copy(i, name, &members, &emembers, Src::Decoder);
        }
        let mut n = 0;
        let mut msgs = Vec::new();
        for m in &s.messages {
            let k = self.body_json(&m.body, &mut n, true);
            msgs.push(k);
        }
        self.json_api(&msgs);
    }

    /// The JSON, copy (and, for versioned schemas, older-version copy) functions of a body and
    /// its groups; returns the body's function index.
    fn body_json(&mut self, b: &Body, n: &mut usize, is_msg: bool) -> usize {
        let mut children = Vec::new();
        for sec in &b.sections {
            if let Section::Group { body, .. } = sec {
                children.push(self.body_json(body, n, false));
            }
        }
        let me = *n;
        *n += 1;
        let p = self.ty(b);
        let (fields, sections) = member_names(b, DECODER_RESERVED);
        let (efields, esections) = member_names(b, ENCODER_RESERVED);
        // JSON.
        {
            let out = &mut self.out;
            w!(out, "/// `{}` as JSON.", b.path.join("."));
            w!(out, "fn sbe_json_b{me}<W: ::core::fmt::Write>(w: &mut W, d: &{p}Decoder<'_>) -> ::core::fmt::Result {{");
            w!(out, "let _ = d;");
            w!(out, "{}", put("{"));
            if let Some(v) = self.s.json_version(b, is_msg) {
                // `sbekit decode` marks a message of an older writer with its version, so that
                // `sbekit encode` writes it back at that version.
                w!(out, "if d.acting_version() < {} {{", v.below);
                w!(
                    out,
                    "write!(w, \"\\\"$version\\\":{{}}\", d.acting_version())?;"
                );
                if v.comma {
                    w!(out, "{}", put(","));
                }
                w!(out, "}}");
            }
        }
        self.fields_json(&fields, true, "d.acting_version()", 0);
        let mut out = String::new();
        for m in self.s.json_sections(b) {
            let id = escape_with(self.keywords, &sections[m.index].0);
            let since = m.section.since();
            w!(out, "{}", put(&m.key));
            match m.value {
                SectionValue::Group { child } => {
                    let c = children.get(child).copied().unwrap_or(0);
                    let each = format!("for (i, x) in it.enumerate() {{ if i > 0 {{ w.write_str(\",\")?; }} sbe_json_b{c}(w, &x)?; }}");
                    w!(out, "w.write_str(\"[\")?;");
                    if since > 0 {
                        w!(out, "if let {SOME}(it) = d.{id}() {{ {each} }}");
                    } else {
                        w!(out, "{{ let it = d.{id}(); {each} }}");
                    }
                    w!(out, "w.write_str(\"]\")?;");
                }
                SectionValue::Var { utf8: u, .. } => {
                    if since > 0 {
                        w!(out, "sbe_json_text(w, d.{id}().unwrap_or(&[]), {u})?;");
                    } else {
                        w!(out, "sbe_json_text(w, d.{id}(), {u})?;");
                    }
                }
            }
        }
        w!(out, "w.write_str(\"}}\")");
        w!(out, "}}");
        w!(out, "");
        self.out.push_str(&out);
        let copy = CopyNames {
            me,
            children: &children,
            fields: &fields,
            efields: &efields,
            sections: &sections,
            esections: &esections,
        };
        self.body_copy(b, &copy, is_msg, Src::Decoder);
        me
    }

    /// The copy of body `b` into its encoder at the schema's version (`sbe_copy_b{me}` from a
    /// decoder, `sbe_owned_b{me}` from an owned value) and, for a versioned schema, at older
    /// acting versions (`sbe_vcopy_b{me}`, `sbe_vowned_b{me}`).
    pub(super) fn body_copy(&mut self, b: &Body, c: &CopyNames<'_, '_>, is_msg: bool, src: Src) {
        let p = self.ty(b);
        let (me, t) = (c.me, src.tag());
        let enc_ty = if is_msg || b.sections.is_empty() {
            format!("{p}Encoder<'_>")
        } else {
            format!("{p}Encoder<'_, '_>")
        };
        {
            let out = &mut self.out;
            w!(out, "/// Copies `{}` into its encoder.", b.path.join("."));
            w!(
                out,
                "fn sbe_{t}_b{me}(d: &{}, e: &mut {enc_ty}) -> {R}<(), rt::EncodeError> {{",
                src.param(&p)
            );
            w!(out, "let _ = (d, &mut *e);");
        }
        self.fields_copy(c.fields, c.efields, true, src);
        let mut out = String::new();
        let mut gi = 0;
        for ((m, sec), (em, _)) in c.sections.iter().zip(c.esections) {
            let g = escape_with(self.keywords, m);
            let s = escape_with(self.keywords, em);
            let since = sec.since();
            match sec {
                Section::Group { .. } => {
                    let ch = c.children.get(gi).copied().unwrap_or(0);
                    gi += 1;
                    let fill = format!("e.{s}(|gw| {{ for x in it {{ gw.entry(|y| sbe_{t}_b{ch}({}, y))?; }} {OK}(()) }})?;", src.entry());
                    match (src, since > 0) {
                        (Src::Decoder, true) => {
                            w!(out, "if let {SOME}(it) = d.{g}() {{ {fill} }}");
                        }
                        _ => w!(out, "{{ let it = {}; {fill} }}", src.entries(&g, 0).0),
                    }
                }
                Section::Var { .. } => match (src, since > 0) {
                    (Src::Decoder, true) => {
                        w!(out, "if let {SOME}(x) = d.{g}() {{ e.{s}(x)?; }}");
                    }
                    _ => w!(out, "e.{s}({})?;", src.var(&g, 0)),
                },
            }
        }
        w!(out, "{OK}(())");
        w!(out, "}}");
        w!(out, "");
        self.out.push_str(&out);
        if self.s.version > 0 {
            self.body_vcopy(b, c, src);
        }
    }

    /// Copies a body at an acting version older than the schema's: the block filled by the
    /// encoder's setters and cut to the length of that version, then the sections that version
    /// has, group entries cut the same way.
    fn body_vcopy(&mut self, b: &Body, c: &CopyNames<'_, '_>, src: Src) {
        let p = self.ty(b);
        let (me, t) = (c.me, src.tag());
        let k = b.sections.len();
        let bl = b.block_length;
        let init = match (k > 0, b.path.len() == 1) {
            (false, false) => "block: &mut blk".to_string(),
            (false, true) => "block: &mut blk, tail: rt::Tail::default()".to_string(),
            (true, true) => "block: &mut blk, tail: rt::Tail::default(), next: 0".to_string(),
            (true, false) => "block: &mut blk, tail: &mut unused, next: 0".to_string(),
        };
        {
            let out = &mut self.out;
            w!(
                out,
                "/// Writes `{}` at acting version `v` (older than the schema's).",
                b.path.join(".")
            );
            w!(
                out,
                "fn sbe_v{t}_b{me}(d: &{}, tail: &mut rt::Tail<'_>, v: u64) -> {R}<(), rt::EncodeError> {{",
                src.param(&p)
            );
            w!(out, "let _ = v;");
            w!(out, "let mut blk = [0u8; {bl}];");
            if k > 0 && b.path.len() > 1 {
                w!(out, "let mut unused = rt::Tail::default();");
            }
            w!(out, "{{");
            w!(out, "let e = &mut {p}Encoder {{ {init} }};");
            w!(out, "let _ = (d, &mut *e);");
        }
        self.fields_copy(c.fields, c.efields, true, src);
        let out = &mut self.out;
        w!(out, "}}");
        w!(out, "let len = {};", block_len_at(b, "v"));
        w!(out, "tail.write(blk.get(..len).unwrap_or(&[]))?;");
        let mut gi = 0;
        for (m, sec) in c.sections {
            let g = escape_with(self.keywords, m);
            let step = match sec {
                Section::Group {
                    dim_size,
                    block_len,
                    count,
                    body,
                    ..
                } => {
                    let ch = c.children.get(gi).copied().unwrap_or(0);
                    gi += 1;
                    let (it, n) = src.entries(&g, sec.since());
                    format!(
                        "let dims = tail.take({dim_size})?; dims.fill(0); rt::put_slice(dims, {}, (({}) as {}).to_{}_bytes()); rt::put_slice(dims, {}, ({n} as {}).to_{}_bytes()); for x in {it} {{ sbe_v{t}_b{ch}({}, tail, v)?; }}",
                        block_len.offset,
                        block_len_at(body, "v"),
                        rty(block_len.ty),
                        endian(block_len.order),
                        count.offset,
                        rty(count.ty),
                        endian(count.order),
                        src.entry(),
                    )
                }
                Section::Var { since, len, .. } => format!(
                    "let x = {}; tail.write_var((x.len() as {}).to_{}_bytes(), x)?;",
                    src.var(&g, *since),
                    rty(len.ty),
                    endian(len.order)
                ),
            };
            if sec.since() > 0 {
                w!(out, "if v >= {} {{ {step} }}", sec.since());
            } else {
                w!(out, "{{ {step} }}");
            }
        }
        w!(out, "{OK}(())");
        w!(out, "}}");
        w!(out, "");
    }

    /// `to_json`, `reencode` and `AnyMessage`'s length and version.
    fn json_api(&mut self, msgs: &[usize]) {
        let s = self.s;
        let arms = self.dispatch_arms(msgs);
        let out = &mut self.out;
        w!(out, "impl AnyMessage<'_> {{");
        w!(
            out,
            "/// Bytes from the start of the header to the end of the message."
        );
        w!(out, "#[inline]");
        w!(out, "pub fn encoded_length(&self) -> usize {{");
        w!(out, "match *self {{");
        for (v, _, _, _) in &arms {
            w!(out, "Self::{v}(d) => d.encoded_length(),");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(
            out,
            "/// The schema version the writer used (from the message header)."
        );
        w!(out, "#[inline]");
        w!(out, "pub fn acting_version(&self) -> u64 {{");
        w!(out, "match *self {{");
        for (v, _, _, _) in &arms {
            w!(out, "Self::{v}(d) => d.acting_version(),");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(
            out,
            "/// Writes a message as one line of JSON (no newline), as `sbekit decode` prints it:"
        );
        w!(out, "/// text valid in its declared encoding kept, other bytes one code point each (Latin-1).");
        w!(out, "pub fn to_json<W: ::core::fmt::Write>(m: &AnyMessage<'_>, w: &mut W) -> ::core::fmt::Result {{");
        w!(out, "match *m {{");
        for (v, _, k, _) in &arms {
            w!(out, "AnyMessage::{v}(d) => sbe_json_b{k}(w, &d),");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Writes a decoded message again with the encoders, at its acting version, at the start");
        w!(
            out,
            "/// of `buf`; returns its length. `buf` should be zeroed: padding is not written."
        );
        w!(out, "///");
        w!(out, "/// At the schema's version (or a newer one, which is written as the schema's) this is the");
        w!(out, "/// message encoder with every field, group and var data set from the decoder. At an older");
        w!(out, "/// version the header carries that version, each block is filled by the encoder's setters");
        w!(out, "/// and cut to the length that version writes, and sections newer than it are left out.");
        w!(
            out,
            "pub fn reencode(m: &AnyMessage<'_>, buf: &mut [u8]) -> {R}<usize, rt::EncodeError> {{"
        );
        w!(out, "match *m {{");
        for (v, path, k, body) in &arms {
            w!(out, "AnyMessage::{v}(d) => {{");
            if s.version > 0 {
                let h = &s.header;
                let bp = rty(prim_of(&h.block_length).ty);
                let vp = rty(prim_of(&h.version).ty);
                w!(out, "let v = d.acting_version();");
                w!(out, "if v < rt::Int::to_u64(SCHEMA_VERSION) {{");
                w!(out, "let mut tail = rt::Tail::new(buf, 0);");
                w!(out, "let hdr = tail.take_array::<HEADER_LENGTH>()?;");
                w!(out, "HeaderFields {{ block_length: ({}) as {bp}, template_id: {path}Decoder::TEMPLATE_ID, schema_id: SCHEMA_ID, version: v as {vp} }}.write(hdr);", block_len_at(body, "v"));
                w!(out, "sbe_vcopy_b{k}(&d, &mut tail, v)?;");
                w!(out, "return {OK}(tail.position());");
                w!(out, "}}");
            }
            w!(out, "let mut e = {path}Encoder::new(buf)?;");
            w!(out, "sbe_copy_b{k}(&d, &mut e)?;");
            w!(out, "e.finish()");
            w!(out, "}}");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}

/// The block length a body writes at acting version `v` (a `usize` expression; `v` is older
/// than the schema's version): the bytes the fields of that version occupy.
pub(super) fn block_len_at(b: &Body, v: &str) -> String {
    let mut e = "0_usize".to_string();
    let mut last = None;
    for (since, len) in &b.required.0 {
        // A newer version whose fields lie inside the older extent needs no branch.
        if last == Some(*len) {
            continue;
        }
        last = Some(*len);
        e = if *since == 0 || e == "0_usize" && *len == 0 {
            format!("{len}_usize")
        } else {
            format!("if {v} >= {since} {{ {len}_usize }} else {{ {e} }}")
        };
    }
    e
}

impl<'s> Gen<'s> {
    /// The messages `AnyMessage` has a variant for (the first of each template id), each with
    /// its variant name, type name prefix, function index (from `msgs`, one per message) and
    /// body.
    pub(super) fn dispatch_arms(&self, msgs: &[usize]) -> Vec<(String, String, usize, &'s Body)> {
        let mut seen = BTreeSet::new();
        let mut arms = Vec::new();
        let plan: &'s Plan = self.s;
        for (m, &k) in plan.messages.iter().zip(msgs) {
            let id = i32::try_from(m.id).unwrap_or(i32::MAX);
            if !seen.insert(id) {
                continue;
            }
            let path = self.ty(&m.body);
            let v = escape_with(self.keywords, &path);
            arms.push((v, path, k, &m.body));
        }
        arms
    }
}
