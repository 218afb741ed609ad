//! Builds the layout model from IR tokens, once, checking it as it goes: the only place
//! outside the IR's own readers that walks tokens.

use super::*;
use crate::view::component_end;
use crate::{split_components, Ir, IrError, Signal, Token};

impl Layout {
    /// Builds and checks the layout of every message in `ir`.
    pub fn from_ir(ir: &Ir) -> Result<Layout, IrError> {
        let mut b = Builder::default();
        let byte_order = ir.byte_order();
        let header = b.header(&ir.header)?;
        let mut messages = Vec::with_capacity(ir.messages.len());
        for tokens in &ir.messages {
            messages.push(b.message(tokens)?);
        }
        for (i, m) in messages.iter().enumerate() {
            if messages[..i].iter().any(|o| o.id == m.id) {
                return Err(malformed(format!(
                    "two messages have template id {} ('{}')",
                    m.id, m.name
                )));
            }
        }
        Ok(Layout {
            package: ir.package_name.clone(),
            namespace: ir.namespace_name.clone(),
            id: non_negative(ir.id, "schema id", &ir.package_name)?,
            version: non_negative(ir.version, "schema version", &ir.package_name)?,
            semantic_version: ir.semantic_version.clone(),
            byte_order,
            header,
            enums: b.enums,
            sets: b.sets,
            composites: b.composites,
            messages,
        })
    }
}

fn malformed(msg: impl Into<String>) -> IrError {
    IrError::Malformed(msg.into())
}

fn in_context(e: IrError, name: &str) -> IrError {
    match e {
        IrError::Malformed(m) => IrError::Malformed(format!("{name}: {m}")),
        other => other,
    }
}

fn non_negative(v: i32, what: &str, name: &str) -> Result<u32, IrError> {
    u32::try_from(v).map_err(|_| malformed(format!("{what} of '{name}' is {v}")))
}

fn usize_of(v: i32, what: &str, name: &str) -> Result<usize, IrError> {
    usize::try_from(v).map_err(|_| malformed(format!("{what} of '{name}' is {v}")))
}

fn version(t: &Token) -> u32 {
    u32::try_from(t.version).unwrap_or(0)
}

fn deprecated(t: &Token) -> u32 {
    u32::try_from(t.deprecated).unwrap_or(0)
}

/// The components of `tokens` one after another, each checked against the slice.
fn components(tokens: &[Token]) -> Result<Vec<&[Token]>, IrError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let end = component_end(tokens, i)?;
        out.push(&tokens[i..end]);
        i = end;
    }
    Ok(out)
}

/// The tokens between a component's begin and end tokens.
fn inner(comp: &[Token]) -> &[Token] {
    if comp.len() >= 2 {
        &comp[1..comp.len() - 1]
    } else {
        &[]
    }
}

#[derive(Default)]
struct Builder {
    enums: Vec<EnumDef>,
    sets: Vec<SetDef>,
    composites: Vec<CompositeDef>,
}

impl Builder {
    fn header(&mut self, tokens: &[Token]) -> Result<Header, IrError> {
        let head = tokens
            .first()
            .filter(|t| t.signal == Signal::BeginComposite)
            .ok_or_else(|| malformed("the message header is not a composite"))?;
        if component_end(tokens, 0)? != tokens.len() {
            return Err(malformed("tokens after the message header composite"));
        }
        let (composite, members) = self.composite(tokens, 0, 0)?;
        let size = usize_of(head.encoded_length, "length", &head.name)?;
        let slot = |name: &str| int_slot(&members, name, "message header", true);
        Ok(Header {
            composite,
            size,
            block_length: slot("blockLength")?,
            template_id: slot("templateId")?,
            schema_id: slot("schemaId")?,
            version: slot("version")?,
        })
    }

