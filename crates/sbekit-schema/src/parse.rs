//! From the element tree to the schema model, checking what can be checked locally
//! (attribute syntax, values against their types, presence rules, versions).

use crate::diag::{Location, Sink};
use crate::rules;
use crate::xml::Element;
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use std::collections::HashMap;

/// Largest size of one `<type>` in bytes: a block length is a u16 on the wire.
const MAX_TYPE_SIZE: u64 = u16::MAX as u64;

/// Attributes shared by every named schema element.
#[derive(Debug, Clone)]
pub(crate) struct Meta {
    pub name: String,
    pub description: Option<String>,
    pub semantic_type: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub offset: Option<i32>,
    /// The `package` of the `<types>` element that defines the type (types only).
    pub package: Option<String>,
    pub loc: Location,
}

/// A `<type>`.
#[derive(Debug, Clone)]
pub(crate) struct Encoded {
    pub meta: Meta,
    pub primitive: PrimitiveType,
    /// Number of elements; 0 means variable length (var data).
    pub length: u32,
    pub presence: Presence,
    pub null_value: Option<PrimitiveValue>,
    pub min_value: Option<PrimitiveValue>,
    pub max_value: Option<PrimitiveValue>,
    pub const_value: Option<PrimitiveValue>,
    pub character_encoding: Option<String>,
    /// A constant's `valueRef` (`Enum.Value`).
    pub value_ref: Option<String>,
}

/// A `<composite>`.
#[derive(Debug, Clone)]
pub(crate) struct Composite {
    pub meta: Meta,
    pub members: Vec<TypeDef>,
}

/// An `<enum>` or a `<set>`: an encoding type plus named values.
#[derive(Debug, Clone)]
pub(crate) struct Valued {
    pub meta: Meta,
    /// A primitive name or the name of a `<type>`.
    pub encoding_type: String,
    pub presence: Presence,
    pub null_value_text: Option<String>,
    pub values: Vec<NamedValue>,
}

/// A `<validValue>` or `<choice>`.
#[derive(Debug, Clone)]
pub(crate) struct NamedValue {
    pub meta: Meta,
    pub text: String,
}

/// A `<ref>` inside a composite.
#[derive(Debug, Clone)]
pub(crate) struct Ref {
    pub meta: Meta,
    pub type_name: String,
}

/// Any type definition.
#[derive(Debug, Clone)]
pub(crate) enum TypeDef {
    Encoded(Encoded),
    Composite(Composite),
    Enum(Valued),
    Set(Valued),
    Ref(Ref),
}

impl TypeDef {
    /// Records `package` on this type and the types defined inside it.
    pub fn set_package(&mut self, package: &str) {
        match self {
            TypeDef::Encoded(t) => t.meta.package = Some(package.to_string()),
            TypeDef::Enum(v) | TypeDef::Set(v) => v.meta.package = Some(package.to_string()),
            TypeDef::Composite(c) => {
                c.meta.package = Some(package.to_string());
                for m in &mut c.members {
                    m.set_package(package);
                }
            }
            TypeDef::Ref(_) => {}
        }
    }

    pub fn meta(&self) -> &Meta {
        match self {
            TypeDef::Encoded(t) => &t.meta,
            TypeDef::Composite(t) => &t.meta,
            TypeDef::Enum(t) | TypeDef::Set(t) => &t.meta,
            TypeDef::Ref(t) => &t.meta,
        }
    }

    pub fn meta_mut(&mut self) -> &mut Meta {
        match self {
            TypeDef::Encoded(t) => &mut t.meta,
            TypeDef::Composite(t) => &mut t.meta,
            TypeDef::Enum(t) | TypeDef::Set(t) => &mut t.meta,
            TypeDef::Ref(t) => &mut t.meta,
        }
    }
}

/// A `<field>`, `<group>` or `<data>` of a message or group.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub meta: Meta,
    pub id: i32,
    pub presence: Option<Presence>,
    pub value_ref: Option<String>,
    pub epoch: Option<String>,
    pub time_unit: Option<String>,
    pub alignment: Option<i32>,
    pub kind: MemberKind,
}

/// What kind of member.
#[derive(Debug, Clone)]
pub(crate) enum MemberKind {
    Field {
        type_name: String,
    },
    Group {
        dimension_type: String,
        block_length: Option<i32>,
        body: Vec<Member>,
    },
    Data {
        type_name: String,
    },
}

