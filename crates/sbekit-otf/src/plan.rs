//! Decoding plans: the IR of each message compiled once into a tree with resolved offsets,
//! sizes, enum and set tables, constants and null values, so that walking a message does no
//! name lookups, no token scanning and no allocation.

use crate::value::{read_scalar, Value};
use sbekit_ir::{
    split_components, ByteOrder, Ir, IrError, Presence, PrimitiveType, PrimitiveValue, Signal,
    Token,
};

/// Where a primitive sits: its offset (from the start of its block or composite) and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Byte offset.
    pub offset: usize,
    /// Primitive type.
    pub ty: PrimitiveType,
}

/// The message header's layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderPlan {
    /// Size of the header in bytes.
    pub length: usize,
    /// The `blockLength` field.
    pub block_length: Slot,
    /// The `templateId` field.
    pub template_id: Slot,
    /// The `schemaId` field.
    pub schema_id: Slot,
    /// The `version` field.
    pub version: Slot,
}

/// A decoded message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageHeader {
    /// Root block length written by the encoder (the acting block length).
    pub block_length: u64,
    /// Template id of the message.
    pub template_id: u64,
    /// Schema id.
    pub schema_id: u64,
    /// Schema version the encoder used (the acting version).
    pub version: u64,
}

/// One message's plan.
#[derive(Debug, Clone, PartialEq)]
pub struct MessagePlan {
    /// Message name.
    pub name: String,
    /// Template id.
    pub id: u64,
    /// Block length in the schema (the reader's view).
    pub block_length: usize,
    /// Fields, groups and var data.
    pub body: BlockPlan,
}

/// The plan of a message body or of one group entry.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockPlan {
    /// Fixed-block fields, flattened: composites appear as begin/end nodes around their members.
    pub fields: Vec<FieldNode>,
    /// Repeating groups, in order.
    pub groups: Vec<GroupPlan>,
    /// Variable-length data fields, in order.
    pub var_data: Vec<VarDataPlan>,
    /// For each distinct `sinceVersion` v (ascending): the block length that fields of versions
    /// up to v need. A message whose acting block length is shorter is malformed.
    pub(crate) required: Vec<(u64, usize)>,
}

/// How to read one primitive from the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Read {
    Char,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Read {
    pub(crate) fn of(ty: PrimitiveType) -> Option<Read> {
        Some(match ty {
            PrimitiveType::Char => Read::Char,
            PrimitiveType::Int8 => Read::I8,
            PrimitiveType::Uint8 => Read::U8,
            PrimitiveType::Int16 => Read::I16,
            PrimitiveType::Uint16 => Read::U16,
            PrimitiveType::Int32 => Read::I32,
            PrimitiveType::Uint32 => Read::U32,
            PrimitiveType::Int64 => Read::I64,
            PrimitiveType::Uint64 => Read::U64,
            PrimitiveType::Float => Read::F32,
            PrimitiveType::Double => Read::F64,
            PrimitiveType::None => return None,
        })
    }
}

/// A field node reduced to what the walker's hot loop needs; `start..end` is the node's byte
/// range in its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HotOp {
    pub(crate) since: u64,
    pub(crate) code: OpCode,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpCode {
    // Scalars read from the wire, one variant per type so the walker dispatches once.
    Char,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// A char array.
    Chars,
    /// A numeric array of this element type.
    Array(PrimitiveType),
    /// An enum read from the wire.
    Enum(Read),
    /// A set read from the wire.
    Set(Read),
    /// A scalar constant (precomputed in the node).
    ConstScalar,
    /// An enum constant (`valueRef`).
    ConstEnum,
    /// A char-array constant, or a node the general (slow) path handles.
    Other,
    BeginComposite,
    EndComposite(usize),
}

