//! The message walker.

use crate::plan::{
    BlockPlan, Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, NodeKind, Slot,
    VarDataPlan,
};
use crate::plan::{HotOp, OpCode};
use crate::value::{
    read_fast, read_raw, read_scalar, Array, EnumValue, Origin, Read, SetValue, Value,
};
use sbekit_ir::wire::{self, take, Be, EntryBudget, GroupHeader, Le, Order};
use sbekit_ir::{ByteOrder, PrimitiveType};
use std::marker::PhantomData;

/// Receives the parts of a message as the decoder walks it, in wire order.
///
/// All methods have empty defaults, so a visitor implements only what it needs. Values borrow
/// from the buffer or the plan and live only for the call; nothing is allocated per field.
#[allow(unused_variables)]
pub trait Visitor {
    /// Start of a message.
    fn begin_message(&mut self, message: &MessagePlan, header: &MessageHeader) {}
    /// End of a message.
    fn end_message(&mut self, message: &MessagePlan) {}
    /// A primitive, enum or set value (of a field, or of a member inside a composite).
    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, origin: Origin) {}
    /// Start of a composite-typed field or of a nested composite.
    fn begin_composite(&mut self, node: &FieldNode) {}
    /// End of a composite; `begin` is the node passed to the matching `begin_composite`.
    fn end_composite(&mut self, begin: &FieldNode) {}
    /// Start of a repeating group with `count` entries (0 for a group absent at the acting
    /// version).
    fn begin_group(&mut self, group: &GroupPlan, count: u64) {}
    /// Start of entry `index` of a group.
    fn begin_entry(&mut self, group: &GroupPlan, index: u64) {}
    /// End of entry `index` of a group.
    fn end_entry(&mut self, group: &GroupPlan, index: u64) {}
    /// End of a group.
    fn end_group(&mut self, group: &GroupPlan) {}
    /// A variable-length data field (empty when absent at the acting version).
    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], origin: Origin) {}
}

/// A visitor that ignores everything, for validating or measuring a message.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopVisitor;

impl Visitor for NoopVisitor {}

pub use sbekit_ir::wire::{DecodeError, ErrorKind, Limits};

impl Decoder {
    /// Reads the message header at the start of `buf`.
    pub fn read_header(&self, buf: &[u8]) -> Result<MessageHeader, DecodeError> {
        match self.order {
            ByteOrder::LittleEndian => self.header_in::<Le>(buf),
            ByteOrder::BigEndian => self.header_in::<Be>(buf),
        }
    }

    #[inline(always)]
    fn header_in<O: Order>(&self, buf: &[u8]) -> Result<MessageHeader, DecodeError> {
        let h = &self.header;
        let bytes = take(buf, 0, h.length as u64, "messageHeader")?;
        let get = |s: Slot| {
            bytes
                .get(s.offset..)
                .and_then(|b| wire::read_uint_in::<O>(b, s.ty))
                .unwrap_or(0)
        };
        let header = MessageHeader {
            block_length: get(h.block_length),
            template_id: get(h.template_id),
            schema_id: get(h.schema_id),
            version: get(h.version),
        };
        if h.has_constants {
            return Ok(self.with_header_constants(header));
        }
        Ok(header)
    }

    /// Constant header fields are not on the wire: their values come from the schema. Rare,
    /// so kept out of line, off the common path.
    #[cold]
    #[inline(never)]
    fn with_header_constants(&self, mut header: MessageHeader) -> MessageHeader {
        let [bl, tid, sid, ver] = self.header.constants;
        header.block_length = bl.unwrap_or(header.block_length);
        header.template_id = tid.unwrap_or(header.template_id);
        header.schema_id = sid.unwrap_or(header.schema_id);
        header.version = ver.unwrap_or(header.version);
        header
    }

