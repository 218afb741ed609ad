//! The compatibility rules: a stable name, a one-line explanation, where in the specification
//! the rule comes from, and what the change does to each direction.
//!
//! Directions: *backward* is a reader of the new schema reading messages written with the old
//! one; *forward* is a reader of the old schema reading messages of the new one.

use serde::Serialize;

/// What a change does to one direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// Nothing a reader can observe.
    Ok,
    /// Readers still decode every shared element, but something deserves attention.
    Warn,
    /// Readers decode some shared element differently, or fail.
    Break,
}

/// Which tier a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Bytes on the wire.
    Wire,
    /// Generated code: names and types that keep the bytes.
    Api,
}

/// One rule of the checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable kebab-case name, printed in diagnostics (`error[field-moved]`).
    pub name: &'static str,
    /// Tier the rule belongs to (`api` rules report only with `--tier api`).
    pub tier: Tier,
    /// Effect on a new reader of old messages.
    pub backward: Effect,
    /// Effect on an old reader of new messages.
    pub forward: Effect,
    /// The section of the SBE specification the rule comes from.
    pub spec: &'static str,
    /// One-line explanation.
    pub summary: &'static str,
}

const EXT: &str = "SBE 1.0 §5 Schema extension mechanism";
const HDR: &str = "SBE 1.0 §3 Message structure: message header";
const GRP: &str = "SBE 1.0 §3 Message structure: repeating groups, var data; §5";
const ENC: &str = "SBE 1.0 §2 Field encoding: enumerations, multi-value choice; §5";
const FLD: &str = "SBE 1.0 §2 Field encoding: presence, null values; §5";
const META: &str = "SBE 1.0 §4 Message schema (metadata attributes)";

macro_rules! rule {
    ($id:ident, $name:literal, $tier:ident, $b:ident, $f:ident, $spec:expr, $sum:literal) => {
        #[doc = $sum]
        pub const $id: Rule = Rule {
            name: $name,
            tier: Tier::$tier,
            backward: Effect::$b,
            forward: Effect::$f,
            spec: $spec,
            summary: $sum,
        };
    };
}

// Compatible changes (notes).
rule!(
    FIELD_APPENDED,
    "field-appended",
    Wire,
    Ok,
    Ok,
    EXT,
    "a field added after the old block's fields, with a sinceVersion above the old schema version"
);
rule!(GROUP_APPENDED, "group-appended", Wire, Ok, Ok, EXT,
    "a group added after the existing groups of the message root, with nothing an old reader reads after it");
rule!(
    VAR_DATA_APPENDED,
    "var-data-appended",
    Wire,
    Ok,
    Ok,
    EXT,
    "var data added after the existing var data of the message root"
);
rule!(
    MESSAGE_ADDED,
    "message-added",
    Wire,
    Ok,
    Ok,
    EXT,
    "a new message template; old readers skip templates they do not know"
);
rule!(BLOCK_LENGTH_PADDED, "block-length-padded", Wire, Ok, Ok, EXT,
    "blockLength changed without cutting into the old fields (padding); readers use the header's blockLength");
rule!(
    COMPOSITE_MEMBER_APPENDED,
    "composite-member-appended",
    Wire,
    Ok,
    Ok,
    "SBE 2.0 RC composite extension; §5",
    "a versioned member added inside a composite's old size (in a gap between members)"
);
rule!(
    DESCRIPTION_CHANGED,
    "description-changed",
    Wire,
    Ok,
    Ok,
    META,
    "a description or semanticType changed; nothing on the wire"
);
rule!(
    CONSTANT_ADDED,
    "constant-added",
    Wire,
    Ok,
    Ok,
    FLD,
    "a constant field added; constants are not on the wire"
);

// Breaking changes on the wire.
rule!(
    FIELD_INSERTED,
    "field-inserted",
    Wire,
    Break,
    Break,
    EXT,
    "a new field occupies bytes an old field used: old and new readers read different values there"
);
rule!(
    FIELD_MOVED,
    "field-moved",
    Wire,
    Break,
    Break,
    EXT,
    "a field's offset changed"
);
rule!(
    FIELD_REMOVED,
    "field-removed",
    Wire,
    Ok,
    Break,
    EXT,
    "a field removed: old readers still read it, from bytes new writers no longer fill"
);
rule!(FIELD_TYPE_CHANGED, "field-type-changed", Wire, Break, Break, EXT,
    "a field's kind changed (primitive, enum, set, composite) in a way that changes its bytes or values");
rule!(
    FIELD_PRIMITIVE_CHANGED,
    "field-primitive-changed",
    Wire,
    Break,
    Break,
    EXT,
    "a field's primitive type changed (size, signedness or float)"
);
rule!(
    FIELD_LENGTH_CHANGED,
    "field-length-changed",
    Wire,
    Break,
    Break,
    EXT,
    "a field's array length or size changed"
);
rule!(PRESENCE_RELAXED, "presence-relaxed", Wire, Ok, Break, FLD,
    "required became optional: safe backward (old writers never send null), breaks forward (old readers take null for a value)");
