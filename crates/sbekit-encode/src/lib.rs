//! Encoding SBE messages from JSON-shaped values, driven by the schema's layout model.
//!
//! [`Encoder::new`] compiles every message of a [`Layout`] once into an encode plan. Encoding
//! then takes a value tree of exactly the shape `sbekit decode` prints (a `serde_json::Value`
//! with [`Encoder::encode`], or JSON text with [`Encoder::encode_json`], which keeps every
//! number's text so that 64-bit integers and floats come back bit for bit) and appends the
//! message, header included, to a reusable `Vec<u8>`.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let layout = sbekit_schema::load_layout("car.xml".as_ref())?;
//! let encoder = sbekit_encode::Encoder::new(&layout);
//! let mut out = Vec::new();
//! let car: serde_json::Value = serde_json::from_str(r#"{"serialNumber": 1234}"#)?;
//! match encoder.encode(&car, Some("Car"), None, &mut out) {
//!     Ok(()) => println!("{} bytes", out.len()),
//!     Err(e) => eprintln!("{e}"), // e.g. Car.modelYear: missing (the field is required)
//! }
//! # Ok(()) }
//! ```
//!
//! The rules (enums by name or raw value, sets as choice lists, objects of booleans or raw
//! integers, char data checked against its length, nulls and omitted optional fields as null
//! values, constants checked and not written, group counts from arrays, older versions) are
//! listed in the crate's README. Any value that does not fit is an [`EncodeError`] naming its
//! JSON path, and nothing is appended for that message. [`Encoder::with_validation`] also
//! refuses values the wire can hold but the schema's rules do not allow (numbers outside
//! `minValue`/`maxValue`, a required field's null value, enum values the schema does not list).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod encode;
mod json;
mod plan;
mod values;

pub use json::{Doc, SyntaxError, MAX_DEPTH};
pub use values::same_values;

use json::Kind as J;
use plan::{put_bits, Plan};
use sbekit_ir::layout::Layout;
use sbekit_ir::wire::VERSION_MEMBER;
use std::fmt;
use std::sync::Arc;

/// A value that could not be encoded, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// JSON path of the value, from the message name: `Car.fuelFigures[2].speed`. Empty for an
    /// error about the whole input (invalid JSON, no such message).
    pub path: String,
    /// What is wrong: `70000 does not fit uint16`.
    pub message: String,
}

impl EncodeError {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        EncodeError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Puts `name` in front of the path (on the way out of the walk).
    fn at(mut self, name: &str) -> Self {
        if self.path.is_empty() {
            self.path = name.to_string();
        } else if self.path.starts_with('[') {
            self.path.insert_str(0, name);
        } else {
            self.path.insert(0, '.');
            self.path.insert_str(0, name);
        }
        self
    }

