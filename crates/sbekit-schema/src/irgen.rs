//! From the schema model to IR tokens: resolves type references, lays out composites, blocks
//! and groups (offsets, block lengths). The rules checked on the way are in `crate::rules`
//! (`rules/checks.rs`).
//!
//! The token stream mirrors the reference tool's, so that IR compiled here equals the IR in the
//! reference's `.sbeir` files (including its conventions: offsets of -1 after the first
//! variable-length element of a block, -1 lengths for var-data composites).

use crate::diag::{Location, Sink};
use crate::parse::{
    Composite, Encoded, Member, MemberKind, Message, Meta, Schema, TypeDef, Valued,
};
use crate::rules;
use sbekit_ir::{Encoding, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token};
use std::borrow::Cow;
use std::collections::HashMap;

/// Length of a variable-length element, as the reference IR writes it.
const VARIABLE: i32 = -1;
/// Deepest composite nesting followed before reporting a cycle or absurd nesting.
const MAX_NESTING: usize = 32;

/// The field a type is laid out for: the reference stamps the type's tokens with
/// max(field sinceVersion, type sinceVersion) and lends them the field's semanticType.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ctx {
    since: i32,
    semantic: Option<String>,
}

impl Ctx {
    pub(crate) fn of(m: &Member) -> Ctx {
        Ctx {
            since: m.meta.since_version,
            semantic: m.meta.semantic_type.clone(),
        }
    }
}

/// Version of a type's begin/end tokens: its own, raised to its field's.
fn stamped(own: i32, ctx: Option<&Ctx>) -> i32 {
    ctx.map_or(own, |c| c.since.max(own))
}

/// Generates the IR of a parsed schema; `None` if errors make that impossible.
pub(crate) fn generate(schema: &Schema, sink: &mut Sink) -> Option<Ir> {
    let mut g = Gen {
        schema,
        sink,
        stack: Vec::new(),
    };
    g.check_types();
    let header = g.header();
    let mut messages = Vec::new();
    let mut ids: HashMap<i32, &Message> = HashMap::new();
    let mut names: HashMap<&str, &Message> = HashMap::new();
    for m in &schema.messages {
        if let Some(prev) = ids.insert(m.id, m) {
            g.sink.error(
                rules::DUPLICATE_MESSAGE_ID,
                Some(&m.meta.loc),
                format!(
                    "message '{}' has template id {}, already used by '{}' at {}",
                    m.meta.name, m.id, prev.meta.name, prev.meta.loc
                ),
            );
        }
        if let Some(prev) = names.insert(&m.meta.name, m) {
            g.sink.error(
                rules::DUPLICATE_MESSAGE_NAME,
                Some(&m.meta.loc),
                format!(
                    "message name '{}' is already used at {}",
                    m.meta.name, prev.meta.loc
                ),
            );
        }
        g.check_name(&m.meta, "message");
        messages.push(g.message(m));
    }
    // The reference tool keeps messages in template-id order; so does its .sbeir.
    messages.sort_by_key(|m| m.first().map_or(0, |t| t.id));
    if schema.messages.is_empty() {
        g.sink.error(
            rules::NO_MESSAGES,
            Some(&schema.loc),
            "the schema defines no messages",
        );
    }
    if g.sink.has_errors() {
        return None;
    }
    Some(Ir {
        package_name: schema.package.clone(),
        namespace_name: None,
        id: schema.id,
        version: schema.version,
        semantic_version: schema.semantic_version.clone(),
        header: header?,
        messages,
    })
}

pub(crate) struct Gen<'a> {
    pub(crate) schema: &'a Schema,
    pub(crate) sink: &'a mut Sink,
    /// Names of composites being expanded, for the cycle guard.
    pub(crate) stack: Vec<String>,
}

impl<'a> Gen<'a> {
    // ----- type resolution -------------------------------------------------------------

