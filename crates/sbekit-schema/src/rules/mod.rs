//! The names of the rules that diagnostics cite, with what each checks.
//!
//! The checks themselves, the rules applied while the IR is generated, are in `checks.rs`;
//! the IR is emitted by `irgen.rs`.
//!
//! Rule names are stable: tools may match on them (`--json` output carries them).

/// The file could not be read.
pub const IO: &str = "io";
/// The XML is malformed, too deep, or not UTF-8.
pub const XML: &str = "xml";
/// An XInclude is malformed, missing, or cyclic.
pub const XINCLUDE: &str = "xinclude";
/// The root is not a `messageSchema`, or a schema-level attribute is missing or invalid.
pub const SCHEMA: &str = "schema";
/// A required attribute is missing.
pub const MISSING_ATTRIBUTE: &str = "missing-attribute";
/// An attribute value cannot be parsed or is not allowed.
pub const INVALID_ATTRIBUTE: &str = "invalid-attribute";
/// An element that SBE does not define where it appears.
pub const UNKNOWN_ELEMENT: &str = "unknown-element";
/// Two types share a name.
pub const DUPLICATE_TYPE: &str = "duplicate-type";
/// Two messages share a template id.
pub const DUPLICATE_MESSAGE_ID: &str = "duplicate-message-id";
/// Two messages share a name.
pub const DUPLICATE_MESSAGE_NAME: &str = "duplicate-message-name";
/// Two fields, groups or data of one block share a name.
pub const DUPLICATE_FIELD_NAME: &str = "duplicate-field-name";
/// Two fields, groups or data of one block share an id.
pub const DUPLICATE_FIELD_ID: &str = "duplicate-field-id";
/// A type name that no `<type>`, `<composite>`, `<enum>` or `<set>` defines.
pub const UNKNOWN_TYPE: &str = "unknown-type";
/// A constant with no value.
pub const CONSTANT_WITHOUT_VALUE: &str = "constant-without-value";
/// A `nullValue` on a type that is not optional.
pub const NULL_ON_REQUIRED: &str = "null-value-on-required";
/// A value (constant, limit, null, enum value, choice bit) that is not a valid value of its type.
pub const INVALID_VALUE: &str = "invalid-value";
/// An enum value outside the encoding's range or equal to its null value.
pub const ENUM_VALUE_RANGE: &str = "enum-value-range";
/// Two enum values or set choices share a name or a value.
pub const DUPLICATE_VALUE: &str = "duplicate-value";
/// `sinceVersion` above the schema version, or below the enclosing element's.
pub const SINCE_VERSION: &str = "since-version";
/// A field offset that overlaps the previous field.
pub const FIELD_OFFSET: &str = "field-offset";
/// A composite member offset that overlaps the previous member.
pub const COMPOSITE_OFFSET: &str = "composite-offset";
/// A declared `blockLength` smaller than the fields need.
pub const BLOCK_LENGTH: &str = "block-length";
/// A field after a group or data, or a group after data.
pub const FIELD_ORDER: &str = "field-order";
/// Composites that contain themselves through `<ref>`.
pub const CIRCULAR_REF: &str = "circular-ref";
/// The message header composite is missing or lacks/mistypes a standard member.
pub const MESSAGE_HEADER: &str = "message-header";
/// A group's dimension composite is missing or malformed.
pub const GROUP_DIMENSIONS: &str = "group-dimensions";
/// A var-data encoding composite is missing or malformed.
pub const VAR_DATA_ENCODING: &str = "var-data-encoding";
/// A group or data element inside a composite, or other misplaced structure.
pub const INVALID_COMPOSITE: &str = "invalid-composite";
/// A field's `semanticType` differs from its type's.
pub const SEMANTIC_TYPE: &str = "semantic-type";
/// A `valueRef` that does not name a valid value of an enum.
pub const VALUE_REF: &str = "value-ref";
/// A name that is not a valid identifier.
pub const INVALID_NAME: &str = "invalid-name";
/// A name that is a keyword in a target language (Rust, C++, Java, Go, C#).
pub const KEYWORD: &str = "keyword";
/// The document defines no messages.
pub const NO_MESSAGES: &str = "no-messages";

mod checks;
