//! The language-neutral codec plan: what every code generator renders, computed once per schema
//! from the layout model ([`sbekit_ir::layout::Layout`]).
//!
//! The pipeline has the shape of planus': the schema compiler parses and checks, the layout
//! model translates IR into offsets, sizes and versions, this crate turns the layout into a
//! typed intermediate for codecs, and each generator (Rust, TypeScript, and the C++, Java, Go,
//! C and C# ones to come) is a backend that renders a [`Plan`] and never re-derives offsets,
//! versions or validation from the layout:
//!
//! - [`Plan::messages`]: per message its [`Body`] (fields with their accessors, groups and var
//!   data in wire order, which is also the encoder's section order), and the [`Check`]s a
//!   decoder performs once up front ([`Message::checks`]), each with what it reads and which
//!   [`CheckError`]s it raises;
//! - the shared enum, set and composite definitions the fields refer to by name
//!   ([`Plan::enums`], [`Plan::sets`], [`Plan::composites`]: only the ones fields use, in name
//!   order so that output is stable);
//! - [`names`]: identifiers per target [`Language`], with its keyword and case policy.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let xml = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="0">
//! # <types><composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/>
//! # <type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/>
//! # <type name="version" primitiveType="uint16"/></composite></types>
//! # <sbe:message name="Tick" id="1"><field name="price" id="1" type="int64"/></sbe:message>
//! # </sbe:messageSchema>"#;
//! # let dir = std::env::temp_dir().join(format!("sbekit-plan-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("tick.xml");
//! # std::fs::write(&path, xml)?;
//! let layout = sbekit_schema::load_layout(&path)?;
//! let plan = sbekit_plan::Plan::new(&layout)?;
//! let tick = &plan.messages[0];
//! assert_eq!(tick.body.fields[0].offset, 0);
//! assert_eq!(plan.type_name(sbekit_plan::Language::Rust, &tick.body.path), "Tick");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod build;
mod checks;
pub mod json;
pub mod literal;
pub mod names;
pub mod package;
pub mod program;

pub use checks::{Check, CheckError};
pub use names::{Case, Language, NameKind};
pub use sbekit_ir::wire::RequiredLengths;
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use std::collections::BTreeMap;

/// Why a plan could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The IR could not be turned into a layout (it is malformed or unsupported).
    #[error("{0}")]
    Layout(#[from] sbekit_ir::IrError),
    /// The message header composite lacks one of the standard fields.
    #[error("the message header has no `{0}` field")]
    MissingHeaderField(&'static str),
}

/// Every enum, set and composite of a schema, in the layout's order, with its schema name.
///
/// [`Plan::enums`], [`Plan::sets`] and [`Plan::composites`] hold only the types fields use;
/// these tables also hold the group dimension composites and the types no field uses (a
/// var-data composite is not a type of the layout: its slots are in [`Section::Var`]), for a
/// generator that emits every type of the schema (the TypeScript one does). Built by
/// [`all_types`].
#[derive(Debug, Clone, PartialEq)]
pub struct TypeTables {
    /// Every enum.
    pub enums: Vec<(String, EnumDef)>,
    /// Every set.
    pub sets: Vec<(String, SetDef)>,
    /// Every composite, its members as plan [`Field`]s.
    pub composites: Vec<(String, CompositeDef)>,
}

/// Every type of a layout (see [`TypeTables`]).
pub fn all_types(layout: &sbekit_ir::layout::Layout) -> TypeTables {
    build::all_types(layout)
}

/// A primitive value's place in a block or composite: how an accessor reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Prim {
    /// The primitive type of one element.
    pub ty: PrimitiveType,
    /// Number of elements (1 for scalars).
    pub len: usize,
    /// Byte order of the schema.
    pub order: ByteOrder,
    /// Required, optional (the null value means absent) or constant.
    pub presence: Presence,
    /// The null value (the absent marker of an optional field).
    pub null: PrimitiveValue,
    /// The value of a constant field (it takes no bytes).
    pub constant: Option<PrimitiveValue>,
    /// `characterEncoding`, if the schema gives one.
    pub char_encoding: Option<String>,
    /// The smallest value in force (`minValue`, or the type's default); owned values check the
    /// bounds of [`Field::range`], derived from these.
    pub min: PrimitiveValue,
    /// The largest value in force (`maxValue`, or the type's default).
    pub max: PrimitiveValue,
}