rule!(PRESENCE_TIGHTENED, "presence-tightened", Wire, Break, Ok, FLD,
    "optional became required: safe forward (new writers never send null), breaks backward (new readers take old nulls for values)");
rule!(PRESENCE_CONSTANT_CHANGED, "presence-constant-changed", Wire, Break, Break, FLD,
    "a field became constant or stopped being constant: one side reads bytes the other does not write");
rule!(
    CONSTANT_CHANGED,
    "constant-changed",
    Wire,
    Break,
    Break,
    FLD,
    "a constant's value changed: the two sides report different values"
);
rule!(
    NULL_VALUE_CHANGED,
    "null-value-changed",
    Wire,
    Break,
    Break,
    FLD,
    "an optional field's null value changed: one side's null is the other's value"
);
rule!(
    GROUP_INSERTED,
    "group-inserted",
    Wire,
    Break,
    Break,
    GRP,
    "a group added before existing groups"
);
rule!(GROUP_APPENDED_UNSKIPPABLE, "group-appended-unskippable", Wire, Ok, Break, GRP,
    "a group appended inside a group entry or before var data: old readers cannot skip it and misread what follows");
rule!(
    GROUP_REORDERED,
    "group-reordered",
    Wire,
    Break,
    Break,
    GRP,
    "groups reordered"
);
rule!(
    GROUP_REMOVED,
    "group-removed",
    Wire,
    Break,
    Break,
    GRP,
    "a group removed (safe backward only when it was the last element of the message root)"
);
rule!(
    VAR_DATA_INSERTED,
    "var-data-inserted",
    Wire,
    Break,
    Break,
    GRP,
    "var data added before existing var data"
);
rule!(
    VAR_DATA_APPENDED_UNSKIPPABLE,
    "var-data-appended-unskippable",
    Wire,
    Ok,
    Break,
    GRP,
    "var data appended inside a group entry: old readers cannot skip it and misread the next entry"
);
rule!(
    VAR_DATA_REORDERED,
    "var-data-reordered",
    Wire,
    Break,
    Break,
    GRP,
    "var data reordered"
);
rule!(
    VAR_DATA_REMOVED,
    "var-data-removed",
    Wire,
    Break,
    Break,
    GRP,
    "var data removed (safe backward only when it was the last element of the message root)"
);
rule!(
    GROUP_DIMENSION_CHANGED,
    "group-dimension-changed",
    Wire,
    Break,
    Break,
    GRP,
    "a group's dimension type (blockLength or numInGroup encoding) changed"
);
rule!(
    VAR_DATA_LENGTH_CHANGED,
    "var-data-length-changed",
    Wire,
    Break,
    Break,
    GRP,
    "a var-data length prefix changed type or size"
);
rule!(COMPOSITE_EXTENDED, "composite-extended", Wire, Break, Ok, "SBE 2.0 RC composite extension; §5",
    "a composite used by an existing field grew, or gained an unversioned member: decoders need the whole composite, so new readers fail on or misread old writers' blocks");
rule!(
    BLOCK_LENGTH_LOWERED,
    "block-length-lowered",
    Wire,
    Ok,
    Break,
    EXT,
    "blockLength lowered below the old fields: old readers find the block too short"
);
rule!(
    BYTE_ORDER_CHANGED,
    "byte-order-changed",
    Wire,
    Break,
    Break,
    HDR,
    "the schema's byte order changed"
);
rule!(
    HEADER_CHANGED,
    "header-changed",
    Wire,
    Break,
    Break,
    HDR,
    "the message header type changed"
);
rule!(
    SCHEMA_ID_CHANGED,
    "schema-id-changed",
    Wire,
    Break,
    Break,
    HDR,
    "the schema id changed: decoders reject the other side's messages"
);
rule!(
    TEMPLATE_ID_CHANGED,
    "template-id-changed",
    Wire,
    Break,
    Break,
    HDR,
    "a message's template id changed: readers no longer recognise it"
);
rule!(
    MESSAGE_REMOVED,
    "message-removed",
    Wire,
    Break,
    Ok,
    EXT,
    "a message removed: new readers cannot read it from old writers"
);
rule!(
    ENUM_VALUE_CHANGED,
    "enum-value-changed",
    Wire,
    Break,
    Break,
    ENC,
    "an enum value's encoding changed"
);
rule!(
    ENUM_VALUE_REMOVED,
    "enum-value-removed",
    Wire,
    Break,
    Ok,
    ENC,
    "an enum value removed: new readers see old writers' value as unknown"
);
rule!(
    ENUM_ENCODING_CHANGED,
    "enum-encoding-changed",
    Wire,
    Break,
    Break,
    ENC,
    "an enum's encoding type changed"
);
rule!(
    SET_CHOICE_MOVED,
    "set-choice-moved",
    Wire,
    Break,
    Break,
    ENC,
    "a set choice moved to another bit"
);
rule!(
    SET_CHOICE_REMOVED,
    "set-choice-removed",
    Wire,
    Break,
    Ok,
    ENC,
    "a set choice removed: new readers see old writers' bit as unknown"
);
rule!(
    SET_ENCODING_CHANGED,
    "set-encoding-changed",
    Wire,
    Break,
    Break,
    ENC,
    "a set's encoding type changed"
);
rule!(ALIGNMENT_CHANGED, "alignment-changed", Wire, Warn, Warn, "SBE 2.0 RC field alignment",
    "a field's alignment attribute changed (the IR does not carry alignment; its effect on offsets is reported as field-moved)");