    fn message(&mut self, tokens: &[Token]) -> Result<Message, IrError> {
        let first = tokens
            .first()
            .filter(|t| t.signal == Signal::BeginMessage)
            .ok_or_else(|| malformed("a message does not start with BeginMessage"))?;
        if component_end(tokens, 0)? != tokens.len() {
            return Err(malformed(format!("tokens after message '{}'", first.name)));
        }
        let block = self
            .block(first, inner(tokens), 0)
            .map_err(|e| in_context(e, &first.name))?;
        Ok(Message {
            name: first.name.clone(),
            id: non_negative(first.id, "template id", &first.name)?,
            description: first.description.clone(),
            semantic_type: first.encoding.semantic_type.clone(),
            since_version: version(first),
            deprecated: deprecated(first),
            block,
        })
    }

    fn block(&mut self, begin: &Token, body: &[Token], depth: usize) -> Result<Block, IrError> {
        if depth > MAX_NESTING {
            return Err(malformed(format!(
                "groups nest deeper than {MAX_NESTING} levels"
            )));
        }
        let parts = split_components(body)?;
        let mut fields = Vec::new();
        for comp in components(parts.fields)? {
            fields.push(self.field(comp)?);
        }
        let declared = usize_of(begin.encoded_length, "block length", &begin.name)?;
        let extent = fields.iter().map(Field::end).max().unwrap_or(0);
        if extent > declared {
            return Err(malformed(format!(
                "'{}' has block length {declared} but its fields need {extent} bytes",
                begin.name
            )));
        }
        let mut groups = Vec::new();
        for comp in components(parts.groups)? {
            groups.push(self.group(comp, depth + 1)?);
        }
        let mut var_data = Vec::new();
        for comp in components(parts.var_data)? {
            var_data.push(var_data_of(comp)?);
        }
        let mut by_version: Vec<(u32, usize)> = fields
            .iter()
            .filter(|f| !f.is_constant())
            .map(|f| (f.since_version, f.end()))
            .collect();
        by_version.sort_unstable();
        let mut required: Vec<(u32, usize)> = Vec::new();
        for (v, end) in by_version {
            let max = required.last().map_or(0, |&(_, m)| m).max(end);
            match required.last_mut() {
                Some(last) if last.0 == v => last.1 = max,
                _ => required.push((v, max)),
            }
        }
        Ok(Block {
            block_length: declared,
            fields,
            groups,
            var_data,
            required: RequiredLengths(required),
        })
    }

    fn group(&mut self, comp: &[Token], depth: usize) -> Result<Group, IrError> {
        let g = &comp[0];
        let body = inner(comp);
        let dim_end = match body.first() {
            Some(d) if d.signal == Signal::BeginComposite => component_end(body, 0)?,
            _ => return Err(malformed(format!("group '{}' has no dimensions", g.name))),
        };
        let (dimension, _) = self.composite(&body[..dim_end], 0, depth)?;
        let dim = self.composites[dimension.0].clone();
        let slot = |name: &str| int_slot(&dim.members, name, &g.name, false);
        let dimension = Dimension {
            type_name: dim.name.clone(),
            size: dim.size,
            block_length: slot("blockLength")?,
            num_in_group: slot("numInGroup")?,
        };
        let block = self
            .block(g, &body[dim_end..], depth)
            .map_err(|e| in_context(e, &g.name))?;
        Ok(Group {
            name: g.name.clone(),
            id: g.id,
            description: g.description.clone(),
            since_version: version(g),
            deprecated: deprecated(g),
            dimension,
            block,
        })
    }