/// What a field or composite member holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A primitive or an array of primitives.
    Prim(Prim),
    /// An enum, by the name of its definition in [`Plan::enums`].
    Enum {
        /// The enum's schema name.
        ty: String,
        /// True if the field is optional (the enum's null value means absent).
        optional: bool,
        /// The value's name, when the field is a constant.
        constant: Option<String>,
    },
    /// A bit set, by the name of its definition in [`Plan::sets`].
    Set {
        /// The set's schema name.
        ty: String,
    },
    /// A composite, by the name of its definition in [`Plan::composites`].
    Composite {
        /// The composite's schema name.
        ty: String,
    },
}

/// A field of a block, or a member of a composite: one accessor.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Schema name.
    pub name: String,
    /// Schema description.
    pub description: Option<String>,
    /// Offset in the block (or composite), in bytes.
    pub offset: usize,
    /// Encoded size in bytes (0 for constants).
    pub size: usize,
    /// `sinceVersion`: a decoder of an older acting version reads the field as absent.
    pub since: u32,
    /// Required, optional or constant.
    pub presence: Presence,
    /// What the field holds.
    pub kind: Kind,
    /// FIX semantic type (`Price`, `UTCTimestamp`, ...), if the schema gives one.
    pub semantic_type: Option<String>,
    /// Time unit of a timestamp primitive (`nanosecond`), if the schema gives one.
    pub time_unit: Option<String>,
    /// The bounds an owned value's validation checks the field's numbers (each element of an
    /// array) against; `None` when there is nothing to check (see [`Range`]).
    pub range: Option<Range>,
}

/// The `minValue` and `maxValue` in force for a numeric field (the schema's, or the type's
/// defaults, which leave out the null value), as the bounds owned values check: a bound is
/// `None` where no value of the type lies beyond it (`uint8`'s minimum 0), so that every check
/// rendered can fail. Integer fields have one or both; a `float` or `double` field has the
/// bounds the schema gives itself (the defaults, the largest finite values, are not checked,
/// as the reference's DTOs do not); `char` fields and constants have none (a char array is
/// checked for its length instead).
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    /// The smallest value allowed, when some value of the type is smaller.
    pub min: Option<PrimitiveValue>,
    /// The largest value allowed, when some value of the type is larger.
    pub max: Option<PrimitiveValue>,
}

impl Range {
    /// The bounds of a primitive of type `ty` with `min` and `max` in force, or `None` when
    /// nothing is to be checked.
    pub fn of(ty: PrimitiveType, min: &PrimitiveValue, max: &PrimitiveValue) -> Option<Range> {
        let (min, max) = if ty.is_float() {
            let own = |v: &PrimitiveValue, default: PrimitiveValue| {
                (v.as_f64().is_some_and(f64::is_finite) && *v != default).then(|| v.clone())
            };
            (own(min, ty.default_min()), own(max, ty.default_max()))
        } else if ty.is_signed_int() || ty.is_unsigned_int() {
            let bits = 8 * ty.size() as u32;
            let (lo, hi) = if ty.is_signed_int() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            (
                min.as_i128().filter(|v| *v > lo).map(|_| min.clone()),
                max.as_i128().filter(|v| *v < hi).map(|_| max.clone()),
            )
        } else {
            (None, None)
        };
        (min.is_some() || max.is_some()).then_some(Range { min, max })
    }
}

impl Field {
    /// True if the field is a constant (it takes no bytes on the wire).
    pub fn is_constant(&self) -> bool {
        match &self.kind {
            Kind::Prim(p) => p.presence == Presence::Constant,
            Kind::Enum { constant, .. } => constant.is_some(),
            _ => false,
        }
    }