impl OpCode {
    fn scalar(r: Read) -> OpCode {
        match r {
            Read::Char => OpCode::Char,
            Read::I8 => OpCode::I8,
            Read::U8 => OpCode::U8,
            Read::I16 => OpCode::I16,
            Read::U16 => OpCode::U16,
            Read::I32 => OpCode::I32,
            Read::U32 => OpCode::U32,
            Read::I64 => OpCode::I64,
            Read::U64 => OpCode::U64,
            Read::F32 => OpCode::F32,
            Read::F64 => OpCode::F64,
        }
    }
}

impl HotOp {
    const PLACEHOLDER: HotOp = HotOp {
        since: 0,
        code: OpCode::Other,
        start: 0,
        end: 0,
    };
}

fn compile_ops(fields: &mut [FieldNode]) {
    for n in fields.iter_mut() {
        n.op = {
            let range = |slot: Slot, len: usize| {
                (
                    slot.offset,
                    slot.offset
                        .saturating_add(slot.ty.size().saturating_mul(len)),
                )
            };
            let (code, (start, end)) = match &n.kind {
                NodeKind::Primitive(p) if p.constant.is_none() => {
                    let code = match Read::of(p.slot.ty) {
                        Some(Read::Char) if p.length != 1 => OpCode::Chars,
                        Some(_) if p.length != 1 => OpCode::Array(p.slot.ty),
                        Some(r) => OpCode::scalar(r),
                        None => OpCode::Other,
                    };
                    (code, range(p.slot, p.length))
                }
                NodeKind::Primitive(p) if p.const_scalar.is_some() => (OpCode::ConstScalar, (0, 0)),
                NodeKind::Enum(e) if e.constant.is_some() => (OpCode::ConstEnum, (0, 0)),
                NodeKind::Enum(e) if e.constant.is_none() => (
                    Read::of(e.slot.ty).map_or(OpCode::Other, OpCode::Enum),
                    range(e.slot, 1),
                ),
                NodeKind::Set(st) => (
                    Read::of(st.slot.ty).map_or(OpCode::Other, OpCode::Set),
                    range(st.slot, 1),
                ),
                NodeKind::BeginComposite { .. } => (OpCode::BeginComposite, (0, 0)),
                NodeKind::EndComposite { begin } => (OpCode::EndComposite(*begin), (0, 0)),
                _ => (OpCode::Other, (0, 0)),
            };
            HotOp {
                since: n.since_version,
                code,
                start,
                end,
            }
        };
    }
}

impl BlockPlan {
    /// Block bytes the fields present at `acting_version` occupy.
    #[inline]
    pub fn required_length(&self, acting_version: u64) -> usize {
        // Usually the acting version knows every field.
        if let Some(&(v, len)) = self.required.last() {
            if v <= acting_version {
                return len;
            }
        }
        self.required
            .iter()
            .take_while(|(v, _)| *v <= acting_version)
            .last()
            .map_or(0, |&(_, len)| len)
    }
}

/// One node of a fixed block: a primitive, enum or set value, or a composite's start or end.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldNode {
    /// The field's name at message/group level; the member's name inside a composite (the name
    /// the reference JSON printer uses).
    pub name: String,
    /// Field id (`-1` for composite members).
    pub id: i32,
    /// Effective `sinceVersion` (the larger of the field's and the member's).
    pub since_version: u64,
    /// Nesting depth inside composites (0 for a field of the block itself).
    pub depth: u32,
    /// What the node is.
    pub kind: NodeKind,
    /// The node compiled for the walker's hot loop (kept inline so the loop reads one array).
    pub(crate) op: HotOp,
}

/// The kind of a [`FieldNode`].
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A primitive scalar or fixed array.
    Primitive(PrimitiveNode),
    /// An enum.
    Enum(EnumNode),
    /// A bit set.
    Set(SetNode),
    /// Start of a composite; `end` is the index of its [`NodeKind::EndComposite`] in the block.
    BeginComposite {
        /// Index of the matching end node.
        end: usize,
    },
    /// End of a composite; `begin` is the index of its [`NodeKind::BeginComposite`].
    EndComposite {
        /// Index of the matching begin node.
        begin: usize,
    },
}