rule!(SINCE_VERSION_MISSING, "since-version-missing", Wire, Break, Ok, EXT,
    "a new element without a sinceVersion above the old schema version: new readers read it from old writers' bytes");
rule!(SINCE_VERSION_CHANGED, "since-version-changed", Wire, Break, Break, EXT,
    "an existing element's sinceVersion changed: at some acting version one side thinks it present and the other absent");

// Warnings.
rule!(
    ENUM_VALUE_ADDED,
    "enum-value-added",
    Wire,
    Ok,
    Warn,
    ENC,
    "an enum value added: old readers see it as an unknown value"
);
rule!(
    SET_CHOICE_ADDED,
    "set-choice-added",
    Wire,
    Ok,
    Warn,
    ENC,
    "a set choice added: old readers see an unknown bit"
);
rule!(FIELD_ADDED_REQUIRED, "field-added-required", Wire, Warn, Ok, FLD,
    "a new required field: new readers get null from old writers, whatever the field's presence says");
rule!(
    DEPRECATED,
    "deprecated",
    Wire,
    Warn,
    Warn,
    META,
    "an element was deprecated"
);

// Generated code (api tier).
rule!(
    RENAMED,
    "renamed",
    Api,
    Break,
    Break,
    META,
    "a message, field, group, var data, enum value or set choice renamed (same bytes)"
);
rule!(
    TYPE_RENAMED,
    "type-renamed",
    Api,
    Break,
    Break,
    META,
    "a field's type name or kind changed while its bytes and values stay the same"
);
rule!(
    ID_CHANGED,
    "id-changed",
    Api,
    Break,
    Break,
    META,
    "a field's, group's or var data's id changed"
);
rule!(
    CONSTANT_REMOVED,
    "constant-removed",
    Api,
    Break,
    Break,
    FLD,
    "a constant field removed (nothing on the wire)"
);

/// Every rule, in the order `--list-rules` prints them.
pub const ALL: &[Rule] = &[
    FIELD_APPENDED,
    GROUP_APPENDED,
    VAR_DATA_APPENDED,
    MESSAGE_ADDED,
    BLOCK_LENGTH_PADDED,
    COMPOSITE_MEMBER_APPENDED,
    DESCRIPTION_CHANGED,
    CONSTANT_ADDED,
    FIELD_INSERTED,
    FIELD_MOVED,
    FIELD_REMOVED,
    FIELD_TYPE_CHANGED,
    FIELD_PRIMITIVE_CHANGED,
    FIELD_LENGTH_CHANGED,
    PRESENCE_RELAXED,
    PRESENCE_TIGHTENED,
    PRESENCE_CONSTANT_CHANGED,
    CONSTANT_CHANGED,
    NULL_VALUE_CHANGED,
    GROUP_INSERTED,
    GROUP_APPENDED_UNSKIPPABLE,
    GROUP_REORDERED,
    GROUP_REMOVED,
    VAR_DATA_INSERTED,
    VAR_DATA_APPENDED_UNSKIPPABLE,
    VAR_DATA_REORDERED,
    VAR_DATA_REMOVED,
    GROUP_DIMENSION_CHANGED,
    VAR_DATA_LENGTH_CHANGED,
    COMPOSITE_EXTENDED,
    BLOCK_LENGTH_LOWERED,
    BYTE_ORDER_CHANGED,
    HEADER_CHANGED,
    SCHEMA_ID_CHANGED,
    TEMPLATE_ID_CHANGED,
    MESSAGE_REMOVED,
    ENUM_VALUE_CHANGED,
    ENUM_VALUE_REMOVED,
    ENUM_ENCODING_CHANGED,
    SET_CHOICE_MOVED,
    SET_CHOICE_REMOVED,
    SET_ENCODING_CHANGED,
    ALIGNMENT_CHANGED,
    SINCE_VERSION_MISSING,
    SINCE_VERSION_CHANGED,
    ENUM_VALUE_ADDED,
    SET_CHOICE_ADDED,
    FIELD_ADDED_REQUIRED,
    DEPRECATED,
    RENAMED,
    TYPE_RENAMED,
    ID_CHANGED,
    CONSTANT_REMOVED,
];

/// The rule called `name`.
pub fn by_name(name: &str) -> Option<&'static Rule> {
    ALL.iter().find(|r| r.name == name)
}