    /// Puts `[index]` in front of the path.
    fn index(mut self, index: usize) -> Self {
        let sep = if self.path.is_empty() || self.path.starts_with('[') {
            ""
        } else {
            "."
        };
        self.path.insert_str(0, &format!("[{index}]{sep}"));
        self
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for EncodeError {}

/// Encodes messages of one schema. Build it once per schema; it is immutable and can be shared
/// between threads. Cloning it is cheap (the compiled plan is shared).
#[derive(Debug, Clone)]
pub struct Encoder {
    plan: Arc<Plan>,
    validate: bool,
}

impl Encoder {
    /// Compiles an encode plan for every message of `layout`. It writes whatever the wire can
    /// hold (see [`with_validation`](Self::with_validation) for the schema's rules).
    pub fn new(layout: &Layout) -> Encoder {
        Encoder {
            plan: Arc::new(Plan::new(layout)),
            validate: false,
        }
    }

    /// This encoder (sharing its plan), validating values against the schema's rules when `on`:
    /// besides what does not fit the wire, it then refuses, with an [`EncodeError`] naming the
    /// value's path and the rule,
    ///
    /// - an integer outside the field's `minValue`..`maxValue` (by default the type's range
    ///   without its null value), a float outside the `minValue`/`maxValue` the schema itself
    ///   gives (NaN, a float's null value, fails such bounds), each element of an array alike:
    ///   the bounds are `sbekit_plan::Range::of`'s, as every generated `validate` checks;
    /// - a required integer or enum field given its null value (or `null`);
    /// - an enum raw value the schema does not list (an optional enum may hold its null value);
    ///
    /// while an optional field may hold its null value or be `null`, and `char` data, sets,
    /// constants and fields, groups and var data newer than the version written are not
    /// checked. Groups longer than their count field's `maxValue` and var data longer than its
    /// length field's `maxValue` are refused either way. Validation only refuses: what it
    /// accepts is written byte for byte as without it. Off (the default), whatever `decode`
    /// printed goes back as it was, in range or not.
    pub fn with_validation(mut self, on: bool) -> Encoder {
        self.validate = on;
        self
    }

    /// True when this encoder validates values (see [`with_validation`](Self::with_validation)).
    pub fn validates(&self) -> bool {
        self.validate
    }

    /// The schema's version (what is written when no version is asked for).
    pub fn schema_version(&self) -> u32 {
        self.plan.schema_version
    }

    /// The names of the schema's messages, in schema order.
    pub fn message_names(&self) -> impl Iterator<Item = &str> {
        self.plan.messages.iter().map(|m| m.name.as_str())
    }

    /// Appends the message that `value` describes to `out`, header included.
    ///
    /// `template` is a message name or template id; without it the message is the schema's
    /// only one, or the only one whose fields include every member of `value`. `version`
    /// writes as an older writer would (fields, groups and var data newer than it left out,
    /// block lengths that version's); `None` is the schema's version. On error nothing is
    /// appended.
    pub fn encode(
        &self,
        value: &serde_json::Value,
        template: Option<&str>,
        version: Option<u32>,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let mut doc = Doc::new();
        doc.from_value(value)
            .map_err(|e| EncodeError::new("", e.to_string()))?;
        self.encode_doc(&doc, template, version, out)
    }

    /// Parses one JSON value from `json` into `doc` (reused between calls, so parsing does not
    /// allocate once it has grown) and appends its message to `out`, as [`encode`](Self::encode).
    /// Numbers are read from their text: integers of any width and floats are exact.
    pub fn encode_json(
        &self,
        json: &[u8],
        template: Option<&str>,
        version: Option<u32>,
        doc: &mut Doc,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        doc.parse(json)
            .map_err(|e| EncodeError::new("", e.to_string()))?;
        self.encode_doc(doc, template, version, out)
    }

    /// Appends the message that `doc` describes to `out`, as [`encode`](Self::encode).
    pub fn encode_doc(
        &self,
        doc: &Doc,
        template: Option<&str>,
        version: Option<u32>,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let start = out.len();
        let r = self.encode_root(doc, template, version, out);
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    fn encode_root(
        &self,
        doc: &Doc,
        template: Option<&str>,
        version: Option<u32>,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let p = &self.plan;
        let root = doc
            .root()
            .ok_or_else(|| EncodeError::new("", "empty input"))?;
        if root.kind() != J::Object {
            return Err(EncodeError::new(
                "",
                format!("expected an object (one message), got {}", root.describe()),
            ));
        }
        let m = &p.messages[self.select(template, root)?];
        // A message that says which version wrote it (`sbekit decode` prints `$version` when it
        // is not the schema's) is written as that version; `version` is for the others.
        let v = match root.members().find(|(k, _)| *k == VERSION_MEMBER) {
            Some((_, n)) => n
                .text()
                .parse::<u32>()
                .ok()
                .filter(|_| n.kind() == J::Number)
                .ok_or_else(|| {
                    EncodeError::new(
                        VERSION_MEMBER,
                        format!("expected a schema version number, got {}", n.describe()),
                    )
                })?,
            None => version.unwrap_or(p.schema_version),
        };
        if v > p.schema_version {
            return Err(EncodeError::new(
                &m.name,
                format!(
                    "version {v} is newer than the schema's {}",
                    p.schema_version
                ),
            ));
        }
        // A message newer than `v` (its `sinceVersion` above it) is still written at `v`, as
        // the decoders read one (`sbekit decode` prints it with that `$version`): what an
        // older writer sent comes back byte for byte.
        let start = out.len();
        out.resize(start + p.header_size, 0);
        let block_length = m.block.length_at(v, p.schema_version) as u64;
        let values = [
            block_length,
            u64::from(m.id),
            u64::from(p.schema_id),
            u64::from(v),
        ];
        const NAMES: [&str; 4] = ["blockLength", "templateId", "schemaId", "version"];
        for ((slot, value), name) in p.header.iter().zip(values).zip(NAMES) {
            if slot.constant.is_some() {
                // A constant header member is not on the wire.
                continue;
            }
            if value > slot.max
                || !put_bits(
                    &mut out[start..],
                    slot.offset,
                    slot.ty.size(),
                    value,
                    p.order,
                )
            {
                return Err(EncodeError::new(
                    &m.name,
                    format!(
                        "header {name} {value} does not fit {}",
                        slot.ty.schema_name()
                    ),
                ));
            }
        }
        let walk = encode::Walk {
            plan: p,
            version: v,
            validate: self.validate,
        };
        walk.root(&m.block, root, out).map_err(|e| e.at(&m.name))
    }

    /// The message to encode: by name or id, else the only one that fits.
    fn select(
        &self,
        template: Option<&str>,
        root: json::NodeRef<'_>,
    ) -> Result<usize, EncodeError> {
        let p = &self.plan;
        if let Some(t) = template {
            return p
                .by_name
                .get(t)
                .copied()
                .or_else(|| {
                    let id: u32 = t.parse().ok()?;
                    p.messages.iter().position(|m| m.id == id)
                })
                .ok_or_else(|| {
                    EncodeError::new(
                        "",
                        format!(
                            "no message {t:?} in the schema (messages: {})",
                            self.message_names().collect::<Vec<_>>().join(", ")
                        ),
                    )
                });
        }
        if p.messages.len() == 1 {
            return Ok(0);
        }
        let fits: Vec<usize> = (0..p.messages.len())
            .filter(|&i| {
                let names = &p.messages[i].block.names;
                root.members()
                    .all(|(k, _)| k == VERSION_MEMBER || names.find(k, 0).is_some())
            })
            .collect();
        match fits[..] {
            [one] => Ok(one),
            [] => Err(EncodeError::new(
                "",
                "no message of the schema has all these fields (give a template)",
            )),
            _ => Err(EncodeError::new(
                "",
                format!(
                    "these fields fit several messages ({}): give a template",
                    fits.iter()
                        .map(|&i| p.messages[i].name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}