/// A primitive scalar or array.
#[derive(Debug, Clone, PartialEq)]
pub struct PrimitiveNode {
    /// Offset and element type.
    pub slot: Slot,
    /// Number of elements (1 for a scalar).
    pub length: usize,
    /// Required, optional or constant.
    pub presence: Presence,
    /// Character encoding of char data, if given.
    pub character_encoding: Option<String>,
    /// The null value the schema gives (explicit or the type's default).
    pub null_value: PrimitiveValue,
    /// The constant's bytes in wire order (constants only).
    pub(crate) constant: Option<Box<[u8]>>,
    /// A scalar constant's value, decoded once.
    pub(crate) const_scalar: Option<Value<'static>>,
    /// `length` null values in wire order, reported for absent fields.
    pub(crate) absent: Box<[u8]>,
}

/// An enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumNode {
    /// Offset and encoding type.
    pub slot: Slot,
    /// Type name of the enum.
    pub type_name: String,
    /// Valid values: name and raw value.
    pub values: Vec<(String, i64)>,
    /// The raw null value.
    pub null_raw: i64,
    /// For a constant field (`valueRef`): the index of the valid value it names.
    pub constant: Option<usize>,
    /// For one-byte enums: the index of the valid value for each raw byte (`u8::MAX`: none),
    /// so the walker finds names without scanning.
    pub(crate) by_byte: Option<Box<[u8; 256]>>,
}

impl EnumNode {
    /// The valid value (name, raw) whose raw value is `raw`.
    #[inline]
    pub fn lookup(&self, raw: i64) -> Option<&(String, i64)> {
        match &self.by_byte {
            Some(table) => {
                let i = *table.get(usize::try_from(raw).ok()?)?;
                self.values.get(usize::from(i))
            }
            None => self.values.iter().find(|v| v.1 == raw),
        }
    }
}

/// One choice of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Choice name.
    pub name: String,
    /// Bit position.
    pub bit: u32,
}

/// A bit set.
#[derive(Debug, Clone, PartialEq)]
pub struct SetNode {
    /// Offset and encoding type.
    pub slot: Slot,
    /// Type name of the set.
    pub type_name: String,
    /// The choices in schema order.
    pub choices: Vec<Choice>,
}

/// A repeating group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupPlan {
    /// Group name.
    pub name: String,
    /// Group id.
    pub id: i32,
    /// `sinceVersion`.
    pub since_version: u64,
    /// Size of the dimension composite.
    pub dimension_length: usize,
    /// `blockLength` in the dimension composite.
    pub block_length_slot: Slot,
    /// `numInGroup` in the dimension composite.
    pub count_slot: Slot,
    /// Entry block length in the schema.
    pub block_length: usize,
    /// The entry's fields, nested groups and var data.
    pub body: BlockPlan,
}

/// A variable-length data field.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDataPlan {
    /// Field name.
    pub name: String,
    /// Field id.
    pub id: i32,
    /// `sinceVersion`.
    pub since_version: u64,
    /// The length prefix.
    pub length_slot: Slot,
    /// Offset of the data from the start of the length prefix.
    pub data_offset: usize,
    /// Character encoding of the data; `None` for raw bytes.
    pub character_encoding: Option<String>,
}

/// An IR schema compiled for on-the-fly decoding.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoder {
    pub(crate) order: ByteOrder,
    pub(crate) schema_id: u64,
    pub(crate) schema_version: u64,
    pub(crate) header: HeaderPlan,
    pub(crate) messages: Vec<MessagePlan>,
    /// (template id, index into `messages`), sorted by id.
    pub(crate) by_id: Vec<(u64, usize)>,
    /// Index into `messages` by template id (`u32::MAX`: none), when the ids are small.
    pub(crate) dense: Vec<u32>,
}

