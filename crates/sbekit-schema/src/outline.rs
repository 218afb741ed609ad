//! A schema's outline: messages, fields with their offsets, sizes, types and presence, groups
//! and var data, as `sbekit inspect` shows them and the Python package's `Schema.messages`
//! returns them.
//!
//! [`Outline::new`] reads the layout model once; [`Outline::to_text`] is `inspect`'s table and
//! the `Serialize` impl is `inspect --json` (members in alphabetical order, as they always
//! were). Groups and var data after the first one in a block have no fixed offset: their
//! `offset` is -1 (printed `var`).

use sbekit_ir::layout::{Block, Field, FieldKind, Layout};
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use serde::{Serialize, Serializer};
use std::fmt::Write;

/// The whole schema.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outline {
    /// `littleEndian` or `bigEndian`.
    pub byte_order: &'static str,
    /// The message header.
    pub header: HeaderOutline,
    /// Schema id.
    pub id: u32,
    /// The messages, in template-id order.
    pub messages: Vec<MessageOutline>,
    /// Package name.
    pub package: String,
    /// `semanticVersion`, if given.
    pub semantic_version: Option<String>,
    /// Schema version.
    pub version: u32,
}

/// The message header composite.
#[derive(Debug, Clone, Serialize)]
pub struct HeaderOutline {
    /// Its members.
    pub fields: Vec<HeaderField>,
    /// Its length in bytes.
    pub length: usize,
    /// The composite's name.
    pub name: String,
}

/// One member of the message header.
#[derive(Debug, Clone, Serialize)]
pub struct HeaderField {
    /// Member name.
    pub name: String,
    /// Offset in the header.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// The primitive type's schema name, or `composite`.
    #[serde(rename = "type")]
    pub ty: &'static str,
}

/// A message.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageOutline {
    /// Block length at the schema's version.
    pub block_length: usize,
    /// Var data.
    pub data: Vec<DataOutline>,
    /// `deprecated` version (0 when not deprecated).
    pub deprecated: u32,
    /// Description from the schema.
    pub description: Option<String>,
    /// Fixed fields, in schema order.
    pub fields: Vec<FieldOutline>,
    /// Repeating groups.
    pub groups: Vec<GroupOutline>,
    /// Template id.
    pub id: u32,
    /// Name.
    pub name: String,
    /// `semanticType`.
    pub semantic_type: Option<String>,
    /// `sinceVersion`.
    pub since_version: u32,
}

/// A repeating group.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupOutline {
    /// Block length of one entry.
    pub block_length: usize,
    /// Var data of each entry.
    pub data: Vec<DataOutline>,
    /// Description from the schema (not in the JSON).
    #[serde(skip)]
    pub description: Option<String>,
    /// The dimension composite's name.
    pub dimension_type: String,
    /// Fixed fields of each entry.
    pub fields: Vec<FieldOutline>,
    /// Nested groups.
    pub groups: Vec<GroupOutline>,
    /// Group id.
    pub id: i32,
    /// Name.
    pub name: String,
    /// Offset after the block, or -1 when it depends on the data.
    pub offset: i64,
    /// `sinceVersion`.
    pub since_version: u32,
}

/// What kind of type a field has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// A primitive or an array of one.
    Primitive,
    /// An enum.
    Enum,
    /// A bit set.
    Set,
    /// A composite.
    Composite,
}

impl TypeKind {
    /// `primitive`, `enum`, `set` or `composite`.
    pub fn as_str(self) -> &'static str {
        match self {
            TypeKind::Primitive => "primitive",
            TypeKind::Enum => "enum",
            TypeKind::Set => "set",
            TypeKind::Composite => "composite",
        }
    }
}

/// `required`, `optional` or `constant`.
pub fn presence_label(p: Presence) -> &'static str {
    match p {
        Presence::Required => "required",
        Presence::Optional => "optional",
        Presence::Constant => "constant",
    }
}

fn ser_presence<S: Serializer>(p: &Presence, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(presence_label(*p))
}

