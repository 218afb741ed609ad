//! The validation steps a decoder performs once, up front, before any accessor runs.
//!
//! A message is checked in wire order: the header, the root block at the acting version, then
//! each group (its dimension, its count and entry block length, then per entry the entry's own
//! steps) and each var-data length prefix. After the steps, every accessor reads inside the
//! buffer and cannot fail. Offsets of steps inside a group are relative to the structure they
//! read (the dimension composite, the var-data prefix), since where that structure starts
//! depends on what came before it on the wire.

use sbekit_ir::layout::{Block, IntSlot, Layout, Message};
use sbekit_ir::wire::RequiredLengths;
use sbekit_ir::ByteOrder;

use crate::Slot;

/// What a failed check reports; generators map these to their error types (the Rust runtime's
/// `DecodeErrorKind`, TypeScript's `SbeDecodeError.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckError {
    /// The buffer ends before the structure does.
    Truncated,
    /// The header's schema id is not the schema's.
    WrongSchemaId,
    /// The header's template id is not the message's.
    WrongTemplateId,
    /// A block length (root or entry) is shorter than the acting version's fields need.
    BlockLengthTooShort,
    /// A count or length is larger than its slot allows (or is the slot's null value).
    InvalidDimension,
    /// The message declares more entries of groups whose entries may take no bytes than the
    /// decoder's budget allows (work must stay bounded by the input).
    EmptyEntryBudget,
}

/// One validation step.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// The buffer holds the whole message header.
    Header {
        /// Header size in bytes.
        size: usize,
    },
    /// The header's schema id equals the schema's.
    SchemaId {
        /// The header slot read.
        slot: Slot,
        /// The schema's id.
        expected: u64,
    },
    /// The header's template id equals the message's.
    TemplateId {
        /// The header slot read.
        slot: Slot,
        /// The message's template id.
        expected: u64,
    },
    /// The root block length (from the header) covers the fields of the acting version (from
    /// the header's version slot), and the buffer holds the block.
    RootBlock {
        /// The header's block length slot.
        block_length: Slot,
        /// The header's version slot (the acting version).
        version: Slot,
        /// `(version, bytes)` the block needs at each version (the layout's table).
        required: RequiredLengths,
    },
    /// A repeating group: present only from `since` on; its dimension is in the buffer, its
    /// count is valid, its entry block length covers the entry's fields when the count is not
    /// zero (an empty group reads no entry: `sbekit decode` accepts any block length there),
    /// and `count * block length` bytes are left.
    /// Then, for each entry, the `entry` steps.
    Group {
        /// Element path (`Car.fuelFigures`).
        path: String,
        /// `sinceVersion`: at older acting versions the group is absent and nothing is read.
        since: u32,
        /// Dimension composite size.
        dim_size: usize,
        /// Entry block length slot (offset inside the dimension).
        block_length: Slot,
        /// Count slot (offset inside the dimension).
        count: Slot,
        /// The entry block length this schema version writes.
        block: usize,
        /// `(version, bytes)` an entry block needs at each version.
        required: RequiredLengths,
        /// True when an entry may take no bytes at all (an acting block length of 0 and no
        /// nested sections): its count is charged to the message's empty-entry budget.
        empty_entries: bool,
        /// The steps of each entry.
        entry: Vec<Check>,
    },
    /// A var-data field: present only from `since` on; its length prefix is in the buffer, the
    /// length is valid, and that many bytes are left.
    VarData {
        /// Element path (`Car.manufacturer`).
        path: String,
        /// `sinceVersion`.
        since: u32,
        /// The length prefix (offset inside the var-data composite).
        length: Slot,
        /// Where the data starts, from the start of the length prefix.
        data_offset: usize,
    },
}

impl Check {
    /// The errors this step can raise.
    pub fn errors(&self) -> &'static [CheckError] {
        use CheckError::*;
        match self {
            Check::Header { .. } => &[Truncated],
            Check::SchemaId { .. } => &[WrongSchemaId],
            Check::TemplateId { .. } => &[WrongTemplateId],
            Check::RootBlock { .. } => &[BlockLengthTooShort, Truncated],
            Check::Group {
                empty_entries: true,
                ..
            } => &[
                Truncated,
                InvalidDimension,
                BlockLengthTooShort,
                EmptyEntryBudget,
            ],
            Check::Group { .. } => &[Truncated, InvalidDimension, BlockLengthTooShort],
            Check::VarData { .. } => &[Truncated, InvalidDimension],
        }
    }
}

/// The steps of message `m`, in wire order.
pub(crate) fn of_message(l: &Layout, m: &Message) -> Vec<Check> {
    let slot = |s: &IntSlot| slot(s, l.byte_order);
    let mut out = vec![
        Check::Header {
            size: l.header.size,
        },
        Check::SchemaId {
            slot: slot(&l.header.schema_id),
            expected: u64::from(l.id),
        },
        Check::TemplateId {
            slot: slot(&l.header.template_id),
            expected: u64::from(m.id),
        },
        Check::RootBlock {
            block_length: slot(&l.header.block_length),
            version: slot(&l.header.version),
            required: m.block.required.clone(),
        },
    ];
    sections(l.byte_order, &m.name, &m.block, &mut out);
    out
}

fn slot(s: &IntSlot, order: ByteOrder) -> Slot {
    Slot {
        ty: s.ty,
        offset: s.offset,
        order,
        max: s.max,
        constant: s.constant,
    }
}

fn sections(order: ByteOrder, path: &str, b: &Block, out: &mut Vec<Check>) {
    for g in &b.groups {
        let gpath = format!("{path}.{}", g.name);
        let mut entry = Vec::new();
        sections(order, &gpath, &g.block, &mut entry);
        out.push(Check::Group {
            since: g.since_version,
            dim_size: g.dimension.size,
            block_length: slot(&g.dimension.block_length, order),
            count: slot(&g.dimension.num_in_group, order),
            block: g.block.block_length,
            required: g.block.required.clone(),
            // The wire's block length may be as short as the version-0 fields need.
            empty_entries: g.block.min_length() == 0 && g.block.is_fixed(),
            entry,
            path: gpath,
        });
    }
    for d in &b.var_data {
        out.push(Check::VarData {
            path: format!("{path}.{}", d.name),
            since: d.since_version,
            length: slot(&d.length, order),
            data_offset: d.data_offset,
        });
    }
}
