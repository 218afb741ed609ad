//! The SBE intermediate representation (IR).
//!
//! The IR is a flat list of [`Token`]s per message, in the same model as the reference SBE tool:
//! every structural element (message, field, composite, enum, set, group, var data) is bracketed
//! by a `Begin*`/`End*` token pair, and primitive encodings appear as [`Signal::Encoding`] tokens.
//! Offsets and block lengths are fully resolved, so a consumer never needs the XML schema.
//!
//! Three consumers share this model: the Rust code generator, the on-the-fly (OTF) decoder and
//! the `.sbeir` interchange format ([`sbeir`]), which is byte-compatible with the reference tool.
//!
//! A `Begin*` token's [`Token::component_token_count`] is the number of tokens from it to its
//! matching `End*` token inclusive, which lets a walker skip a whole component in O(1).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod layout;
pub mod sbeir;
mod value;
mod view;
pub mod wire;

pub use value::PrimitiveValue;
pub use view::{split_components, Components, HeaderStructure};

use serde::Serialize;

/// What a token marks in the flattened token stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[repr(u8)]
pub enum Signal {
    /// Start of a message; `encoded_length` is the message's block length.
    BeginMessage = 1,
    /// End of a message.
    EndMessage = 2,
    /// Start of a composite type.
    BeginComposite = 3,
    /// End of a composite type.
    EndComposite = 4,
    /// Start of a field of a message or group block.
    BeginField = 5,
    /// End of a field.
    EndField = 6,
    /// Start of a repeating group; followed by its dimension composite.
    BeginGroup = 7,
    /// End of a repeating group.
    EndGroup = 8,
    /// Start of an enum type.
    BeginEnum = 9,
    /// One valid value of an enum; its `const_value` is the raw value.
    ValidValue = 10,
    /// End of an enum type.
    EndEnum = 11,
    /// Start of a bit set type.
    BeginSet = 12,
    /// One choice of a set; its `const_value` is the bit position.
    Choice = 13,
    /// End of a set.
    EndSet = 14,
    /// Start of a variable-length data field; followed by its length/data composite.
    BeginVarData = 15,
    /// End of a variable-length data field.
    EndVarData = 16,
    /// A primitive encoding (a field's type, or a member of a composite).
    Encoding = 17,
}

impl Signal {
    /// Decodes the reference tool's numeric code (`SignalCodec` in `sbe-ir.xml`).
    pub fn from_code(code: u8) -> Option<Self> {
        use Signal::*;
        Some(match code {
            1 => BeginMessage,
            2 => EndMessage,
            3 => BeginComposite,
            4 => EndComposite,
            5 => BeginField,
            6 => EndField,
            7 => BeginGroup,
            8 => EndGroup,
            9 => BeginEnum,
            10 => ValidValue,
            11 => EndEnum,
            12 => BeginSet,
            13 => Choice,
            14 => EndSet,
            15 => BeginVarData,
            16 => EndVarData,
            17 => Encoding,
            _ => return None,
        })
    }

    /// The signal that closes a component opened by `self`, if `self` opens one.
    pub fn matching_end(self) -> Option<Self> {
        use Signal::*;
        Some(match self {
            BeginMessage => EndMessage,
            BeginComposite => EndComposite,
            BeginField => EndField,
            BeginGroup => EndGroup,
            BeginEnum => EndEnum,
            BeginSet => EndSet,
            BeginVarData => EndVarData,
            _ => return None,
        })
    }
}

/// The primitive types of SBE, plus `None` for tokens that carry no primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[repr(u8)]
pub enum PrimitiveType {
    /// No primitive type (structural tokens).
    None = 0,
    /// A single-byte character.
    Char = 1,
    /// Signed 8-bit integer.
    Int8 = 2,
    /// Signed 16-bit integer.
    Int16 = 3,
    /// Signed 32-bit integer.
    Int32 = 4,
    /// Signed 64-bit integer.
    Int64 = 5,
    /// Unsigned 8-bit integer.
    Uint8 = 6,
    /// Unsigned 16-bit integer.
    Uint16 = 7,
    /// Unsigned 32-bit integer.
    Uint32 = 8,
    /// Unsigned 64-bit integer.
    Uint64 = 9,
    /// IEEE 754 single precision.
    Float = 10,
    /// IEEE 754 double precision.
    Double = 11,
}