impl Decoder {
    /// Compiles the IR's messages into decoding plans.
    ///
    /// Fails on IR that is structurally inconsistent (bad component counts, a message header
    /// without the standard fields, a group without `numInGroup`, ...).
    pub fn new(ir: &Ir) -> Result<Decoder, IrError> {
        let order = ir.byte_order();
        let hs = ir.header_structure()?;
        let slot = |t: &Token| -> Result<Slot, IrError> {
            Ok(Slot {
                offset: offset_of(t)?,
                ty: t.encoding.primitive(),
            })
        };
        let header = HeaderPlan {
            length: hs.encoded_length,
            block_length: slot(&hs.block_length)?,
            template_id: slot(&hs.template_id)?,
            schema_id: slot(&hs.schema_id)?,
            version: slot(&hs.version)?,
        };
        let mut messages = Vec::with_capacity(ir.messages.len());
        for tokens in &ir.messages {
            let first = tokens
                .first()
                .filter(|t| t.signal == Signal::BeginMessage)
                .ok_or_else(|| malformed("message does not start with BeginMessage"))?;
            let body = tokens
                .get(1..tokens.len().saturating_sub(1))
                .ok_or_else(|| malformed("message too short"))?;
            messages.push(MessagePlan {
                name: first.name.clone(),
                id: u64::try_from(first.id).map_err(|_| malformed("negative template id"))?,
                block_length: usize::try_from(first.encoded_length).unwrap_or(0),
                body: build_block(body, order).map_err(|e| in_ctx(e, &first.name))?,
            });
        }
        let mut by_id: Vec<(u64, usize)> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id, i))
            .collect();
        by_id.sort_unstable();
        // Template ids are usually small: index them directly.
        let mut dense = Vec::new();
        if let Some(&(max, _)) = by_id.last().filter(|(max, _)| *max < 4096) {
            dense = vec![u32::MAX; max as usize + 1];
            for &(id, i) in &by_id {
                if let (Some(slot), Ok(i)) = (dense.get_mut(id as usize), u32::try_from(i)) {
                    *slot = i;
                }
            }
        }
        Ok(Decoder {
            order,
            schema_id: u64::try_from(ir.id).unwrap_or(0),
            schema_version: u64::try_from(ir.version).unwrap_or(0),
            header,
            messages,
            by_id,
            dense,
        })
    }

    /// The schema's byte order.
    pub fn byte_order(&self) -> ByteOrder {
        self.order
    }

    /// The schema id.
    pub fn schema_id(&self) -> u64 {
        self.schema_id
    }

    /// The schema version.
    pub fn schema_version(&self) -> u64 {
        self.schema_version
    }

    /// The message header's layout.
    pub fn header(&self) -> &HeaderPlan {
        &self.header
    }

    /// All message plans, in schema order.
    pub fn messages(&self) -> &[MessagePlan] {
        &self.messages
    }

    /// The plan of the message with template id `id`.
    pub fn message_by_id(&self, id: u64) -> Option<&MessagePlan> {
        if !self.dense.is_empty() {
            let i = *self.dense.get(usize::try_from(id).ok()?)?;
            return self.messages.get(i as usize);
        }
        let i = self.by_id.binary_search_by_key(&id, |&(k, _)| k).ok()?;
        self.by_id.get(i).and_then(|&(_, m)| self.messages.get(m))
    }

    /// The plan of the message called `name`.
    pub fn message_by_name(&self, name: &str) -> Option<&MessagePlan> {
        self.messages.iter().find(|m| m.name == name)
    }
}

fn malformed(msg: impl Into<String>) -> IrError {
    IrError::Malformed(msg.into())
}

fn in_ctx(e: IrError, name: &str) -> IrError {
    match e {
        IrError::Malformed(m) => IrError::Malformed(format!("{name}: {m}")),
        other => other,
    }
}

fn offset_of(t: &Token) -> Result<usize, IrError> {
    usize::try_from(t.offset).map_err(|_| malformed(format!("'{}' has no fixed offset", t.name)))
}

fn version_of(t: &Token) -> u64 {
    u64::try_from(t.version).unwrap_or(0)
}

