//! A structured view of IR that the emitter walks: bodies, fields, sections and named types.

use crate::GenError;
use sbekit_ir::{
    split_components, ByteOrder, Encoding, Ir, Presence, PrimitiveType, PrimitiveValue, Signal,
    Token,
};
use std::collections::BTreeMap;

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

fn bad(msg: impl Into<String>) -> GenError {
    GenError::Unsupported(msg.into())
}

fn usize_of(v: i32, what: &str, name: &str) -> Result<usize, GenError> {
    usize::try_from(v).map_err(|_| bad(format!("{what} of '{name}' is {v}")))
}

/// Builds the schema model from IR.
pub fn build(ir: &Ir) -> Result<Schema, GenError> {
    let mut s = Schema {
        package: ir.package_name.clone(),
        id: ir.id,
        version: ir.version,
        semantic_version: ir.semantic_version.clone(),
        header: Header {
            size: 0,
            type_name: String::new(),
            block_length: dummy_field(),
            template_id: dummy_field(),
            schema_id: dummy_field(),
            version: dummy_field(),
        },
        enums: BTreeMap::new(),
        sets: BTreeMap::new(),
        composites: BTreeMap::new(),
        messages: Vec::new(),
    };
    let head = ir
        .header
        .first()
        .ok_or_else(|| bad("IR has no message header"))?;
    let header_type = head.type_name().to_string();
    let members = composite(&mut s, &ir.header)?;
    // The header composite is a type like any other (users may read or write it directly).
    s.composites
        .entry(header_type.clone())
        .or_insert_with(|| CompositeDef {
            description: head.description.clone(),
            size: usize::try_from(head.encoded_length).unwrap_or(0),
            members: members.clone(),
        });
    let find = |n: &str| -> Result<Field, GenError> {
        members
            .iter()
            .find(|m| m.name == n && matches!(m.kind, Kind::Prim(ref p) if p.len == 1 && p.ty != PrimitiveType::None && !p.ty.is_float()))
            .cloned()
            .ok_or_else(|| bad(format!("message header has no integer '{n}'")))
    };
    s.header = Header {
        size: usize_of(head.encoded_length, "length", &head.name)?,
        type_name: header_type,
        block_length: find("blockLength")?,
        template_id: find("templateId")?,
        schema_id: find("schemaId")?,
        version: find("version")?,
    };
    for m in &ir.messages {
        let first = m.first().ok_or_else(|| bad("empty message"))?;
        if first.signal != Signal::BeginMessage || m.len() < 2 {
            return Err(bad("message does not start with BeginMessage"));
        }
        let inner = m.get(1..m.len() - 1).unwrap_or(&[]);
        let body = body(&mut s, first, inner, crate::names::type_name(&first.name))?;
        s.messages.push((first.id, body));
    }
    Ok(s)
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

fn since(t: &Token) -> u32 {
    u32::try_from(t.version).unwrap_or(0)
}

fn body(s: &mut Schema, begin: &Token, inner: &[Token], path: String) -> Result<Body, GenError> {
    let parts = split_components(inner).map_err(|e| bad(e.to_string()))?;
    let mut fields = Vec::new();
    let mut i = 0;
    while i < parts.fields.len() {
        let f = &parts.fields[i];
        let n = usize_of(f.component_token_count, "token count", &f.name)?;
        let comp = parts
            .fields
            .get(i..i + n)
            .ok_or_else(|| bad("field overruns body"))?;
        fields.push(field(s, comp)?);
        i += n;
    }
    let mut sections = Vec::new();
    for run in [parts.groups, parts.var_data] {
        let mut i = 0;
        while i < run.len() {
            let t = &run[i];
            let n = usize_of(t.component_token_count, "token count", &t.name)?;
            let comp = run
                .get(i..i + n)
                .ok_or_else(|| bad("section overruns body"))?;
            sections.push(section(s, comp, &path)?);
            i += n;
        }
    }
    let block_length = usize_of(begin.encoded_length, "block length", &begin.name)?;
    let min_block = fields
        .iter()
        .filter(|f| f.since == 0 && !f.is_constant())
        .map(|f| f.offset + f.size)
        .max()
        .unwrap_or(0);
    Ok(Body {
        path,
        name: begin.name.clone(),
        description: begin.description.clone(),
        block_length: block_length.max(min_block),
        min_block,
        fields,
        sections,
    })
}

fn dim_field(tokens: &[Token], name: &str, owner: &str) -> Result<DimField, GenError> {
    let t = tokens
        .iter()
        .find(|t| t.signal == Signal::Encoding && t.name == name)
        .ok_or_else(|| bad(format!("'{owner}' has no '{name}'")))?;
    let ty = t.encoding.primitive();
    if !(ty.is_unsigned_int() || ty.is_signed_int()) {
        return Err(bad(format!("'{owner}.{name}' is not an integer")));
    }
    let type_max = ty.default_max().as_u64().unwrap_or(0);
    let max = t
        .encoding
        .max_value
        .as_ref()
        .and_then(PrimitiveValue::as_u64)
        .unwrap_or(type_max)
        .min(type_max);
    Ok(DimField {
        ty,
        offset: usize_of(t.offset, "offset", &t.name)?,
        order: t.encoding.byte_order,
        max,
    })
}

fn section(s: &mut Schema, comp: &[Token], parent: &str) -> Result<Section, GenError> {
    let t = &comp[0];
    let dims_begin = comp
        .get(1)
        .ok_or_else(|| bad("section without dimensions"))?;
    let dn = usize_of(
        dims_begin.component_token_count,
        "token count",
        &dims_begin.name,
    )?;
    let dims = comp
        .get(1..1 + dn)
        .ok_or_else(|| bad("dimensions overrun"))?;
    match t.signal {
        Signal::BeginGroup => {
            let inner = comp.get(1 + dn..comp.len() - 1).unwrap_or(&[]);
            let path = format!("{parent}{}", crate::names::camel(&t.name));
            let dim_size = usize_of(dims_begin.encoded_length, "length", &dims_begin.name)?;
            Ok(Section::Group {
                name: t.name.clone(),
                description: t.description.clone(),
                since: since(t),
                dim_size,
                block_len: dim_field(dims, "blockLength", &dims_begin.name)?,
                count: dim_field(dims, "numInGroup", &dims_begin.name)?,
                body: Box::new(body(s, t, inner, path)?),
            })
        }
        Signal::BeginVarData => {
            let len = dim_field(dims, "length", &dims_begin.name)?;
            let data = dims
                .iter()
                .find(|t| t.signal == Signal::Encoding && t.name == "varData");
            let text = data.is_some_and(|d| {
                d.encoding.character_encoding.is_some()
                    || d.encoding.primitive() == PrimitiveType::Char
            });
            if data.and_then(|d| usize::try_from(d.offset).ok()) != Some(len.offset + len.ty.size())
                || len.offset != 0
            {
                return Err(bad(format!(
                    "var data '{}' has an unsupported layout",
                    t.name
                )));
            }
            Ok(Section::Var {
                name: t.name.clone(),
                description: t.description.clone(),
                since: since(t),
                len,
                text,
            })
        }
        _ => Err(bad(format!("unexpected {:?} in sections", t.signal))),
    }
}

fn prim_of(t: &Token, e: &Encoding, presence: Presence) -> Prim {
    Prim {
        ty: e.primitive(),
        len: t.array_length(),
        order: e.byte_order,
        presence,
        null: e.applicable_null_value(),
        constant: e.const_value.clone(),
        char_encoding: e.character_encoding.clone(),
    }
}

/// One field component: `BeginField`, its type's tokens, `EndField`.
fn field(s: &mut Schema, comp: &[Token]) -> Result<Field, GenError> {
    let f = &comp[0];
    let ty = comp
        .get(1)
        .ok_or_else(|| bad(format!("field '{}' has no type", f.name)))?;
    let tn = usize_of(ty.component_token_count, "token count", &ty.name)?;
    let ty_tokens = comp
        .get(1..1 + tn)
        .ok_or_else(|| bad("field type overruns"))?;
    let field_const = f.encoding.presence == Presence::Constant;
    let presence = if field_const || ty.encoding.presence == Presence::Constant {
        Presence::Constant
    } else if f.encoding.presence == Presence::Optional
        || ty.encoding.presence == Presence::Optional
    {
        Presence::Optional
    } else {
        Presence::Required
    };
    let mut out = member(s, ty_tokens, presence)?;
    out.name = f.name.clone();
    out.description = f.description.clone().or(out.description);
    out.offset = usize_of(f.offset, "offset", &f.name)?;
    out.since = since(f);
    if field_const {
        // A constant field refers to a value of its type (`valueRef`) or carries a literal.
        let value = f.encoding.const_value.clone();
        match &mut out.kind {
            Kind::Enum { constant, ty, .. } => {
                let text = match &value {
                    Some(PrimitiveValue::Bytes(b)) => String::from_utf8_lossy(b).into_owned(),
                    _ => {
                        return Err(bad(format!(
                            "constant enum field '{}' without valueRef",
                            f.name
                        )))
                    }
                };
                let v = text.rsplit('.').next().unwrap_or(&text).to_string();
                let e = s
                    .enums
                    .get(ty.as_str())
                    .ok_or_else(|| bad("constant of unknown enum"))?;
                if !e.values.iter().any(|(n, _, _)| *n == v) {
                    return Err(bad(format!("valueRef '{text}' is not a value of '{ty}'")));
                }
                *constant = Some(v);
            }
            Kind::Prim(p) => {
                p.presence = Presence::Constant;
                if value.is_some() {
                    p.constant = value;
                }
            }
            _ => {
                return Err(bad(format!(
                    "constant field '{}' of unsupported type",
                    f.name
                )))
            }
        }
        out.size = 0;
    }
    Ok(out)
}

/// A type's tokens used as a field or composite member (name and offset from the first token).
fn member(s: &mut Schema, toks: &[Token], presence: Presence) -> Result<Field, GenError> {
    let t = &toks[0];
    let offset = usize::try_from(t.offset).unwrap_or(0);
    let size = usize::try_from(t.encoded_length).unwrap_or(0);
    let kind = match t.signal {
        Signal::Encoding => {
            let p = if presence == Presence::Required {
                t.encoding.presence
            } else {
                presence
            };
            let prim = prim_of(t, &t.encoding, p);
            if prim.ty == PrimitiveType::None {
                return Err(bad(format!("'{}' has no primitive type", t.name)));
            }
            Kind::Prim(prim)
        }
        Signal::BeginEnum => {
            let name = t.type_name().to_string();
            if !s.enums.contains_key(&name) {
                let values = toks
                    .iter()
                    .filter(|v| v.signal == Signal::ValidValue)
                    .map(|v| {
                        let raw = v
                            .encoding
                            .const_value
                            .clone()
                            .ok_or_else(|| bad("enum value without value"))?;
                        Ok((v.name.clone(), raw, v.description.clone()))
                    })
                    .collect::<Result<Vec<_>, GenError>>()?;
                s.enums.insert(
                    name.clone(),
                    EnumDef {
                        description: t.description.clone(),
                        ty: t.encoding.primitive(),
                        order: t.encoding.byte_order,
                        null: t.encoding.applicable_null_value(),
                        values,
                    },
                );
            }
            Kind::Enum {
                ty: name,
                optional: presence == Presence::Optional
                    || t.encoding.presence == Presence::Optional,
                constant: None,
            }
        }
        Signal::BeginSet => {
            let name = t.type_name().to_string();
            if !s.sets.contains_key(&name) {
                let choices = toks
                    .iter()
                    .filter(|v| v.signal == Signal::Choice)
                    .map(|v| {
                        let bit = v
                            .encoding
                            .const_value
                            .as_ref()
                            .and_then(PrimitiveValue::as_u64)
                            .and_then(|b| u32::try_from(b).ok())
                            .filter(|&b| (b as usize) < t.encoding.primitive().size() * 8)
                            .ok_or_else(|| bad(format!("choice '{}' has a bad bit", v.name)))?;
                        Ok((v.name.clone(), bit, v.description.clone()))
                    })
                    .collect::<Result<Vec<_>, GenError>>()?;
                s.sets.insert(
                    name.clone(),
                    SetDef {
                        description: t.description.clone(),
                        ty: t.encoding.primitive(),
                        order: t.encoding.byte_order,
                        choices,
                    },
                );
            }
            Kind::Set { ty: name }
        }
        Signal::BeginComposite => {
            let name = t.type_name().to_string();
            if !s.composites.contains_key(&name) {
                let members = composite(s, toks)?;
                s.composites.insert(
                    name.clone(),
                    CompositeDef {
                        description: t.description.clone(),
                        size,
                        members,
                    },
                );
            }
            Kind::Composite { ty: name }
        }
        other => return Err(bad(format!("unexpected {other:?} token '{}'", t.name))),
    };
    Ok(Field {
        name: t.name.clone(),
        description: t.description.clone(),
        offset,
        size: if presence == Presence::Constant {
            0
        } else {
            size
        },
        since: since(t),
        kind,
    })
}

/// The members of a composite (`toks` is `BeginComposite` .. `EndComposite`).
fn composite(s: &mut Schema, toks: &[Token]) -> Result<Vec<Field>, GenError> {
    let mut out = Vec::new();
    let mut i = 1;
    while i + 1 < toks.len() {
        let t = &toks[i];
        let n = usize_of(t.component_token_count, "token count", &t.name)?.max(1);
        let comp = toks
            .get(i..i + n)
            .ok_or_else(|| bad("composite member overruns"))?;
        let presence = t.encoding.presence;
        out.push(member(s, comp, presence)?);
        i += n;
    }
    Ok(out)
}
