//! Decoding plans: the IR of each message compiled once into a tree with resolved offsets,
//! sizes, enum and set tables, constants and null values, so that walking a message does no
//! name lookups, no token scanning and no allocation.

use crate::value::{read_scalar, Choice, Read, Value};
use sbekit_ir::layout::{Block, Field, FieldKind, IntSlot, Layout};
use sbekit_ir::wire::{DimensionSlots, Limits, RequiredLengths, VarDataSlots};
use sbekit_ir::{ByteOrder, Ir, IrError, Presence, PrimitiveType, PrimitiveValue};

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
    /// Values of the four fields above that are constants (not on the wire), in that order.
    pub constants: [Option<u64>; 4],
    /// True when any of `constants` is set.
    pub has_constants: bool,
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
    pub(crate) required: RequiredLengths,
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
        self.required.at(acting_version)
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
    /// The dimension composite: its size, `blockLength` and `numInGroup`.
    pub dimension: DimensionSlots,
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
    /// The length prefix and where the data starts.
    pub slots: VarDataSlots,
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
    /// Bounds on the work per message.
    pub(crate) limits: Limits,
}

impl Decoder {
    /// Compiles the IR's messages into decoding plans (through the layout model).
    ///
    /// Fails on IR that is structurally inconsistent (bad component counts, a message header
    /// without the standard fields, a group without `numInGroup`, ...).
    pub fn new(ir: &Ir) -> Result<Decoder, IrError> {
        Self::from_layout(&Layout::from_ir(ir)?)
    }