/// Index just past the component starting at `i`.
fn end_of(tokens: &[Token], i: usize) -> Result<usize, IrError> {
    let t = tokens
        .get(i)
        .ok_or_else(|| malformed("component index out of range"))?;
    usize::try_from(t.component_token_count)
        .ok()
        .filter(|&c| c >= 1)
        .and_then(|c| i.checked_add(c))
        .filter(|&e| e <= tokens.len())
        .ok_or_else(|| malformed(format!("'{}' has a bad component token count", t.name)))
}

fn build_block(body: &[Token], order: ByteOrder) -> Result<BlockPlan, IrError> {
    let parts = split_components(body)?;
    let mut fields = Vec::new();
    let mut required_by_version: Vec<(u64, usize)> = Vec::new();
    let mut i = 0;
    while i < parts.fields.len() {
        let end = end_of(parts.fields, i)?;
        let f = &parts.fields[i];
        let inner = parts
            .fields
            .get(i + 1..end.saturating_sub(1))
            .filter(|s| !s.is_empty())
            .ok_or_else(|| malformed(format!("field '{}' has no type", f.name)))?;
        let field_version = version_of(f);
        let offset = offset_of(f)?;
        build_type(
            inner,
            0,
            offset,
            field_version,
            0,
            Some(f),
            order,
            &mut fields,
        )?;
        if !f.is_constant() {
            let len = usize::try_from(f.encoded_length).unwrap_or(0);
            required_by_version.push((field_version, offset.saturating_add(len)));
        }
        i = end;
    }
    required_by_version.sort_unstable();
    let mut required: Vec<(u64, usize)> = Vec::new();
    for (v, end) in required_by_version {
        let max = required.last().map_or(0, |&(_, m)| m).max(end);
        match required.last_mut() {
            Some(last) if last.0 == v => last.1 = max,
            _ => required.push((v, max)),
        }
    }

    let mut groups = Vec::new();
    let mut i = 0;
    while i < parts.groups.len() {
        let end = end_of(parts.groups, i)?;
        groups.push(build_group(&parts.groups[i..end], order)?);
        i = end;
    }

    let mut var_data = Vec::new();
    let mut i = 0;
    while i < parts.var_data.len() {
        let end = end_of(parts.var_data, i)?;
        var_data.push(build_var_data(&parts.var_data[i..end])?);
        i = end;
    }
    compile_ops(&mut fields);
    Ok(BlockPlan {
        fields,
        groups,
        var_data,
        required,
    })
}

