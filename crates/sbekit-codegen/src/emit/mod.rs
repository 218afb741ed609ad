//! Writes Rust source for a codec [`Plan`]: renders it, never re-derives offsets, versions or
//! checks from the layout.
//!
//! The output is one module's worth of items with no inner attributes, so it can be used as a
//! `mod` file, as a crate's `lib.rs` or through `include!`. Unqualified names in the output are
//! only the generated types themselves; everything else is a full path, so schema type names
//! cannot shadow what the generated code uses.

use crate::names::{camel, escape_with, screaming, snake, type_name};
use crate::KeywordStyle;
use crate::Options;
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use sbekit_plan::names::{Clash, Scope};
use sbekit_plan::{
    Body, CompositeDef, Empty, EnumDef, Field, Kind, Language, Plan, Prim, Section, SetDef,
    Slot as DimField,
};
use std::collections::BTreeSet;
use std::fmt::Write;

const R: &str = "::core::result::Result";
const O: &str = "::core::option::Option";
const SOME: &str = "::core::option::Option::Some";
const NONE: &str = "::core::option::Option::None";
const OK: &str = "::core::result::Result::Ok";
const ERR: &str = "::core::result::Result::Err";

/// The attribute that derives serde's traits for a generated type ([`Options::serde`]).
const SERDE_DERIVE: &str =
    "#[cfg_attr(feature = \"serde\", derive(::serde::Serialize, ::serde::Deserialize))]";
/// The same for an enum's or bit set's newtype: its raw value, in every format.
const SERDE_DERIVE_RAW: &str = "#[cfg_attr(feature = \"serde\", derive(::serde::Serialize, ::serde::Deserialize), serde(transparent))]";

macro_rules! w {
    ($out:expr, $($arg:tt)*) => { { let _ = writeln!($out, $($arg)*); } };
}

mod accessors;
mod composites;
pub(crate) mod conformance;
pub mod crate_files;
mod decoder;
mod dispatch;
mod encoder;
mod enums;
mod groups;
pub(crate) mod json;
mod owned;
mod sets;

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

/// The block bytes a body's fields need at `acting_version`, as an expression (the plan's
/// `required` table, as `RequiredLengths::at` reads it); `None` when that is never more than
/// `min`, which `MIN_BLOCK_LENGTH` already checks.
fn required_expr(r: &sbekit_plan::RequiredLengths, min: usize) -> Option<String> {
    if r.0.iter().all(|&(_, len)| len <= min) {
        return None;
    }
    // The versions where the length changes, each with its new length.
    let (base, steps) = sbekit_plan::program::required_changes(&r.0);
    let mut e = String::new();
    for &(v, len) in steps.iter().rev() {
        let _ = write!(e, "if acting_version >= {v} {{ {len} }} else ");
    }
    if e.is_empty() {
        return Some(base.to_string());
    }
    let _ = write!(e, "{{ {base} }}");
    Some(e)
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

/// A scope of accessor names (snake case, not escaped): a name that is taken gets `_field` and
/// then a number, since a trailing `_` would read as an escaped keyword.
fn member_scope(reserved: &[&str]) -> Scope {
    Scope::new(snake, reserved).with_clash(Clash::FieldThenNumber)
}

/// A body's member names in one scope (`reserved`: the decoder's or the encoder's own
/// methods): its fields', then its sections'.
type Members<'p> = (Vec<(String, &'p Field)>, Vec<(String, &'p Section)>);

/// The names of a body's members as accessors of the decoder (`DECODER_RESERVED`) or setters of
/// the encoder (`ENCODER_RESERVED`).
fn member_names<'p>(b: &'p Body, reserved: &[&str]) -> Members<'p> {
    let mut names = member_scope(reserved);
    let fields = b.fields.iter().map(|f| (names.take(&f.name), f)).collect();
    let sections = b
        .sections
        .iter()
        .map(|s| (names.take(s.name()), s))
        .collect();
    (fields, sections)
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
    "from_block",
    "parse_trusted",
    "group_check_dims",
    "group_dims",
    "group_skip",
    "group_trusted",
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
    s: &'s Plan,
    keywords: KeywordStyle,
    out: String,
    /// True while emitting a message that keeps an empty-entry budget
    /// ([`Body::draws_on_budget`]): only then do its walks pass one along.
    budget: bool,
    /// [`Options::serde`]: serde derives on the owned values, enums and bit sets.
    serde: bool,
}

impl Gen<'_> {
    /// The budget parameter of a checking walk (`parse`, `group_skip`): none when the message
    /// keeps no budget, `_budget` when this walk only passes it by.
    fn budget_param(&self, used: bool) -> &'static str {
        match (self.budget, used) {
            (false, _) => "",
            (true, true) => ", budget: &mut usize",
            (true, false) => ", _budget: &mut usize",
        }
    }

    /// The budget argument of a call to a checking walk.
    fn budget_arg(&self) -> &'static str {
        if self.budget {
            ", budget"
        } else {
            ""
        }
    }

    /// The Rust type name prefix of a message or group entry (`Car`, `CarFuelFigures`).
    fn ty(&self, b: &Body) -> String {
        self.s.type_name(Language::Rust, &b.path)
    }
}

/// Generates the module text.
pub fn emit(s: &Plan, opts: &Options) -> String {
    let mut g = Gen {
        s,
        keywords: opts.keywords,
        out: String::new(),
        budget: false,
        serde: opts.serde,
    };
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
    for m in &s.messages {
        let id = i32::try_from(m.id).unwrap_or(i32::MAX);
        g.budget = m.body.draws_on_budget();
        g.body_decoder(&m.body, Some(id));
        g.body_encoder(&m.body, Some(id));
    }
    g.dispatch();
    g.json();
    if opts.owned {
        g.owned();
    }
    g.out
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
            if es == 1 { "i".to_string() } else { format!("i.wrapping_mul({es})") }
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
        w!(out, "// @generated by sbekit {} from SBE schema package `{}` (id {}, version {}). Do not edit.", env!("CARGO_PKG_VERSION"), s.package, s.id, s.version);
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
            min: PrimitiveValue::UInt(0),
            max: PrimitiveValue::UInt(u64::from(u16::MAX)),
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