    /// True for an optional scalar or enum: its null value means the field holds no value.
    pub fn is_nullable(&self) -> bool {
        if self.is_constant() || self.presence != Presence::Optional {
            return false;
        }
        match &self.kind {
            Kind::Prim(p) => p.len == 1,
            Kind::Enum { optional, .. } => *optional,
            _ => false,
        }
    }

    /// True for a char array (more than one `char`): text, with accessors for its raw bytes.
    pub fn is_char_array(&self) -> bool {
        matches!(&self.kind, Kind::Prim(p) if p.ty == PrimitiveType::Char && p.len != 1)
    }

    /// True when a decoder may find the field without a value: it is newer than version 0
    /// (absent at older acting versions), or [`Field::is_nullable`].
    pub fn may_be_absent(&self) -> bool {
        !self.is_constant() && (self.since > 0 || self.is_nullable())
    }

    /// The value an owned value that holds a value for the field may not hold: an optional
    /// scalar's null value, which a decoder reads back as no value (validation refuses it as
    /// out of range, beside [`Field::range`]). `None` for every other field.
    pub fn null_when_held(&self) -> Option<&PrimitiveValue> {
        match &self.kind {
            Kind::Prim(p) if self.is_nullable() => Some(&p.null),
            _ => None,
        }
    }
}

/// A message body or a group entry: a block of fields, then its sections in wire order.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Schema names from the message down to this body (`["Car", "fuelFigures"]`); render
    /// type names with [`Plan::type_name`].
    pub path: Vec<String>,
    /// Schema name of the message or group.
    pub name: String,
    /// Schema description.
    pub description: Option<String>,
    /// The block length this schema version writes.
    pub block_length: usize,
    /// Extent of the fields every version has: the shortest block a decoder accepts.
    pub min_block: usize,
    /// `(version, bytes)`: the block bytes the fields of versions up to `version` occupy, as
    /// the layout computes them (a block shorter than that at its acting version is
    /// malformed).
    pub required: RequiredLengths,
    /// The fields (accessors) of the block.
    pub fields: Vec<Field>,
    /// Groups, then var data, in wire order: the order a decoder walks and an encoder writes.
    pub sections: Vec<Section>,
}

impl Body {
    /// The groups, in wire order, each with its index in `sections` and its entry body.
    pub fn groups(&self) -> impl Iterator<Item = (usize, &Section, &Body)> {
        self.sections
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                Section::Group { body, .. } => Some((i, s, body.as_ref())),
                Section::Var { .. } => None,
            })
    }

    /// The var-data sections, in wire order, each with its index in `sections`.
    pub fn vars(&self) -> impl Iterator<Item = (usize, &Section)> {
        self.sections
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Section::Var { .. }))
    }
}

impl Body {
    /// True if any field on the wire is newer than version 0 (then decoders keep the whole
    /// block the writer sent).
    pub fn has_versioned_fields(&self) -> bool {
        self.fields.iter().any(|f| f.since > 0 && !f.is_constant())
    }

    /// True if entries have a fixed size (no nested groups or var data).
    pub fn is_fixed(&self) -> bool {
        self.sections.is_empty()
    }

    /// True if, as a group's entry, this body may come as an empty block: no field exists at
    /// version 0, so a block length of 0 with entries is valid, and such entries (taking no
    /// bytes) are charged to the message's empty-entry budget instead of being bounded by the
    /// input's size.
    pub fn entries_may_be_empty(&self) -> bool {
        self.min_block == 0
    }

    /// The bytes that follow the block in every message: the dimension or length prefix of
    /// the first section when it exists at every version (`None` when the body has no
    /// section, or its first is newer than version 0). A decoder may check them with the
    /// block, in one comparison.
    pub fn leading_prefix(&self) -> Option<usize> {
        match self.sections.first()? {
            s if s.since() > 0 => None,
            Section::Group { dim_size, .. } => Some(*dim_size),
            Section::Var { len, .. } => Some(len.ty.size()),
        }
    }

    /// True if some group under this body, at any depth, has entries that may be empty blocks
    /// ([`Body::entries_may_be_empty`]): only then does a decoder keep the message's
    /// empty-entry budget (any other entry with a block length of 0 is refused first).
    pub fn draws_on_budget(&self) -> bool {
        self.groups()
            .any(|(_, _, g)| g.entries_may_be_empty() || g.draws_on_budget())
    }