impl PrimitiveType {
    /// All primitive types that can appear in a schema, in code order.
    pub const ALL: [PrimitiveType; 11] = [
        Self::Char,
        Self::Int8,
        Self::Int16,
        Self::Int32,
        Self::Int64,
        Self::Uint8,
        Self::Uint16,
        Self::Uint32,
        Self::Uint64,
        Self::Float,
        Self::Double,
    ];

    /// Decodes the reference tool's numeric code (`PrimitiveTypeCodec`).
    pub fn from_code(code: u8) -> Option<Self> {
        if code == 0 {
            return Some(Self::None);
        }
        Self::ALL.get(usize::from(code) - 1).copied()
    }

    /// Parses a schema's `primitiveType` attribute (`uint16`, `char`, ...).
    pub fn from_schema_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.schema_name() == name)
    }

    /// The name used in schemas (`uint16`).
    pub fn schema_name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Char => "char",
            Self::Int8 => "int8",
            Self::Int16 => "int16",
            Self::Int32 => "int32",
            Self::Int64 => "int64",
            Self::Uint8 => "uint8",
            Self::Uint16 => "uint16",
            Self::Uint32 => "uint32",
            Self::Uint64 => "uint64",
            Self::Float => "float",
            Self::Double => "double",
        }
    }

    /// Encoded size in bytes (0 for `None`).
    pub fn size(self) -> usize {
        match self {
            Self::None => 0,
            Self::Char | Self::Int8 | Self::Uint8 => 1,
            Self::Int16 | Self::Uint16 => 2,
            Self::Int32 | Self::Uint32 | Self::Float => 4,
            Self::Int64 | Self::Uint64 | Self::Double => 8,
        }
    }

    /// True for the signed integer types.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Self::Int8 | Self::Int16 | Self::Int32 | Self::Int64)
    }

    /// True for the unsigned integer types.
    pub fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            Self::Uint8 | Self::Uint16 | Self::Uint32 | Self::Uint64
        )
    }

    /// True for `float` and `double`.
    pub fn is_float(self) -> bool {
        matches!(self, Self::Float | Self::Double)
    }

    /// The SBE specification's default null value for optional fields of this type.
    pub fn default_null(self) -> PrimitiveValue {
        match self {
            Self::None => PrimitiveValue::Int(0),
            Self::Char => PrimitiveValue::Int(0),
            Self::Int8 => PrimitiveValue::Int(i8::MIN.into()),
            Self::Int16 => PrimitiveValue::Int(i16::MIN.into()),
            Self::Int32 => PrimitiveValue::Int(i32::MIN.into()),
            Self::Int64 => PrimitiveValue::Int(i64::MIN),
            Self::Uint8 => PrimitiveValue::UInt(u8::MAX.into()),
            Self::Uint16 => PrimitiveValue::UInt(u16::MAX.into()),
            Self::Uint32 => PrimitiveValue::UInt(u32::MAX.into()),
            Self::Uint64 => PrimitiveValue::UInt(u64::MAX),
            Self::Float | Self::Double => PrimitiveValue::Float(f64::NAN),
        }
    }

    /// The SBE specification's default minimum value of this type.
    pub fn default_min(self) -> PrimitiveValue {
        match self {
            Self::None => PrimitiveValue::Int(0),
            Self::Char => PrimitiveValue::Int(0x20),
            Self::Int8 => PrimitiveValue::Int(i64::from(i8::MIN) + 1),
            Self::Int16 => PrimitiveValue::Int(i64::from(i16::MIN) + 1),
            Self::Int32 => PrimitiveValue::Int(i64::from(i32::MIN) + 1),
            Self::Int64 => PrimitiveValue::Int(i64::MIN + 1),
            Self::Uint8 | Self::Uint16 | Self::Uint32 | Self::Uint64 => PrimitiveValue::UInt(0),
            Self::Float => PrimitiveValue::Float(-f64::from(f32::MAX)),
            Self::Double => PrimitiveValue::Float(-f64::MAX),
        }
    }

    /// The SBE specification's default maximum value of this type.
    pub fn default_max(self) -> PrimitiveValue {
        match self {
            Self::None => PrimitiveValue::Int(0),
            Self::Char => PrimitiveValue::Int(0x7e),
            Self::Int8 => PrimitiveValue::Int(i8::MAX.into()),
            Self::Int16 => PrimitiveValue::Int(i16::MAX.into()),
            Self::Int32 => PrimitiveValue::Int(i32::MAX.into()),
            Self::Int64 => PrimitiveValue::Int(i64::MAX),
            Self::Uint8 => PrimitiveValue::UInt(u64::from(u8::MAX) - 1),
            Self::Uint16 => PrimitiveValue::UInt(u64::from(u16::MAX) - 1),
            Self::Uint32 => PrimitiveValue::UInt(u64::from(u32::MAX) - 1),
            Self::Uint64 => PrimitiveValue::UInt(u64::MAX - 1),
            Self::Float => PrimitiveValue::Float(f64::from(f32::MAX)),
            Self::Double => PrimitiveValue::Float(f64::MAX),
        }
    }
}

