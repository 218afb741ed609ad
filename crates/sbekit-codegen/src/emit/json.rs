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

impl Gen<'_> {
    fn comp_index(&self, ty: &str) -> usize {
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

    /// Statements copying the fields of decoder `d` into encoder `e`.
    fn fields_copy(&mut self, dec: &[(String, &Field)], enc: &[(String, &Field)], in_body: bool) {
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
                    if versioned {
                        w!(
                            out,
                            "if let {SOME}(x) = d.{g}() {{ sbe_copy_c{c}(&x, e.{s}()); }}"
                        );
                    } else {
                        w!(out, "sbe_copy_c{c}(&d.{g}(), e.{s}());");
                    }
                }
                _ if versioned && !setter_optional(f) => {
                    w!(out, "if let {SOME}(x) = d.{g}() {{ e.{s}(x); }}");
                }
                _ => w!(out, "e.{s}(d.{g}());"),
            }
        }
        self.out.push_str(&out);
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
            w!(out, "/// Copies a `{name}` composite.");
            w!(
                out,
                "#[allow(dead_code)] // A composite used only by constants has no caller."
            );
            w!(
                out,
                "fn sbe_copy_c{i}(d: &{t}Decoder<'_>, mut e: {t}Encoder<'_>) {{"
            );
            w!(out, "let _ = (d, &mut e);");
            self.fields_copy(&members, &emembers, false);
            w!(self.out, "}}");
            w!(self.out, "");
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
        let k = b.sections.len();
        let mut names = member_scope(DECODER_RESERVED);
        let fields: Vec<(String, &Field)> =
            b.fields.iter().map(|f| (names.take(&f.name), f)).collect();
        let sections: Vec<(String, &Section)> = b
            .sections
            .iter()
            .map(|s| (names.take(s.name()), s))
            .collect();
        let mut enames = member_scope(ENCODER_RESERVED);
        let efields: Vec<(String, &Field)> =
            b.fields.iter().map(|f| (enames.take(&f.name), f)).collect();
        let esections: Vec<String> = b.sections.iter().map(|s| enames.take(s.name())).collect();
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
        // Copy at the schema's version, through the encoder's own sections.
        let enc_ty = if is_msg || k == 0 {
            format!("{p}Encoder<'_>")
        } else {
            format!("{p}Encoder<'_, '_>")
        };
        {
            let out = &mut self.out;
            w!(out, "/// Copies `{}` into its encoder.", b.path.join("."));
            w!(out, "fn sbe_copy_b{me}(d: &{p}Decoder<'_>, e: &mut {enc_ty}) -> {R}<(), rt::EncodeError> {{");
            w!(out, "let _ = (d, &mut *e);");
        }
        self.fields_copy(&fields, &efields, true);
        let mut out = String::new();
        let mut gi = 0;
        for ((m, sec), em) in sections.iter().zip(&esections) {
            let g = escape_with(self.keywords, m);
            let s = escape_with(self.keywords, em);
            match sec {
                Section::Group { since, .. } => {
                    let c = children.get(gi).copied().unwrap_or(0);
                    gi += 1;
                    let fill = format!("e.{s}(|gw| {{ for x in it {{ gw.entry(|y| sbe_copy_b{c}(&x, y))?; }} {OK}(()) }})?;");
                    if *since > 0 {
                        w!(out, "if let {SOME}(it) = d.{g}() {{ {fill} }}");
                    } else {
                        w!(out, "{{ let it = d.{g}(); {fill} }}");
                    }
                }
                Section::Var { since, .. } => {
                    if *since > 0 {
                        w!(out, "if let {SOME}(x) = d.{g}() {{ e.{s}(x)?; }}");
                    } else {
                        w!(out, "e.{s}(d.{g}())?;");
                    }
                }
            }
        }
        w!(out, "{OK}(())");
        w!(out, "}}");
        w!(out, "");
        self.out.push_str(&out);
        if self.s.version > 0 {
            self.body_vcopy(b, me, &children, &fields, &efields, &sections);
        }
        me
    }

    /// Copies a body at an acting version older than the schema's: the block filled by the
    /// encoder's setters and cut to the length of that version, then the sections that version
    /// has, group entries cut the same way.
    fn body_vcopy(
        &mut self,
        b: &Body,
        me: usize,
        children: &[usize],
        fields: &[(String, &Field)],
        efields: &[(String, &Field)],
        sections: &[(String, &Section)],
    ) {
        let p = self.ty(b);
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
            w!(out, "fn sbe_vcopy_b{me}(d: &{p}Decoder<'_>, tail: &mut rt::Tail<'_>, v: u64) -> {R}<(), rt::EncodeError> {{");
            w!(out, "let _ = v;");
            w!(out, "let mut blk = [0u8; {bl}];");
            if k > 0 && b.path.len() > 1 {
                w!(out, "let mut unused = rt::Tail::default();");
            }
            w!(out, "{{");
            w!(out, "let e = &mut {p}Encoder {{ {init} }};");
            w!(out, "let _ = (d, &mut *e);");
        }
        self.fields_copy(fields, efields, true);
        let out = &mut self.out;
        w!(out, "}}");
        w!(out, "let len = {};", block_len_at(b, "v"));
        w!(out, "tail.write(blk.get(..len).unwrap_or(&[]))?;");
        let mut gi = 0;
        for (m, sec) in sections {
            let g = escape_with(self.keywords, m);
            let step = match sec {
                Section::Group {
                    dim_size,
                    block_len,
                    count,
                    body,
                    ..
                } => {
                    let c = children.get(gi).copied().unwrap_or(0);
                    gi += 1;
                    let opt = sec.since() > 0;
                    let it = if opt {
                        format!("d.{g}().into_iter().flatten()")
                    } else {
                        format!("d.{g}()")
                    };
                    format!(
                        "let dims = tail.take({dim_size})?; dims.fill(0); rt::put_slice(dims, {}, (({}) as {}).to_{}_bytes()); rt::put_slice(dims, {}, ({it}.count() as {}).to_{}_bytes()); for x in {it} {{ sbe_vcopy_b{c}(&x, tail, v)?; }}",
                        block_len.offset,
                        block_len_at(body, "v"),
                        rty(block_len.ty),
                        endian(block_len.order),
                        count.offset,
                        rty(count.ty),
                        endian(count.order),
                    )
                }
                Section::Var { since, len, .. } => {
                    let x = if *since > 0 {
                        format!("d.{g}().unwrap_or(&[])")
                    } else {
                        format!("d.{g}()")
                    };
                    format!(
                        "let x = {x}; tail.write_var((x.len() as {}).to_{}_bytes(), x)?;",
                        rty(len.ty),
                        endian(len.order)
                    )
                }
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
        let mut seen = BTreeSet::new();
        let mut arms = Vec::new();
        for (m, &k) in s.messages.iter().zip(msgs) {
            let id = i32::try_from(m.id).unwrap_or(i32::MAX);
            if !seen.insert(id) {
                continue;
            }
            let path = self.ty(&m.body);
            let v = escape_with(self.keywords, &path);
            arms.push((v, path, k, &m.body));
        }
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
fn block_len_at(b: &Body, v: &str) -> String {
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