/// A `<message>`.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    pub meta: Meta,
    pub id: i32,
    pub block_length: Option<i32>,
    pub body: Vec<Member>,
}

/// A whole schema.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    pub package: String,
    pub id: i32,
    pub version: i32,
    pub semantic_version: Option<String>,
    pub byte_order: ByteOrder,
    pub header_type: String,
    pub types: HashMap<String, TypeDef>,
    pub messages: Vec<Message>,
    pub loc: Location,
}

/// Parses the root element; reports problems to `sink`. Returns `None` only when the document
/// is not a schema at all.
pub(crate) fn parse_schema(root: &Element, sink: &mut Sink) -> Option<Schema> {
    if root.name != "messageSchema" {
        if root.name == "types" || root.name == "message" {
            // An XInclude fragment: it holds definitions but no schema.
            sink.error(
                rules::NO_MESSAGES,
                Some(&root.loc),
                format!(
                    "<{}> fragment is not a schema: no messageSchema and no messages",
                    root.name
                ),
            );
        } else {
            sink.error(
                rules::SCHEMA,
                Some(&root.loc),
                format!("root element is <{}>, expected <messageSchema>", root.name),
            );
        }
        return None;
    }
    let mut p = Parser {
        sink,
        schema_version: 0,
    };
    let package = root.attr("package").unwrap_or_default().to_string();
    let id = p.int_attr(root, "id", None).unwrap_or(0);
    let version = p.int_attr(root, "version", Some(0)).unwrap_or(0);
    p.schema_version = version;
    let byte_order = match root.attr("byteOrder").map(str::trim) {
        None | Some("littleEndian") => ByteOrder::LittleEndian,
        Some("bigEndian") => ByteOrder::BigEndian,
        Some(other) => {
            p.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&root.loc),
                format!("byteOrder '{other}' is neither littleEndian nor bigEndian"),
            );
            ByteOrder::LittleEndian
        }
    };
    let mut schema = Schema {
        package,
        id,
        version,
        semantic_version: non_empty(root.attr("semanticVersion")),
        byte_order,
        header_type: root
            .attr("headerType")
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|| "messageHeader".into()),
        types: HashMap::new(),
        messages: Vec::new(),
        loc: root.loc.clone(),
    };
    for child in &root.children {
        match child.name.as_str() {
            "types" => {
                let package = non_empty(child.attr("package"));
                for t in &child.children {
                    if let Some(mut def) = p.type_def(t, false) {
                        if let Some(package) = &package {
                            def.set_package(package);
                        }
                        let name = def.meta().name.clone();
                        if let Some(prev) = schema.types.get(&name) {
                            p.sink.error(
                                rules::DUPLICATE_TYPE,
                                Some(&t.loc),
                                format!("type '{name}' is already defined at {}", prev.meta().loc),
                            );
                        } else {
                            schema.types.insert(name, def);
                        }
                    }
                }
            }
            "message" => {
                if let Some(m) = p.message(child) {
                    schema.messages.push(m);
                }
            }
            other => p.sink.warn(
                rules::UNKNOWN_ELEMENT,
                Some(&child.loc),
                format!("<{other}> is not an SBE schema element; ignored"),
            ),
        }
    }
    Some(schema)
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.filter(|s| !s.is_empty()).map(str::to_string)
}

struct Parser<'s> {
    sink: &'s mut Sink,
    schema_version: i32,
}

