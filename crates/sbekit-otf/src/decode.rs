//! The message walker.

use crate::plan::{
    BlockPlan, Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, NodeKind, Slot,
    VarDataPlan,
};
use crate::value::{read_scalar, read_uint, Array, EnumValue, Origin, SetValue, Value};
use sbekit_ir::{ByteOrder, PrimitiveType};
use std::fmt;

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

/// Why a message could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The buffer ends before `needed` bytes could be read at the error's offset.
    Truncated {
        /// Bytes needed from the offset.
        needed: u64,
        /// Bytes available from the offset.
        available: usize,
    },
    /// The header names a template the schema does not have.
    UnknownTemplate(u64),
    /// The header names another schema.
    SchemaMismatch {
        /// Schema id in the header.
        found: u64,
        /// Schema id of the decoder's schema.
        expected: u64,
    },
    /// A block is shorter than the fields present at the acting version need.
    BlockTooShort {
        /// Acting block length from the header or group dimensions.
        block_length: u64,
        /// Bytes the present fields need.
        required: usize,
    },
}

/// A decoding error: where (byte offset from the start of the buffer, and the element path such
/// as `Car.fuelFigures[2].usageDescription`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset, from the start of the decoded buffer, of the element that failed.
    pub offset: usize,
    /// Path of the element that failed (empty when the message header failed).
    pub path: String,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl DecodeError {
    fn new(offset: usize, path: &str, kind: ErrorKind) -> Self {
        DecodeError {
            offset,
            path: path.to_string(),
            kind,
        }
    }

    /// Prefixes the path with an enclosing element (`prefix` may carry an index, `g[2]`).
    fn within(mut self, prefix: impl fmt::Display) -> Self {
        self.path = if self.path.is_empty() {
            prefix.to_string()
        } else {
            format!("{prefix}.{}", self.path)
        };
        self
    }

    /// True if the error is the buffer ending early (more bytes could make it decode).
    pub fn is_truncation(&self) -> bool {
        matches!(self.kind, ErrorKind::Truncated { .. })
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}", self.offset)?;
        if !self.path.is_empty() {
            write!(f, " ({})", self.path)?;
        }
        match &self.kind {
            ErrorKind::Truncated { needed, available } => write!(
                f,
                ": truncated: {needed} bytes needed, {available} available"
            ),
            ErrorKind::UnknownTemplate(id) => write!(f, ": unknown template id {id}"),
            ErrorKind::SchemaMismatch { found, expected } => {
                write!(f, ": schema id {found}, expected {expected}")
            }
            ErrorKind::BlockTooShort {
                block_length,
                required,
            } => write!(
                f,
                ": block length {block_length} is shorter than the {required} bytes its fields need"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

impl Decoder {
    /// Reads the message header at the start of `buf`.
    pub fn read_header(&self, buf: &[u8]) -> Result<MessageHeader, DecodeError> {
        let h = &self.header;
        let bytes = take(buf, 0, h.length as u64, "messageHeader")?;
        let get = |s: Slot| read_slot(bytes, s, self.order).unwrap_or(0);
        Ok(MessageHeader {
            block_length: get(h.block_length),
            template_id: get(h.template_id),
            schema_id: get(h.schema_id),
            version: get(h.version),
        })
    }

    /// Decodes the message (header included) at the start of `buf`, reporting it to `visitor`.
    ///
    /// Returns the message's length in bytes; bytes after it are not looked at. Errors carry
    /// offsets from the start of `buf`. The header's schema id must be the schema's.
    pub fn decode<V: Visitor>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        let header = self.read_header(buf)?;
        if header.schema_id != self.schema_id {
            return Err(DecodeError::new(
                self.header.schema_id.offset,
                "",
                ErrorKind::SchemaMismatch {
                    found: header.schema_id,
                    expected: self.schema_id,
                },
            ));
        }
        let message = self.message_by_id(header.template_id).ok_or_else(|| {
            DecodeError::new(
                self.header.template_id.offset,
                "",
                ErrorKind::UnknownTemplate(header.template_id),
            )
        })?;
        self.decode_message(message, &header, buf, self.header.length, visitor)
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
        let mut walk = Walk {
            buf,
            order: self.order,
            version: header.version,
            visitor,
        };
        walk.visitor.begin_message(message, header);
        let end = walk
            .block(&message.body, start, header.block_length)
            .map_err(|e| e.within(&message.name))?;
        walk.visitor.end_message(message);
        Ok(end)
    }
}

struct Walk<'b, 'v, V> {
    buf: &'b [u8],
    order: ByteOrder,
    version: u64,
    visitor: &'v mut V,
}

/// `n` bytes of `buf` from `at`, or a truncation error naming `path`.
fn take<'b>(buf: &'b [u8], at: usize, n: u64, path: &str) -> Result<&'b [u8], DecodeError> {
    let available = buf.len().saturating_sub(at);
    usize::try_from(n)
        .ok()
        .and_then(|n| at.checked_add(n))
        .and_then(|end| buf.get(at..end))
        .ok_or_else(|| {
            DecodeError::new(
                at,
                path,
                ErrorKind::Truncated {
                    needed: n,
                    available,
                },
            )
        })
}