    /// Compiles a schema's layout into decoding plans.
    pub fn from_layout(layout: &Layout) -> Result<Decoder, IrError> {
        let order = layout.byte_order;
        let h = &layout.header;
        let slot = |s: &IntSlot| Slot {
            offset: s.offset,
            ty: s.ty,
        };
        let constants =
            [&h.block_length, &h.template_id, &h.schema_id, &h.version].map(|s| s.constant);
        let header = HeaderPlan {
            length: h.size,
            block_length: slot(&h.block_length),
            template_id: slot(&h.template_id),
            schema_id: slot(&h.schema_id),
            version: slot(&h.version),
            constants,
            has_constants: constants.iter().any(Option::is_some),
        };
        let plans = Plans { layout, order };
        let mut messages = Vec::with_capacity(layout.messages.len());
        for m in &layout.messages {
            messages.push(MessagePlan {
                name: m.name.clone(),
                id: u64::from(m.id),
                block_length: m.block.block_length,
                body: plans.block(&m.block).map_err(|e| in_ctx(e, &m.name))?,
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
            schema_id: u64::from(layout.id),
            schema_version: u64::from(layout.version),
            header,
            messages,
            by_id,
            dense,
            limits: Limits::default(),
        })
    }

    /// The same decoder with other limits on the work per message.
    pub fn with_limits(mut self, limits: Limits) -> Decoder {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
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

/// Turns the layout's blocks into walker plans.
struct Plans<'a> {
    layout: &'a Layout,
    order: ByteOrder,
}

impl Plans<'_> {
    fn block(&self, b: &Block) -> Result<BlockPlan, IrError> {
        let mut fields = Vec::new();
        for f in &b.fields {
            self.field(f, 0, 0, Some(f.id), &mut fields)?;
        }
        compile_ops(&mut fields);
        let mut groups = Vec::with_capacity(b.groups.len());
        for g in &b.groups {
            groups.push(GroupPlan {
                name: g.name.clone(),
                id: g.id,
                since_version: u64::from(g.since_version),
                dimension: DimensionSlots::from(&g.dimension),
                block_length: g.block.block_length,
                body: self.block(&g.block).map_err(|e| in_ctx(e, &g.name))?,
            });
        }
        let var_data = b
            .var_data
            .iter()
            .map(|d| VarDataPlan {
                name: d.name.clone(),
                id: d.id,
                since_version: u64::from(d.since_version),
                slots: VarDataSlots::from(d),
                character_encoding: d.character_encoding.clone(),
            })
            .collect();
        Ok(BlockPlan {
            fields,
            groups,
            var_data,
            required: b.required.clone(),
        })
    }

    /// Appends the nodes of field or member `f`, placed at block offset `base + f.offset`.
    /// `id` is the field id for a block's field and `None` for a composite member.
    fn field(
        &self,
        f: &Field,
        base: usize,
        depth: u32,
        id: Option<i32>,
        out: &mut Vec<FieldNode>,
    ) -> Result<(), IrError> {
        let order = self.order;
        let offset = base.saturating_add(f.offset);
        let since_version = u64::from(f.since_version);
        let node_id = id.unwrap_or(-1);
        let kind = match &f.kind {
            FieldKind::Primitive(p) => {
                let ty = p.ty;
                let constant = match (&p.constant, f.is_constant()) {
                    (Some(v), true) => Some(wire_bytes(v, ty, order).into_boxed_slice()),
                    (None, true) => {
                        return Err(malformed(format!("constant '{}' has no value", f.name)))
                    }
                    _ => None,
                };
                let absent = wire_bytes(&p.null_value, ty, order)
                    .repeat(p.length)
                    .into_boxed_slice();
                // Scalar constants (not char arrays) are decoded once here.
                let const_scalar = constant
                    .as_deref()
                    .filter(|c| p.length == 1 && c.len() == ty.size())
                    .and_then(|c| read_scalar(c, ty, order))
                    .and_then(owned_scalar);
                NodeKind::Primitive(PrimitiveNode {
                    slot: Slot { offset, ty },
                    length: p.length,
                    presence: f.presence,
                    character_encoding: p.character_encoding.clone(),
                    null_value: p.null_value.clone(),
                    constant,
                    const_scalar,
                    absent,
                })
            }
            FieldKind::Enum { def, constant } => {
                let e = self.layout.enum_def(*def);
                let values: Vec<(String, i64)> = e
                    .values
                    .iter()
                    .map(|v| {
                        raw_of(&v.value)
                            .map(|raw| (v.name.clone(), raw))
                            .ok_or_else(|| {
                                malformed(format!("valid value '{}' is not a number", v.name))
                            })
                    })
                    .collect::<Result<_, _>>()?;
                NodeKind::Enum(EnumNode {
                    slot: Slot {
                        offset,
                        ty: e.encoding,
                    },
                    type_name: e.name.clone(),
                    by_byte: byte_table(e.encoding, &values),
                    values,
                    null_raw: raw_of(&e.null_value).unwrap_or(0),
                    constant: *constant,
                })
            }
            FieldKind::Set { def } => {
                let s = self.layout.set_def(*def);
                NodeKind::Set(SetNode {
                    slot: Slot {
                        offset,
                        ty: s.encoding,
                    },
                    type_name: s.name.clone(),
                    choices: s
                        .choices
                        .iter()
                        .map(|c| Choice {
                            name: c.name.clone(),
                            bit: c.bit,
                        })
                        .collect(),
                })
            }
            FieldKind::Composite { def, members } => {
                let begin = out.len();
                out.push(FieldNode {
                    name: f.name.clone(),
                    id: node_id,
                    since_version,
                    depth,
                    kind: NodeKind::BeginComposite { end: 0 },
                    op: HotOp::PLACEHOLDER,
                });
                for m in members {
                    self.field(m, offset, depth + 1, None, out)?;
                }
                let end_index = out.len();
                if let Some(NodeKind::BeginComposite { end }) =
                    out.get_mut(begin).map(|n| &mut n.kind)
                {
                    *end = end_index;
                }
                // The end node carries the type's name, as the reference's end token does.
                out.push(FieldNode {
                    name: self.layout.composite_def(*def).name.clone(),
                    id: node_id,
                    since_version,
                    depth,
                    kind: NodeKind::EndComposite { begin },
                    op: HotOp::PLACEHOLDER,
                });
                return Ok(());
            }
        };
        out.push(FieldNode {
            name: f.name.clone(),
            id: node_id,
            since_version,
            depth,
            kind,
            op: HotOp::PLACEHOLDER,
        });
        Ok(())
    }
}

/// For one-byte enums: the index of the valid value for each raw byte (`u8::MAX`: none), so the
/// walker finds names without scanning. `None` when a value falls outside `0..256` (a signed
/// enum with negative values needs the scan) or there are too many values to index in a byte.
fn byte_table(ty: PrimitiveType, values: &[(String, i64)]) -> Option<Box<[u8; 256]>> {
    if ty.size() != 1 || values.len() >= 255 || !values.iter().all(|(_, r)| (0..256).contains(r)) {
        return None;
    }
    let mut table = Box::new([u8::MAX; 256]);
    // In reverse, so that the first of two values with one encoding wins.
    for (i, (_, raw)) in values.iter().enumerate().rev() {
        if let (Ok(b), Ok(i)) = (usize::try_from(*raw), u8::try_from(i)) {
            if let Some(slot) = table.get_mut(b) {
                *slot = i;
            }
        }
    }
    Some(table)
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
