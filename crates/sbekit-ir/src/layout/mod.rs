//! The layout model: a schema's messages as a typed tree, built once from the flat tokens and
//! checked once.
//!
//! Every consumer of a schema (the Rust and TypeScript generators, the on-the-fly decoder and
//! encoder, `inspect`, the Arrow bridge, the compatibility checker) reads this model instead of
//! walking tokens. Offsets, sizes, presence, null values, constants and the block length each
//! acting version requires are worked out here, in one place, so that consumers cannot disagree.
//!
//! The model's types are here; [`Layout::from_ir`], which builds it from tokens, is in `build.rs`.
//!
//! [`Layout::from_ir`] rejects malformed IR (a hostile `.sbeir`) with an [`IrError`]: component
//! counts that overrun, fields outside their block, array sizes that are not a whole number of
//! elements, set bits beyond the encoding's width, nesting deeper than [`MAX_NESTING`], a type
//! name defined with two different shapes. It never panics and never fills in a silent default.
//!
//! Enum, set and composite definitions are shared tables ([`Layout::enums`], [`Layout::sets`],
//! [`Layout::composites`]), referred to by index from fields. A composite used as a field also
//! carries its members inline ([`FieldKind::Composite::members`]), because a member's effective
//! `sinceVersion` depends on the field that holds it.

use crate::wire::RequiredLengths;
use crate::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use serde::Serialize;

mod build;

/// How deep groups and composites may nest before the IR is refused as hostile.
pub const MAX_NESTING: usize = 32;

/// A whole schema as a typed layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// Schema `package`.
    pub package: String,
    /// Namespace name, if the IR has one.
    pub namespace: Option<String>,
    /// Schema `id`.
    pub id: u32,
    /// Schema `version`.
    pub version: u32,
    /// Schema `semanticVersion`.
    pub semantic_version: Option<String>,
    /// Byte order of every multi-byte primitive.
    pub byte_order: ByteOrder,
    /// The message header.
    pub header: Header,
    /// Enum definitions, by first use.
    pub enums: Vec<EnumDef>,
    /// Set definitions, by first use.
    pub sets: Vec<SetDef>,
    /// Composite definitions, by first use (the header's composite among them).
    pub composites: Vec<CompositeDef>,
    /// The messages, in IR order.
    pub messages: Vec<Message>,
}

/// Index of an enum in [`Layout::enums`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct EnumId(pub usize);

/// Index of a set in [`Layout::sets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct SetId(pub usize);

/// Index of a composite in [`Layout::composites`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct CompositeId(pub usize);

/// An integer in a fixed place: a header field, a group dimension member, a var-data length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IntSlot {
    /// Offset from the start of the enclosing composite.
    pub offset: usize,
    /// An integer primitive type.
    pub ty: PrimitiveType,
    /// The largest value the schema allows (its `maxValue`, capped at the type's own maximum).
    pub max: u64,
    /// For a constant header member: its value, which is then not on the wire.
    pub constant: Option<u64>,
}

impl IntSlot {
    /// The byte just past this slot.
    pub fn end(&self) -> usize {
        self.offset + self.ty.size()
    }
}

/// The message header composite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    /// The header's composite definition (all its members, the four standard ones included).
    pub composite: CompositeId,
    /// Size of the header in bytes.
    pub size: usize,
    /// The root block's length.
    pub block_length: IntSlot,
    /// The message's template id.
    pub template_id: IntSlot,
    /// The schema id.
    pub schema_id: IntSlot,
    /// The writer's schema version (the acting version).
    pub version: IntSlot,
}

/// One message template.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    /// Message name.
    pub name: String,
    /// Template id.
    pub id: u32,
    /// Description from the schema.
    pub description: Option<String>,
    /// FIX semantic type (`D`, `8`, ...).
    pub semantic_type: Option<String>,
    /// `sinceVersion` of the message.
    pub since_version: u32,
    /// Version the message was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// The root block, its groups and var data.
    pub block: Block,
}

/// A message body or one group entry: fixed fields, then groups, then var data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// The block length this schema writes (at least the extent of its fields).
    pub block_length: usize,
    /// Fields of the fixed block, in schema order.
    pub fields: Vec<Field>,
    /// Repeating groups, in order.
    pub groups: Vec<Group>,
    /// Variable-length data, in order.
    pub var_data: Vec<VarData>,
    /// For each distinct field `sinceVersion` v, ascending: the block bytes that the fields of
    /// versions up to v occupy. A block shorter than this at acting version v is malformed.
    pub required: RequiredLengths,
}

impl Block {
    /// The block bytes that the fields present at `acting_version` occupy.
    pub fn required_length(&self, acting_version: u32) -> usize {
        self.required.at(u64::from(acting_version))
    }