fn read_slot(bytes: &[u8], s: Slot, order: ByteOrder) -> Option<u64> {
    let b = bytes.get(s.offset..s.offset.checked_add(s.ty.size())?)?;
    read_uint(b, s.ty, order)
}

impl<V: Visitor> Walk<'_, '_, V> {
    /// Walks one block (root or group entry) whose fixed part starts at `start` and is
    /// `block_length` bytes long; returns the offset just past its groups and var data.
    fn block(
        &mut self,
        plan: &BlockPlan,
        start: usize,
        block_length: u64,
    ) -> Result<usize, DecodeError> {
        let required = plan.required_length(self.version);
        if block_length < required as u64 {
            return Err(DecodeError::new(
                start,
                "",
                ErrorKind::BlockTooShort {
                    block_length,
                    required,
                },
            ));
        }
        let block = take(self.buf, start, block_length, "")?;
        self.fields(&plan.fields, block, start)?;
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

    fn fields(
        &mut self,
        nodes: &[FieldNode],
        block: &[u8],
        start: usize,
    ) -> Result<(), DecodeError> {
        let mut i = 0;
        while let Some(node) = nodes.get(i) {
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
                        None => e.values.iter().find(|v| v.1 == raw),
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
            i += 1;
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
        let dim = take(self.buf, pos, g.dimension_length as u64, &g.name)?;
        let read = |s: Slot| {
            read_slot(dim, s, self.order).ok_or_else(|| {
                DecodeError::new(
                    pos,
                    &g.name,
                    ErrorKind::Truncated {
                        needed: g.dimension_length as u64,
                        available: dim.len(),
                    },
                )
            })
        };
        let block_length = read(g.block_length_slot)?;
        let count = read(g.count_slot)?;
        let mut pos = pos + dim.len();
        // Every entry needs at least its block: reject impossible counts before walking.
        let remaining = self.buf.len().saturating_sub(pos) as u128;
        if u128::from(count) * u128::from(block_length) > remaining {
            let needed = count.saturating_mul(block_length);
            return Err(DecodeError::new(
                pos,
                &g.name,
                ErrorKind::Truncated {
                    needed,
                    available: remaining as usize,
                },
            ));
        }
        self.visitor.begin_group(g, count);
        for index in 0..count {
            self.visitor.begin_entry(g, index);
            pos = self
                .block(&g.body, pos, block_length)
                .map_err(|e| e.within(format_args!("{}[{index}]", g.name)))?;
            self.visitor.end_entry(g, index);
        }
        self.visitor.end_group(g);
        Ok(pos)
    }

    fn var_data(&mut self, d: &VarDataPlan, pos: usize) -> Result<usize, DecodeError> {
        if d.since_version > self.version {
            self.visitor.on_var_data(d, &[], Origin::Absent);
            return Ok(pos);
        }
        let prefix_len = d.length_slot.offset.saturating_add(d.length_slot.ty.size());
        let prefix = take(self.buf, pos, prefix_len as u64, &d.name)?;
        let len = read_slot(prefix, d.length_slot, self.order).unwrap_or(0);
        let data_start = pos.saturating_add(d.data_offset);
        let data = take(self.buf, data_start, len, &d.name)?;
        self.visitor.on_var_data(d, data, Origin::Wire);
        Ok(data_start + data.len())
    }
}