    /// The encoder's order of this body's sections: wire order, after the block. An encoder
    /// writes a section only while no later one was written, and writes the sections it
    /// skips on the way empty; each step says what that empty form is.
    pub fn encode_order(&self) -> Vec<OrderStep<'_>> {
        let mut groups = 0..;
        self.sections
            .iter()
            .enumerate()
            .map(|(index, section)| OrderStep {
                index,
                section,
                empty: match section.as_group() {
                    Some(group) => Empty::Group {
                        child: groups.next().unwrap_or_default(),
                        group,
                    },
                    None => Empty::Var {
                        prefix: section.data_offset(),
                        len: match section {
                            Section::Var { len, .. } => len,
                            Section::Group { count, .. } => count,
                        },
                    },
                },
            })
            .collect()
    }
}

/// One section in an encoder's order ([`Body::encode_order`]).
#[derive(Debug, Clone, Copy)]
pub struct OrderStep<'p> {
    /// The section's index in the body's sections.
    pub index: usize,
    /// The section (written empty only at acting versions from its `sinceVersion` on).
    pub section: &'p Section,
    /// What is written for it when it is skipped.
    pub empty: Empty<'p>,
}

/// A skipped section's empty form ([`OrderStep::empty`]).
#[derive(Debug, Clone, Copy)]
pub enum Empty<'p> {
    /// A group of no entries: its dimension header.
    Group {
        /// The entry body's index among the body's groups (`BodyNames::children`).
        child: usize,
        /// The group.
        group: Group<'p>,
    },
    /// Var data of no bytes: its length prefix, `prefix` bytes, with 0 in slot `len`.
    Var {
        /// The prefix's size.
        prefix: usize,
        /// The length slot.
        len: &'p Slot,
    },
}

/// An unsigned integer slot of a dimension or length composite (a group's block length or
/// count, a var-data length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Primitive type.
    pub ty: PrimitiveType,
    /// Offset inside the composite.
    pub offset: usize,
    /// Byte order of the schema.
    pub order: ByteOrder,
    /// Largest value allowed (`maxValue`, or the type's largest non-null value).
    pub max: u64,
    /// For a constant member (a constant header field): its value, which is then not read
    /// from the wire.
    pub constant: Option<u64>,
}

impl Slot {
    /// Width in bytes.
    pub fn width(&self) -> usize {
        self.ty.size()
    }

    /// `self` and `next` written by one store (see [`one_store`]): the slot that spans both
    /// and the left shifts (in bits) of `self`'s and `next`'s values within it.
    pub fn joined(&self, next: &Slot) -> Option<(Slot, u32, u32)> {
        if self.order != next.order || self.constant.is_some() || next.constant.is_some() {
            return None;
        }
        let parts = [(self.offset, self.width()), (next.offset, next.width())];
        let (ty, shifts) = one_store(&parts, self.order)?;
        let slot = Slot {
            ty,
            offset: self.offset,
            order: self.order,
            max: if ty.size() == 8 {
                u64::MAX
            } else {
                (1 << (8 * ty.size())) - 1
            },
            constant: None,
        };
        Some((slot, shifts[0], shifts[1]))
    }
}

/// Adjacent unsigned parts (offset, width in bytes), in order with no gap between them,
/// written by one store when their widths add up to 2, 4 or 8 bytes: the unsigned type of
/// that store and each part's left shift (in bits) within its value, by the byte order.
/// Where the values are known together (a header, a group's dimension) one store costs less
/// than several, most of all under a JIT's inlining budget.
pub fn one_store(parts: &[(usize, usize)], order: ByteOrder) -> Option<(PrimitiveType, Vec<u32>)> {
    let width: usize = parts.iter().map(|p| p.1).sum();
    let ty = match width {
        2 => PrimitiveType::Uint16,
        4 => PrimitiveType::Uint32,
        8 => PrimitiveType::Uint64,
        _ => return None,
    };
    if parts.len() < 2 || parts.windows(2).any(|w| w[1].0 != w[0].0 + w[0].1) {
        return None;
    }
    let start = parts[0].0;
    let shifts = parts
        .iter()
        .map(|&(offset, w)| {
            let below = match order {
                ByteOrder::LittleEndian => offset - start,
                ByteOrder::BigEndian => start + width - (offset + w),
            };
            8 * below as u32
        })
        .collect();
    Some((ty, shifts))
}