/// Compiles the type component at `tokens[i]` (an encoding, enum, set or composite) placed at
/// absolute block offset `offset`, and returns the index just past it.
#[allow(clippy::too_many_arguments)]
fn build_type(
    tokens: &[Token],
    i: usize,
    offset: usize,
    parent_version: u64,
    depth: u32,
    field: Option<&Token>,
    order: ByteOrder,
    out: &mut Vec<FieldNode>,
) -> Result<usize, IrError> {
    let t = tokens
        .get(i)
        .ok_or_else(|| malformed("missing type token"))?;
    let end = end_of(tokens, i)?;
    // Fields are reported under the field's name; composite members under their own.
    let name = field.map_or(&t.name, |f| &f.name).clone();
    let id = field.map_or(-1, |f| f.id);
    let since_version = parent_version.max(version_of(t));
    let ty = t.encoding.primitive();
    let slot = Slot { offset, ty };
    let field_constant = field.filter(|f| f.is_constant());
    let kind = match t.signal {
        Signal::Encoding => {
            let length = t.array_length();
            let presence = if field_constant.is_some() {
                Presence::Constant
            } else {
                t.encoding.presence
            };
            let constant = if presence == Presence::Constant {
                let v = t
                    .encoding
                    .const_value
                    .as_ref()
                    .or_else(|| field_constant.and_then(|f| f.encoding.const_value.as_ref()))
                    .ok_or_else(|| malformed(format!("constant '{}' has no value", t.name)))?;
                Some(wire_bytes(v, ty, order).into_boxed_slice())
            } else {
                None
            };
            let null_value = t.encoding.applicable_null_value();
            let one = wire_bytes(&null_value, ty, order);
            let absent = one.repeat(length).into_boxed_slice();
            // Scalar constants (not char arrays) are decoded once here.
            let const_scalar = constant
                .as_deref()
                .filter(|c| length == 1 && c.len() == ty.size())
                .and_then(|c| read_scalar(c, ty, order))
                .and_then(owned_scalar);
            NodeKind::Primitive(PrimitiveNode {
                slot,
                length,
                presence,
                character_encoding: t.encoding.character_encoding.clone(),
                null_value,
                constant,
                const_scalar,
                absent,
            })
        }
        Signal::BeginEnum => {
            let mut values = Vec::new();
            for v in tokens.get(i + 1..end.saturating_sub(1)).unwrap_or_default() {
                if v.signal == Signal::ValidValue {
                    let raw = v
                        .encoding
                        .const_value
                        .as_ref()
                        .and_then(raw_of)
                        .ok_or_else(|| {
                            malformed(format!("valid value '{}' has no value", v.name))
                        })?;
                    values.push((v.name.clone(), raw));
                }
            }
            let null_raw = raw_of(&t.encoding.applicable_null_value()).unwrap_or(0);
            let constant = match field_constant.or(t.is_constant().then_some(t)) {
                Some(c) => {
                    let text = c
                        .encoding
                        .const_value
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_default();
                    // A valueRef reads `EnumType.Value`; keep the part after the dot.
                    let wanted = text.rsplit('.').next().unwrap_or_default();
                    Some(
                        values
                            .iter()
                            .position(|(n, _)| n == wanted)
                            .ok_or_else(|| {
                                malformed(format!("constant '{}' names no valid value", c.name))
                            })?,
                    )
                }
                None => None,
            };
            let by_byte = (ty.size() == 1 && values.len() < 255).then(|| {
                let mut table = Box::new([u8::MAX; 256]);
                // Signed bytes are looked up by their sign-extended value, so only 0..=127
                // hit the table; negative raw values fall outside it (and are not found).
                for (i, (_, raw)) in values.iter().enumerate().rev() {
                    if let (Ok(b), Ok(i)) = (usize::try_from(*raw), u8::try_from(i)) {
                        if let Some(slot) = table.get_mut(b) {
                            *slot = i;
                        }
                    }
                }
                table
            });
            // A signed one-byte enum with negative values needs the scan.
            let by_byte = by_byte.filter(|_| values.iter().all(|(_, r)| (0..256).contains(r)));
            NodeKind::Enum(EnumNode {
                slot,
                type_name: t.type_name().to_string(),
                values,
                null_raw,
                constant,
                by_byte,
            })
        }
        Signal::BeginSet => {
            let mut choices = Vec::new();
            for c in tokens.get(i + 1..end.saturating_sub(1)).unwrap_or_default() {
                if c.signal == Signal::Choice {
                    let bit = c
                        .encoding
                        .const_value
                        .as_ref()
                        .and_then(PrimitiveValue::as_u64)
                        .and_then(|b| u32::try_from(b).ok())
                        .ok_or_else(|| malformed(format!("choice '{}' has no bit", c.name)))?;
                    choices.push(Choice {
                        name: c.name.clone(),
                        bit,
                    });
                }
            }
            NodeKind::Set(SetNode {
                slot,
                type_name: t.type_name().to_string(),
                choices,
            })
        }
        Signal::BeginComposite => {
            let begin = out.len();
            out.push(FieldNode {
                name,
                id,
                since_version,
                depth,
                kind: NodeKind::BeginComposite { end: 0 },
                op: HotOp::PLACEHOLDER,
            });
            let mut j = i + 1;
            let last = end.saturating_sub(1);
            while j < last {
                let m = &tokens[j];
                let member_offset = offset.saturating_add(offset_of(m).unwrap_or(0));
                j = build_type(
                    tokens,
                    j,
                    member_offset,
                    since_version,
                    depth + 1,
                    None,
                    order,
                    out,
                )?;
            }
            let end_index = out.len();
            if let Some(NodeKind::BeginComposite { end }) = out.get_mut(begin).map(|n| &mut n.kind)
            {
                *end = end_index;
            }
            out.push(FieldNode {
                name: t.name.clone(),
                id,
                since_version,
                depth,
                kind: NodeKind::EndComposite { begin },
                op: HotOp::PLACEHOLDER,
            });
            return Ok(end);
        }
        other => {
            return Err(malformed(format!(
                "unexpected {other:?} token '{}' in a field",
                t.name
            )))
        }
    };
    out.push(FieldNode {
        name,
        id,
        since_version,
        depth,
        kind,
        op: HotOp::PLACEHOLDER,
    });
    Ok(end)
}

