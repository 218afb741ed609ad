//! The emitter's view of a [`Layout`]: the same model with Rust type paths attached, the
//! type tables keyed by name (so output order is stable), and only the types that fields use.
//!
//! Nothing here reads tokens; every offset, size, presence and version comes from the layout.

use sbekit_ir::layout::{self, FieldKind, IntSlot, Layout};
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use std::collections::{BTreeMap, BTreeSet};

/// A primitive value's place in a block or composite.
#[derive(Debug, Clone)]
pub struct Prim {
    pub ty: PrimitiveType,
    /// Number of elements (1 for scalars).
    pub len: usize,
    pub order: ByteOrder,
    pub presence: Presence,
    pub null: PrimitiveValue,
    pub constant: Option<PrimitiveValue>,
    pub char_encoding: Option<String>,
}

/// What a field or composite member holds.
#[derive(Debug, Clone)]
pub enum Kind {
    Prim(Prim),
    Enum {
        ty: String,
        optional: bool,
        constant: Option<String>,
    },
    Set {
        ty: String,
    },
    Composite {
        ty: String,
    },
}

/// A field of a block, or a member of a composite.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub description: Option<String>,
    pub offset: usize,
    /// Encoded size in bytes (0 for constants).
    pub size: usize,
    pub since: u32,
    pub kind: Kind,
}

impl Field {
    pub fn is_constant(&self) -> bool {
        match &self.kind {
            Kind::Prim(p) => p.presence == Presence::Constant,
            Kind::Enum { constant, .. } => constant.is_some(),
            _ => false,
        }
    }
}

/// A message body or a group entry.
#[derive(Debug, Clone)]
pub struct Body {
    /// Rust type name prefix (`Car`, `CarFuelFigures`).
    pub path: String,
    pub name: String,
    pub description: Option<String>,
    pub block_length: usize,
    /// Extent of the fields every version has; the shortest block a decoder accepts.
    pub min_block: usize,
    pub fields: Vec<Field>,
    pub sections: Vec<Section>,
}

impl Body {
    /// True if any field is newer than version 0 (then decoders keep the whole block).
    pub fn has_versioned_fields(&self) -> bool {
        self.fields.iter().any(|f| f.since > 0 && !f.is_constant())
    }
    /// True if entries have a fixed size (no nested groups or var data).
    pub fn is_fixed(&self) -> bool {
        self.sections.is_empty()
    }
}

/// An unsigned or signed integer member of a dimension or length composite.
#[derive(Debug, Clone)]
pub struct DimField {
    pub ty: PrimitiveType,
    pub offset: usize,
    pub order: ByteOrder,
    pub max: u64,
}

/// A repeating group or a var-data field.
#[derive(Debug, Clone)]
pub enum Section {
    Group {
        name: String,
        description: Option<String>,
        since: u32,
        dim_size: usize,
        block_len: DimField,
        count: DimField,
        body: Box<Body>,
    },
    Var {
        name: String,
        description: Option<String>,
        since: u32,
        len: DimField,
        text: bool,
    },
}

impl Section {
    pub fn name(&self) -> &str {
        match self {
            Section::Group { name, .. } | Section::Var { name, .. } => name,
        }
    }
    pub fn since(&self) -> u32 {
        match self {
            Section::Group { since, .. } | Section::Var { since, .. } => *since,
        }
    }
}

/// An enum type.
#[derive(Debug, Clone)]
pub struct EnumDef {
    pub description: Option<String>,
    pub ty: PrimitiveType,
    pub order: ByteOrder,
    pub null: PrimitiveValue,
    pub values: Vec<(String, PrimitiveValue, Option<String>)>,
}

/// A bit set type.
#[derive(Debug, Clone)]
pub struct SetDef {
    pub description: Option<String>,
    pub ty: PrimitiveType,
    pub order: ByteOrder,
    pub choices: Vec<(String, u32, Option<String>)>,
}

/// A composite type.
#[derive(Debug, Clone)]
pub struct CompositeDef {
    pub description: Option<String>,
    pub size: usize,
    pub members: Vec<Field>,
}

/// The message header's standard fields.
#[derive(Debug, Clone)]
pub struct Header {
    pub size: usize,
    pub type_name: String,
    pub block_length: Field,
    pub template_id: Field,
    pub schema_id: Field,
    pub version: Field,
}

/// Everything the emitter needs.
#[derive(Debug, Clone)]
pub struct Schema {
    pub package: String,
    pub id: i32,
    pub version: i32,
    pub semantic_version: Option<String>,
    pub header: Header,
    pub enums: BTreeMap<String, EnumDef>,
    pub sets: BTreeMap<String, SetDef>,
    pub composites: BTreeMap<String, CompositeDef>,
    pub messages: Vec<(i32, Body)>,
}