/// A fixed field (or, in [`FieldOutline::members`], a composite's member).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldOutline {
    /// A constant's value as the schema names it (`Model.C`, `K`), else `None`.
    pub const_value: Option<String>,
    /// `deprecated` version (0 when not deprecated).
    pub deprecated: u32,
    /// Field id (-1 for composite members).
    pub id: i32,
    /// Name.
    pub name: String,
    /// Offset in the block.
    pub offset: usize,
    /// Presence.
    #[serde(serialize_with = "ser_presence")]
    pub presence: Presence,
    /// `sinceVersion`.
    pub since_version: u32,
    /// Size in bytes (0 for a constant).
    pub size: usize,
    /// The type as `inspect` shows it: `uint16`, `enum Model (uint8)`, `Symbol (char[6])`.
    #[serde(rename = "type")]
    pub type_label: String,
    /// The type's name in the schema (`uint16`, `Model`) (not in the JSON).
    #[serde(skip)]
    pub type_name: String,
    /// The kind of type (not in the JSON).
    #[serde(skip)]
    pub kind: TypeKind,
    /// A composite's members (empty otherwise; not in the JSON).
    #[serde(skip)]
    pub members: Vec<FieldOutline>,
}

/// A var-data field.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DataOutline {
    /// `characterEncoding`, if any.
    pub character_encoding: Option<String>,
    /// Id.
    pub id: i32,
    /// The length prefix's primitive type.
    pub length_type: &'static str,
    /// Name.
    pub name: String,
    /// Offset after the block, or -1 when it depends on the data.
    pub offset: i64,
    /// `sinceVersion`.
    pub since_version: u32,
    /// The var-data composite's name.
    #[serde(rename = "type")]
    pub ty: String,
}

/// A block's fixed fields, groups and var data.
struct Body {
    fields: Vec<FieldOutline>,
    groups: Vec<GroupOutline>,
    data: Vec<DataOutline>,
}

impl Outline {
    /// The outline of a layout.
    pub fn new(l: &Layout) -> Outline {
        let messages = l
            .messages
            .iter()
            .map(|m| {
                let body = body(l, &m.block);
                MessageOutline {
                    block_length: m.block.block_length,
                    data: body.data,
                    deprecated: m.deprecated,
                    description: m.description.clone(),
                    fields: body.fields,
                    groups: body.groups,
                    id: m.id,
                    name: m.name.clone(),
                    semantic_type: m.semantic_type.clone(),
                    since_version: m.since_version,
                }
            })
            .collect();
        let header = l.header_composite();
        Outline {
            byte_order: match l.byte_order {
                ByteOrder::LittleEndian => "littleEndian",
                ByteOrder::BigEndian => "bigEndian",
            },
            header: HeaderOutline {
                fields: header
                    .members
                    .iter()
                    .map(|f| HeaderField {
                        name: f.name.clone(),
                        offset: f.offset,
                        size: f.size,
                        ty: match &f.kind {
                            FieldKind::Primitive(p) => p.ty.schema_name(),
                            _ => "composite",
                        },
                    })
                    .collect(),
                length: l.header.size,
                name: header.name.clone(),
            },
            id: l.id,
            messages,
            package: l.package.clone(),
            semantic_version: l.semantic_version.clone(),
            version: l.version,
        }
    }

    /// The text table `sbekit inspect` prints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "schema {} id={} version={} semanticVersion={} byteOrder={}",
            self.package,
            self.id,
            self.version,
            self.semantic_version.as_deref().unwrap_or("-"),
            self.byte_order
        );
        let fields: Vec<String> = self
            .header
            .fields
            .iter()
            .map(|f| format!("{} {} @{}", f.name, f.ty, f.offset))
            .collect();
        let _ = writeln!(
            out,
            "header {} ({} bytes): {}",
            self.header.name,
            self.header.length,
            fields.join(", ")
        );
        for m in &self.messages {
            out.push('\n');
            let deprecated = if m.deprecated > 0 {
                format!(" deprecated={}", m.deprecated)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "message {} id={} blockLength={} sinceVersion={}{deprecated}",
                m.name, m.id, m.block_length, m.since_version
            );
            let _ = writeln!(
                out,
                "  {:>6} {:>5}  {:<28} {:<32} id",
                "offset", "size", "field", "type"
            );
            print_body(&m.fields, &m.groups, &m.data, 1, &mut out);
        }
        out
    }
}

fn offset_label(offset: i64) -> String {
    if offset < 0 {
        "var".into()
    } else {
        offset.to_string()
    }
}

