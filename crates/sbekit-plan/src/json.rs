//! The JSON that `sbekit decode` prints for values known when the code is generated: constants,
//! and the null values a field absent at the acting version prints. Every generator's JSON
//! printer embeds these literals, so they are computed here once, by the rules of
//! `sbekit_otf` (text by [`sbekit_otf::text`], non-finite floats as `null`).

use crate::{Body, Field, Kind, Plan, Section};
use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};
use sbekit_otf::text::Encoding;

/// A string as a JSON string literal.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// True when text declared in `encoding` prints as UTF-8 (when valid): `sbekit decode`'s one
/// rule for text, under which anything else is one code point per byte.
pub fn utf8_declared(encoding: Option<&str>) -> bool {
    Encoding::of(encoding) == Encoding::Utf8
}

/// Bytes as the JSON string `sbekit decode` prints for them: valid UTF-8 kept when `utf8`,
/// otherwise one code point per byte.
pub fn text(b: &[u8], utf8: bool) -> String {
    match std::str::from_utf8(b) {
        Ok(s) if utf8 => quote(s),
        _ => quote(&b.iter().map(|&c| char::from(c)).collect::<String>()),
    }
}

/// A value of type `ty` as `sbekit decode` prints it: integers in their type's width and sign,
/// floats shortest (non-finite ones `null`), char arrays up to the first NUL, one `char` as one
/// character (NUL included).
pub fn value(v: &PrimitiveValue, ty: P) -> String {
    match ty {
        P::Float | P::Double => {
            let x = v.as_f64().unwrap_or(f64::NAN);
            if !x.is_finite() {
                "null".into()
            } else if ty == P::Float {
                format!("{}", x as f32)
            } else {
                format!("{x}")
            }
        }
        P::Char => match v {
            PrimitiveValue::Bytes(b) => {
                let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                text(&b[..end], true)
            }
            other => text(&[wire_bits(other, P::Char) as u8], true),
        },
        _ => crate::literal::int_digits(v, ty),
    }
}

/// One member of the JSON object a decoder prints for a block's or a composite's fields, in
/// wire order: the walk every generator's printer renders.
#[derive(Debug, Clone, PartialEq)]
pub enum Member<'a> {
    /// A constant: its key and value, one literal text (the comma before it included).
    Fixed(String),
    /// A field read from the wire.
    Read(ReadMember<'a>),
}

/// A member whose value is read from the wire ([`Member::Read`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadMember<'a> {
    /// The field's index among the fields walked (to find its names).
    pub index: usize,
    /// The field.
    pub field: &'a Field,
    /// Its key and colon, with the comma before it unless it is the first member.
    pub key: String,
    /// What is printed when it has no value ([`Plan::fixed_json`]).
    pub fixed: String,
    /// True when a decoder may find it without a value ([`Field::may_be_absent`]): the printer
    /// tests for the value and prints `fixed` without one.
    pub optional: bool,
}

/// The `"$version"` member a message's JSON starts with when an older writer wrote it
/// ([`Plan::json_version`]), so that `sbekit encode` writes the message back at that version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionMember {
    /// Printed when the acting version is below this (the schema's version).
    pub below: u32,
    /// True when other members follow: a comma after it.
    pub comma: bool,
}

/// A group or var-data member of a body's JSON object, after its fields
/// ([`Plan::json_sections`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SectionMember<'a> {
    /// The section's index in the body's sections (to find its names).
    pub index: usize,
    /// The section.
    pub section: &'a Section,
    /// Its key and colon, with the comma before it unless it is the body's first member.
    pub key: String,
    /// What its value is.
    pub value: SectionValue,
}

/// The value of a [`SectionMember`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionValue {
    /// A group: an array of its entries' objects. `child` is the index of its entry body
    /// among the body's groups (`BodyNames::children`).
    Group {
        /// The entry body's index among the groups.
        child: usize,
    },
    /// Var data: a string of its bytes, read as UTF-8 when `utf8` (declared so), else as
    /// Latin-1.
    Var {
        /// True when the text is UTF-8.
        utf8: bool,
        /// Its index among the body's var-data sections.
        ordinal: usize,
    },
}

impl Plan {
    /// The `"$version"` member of body `b`'s JSON: only for a message (`top`) of a schema past
    /// version 0.
    pub fn json_version(&self, b: &Body, top: bool) -> Option<VersionMember> {
        (top && self.version > 0).then_some(VersionMember {
            below: self.version,
            comma: !b.fields.is_empty() || !b.sections.is_empty(),
        })
    }

