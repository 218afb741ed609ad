//! Writes Rust source for a [`Schema`] model.
//!
//! The output is one module's worth of items with no inner attributes, so it can be used as a
//! `mod` file, as a crate's `lib.rs` or through `include!`. Unqualified names in the output are
//! only the generated types themselves; everything else is a full path, so schema type names
//! cannot shadow what the generated code uses.

use crate::names::{camel, escape_with, screaming, snake, type_name};
use crate::view::{
    Body, CompositeDef, DimField, EnumDef, Field, Kind, Prim, Schema, Section, SetDef,
};
use crate::KeywordStyle;
use crate::Options;
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use std::collections::BTreeSet;
use std::fmt::Write;

const R: &str = "::core::result::Result";
const O: &str = "::core::option::Option";
const SOME: &str = "::core::option::Option::Some";
const NONE: &str = "::core::option::Option::None";
const OK: &str = "::core::result::Result::Ok";
const ERR: &str = "::core::result::Result::Err";

macro_rules! w {
    ($out:expr, $($arg:tt)*) => { { let _ = writeln!($out, $($arg)*); } };
}

/// The Rust type of a primitive.
pub fn rty(t: PrimitiveType) -> &'static str {
    match t {
        PrimitiveType::Char | PrimitiveType::Uint8 | PrimitiveType::None => "u8",
        PrimitiveType::Int8 => "i8",
        PrimitiveType::Int16 => "i16",
        PrimitiveType::Int32 => "i32",
        PrimitiveType::Int64 => "i64",
        PrimitiveType::Uint16 => "u16",
        PrimitiveType::Uint32 => "u32",
        PrimitiveType::Uint64 => "u64",
        PrimitiveType::Float => "f32",
        PrimitiveType::Double => "f64",
    }
}

fn endian(o: ByteOrder) -> &'static str {
    match o {
        ByteOrder::LittleEndian => "le",
        ByteOrder::BigEndian => "be",
    }
}

/// A literal of type `t` for `v`.
fn lit(v: &PrimitiveValue, t: PrimitiveType) -> String {
    let ty = rty(t);
    match t {
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = v.as_f64().unwrap_or(0.0);
            if f.is_nan() {
                format!("{ty}::NAN")
            } else if f.is_infinite() {
                format!("{}{ty}::INFINITY", if f < 0.0 { "-" } else { "" })
            } else if t == PrimitiveType::Float {
                format!("{:?}_f32", f as f32)
            } else {
                format!("{f:?}_f64")
            }
        }
        _ => {
            let i = v.as_i128().unwrap_or(0);
            format!("{i}_{ty}")
        }
    }
}

/// Reads a primitive of type `t` from the fixed-size array expression `arr` at `off`.
fn read(arr: &str, off: usize, t: PrimitiveType, o: ByteOrder) -> String {
    format!(
        "{}::from_{}_bytes(*rt::sub::<_, {}>({arr}, {off}))",
        rty(t),
        endian(o),
        t.size()
    )
}

/// Writes the doc comment lines for a description (or `fallback`).
fn doc(out: &mut String, desc: Option<&String>, fallback: &str) {
    let text = desc
        .map(|d| d.trim())
        .filter(|d| !d.is_empty())
        .unwrap_or(fallback);
    for line in text.lines() {
        let l = line
            .trim()
            .replace("```", "'''")
            .replace('[', "\\[")
            .replace(']', "\\]")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        if l.is_empty() {
            w!(out, "///");
        } else {
            w!(out, "/// {l}");
        }
    }
}

/// Hands out method names, avoiding fixed names and earlier ones.
struct Names {
    used: BTreeSet<String>,
}

impl Names {
    fn new(reserved: &[&str]) -> Self {
        Names {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }
    /// A unique snake-case base name (not escaped) for a schema name.
    fn take(&mut self, name: &str) -> String {
        let mut base = snake(name);
        if self.used.contains(&base) {
            base.push_str("_field");
        }
        let mut n = base.clone();
        let mut i = 2;
        while self.used.contains(&n) {
            n = format!("{base}{i}");
            i += 1;
        }
        self.used.insert(n.clone());
        n
    }
}

const DECODER_RESERVED: &[&str] = &[
    "decode",
    "decode_body",
    "parse",
    "acting_version",
    "encoded_length",
    "new",
    "as_bytes",
    "fmt",
    "clone",
    "next",
    "min_block_length",
    "raw_block",
];
const ENCODER_RESERVED: &[&str] = &[
    "new",
    "finish",
    "complete",
    "begin_section",
    "write_empty",
    "fill",
    "fmt",
    "entry",
    "count",
    "as_bytes",
    "position",
    "raw_block",
];

struct Gen<'s> {
    s: &'s Schema,
    keywords: KeywordStyle,
    out: String,
    /// Rust names of the composites' decoder/encoder pairs and messages, by schema name.
    msg_suffix: BTreeSet<String>,
}

/// Generates the module text.
pub fn emit(s: &Schema, opts: &Options) -> String {
    let mut g = Gen {
        s,
        keywords: opts.keywords,
        out: String::new(),
        msg_suffix: BTreeSet::new(),
    };
    let composite_names: BTreeSet<String> = s.composites.keys().map(|k| type_name(k)).collect();
    for (_, m) in &s.messages {
        if composite_names.contains(&m.path) {
            g.msg_suffix.insert(m.path.clone());
        }
    }
    g.preamble(opts);
    for (name, e) in &s.enums {
        g.enum_def(name, e);
    }
    for (name, d) in &s.sets {
        g.set_def(name, d);
    }
    for (name, c) in &s.composites {
        g.composite(name, c);
    }
    g.header();
    let messages: Vec<Body> = s
        .messages
        .iter()
        .map(|(_, b)| {
            let mut b = b.clone();
            if g.msg_suffix.contains(&b.path) {
                rename(&mut b, "Message");
            }
            b
        })
        .collect();
    for (i, m) in messages.iter().enumerate() {
        let id = s.messages.get(i).map_or(0, |m| m.0);
        g.body_decoder(m, Some(id));
        g.body_encoder(m, Some(id));
    }
    g.dispatch(&messages);
    g.out
}

fn rename(b: &mut Body, suffix: &str) {
    b.path.push_str(suffix);
    for s in &mut b.sections {
        if let Section::Group { body, .. } = s {
            let tail = body.path.clone();
            body.path = format!("{}{}", b.path, &tail[b.path.len() - suffix.len()..]);
            rename_children(body);
        }
    }
}

fn rename_children(b: &mut Body) {
    let base = b.path.clone();
    for s in &mut b.sections {
        if let Section::Group { name, body, .. } = s {
            body.path = format!("{base}{}", camel(name));
            rename_children(body);
        }
    }
}

/// How a value is returned: type and expression reading it from fixed-size array `arr`.
fn value(kind: &Kind, size: usize, arr: &str, off: usize) -> (String, String) {
    match kind {
        Kind::Prim(p) => prim_value(p, size, arr, off),
        Kind::Enum { ty, .. } => {
            // The enum's own primitive is read by the caller through `enum_raw`.
            let t = type_name(ty);
            (t, String::new())
        }
        Kind::Set { ty } => (type_name(ty), String::new()),
        Kind::Composite { ty } => {
            let t = type_name(ty);
            (
                format!("{t}Decoder<'a>"),
                format!("{t}Decoder::new(rt::sub::<_, {size}>({arr}, {off}))"),
            )
        }
    }
}

fn prim_value(p: &Prim, size: usize, arr: &str, off: usize) -> (String, String) {
    let t = rty(p.ty);
    if p.len == 1 {
        return (t.to_string(), read(arr, off, p.ty, p.order));
    }
    if t == "u8" {
        return (
            format!("&'a [u8; {size}]"),
            format!("rt::sub::<_, {size}>({arr}, {off})"),
        );
    }
    let es = p.ty.size();
    (
        format!("[{t}; {}]", p.len),
        format!(
            "{{ let b = rt::sub::<_, {size}>({arr}, {off}); ::core::array::from_fn(|i| {t}::from_{}_bytes(*rt::sub::<_, {es}>(b, {}))) }}",
            endian(p.order),
            if es == 1 { "i".to_string() } else { format!("i * {es}") }
        ),
    )
}

fn is_text(p: &Prim) -> bool {
    p.ty == PrimitiveType::Char || p.char_encoding.is_some()
}