    /// The block bytes that every version's fields occupy (the shortest acceptable block).
    pub fn min_length(&self) -> usize {
        self.required_length(0)
    }

    /// True when entries have a fixed size: no groups and no var data.
    pub fn is_fixed(&self) -> bool {
        self.groups.is_empty() && self.var_data.is_empty()
    }

    /// True when any field on the wire is newer than version 0.
    pub fn has_versioned_fields(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.since_version > 0 && !f.is_constant())
    }
}

/// A field of a block, or a member of a composite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    /// Field (or member) name.
    pub name: String,
    /// Field id; -1 for composite members.
    pub id: i32,
    /// Description from the schema (the field's, else its type's).
    pub description: Option<String>,
    /// Offset from the start of the enclosing block or composite.
    pub offset: usize,
    /// Bytes on the wire; 0 for constants.
    pub size: usize,
    /// Effective `sinceVersion`: a member is never older than the field that holds it.
    pub since_version: u32,
    /// Version the field was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// Required, optional or constant.
    pub presence: Presence,
    /// The name of the field's type as the schema gives it (`ModelYear`, `uint8`, `Engine`).
    pub type_name: String,
    /// FIX semantic type (`Price`, `UTCTimestamp`, ...).
    pub semantic_type: Option<String>,
    /// What the field holds.
    pub kind: FieldKind,
}

impl Field {
    /// True for a constant: no bytes on the wire, the value comes from the schema.
    pub fn is_constant(&self) -> bool {
        self.presence == Presence::Constant
    }

    /// True when the field may carry its null value.
    pub fn is_optional(&self) -> bool {
        self.presence == Presence::Optional
    }

    /// The byte just past the field in its block or composite.
    pub fn end(&self) -> usize {
        self.offset + self.size
    }
}

/// What a [`Field`] holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum FieldKind {
    /// A primitive scalar or fixed array.
    Primitive(Primitive),
    /// An enum value.
    Enum {
        /// The enum's definition.
        def: EnumId,
        /// For a constant field: the index of the valid value it names (`valueRef`).
        constant: Option<usize>,
    },
    /// A bit set.
    Set {
        /// The set's definition.
        def: SetId,
    },
    /// A composite.
    Composite {
        /// The composite's definition.
        def: CompositeId,
        /// This use's members, with versions and offsets relative to the composite.
        members: Vec<Field>,
    },
}

/// A primitive scalar or fixed-length array.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Primitive {
    /// Element type.
    pub ty: PrimitiveType,
    /// Number of elements (1 for a scalar).
    pub length: usize,
    /// The null value in force (the schema's or the type's default).
    pub null_value: PrimitiveValue,
    /// The minimum value in force.
    pub min_value: PrimitiveValue,
    /// The maximum value in force.
    pub max_value: PrimitiveValue,
    /// A constant's value (constants only): a number, a character, or a character array.
    pub constant: Option<PrimitiveValue>,
    /// Character encoding of char data (`US-ASCII`, `UTF-8`, ...).
    pub character_encoding: Option<String>,
    /// Epoch of a timestamp (`unix`).
    pub epoch: Option<String>,
    /// Time unit of a timestamp (`nanosecond`).
    pub time_unit: Option<String>,
}

impl Primitive {
    /// True for a `char` array longer than one character (a string).
    pub fn is_char_array(&self) -> bool {
        self.ty == PrimitiveType::Char && self.length != 1
    }
}

/// An enum type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnumDef {
    /// Type name.
    pub name: String,
    /// Description from the schema.
    pub description: Option<String>,
    /// Encoding type (`uint8`, `char`, ...).
    pub encoding: PrimitiveType,
    /// The null value of the encoding (for optional enum fields).
    pub null_value: PrimitiveValue,
    /// Valid values in schema order.
    pub values: Vec<EnumValue>,
}

impl EnumDef {
    /// The null value's wire bits (see [`EnumValue::bits`]).
    pub fn null_bits(&self) -> u64 {
        wire_bits(&self.null_value, self.encoding)
    }

    /// The valid value whose wire bits are `bits`.
    pub fn value_by_bits(&self, bits: u64) -> Option<(usize, &EnumValue)> {
        self.values.iter().enumerate().find(|(_, v)| v.bits == bits)
    }

    /// The valid value called `name`.
    pub fn value_by_name(&self, name: &str) -> Option<(usize, &EnumValue)> {
        self.values.iter().enumerate().find(|(_, v)| v.name == name)
    }

