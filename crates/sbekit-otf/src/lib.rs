//! On-the-fly (OTF) decoding of SBE messages driven by IR, without generated code.
//!
//! [`Decoder::from_layout`] (or [`Decoder::new`] from IR) compiles a schema's layout model
//! ([`sbekit_ir::layout::Layout`]) once into per-message plans (resolved offsets, enum and set
//! tables, constants, null values). [`Decoder::decode`] then walks a message and
//! reports every field, composite, group entry and var-data field to a [`Visitor`], with values
//! borrowed from the buffer: nothing is allocated per field. [`JsonPrinter`] is a visitor that
//! prints JSON lines matching the reference tool's `JsonPrinter` value for value, and
//! [`framing`] splits streams of messages (back to back, length prefixed or SOFH framed).
//!
//! # Schema evolution
//!
//! The header's `version` is the acting version and its `blockLength` the acting block length:
//! fields, groups and var data whose `sinceVersion` is above the acting version are absent and
//! reported with [`Origin::Absent`] (fields carry their null value, groups have no entries, var
//! data is empty); block bytes beyond the fields the reader knows (a newer writer) are skipped,
//! in the root block and in every group entry (each group's own `blockLength`).
//!
//! # Malformed input
//!
//! Decoding never panics. A [`DecodeError`] gives the byte offset from the start of the buffer
//! and the path of the element, e.g. `Car.fuelFigures[2].usageDescription`. Group counts and
//! var-data lengths are checked against the buffer before use, and a block shorter than its
//! present fields need is an error rather than a source of values from unrelated bytes.
//!
//! # JSON: deliberate differences from the reference `JsonPrinter`
//!
//! Values are equal to the reference's for its golden files; the text differs in ways that do
//! not change values, and in a few cases where the reference does not print valid JSON:
//!
//! - Layout: one compact line per message (or two-space indentation with `pretty`), where the
//!   reference uses its own four-space layout.
//! - Floats use the shortest text that reads back to the same `float`/`double` (`35.9`, `49.0`,
//!   `1e30` where Java prints `1.0E30`); NaN and infinities, which JSON cannot express (the
//!   reference prints them as non-JSON text), are printed as `null`.
//! - `uint64` values above `i64::MAX` are printed as unsigned numbers (Java prints them as
//!   negative longs).
//! - A single `char` is printed as a one-character JSON string (`"A"`), not in single quotes.
//! - An enum whose value matches no valid value prints as `null` when it is the enum's null value
//!   and as its raw number otherwise (the reference prints the text `"null"` in both cases).
//! - Strings: `"`, `\` and control characters are escaped as JSON requires; text that is not
//!   valid in its declared character encoding, and var data without a character encoding, is
//!   printed one byte per code point (Latin-1), so no byte is lost (the reference substitutes
//!   replacement characters). The rule is [`text`]'s, shared by every sbekit path.
//!
//! # Text that is not valid in its declared encoding
//!
//! One rule, in [`text`], turns the bytes of char fields, char arrays and text var data into
//! strings, for the JSON printer, Arrow and Parquet (`sbekit-arrow`), the CLI and Python: text
//! valid in the field's declared `characterEncoding` is kept (UTF-8 only where the field
//! declares UTF-8; ASCII for `US-ASCII` and encodings sbekit does not decode; every byte for
//! `ISO-8859-1`); anything else is read one byte per code point (Latin-1), so a bad string never
//! costs a message and the bytes can be encoded back exactly. Such values are counted
//! ([`JsonPrinter::text_fallbacks`], `SbeColumns::text_fallbacks` in `sbekit-arrow`), and
//! `sbekit decode` reports the count on stderr.
//! - A var-data field absent at the acting version prints as `""`, an absent group as `[]`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decode;
pub mod framing;
mod json;
mod model;
mod plan;
pub mod random;
pub mod text;
mod value;

pub use decode::{DecodeError, ErrorKind, Limits, NoopVisitor, Visitor};
pub use json::{message_to_decode_json, message_to_json, JsonPrinter};
pub use plan::{
    BlockPlan, Decoder, EnumNode, FieldNode, GroupPlan, HeaderPlan, MessageHeader, MessagePlan,
    NodeKind, PrimitiveNode, SetNode, Slot, VarDataPlan,
};
pub use value::{Array, Choice, EnumValue, Origin, SetValue, Value};