impl Gen<'_> {
    fn preamble(&mut self, opts: &Options) {
        let s = self.s;
        let out = &mut self.out;
        w!(out, "// Generated by sbekit {} from SBE schema package `{}` (id {}, version {}). Do not edit.", env!("CARGO_PKG_VERSION"), s.package, s.id, s.version);
        w!(out, "");
        w!(out, "use {} as rt;", opts.runtime_path);
        w!(out, "");
        let h = &s.header;
        let sid = prim_ty(&h.schema_id);
        let ver = prim_ty(&h.version);
        w!(out, "/// The schema's id, as message headers carry it.");
        w!(
            out,
            "pub const SCHEMA_ID: {sid} = {};",
            lit(&PrimitiveValue::Int(s.id.into()), prim_of(&h.schema_id).ty)
        );
        w!(
            out,
            "/// The schema version this code writes (and reads at most the fields of)."
        );
        w!(
            out,
            "pub const SCHEMA_VERSION: {ver} = {};",
            lit(
                &PrimitiveValue::Int(s.version.into()),
                prim_of(&h.version).ty
            )
        );
        w!(out, "/// The schema's package name.");
        w!(out, "pub const SCHEMA_PACKAGE: &str = {:?};", s.package);
        if let Some(v) = &s.semantic_version {
            w!(out, "/// The schema's semantic version.");
            w!(out, "pub const SCHEMA_SEMANTIC_VERSION: &str = {v:?};");
        }
        w!(out, "/// Size of the message header in bytes.");
        w!(out, "pub const HEADER_LENGTH: usize = {};", h.size);
        w!(out, "");
    }

    fn enum_def(&mut self, name: &str, e: &EnumDef) {
        let t = type_name(name);
        let raw = rty(e.ty);
        let out = &mut self.out;
        let mut used = BTreeSet::new();
        let mut variants: Vec<(String, &str, String, Option<&String>)> = Vec::new();
        let mut raws = BTreeSet::new();
        for (vn, v, d) in &e.values {
            let mut id = escape_with(self.keywords, &camel(vn));
            while used.contains(&id) {
                id.push('_');
            }
            used.insert(id.clone());
            let l = lit(v, e.ty);
            variants.push((id, vn.as_str(), l, d.as_ref()));
        }
        let unknown = if used.contains("Unknown") {
            "UnknownRaw"
        } else {
            "Unknown"
        };
        doc(out, e.description.as_ref(), &format!("The `{name}` enum."));
        w!(out, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]");
        w!(out, "pub enum {t} {{");
        for (id, vn, l, d) in &variants {
            doc(
                out,
                *d,
                &format!("`{vn}` (raw value {}).", l.split('_').next().unwrap_or(l)),
            );
            w!(out, "{id},");
        }
        w!(
            out,
            "/// A raw value that is none of the above (including the null value)."
        );
        w!(out, "{unknown}({raw}),");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl {t} {{");
        w!(
            out,
            "/// The raw value that marks an optional field of this type as absent."
        );
        w!(out, "pub const NULL_VALUE: {raw} = {};", lit(&e.null, e.ty));
        w!(out, "/// All values of the schema, in schema order.");
        w!(
            out,
            "pub const ALL: [Self; {}] = [{}];",
            variants.len(),
            variants
                .iter()
                .map(|v| format!("Self::{}", v.0))
                .collect::<Vec<_>>()
                .join(", ")
        );
        w!(out, "/// The value for a raw wire value.");
        w!(out, "#[inline]");
        w!(out, "pub const fn from_raw(raw: {raw}) -> Self {{");
        w!(out, "match raw {{");
        for (id, _, l, _) in &variants {
            if raws.insert(l.clone()) {
                w!(out, "{l} => Self::{id},");
            }
        }
        w!(out, "other => Self::{unknown}(other),");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "/// The raw wire value.");
        w!(out, "#[inline]");
        w!(out, "pub const fn to_raw(self) -> {raw} {{");
        w!(out, "match self {{");
        for (id, _, l, _) in &variants {
            w!(out, "Self::{id} => {l},");
        }
        w!(out, "Self::{unknown}(raw) => raw,");
        w!(out, "}}");
        w!(out, "}}");
        w!(
            out,
            "/// The value's name in the schema (`None` for unknown raw values)."
        );
        w!(out, "pub const fn name(self) -> {O}<&'static str> {{");
        w!(out, "match self {{");
        for (id, vn, _, _) in &variants {
            w!(out, "Self::{id} => {SOME}({vn:?}),");
        }
        w!(out, "Self::{unknown}(_) => {NONE},");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::str::FromStr for {t} {{");
        w!(out, "type Err = rt::UnknownName;");
        w!(out, "fn from_str(s: &str) -> {R}<Self, rt::UnknownName> {{");
        w!(out, "match s {{");
        for (id, vn, _, _) in &variants {
            w!(out, "{vn:?} => {OK}(Self::{id}),");
        }
        w!(out, "_ => {ERR}(rt::UnknownName),");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::fmt::Display for {t} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "match self.name() {{");
        w!(out, "{SOME}(n) => f.write_str(n),");
        w!(
            out,
            "{NONE} => ::core::write!(f, \"{unknown}({{}})\", self.to_raw()),"
        );
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    fn set_def(&mut self, name: &str, d: &SetDef) {
        let t = type_name(name);
        let raw = rty(d.ty);
        let out = &mut self.out;
        let mut names = Names::new(&[
            "from_bits",
            "bits",
            "empty",
            "contains",
            "fmt",
            "bitor",
            "clone",
            "eq",
            "hash",
            "default",
        ]);
        let choices: Vec<(String, String, u32, Option<&String>, &str)> = d
            .choices
            .iter()
            .map(|(n, b, desc)| {
                let m = names.take(n);
                let mut c = screaming(n);
                if c == "ALL" {
                    c.push_str("_CHOICE");
                }
                (m, c, *b, desc.as_ref(), n.as_str())
            })
            .collect();
        doc(
            out,
            d.description.as_ref(),
            &format!("The `{name}` bit set."),
        );
        w!(out, "#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]");
        w!(out, "pub struct {t}({raw});");
        w!(out, "");
        w!(out, "impl {t} {{");
        for (m, c, b, desc, n) in &choices {
            doc(out, *desc, &format!("The `{n}` choice (bit {b})."));
            w!(out, "pub const {c}: Self = Self({});", mask(*b));
            let _ = m;
        }
        w!(
            out,
            "/// The set with the given raw bits (unknown bits are kept)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub const fn from_bits(bits: {raw}) -> Self {{ Self(bits) }}"
        );
        w!(out, "/// The raw bits.");
        w!(out, "#[inline]");
        w!(out, "pub const fn bits(self) -> {raw} {{ self.0 }}");
        w!(out, "/// The set with no choices.");
        w!(out, "#[inline]");
        w!(out, "pub const fn empty() -> Self {{ Self(0) }}");
        w!(out, "/// True if every choice in `other` is in `self`.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub const fn contains(self, other: Self) -> bool {{ self.0 & other.0 == other.0 }}"
        );
        for (m, _, b, _, n) in &choices {
            w!(out, "/// True if `{n}` is set.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn {}(self) -> bool {{ self.0 & {} != 0 }}",
                escape_with(self.keywords, m),
                mask(*b)
            );
            w!(out, "/// This set with `{n}` switched on or off.");
            w!(out, "#[inline]");
            let k = mask(*b);
            w!(out, "pub const fn with_{m}(self, on: bool) -> Self {{ if on {{ Self(self.0 | {k}) }} else {{ Self(self.0 & !{k}) }} }}");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::ops::BitOr for {t} {{");
        w!(out, "type Output = Self;");
        w!(out, "#[inline]");
        w!(
            out,
            "fn bitor(self, rhs: Self) -> Self {{ Self(self.0 | rhs.0) }}"
        );
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::fmt::Debug for {t} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "f.debug_struct({t:?})");
        for (m, _, _, _, n) in &choices {
            w!(
                out,
                ".field({n:?}, &self.{}())",
                escape_with(self.keywords, m)
            );
        }
        w!(out, ".finish()");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    fn composite(&mut self, name: &str, c: &CompositeDef) {
        let t = type_name(name);
        let size = c.size;
        let mut names = Names::new(DECODER_RESERVED);
        let members: Vec<(String, &Field)> =
            c.members.iter().map(|m| (names.take(&m.name), m)).collect();
        {
            let out = &mut self.out;
            doc(
                out,
                c.description.as_ref(),
                &format!("Reads the `{name}` composite ({size} bytes)."),
            );
            w!(out, "#[derive(Clone, Copy)]");
            w!(out, "pub struct {t}Decoder<'a> {{");
            w!(out, "buf: &'a [u8; {size}],");
            w!(out, "}}");
            w!(out, "");
            w!(out, "impl<'a> {t}Decoder<'a> {{");
            w!(out, "/// Encoded size in bytes.");
            w!(out, "pub const ENCODED_LENGTH: usize = {size};");
            w!(out, "/// A decoder over the composite's bytes.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn new(buf: &'a [u8; {size}]) -> Self {{ Self {{ buf }} }}"
            );
            w!(out, "/// The composite's bytes.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn as_bytes(&self) -> &'a [u8; {size}] {{ self.buf }}"
            );
        }
        for (m, f) in &members {
            self.getter(m, f, "self.buf", false);
        }
        w!(self.out, "}}");
        w!(self.out, "");
        self.debug_impl(&format!("{t}Decoder<'_>"), name, &members, &[], false);
        let mut enames = Names::new(ENCODER_RESERVED);
        let emembers: Vec<(String, &Field)> = c
            .members
            .iter()
            .map(|m| (enames.take(&m.name), m))
            .collect();
        let out = &mut self.out;
        w!(out, "/// Writes the `{name}` composite ({size} bytes).");
        w!(out, "pub struct {t}Encoder<'a> {{");
        w!(out, "buf: &'a mut [u8],");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {t}Encoder<'a> {{");
        w!(out, "/// Encoded size in bytes.");
        w!(out, "pub const ENCODED_LENGTH: usize = {size};");
        w!(
            out,
            "/// An encoder over the composite's bytes (writes beyond `buf` are dropped, so pass"
        );
        w!(out, "/// at least [`Self::ENCODED_LENGTH`] bytes).");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn new(buf: &'a mut [u8]) -> Self {{ Self {{ buf }} }}"
        );
        for (m, f) in &emembers {
            self.setter(m, f, "self.buf", false);
        }
        w!(self.out, "}}");
        w!(self.out, "");
    }

    /// A read accessor for a field or member. `arr` is a fixed-size array expression covering
    /// all version-0 fields; versioned fields (when `versioned`) read from `self.blk`.
    fn getter(&mut self, m: &str, f: &Field, arr: &str, in_body: bool) {
        let id = escape_with(self.keywords, m);
        let desc = f.description.as_ref();
        let fallback = format!("The `{}` field.", f.name);
        let versioned = in_body && f.since > 0;
        let out = &mut self.out;
        // Constants come from the schema, not the buffer.
        if f.is_constant() {
            match &f.kind {
                Kind::Enum {
                    ty,
                    constant: Some(v),
                    ..
                } => {
                    let t = type_name(ty);
                    let e = self.s.enums.get(ty);
                    let idx = e
                        .and_then(|e| e.values.iter().position(|x| &x.0 == v))
                        .unwrap_or(0);
                    doc(out, desc, &fallback);
                    w!(out, "#[inline]");
                    w!(out, "pub const fn {id}(&self) -> {t} {{ {t}::ALL[{idx}] }}");
                }
                Kind::Prim(p) => {
                    let c = p.constant.clone().unwrap_or(PrimitiveValue::Int(0));
                    doc(out, desc, &fallback);
                    w!(out, "#[inline]");
                    match c {
                        PrimitiveValue::Bytes(b) => {
                            w!(
                                out,
                                "pub const fn {id}(&self) -> &'static [u8] {{ &[{}] }}",
                                bstr(&b)
                            );
                            if let Ok(s) = std::str::from_utf8(&b) {
                                w!(out, "/// The `{}` constant as text.", f.name);
                                w!(out, "#[inline]");
                                w!(
                                    out,
                                    "pub const fn {m}_str(&self) -> &'static str {{ {s:?} }}"
                                );
                            }
                        }
                        v => {
                            w!(
                                out,
                                "pub const fn {id}(&self) -> {} {{ {} }}",
                                rty(p.ty),
                                lit(&v, p.ty)
                            );
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let size = f.size;
        let (src, off) = if versioned { ("b", 0) } else { (arr, f.offset) };
        let (ty, mut expr) = value(
            &f.kind,
            size,
            src,
            f.offset - if versioned { f.offset } else { 0 },
        );
        let _ = off;
        let mut null_check: Option<String> = None;
        match &f.kind {
            Kind::Enum {
                ty: et, optional, ..
            } => {
                let e = self.s.enums.get(et);
                let (pt, order) = e.map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |e| {
                    (e.ty, e.order)
                });
                let raw = read(src, if versioned { 0 } else { f.offset }, pt, order);
                if *optional {
                    null_check = Some(format!("raw == {ty}::NULL_VALUE"));
                    expr = format!("{{ let raw = {raw}; if raw == {ty}::NULL_VALUE {{ return {NONE}; }} {ty}::from_raw(raw) }}");
                } else {
                    expr = format!("{ty}::from_raw({raw})");
                }
            }
            Kind::Set { ty: st } => {
                let d = self.s.sets.get(st);
                let (pt, order) = d.map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |d| {
                    (d.ty, d.order)
                });
                expr = format!(
                    "{ty}::from_bits({})",
                    read(src, if versioned { 0 } else { f.offset }, pt, order)
                );
            }
            Kind::Prim(p) if p.len == 1 && p.presence == Presence::Optional => {
                null_check = Some(
                    if p.ty.is_float() && p.null.as_f64().is_some_and(f64::is_nan) {
                        "v.is_nan()".to_string()
                    } else {
                        format!("v == {}", lit(&p.null, p.ty))
                    },
                );
            }
            _ => {}
        }
        let optional = null_check.is_some();
        doc(out, desc, &fallback);
        if versioned {
            w!(out, "///");
            w!(
                out,
                "/// Since schema version {}: `None` when the message's acting version is older{}.",
                f.since,
                if optional {
                    " or the value is null"
                } else {
                    ""
                }
            );
        } else if optional {
            w!(out, "///");
            w!(out, "/// `None` when the value is the null value.");
        }
        w!(out, "#[inline]");
        let enum_opt = matches!(f.kind, Kind::Enum { optional: true, .. });
        if versioned {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(
                out,
                "if self.acting_version < {} {{ return {NONE}; }}",
                f.since
            );
            w!(out, "let b = rt::chunk::<{size}>(self.blk, {})?;", f.offset);
            if enum_opt {
                w!(out, "{SOME}({expr})");
            } else if let Some(c) = &null_check {
                w!(out, "let v = {expr};");
                w!(out, "if {c} {{ {NONE} }} else {{ {SOME}(v) }}");
            } else {
                w!(out, "{SOME}({expr})");
            }
            w!(out, "}}");
        } else if enum_opt {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(out, "{SOME}({expr})");
            w!(out, "}}");
        } else if let Some(c) = &null_check {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(out, "let v = {expr};");
            w!(out, "if {c} {{ {NONE} }} else {{ {SOME}(v) }}");
            w!(out, "}}");
        } else {
            w!(out, "pub fn {id}(&self) -> {ty} {{ {expr} }}");
        }
        if let Kind::Prim(p) = &f.kind {
            if p.len > 1 && is_text(p) {
                w!(
                    out,
                    "/// The `{}` characters up to the first NUL, checked to be UTF-8.",
                    f.name
                );
                w!(out, "#[inline]");
                if versioned {
                    w!(out, "pub fn {m}_str(&self) -> {O}<{R}<&'a str, ::core::str::Utf8Error>> {{ self.{id}().map(|b| rt::to_str(rt::trim_nul(b))) }}");
                } else {
                    w!(out, "pub fn {m}_str(&self) -> {R}<&'a str, ::core::str::Utf8Error> {{ rt::to_str(rt::trim_nul(self.{id}())) }}");
                }
            }
        }
    }

    /// A write accessor. `target` is the block array (`in_body`) or the composite's slice.
    fn setter(&mut self, m: &str, f: &Field, target: &str, in_body: bool) {
        if f.is_constant() {
            return;
        }
        let id = escape_with(self.keywords, m);
        let out = &mut self.out;
        let off = f.offset;
        let put = if in_body { "rt::put" } else { "rt::put_slice" };
        let slice = if in_body {
            format!("{target}.as_mut_slice()")
        } else {
            target.to_string()
        };
        doc(
            out,
            f.description.as_ref(),
            &format!("Sets the `{}` field.", f.name),
        );
        w!(out, "#[inline]");
        match &f.kind {
            Kind::Prim(p) => {
                let t = rty(p.ty);
                let e = endian(p.order);
                if p.len == 1 {
                    if p.presence == Presence::Optional {
                        w!(out, "pub fn {id}(&mut self, v: {O}<{t}>) -> &mut Self {{");
                        w!(
                            out,
                            "{put}({target}, {off}, v.unwrap_or({}).to_{e}_bytes());",
                            lit(&p.null, p.ty)
                        );
                    } else {
                        w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                        w!(out, "{put}({target}, {off}, v.to_{e}_bytes());");
                    }
                } else if t == "u8" {
                    w!(
                        out,
                        "pub fn {id}(&mut self, v: &[u8; {}]) -> &mut Self {{",
                        p.len
                    );
                    w!(out, "{put}({target}, {off}, *v);");
                } else {
                    let es = p.ty.size();
                    w!(
                        out,
                        "pub fn {id}(&mut self, v: [{t}; {}]) -> &mut Self {{",
                        p.len
                    );
                    w!(out, "let mut bytes = [0u8; {}];", f.size);
                    w!(out, "for (d, x) in bytes.chunks_exact_mut({es}).zip(v) {{ d.copy_from_slice(&x.to_{e}_bytes()); }}");
                    w!(out, "{put}({target}, {off}, bytes);");
                }
                w!(out, "self");
                w!(out, "}}");
                if p.len > 1 && is_text(p) {
                    let n = p.len;
                    w!(
                        out,
                        "/// Sets the `{}` field from text, padding with NUL bytes.",
                        f.name
                    );
                    w!(out, "#[inline]");
                    w!(
                        out,
                        "pub fn {m}_str(&mut self, s: &str) -> {R}<&mut Self, rt::EncodeError> {{"
                    );
                    w!(out, "if s.len() > {n} {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::ValueTooLong {{ length: s.len(), maximum: {n} }}, {off})); }}");
                    w!(out, "let mut b = [0u8; {n}];");
                    w!(out, "rt::put_padded(&mut b, s.as_bytes());");
                    w!(out, "{put}({target}, {off}, b);");
                    w!(out, "{OK}(self)");
                    w!(out, "}}");
                }
            }
            Kind::Enum { ty, optional, .. } => {
                let t = type_name(ty);
                let (pt, order) = self
                    .s
                    .enums
                    .get(ty)
                    .map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |e| {
                        (e.ty, e.order)
                    });
                let e = endian(order);
                let _ = pt;
                if *optional {
                    w!(out, "pub fn {id}(&mut self, v: {O}<{t}>) -> &mut Self {{");
                    w!(out, "{put}({target}, {off}, v.map_or({t}::NULL_VALUE, {t}::to_raw).to_{e}_bytes());");
                } else {
                    w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                    w!(out, "{put}({target}, {off}, v.to_raw().to_{e}_bytes());");
                }
                w!(out, "self");
                w!(out, "}}");
            }
            Kind::Set { ty } => {
                let t = type_name(ty);
                let order = self
                    .s
                    .sets
                    .get(ty)
                    .map_or(ByteOrder::LittleEndian, |d| d.order);
                w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                w!(
                    out,
                    "{put}({target}, {off}, v.bits().to_{}_bytes());",
                    endian(order)
                );
                w!(out, "self");
                w!(out, "}}");
            }
            Kind::Composite { ty } => {
                let t = type_name(ty);
                w!(out, "pub fn {id}(&mut self) -> {t}Encoder<'_> {{");
                w!(
                    out,
                    "{t}Encoder::new(rt::slice_mut({slice}, {off}, {}))",
                    f.size
                );
                w!(out, "}}");
            }
        }
    }

    /// `Debug` listing fields (and sections, for bodies).
    fn debug_impl(
        &mut self,
        ty: &str,
        name: &str,
        fields: &[(String, &Field)],
        sections: &[(String, &Section)],
        in_body: bool,
    ) {
        let out = &mut self.out;
        w!(out, "impl ::core::fmt::Debug for {ty} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "let mut d = f.debug_struct({name:?});");
        for (m, fd) in fields {
            let id = escape_with(self.keywords, m);
            let versioned = in_body && fd.since > 0 && !fd.is_constant();
            let text_arr = matches!(&fd.kind, Kind::Prim(p) if p.len > 1 && is_text(p))
                || matches!(&fd.kind, Kind::Prim(p) if matches!(p.constant, Some(PrimitiveValue::Bytes(_))) && p.presence == Presence::Constant);
            if text_arr {
                if versioned {
                    w!(
                        out,
                        "d.field({:?}, &self.{id}().map(|b| rt::DebugBytes(rt::trim_nul(b))));",
                        fd.name
                    );
                } else {
                    w!(
                        out,
                        "d.field({:?}, &rt::DebugBytes(rt::trim_nul(self.{id}())));",
                        fd.name
                    );
                }
            } else {
                w!(out, "d.field({:?}, &self.{id}());", fd.name);
            }
        }
        for (m, sec) in sections {
            let id = escape_with(self.keywords, m);
            match sec {
                Section::Group { .. } => w!(out, "d.field({:?}, &self.{id}());", sec.name()),
                Section::Var { since, .. } => {
                    if *since > 0 {
                        w!(
                            out,
                            "d.field({:?}, &self.{id}().map(rt::DebugBytes));",
                            sec.name()
                        );
                    } else {
                        w!(
                            out,
                            "d.field({:?}, &rt::DebugBytes(self.{id}()));",
                            sec.name()
                        );
                    }
                }
            }
        }
        w!(out, "d.finish()");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    fn header(&mut self) {
        let h = &self.s.header;
        let out = &mut self.out;
        let hl = h.size;
        w!(
            out,
            "/// The standard fields of the message header (`{}`).",
            h.type_name
        );
        w!(out, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]");
        w!(out, "pub struct HeaderFields {{");
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            w!(out, "/// The `{}` field.", f.name);
            w!(out, "pub {n}: {},", prim_ty(f));
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl HeaderFields {{");
        w!(out, "/// Reads the header at the start of `buf`.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn read(buf: &[u8]) -> {R}<Self, rt::DecodeError> {{"
        );
        w!(out, "let h = match rt::chunk::<{hl}>(buf, 0) {{ {SOME}(h) => h, {NONE} => return {ERR}(rt::DecodeError::too_short(0, {hl}, buf.len())) }};");
        let mut uses_h = false;
        let mut parts = Vec::new();
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            let p = prim_of(f);
            let e = match &p.constant {
                Some(c) if p.presence == Presence::Constant => lit(c, p.ty),
                _ => {
                    uses_h = true;
                    read("h", f.offset, p.ty, p.order)
                }
            };
            parts.push(format!("{n}: {e}"));
        }
        if !uses_h {
            w!(out, "let _ = h;");
        }
        w!(out, "{OK}(Self {{ {} }})", parts.join(", "));
        w!(out, "}}");
        w!(
            out,
            "/// Writes the header at the start of `buf` (constant fields are not written)."
        );
        w!(out, "#[inline]");
        w!(out, "pub fn write(&self, buf: &mut [u8; {hl}]) {{");
        let covered: usize = [&h.block_length, &h.template_id, &h.schema_id, &h.version]
            .iter()
            .map(|f| f.size)
            .sum();
        if covered < hl {
            w!(out, "*buf = [0; {hl}];");
        }
        let mut wrote = false;
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            let p = prim_of(f);
            if p.presence != Presence::Constant {
                w!(
                    out,
                    "rt::put(buf, {}, self.{n}.to_{}_bytes());",
                    f.offset,
                    endian(p.order)
                );
                wrote = true;
            }
        }
        if !wrote && covered >= hl {
            w!(out, "let _ = buf;");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    fn body_decoder(&mut self, b: &Body, template: Option<i32>) {
        let p = &b.path;
        let min = b.min_block;
        let k = b.sections.len();
        let versioned = b.has_versioned_fields();
        // Entries of groups without nested sections are sliced by the iterator directly.
        let fixed_entry = template.is_none() && k == 0;
        let mut names = Names::new(DECODER_RESERVED);
        let fields: Vec<(String, &Field)> =
            b.fields.iter().map(|f| (names.take(&f.name), f)).collect();
        let sections: Vec<(String, &Section)> = b
            .sections
            .iter()
            .map(|s| (names.take(s.name()), s))
            .collect();
        // Nested groups first, so each type is defined once in a flat list.
        for (_, s) in &sections {
            if let Section::Group { body, .. } = s {
                self.body_decoder(body, None);
            }
        }
        let out = &mut self.out;
        if template.is_some() {
            doc(
                out,
                b.description.as_ref(),
                &format!("Reads a `{}` message.", b.name),
            );
            w!(out, "///");
            w!(out, "/// Created by [`Self::decode`], which checks the whole message; accessors cannot fail.");
        } else {
            doc(
                out,
                b.description.as_ref(),
                &format!("Reads one entry of the `{}` group.", b.name),
            );
        }
        w!(out, "#[derive(Clone, Copy)]");
        w!(out, "pub struct {p}Decoder<'a> {{");
        w!(out, "block: &'a [u8; {min}],");
        if versioned {
            w!(out, "blk: &'a [u8],");
        }
        if k > 0 {
            w!(out, "buf: &'a [u8],");
            w!(out, "sec: [usize; {}],", k + 1);
        }
        w!(out, "acting_version: u64,");
        if !fixed_entry {
            w!(out, "end: usize,");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {p}Decoder<'a> {{");
        w!(out, "/// The block length this schema version writes.");
        w!(out, "pub const BLOCK_LENGTH: usize = {};", b.block_length);
        w!(
            out,
            "/// The shortest block accepted: the extent of the fields every version has."
        );
        w!(out, "pub const MIN_BLOCK_LENGTH: usize = {min};");
        if let Some(id) = template {
            let h = &self.s.header;
            let tt = prim_ty(&h.template_id);
            let tp = prim_of(&h.template_id);
            w!(out, "/// The message's template id.");
            w!(
                out,
                "pub const TEMPLATE_ID: {tt} = {};",
                lit(&PrimitiveValue::Int(id.into()), tp.ty)
            );
            w!(out, "");
            w!(out, "/// Checks a whole message (header, block, groups, var data) at the start of `buf`.");
            w!(out, "///");
            w!(
                out,
                "/// Fails if the header is not this message's or any part is outside `buf`."
            );
            w!(out, "#[inline]");
            w!(
                out,
                "pub fn decode(buf: &'a [u8]) -> {R}<Self, rt::DecodeError> {{"
            );
            w!(out, "let h = HeaderFields::read(buf)?;");
            w!(out, "if h.schema_id != SCHEMA_ID {{");
            w!(out, "return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::WrongSchemaId {{ expected: rt::Int::to_u64(SCHEMA_ID), found: rt::Int::to_u64(h.schema_id) }}, {}));", h.schema_id.offset);
            w!(out, "}}");
            w!(out, "if h.template_id != Self::TEMPLATE_ID {{");
            w!(out, "return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::WrongTemplateId {{ expected: rt::Int::to_u64(Self::TEMPLATE_ID), found: rt::Int::to_u64(h.template_id) }}, {}));", h.template_id.offset);
            w!(out, "}}");
            w!(out, "Self::decode_body(buf, &h)");
            w!(out, "}}");
            w!(out, "");
            w!(
                out,
                "/// Checks the message body after a header already read (and dispatched on)."
            );
            w!(out, "#[inline]");
            w!(out, "pub fn decode_body(buf: &'a [u8], h: &HeaderFields) -> {R}<Self, rt::DecodeError> {{");
            w!(out, "Self::parse(buf, HEADER_LENGTH, rt::Int::to_usize(h.block_length), rt::Int::to_u64(h.version))");
            w!(out, "}}");
            w!(out, "");
            w!(
                out,
                "/// Bytes from the start of the header to the end of the message."
            );
            w!(out, "#[inline]");
            w!(out, "pub fn encoded_length(&self) -> usize {{ self.end }}");
        }
        w!(
            out,
            "/// The schema version the writer used (from the message header)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn acting_version(&self) -> u64 {{ self.acting_version }}"
        );
        w!(
            out,
            "/// The bytes of the fields every version has (the start of the block)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn raw_block(&self) -> &'a [u8; {min}] {{ self.block }}"
        );
        w!(out, "");
        if fixed_entry {
            w!(out, "#[inline]");
            w!(
                out,
                "fn from_block(blk: &'a [u8], acting_version: u64) -> {O}<Self> {{"
            );
            w!(out, "let block = blk.first_chunk::<{min}>()?;");
            if versioned {
                w!(out, "{SOME}(Self {{ block, blk, acting_version }})");
            } else {
                w!(out, "{SOME}(Self {{ block, acting_version }})");
            }
            w!(out, "}}");
            w!(out, "");
        } else {
            // The one walk that checks a body: block, then each section in order.
            w!(out, "#[inline]");
            w!(out, "fn parse(buf: &'a [u8], pos: usize, block_len: usize, acting_version: u64) -> {R}<Self, rt::DecodeError> {{");
            w!(out, "let blk_end = match pos.checked_add(block_len) {{ {SOME}(e) if e <= buf.len() => e, _ => return {ERR}(rt::DecodeError::too_short(pos, block_len, buf.len())) }};");
            w!(out, "let blk = match buf.get(pos..blk_end) {{ {SOME}(b) => b, {NONE} => return {ERR}(rt::DecodeError::too_short(pos, block_len, buf.len())) }};");
            w!(out, "let block = match blk.first_chunk::<{min}>() {{ {SOME}(b) => b, {NONE} => return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::BlockLengthTooShort {{ minimum: {min}, found: block_len }}, pos)) }};");
            if k > 0 {
                w!(out, "let mut p = blk_end;");
                w!(out, "let mut sec = [0usize; {}];", k + 1);
                for (i, (_, s)) in sections.iter().enumerate() {
                    w!(out, "sec[{i}] = p;");
                    let step = match s {
                    Section::Group { body, .. } => format!("p = {}Iter::skip(buf, p, acting_version)?;", body.path),
                    Section::Var { len, .. } => format!("p = rt::var_end(buf, p, |b: [u8; {}]| rt::Int::to_usize({}::from_{}_bytes(b)))?;", len.ty.size(), rty(len.ty), endian(len.order)),
                };
                    if s.since() > 0 {
                        w!(out, "if acting_version >= {} {{ {step} }}", s.since());
                    } else {
                        w!(out, "{step}");
                    }
                }
                w!(out, "sec[{k}] = p;");
            }
            let mut fields_init = vec!["block".to_string()];
            if versioned {
                fields_init.push("blk".into());
            } else {
                w!(out, "let _ = blk;");
            }
            if k > 0 {
                fields_init.push("buf".into());
                fields_init.push("sec".into());
                fields_init.push("acting_version".into());
                fields_init.push("end: p".into());
            } else {
                fields_init.push("acting_version".into());
                fields_init.push("end: blk_end".into());
            }
            w!(out, "{OK}(Self {{ {} }})", fields_init.join(", "));
            w!(out, "}}");
            w!(out, "");
            if template.is_none() {
                // The same walk for entries of a message `decode` already checked: it only
                // locates the sections (every access stays bounds-checked, so it cannot panic).
                w!(out, "#[inline]");
                w!(out, "fn parse_trusted(buf: &'a [u8], pos: usize, block_len: usize, acting_version: u64) -> {O}<Self> {{");
                w!(out, "let blk_end = pos.saturating_add(block_len);");
                w!(out, "let blk = buf.get(pos..blk_end)?;");
                w!(out, "let block = blk.first_chunk::<{min}>()?;");
                w!(out, "let mut p = blk_end;");
                w!(out, "let mut sec = [0usize; {}];", k + 1);
                for (i, (_, s)) in sections.iter().enumerate() {
                    w!(out, "sec[{i}] = p;");
                    let step = match s {
                        Section::Group { body, .. } => format!("p = {}Iter::end_trusted(buf, p, acting_version)?;", body.path),
                        Section::Var { len, .. } => format!(
                            "p = {{ let n = rt::Int::to_usize({}::from_{}_bytes(*rt::chunk::<{}>(buf, p)?)); p.saturating_add({} + n) }};",
                            rty(len.ty), endian(len.order), len.ty.size(), len.ty.size()
                        ),
                    };
                    if s.since() > 0 {
                        w!(out, "if acting_version >= {} {{ {step} }}", s.since());
                    } else {
                        w!(out, "{step}");
                    }
                }
                w!(out, "sec[{k}] = p;");
                if versioned {
                    w!(
                        out,
                        "{SOME}(Self {{ block, blk, buf, sec, acting_version, end: p }})"
                    );
                } else {
                    w!(
                        out,
                        "{SOME}(Self {{ block, buf, sec, acting_version, end: p }})"
                    );
                }
                w!(out, "}}");
                w!(out, "");
            }
        }
        for (m, f) in &fields {
            self.getter(m, f, "self.block", true);
        }
        for (i, (m, s)) in sections.iter().enumerate() {
            let id = escape_with(self.keywords, m);
            let out = &mut self.out;
            match s {
                Section::Group {
                    name,
                    description,
                    since,
                    body,
                    ..
                } => {
                    let it = format!("{}Iter", body.path);
                    doc(
                        out,
                        description.as_ref(),
                        &format!("The entries of the `{name}` group."),
                    );
                    w!(out, "#[inline]");
                    let make =
                        format!("{it}::resume(self.buf, self.sec[{i}], self.acting_version)");
                    if *since > 0 {
                        w!(out, "///");
                        w!(out, "/// Since schema version {since}: `None` when the message's acting version is older.");
                        w!(out, "pub fn {id}(&self) -> {O}<{it}<'a>> {{");
                        w!(out, "if self.acting_version < {since} {{ return {NONE}; }}");
                        w!(out, "{SOME}({make})");
                    } else {
                        w!(out, "pub fn {id}(&self) -> {it}<'a> {{");
                        w!(out, "{make}");
                    }
                    w!(out, "}}");
                }
                Section::Var {
                    name,
                    description,
                    since,
                    len,
                    text,
                } => {
                    let l = len.ty.size();
                    doc(
                        out,
                        description.as_ref(),
                        &format!("The `{name}` variable-length data."),
                    );
                    w!(out, "#[inline]");
                    let data = format!("self.buf.get(self.sec[{i}].saturating_add({l})..self.sec[{}]).unwrap_or(&[])", i + 1);
                    if *since > 0 {
                        w!(out, "///");
                        w!(out, "/// Since schema version {since}: `None` when the message's acting version is older.");
                        w!(out, "pub fn {id}(&self) -> {O}<&'a [u8]> {{");
                        w!(out, "if self.acting_version < {since} {{ return {NONE}; }}");
                        w!(out, "{SOME}({data})");
                        w!(out, "}}");
                        if *text {
                            w!(out, "/// The `{name}` data as text, checked to be UTF-8.");
                            w!(out, "#[inline]");
                            w!(out, "pub fn {m}_str(&self) -> {O}<{R}<&'a str, ::core::str::Utf8Error>> {{ self.{id}().map(rt::to_str) }}");
                        }
                    } else {
                        w!(out, "pub fn {id}(&self) -> &'a [u8] {{ {data} }}");
                        if *text {
                            w!(out, "/// The `{name}` data as text, checked to be UTF-8.");
                            w!(out, "#[inline]");
                            w!(out, "pub fn {m}_str(&self) -> {R}<&'a str, ::core::str::Utf8Error> {{ rt::to_str(self.{id}()) }}");
                        }
                    }
                }
            }
        }
        w!(self.out, "}}");
        w!(self.out, "");
        self.debug_impl(
            &format!("{p}Decoder<'_>"),
            &b.name,
            &fields,
            &sections,
            true,
        );
        if template.is_none() {
            return;
        }
        // Iterators for the groups of this message, outermost first is not required.
        self.iters(b, false);
    }

    /// Group iterators for every group under `b`.
    /// `nested`: the groups are inside group entries (not directly in a message).
    fn iters(&mut self, b: &Body, nested: bool) {
        for s in &b.sections {
            if let Section::Group {
                name,
                body,
                dim_size,
                block_len,
                count,
                ..
            } = s
            {
                self.iter(name, body, *dim_size, block_len, count, nested);
                self.iters(body, true);
            }
        }
    }

    #[allow(clippy::too_many_arguments)] // One call site; the group's parts.
    fn iter(
        &mut self,
        name: &str,
        body: &Body,
        dim: usize,
        bl: &DimField,
        count: &DimField,
        nested: bool,
    ) {
        let p = &body.path;
        let out = &mut self.out;
        let max = count.max.min(u64::from(u32::MAX));
        w!(out, "/// Iterates over the entries of a `{name}` group (checked when the message was decoded).");
        let fixed = body.is_fixed();
        let rb = read("dims", bl.offset, bl.ty, bl.order);
        let rc = read("dims", count.offset, count.ty, count.order);
        w!(out, "#[derive(Clone, Copy)]");
        w!(out, "pub struct {p}Iter<'a> {{");
        if fixed {
            w!(out, "rest: &'a [u8],");
        } else {
            w!(out, "buf: &'a [u8],");
            w!(out, "pos: usize,");
        }
        w!(out, "block_len: usize,");
        w!(out, "remaining: usize,");
        w!(out, "acting_version: u64,");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {p}Iter<'a> {{");
        // Checks the group header (the walk in `decode`).
        w!(out, "#[inline]");
        w!(
            out,
            "fn check_dims(buf: &'a [u8], pos: usize) -> {R}<(usize, usize), rt::DecodeError> {{"
        );
        w!(out, "let dims = match rt::chunk::<{dim}>(buf, pos) {{ {SOME}(d) => d, {NONE} => return {ERR}(rt::DecodeError::too_short(pos, {dim}, buf.len())) }};");
        w!(out, "let block_len = rt::Int::to_usize({rb});");
        w!(out, "let remaining = rt::Int::to_usize({rc});");
        // 8- and 16-bit unsigned counts are small by construction; wider or signed ones are
        // bounded so a hostile count cannot make iteration run (nearly) forever.
        if !(count.ty.is_unsigned_int() && count.ty.size() <= 2) {
            w!(out, "if remaining > {max} {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::InvalidDimension {{ found: remaining as u64 }}, pos)); }}");
        }
        if body.min_block > 0 {
            w!(out, "if block_len < {p}Decoder::MIN_BLOCK_LENGTH {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::BlockLengthTooShort {{ minimum: {p}Decoder::MIN_BLOCK_LENGTH, found: block_len }}, pos)); }}");
        }
        w!(out, "{OK}((block_len, remaining))");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Checks the group at `pos`; returns where it ends.");
        w!(out, "#[inline]");
        w!(out, "fn skip(buf: &'a [u8], pos: usize, acting_version: u64) -> {R}<usize, rt::DecodeError> {{");
        w!(
            out,
            "let (block_len, remaining) = Self::check_dims(buf, pos)?;"
        );
        w!(out, "let start = pos + {dim};");
        if fixed {
            w!(out, "let _ = acting_version;");
            w!(
                out,
                "match block_len.checked_mul(remaining).and_then(|n| start.checked_add(n)) {{"
            );
            w!(out, "{SOME}(end) if end <= buf.len() => {OK}(end),");
            w!(out, "_ => {ERR}(rt::DecodeError::too_short(start, block_len.saturating_mul(remaining), buf.len())),");
            w!(out, "}}");
        } else {
            w!(out, "let mut p = start;");
            w!(out, "for _ in 0..remaining {{");
            w!(
                out,
                "let end = {p}Decoder::parse(buf, p, block_len, acting_version)?.end;"
            );
            // Entries that take no bytes are all alike; no need to walk them all.
            w!(out, "if end == p {{ break; }}");
            w!(out, "p = end;");
            w!(out, "}}");
            w!(out, "{OK}(p)");
        }
        w!(out, "}}");
        w!(out, "");
        if nested {
            w!(out, "/// Where the (already checked) group at `pos` ends.");
            w!(out, "#[inline]");
            w!(
                out,
                "fn end_trusted(buf: &'a [u8], pos: usize, acting_version: u64) -> {O}<usize> {{"
            );
            w!(out, "let dims = rt::chunk::<{dim}>(buf, pos)?;");
            w!(out, "let block_len = rt::Int::to_usize({rb});");
            w!(out, "let remaining = rt::Int::to_usize({rc});");
            w!(out, "let start = pos.saturating_add({dim});");
            if fixed {
                w!(out, "let _ = acting_version;");
                w!(
                    out,
                    "{SOME}(start.saturating_add(block_len.saturating_mul(remaining)))"
                );
            } else {
                w!(out, "let mut p = start;");
                w!(out, "for _ in 0..remaining {{");
                w!(
                    out,
                    "let end = {p}Decoder::parse_trusted(buf, p, block_len, acting_version)?.end;"
                );
                w!(out, "if end == p {{ break; }}");
                w!(out, "p = end;");
                w!(out, "}}");
                w!(out, "{SOME}(p)");
            }
            w!(out, "}}");
            w!(out, "");
        }
        // The group was checked by `decode`; this only re-reads its header (still bounds-checked,
        // so a decoder can never be made to panic).
        w!(out, "#[inline]");
        w!(
            out,
            "fn resume(buf: &'a [u8], pos: usize, acting_version: u64) -> Self {{"
        );
        w!(
            out,
            "let (block_len, remaining) = match rt::chunk::<{dim}>(buf, pos) {{"
        );
        w!(
            out,
            "{SOME}(dims) => (rt::Int::to_usize({rb}), rt::Int::to_usize({rc})),"
        );
        w!(out, "{NONE} => (0, 0),");
        w!(out, "}};");
        w!(out, "let start = pos.saturating_add({dim});");
        if fixed {
            w!(out, "match block_len.checked_mul(remaining).and_then(|n| buf.get(start..start.checked_add(n)?)) {{");
            w!(
                out,
                "{SOME}(rest) => Self {{ rest, block_len, remaining, acting_version }},"
            );
            w!(
                out,
                "{NONE} => Self {{ rest: &[], block_len, remaining: 0, acting_version }},"
            );
            w!(out, "}}");
        } else {
            w!(
                out,
                "Self {{ buf, pos: start, block_len, remaining, acting_version }}"
            );
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> ::core::iter::Iterator for {p}Iter<'a> {{");
        w!(out, "type Item = {p}Decoder<'a>;");
        w!(out, "#[inline]");
        w!(out, "fn next(&mut self) -> {O}<{p}Decoder<'a>> {{");
        w!(out, "if self.remaining == 0 {{ return {NONE}; }}");
        if fixed {
            w!(
                out,
                "let (e, rest) = self.rest.split_at_checked(self.block_len)?;"
            );
            w!(out, "self.rest = rest;");
            w!(out, "self.remaining -= 1;");
            w!(out, "{p}Decoder::from_block(e, self.acting_version)");
        } else {
            w!(out, "match {p}Decoder::parse_trusted(self.buf, self.pos, self.block_len, self.acting_version) {{");
            w!(
                out,
                "{SOME}(e) => {{ self.pos = e.end; self.remaining -= 1; {SOME}(e) }}"
            );
            w!(out, "{NONE} => {{ self.remaining = 0; {NONE} }}");
            w!(out, "}}");
        }
        w!(out, "}}");
        w!(out, "#[inline]");
        w!(out, "fn size_hint(&self) -> (usize, {O}<usize>) {{ (self.remaining, {SOME}(self.remaining)) }}");
        w!(out, "}}");
        w!(out, "");
        w!(
            out,
            "impl ::core::iter::ExactSizeIterator for {p}Iter<'_> {{}}"
        );
        w!(out, "");
        w!(out, "impl ::core::fmt::Debug for {p}Iter<'_> {{");
        w!(out, "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ f.debug_list().entries(*self).finish() }}");
        w!(out, "}}");
        w!(out, "");
    }

    fn body_encoder(&mut self, b: &Body, template: Option<i32>) {
        let p = &b.path;
        let bl = b.block_length;
        let k = b.sections.len();
        let mut names = Names::new(ENCODER_RESERVED);
        let fields: Vec<(String, &Field)> =
            b.fields.iter().map(|f| (names.take(&f.name), f)).collect();
        let sections: Vec<(String, &Section)> = b
            .sections
            .iter()
            .map(|s| (names.take(s.name()), s))
            .collect();
        for (_, s) in &sections {
            if let Section::Group {
                name,
                body,
                dim_size,
                block_len,
                count,
                ..
            } = s
            {
                self.body_encoder(body, None);
                self.writer(name, body, *dim_size, block_len, count);
            }
        }
        let is_msg = template.is_some();
        let tail_place = if is_msg || k == 0 {
            "self.tail"
        } else {
            "*self.tail"
        };
        let (lt, tail_ty, tail_ref) = if is_msg || k == 0 {
            ("<'a>", "rt::Tail<'a>", "&mut self.tail")
        } else {
            ("<'a, 't>", "&'t mut rt::Tail<'a>", "&mut *self.tail")
        };
        let out = &mut self.out;
        if is_msg {
            w!(out, "/// Writes a `{}` message: header and block on creation, then fields in any order,", b.name);
            w!(out, "/// then groups and var data in schema order; [`Self::finish`] returns the length.");
            w!(out, "///");
            w!(out, "/// Fields not set keep the buffer's previous bytes. Sections skipped are written empty.");
        } else {
            w!(out, "/// Writes one entry of the `{}` group: fields in any order, then groups and var data in", b.name);
            w!(
                out,
                "/// schema order (sections not written are written empty when the entry ends)."
            );
        }
        w!(out, "pub struct {p}Encoder{lt} {{");
        w!(out, "block: &'a mut [u8; {bl}],");
        if k > 0 || is_msg {
            w!(out, "tail: {tail_ty},");
        }
        if k > 0 {
            w!(out, "next: usize,");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl{lt} {p}Encoder{lt} {{");
        w!(out, "/// The block length written.");
        w!(out, "pub const BLOCK_LENGTH: usize = {bl};");
        w!(
            out,
            "/// The block's bytes, for writing what the typed setters do not cover (padding)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn raw_block(&mut self) -> &mut [u8; {bl}] {{ self.block }}"
        );
        if let Some(id) = template {
            let h = &self.s.header;
            let bp = prim_of(&h.block_length);
            let tp = prim_of(&h.template_id);
            let sp = prim_of(&h.schema_id);
            let _ = sp;
            w!(out, "/// Starts a message at the start of `buf`: writes the header and reserves the block.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub fn new(buf: &'a mut [u8]) -> {R}<Self, rt::EncodeError> {{"
            );
            w!(out, "let mut tail = rt::Tail::new(buf, 0);");
            w!(out, "let hdr = tail.take_array::<HEADER_LENGTH>()?;");
            w!(out, "HeaderFields {{ block_length: {}, template_id: {}, schema_id: SCHEMA_ID, version: SCHEMA_VERSION }}.write(hdr);", lit(&PrimitiveValue::UInt(bl as u64), bp.ty), lit(&PrimitiveValue::Int(id.into()), tp.ty));
            w!(out, "let block = tail.take_array::<{bl}>()?;");
            if k > 0 {
                w!(out, "{OK}(Self {{ block, tail, next: 0 }})");
            } else {
                w!(out, "{OK}(Self {{ block, tail }})");
            }
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Completes the message (writing skipped sections empty); returns its length in bytes.");
            w!(out, "#[inline]");
            if k > 0 {
                w!(
                    out,
                    "pub fn finish(mut self) -> {R}<usize, rt::EncodeError> {{"
                );
                w!(out, "self.complete()?;");
            } else {
                w!(out, "pub fn finish(self) -> {R}<usize, rt::EncodeError> {{");
            }
            w!(out, "{OK}(self.tail.position())");
            w!(out, "}}");
        }
        for (m, f) in &fields {
            self.setter(m, f, "self.block", true);
        }
        if k > 0 {
            let out = &mut self.out;
            w!(out, "");
            w!(out, "#[inline]");
            w!(
                out,
                "fn begin_section(&mut self, i: usize) -> {R}<(), rt::EncodeError> {{"
            );
            w!(out, "if self.next > i {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::OutOfOrder {{ section: i, next_allowed: self.next }}, self.tail.position())); }}");
            // Skipped sections are filled out of line, with the tail moved in and out by
            // value, so the encoder's address never escapes and its state stays in registers.
            w!(out, "if self.next < i {{");
            w!(out, "let t = ::core::mem::take({tail_ref});");
            w!(out, "{tail_place} = Self::fill(t, self.next, i)?;");
            w!(out, "}}");
            w!(out, "self.next = i + 1;");
            w!(out, "{OK}(())");
            w!(out, "}}");
            w!(out, "");
            w!(out, "#[inline]");
            w!(out, "fn complete(&mut self) -> {R}<(), rt::EncodeError> {{");
            w!(out, "if self.next < {k} {{");
            w!(out, "let t = ::core::mem::take({tail_ref});");
            w!(out, "{tail_place} = Self::fill(t, self.next, {k})?;");
            w!(out, "self.next = {k};");
            w!(out, "}}");
            w!(out, "{OK}(())");
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Writes sections `from..to` empty.");
            w!(out, "#[cold]");
            w!(out, "fn fill(mut tail: rt::Tail<'a>, from: usize, to: usize) -> {R}<rt::Tail<'a>, rt::EncodeError> {{");
            w!(out, "for i in from..to {{");
            // One section: an `if` (clippy: single_match); several: a `match`.
            if k > 1 {
                w!(out, "match i {{");
            }
            for (i, (_, s)) in sections.iter().enumerate() {
                let body = match s {
                    Section::Group { body, .. } => {
                        format!("{}Writer::begin(&mut tail)?;", body.path)
                    }
                    Section::Var { len, .. } => format!(
                        "tail.write_var({}::to_{}_bytes(0), &[])?;",
                        rty(len.ty),
                        endian(len.order)
                    ),
                };
                if k > 1 {
                    w!(out, "{i} => {{ {body} }}");
                } else {
                    w!(out, "if i == {i} {{ {body} }}");
                }
            }
            if k > 1 {
                w!(out, "_ => {{}}");
                w!(out, "}}");
            }
            w!(out, "}}");
            w!(out, "{OK}(tail)");
            w!(out, "}}");
            for (i, (m, s)) in sections.iter().enumerate() {
                let id = escape_with(self.keywords, m);
                match s {
                    Section::Group {
                        name,
                        description,
                        body,
                        ..
                    } => {
                        let gp = &body.path;
                        doc(
                            out,
                            description.as_ref(),
                            &format!("Writes the `{name}` group."),
                        );
                        w!(out, "///");
                        w!(out, "/// `f` adds the entries with [`{gp}Writer::entry`]; the count is kept by the writer.");
                        w!(out, "#[inline]");
                        w!(
                            out,
                            "pub fn {id}<F>(&mut self, f: F) -> {R}<&mut Self, rt::EncodeError>"
                        );
                        w!(out, "where F: ::core::ops::FnOnce(&mut {gp}Writer<'a, '_>) -> {R}<(), rt::EncodeError> {{");
                        w!(out, "self.begin_section({i})?;");
                        w!(out, "let mut g = {gp}Writer::begin({tail_ref})?;");
                        w!(out, "f(&mut g)?;");
                        w!(out, "{OK}(self)");
                        w!(out, "}}");
                    }
                    Section::Var {
                        name,
                        description,
                        len,
                        ..
                    } => {
                        doc(
                            out,
                            description.as_ref(),
                            &format!("Writes the `{name}` variable-length data."),
                        );
                        w!(out, "#[inline]");
                        w!(out, "pub fn {id}(&mut self, data: &[u8]) -> {R}<&mut Self, rt::EncodeError> {{");
                        w!(out, "self.begin_section({i})?;");
                        w!(out, "if data.len() as u64 > {} {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::VarDataTooLong {{ length: data.len(), maximum: {} }}, self.tail.position())); }}", len.max.min(u64::MAX >> 1), len.max.min(u64::MAX >> 1));
                        w!(
                            out,
                            "self.tail.write_var({}::to_{}_bytes(data.len() as {}), data)?;",
                            rty(len.ty),
                            endian(len.order),
                            rty(len.ty)
                        );
                        w!(out, "{OK}(self)");
                        w!(out, "}}");
                    }
                }
            }
        }
        w!(self.out, "}}");
        w!(self.out, "");
    }

    fn writer(&mut self, name: &str, body: &Body, dim: usize, bl: &DimField, count: &DimField) {
        let p = &body.path;
        let out = &mut self.out;
        let max = count.max.min(u64::from(u32::MAX));
        let has_tail = !body.sections.is_empty();
        w!(
            out,
            "/// Writes the entries of a `{name}` group; the entry count in the group header is"
        );
        w!(out, "/// updated with every entry.");
        w!(out, "pub struct {p}Writer<'a, 't> {{");
        w!(out, "tail: &'t mut rt::Tail<'a>,");
        w!(out, "dims: &'a mut [u8; {dim}],");
        w!(out, "count: usize,");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a, 't> {p}Writer<'a, 't> {{");
        w!(out, "/// The most entries the group's count field allows.");
        w!(out, "pub const MAX_ENTRIES: usize = {max};");
        w!(out, "#[inline]");
        w!(
            out,
            "fn begin(tail: &'t mut rt::Tail<'a>) -> {R}<Self, rt::EncodeError> {{"
        );
        w!(out, "let dims = tail.take_array::<{dim}>()?;");
        let covered = bl.ty.size() + count.ty.size();
        if covered < dim {
            w!(out, "*dims = [0; {dim}];");
        }
        w!(
            out,
            "rt::put(dims, {}, {}.to_{}_bytes());",
            bl.offset,
            lit(&PrimitiveValue::UInt(body.block_length as u64), bl.ty),
            endian(bl.order)
        );
        w!(
            out,
            "rt::put(dims, {}, {}.to_{}_bytes());",
            count.offset,
            lit(&PrimitiveValue::UInt(0), count.ty),
            endian(count.order)
        );
        w!(out, "{OK}(Self {{ tail, dims, count: 0 }})");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Number of entries written so far.");
        w!(out, "#[inline]");
        w!(out, "pub fn count(&self) -> usize {{ self.count }}");
        w!(out, "");
        w!(out, "/// Appends an entry, which `f` fills in.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn entry<F>(&mut self, f: F) -> {R}<&mut Self, rt::EncodeError>"
        );
        let elt = if has_tail { "<'a, '_>" } else { "<'a>" };
        w!(
            out,
            "where F: ::core::ops::FnOnce(&mut {p}Encoder{elt}) -> {R}<(), rt::EncodeError> {{"
        );
        w!(out, "if self.count >= Self::MAX_ENTRIES {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::GroupCountTooLarge {{ maximum: {max} }}, self.tail.position())); }}");
        w!(
            out,
            "let block = self.tail.take_array::<{}>()?;",
            body.block_length
        );
        w!(out, "self.count += 1;");
        w!(
            out,
            "rt::put(self.dims, {}, (self.count as {}).to_{}_bytes());",
            count.offset,
            rty(count.ty),
            endian(count.order)
        );
        if has_tail {
            w!(
                out,
                "let mut e = {p}Encoder {{ block, tail: &mut *self.tail, next: 0 }};"
            );
            w!(out, "f(&mut e)?;");
            w!(out, "e.complete()?;");
        } else {
            w!(out, "let mut e = {p}Encoder {{ block }};");
            w!(out, "f(&mut e)?;");
        }
        w!(out, "{OK}(self)");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    fn dispatch(&mut self, messages: &[Body]) {
        let out = &mut self.out;
        let h = &self.s.header;
        w!(
            out,
            "/// Any message of the schema, chosen by the header's template id."
        );
        w!(out, "#[derive(Debug, Clone, Copy)]");
        w!(out, "pub enum AnyMessage<'a> {{");
        let mut seen = BTreeSet::new();
        let mut variants = Vec::new();
        for (i, m) in messages.iter().enumerate() {
            let id = self.s.messages.get(i).map_or(0, |m| m.0);
            if !seen.insert(id) {
                continue;
            }
            let v = escape_with(self.keywords, &m.path);
            w!(out, "/// A `{}` message (template id {id}).", m.name);
            w!(out, "{v}({}Decoder<'a>),", m.path);
            variants.push((v, m.path.clone(), id));
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> AnyMessage<'a> {{");
        w!(
            out,
            "/// Reads the header at the start of `buf` and checks the message it names."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn decode(buf: &'a [u8]) -> {R}<Self, rt::DecodeError> {{"
        );
        w!(out, "let h = HeaderFields::read(buf)?;");
        w!(out, "if h.schema_id != SCHEMA_ID {{");
        w!(out, "return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::WrongSchemaId {{ expected: rt::Int::to_u64(SCHEMA_ID), found: rt::Int::to_u64(h.schema_id) }}, {}));", h.schema_id.offset);
        w!(out, "}}");
        w!(out, "match h.template_id {{");
        for (v, p, _) in &variants {
            w!(
                out,
                "{p}Decoder::TEMPLATE_ID => {p}Decoder::decode_body(buf, &h).map(Self::{v}),"
            );
        }
        w!(out, "other => {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::UnknownTemplateId {{ found: rt::Int::to_u64(other) }}, {})),", h.template_id.offset);
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
    }
}

fn prim_of(f: &Field) -> Prim {
    match &f.kind {
        Kind::Prim(p) => p.clone(),
        _ => Prim {
            ty: PrimitiveType::Uint16,
            len: 1,
            order: ByteOrder::LittleEndian,
            presence: Presence::Required,
            null: PrimitiveValue::UInt(0),
            constant: None,
            char_encoding: None,
        },
    }
}

fn prim_ty(f: &Field) -> &'static str {
    rty(prim_of(f).ty)
}

/// Bytes as the elements of an array literal.
fn bstr(b: &[u8]) -> String {
    b.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A set choice's bit as a hexadecimal literal.
fn mask(bit: u32) -> String {
    format!("{:#x}", 1u64 << bit)
}