    /// The index of a valid value that the schema lists with the null value's encoding (the
    /// SBE 1.0 optional-boolean idiom, `<validValue name="NullValue">255</validValue>`).
    /// Decoders report such a value as null.
    pub fn null_listed_as_value(&self) -> Option<usize> {
        let null = self.null_bits();
        self.values.iter().position(|v| v.bits == null)
    }
}

/// One valid value of an enum.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnumValue {
    /// Value name.
    pub name: String,
    /// The value as the schema gives it.
    pub value: PrimitiveValue,
    /// The value's bits as an unsigned integer of the encoding's width (what a decoder reads).
    pub bits: u64,
    /// `sinceVersion` of the value.
    pub since_version: u32,
    /// Version the value was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// Description from the schema.
    pub description: Option<String>,
}

/// A bit set type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetDef {
    /// Type name.
    pub name: String,
    /// Description from the schema.
    pub description: Option<String>,
    /// Encoding type (an unsigned integer).
    pub encoding: PrimitiveType,
    /// Choices in schema order.
    pub choices: Vec<SetChoice>,
}

/// One choice of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetChoice {
    /// Choice name.
    pub name: String,
    /// Bit position, below the encoding's width.
    pub bit: u32,
    /// `sinceVersion` of the choice.
    pub since_version: u32,
    /// Version the choice was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// Description from the schema.
    pub description: Option<String>,
}

/// A composite type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompositeDef {
    /// Type name.
    pub name: String,
    /// Description from the schema.
    pub description: Option<String>,
    /// FIX semantic type.
    pub semantic_type: Option<String>,
    /// Encoded size in bytes.
    pub size: usize,
    /// Members as the type defines them (versions are the members' own).
    pub members: Vec<Field>,
}

/// A repeating group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Group name.
    pub name: String,
    /// Group id.
    pub id: i32,
    /// Description from the schema.
    pub description: Option<String>,
    /// `sinceVersion` of the group.
    pub since_version: u32,
    /// Version the group was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// The dimension composite in front of the entries.
    pub dimension: Dimension,
    /// One entry's fields, nested groups and var data.
    pub block: Block,
}

/// A group's dimension composite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Dimension {
    /// Type name (`groupSizeEncoding`).
    pub type_name: String,
    /// Size in bytes.
    pub size: usize,
    /// The entries' block length.
    pub block_length: IntSlot,
    /// The number of entries.
    pub num_in_group: IntSlot,
}

/// A variable-length data field: a length prefix, then that many bytes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VarData {
    /// Field name.
    pub name: String,
    /// Field id.
    pub id: i32,
    /// Description from the schema.
    pub description: Option<String>,
    /// `sinceVersion` of the field.
    pub since_version: u32,
    /// Version the field was deprecated in; 0 if it is not.
    pub deprecated: u32,
    /// Type name of the length/data composite (`varStringEncoding`).
    pub type_name: String,
    /// The length prefix, at offset 0.
    pub length: IntSlot,
    /// Offset of the data from the start of the prefix (the prefix's size).
    pub data_offset: usize,
    /// Element type of the data (`uint8` or `char`).
    pub data_type: PrimitiveType,
    /// Character encoding of the data; `None` for raw bytes.
    pub character_encoding: Option<String>,
}

impl VarData {
    /// True when the data is text (it has a character encoding or is `char`).
    pub fn is_text(&self) -> bool {
        self.character_encoding.is_some() || self.data_type == PrimitiveType::Char
    }
}

impl Layout {
    /// The enum definition `id` refers to.
    pub fn enum_def(&self, id: EnumId) -> &EnumDef {
        &self.enums[id.0]
    }

    /// The set definition `id` refers to.
    pub fn set_def(&self, id: SetId) -> &SetDef {
        &self.sets[id.0]
    }

    /// The composite definition `id` refers to.
    pub fn composite_def(&self, id: CompositeId) -> &CompositeDef {
        &self.composites[id.0]
    }

    /// The header's composite definition.
    pub fn header_composite(&self) -> &CompositeDef {
        self.composite_def(self.header.composite)
    }

    /// The message with template id `id`.
    pub fn message(&self, id: u32) -> Option<&Message> {
        self.messages.iter().find(|m| m.id == id)
    }

    /// The message called `name`.
    pub fn message_by_name(&self, name: &str) -> Option<&Message> {
        self.messages.iter().find(|m| m.name == name)
    }
}

/// The wire bits of a schema value for type `ty`: an unsigned integer of the type's width.
pub fn wire_bits(v: &PrimitiveValue, ty: PrimitiveType) -> u64 {
    let bytes = v.to_le_bytes(ty);
    let mut buf = [0u8; 8];
    let n = bytes.len().min(8);
    buf[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(buf)
}