fn print_body(
    fields: &[FieldOutline],
    groups: &[GroupOutline],
    data: &[DataOutline],
    depth: usize,
    out: &mut String,
) {
    let pad = "  ".repeat(depth);
    for f in fields {
        let mut notes = String::new();
        if f.presence != Presence::Required {
            let _ = write!(notes, " {}", presence_label(f.presence));
        }
        if let Some(c) = &f.const_value {
            let _ = write!(notes, " ={c}");
        }
        if f.since_version > 0 {
            let _ = write!(notes, " since={}", f.since_version);
        }
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  {:<28} {:<32} {}{notes}",
            f.offset, f.size, f.name, f.type_label, f.id
        );
    }
    for g in groups {
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  group {} id={} blockLength={} dimensions={}",
            offset_label(g.offset),
            "",
            g.name,
            g.id,
            g.block_length,
            g.dimension_type
        );
        print_body(&g.fields, &g.groups, &g.data, depth + 1, out);
    }
    for d in data {
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  data {} id={} type={} (length {}{})",
            offset_label(d.offset),
            "",
            d.name,
            d.id,
            d.ty,
            d.length_type,
            d.character_encoding
                .as_ref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default()
        );
    }
}

fn body(l: &Layout, b: &Block) -> Body {
    // Only the first group or var data sits at a fixed offset (the block length).
    let first_offset = |i: usize| {
        if i == 0 {
            i64::try_from(b.block_length).unwrap_or(-1)
        } else {
            -1
        }
    };
    let groups = b
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let inner = body(l, &g.block);
            GroupOutline {
                block_length: g.block.block_length,
                data: inner.data,
                description: g.description.clone(),
                dimension_type: g.dimension.type_name.clone(),
                fields: inner.fields,
                groups: inner.groups,
                id: g.id,
                name: g.name.clone(),
                offset: first_offset(i),
                since_version: g.since_version,
            }
        })
        .collect();
    let data = b
        .var_data
        .iter()
        .enumerate()
        .map(|(i, d)| DataOutline {
            character_encoding: d.character_encoding.clone(),
            id: d.id,
            length_type: d.length.ty.schema_name(),
            name: d.name.clone(),
            offset: first_offset(i + b.groups.len()),
            since_version: d.since_version,
            ty: d.type_name.clone(),
        })
        .collect();
    Body {
        fields: b.fields.iter().map(|f| field(l, f)).collect(),
        groups,
        data,
    }
}

fn field(l: &Layout, f: &Field) -> FieldOutline {
    let (kind, members) = match &f.kind {
        FieldKind::Primitive(_) => (TypeKind::Primitive, Vec::new()),
        FieldKind::Enum { .. } => (TypeKind::Enum, Vec::new()),
        FieldKind::Set { .. } => (TypeKind::Set, Vec::new()),
        FieldKind::Composite { members, .. } => (
            TypeKind::Composite,
            members.iter().map(|m| field(l, m)).collect(),
        ),
    };
    FieldOutline {
        const_value: const_label(l, f),
        deprecated: f.deprecated,
        id: f.id,
        name: f.name.clone(),
        offset: f.offset,
        presence: f.presence,
        since_version: f.since_version,
        size: f.size,
        type_label: type_label(l, f),
        type_name: f.type_name.clone(),
        kind,
        members,
    }
}

fn type_label(l: &Layout, f: &Field) -> String {
    match &f.kind {
        FieldKind::Enum { def, .. } => {
            let e = l.enum_def(*def);
            format!("enum {} ({})", e.name, e.encoding.schema_name())
        }
        FieldKind::Set { def } => {
            let s = l.set_def(*def);
            format!("set {} ({})", s.name, s.encoding.schema_name())
        }
        FieldKind::Composite { def, .. } => format!("composite {}", l.composite_def(*def).name),
        FieldKind::Primitive(p) => {
            let prim = p.ty.schema_name();
            if p.length > 1 {
                format!("{} ({prim}[{}])", f.type_name, p.length)
            } else if f.type_name == prim {
                prim.to_string()
            } else {
                format!("{} ({prim})", f.type_name)
            }
        }
    }
}

/// A constant's value as the schema names it (`Model.C` for an enum's valueRef).
fn const_label(l: &Layout, f: &Field) -> Option<String> {
    if !f.is_constant() {
        return None;
    }
    match &f.kind {
        FieldKind::Primitive(p) => match (&p.constant, p.ty) {
            // A single character reads better as itself than as its code.
            (Some(PrimitiveValue::Int(c)), PrimitiveType::Char) => {
                u8::try_from(*c).ok().map(|c| char::from(c).to_string())
            }
            (v, _) => v.as_ref().map(ToString::to_string),
        },
        FieldKind::Enum {
            def,
            constant: Some(i),
        } => {
            let e = l.enum_def(*def);
            e.values.get(*i).map(|v| format!("{}.{}", e.name, v.name))
        }
        _ => None,
    }
}