/// Builds the emitter's view of `l`.
pub fn build(l: &Layout) -> Schema {
    let mut used = Used::default();
    used.composites.insert(l.header.composite.0);
    for m in &l.messages {
        used.block(l, &m.block);
    }
    used.composite(l, l.header.composite.0);
    let v = View { l };
    let hc = l.header_composite();
    let hfield = |name: &str| {
        hc.members
            .iter()
            .find(|m| m.name == name)
            .map_or_else(dummy_field, |m| v.field(m))
    };
    Schema {
        package: l.package.clone(),
        id: i32::try_from(l.id).unwrap_or(i32::MAX),
        version: i32::try_from(l.version).unwrap_or(i32::MAX),
        semantic_version: l.semantic_version.clone(),
        header: Header {
            size: l.header.size,
            type_name: hc.name.clone(),
            block_length: hfield("blockLength"),
            template_id: hfield("templateId"),
            schema_id: hfield("schemaId"),
            version: hfield("version"),
        },
        enums: used
            .enums
            .iter()
            .map(|&i| (l.enums[i].name.clone(), v.enum_def(&l.enums[i])))
            .collect(),
        sets: used
            .sets
            .iter()
            .map(|&i| (l.sets[i].name.clone(), v.set_def(&l.sets[i])))
            .collect(),
        composites: used
            .composites
            .iter()
            .map(|&i| {
                let c = &l.composites[i];
                let def = CompositeDef {
                    description: c.description.clone(),
                    size: c.size,
                    members: c.members.iter().map(|m| v.field(m)).collect(),
                };
                (c.name.clone(), def)
            })
            .collect(),
        messages: l
            .messages
            .iter()
            .map(|m| {
                let path = crate::names::type_name(&m.name);
                let body = v.body(&m.block, path, &m.name, m.description.as_ref());
                (i32::try_from(m.id).unwrap_or(i32::MAX), body)
            })
            .collect(),
    }
}

/// The types that fields refer to (group dimension and var-data composites are not emitted).
#[derive(Default)]
struct Used {
    enums: BTreeSet<usize>,
    sets: BTreeSet<usize>,
    composites: BTreeSet<usize>,
}

impl Used {
    fn block(&mut self, l: &Layout, b: &layout::Block) {
        for f in &b.fields {
            self.field(l, f);
        }
        for g in &b.groups {
            self.block(l, &g.block);
        }
    }

    fn field(&mut self, l: &Layout, f: &layout::Field) {
        match &f.kind {
            FieldKind::Primitive(_) => {}
            FieldKind::Enum { def, .. } => {
                self.enums.insert(def.0);
            }
            FieldKind::Set { def } => {
                self.sets.insert(def.0);
            }
            FieldKind::Composite { def, .. } => self.composite(l, def.0),
        }
    }

    fn composite(&mut self, l: &Layout, i: usize) {
        self.composites.insert(i);
        for m in &l.composites[i].members {
            self.field(l, m);
        }
    }
}

struct View<'l> {
    l: &'l Layout,
}

impl View<'_> {
    fn body(
        &self,
        b: &layout::Block,
        path: String,
        name: &str,
        description: Option<&String>,
    ) -> Body {
        let mut sections = Vec::new();
        for g in &b.groups {
            let gpath = format!("{path}{}", crate::names::camel(&g.name));
            sections.push(Section::Group {
                name: g.name.clone(),
                description: g.description.clone(),
                since: g.since_version,
                dim_size: g.dimension.size,
                block_len: self.dim(&g.dimension.block_length),
                count: self.dim(&g.dimension.num_in_group),
                body: Box::new(self.body(&g.block, gpath, &g.name, g.description.as_ref())),
            });
        }
        for d in &b.var_data {
            sections.push(Section::Var {
                name: d.name.clone(),
                description: d.description.clone(),
                since: d.since_version,
                len: self.dim(&d.length),
                text: d.is_text(),
            });
        }
        Body {
            path,
            name: name.to_string(),
            description: description.cloned(),
            block_length: b.block_length,
            min_block: b.min_length(),
            fields: b.fields.iter().map(|f| self.field(f)).collect(),
            sections,
        }
    }

    fn dim(&self, s: &IntSlot) -> DimField {
        DimField {
            ty: s.ty,
            offset: s.offset,
            order: self.l.byte_order,
            max: s.max,
        }
    }

    fn field(&self, f: &layout::Field) -> Field {
        let kind = match &f.kind {
            FieldKind::Primitive(p) => Kind::Prim(Prim {
                ty: p.ty,
                len: p.length,
                order: self.l.byte_order,
                presence: f.presence,
                null: p.null_value.clone(),
                constant: p.constant.clone(),
                char_encoding: p.character_encoding.clone(),
            }),
            FieldKind::Enum { def, constant } => {
                let e = self.l.enum_def(*def);
                Kind::Enum {
                    ty: e.name.clone(),
                    optional: f.is_optional(),
                    constant: constant
                        .and_then(|i| e.values.get(i))
                        .map(|v| v.name.clone()),
                }
            }
            FieldKind::Set { def } => Kind::Set {
                ty: self.l.set_def(*def).name.clone(),
            },
            FieldKind::Composite { def, .. } => Kind::Composite {
                ty: self.l.composite_def(*def).name.clone(),
            },
        };
        Field {
            name: f.name.clone(),
            description: f.description.clone(),
            offset: f.offset,
            size: f.size,
            since: f.since_version,
            kind,
        }
    }

    fn enum_def(&self, e: &layout::EnumDef) -> EnumDef {
        EnumDef {
            description: e.description.clone(),
            ty: e.encoding,
            order: self.l.byte_order,
            null: e.null_value.clone(),
            values: e
                .values
                .iter()
                .map(|v| (v.name.clone(), v.value.clone(), v.description.clone()))
                .collect(),
        }
    }

    fn set_def(&self, d: &layout::SetDef) -> SetDef {
        SetDef {
            description: d.description.clone(),
            ty: d.encoding,
            order: self.l.byte_order,
            choices: d
                .choices
                .iter()
                .map(|c| (c.name.clone(), c.bit, c.description.clone()))
                .collect(),
        }
    }
}

fn dummy_field() -> Field {
    Field {
        name: String::new(),
        description: None,
        offset: 0,
        size: 0,
        since: 0,
        kind: Kind::Set { ty: String::new() },
    }
}