    /// The type called `name`: a declared one, or a built-in one named after a primitive.
    pub(crate) fn resolve(&self, name: &str) -> Option<Cow<'a, TypeDef>> {
        if let Some(t) = self.schema.types.get(name) {
            return Some(Cow::Borrowed(t));
        }
        let primitive = PrimitiveType::from_schema_name(name)?;
        Some(Cow::Owned(TypeDef::Encoded(Encoded {
            meta: Meta {
                name: name.to_string(),
                description: None,
                semantic_type: None,
                since_version: 0,
                deprecated: 0,
                offset: None,
                package: None,
                loc: self.schema.loc.clone(),
            },
            primitive,
            length: 1,
            presence: Presence::Required,
            null_value: None,
            min_value: None,
            max_value: None,
            const_value: None,
            // Unlike a declared char <type>, the built-in `char` carries no encoding (as the reference).
            character_encoding: None,
            value_ref: None,
        })))
    }

    /// The encoding of an enum or set: its primitive and the `<type>` it names, if any.
    pub(crate) fn valued_encoding(
        &mut self,
        v: &Valued,
    ) -> Option<(PrimitiveType, Option<Encoded>)> {
        match self.resolve(&v.encoding_type).as_deref() {
            Some(TypeDef::Encoded(t)) => {
                let named = self.schema.types.contains_key(&v.encoding_type);
                Some((t.primitive, named.then(|| t.clone())))
            }
            _ => {
                self.sink.error(
                    rules::UNKNOWN_TYPE,
                    Some(&v.meta.loc),
                    format!(
                        "'{}' has encodingType '{}', which is neither a primitive nor a <type>",
                        v.meta.name, v.encoding_type
                    ),
                );
                None
            }
        }
    }

    // ----- whole-schema checks ---------------------------------------------------------

    // ----- header ----------------------------------------------------------------------

    pub(crate) fn header(&mut self) -> Option<Vec<Token>> {
        let name = self.schema.header_type.clone();
        let Some(TypeDef::Composite(c)) = self.resolve(&name).as_deref().cloned() else {
            self.sink.error(
                rules::MESSAGE_HEADER,
                Some(&self.schema.loc),
                format!("message header composite '{name}' is not defined"),
            );
            return None;
        };
        for (member, wanted) in [
            ("blockLength", PrimitiveType::Uint16),
            ("templateId", PrimitiveType::Uint16),
            ("schemaId", PrimitiveType::Uint16),
            ("version", PrimitiveType::Uint16),
        ] {
            self.check_member_int(&c, member, Some(wanted), rules::MESSAGE_HEADER);
        }
        let mut tokens = Vec::new();
        self.stack.clear();
        self.composite_tokens(&c, 0, None, &mut tokens)?;
        Some(tokens)
    }

    // ----- messages --------------------------------------------------------------------

    pub(crate) fn message(&mut self, m: &Message) -> Vec<Token> {
        let mut tokens = Vec::new();
        let mut begin = Token::new(Signal::BeginMessage, &m.meta.name);
        begin.id = m.id;
        begin.version = m.meta.since_version;
        begin.deprecated = m.meta.deprecated;
        begin.description = m.meta.description.clone();
        begin.encoding.semantic_type = m.meta.semantic_type.clone();
        tokens.push(begin);
        let computed = self.body(&m.body, m.block_length, &mut tokens, &m.meta.name);
        let block_length = self.block_length(&m.meta, m.block_length, computed);
        tokens[0].encoded_length = block_length;
        close(&mut tokens, 0, Signal::EndMessage);
        tokens
    }

    /// Emits the members of a message or group body; returns the size of its fixed fields.
    pub(crate) fn body(
        &mut self,
        members: &[Member],
        declared_block: Option<i32>,
        out: &mut Vec<Token>,
        path: &str,
    ) -> i32 {
        let mut offset = 0i32;
        let mut variable = false;
        let mut names: HashMap<&str, &Location> = HashMap::new();
        let mut ids: HashMap<i32, &str> = HashMap::new();
        for m in members {
            self.check_name(&m.meta, "field");
            if let Some(prev) = names.insert(&m.meta.name, &m.meta.loc) {
                self.sink.error(
                    rules::DUPLICATE_FIELD_NAME,
                    Some(&m.meta.loc),
                    format!(
                        "'{path}' already has a member named '{}' at {prev}",
                        m.meta.name
                    ),
                );
            }
            if let Some(prev) = ids.insert(m.id, &m.meta.name) {
                self.sink.warn(
                    rules::DUPLICATE_FIELD_ID,
                    Some(&m.meta.loc),
                    format!(
                        "'{}' in '{path}' has id {}, already used by '{prev}'",
                        m.meta.name, m.id
                    ),
                );
            }
            let child_path = format!("{path}.{}", m.meta.name);
            match &m.kind {
                MemberKind::Field { type_name } => {
                    if let Some(explicit) = m.meta.offset {
                        if explicit < offset {
                            self.sink.error(
                                rules::FIELD_OFFSET,
                                Some(&m.meta.loc),
                                format!(
                                    "field '{}' offset {explicit} overlaps the previous field (next free offset is {offset})",
                                    m.meta.name
                                ),
                            );
                        }
                        offset = explicit;
                    } else if let Some(a) = m.alignment {
                        offset = offset.saturating_add(a - 1) / a * a;
                    }
                    let length = self.field(m, type_name, offset, out);
                    offset = offset.saturating_add(length.max(0));
                }
                MemberKind::Group {
                    dimension_type,
                    block_length,
                    body,
                } => {
                    let at = self.variable_start(&mut variable, &mut offset, declared_block);
                    self.group(m, dimension_type, *block_length, body, at, out, &child_path);
                }
                MemberKind::Data { type_name } => {
                    let at = self.variable_start(&mut variable, &mut offset, declared_block);
                    self.data(m, type_name, at, out);
                }
            }
        }
        offset
    }

    /// The offset of a group or data: the end of the block for the first, -1 after it.
    pub(crate) fn variable_start(
        &self,
        variable: &mut bool,
        offset: &mut i32,
        declared_block: Option<i32>,
    ) -> i32 {
        if *variable {
            return VARIABLE;
        }
        *variable = true;
        if let Some(d) = declared_block {
            *offset = (*offset).max(d);
        }
        *offset
    }

    /// Emits a field; returns its encoded length.
    pub(crate) fn field(
        &mut self,
        m: &Member,
        type_name: &str,
        offset: i32,
        out: &mut Vec<Token>,
    ) -> i32 {
        let Some(td) = self.resolve(type_name) else {
            self.sink.error(
                rules::UNKNOWN_TYPE,
                Some(&m.meta.loc),
                format!("field '{}' has unknown type '{type_name}'", m.meta.name),
            );
            return 0;
        };
        let td = td.into_owned();
        let type_meta = td.meta().clone();
        if let (Some(f), Some(t)) = (&m.meta.semantic_type, &type_meta.semantic_type) {
            if f != t {
                self.sink.error(
                    rules::SEMANTIC_TYPE,
                    Some(&m.meta.loc),
                    format!(
                        "field '{}' has semanticType '{f}' but its type '{}' has '{t}'",
                        m.meta.name, type_meta.name
                    ),
                );
            }
        }
        let start = out.len();
        let mut begin = member_begin(Signal::BeginField, m, offset);
        // A field cannot be on the wire before its type is.
        begin.version = begin.version.max(type_meta.since_version);
        begin.encoding.epoch = m.epoch.clone();
        begin.encoding.time_unit = m.time_unit.clone();
        out.push(begin);
        let ctx = Ctx::of(m);

        let type_presence = match &td {
            TypeDef::Encoded(t) => t.presence,
            TypeDef::Enum(v) => v.presence,
            _ => Presence::Required,
        };
        let presence = m.presence.unwrap_or(type_presence);
        if presence == Presence::Constant {
            if let Some(value_ref) = &m.value_ref {
                // As the reference: the field token carries the valueRef text, typed char.
                out[start].encoding.const_value =
                    Some(PrimitiveValue::Bytes(value_ref.as_bytes().to_vec()));
                out[start].encoding.primitive_type = Some(PrimitiveType::Char);
            }
        }
        let mut length = 0;
        match &td {
            TypeDef::Encoded(t) => {
                let mut referenced = None;
                if presence == Presence::Constant {
                    match &m.value_ref {
                        Some(value_ref) if self.check_value_ref(m, value_ref, None) => {
                            referenced = self.value_ref_value(value_ref);
                        }
                        Some(_) => {}
                        None if t.presence != Presence::Constant => self.sink.error(
                            rules::CONSTANT_WITHOUT_VALUE,
                            Some(&m.meta.loc),
                            format!("field '{}' is constant but neither it (valueRef) nor its type gives a value", m.meta.name),
                        ),
                        None => {}
                    }
                }
                if t.length == 0 {
                    self.sink.error(
                        rules::VAR_DATA_ENCODING,
                        Some(&m.meta.loc),
                        format!(
                            "field '{}' has variable-length type '{}'; use <data> for var data",
                            m.meta.name, t.meta.name
                        ),
                    );
                }
                let semantic = t
                    .meta
                    .semantic_type
                    .clone()
                    .or_else(|| m.meta.semantic_type.clone());
                let version = stamped(t.meta.since_version, Some(&ctx));
                let mut tok = self.encoding_token(t, offset, presence, version, semantic, Some(m));
                if presence == Presence::Constant {
                    tok.encoded_length = 0;
                    // A valueRef names an enum value: the constant is that value's encoding.
                    if referenced.is_some() {
                        tok.encoding.const_value = referenced;
                    }
                }
                length = tok.encoded_length;
                out.push(tok);
            }
            TypeDef::Enum(v) => {
                if presence == Presence::Constant {
                    match &m.value_ref {
                        Some(value_ref) => {
                            self.check_value_ref(m, value_ref, Some(&v.meta.name));
                        }
                        None => self.sink.error(
                            rules::CONSTANT_WITHOUT_VALUE,
                            Some(&m.meta.loc),
                            format!("constant enum field '{}' needs a valueRef", m.meta.name),
                        ),
                    }
                }
                // The enum's own tokens keep the enum's presence; the field token carries the field's.
                if let Some(e) =
                    self.valued_tokens(v, Signal::BeginEnum, offset, v.presence, Some(&ctx), out)
                {
                    length = if presence == Presence::Constant { 0 } else { e };
                }
            }
            TypeDef::Set(v) => {
                if let Some(e) = self.valued_tokens(
                    v,
                    Signal::BeginSet,
                    offset,
                    Presence::Required,
                    Some(&ctx),
                    out,
                ) {
                    length = e;
                }
            }
            TypeDef::Composite(c) => {
                self.stack.clear();
                if let Some(e) = self.composite_tokens(c, offset, Some(&ctx), out) {
                    if e == VARIABLE {
                        self.sink.error(
                            rules::VAR_DATA_ENCODING,
                            Some(&m.meta.loc),
                            format!("field '{}' has variable-length composite '{}'; use <data> for var data", m.meta.name, c.meta.name),
                        );
                    }
                    length = e.max(0);
                }
            }
            TypeDef::Ref(_) => {}
        }
        let first = &mut out[start];
        first.encoded_length = length;
        first.encoding.presence = presence;
        close(out, start, Signal::EndField);
        length
    }

    /// The value of the enum value `Enum.Value` names, in the enum's encoding.
    pub(crate) fn value_ref_value(&self, value_ref: &str) -> Option<PrimitiveValue> {
        let (enum_name, value) = value_ref.split_once('.')?;
        let Some(TypeDef::Enum(v)) = self.schema.types.get(enum_name) else {
            return None;
        };
        let primitive = match self.resolve(&v.encoding_type).as_deref() {
            Some(TypeDef::Encoded(t)) => t.primitive,
            _ => return None,
        };
        let text = &v.values.iter().find(|x| x.meta.name == value)?.text;
        parse_valid_value(text, primitive)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn group(
        &mut self,
        m: &Member,
        dimension_type: &str,
        declared: Option<i32>,
        body: &[Member],
        offset: i32,
        out: &mut Vec<Token>,
        path: &str,
    ) {
        let start = out.len();
        out.push(member_begin(Signal::BeginGroup, m, offset));
        match self.resolve(dimension_type).as_deref().cloned() {
            Some(TypeDef::Composite(c)) => {
                self.check_member_int(
                    &c,
                    "blockLength",
                    Some(PrimitiveType::Uint16),
                    rules::GROUP_DIMENSIONS,
                );
                if let Some(n) =
                    self.check_member_int(&c, "numInGroup", None, rules::GROUP_DIMENSIONS)
                {
                    self.check_num_in_group(&c, &n);
                }
                self.stack.clear();
                self.composite_tokens(&c, 0, Some(&Ctx::of(m)), out);
            }
            Some(_) => self.sink.error(
                rules::GROUP_DIMENSIONS,
                Some(&m.meta.loc),
                format!(
                    "group '{}' has dimensionType '{dimension_type}', which is not a composite",
                    m.meta.name
                ),
            ),
            None => self.sink.error(
                rules::GROUP_DIMENSIONS,
                Some(&m.meta.loc),
                format!(
                    "group '{}' needs dimension composite '{dimension_type}', which is not defined",
                    m.meta.name
                ),
            ),
        }
        let computed = self.body(body, declared, out, path);
        out[start].encoded_length = self.block_length(&m.meta, declared, computed);
        close(out, start, Signal::EndGroup);
    }

    pub(crate) fn data(&mut self, m: &Member, type_name: &str, offset: i32, out: &mut Vec<Token>) {
        let start = out.len();
        out.push(member_begin(Signal::BeginVarData, m, offset));
        match self.resolve(type_name).as_deref().cloned() {
            Some(TypeDef::Composite(c)) => {
                let length = self.check_member_int(&c, "length", None, rules::VAR_DATA_ENCODING);
                if length.is_some_and(|l| !l.primitive.is_unsigned_int()) {
                    self.sink.error(
                        rules::VAR_DATA_ENCODING,
                        Some(&c.meta.loc),
                        format!(
                            "'length' of var data encoding '{}' must be unsigned",
                            c.meta.name
                        ),
                    );
                }
                let var_data = c
                    .members
                    .iter()
                    .position(|x| x.meta().name == "varData" && matches!(x, TypeDef::Encoded(_)));
                let Some(var_data) = var_data else {
                    self.sink.error(
                        rules::VAR_DATA_ENCODING,
                        Some(&c.meta.loc),
                        format!(
                            "var data encoding '{}' needs a <type> member 'varData'",
                            c.meta.name
                        ),
                    );
                    close(out, start, Signal::EndVarData);
                    return;
                };
                // Pre-1.0 schemas omit length="0" on varData; its place makes it var data anyway.
                let mut c = c;
                if let TypeDef::Encoded(t) = &mut c.members[var_data] {
                    t.length = 0;
                }
                self.stack.clear();
                self.composite_tokens(&c, offset, Some(&Ctx::of(m)), out);
            }
            Some(_) => self.sink.error(
                rules::VAR_DATA_ENCODING,
                Some(&m.meta.loc),
                format!(
                    "data '{}' has type '{type_name}', which is not a length + varData composite",
                    m.meta.name
                ),
            ),
            None => self.sink.error(
                rules::UNKNOWN_TYPE,
                Some(&m.meta.loc),
                format!("data '{}' has unknown type '{type_name}'", m.meta.name),
            ),
        }
        close(out, start, Signal::EndVarData);
    }

    // ----- type tokens -----------------------------------------------------------------

    /// An `Encoding` token for a `<type>`, stamped with `version` and `semantic_type`.
    pub(crate) fn encoding_token(
        &self,
        t: &Encoded,
        offset: i32,
        presence: Presence,
        version: i32,
        semantic_type: Option<String>,
        field: Option<&Member>,
    ) -> Token {
        let mut tok = Token::new(Signal::Encoding, &t.meta.name);
        tok.description = t.meta.description.clone();
        tok.package_name = t.meta.package.clone();
        tok.version = version;
        tok.deprecated = t.meta.deprecated;
        tok.offset = offset;
        tok.encoded_length = match (t.presence, t.length) {
            (Presence::Constant, _) => 0,
            (_, 0) => VARIABLE,
            // Lengths were bounded when parsed, so this cannot overflow.
            (_, n) => t.primitive.size() as i32 * n as i32,
        };
        let mut e = Encoding {
            presence,
            primitive_type: Some(t.primitive),
            byte_order: self.schema.byte_order,
            character_encoding: t.character_encoding.clone(),
            semantic_type,
            epoch: field.and_then(|f| f.epoch.clone()),
            time_unit: field.and_then(|f| f.time_unit.clone()),
            ..Encoding::default()
        };
        match presence {
            Presence::Required => {
                e.min_value = t.min_value.clone();
                e.max_value = t.max_value.clone();
            }
            Presence::Optional => {
                e.min_value = t.min_value.clone();
                e.max_value = t.max_value.clone();
                e.null_value = t.null_value.clone();
            }
            Presence::Constant => {
                // A constant type defined by valueRef takes the enum value's encoding.
                e.const_value = t
                    .value_ref
                    .as_deref()
                    .and_then(|r| self.value_ref_value(r))
                    .or_else(|| t.const_value.clone());
            }
        }
        tok.encoding = e;
        tok
    }

    /// Tokens of an enum or set, laid out for the field `ctx` if any.
    pub(crate) fn valued_tokens(
        &mut self,
        v: &Valued,
        signal: Signal,
        offset: i32,
        presence: Presence,
        ctx: Option<&Ctx>,
        out: &mut Vec<Token>,
    ) -> Option<i32> {
        let (primitive, named) = self.valued_encoding(v)?;
        let name = v.meta.name.clone();
        let start = out.len();
        let mut begin = Token::new(signal, name);
        begin.description = v.meta.description.clone();
        begin.package_name = v.meta.package.clone();
        begin.version = stamped(v.meta.since_version, ctx);
        begin.deprecated = v.meta.deprecated;
        begin.offset = offset;
        begin.encoded_length = primitive.size() as i32;
        begin.encoding = Encoding {
            presence: if presence == Presence::Constant {
                Presence::Required
            } else {
                presence
            },
            primitive_type: Some(primitive),
            byte_order: self.schema.byte_order,
            semantic_type: v
                .meta
                .semantic_type
                .clone()
                .or_else(|| ctx.and_then(|c| c.semantic.clone())),
            ..Encoding::default()
        };
        if signal == Signal::BeginEnum {
            begin.encoding.null_value = Some(self.enum_null(v, primitive, named.as_ref()));
        }
        out.push(begin);
        let value_signal = if signal == Signal::BeginEnum {
            Signal::ValidValue
        } else {
            Signal::Choice
        };
        for value in &v.values {
            let mut t = Token::new(value_signal, &value.meta.name);
            t.description = value.meta.description.clone();
            t.version = value.meta.since_version;
            t.deprecated = value.meta.deprecated;
            t.encoding.primitive_type = Some(primitive);
            t.encoding.byte_order = self.schema.byte_order;
            t.encoding.const_value = if signal == Signal::BeginEnum {
                parse_valid_value(&value.text, primitive)
            } else {
                value
                    .text
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .map(PrimitiveValue::UInt)
            };
            out.push(t);
        }
        close(
            out,
            start,
            if signal == Signal::BeginEnum {
                Signal::EndEnum
            } else {
                Signal::EndSet
            },
        );
        Some(primitive.size() as i32)
    }

    /// Tokens of a composite laid out for the field `ctx` (none for the message header);
    /// member offsets are relative to the composite.
    pub(crate) fn composite_tokens(
        &mut self,
        c: &Composite,
        offset: i32,
        ctx: Option<&Ctx>,
        out: &mut Vec<Token>,
    ) -> Option<i32> {
        if self.stack.contains(&c.meta.name) || self.stack.len() > MAX_NESTING {
            self.sink.error(
                rules::CIRCULAR_REF,
                Some(&c.meta.loc),
                format!(
                    "composite '{}' contains itself: {} -> {}",
                    c.meta.name,
                    self.stack.join(" -> "),
                    c.meta.name
                ),
            );
            return None;
        }
        self.stack.push(c.meta.name.clone());
        let start = out.len();
        let mut begin = Token::new(Signal::BeginComposite, &c.meta.name);
        begin.description = c.meta.description.clone();
        begin.package_name = c.meta.package.clone();
        begin.version = stamped(c.meta.since_version, ctx);
        begin.deprecated = c.meta.deprecated;
        begin.offset = offset;
        begin.encoding.semantic_type = c
            .meta
            .semantic_type
            .clone()
            .or_else(|| ctx.and_then(|x| x.semantic.clone()));
        let composite_version = begin.version;
        out.push(begin);
        let mut at = 0i32;
        let mut variable = false;
        for member in &c.members {
            let meta = member.meta();
            if let Some(explicit) = meta.offset {
                if explicit < at {
                    self.sink.error(
                        rules::COMPOSITE_OFFSET,
                        Some(&meta.loc),
                        format!(
                            "member '{}' of composite '{}' has offset {explicit}, overlapping the previous member (next free offset is {at})",
                            meta.name, c.meta.name
                        ),
                    );
                }
                at = explicit;
            }
            let length = self.member_tokens(member, at, ctx, composite_version, out);
            match length {
                Some(VARIABLE) => variable = true,
                Some(n) => at = at.saturating_add(n),
                None => {}
            }
        }
        self.stack.pop();
        let length = if variable { VARIABLE } else { at };
        out[start].encoded_length = length;
        close(out, start, Signal::EndComposite);
        Some(length)
    }

    /// Tokens of one composite member at `offset`; returns its length.
    ///
    /// As in the reference, a primitive member laid out for a field takes the version of its
    /// composite (`composite_version`, already raised to the field's), and one in the message
    /// header its own; primitive members carry no semanticType. Enum, set and composite members
    /// are stamped like a field's type.
    pub(crate) fn member_tokens(
        &mut self,
        member: &TypeDef,
        offset: i32,
        ctx: Option<&Ctx>,
        composite_version: i32,
        out: &mut Vec<Token>,
    ) -> Option<i32> {
        let (target, referenced) = match member {
            TypeDef::Ref(r) => {
                let Some(target) = self.resolve(&r.type_name).map(Cow::into_owned) else {
                    self.sink.error(
                        rules::UNKNOWN_TYPE,
                        Some(&r.meta.loc),
                        format!("ref '{}' names unknown type '{}'", r.meta.name, r.type_name),
                    );
                    return None;
                };
                // The referenced type appears under the ref's name (remembering its own) and,
                // if the ref gives one, with the ref's sinceVersion.
                let mut target = target;
                let type_name = target.meta().name.clone();
                let meta = target.meta_mut();
                meta.name = r.meta.name.clone();
                if r.meta.since_version > 0 {
                    meta.since_version = r.meta.since_version;
                }
                (Cow::Owned(target), Some(type_name))
            }
            other => (Cow::Borrowed(other), None),
        };
        let start = out.len();
        let length = match target.as_ref() {
            TypeDef::Encoded(t) => {
                let version = if ctx.is_some() {
                    composite_version
                } else {
                    t.meta.since_version
                };
                let tok = self.encoding_token(t, offset, t.presence, version, None, None);
                let length = tok.encoded_length;
                out.push(tok);
                Some(length)
            }
            TypeDef::Enum(v) => {
                self.valued_tokens(v, Signal::BeginEnum, offset, v.presence, ctx, out)
            }
            TypeDef::Set(v) => {
                self.valued_tokens(v, Signal::BeginSet, offset, Presence::Required, ctx, out)
            }
            TypeDef::Composite(c) => self.composite_tokens(c, offset, ctx, out),
            // SBE has no refs to refs; `resolve` never returns one.
            TypeDef::Ref(_) => None,
        }?;
        if let Some(type_name) = referenced {
            for i in [start, out.len() - 1] {
                out[i].referenced_name = Some(type_name.clone());
            }
        }
        Some(length)
    }
}

/// The begin token of a field, group or data, with the attributes they share.
fn member_begin(signal: Signal, m: &Member, offset: i32) -> Token {
    let mut t = Token::new(signal, &m.meta.name);
    t.id = m.id;
    t.version = m.meta.since_version;
    t.deprecated = m.meta.deprecated;
    t.offset = offset;
    t.description = m.meta.description.clone();
    t.encoding.semantic_type = m.meta.semantic_type.clone();
    t
}

/// Sets the component token count of the begin token at `start` and appends its end token.
fn close(out: &mut Vec<Token>, start: usize, end_signal: Signal) {
    let count = (out.len() - start + 1) as i32;
    out[start].component_token_count = count;
    let mut end = out[start].clone();
    end.signal = end_signal;
    out.push(end);
}

/// Parses an enum's valid value: one character for `char`, otherwise an integer.
pub(crate) fn parse_valid_value(text: &str, primitive: PrimitiveType) -> Option<PrimitiveValue> {
    if primitive == PrimitiveType::Char {
        let t = if text.trim().is_empty() {
            text
        } else {
            text.trim()
        };
        return (t.len() == 1).then(|| PrimitiveValue::Int(i64::from(t.as_bytes()[0])));
    }
    PrimitiveValue::parse(text, primitive)
}