/// Byte order of multi-byte primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub enum ByteOrder {
    /// Little endian (SBE's default).
    #[default]
    LittleEndian = 0,
    /// Big endian.
    BigEndian = 1,
}

/// Whether a field must carry a value, may carry a null, or is a constant not on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub enum Presence {
    /// Always carries a value.
    #[default]
    Required = 0,
    /// May carry the null value.
    Optional = 1,
    /// Not encoded on the wire; the value comes from the schema.
    Constant = 2,
}

/// How a token's value is encoded on the wire.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Encoding {
    /// Required, optional or constant.
    pub presence: Presence,
    /// The primitive type, or `None` for structural tokens.
    pub primitive_type: Option<PrimitiveType>,
    /// Byte order of the schema.
    pub byte_order: ByteOrder,
    /// Explicit minimum value from the schema, if any.
    pub min_value: Option<PrimitiveValue>,
    /// Explicit maximum value from the schema, if any.
    pub max_value: Option<PrimitiveValue>,
    /// Explicit null value from the schema, if any (see [`Encoding::applicable_null_value`]).
    pub null_value: Option<PrimitiveValue>,
    /// Constant value: of a constant type, an enum's valid value, a set choice's bit, or a field's `valueRef`.
    pub const_value: Option<PrimitiveValue>,
    /// Character encoding of char data (`US-ASCII`, `UTF-8`, ...).
    pub character_encoding: Option<String>,
    /// Epoch of a timestamp (`unix`).
    pub epoch: Option<String>,
    /// Time unit of a timestamp (`nanosecond`).
    pub time_unit: Option<String>,
    /// FIX semantic type (`UTCTimestamp`, `Price`, ...).
    pub semantic_type: Option<String>,
}

impl Encoding {
    /// The primitive type, treating absence as [`PrimitiveType::None`].
    pub fn primitive(&self) -> PrimitiveType {
        self.primitive_type.unwrap_or(PrimitiveType::None)
    }

    /// The null value in force: the schema's explicit one or the type's default.
    pub fn applicable_null_value(&self) -> PrimitiveValue {
        self.null_value
            .clone()
            .unwrap_or_else(|| self.primitive().default_null())
    }

    /// The minimum value in force: the schema's explicit one or the type's default.
    pub fn applicable_min_value(&self) -> PrimitiveValue {
        self.min_value
            .clone()
            .unwrap_or_else(|| self.primitive().default_min())
    }

    /// The maximum value in force: the schema's explicit one or the type's default.
    pub fn applicable_max_value(&self) -> PrimitiveValue {
        self.max_value
            .clone()
            .unwrap_or_else(|| self.primitive().default_max())
    }
}