/// A repeating group or a var-data field.
#[derive(Debug, Clone, PartialEq)]
pub enum Section {
    /// A repeating group.
    Group {
        /// Schema name.
        name: String,
        /// Schema description.
        description: Option<String>,
        /// `sinceVersion`.
        since: u32,
        /// Size of the dimension composite.
        dim_size: usize,
        /// The entries' block length slot.
        block_len: Slot,
        /// The entry count slot.
        count: Slot,
        /// The entry's body.
        body: Box<Body>,
    },
    /// A var-data field.
    Var {
        /// Schema name.
        name: String,
        /// Schema description.
        description: Option<String>,
        /// `sinceVersion`.
        since: u32,
        /// The length prefix.
        len: Slot,
        /// True for text (a character encoding, or `char` data).
        text: bool,
        /// Where the data starts, from the start of the length prefix (the var-data composite's
        /// data offset, as laid out).
        data_offset: usize,
        /// `characterEncoding`, if the schema gives one (`None`: raw bytes).
        char_encoding: Option<String>,
    },
}

impl Section {
    /// Schema name.
    pub fn name(&self) -> &str {
        match self {
            Section::Group { name, .. } | Section::Var { name, .. } => name,
        }
    }

    /// `sinceVersion`.
    pub fn since(&self) -> u32 {
        match self {
            Section::Group { since, .. } | Section::Var { since, .. } => *since,
        }
    }

    /// Schema description.
    pub fn description(&self) -> Option<&String> {
        match self {
            Section::Group { description, .. } | Section::Var { description, .. } => {
                description.as_ref()
            }
        }
    }

    /// Where the section's data starts, from its start: after a group's dimensions or a
    /// var-data length prefix.
    pub fn data_offset(&self) -> usize {
        match self {
            Section::Group { dim_size, .. } => *dim_size,
            Section::Var { data_offset, .. } => *data_offset,
        }
    }

    /// The group's parts, if the section is a group.
    pub fn as_group(&self) -> Option<Group<'_>> {
        match self {
            Section::Group {
                dim_size,
                block_len,
                count,
                body,
                ..
            } => Some(Group {
                section: self,
                dim_size: *dim_size,
                block_len,
                count,
                body,
            }),
            Section::Var { .. } => None,
        }
    }
}

/// A repeating group's parts ([`Section::as_group`]).
#[derive(Debug, Clone, Copy)]
pub struct Group<'p> {
    /// The section (for its name, `sinceVersion` and description).
    pub section: &'p Section,
    /// Size of the dimension composite.
    pub dim_size: usize,
    /// The entries' block length slot.
    pub block_len: &'p Slot,
    /// The entry count slot.
    pub count: &'p Slot,
    /// The entry's body.
    pub body: &'p Body,
}

/// An enum type.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// Schema description.
    pub description: Option<String>,
    /// Encoding primitive.
    pub ty: PrimitiveType,
    /// Byte order of the schema.
    pub order: ByteOrder,
    /// The null value.
    pub null: PrimitiveValue,
    /// `(name, value, description)` in schema order.
    pub values: Vec<(String, PrimitiveValue, Option<String>)>,
}

impl EnumDef {
    /// The index in [`EnumDef::values`] of a constant field's value (`Kind::Enum`'s
    /// `constant`). The plan only names listed values, so the name is always found; were it
    /// not, every generator renders the enum's first value (index 0), as this says.
    pub fn constant_index(&self, name: &str) -> usize {
        self.values.iter().position(|v| v.0 == name).unwrap_or(0)
    }
}