    /// One field component: `BeginField`, its type's tokens, `EndField`.
    fn field(&mut self, comp: &[Token]) -> Result<Field, IrError> {
        let f = &comp[0];
        let ty_tokens = inner(comp);
        if ty_tokens.is_empty() {
            return Err(malformed(format!("field '{}' has no type", f.name)));
        }
        if component_end(ty_tokens, 0)? != ty_tokens.len() {
            return Err(malformed(format!("field '{}' has two types", f.name)));
        }
        let ty = &ty_tokens[0];
        let presence = if f.is_constant() || ty.is_constant() {
            Presence::Constant
        } else if f.is_optional() || ty.is_optional() {
            Presence::Optional
        } else {
            Presence::Required
        };
        let offset = usize_of(f.offset, "offset", &f.name)?;
        let since = version(f).max(version(ty));
        let mut field = self
            .member(ty_tokens, presence, since, 0)
            .map_err(|e| in_context(e, &f.name))?;
        field.name = f.name.clone();
        field.id = f.id;
        field.description = f.description.clone().or(field.description);
        field.offset = offset;
        field.since_version = since;
        field.deprecated = deprecated(f).max(field.deprecated);
        field.semantic_type = f.encoding.semantic_type.clone().or(field.semantic_type);
        if field.is_constant() {
            field.size = 0;
            // A constant field carries its value (a literal or a resolved `valueRef`).
            let value = f.encoding.const_value.as_ref();
            match &mut field.kind {
                FieldKind::Primitive(p) => {
                    // The type token carries the resolved value (a valueRef's enum value, as
                    // the reference writes it); the field token only the valueRef text.
                    if let (None, Some(v)) = (&p.constant, value) {
                        p.constant = Some(v.clone());
                    }
                    if p.constant.is_none() {
                        return Err(malformed(format!("constant '{}' has no value", f.name)));
                    }
                }
                FieldKind::Enum { def, constant } => {
                    let text = value
                        .or(ty.encoding.const_value.as_ref())
                        .map(PrimitiveValue::to_string)
                        .ok_or_else(|| {
                            malformed(format!("constant enum '{}' names no value", f.name))
                        })?;
                    // A valueRef reads `EnumType.Value`; the value is the part after the dot.
                    let wanted = text.rsplit('.').next().unwrap_or_default();
                    let e = &self.enums[def.0];
                    *constant = Some(e.value_by_name(wanted).map(|(i, _)| i).ok_or_else(|| {
                        malformed(format!(
                            "constant '{}' names '{text}', not a value of '{}'",
                            f.name, e.name
                        ))
                    })?);
                }
                _ => {
                    return Err(malformed(format!(
                        "constant '{}' is neither a primitive nor an enum",
                        f.name
                    )))
                }
            }
        }
        Ok(field)
    }

    /// A type's tokens used as a field or composite member: `toks[0]` is an encoding or the
    /// begin token of an enum, set or composite. Name, offset and size come from `toks[0]`.
    fn member(
        &mut self,
        toks: &[Token],
        presence: Presence,
        parent_since: u32,
        depth: usize,
    ) -> Result<Field, IrError> {
        let t = &toks[0];
        let since = parent_since.max(version(t));
        let offset = usize::try_from(t.offset).unwrap_or(0);
        let encoded = usize::try_from(t.encoded_length).unwrap_or(0);
        let kind = match t.signal {
            Signal::Encoding => FieldKind::Primitive(primitive(t, presence)?),
            Signal::BeginEnum => FieldKind::Enum {
                def: self.enum_def(toks)?,
                constant: None,
            },
            Signal::BeginSet => FieldKind::Set {
                def: self.set_def(toks)?,
            },
            Signal::BeginComposite => {
                let (def, members) = self.composite(toks, since, depth + 1)?;
                FieldKind::Composite { def, members }
            }
            other => {
                return Err(malformed(format!(
                    "unexpected {other:?} token '{}' as a type",
                    t.name
                )))
            }
        };
        let size = match &kind {
            FieldKind::Primitive(p) if presence != Presence::Constant => {
                p.ty.size().saturating_mul(p.length)
            }
            FieldKind::Enum { def, .. } if presence != Presence::Constant => {
                self.enums[def.0].encoding.size()
            }
            FieldKind::Set { def } => self.sets[def.0].encoding.size(),
            FieldKind::Composite { def, .. } => self.composites[def.0].size,
            _ => 0,
        };
        if presence != Presence::Constant && encoded != size {
            return Err(malformed(format!(
                "'{}' is {encoded} bytes long but its type takes {size}",
                t.name
            )));
        }
        Ok(Field {
            name: t.name.clone(),
            id: -1,
            description: t.description.clone(),
            offset,
            size,
            since_version: since,
            deprecated: deprecated(t),
            presence,
            type_name: t.type_name().to_string(),
            semantic_type: t.encoding.semantic_type.clone(),
            kind,
        })
    }