/// One element of the flattened IR.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Token {
    /// What this token marks.
    pub signal: Signal,
    /// Name of the element (field name, type name, valid value name, ...).
    pub name: String,
    /// For a type used through a `<ref>` or under a field of another name, the type's own name.
    pub referenced_name: Option<String>,
    /// Description from the schema.
    pub description: Option<String>,
    /// Package of the element, if it differs from the schema's.
    pub package_name: Option<String>,
    /// Field or message id; -1 where none applies.
    pub id: i32,
    /// `sinceVersion` of the element.
    pub version: i32,
    /// Version in which the element was deprecated; 0 if not deprecated.
    pub deprecated: i32,
    /// Encoded size in bytes; -1 for variable length.
    pub encoded_length: i32,
    /// Offset within the enclosing block or composite; -1 where it is not fixed.
    pub offset: i32,
    /// Number of tokens from this one to its matching end token inclusive (1 for single tokens).
    pub component_token_count: i32,
    /// The encoding details.
    pub encoding: Encoding,
}

impl Token {
    /// A token with the given signal and name and neutral values elsewhere (id -1, count 1).
    pub fn new(signal: Signal, name: impl Into<String>) -> Self {
        Token {
            signal,
            name: name.into(),
            referenced_name: None,
            description: None,
            package_name: None,
            id: -1,
            version: 0,
            deprecated: 0,
            encoded_length: 0,
            offset: 0,
            component_token_count: 1,
            encoding: Encoding::default(),
        }
    }

    /// True if the element is encoded on the wire as a constant (takes no space).
    pub fn is_constant(&self) -> bool {
        self.encoding.presence == Presence::Constant
    }

    /// True if the element may be null on the wire.
    pub fn is_optional(&self) -> bool {
        self.encoding.presence == Presence::Optional
    }

    /// For an encoding token: the number of elements (1 for scalars, N for fixed arrays).
    pub fn array_length(&self) -> usize {
        let size = self.encoding.primitive().size();
        if size == 0 || self.encoded_length <= 0 {
            return 1;
        }
        usize::try_from(self.encoded_length).unwrap_or(0) / size
    }

    /// The name applicable to the type (referenced name if present, else name).
    pub fn type_name(&self) -> &str {
        self.referenced_name.as_deref().unwrap_or(&self.name)
    }
}

/// A whole schema in IR form: the message header composite and the messages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ir {
    /// Schema `package`.
    pub package_name: String,
    /// Namespace name (the reference tool leaves it empty unless a target namespace is set).
    pub namespace_name: Option<String>,
    /// Schema `id`.
    pub id: i32,
    /// Schema `version`.
    pub version: i32,
    /// Schema `semanticVersion`.
    pub semantic_version: Option<String>,
    /// Tokens of the message header composite (`BeginComposite` .. `EndComposite`).
    pub header: Vec<Token>,
    /// Tokens of each message (`BeginMessage` .. `EndMessage`), in schema order.
    pub messages: Vec<Vec<Token>>,
}

impl Ir {
    /// The schema's byte order, read from the header's first encoding.
    pub fn byte_order(&self) -> ByteOrder {
        self.header
            .iter()
            .find(|t| t.signal == Signal::Encoding)
            .map(|t| t.encoding.byte_order)
            .unwrap_or_default()
    }

    /// The message with template id `id`.
    pub fn message_by_id(&self, id: i32) -> Option<&[Token]> {
        self.messages
            .iter()
            .find(|m| m.first().is_some_and(|t| t.id == id))
            .map(Vec::as_slice)
    }

    /// The message called `name`.
    pub fn message_by_name(&self, name: &str) -> Option<&[Token]> {
        self.messages
            .iter()
            .find(|m| m.first().is_some_and(|t| t.name == name))
            .map(Vec::as_slice)
    }

    /// Offsets and types of the message header's four standard fields.
    pub fn header_structure(&self) -> Result<HeaderStructure, IrError> {
        HeaderStructure::from_tokens(&self.header)
    }
}

/// Errors found while reading or checking IR.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IrError {
    /// The buffer ended inside a record.
    #[error("IR truncated at byte {offset}: {what}")]
    Truncated {
        /// Byte offset where more data was expected.
        offset: usize,
        /// What was being read.
        what: &'static str,
    },
    /// A code in the data has no meaning.
    #[error("IR byte {offset}: invalid {what} code {code}")]
    InvalidCode {
        /// Byte offset of the record.
        offset: usize,
        /// Which enumeration.
        what: &'static str,
        /// The code found.
        code: u8,
    },
    /// The token structure is inconsistent.
    #[error("malformed IR: {0}")]
    Malformed(String),
}