/// What a constant field holds, decided once for every generator ([`Plan::constant`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Constant<'p> {
    /// Text (a char array, or a `char` given as a string): its bytes up to the first NUL.
    Text(Vec<u8>),
    /// A number of primitive type `ty` (a single `char` as its code).
    Number(PrimitiveValue, PrimitiveType),
    /// A value of the enum named `ty`: its index in [`EnumDef::values`].
    Enum {
        /// The enum's schema name.
        ty: &'p str,
        /// The value's index ([`EnumDef::constant_index`]).
        index: usize,
    },
}

/// A bit set type.
#[derive(Debug, Clone, PartialEq)]
pub struct SetDef {
    /// Schema description.
    pub description: Option<String>,
    /// Encoding primitive.
    pub ty: PrimitiveType,
    /// Byte order of the schema.
    pub order: ByteOrder,
    /// `(name, bit, description)` in schema order.
    pub choices: Vec<(String, u32, Option<String>)>,
}

/// A composite type.
#[derive(Debug, Clone, PartialEq)]
pub struct CompositeDef {
    /// Schema description.
    pub description: Option<String>,
    /// Encoded size in bytes.
    pub size: usize,
    /// Members, as fields at offsets inside the composite.
    pub members: Vec<Field>,
}

/// The message header's standard fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Size in bytes.
    pub size: usize,
    /// Schema name of the header composite.
    pub type_name: String,
    /// `blockLength`.
    pub block_length: Field,
    /// `templateId`.
    pub template_id: Field,
    /// `schemaId`.
    pub schema_id: Field,
    /// `version`.
    pub version: Field,
    /// The four standard fields as slots, as a header reader reads them.
    pub slots: HeaderSlots,
}

/// The message header's standard fields as integer slots (offsets inside the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderSlots {
    /// `blockLength`.
    pub block_length: Slot,
    /// `templateId`.
    pub template_id: Slot,
    /// `schemaId`.
    pub schema_id: Slot,
    /// `version`.
    pub version: Slot,
}

/// One message: its body and the checks a decoder makes up front.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Template id.
    pub id: u32,
    /// `sinceVersion` of the message.
    pub since_version: u32,
    /// The message's body.
    pub body: Body,
    /// The validation steps, in wire order; after them, accessors cannot fail.
    pub checks: Vec<Check>,
}

/// The codec plan of one schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Schema `package`.
    pub package: String,
    /// Schema `id`.
    pub id: u32,
    /// Schema `version`.
    pub version: u32,
    /// Schema `semanticVersion`.
    pub semantic_version: Option<String>,
    /// Byte order of every multi-byte value.
    pub byte_order: ByteOrder,
    /// The message header.
    pub header: Header,
    /// Enums fields use, by schema name.
    pub enums: BTreeMap<String, EnumDef>,
    /// Sets fields use, by schema name.
    pub sets: BTreeMap<String, SetDef>,
    /// Composites fields (and the header) use, by schema name; group dimension and var-data
    /// composites are described by [`Slot`]s instead.
    pub composites: BTreeMap<String, CompositeDef>,
    /// The messages, in the layout's (template id) order.
    pub messages: Vec<Message>,
}

impl Plan {
    /// The value of a constant field (`None` for a field on the wire). A constant without a
    /// value holds its type's null value.
    pub fn constant<'p>(&'p self, f: &'p Field) -> Option<Constant<'p>> {
        match &f.kind {
            Kind::Prim(p) if f.is_constant() => {
                let v = p.constant.clone().unwrap_or(p.null.clone());
                Some(match v {
                    PrimitiveValue::Bytes(b) if p.ty == PrimitiveType::Char => {
                        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                        Constant::Text(b[..end].to_vec())
                    }
                    v if p.ty == PrimitiveType::Char && p.len != 1 => {
                        Constant::Text(vec![sbekit_ir::layout::wire_bits(&v, p.ty) as u8])
                    }
                    v => Constant::Number(v, p.ty),
                })
            }
            Kind::Enum {
                ty,
                constant: Some(c),
                ..
            } => Some(Constant::Enum {
                ty,
                index: self.enums.get(ty).map_or(0, |e| e.constant_index(c)),
            }),
            _ => None,
        }
    }