    /// Builds (or finds) a composite's definition; returns it and this use's members.
    fn composite(
        &mut self,
        toks: &[Token],
        since: u32,
        depth: usize,
    ) -> Result<(CompositeId, Vec<Field>), IrError> {
        if depth > MAX_NESTING {
            return Err(malformed(format!(
                "composites nest deeper than {MAX_NESTING} levels"
            )));
        }
        let t = &toks[0];
        let size = usize_of(t.encoded_length, "length", &t.name)?;
        let mut members = Vec::new();
        for comp in components(inner(toks))? {
            let m = &comp[0];
            let presence = m.encoding.presence;
            let mut field = self.member(comp, presence, since, depth)?;
            if m.offset < 0 {
                return Err(malformed(format!("member '{}' has no offset", m.name)));
            }
            if field.end() > size {
                return Err(malformed(format!(
                    "member '{}' ends at byte {} of the {size}-byte composite '{}'",
                    m.name,
                    field.end(),
                    t.name
                )));
            }
            field.id = -1;
            members.push(field);
        }
        let name = t.type_name().to_string();
        let def = CompositeDef {
            name: name.clone(),
            description: t.description.clone(),
            semantic_type: t.encoding.semantic_type.clone(),
            size,
            members: members.clone(),
        };
        if let Some(i) = self.composites.iter().position(|c| c.name == name) {
            if !same_shape(&self.composites[i], &def) {
                return Err(malformed(format!(
                    "composite '{name}' is defined with two different layouts"
                )));
            }
            return Ok((CompositeId(i), members));
        }
        self.composites.push(def);
        Ok((CompositeId(self.composites.len() - 1), members))
    }

    fn enum_def(&mut self, toks: &[Token]) -> Result<EnumId, IrError> {
        let t = &toks[0];
        let encoding = t.encoding.primitive();
        if !(encoding == PrimitiveType::Char
            || encoding.is_unsigned_int()
            || encoding.is_signed_int())
        {
            return Err(malformed(format!(
                "enum '{}' is encoded as {encoding:?}",
                t.name
            )));
        }
        let mut values = Vec::new();
        for v in inner(toks) {
            if v.signal != Signal::ValidValue {
                return Err(malformed(format!("unexpected {:?} in enum", v.signal)));
            }
            let value = v
                .encoding
                .const_value
                .clone()
                .ok_or_else(|| malformed(format!("valid value '{}' has no value", v.name)))?;
            values.push(EnumValue {
                name: v.name.clone(),
                bits: wire_bits(&value, encoding),
                value,
                since_version: version(v),
                deprecated: deprecated(v),
                description: v.description.clone(),
            });
        }
        let def = EnumDef {
            name: t.type_name().to_string(),
            description: t.description.clone(),
            encoding,
            null_value: t.encoding.applicable_null_value(),
            values,
        };
        if let Some(i) = self.enums.iter().position(|e| e.name == def.name) {
            let e = &self.enums[i];
            let same = e.encoding == def.encoding
                && e.values.len() == def.values.len()
                && e.values
                    .iter()
                    .zip(&def.values)
                    .all(|(a, b)| a.name == b.name && a.bits == b.bits);
            if !same {
                return Err(malformed(format!(
                    "enum '{}' is defined with two different value lists",
                    def.name
                )));
            }
            return Ok(EnumId(i));
        }
        self.enums.push(def);
        Ok(EnumId(self.enums.len() - 1))
    }

