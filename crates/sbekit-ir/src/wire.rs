//! The wire vocabulary: how every consumer of the layout model reads and writes the integers
//! that frame a message.
//!
//! A message is a header, a root block, then groups (a dimension composite followed by
//! `count` entries of `blockLength` bytes each, recursively) and var data (a length prefix,
//! then that many bytes). Decoders (OTF, Arrow, the compatibility oracle), the encoder and the
//! code generators' plan all need the same handful of rules about those framing integers:
//!
//! - the block length that the fields present at an acting version need
//!   ([`RequiredLengths::at`]), and that a shorter block is malformed ([`check_block`]);
//! - reading and writing an integer slot (a header field, a group's `blockLength` and
//!   `numInGroup`, a var-data length) in the schema's byte order ([`IntSlot::read`],
//!   [`IntSlot::write`], [`read_uint`], [`write_uint`]);
//! - a group's dimensions, with the count bounded by the bytes left ([`read_group`]);
//! - the bytes of a run of fixed-size entries, for readers that copy them at once
//!   ([`entry_blocks`]);
//! - a var-data prefix and its bytes ([`read_var_data`]);
//! - the budget on entries of empty-block groups, which the input's size cannot bound
//!   ([`Limits`], [`EntryBudget`]);
//! - the errors all of these raise ([`DecodeError`], [`ErrorKind`]).
//!
//! They live here, once, next to the model they read, so that no consumer carries a copy that
//! can drift. Everything here is checked arithmetic on borrowed bytes: no panics, no allocation
//! on the success path.

use crate::layout::IntSlot;
use crate::{ByteOrder, PrimitiveType};
use std::fmt;

/// Byte order fixed at compile time, so that hot loops carry no byte-order branches.
pub trait Order {
    /// The order as a value.
    const ORDER: ByteOrder;
    /// Reads a `u16`.
    fn u16(b: [u8; 2]) -> u16;
    /// Reads a `u32`.
    fn u32(b: [u8; 4]) -> u32;
    /// Reads a `u64`.
    fn u64(b: [u8; 8]) -> u64;
}

/// Little endian, at compile time.
#[derive(Debug, Clone, Copy)]
pub struct Le;

/// Big endian, at compile time.
#[derive(Debug, Clone, Copy)]
pub struct Be;

impl Order for Le {
    const ORDER: ByteOrder = ByteOrder::LittleEndian;
    #[inline(always)]
    fn u16(b: [u8; 2]) -> u16 {
        u16::from_le_bytes(b)
    }
    #[inline(always)]
    fn u32(b: [u8; 4]) -> u32 {
        u32::from_le_bytes(b)
    }
    #[inline(always)]
    fn u64(b: [u8; 8]) -> u64 {
        u64::from_le_bytes(b)
    }
}

impl Order for Be {
    const ORDER: ByteOrder = ByteOrder::BigEndian;
    #[inline(always)]
    fn u16(b: [u8; 2]) -> u16 {
        u16::from_be_bytes(b)
    }
    #[inline(always)]
    fn u32(b: [u8; 4]) -> u32 {
        u32::from_be_bytes(b)
    }
    #[inline(always)]
    fn u64(b: [u8; 8]) -> u64 {
        u64::from_be_bytes(b)
    }
}

/// Reads an integer (or `char`) of type `ty` from the start of `bytes` as a `u64`, with the
/// byte order fixed at compile time. Signed values are sign-extended, then reinterpreted, so a
/// decoder compares them with [`crate::layout::wire_bits`]. `None` if `bytes` is too short or
/// `ty` is not an integer type.
#[inline(always)]
pub fn read_uint_in<O: Order>(bytes: &[u8], ty: PrimitiveType) -> Option<u64> {
    // Lengths and counts are nearly always uint16/uint32/uint8: those come first.
    Some(match ty {
        PrimitiveType::Uint16 => u64::from(O::u16(*bytes.first_chunk::<2>()?)),
        PrimitiveType::Uint32 => u64::from(O::u32(*bytes.first_chunk::<4>()?)),
        PrimitiveType::Uint8 | PrimitiveType::Char => u64::from(*bytes.first()?),
        PrimitiveType::Uint64 => O::u64(*bytes.first_chunk::<8>()?),
        PrimitiveType::Int8 => i64::from(*bytes.first()? as i8) as u64,
        PrimitiveType::Int16 => i64::from(O::u16(*bytes.first_chunk::<2>()?) as i16) as u64,
        PrimitiveType::Int32 => i64::from(O::u32(*bytes.first_chunk::<4>()?) as i32) as u64,
        PrimitiveType::Int64 => O::u64(*bytes.first_chunk::<8>()?),
        PrimitiveType::Float | PrimitiveType::Double | PrimitiveType::None => return None,
    })
}