    /// The composites with every composite member before the composite that holds it: the
    /// order languages that declare before use (C++) emit them in.
    pub fn composites_members_first(&self) -> Vec<(&str, &CompositeDef)> {
        fn visit<'p>(
            plan: &'p Plan,
            k: &'p str,
            done: &mut std::collections::BTreeSet<&'p str>,
            out: &mut Vec<(&'p str, &'p CompositeDef)>,
        ) {
            let Some((k, c)) = plan.composites.get_key_value(k) else {
                return;
            };
            if !done.insert(k.as_str()) {
                return;
            }
            for m in &c.members {
                if let Kind::Composite { ty } = &m.kind {
                    visit(plan, ty, done, out);
                }
            }
            out.push((k.as_str(), c));
        }
        let mut done = std::collections::BTreeSet::new();
        let mut out = Vec::with_capacity(self.composites.len());
        for k in self.composites.keys() {
            visit(self, k, &mut done, &mut out);
        }
        out
    }

    /// The newest `sinceVersion` of the fields (of messages, groups and composites) whose type
    /// is composite `composite`. A member of the composite is absent at an acting version older
    /// than its own `sinceVersion` only when that is newer than this (as `sbekit decode` reads
    /// it); otherwise the member is as old as the field holding it.
    pub fn composite_holder_since(&self, composite: &str) -> u32 {
        fn body(b: &Body, k: &str, max: &mut u32) {
            for f in &b.fields {
                if matches!(&f.kind, Kind::Composite { ty } if ty == k) {
                    *max = (*max).max(f.since);
                }
            }
            for s in &b.sections {
                if let Section::Group { body: gb, .. } = s {
                    body(gb, k, max);
                }
            }
        }
        let mut max = 0;
        for m in &self.messages {
            body(&m.body, composite, &mut max);
        }
        for c in self.composites.values() {
            for f in &c.members {
                if matches!(&f.kind, Kind::Composite { ty } if ty == composite) {
                    max = max.max(f.since);
                }
            }
        }
        max
    }

    /// The members of composite `composite` as accessors render them: each member is gated by
    /// its own `sinceVersion` only when that is newer than every field holding the composite
    /// ([`Plan::composite_holder_since`]), and otherwise has `since` 0 (as `sbekit decode` reads
    /// it). Empty for an unknown composite.
    pub fn gated_members(&self, composite: &str) -> Vec<Field> {
        let Some(c) = self.composites.get(composite) else {
            return Vec::new();
        };
        let holders = self.composite_holder_since(composite);
        c.members
            .iter()
            .map(|m| Field {
                since: if m.since > holders { m.since } else { 0 },
                ..m.clone()
            })
            .collect()
    }

    /// The plan of a schema's layout.
    pub fn new(layout: &sbekit_ir::layout::Layout) -> Result<Plan, PlanError> {
        build::plan(layout)
    }

    /// The plan of a schema's IR (through its layout).
    pub fn from_ir(ir: &sbekit_ir::Ir) -> Result<Plan, PlanError> {
        Plan::new(&sbekit_ir::layout::Layout::from_ir(ir)?)
    }

    /// The type name of a message or group entry body in `lang` (`Car`, `CarFuelFigures`):
    /// the message's type name, then each group's, in the language's type case. A message
    /// whose type name is a composite's gets the suffix `Message` (types share one namespace).
    pub fn type_name(&self, lang: Language, path: &[String]) -> String {
        let Some((first, rest)) = path.split_first() else {
            return String::new();
        };
        let case = lang.case(NameKind::Type);
        let top = |n: &str| match lang {
            Language::Rust => names::rust::type_name(n),
            _ => case.apply(n),
        };
        let sep = match case {
            Case::Snake | Case::ScreamingSnake => "_",
            _ => "",
        };
        let mut out = top(first);
        if self.composites.keys().any(|c| top(c) == out) {
            out.push_str(sep);
            out.push_str(&case.apply("Message"));
        }
        for p in rest {
            out.push_str(sep);
            out.push_str(&case.apply(p));
        }
        out
    }
}