    fn set_def(&mut self, toks: &[Token]) -> Result<SetId, IrError> {
        let t = &toks[0];
        let encoding = t.encoding.primitive();
        if !encoding.is_unsigned_int() {
            return Err(malformed(format!(
                "set '{}' is encoded as {encoding:?}",
                t.name
            )));
        }
        let width = encoding.size() * 8;
        let mut choices = Vec::new();
        for c in inner(toks) {
            if c.signal != Signal::Choice {
                return Err(malformed(format!("unexpected {:?} in set", c.signal)));
            }
            let bit = c
                .encoding
                .const_value
                .as_ref()
                .and_then(PrimitiveValue::as_u64)
                .and_then(|b| u32::try_from(b).ok())
                .filter(|&b| (b as usize) < width)
                .ok_or_else(|| {
                    malformed(format!(
                        "choice '{}' is not a bit of a {width}-bit set",
                        c.name
                    ))
                })?;
            choices.push(SetChoice {
                name: c.name.clone(),
                bit,
                since_version: version(c),
                deprecated: deprecated(c),
                description: c.description.clone(),
            });
        }
        let def = SetDef {
            name: t.type_name().to_string(),
            description: t.description.clone(),
            encoding,
            choices,
        };
        if let Some(i) = self.sets.iter().position(|s| s.name == def.name) {
            let s = &self.sets[i];
            let same = s.encoding == def.encoding
                && s.choices.len() == def.choices.len()
                && s.choices
                    .iter()
                    .zip(&def.choices)
                    .all(|(a, b)| a.name == b.name && a.bit == b.bit);
            if !same {
                return Err(malformed(format!(
                    "set '{}' is defined with two different choice lists",
                    def.name
                )));
            }
            return Ok(SetId(i));
        }
        self.sets.push(def);
        Ok(SetId(self.sets.len() - 1))
    }
}

/// A primitive encoding token as a field of the given presence.
fn primitive(t: &Token, presence: Presence) -> Result<Primitive, IrError> {
    let e = &t.encoding;
    let ty = e.primitive();
    if ty == PrimitiveType::None {
        return Err(malformed(format!("'{}' has no primitive type", t.name)));
    }
    let length = if presence == Presence::Constant {
        t.array_length()
    } else {
        let encoded = usize_of(t.encoded_length, "length", &t.name)?;
        if encoded == 0 || encoded % ty.size() != 0 {
            return Err(malformed(format!(
                "'{}' is {encoded} bytes long, not a whole number of {}s",
                t.name,
                ty.schema_name()
            )));
        }
        encoded / ty.size()
    };
    Ok(Primitive {
        ty,
        length,
        null_value: e.applicable_null_value(),
        min_value: e.applicable_min_value(),
        max_value: e.applicable_max_value(),
        constant: if presence == Presence::Constant {
            e.const_value.clone()
        } else {
            None
        },
        character_encoding: e.character_encoding.clone(),
        epoch: e.epoch.clone(),
        time_unit: e.time_unit.clone(),
    })
}

/// A var-data component: `BeginVarData`, its length/data composite, `EndVarData`.
fn var_data_of(comp: &[Token]) -> Result<VarData, IrError> {
    let v = &comp[0];
    let body = inner(comp);
    let dims = match body.first() {
        Some(d) if d.signal == Signal::BeginComposite && component_end(body, 0)? == body.len() => d,
        _ => return Err(malformed(format!("var data '{}' has no composite", v.name))),
    };
    let find = |n: &str| {
        body.iter()
            .find(|t| t.signal == Signal::Encoding && t.name == n)
            .ok_or_else(|| malformed(format!("var data '{}' has no '{n}'", v.name)))
    };
    let len = find("length")?;
    let data = find("varData")?;
    let length = slot_of(len, &v.name)?;
    let data_offset = usize_of(data.offset, "offset", &data.name)?;
    if length.offset != 0 || data_offset != length.end() {
        return Err(malformed(format!(
            "var data '{}' does not put its length first and its data right after",
            v.name
        )));
    }
    let data_type = data.encoding.primitive();
    if data_type.size() != 1 {
        return Err(malformed(format!(
            "var data '{}' holds {data_type:?}, not bytes",
            v.name
        )));
    }
    Ok(VarData {
        name: v.name.clone(),
        id: v.id,
        description: v.description.clone(),
        since_version: version(v),
        deprecated: deprecated(v),
        type_name: dims.type_name().to_string(),
        length,
        data_offset,
        data_type,
        character_encoding: data.encoding.character_encoding.clone(),
    })
}