/// [`read_uint_in`] with the byte order chosen at run time.
#[inline]
pub fn read_uint(bytes: &[u8], ty: PrimitiveType, order: ByteOrder) -> Option<u64> {
    match order {
        ByteOrder::LittleEndian => read_uint_in::<Le>(bytes, ty),
        ByteOrder::BigEndian => read_uint_in::<Be>(bytes, ty),
    }
}

/// Writes the low bytes of `value` as an integer of type `ty` at the start of `out`, in
/// `order`. `None` if `out` is too short or `ty` is not an integer type. The caller checks that
/// the value fits (see [`IntSlot::max`]).
pub fn write_uint(out: &mut [u8], ty: PrimitiveType, order: ByteOrder, value: u64) -> Option<()> {
    if matches!(
        ty,
        PrimitiveType::Float | PrimitiveType::Double | PrimitiveType::None
    ) {
        return None;
    }
    write_bits(out, ty.size(), order, value)
}

/// Reads `size` bytes (1 to 8) at the start of `bytes` in `order` as raw, zero-extended bits
/// (what [`crate::layout::wire_bits`] gives for a schema value). `None` if `bytes` is too short.
#[inline]
pub fn read_bits(bytes: &[u8], size: usize, order: ByteOrder) -> Option<u64> {
    let src = bytes.get(..size)?;
    let mut w = [0u8; 8];
    match order {
        ByteOrder::LittleEndian => w.get_mut(..size)?.copy_from_slice(src),
        ByteOrder::BigEndian => w.get_mut(8usize.checked_sub(size)?..)?.copy_from_slice(src),
    }
    Some(match order {
        ByteOrder::LittleEndian => u64::from_le_bytes(w),
        ByteOrder::BigEndian => u64::from_be_bytes(w),
    })
}

/// Writes the low `size` bytes (1 to 8) of `bits` at the start of `out`, in `order`: any
/// primitive's wire bits (see [`crate::layout::wire_bits`]). `None` if `out` is too short.
#[inline]
pub fn write_bits(out: &mut [u8], size: usize, order: ByteOrder, bits: u64) -> Option<()> {
    let dst = out.get_mut(..size)?;
    match order {
        ByteOrder::LittleEndian => dst.copy_from_slice(bits.to_le_bytes().get(..size)?),
        ByteOrder::BigEndian => {
            dst.copy_from_slice(bits.to_be_bytes().get(8usize.checked_sub(size)?..)?)
        }
    }
    Some(())
}

impl IntSlot {
    /// Reads the slot from `composite` (the bytes of the composite that holds it: a header, a
    /// group dimension, a var-data prefix). A constant slot gives its value without reading.
    #[inline]
    pub fn read(&self, composite: &[u8], order: ByteOrder) -> Option<u64> {
        match order {
            ByteOrder::LittleEndian => self.read_in::<Le>(composite),
            ByteOrder::BigEndian => self.read_in::<Be>(composite),
        }
    }

    /// [`IntSlot::read`] with the byte order fixed at compile time.
    #[inline(always)]
    pub fn read_in<O: Order>(&self, composite: &[u8]) -> Option<u64> {
        if let Some(c) = self.constant {
            return Some(c);
        }
        read_uint_in::<O>(composite.get(self.offset..)?, self.ty)
    }

    /// Writes `value` into the slot of `composite`. A constant slot is not on the wire: nothing
    /// is written. `None` if the composite is too short or the value is above the slot's
    /// [`IntSlot::max`].
    pub fn write(&self, composite: &mut [u8], order: ByteOrder, value: u64) -> Option<()> {
        if self.constant.is_some() {
            return Some(());
        }
        if value > self.max {
            return None;
        }
        write_uint(composite.get_mut(self.offset..)?, self.ty, order, value)
    }
}