    /// The section members of body `b`'s JSON, in wire order, after its fields.
    pub fn json_sections<'a>(&self, b: &'a Body) -> Vec<SectionMember<'a>> {
        let (mut groups, mut vars) = (0.., 0..);
        b.sections
            .iter()
            .enumerate()
            .map(|(index, section)| {
                let comma = if index == 0 && b.fields.is_empty() {
                    ""
                } else {
                    ","
                };
                let value = match section {
                    Section::Group { .. } => SectionValue::Group {
                        child: groups.next().unwrap_or_default(),
                    },
                    Section::Var { char_encoding, .. } => SectionValue::Var {
                        utf8: utf8_declared(char_encoding.as_deref()),
                        ordinal: vars.next().unwrap_or_default(),
                    },
                };
                SectionMember {
                    index,
                    section,
                    key: format!("{comma}{}:", quote(section.name())),
                    value,
                }
            })
            .collect()
    }

    /// The members of `fields` as `sbekit decode` prints them; the first has no comma before
    /// it when `first`.
    pub fn json_members<'a>(&self, fields: &'a [Field], first: bool) -> Vec<Member<'a>> {
        fields
            .iter()
            .enumerate()
            .map(|(index, field)| self.json_member(index, field, first))
            .collect()
    }

    /// Member `index` of a walk over fields ([`Plan::json_members`]).
    pub fn json_member<'a>(&self, index: usize, field: &'a Field, first: bool) -> Member<'a> {
        let comma = if index == 0 && first { "" } else { "," };
        let key = format!("{comma}{}:", quote(&field.name));
        let fixed = self.fixed_json(field);
        if field.is_constant() {
            Member::Fixed(format!("{key}{fixed}"))
        } else {
            Member::Read(ReadMember {
                index,
                field,
                key,
                fixed,
                optional: field.may_be_absent(),
            })
        }
    }

    /// The JSON `sbekit decode` prints for field `f` when it is absent at the acting version
    /// (its null value) or, for a constant, always.
    pub fn fixed_json(&self, f: &Field) -> String {
        match &f.kind {
            Kind::Prim(p) => {
                let v = p.constant.clone().unwrap_or(p.null.clone());
                if p.ty == P::Char {
                    match (&v, p.len) {
                        (PrimitiveValue::Bytes(_), _) | (_, 1) => value(&v, P::Char),
                        _ => {
                            // A char array of the null character: text up to the first NUL.
                            let b = vec![wire_bits(&v, P::Char) as u8; p.len];
                            let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
                            text(&b[..end], utf8_declared(p.char_encoding.as_deref()))
                        }
                    }
                } else if p.len != 1 && !f.is_constant() {
                    let one = value(&v, p.ty);
                    format!("[{}]", vec![one; p.len].join(","))
                } else {
                    value(&v, p.ty)
                }
            }
            Kind::Enum { constant, .. } => constant.as_deref().map_or("null".into(), quote),
            Kind::Set { ty } => {
                let parts: Vec<String> = self.sets.get(ty).map_or(Vec::new(), |d| {
                    d.choices
                        .iter()
                        .map(|c| format!("{}:false", quote(&c.0)))
                        .collect()
                });
                format!("{{{}}}", parts.join(","))
            }
            Kind::Composite { ty } => {
                let parts: Vec<String> = self.composites.get(ty).map_or(Vec::new(), |c| {
                    c.members
                        .iter()
                        .map(|m| format!("{}:{}", quote(&m.name), self.fixed_json(m)))
                        .collect()
                });
                format!("{{{}}}", parts.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_sbekit_decode_prints_them() {
        assert_eq!(value(&PrimitiveValue::Int(-1), P::Int8), "-1");
        assert_eq!(
            value(&PrimitiveValue::UInt(u64::MAX), P::Uint64),
            u64::MAX.to_string()
        );
        assert_eq!(value(&PrimitiveValue::Float(f64::NAN), P::Double), "null");
        assert_eq!(value(&PrimitiveValue::Float(0.1), P::Float), "0.1");
        assert_eq!(value(&PrimitiveValue::UInt(0), P::Char), "\"\\u0000\"");
        assert_eq!(
            value(&PrimitiveValue::Bytes(b"AB\0C".to_vec()), P::Char),
            "\"AB\""
        );
    }

    #[test]
    fn text_is_utf8_only_where_declared() {
        let e = "é".as_bytes();
        assert_eq!(text(e, true), "\"é\"");
        assert_eq!(text(e, false), "\"Ã©\"");
        assert_eq!(text(&[0xff], true), "\"ÿ\"");
        assert!(utf8_declared(Some("utf-8")) && !utf8_declared(Some("US-ASCII")));
    }
}