/// An integer encoding token as a slot.
fn slot_of(t: &Token, owner: &str) -> Result<IntSlot, IrError> {
    let ty = t.encoding.primitive();
    if !(ty.is_unsigned_int() || ty.is_signed_int()) || t.array_length() != 1 {
        return Err(malformed(format!(
            "'{owner}.{}' is not an integer scalar",
            t.name
        )));
    }
    Ok(IntSlot {
        offset: usize_of(t.offset, "offset", &t.name)?,
        ty,
        max: slot_max(ty, &t.encoding.applicable_max_value()),
        constant: None,
    })
}

/// The largest value a slot may carry: the schema's `maxValue` in force (for an unsigned type
/// without one, the type's maximum less one, as the reference tool's encoders enforce).
fn slot_max(ty: PrimitiveType, max: &PrimitiveValue) -> u64 {
    let type_max = ty.default_max().as_u64().unwrap_or(0);
    max.as_u64().map_or(type_max, |m| m.min(type_max))
}

/// The integer member `name` of a composite, as a slot; constants only where `allow_constant`.
fn int_slot(
    members: &[Field],
    name: &str,
    owner: &str,
    allow_constant: bool,
) -> Result<IntSlot, IrError> {
    let m = members
        .iter()
        .find(|m| m.name == name)
        .ok_or_else(|| malformed(format!("'{owner}' has no '{name}'")))?;
    match &m.kind {
        FieldKind::Primitive(p)
            if p.length == 1
                && (p.ty.is_unsigned_int() || p.ty.is_signed_int())
                && (allow_constant || !m.is_constant()) =>
        {
            let constant =
                match &p.constant {
                    Some(v) => Some(v.as_u64().ok_or_else(|| {
                        malformed(format!("'{owner}.{name}' is the constant {v}"))
                    })?),
                    None => None,
                };
            Ok(IntSlot {
                offset: m.offset,
                ty: p.ty,
                max: slot_max(p.ty, &p.max_value),
                constant,
            })
        }
        _ => Err(malformed(format!(
            "'{owner}.{name}' is not an integer on the wire"
        ))),
    }
}

/// True when two definitions of one composite name lay their members out alike.
fn same_shape(a: &CompositeDef, b: &CompositeDef) -> bool {
    a.size == b.size
        && a.members.len() == b.members.len()
        && a.members.iter().zip(&b.members).all(|(x, y)| {
            x.name == y.name
                && x.offset == y.offset
                && x.size == y.size
                && x.presence == y.presence
                && same_kind(&x.kind, &y.kind)
        })
}

fn same_kind(a: &FieldKind, b: &FieldKind) -> bool {
    match (a, b) {
        (FieldKind::Primitive(x), FieldKind::Primitive(y)) => x.ty == y.ty && x.length == y.length,
        (FieldKind::Enum { def: x, .. }, FieldKind::Enum { def: y, .. }) => x == y,
        (FieldKind::Set { def: x }, FieldKind::Set { def: y }) => x == y,
        (FieldKind::Composite { def: x, .. }, FieldKind::Composite { def: y, .. }) => x == y,
        _ => false,
    }
}