/// Two slots of one composite read together (a header's fields, a group's dimensions), with
/// the usual layouts decided once, when the pair is made: two `uint16` in a row, or a `uint16`
/// then a `uint8`, are read at a fixed offset without looking at the slots again; any other
/// layout (constants, other widths, gaps) slot by slot. Hot loops that read the same pair per
/// message use it instead of two [`IntSlot::read_in`] calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotPair {
    first: IntSlot,
    second: IntSlot,
    shape: PairShape,
}

/// How a [`SlotPair`] is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairShape {
    /// `uint16` at `at`, then `uint16` at `at + 2`.
    U16U16 { at: usize },
    /// `uint16` at `at`, then `uint8` at `at + 2`.
    U16U8 { at: usize },
    /// Each slot on its own.
    Slots,
}

impl SlotPair {
    /// The pair `first`, `second`; its layout is classified here, once.
    pub fn new(first: IntSlot, second: IntSlot) -> SlotPair {
        let on_wire = |s: &IntSlot, ty: PrimitiveType| s.constant.is_none() && s.ty == ty;
        let at = first.offset;
        let adjacent = second.offset == at + 2;
        let shape = if !on_wire(&first, PrimitiveType::Uint16) || !adjacent {
            PairShape::Slots
        } else if on_wire(&second, PrimitiveType::Uint16) {
            PairShape::U16U16 { at }
        } else if on_wire(&second, PrimitiveType::Uint8) {
            PairShape::U16U8 { at }
        } else {
            PairShape::Slots
        };
        SlotPair {
            first,
            second,
            shape,
        }
    }

    /// Where the pair lies as two adjacent `uint16`s, both on the wire (the standard group
    /// dimension and message header's first half): the first one's offset. Code that has
    /// checked this once can read the pair as a 4-byte word at that offset, with no decision
    /// per read; `None` for any other layout.
    pub fn u16_pair_at(&self) -> Option<usize> {
        match self.shape {
            PairShape::U16U16 { at } => Some(at),
            _ => None,
        }
    }

    /// Both values from `composite`, as [`IntSlot::read_in`] reads each; `None` if `composite`
    /// is too short for either.
    #[inline(always)]
    pub fn read_in<O: Order>(&self, composite: &[u8]) -> Option<(u64, u64)> {
        match self.shape {
            // One comparison (`at + n <= len`) per read.
            PairShape::U16U16 { at } => {
                let (a, b) = read_u16_pair::<O>(composite, at)?;
                Some((u64::from(a), u64::from(b)))
            }
            PairShape::U16U8 { at } => {
                let &[a, b, c] = fixed::<3>(composite, at)?;
                Some((u64::from(O::u16([a, b])), u64::from(c)))
            }
            PairShape::Slots => Some((
                self.first.read_in::<O>(composite)?,
                self.second.read_in::<O>(composite)?,
            )),
        }
    }
}

/// Two adjacent `uint16`s at `at` in `bytes`, in byte order `O`: the pair that
/// [`SlotPair::u16_pair_at`] locates, for code that decided the shape once; `None` if the four
/// bytes are not all in `bytes`.
#[inline(always)]
pub fn read_u16_pair<O: Order>(bytes: &[u8], at: usize) -> Option<(u16, u16)> {
    let &[a, b, c, d] = fixed::<4>(bytes, at)?;
    Some((O::u16([a, b]), O::u16([c, d])))
}

/// The `N` bytes at `at` in `bytes`, if they are all there.
#[inline(always)]
fn fixed<const N: usize>(bytes: &[u8], at: usize) -> Option<&[u8; N]> {
    bytes.get(at..)?.first_chunk::<N>()
}

/// For each distinct field `sinceVersion` v, ascending: the block bytes that the fields of
/// versions up to v occupy. A block shorter than this at acting version v is malformed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct RequiredLengths(pub Vec<(u32, usize)>);

impl RequiredLengths {
    /// The block bytes that the fields present at `acting_version` occupy (0 when none are).
    #[inline]
    pub fn at(&self, acting_version: u64) -> usize {
        // Usually the acting version knows every field: one comparison.
        if let Some(&(v, len)) = self.0.last() {
            if u64::from(v) <= acting_version {
                return len;
            }
        }
        self.0
            .iter()
            .take_while(|(v, _)| u64::from(*v) <= acting_version)
            .last()
            .map_or(0, |&(_, len)| len)
    }
}