impl Parser<'_> {
    /// An integer attribute; `default` when absent (absent and no default is an error).
    fn int_attr(&mut self, e: &Element, name: &str, default: Option<i32>) -> Option<i32> {
        match e.attr(name) {
            None => {
                if default.is_none() {
                    self.sink.error(
                        rules::MISSING_ATTRIBUTE,
                        Some(&e.loc),
                        format!("<{}> needs a '{name}' attribute", e.name),
                    );
                }
                default
            }
            Some(text) => match text.trim().parse::<i32>() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.sink.error(
                        rules::INVALID_ATTRIBUTE,
                        Some(&e.loc),
                        format!(
                            "<{}> attribute {name}=\"{text}\" is not a 32-bit integer",
                            e.name
                        ),
                    );
                    default
                }
            },
        }
    }

    fn non_negative(&mut self, e: &Element, name: &str) -> Option<i32> {
        let v = self.int_attr(e, name, Some(-1)).filter(|&v| v != -1)?;
        if v < 0 {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&e.loc),
                format!("<{}> attribute {name} must not be negative", e.name),
            );
            return None;
        }
        Some(v)
    }

    fn meta(&mut self, e: &Element) -> Meta {
        let name = match e.attr("name") {
            Some(n) => n.to_string(),
            None => {
                self.sink.error(
                    rules::MISSING_ATTRIBUTE,
                    Some(&e.loc),
                    format!("<{}> needs a 'name' attribute", e.name),
                );
                String::new()
            }
        };
        let since_version = self.int_attr(e, "sinceVersion", Some(0)).unwrap_or(0);
        if since_version > self.schema_version {
            self.sink.error(
                rules::SINCE_VERSION,
                Some(&e.loc),
                format!(
                    "'{name}' has sinceVersion {since_version}, above the schema version {}",
                    self.schema_version
                ),
            );
        }
        Meta {
            name,
            description: non_empty(e.attr("description")),
            semantic_type: non_empty(e.attr("semanticType")),
            since_version,
            deprecated: self.int_attr(e, "deprecated", Some(0)).unwrap_or(0),
            offset: self.non_negative(e, "offset"),
            package: None,
            loc: e.loc.clone(),
        }
    }

    fn presence(&mut self, e: &Element) -> Option<Presence> {
        match e.attr("presence").map(str::trim) {
            None => None,
            Some("required") => Some(Presence::Required),
            Some("optional") => Some(Presence::Optional),
            Some("constant") => Some(Presence::Constant),
            Some(other) => {
                self.sink.error(
                    rules::INVALID_ATTRIBUTE,
                    Some(&e.loc),
                    format!("presence '{other}' is not required, optional or constant"),
                );
                None
            }
        }
    }

    /// A value attribute parsed for `ty`, reporting unparsable or out-of-range text.
    fn value(&mut self, e: &Element, attr: &str, ty: PrimitiveType) -> Option<PrimitiveValue> {
        let text = e.attr(attr)?;
        let v = PrimitiveValue::parse(text, ty);
        if v.is_none() {
            self.sink.error(
                rules::INVALID_VALUE,
                Some(&e.loc),
                format!(
                    "{attr}=\"{text}\" of '{}' is not a valid {}",
                    e.attr("name").unwrap_or_default(),
                    ty.schema_name()
                ),
            );
        }
        v
    }

    /// A type definition inside `<types>` (`in_composite` false) or a composite.
    fn type_def(&mut self, e: &Element, in_composite: bool) -> Option<TypeDef> {
        match e.name.as_str() {
            "type" => self.encoded(e).map(TypeDef::Encoded),
            "composite" => Some(TypeDef::Composite(self.composite(e))),
            "enum" => Some(TypeDef::Enum(self.valued(e, "validValue"))),
            "set" => Some(TypeDef::Set(self.valued(e, "choice"))),
            "ref" if in_composite => {
                let meta = self.meta(e);
                let type_name = e.attr("type").map(str::to_string).unwrap_or_else(|| {
                    self.sink.error(
                        rules::MISSING_ATTRIBUTE,
                        Some(&e.loc),
                        format!("<ref name=\"{}\"> needs a 'type' attribute", meta.name),
                    );
                    String::new()
                });
                Some(TypeDef::Ref(Ref { meta, type_name }))
            }
            "group" | "data" | "field" | "ref" => {
                self.sink.error(
                    rules::INVALID_COMPOSITE,
                    Some(&e.loc),
                    format!(
                        "<{}> '{}' is not valid {}",
                        e.name,
                        e.attr("name").unwrap_or_default(),
                        if in_composite {
                            "within a composite"
                        } else {
                            "within <types>"
                        }
                    ),
                );
                None
            }
            other => {
                self.sink.warn(
                    rules::UNKNOWN_ELEMENT,
                    Some(&e.loc),
                    format!("<{other}> is not an SBE type element; ignored"),
                );
                None
            }
        }
    }

    fn encoded(&mut self, e: &Element) -> Option<Encoded> {
        let meta = self.meta(e);
        let Some(prim_text) = e.attr("primitiveType") else {
            self.sink.error(
                rules::MISSING_ATTRIBUTE,
                Some(&e.loc),
                format!(
                    "<type name=\"{}\"> needs a 'primitiveType' attribute",
                    meta.name
                ),
            );
            return None;
        };
        let Some(primitive) = PrimitiveType::from_schema_name(prim_text.trim()) else {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&e.loc),
                format!("'{}' has unknown primitiveType '{prim_text}'", meta.name),
            );
            return None;
        };
        // `variableLength="true"` is the pre-1.0 spelling of length="0".
        let variable = e.attr("variableLength").is_some_and(|v| v.trim() == "true");
        let length = match self.int_attr(e, "length", Some(1)) {
            Some(l) if l >= 0 => l as u32,
            _ => {
                self.sink.error(
                    rules::INVALID_ATTRIBUTE,
                    Some(&e.loc),
                    format!("'{}' has a negative length", meta.name),
                );
                1
            }
        };
        let length = if variable { 0 } else { length };
        // Keeps every later size computation far from i32 overflow; no SBE block is this big.
        if u64::from(length) * primitive.size() as u64 > MAX_TYPE_SIZE {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&e.loc),
                format!(
                    "'{}' is {length} x {} bytes, more than an SBE block can hold ({MAX_TYPE_SIZE})",
                    meta.name,
                    primitive.size()
                ),
            );
            return None;
        }
        let presence = self.presence(e).unwrap_or_default();
        let character_encoding = non_empty(e.attr("characterEncoding"))
            .or_else(|| (primitive == PrimitiveType::Char).then(|| "US-ASCII".to_string()));
        let mut t = Encoded {
            primitive,
            length,
            presence,
            null_value: self.value(e, "nullValue", primitive),
            min_value: self.value(e, "minValue", primitive),
            max_value: self.value(e, "maxValue", primitive),
            const_value: None,
            character_encoding,
            meta,
            value_ref: None,
        };
        if t.null_value.is_some() && presence != Presence::Optional {
            self.sink.error(
                rules::NULL_ON_REQUIRED,
                Some(&e.loc),
                format!("'{}' has a nullValue but is not optional", t.meta.name),
            );
        }
        if presence == Presence::Constant {
            // The spec's own examples put the constant on its own line: trim, except a lone
            // space, which is a legitimate char constant.
            let text = if primitive == PrimitiveType::Char && e.text == " " {
                " "
            } else {
                e.text.trim()
            };
            if let Some(value_ref) = e.attr("valueRef") {
                // Resolved to the enum value's encoding when the IR is generated.
                t.value_ref = Some(value_ref.trim().to_string());
                t.const_value = Some(PrimitiveValue::Bytes(value_ref.as_bytes().to_vec()));
            } else if text.is_empty() {
                self.sink.error(
                    rules::CONSTANT_WITHOUT_VALUE,
                    Some(&e.loc),
                    format!("constant '{}' has no value", t.meta.name),
                );
            } else if primitive == PrimitiveType::Char && t.length > 1 {
                if text.len() > t.length as usize {
                    self.sink.error(
                        rules::INVALID_VALUE,
                        Some(&e.loc),
                        format!(
                            "constant '{}' value \"{text}\" is longer than its length {}",
                            t.meta.name, t.length
                        ),
                    );
                }
                t.const_value = Some(PrimitiveValue::Bytes(text.as_bytes().to_vec()));
            } else {
                t.const_value = PrimitiveValue::parse(text, primitive);
                if t.const_value.is_none() {
                    self.sink.error(
                        rules::INVALID_VALUE,
                        Some(&e.loc),
                        format!(
                            "constant '{}' value \"{text}\" is not a valid {}",
                            t.meta.name,
                            primitive.schema_name()
                        ),
                    );
                }
            }
        }
        Some(t)
    }

    fn composite(&mut self, e: &Element) -> Composite {
        let meta = self.meta(e);
        let members = e
            .children
            .iter()
            .filter_map(|c| self.type_def(c, true))
            .collect();
        Composite { meta, members }
    }

    fn valued(&mut self, e: &Element, value_tag: &str) -> Valued {
        let meta = self.meta(e);
        let encoding_type = match e.attr("encodingType") {
            Some(t) => t.trim().to_string(),
            None => {
                self.sink.error(
                    rules::MISSING_ATTRIBUTE,
                    Some(&e.loc),
                    format!(
                        "<{} name=\"{}\"> needs an 'encodingType' attribute",
                        e.name, meta.name
                    ),
                );
                "uint8".into()
            }
        };
        let presence = self.presence(e).unwrap_or_default();
        let mut values = Vec::new();
        for c in &e.children {
            if c.name != value_tag {
                self.sink.warn(
                    rules::UNKNOWN_ELEMENT,
                    Some(&c.loc),
                    format!("<{}> is not valid in <{}>; ignored", c.name, e.name),
                );
                continue;
            }
            let vmeta = self.meta(c);
            // An absent sinceVersion inherits the enclosing type's; only an explicit lower one
            // contradicts it.
            if c.attr("sinceVersion").is_some() && vmeta.since_version < meta.since_version {
                self.sink.warn(
                    rules::SINCE_VERSION,
                    Some(&c.loc),
                    format!(
                        "'{}' has sinceVersion {} below its {}'s {}",
                        vmeta.name, vmeta.since_version, e.name, meta.since_version
                    ),
                );
            }
            values.push(NamedValue {
                meta: vmeta,
                text: c.text.clone(),
            });
        }
        Valued {
            meta,
            encoding_type,
            presence,
            null_value_text: e.attr("nullValue").map(str::to_string),
            values,
        }
    }

    fn message(&mut self, e: &Element) -> Option<Message> {
        let meta = self.meta(e);
        let id = self.int_attr(e, "id", None)?;
        let block_length = self.non_negative(e, "blockLength");
        let body = self.body(e);
        Some(Message {
            meta,
            id,
            block_length,
            body,
        })
    }

    /// The fields, groups and data of a message or group, checking their order.
    fn body(&mut self, e: &Element) -> Vec<Member> {
        let mut members = Vec::new();
        let mut seen_group = false;
        let mut seen_data = false;
        for c in &e.children {
            let kind_rank = match c.name.as_str() {
                "field" => 0,
                "group" => 1,
                "data" => 2,
                other => {
                    self.sink.warn(
                        rules::UNKNOWN_ELEMENT,
                        Some(&c.loc),
                        format!("<{other}> is not valid in <{}>; ignored", e.name),
                    );
                    continue;
                }
            };
            let name = c.attr("name").unwrap_or_default();
            if kind_rank == 0 && (seen_group || seen_data) {
                self.sink.error(
                    rules::FIELD_ORDER,
                    Some(&c.loc),
                    format!("field '{name}' comes after a group or data; fields must come first"),
                );
            } else if kind_rank == 1 && seen_data {
                self.sink.error(
                    rules::FIELD_ORDER,
                    Some(&c.loc),
                    format!("group '{name}' comes after data; groups must precede var data"),
                );
            }
            seen_group |= kind_rank == 1;
            seen_data |= kind_rank == 2;
            if let Some(m) = self.member(c) {
                members.push(m);
            }
        }
        members
    }

    fn member(&mut self, e: &Element) -> Option<Member> {
        let meta = self.meta(e);
        let id = self.int_attr(e, "id", None)?;
        let kind = match e.name.as_str() {
            "field" => MemberKind::Field {
                type_name: self.type_ref(e, &meta.name)?,
            },
            "data" => MemberKind::Data {
                type_name: self.type_ref(e, &meta.name)?,
            },
            _ => MemberKind::Group {
                dimension_type: e
                    .attr("dimensionType")
                    .map(|s| s.trim().to_string())
                    .unwrap_or_else(|| "groupSizeEncoding".into()),
                block_length: self.non_negative(e, "blockLength"),
                body: self.body(e),
            },
        };
        let alignment = self.non_negative(e, "alignment");
        if alignment == Some(0) {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&e.loc),
                format!("'{}' has alignment 0", meta.name),
            );
        }
        Some(Member {
            id,
            presence: self.presence(e),
            value_ref: e.attr("valueRef").map(|s| s.trim().to_string()),
            epoch: non_empty(e.attr("epoch")),
            time_unit: non_empty(e.attr("timeUnit")),
            alignment: alignment.filter(|&a| a > 0),
            kind,
            meta,
        })
    }

    fn type_ref(&mut self, e: &Element, name: &str) -> Option<String> {
        match e.attr("type") {
            Some(t) => Some(t.trim().to_string()),
            None => {
                self.sink.error(
                    rules::MISSING_ATTRIBUTE,
                    Some(&e.loc),
                    format!("<{} name=\"{name}\"> needs a 'type' attribute", e.name),
                );
                None
            }
        }
    }
}