fn build_group(tokens: &[Token], order: ByteOrder) -> Result<GroupPlan, IrError> {
    let g = tokens.first().ok_or_else(|| malformed("empty group"))?;
    let dim_end = end_of(tokens, 1)?;
    let dim = tokens.get(1..dim_end).unwrap_or_default();
    let find = |n: &str| -> Result<Slot, IrError> {
        let t = dim
            .iter()
            .find(|t| t.signal == Signal::Encoding && t.name == n)
            .ok_or_else(|| malformed(format!("group '{}' dimensions have no '{n}'", g.name)))?;
        Ok(Slot {
            offset: offset_of(t)?,
            ty: t.encoding.primitive(),
        })
    };
    let body = tokens
        .get(dim_end..tokens.len().saturating_sub(1))
        .unwrap_or_default();
    Ok(GroupPlan {
        name: g.name.clone(),
        id: g.id,
        since_version: version_of(g),
        dimension_length: dim
            .first()
            .and_then(|d| usize::try_from(d.encoded_length).ok())
            .unwrap_or(0),
        block_length_slot: find("blockLength")?,
        count_slot: find("numInGroup")?,
        block_length: usize::try_from(g.encoded_length).unwrap_or(0),
        body: build_block(body, order).map_err(|e| in_ctx(e, &g.name))?,
    })
}

fn build_var_data(tokens: &[Token]) -> Result<VarDataPlan, IrError> {
    let v = tokens.first().ok_or_else(|| malformed("empty var data"))?;
    let find = |n: &str| {
        tokens
            .iter()
            .find(|t| t.signal == Signal::Encoding && t.name == n)
            .ok_or_else(|| malformed(format!("var data '{}' has no '{n}'", v.name)))
    };
    let length = find("length")?;
    let data = find("varData")?;
    Ok(VarDataPlan {
        name: v.name.clone(),
        id: v.id,
        since_version: version_of(v),
        length_slot: Slot {
            offset: offset_of(length)?,
            ty: length.encoding.primitive(),
        },
        data_offset: offset_of(data)?,
        character_encoding: data.encoding.character_encoding.clone(),
    })
}

/// A scalar value detached from any buffer.
fn owned_scalar(v: Value<'_>) -> Option<Value<'static>> {
    Some(match v {
        Value::Int(i) => Value::Int(i),
        Value::UInt(u) => Value::UInt(u),
        Value::Float(f) => Value::Float(f),
        Value::Double(d) => Value::Double(d),
        Value::Char(c) => Value::Char(c),
        _ => return None,
    })
}

/// A schema value as the wire carries it for type `ty` in byte order `order`.
fn wire_bytes(v: &PrimitiveValue, ty: PrimitiveType, order: ByteOrder) -> Vec<u8> {
    let mut b = v.to_le_bytes(ty);
    if order == ByteOrder::BigEndian && !matches!(v, PrimitiveValue::Bytes(_)) {
        b.reverse();
    }
    b
}

/// An enum's raw value as the decoder compares it (see [`crate::EnumValue::raw`]).
fn raw_of(v: &PrimitiveValue) -> Option<i64> {
    match v {
        PrimitiveValue::UInt(u) => Some(*u as i64),
        other => other.as_i64(),
    }
}