/// The JSON member by which a decoded message says which schema version wrote it, when that
/// is older than the decoding schema's version (`{"$version":0,...}`). `sbekit decode` prints it
/// and `sbekit encode` writes the message as that version, so that `decode | encode` gives the
/// same bytes for every version. No SBE name can start with `$`, so it never meets a field.
pub const VERSION_MEMBER: &str = "$version";

impl std::ops::Deref for RequiredLengths {
    type Target = [(u32, usize)];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<'a> IntoIterator for &'a RequiredLengths {
    type Item = &'a (u32, usize);
    type IntoIter = std::slice::Iter<'a, (u32, usize)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Bounds on the work one message may ask of a decoder, against hostile input.
///
/// Group counts are checked against the bytes left in the buffer, so entries with a block
/// are bounded by the input's size. Entries of an empty block (block length 0: a block of
/// constants, or none) take no room, so a 20-byte message could declare four billion of them.
/// The budget bounds those: a message may declare at most `max_empty_entries` of them, in all
/// its groups and nesting levels together. Group nesting depth is bounded by the schema (see
/// [`crate::layout::MAX_NESTING`]). Work per message is thus bounded by its size plus
/// the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Entries of empty-block groups one message may declare in all; more is
    /// [`ErrorKind::TooManyEntries`].
    pub max_empty_entries: u64,
}

impl Limits {
    /// The default budget: far above what a real feed sends (a group count is 16 bits in most
    /// schemas), far below what would stall a decoder or flood its output.
    pub const DEFAULT_MAX_EMPTY_ENTRIES: u64 = 1 << 20;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_empty_entries: Self::DEFAULT_MAX_EMPTY_ENTRIES,
        }
    }
}

/// What is left of one message's [`Limits`] while it is being decoded.
#[derive(Debug, Clone, Copy)]
pub struct EntryBudget {
    left: u64,
    limit: u64,
}

impl EntryBudget {
    /// A fresh budget for one message.
    pub fn new(limits: Limits) -> EntryBudget {
        EntryBudget {
            left: limits.max_empty_entries,
            limit: limits.max_empty_entries,
        }
    }

    /// Charges `count` entries of a group whose entries are `block_length` bytes long: only
    /// empty-block entries cost anything. Errors at `at` (naming `path`) when the budget runs
    /// out.
    #[inline]
    pub fn charge(
        &mut self,
        block_length: u64,
        count: u64,
        at: usize,
        path: &str,
    ) -> Result<(), DecodeError> {
        if block_length != 0 {
            return Ok(());
        }
        match self.left.checked_sub(count) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(DecodeError::new(
                at,
                path,
                ErrorKind::TooManyEntries { limit: self.limit },
            )),
        }
    }
}

/// `n` bytes of `buf` from `at`, or a truncation error naming `path`.
#[inline(always)]
pub fn take<'b>(buf: &'b [u8], at: usize, n: u64, path: &str) -> Result<&'b [u8], DecodeError> {
    let got = usize::try_from(n)
        .ok()
        .and_then(|n| at.checked_add(n))
        .and_then(|end| buf.get(at..end));
    match got {
        Some(b) => Ok(b),
        None => Err(truncated(buf, at, n, path)),
    }
}

/// The error for `n` bytes wanted at `at` in `buf`.
#[cold]
#[inline(never)]
pub fn truncated(buf: &[u8], at: usize, n: u64, path: &str) -> DecodeError {
    DecodeError::new(
        at,
        path,
        ErrorKind::Truncated {
            needed: n,
            available: buf.len().saturating_sub(at),
        },
    )
}

/// Fails if a block of `block_length` bytes at `start` is shorter than the fields present at
/// `acting_version` need.
#[inline(always)]
pub fn check_block(
    required: &RequiredLengths,
    acting_version: u64,
    start: usize,
    block_length: u64,
) -> Result<(), DecodeError> {
    let required = required.at(acting_version);
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
    Ok(())
}

/// Where a group's dimension composite keeps its two integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DimensionSlots {
    /// Size of the dimension composite.
    pub size: usize,
    /// The entries' block length.
    pub block_length: IntSlot,
    /// The number of entries.
    pub count: IntSlot,
}

impl From<&crate::layout::Dimension> for DimensionSlots {
    fn from(d: &crate::layout::Dimension) -> Self {
        DimensionSlots {
            size: d.size,
            block_length: d.block_length,
            count: d.num_in_group,
        }
    }
}