    /// Decodes the message (header included) at the start of `buf`, reporting it to `visitor`.
    ///
    /// Returns the message's length in bytes; bytes after it are not looked at. Errors carry
    /// offsets from the start of `buf`. The header's schema id must be the schema's.
    pub fn decode<V: Visitor>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        match self.order {
            ByteOrder::LittleEndian => self.decode_in::<Le, V>(buf, visitor),
            ByteOrder::BigEndian => self.decode_in::<Be, V>(buf, visitor),
        }
    }

    fn decode_in<O: Order, V: Visitor>(
        &self,
        buf: &[u8],
        visitor: &mut V,
    ) -> Result<usize, DecodeError> {
        let header = self.header_in::<O>(buf)?;
        // A constant schemaId is not on the wire: there is nothing to check.
        if header.schema_id != self.schema_id && self.header.constants[2].is_none() {
            return Err(DecodeError::new(
                self.header.schema_id.offset,
                "",
                ErrorKind::SchemaMismatch {
                    found: header.schema_id,
                    expected: self.schema_id,
                },
            ));
        }
        let Some(message) = self.message_by_id(header.template_id) else {
            return Err(DecodeError::new(
                self.header.template_id.offset,
                "",
                ErrorKind::UnknownTemplate(header.template_id),
            ));
        };
        self.message_in::<O, V>(message, &header, buf, self.header.length, visitor)
    }

    /// Decodes a message body whose header was already read: the root block starts at
    /// `buf[start]`. Returns the offset just past the message.
    pub fn decode_message<V: Visitor>(
        &self,
        message: &MessagePlan,
        header: &MessageHeader,
        buf: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<usize, DecodeError> {
        match self.order {
            ByteOrder::LittleEndian => {
                self.message_in::<Le, V>(message, header, buf, start, visitor)
            }
            ByteOrder::BigEndian => self.message_in::<Be, V>(message, header, buf, start, visitor),
        }
    }

    #[inline(always)]
    fn message_in<O: Order, V: Visitor>(
        &self,
        message: &MessagePlan,
        header: &MessageHeader,
        buf: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<usize, DecodeError> {
        visitor.begin_message(message, header);
        let end = Walk::<V, O>::new(buf, header.version, self.limits, visitor)
            .block(&message.body, start, header.block_length)
            .map_err(|e| e.within(&message.name))?;
        visitor.end_message(message);
        Ok(end)
    }
}

struct Walk<'b, 'v, V, O> {
    buf: &'b [u8],
    order: ByteOrder,
    version: u64,
    /// Empty-block entries the message may still declare.
    budget: EntryBudget,
    visitor: &'v mut V,
    _order: PhantomData<O>,
}

/// Reads a field's integer slot (an enum or a set) of a block.
#[inline(always)]
fn read_slot(bytes: &[u8], s: Slot, order: ByteOrder) -> Option<u64> {
    wire::read_uint(
        bytes.get(s.offset..s.offset.checked_add(s.ty.size())?)?,
        s.ty,
        order,
    )
}

impl<'b, 'v, V: Visitor, O: Order> Walk<'b, 'v, V, O> {
    fn new(buf: &'b [u8], version: u64, limits: Limits, visitor: &'v mut V) -> Self {
        Walk {
            buf,
            order: O::ORDER,
            version,
            budget: EntryBudget::new(limits),
            visitor,
            _order: PhantomData,
        }
    }

    /// Fails if a block is shorter than the fields present at the acting version need.
    #[inline(always)]
    fn check_block(
        &self,
        plan: &BlockPlan,
        start: usize,
        block_length: u64,
    ) -> Result<(), DecodeError> {
        wire::check_block(&plan.required, self.version, start, block_length)
    }

    /// Walks one block (root or group entry) whose fixed part starts at `start` and is
    /// `block_length` bytes long; returns the offset just past its groups and var data.
    fn block(
        &mut self,
        plan: &BlockPlan,
        start: usize,
        block_length: u64,
    ) -> Result<usize, DecodeError> {
        self.check_block(plan, start, block_length)?;
        let block = take(self.buf, start, block_length, "")?;
        self.fields(plan, block, start)?;
        // `take` succeeded, so this cannot overflow.
        let mut pos = start + block.len();
        for g in &plan.groups {
            pos = self.group(g, pos)?;
        }
        for d in &plan.var_data {
            pos = self.var_data(d, pos)?;
        }
        Ok(pos)
    }

    /// The hot loop over a block's fields: wire values through the compiled operations,
    /// everything else (constants, absent fields) through [`Self::node`].
    #[inline]
    fn fields(&mut self, plan: &BlockPlan, block: &[u8], start: usize) -> Result<(), DecodeError> {
        // Each scalar arm reads with its type fixed, so `read_fast` folds to one load.
        macro_rules! scalar {
            ($op:ident, $node:ident, $r:expr) => {{
                let b = self.range(block, start, $op, $node)?;
                self.visitor
                    .on_value($node, read_fast::<O>($r, b), Origin::Wire);
            }};
        }
        let version = self.version;
        for node in &plan.fields {
            let op = &node.op;
            if op.since > version {
                self.node(&plan.fields, node, block, start)?;
                continue;
            }
            match op.code {
                OpCode::Char => scalar!(op, node, Read::Char),
                OpCode::I8 => scalar!(op, node, Read::I8),
                OpCode::U8 => scalar!(op, node, Read::U8),
                OpCode::I16 => scalar!(op, node, Read::I16),
                OpCode::U16 => scalar!(op, node, Read::U16),
                OpCode::I32 => scalar!(op, node, Read::I32),
                OpCode::U32 => scalar!(op, node, Read::U32),
                OpCode::I64 => scalar!(op, node, Read::I64),
                OpCode::U64 => scalar!(op, node, Read::U64),
                OpCode::F32 => scalar!(op, node, Read::F32),
                OpCode::F64 => scalar!(op, node, Read::F64),
                OpCode::Chars => {
                    let b = self.range(block, start, op, node)?;
                    self.visitor.on_value(node, Value::Chars(b), Origin::Wire);
                }
                OpCode::Array(ty) => {
                    let b = self.range(block, start, op, node)?;
                    let a = Array {
                        bytes: b,
                        ty,
                        order: O::ORDER,
                    };
                    self.visitor.on_value(node, Value::Array(a), Origin::Wire);
                }
                OpCode::Enum(r) => {
                    let b = self.range(block, start, op, node)?;
                    let raw = read_raw::<O>(r, b) as i64;
                    let name = match &node.kind {
                        NodeKind::Enum(e) => e.lookup(raw),
                        _ => None,
                    }
                    .map(|v| v.0.as_str());
                    let value = Value::Enum(EnumValue { raw, name });
                    self.visitor.on_value(node, value, Origin::Wire);
                }
                OpCode::Set(r) => {
                    let b = self.range(block, start, op, node)?;
                    let raw = read_raw::<O>(r, b);
                    if let NodeKind::Set(st) = &node.kind {
                        let value = Value::Set(SetValue {
                            raw,
                            choices: &st.choices,
                        });
                        self.visitor.on_value(node, value, Origin::Wire);
                    }
                }
                OpCode::ConstScalar => {
                    if let NodeKind::Primitive(p) = &node.kind {
                        if let Some(v) = p.const_scalar {
                            self.visitor.on_value(node, v, Origin::Constant);
                        }
                    }
                }
                OpCode::ConstEnum => {
                    if let NodeKind::Enum(e) = &node.kind {
                        if let Some((name, raw)) = e.constant.and_then(|c| e.values.get(c)) {
                            let value = Value::Enum(EnumValue {
                                raw: *raw,
                                name: Some(name),
                            });
                            self.visitor.on_value(node, value, Origin::Constant);
                        }
                    }
                }
                OpCode::BeginComposite => self.visitor.begin_composite(node),
                OpCode::EndComposite(begin) => self
                    .visitor
                    .end_composite(plan.fields.get(begin).unwrap_or(node)),
                OpCode::Other => self.node(&plan.fields, node, block, start)?,
            }
        }
        Ok(())
    }

    /// The bytes of a wire field; the block-length check makes a failure here impossible for
    /// consistent IR, so the error is built out of line.
    #[inline(always)]
    fn range<'a>(
        &self,
        block: &'a [u8],
        start: usize,
        op: &HotOp,
        node: &FieldNode,
    ) -> Result<&'a [u8], DecodeError> {
        match block.get(op.start..op.end) {
            Some(b) => Ok(b),
            None => Err(self.short(start, op.start, op.end.saturating_sub(op.start), node)),
        }
    }

    /// One node the general way: constants, absent fields and anything unusual.
    #[cold]
    fn node(
        &mut self,
        nodes: &[FieldNode],
        node: &FieldNode,
        block: &[u8],
        start: usize,
    ) -> Result<(), DecodeError> {
        {
            let present = node.since_version <= self.version;
            match &node.kind {
                NodeKind::Primitive(p) => {
                    let (bytes, origin) = if let Some(c) = &p.constant {
                        (&c[..], Origin::Constant)
                    } else if present {
                        let size = p.slot.ty.size().saturating_mul(p.length);
                        let b = p
                            .slot
                            .offset
                            .checked_add(size)
                            .and_then(|end| block.get(p.slot.offset..end))
                            .ok_or_else(|| self.short(start, p.slot.offset, size, node))?;
                        (b, Origin::Wire)
                    } else {
                        (&p.absent[..], Origin::Absent)
                    };
                    let value = if p.slot.ty == PrimitiveType::Char
                        && (p.length != 1 || bytes.len() != 1)
                    {
                        Value::Chars(bytes)
                    } else if p.length > 1 {
                        Value::Array(Array {
                            bytes,
                            ty: p.slot.ty,
                            order: self.order,
                        })
                    } else {
                        // Constants of the wrong size (malformed IR) degrade to the null value.
                        bytes
                            .get(..p.slot.ty.size())
                            .and_then(|b| read_scalar(b, p.slot.ty, self.order))
                            .unwrap_or(Value::UInt(0))
                    };
                    self.visitor.on_value(node, value, origin);
                }
                NodeKind::Enum(e) => {
                    let (raw, origin) = if let Some(c) = e.constant {
                        (
                            e.values.get(c).map_or(e.null_raw, |v| v.1),
                            Origin::Constant,
                        )
                    } else if present {
                        let raw = self.read_block_uint(block, start, e.slot, node)?;
                        (raw as i64, Origin::Wire)
                    } else {
                        (e.null_raw, Origin::Absent)
                    };
                    let name = match e.constant {
                        Some(c) => e.values.get(c),
                        None => e.lookup(raw),
                    }
                    .map(|v| v.0.as_str());
                    self.visitor
                        .on_value(node, Value::Enum(EnumValue { raw, name }), origin);
                }
                NodeKind::Set(s) => {
                    let (raw, origin) = if present {
                        (
                            self.read_block_uint(block, start, s.slot, node)?,
                            Origin::Wire,
                        )
                    } else {
                        (0, Origin::Absent)
                    };
                    let value = Value::Set(SetValue {
                        raw,
                        choices: &s.choices,
                    });
                    self.visitor.on_value(node, value, origin);
                }
                NodeKind::BeginComposite { .. } => self.visitor.begin_composite(node),
                NodeKind::EndComposite { begin } => {
                    // Report the begin node again so visitors see the same node twice.
                    self.visitor
                        .end_composite(nodes.get(*begin).unwrap_or(node));
                }
            }
        }
        Ok(())
    }

    fn read_block_uint(
        &self,
        block: &[u8],
        start: usize,
        slot: Slot,
        node: &FieldNode,
    ) -> Result<u64, DecodeError> {
        read_slot(block, slot, self.order)
            .ok_or_else(|| self.short(start, slot.offset, slot.ty.size(), node))
    }

    #[cold]
    /// A field reaching past its block; `required_length` normally rules this out, so this only
    /// fires for IR whose offsets disagree with its block lengths.
    fn short(&self, start: usize, offset: usize, size: usize, node: &FieldNode) -> DecodeError {
        let at = start.saturating_add(offset);
        DecodeError::new(
            at,
            &node.name,
            ErrorKind::Truncated {
                needed: size as u64,
                available: self.buf.len().saturating_sub(at),
            },
        )
    }

    fn group(&mut self, g: &GroupPlan, pos: usize) -> Result<usize, DecodeError> {
        if g.since_version > self.version {
            self.visitor.begin_group(g, 0);
            self.visitor.end_group(g);
            return Ok(pos);
        }
        // The count is bounded by the bytes left, and empty entries by the budget.
        let GroupHeader {
            block_length,
            count,
            entries: mut pos,
        } = wire::read_group::<O>(self.buf, pos, &g.dimension, &mut self.budget, &g.name)?;
        self.visitor.begin_group(g, count);
        if g.body.groups.is_empty() && g.body.var_data.is_empty() && count > 0 {
            // Entries that are only a fixed block (the common case): check the block length
            // once and walk the fields without the general per-block machinery. The count check
            // above guarantees every entry's block is in the buffer.
            self.check_block(&g.body, pos, block_length)
                .map_err(|e| e.within(format_args!("{}[0]", g.name)))?;
            let len = block_length as usize;
            for index in 0..count {
                self.visitor.begin_entry(g, index);
                let block = take(self.buf, pos, block_length, "")
                    .map_err(|e| e.within(format_args!("{}[{index}]", g.name)))?;
                self.fields(&g.body, block, pos)
                    .map_err(|e| e.within(format_args!("{}[{index}]", g.name)))?;
                pos += len;
                self.visitor.end_entry(g, index);
            }
        } else {
            for index in 0..count {
                self.visitor.begin_entry(g, index);
                pos = self
                    .block(&g.body, pos, block_length)
                    .map_err(|e| e.within(format_args!("{}[{index}]", g.name)))?;
                self.visitor.end_entry(g, index);
            }
        }
        self.visitor.end_group(g);
        Ok(pos)
    }

    fn var_data(&mut self, d: &VarDataPlan, pos: usize) -> Result<usize, DecodeError> {
        if d.since_version > self.version {
            self.visitor.on_var_data(d, &[], Origin::Absent);
            return Ok(pos);
        }
        let (data, end) = wire::read_var_data::<O>(self.buf, pos, &d.slots, &d.name)?;
        self.visitor.on_var_data(d, data, Origin::Wire);
        Ok(end)
    }
}