/// A group's dimensions as read from the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupHeader {
    /// Each entry's block length.
    pub block_length: u64,
    /// Number of entries.
    pub count: u64,
    /// Offset of the first entry (just past the dimension composite).
    pub entries: usize,
}

/// Reads the dimension composite of a group at `pos` of `buf`, charges its entries to
/// `budget`, and checks that `count` entries of `block_length` bytes fit in what is left of
/// `buf`, so that a hostile count is refused before any entry is walked. Errors name `path`.
#[inline(always)]
pub fn read_group<O: Order>(
    buf: &[u8],
    pos: usize,
    dim: &DimensionSlots,
    budget: &mut EntryBudget,
    path: &str,
) -> Result<GroupHeader, DecodeError> {
    let bytes = take(buf, pos, dim.size as u64, path)?;
    let (Some(block_length), Some(count)) = (
        dim.block_length.read_in::<O>(bytes),
        dim.count.read_in::<O>(bytes),
    ) else {
        // Only IR whose dimension members lie outside the dimension composite gets here.
        return Err(truncated(buf, pos, dim.size as u64, path));
    };
    // `take` succeeded, so this cannot overflow.
    let entries = pos + bytes.len();
    budget.charge(block_length, count, entries, path)?;
    let remaining = buf.len().saturating_sub(entries);
    let needed = count.saturating_mul(block_length);
    if needed > remaining as u64 {
        return Err(DecodeError::new(
            entries,
            path,
            ErrorKind::Truncated {
                needed,
                available: remaining,
            },
        ));
    }
    Ok(GroupHeader {
        block_length,
        count,
        entries,
    })
}

/// The bytes of a group's entries when they have a fixed size (no nested groups, no var data):
/// `count` blocks of `block_length` bytes back to back from `group.entries`, so that a
/// columnar reader copies them at once. [`read_group`] has checked that they fit; a header
/// from elsewhere that overruns `buf` is a truncation error naming `path`.
#[inline(always)]
pub fn entry_blocks<'b>(
    buf: &'b [u8],
    group: &GroupHeader,
    path: &str,
) -> Result<&'b [u8], DecodeError> {
    let n = group.count.saturating_mul(group.block_length);
    take(buf, group.entries, n, path)
}

/// Where a var-data field keeps its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarDataSlots {
    /// The length prefix.
    pub length: IntSlot,
    /// Offset of the data from the start of the prefix.
    pub data_offset: usize,
}

impl From<&crate::layout::VarData> for VarDataSlots {
    fn from(d: &crate::layout::VarData) -> Self {
        VarDataSlots {
            length: d.length,
            data_offset: d.data_offset,
        }
    }
}

/// Reads the var-data field at `pos` of `buf`: its bytes, and the offset just past them.
#[inline(always)]
pub fn read_var_data<'b, O: Order>(
    buf: &'b [u8],
    pos: usize,
    slots: &VarDataSlots,
    path: &str,
) -> Result<(&'b [u8], usize), DecodeError> {
    let prefix_len = slots.length.end();
    let prefix = take(buf, pos, prefix_len as u64, path)?;
    let len = slots
        .length
        .read_in::<O>(prefix)
        .ok_or_else(|| truncated(buf, pos, prefix_len as u64, path))?;
    let start = pos.saturating_add(slots.data_offset);
    let data = take(buf, start, len, path)?;
    Ok((data, start + data.len()))
}

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
    /// The message declares more entries of empty-block groups, in all its groups together,
    /// than [`Limits::max_empty_entries`] allows.
    TooManyEntries {
        /// The limit in force.
        limit: u64,
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
    /// An error at `offset` of the element `path`.
    pub fn new(offset: usize, path: &str, kind: ErrorKind) -> Self {
        DecodeError {
            offset,
            path: path.to_string(),
            kind,
        }
    }

    /// Prefixes the path with an enclosing element (`prefix` may carry an index, `g[2]`).
    pub fn within(mut self, prefix: impl fmt::Display) -> Self {
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
            ErrorKind::TooManyEntries { limit } => write!(
                f,
                ": more than {limit} entries of empty-block groups in one message (the limit; \
                 raise it with Limits::max_empty_entries or --max-empty-entries)"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

#[cfg(test)]
mod tests;
