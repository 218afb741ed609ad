//! Decode and encode errors: what went wrong and at which byte offset.

use core::fmt;

/// Why a buffer was rejected by a generated decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The buffer ends before the structure at the error's offset does.
    BufferTooShort {
        /// Bytes the structure needs from the error offset.
        needed: usize,
        /// Bytes the buffer has from the error offset.
        available: usize,
    },
    /// The header's template id is not the one of the message being decoded.
    WrongTemplateId {
        /// The message's template id.
        expected: u64,
        /// The id in the header.
        found: u64,
    },
    /// The header's template id is not that of any message in the schema.
    UnknownTemplateId {
        /// The id in the header.
        found: u64,
    },
    /// The header's schema id is not this schema's.
    WrongSchemaId {
        /// This schema's id.
        expected: u64,
        /// The id in the header.
        found: u64,
    },
    /// A block length (message or group entry) is shorter than the fields of the acting
    /// version need.
    BlockLengthTooShort {
        /// The block length this decoder needs at least.
        minimum: usize,
        /// The block length in the buffer.
        found: usize,
    },
    /// A header field holds a value its type does not allow (e.g. a group count equal to the
    /// null value).
    InvalidDimension {
        /// The value found.
        found: u64,
    },
}

/// A generated decoder's rejection of a buffer: what is wrong and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    /// What is wrong.
    pub kind: DecodeErrorKind,
    /// Byte offset (from the start of the decoded buffer) of the structure that is wrong.
    pub offset: usize,
}

impl DecodeError {
    /// An error of `kind` at `offset`.
    #[inline]
    pub const fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError { kind, offset }
    }

    /// A [`DecodeErrorKind::BufferTooShort`] error.
    #[cold]
    pub fn too_short(offset: usize, needed: usize, buf_len: usize) -> Self {
        DecodeError::new(
            DecodeErrorKind::BufferTooShort {
                needed,
                available: buf_len.saturating_sub(offset),
            },
            offset,
        )
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::BufferTooShort { needed, available } => write!(
                f,
                "buffer too short at offset {}: need {needed} bytes, have {available}",
                self.offset
            ),
            DecodeErrorKind::WrongTemplateId { expected, found } => write!(
                f,
                "template id {found} at offset {} is not the expected {expected}",
                self.offset
            ),
            DecodeErrorKind::UnknownTemplateId { found } => write!(
                f,
                "template id {found} at offset {} is not a message of this schema",
                self.offset
            ),
            DecodeErrorKind::WrongSchemaId { expected, found } => write!(
                f,
                "schema id {found} at offset {} is not the expected {expected}",
                self.offset
            ),
            DecodeErrorKind::BlockLengthTooShort { minimum, found } => write!(
                f,
                "block length {found} at offset {} is shorter than the {minimum} bytes needed",
                self.offset
            ),
            DecodeErrorKind::InvalidDimension { found } => {
                write!(
                    f,
                    "invalid dimension value {found} at offset {}",
                    self.offset
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

/// Why a generated encoder could not write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The buffer has no room for the next part of the message.
    BufferTooShort {
        /// Bytes the next part needs.
        needed: usize,
        /// Bytes left in the buffer.
        available: usize,
    },
    /// More group entries than the group's count field can hold.
    GroupCountTooLarge {
        /// The largest count allowed.
        maximum: u64,
    },
    /// Variable-length data longer than its length field allows.
    VarDataTooLong {
        /// The data's length.
        length: usize,
        /// The largest length allowed.
        maximum: u64,
    },
    /// A value is longer than its fixed-length field.
    ValueTooLong {
        /// The value's length.
        length: usize,
        /// The field's length.
        maximum: usize,
    },
    /// A group or var data field was written after a later one; SBE fixes their order.
    OutOfOrder {
        /// Index (in schema order) of the section the caller tried to write.
        section: usize,
        /// Index of the first section that may still be written.
        next_allowed: usize,
    },
}

/// A generated encoder's failure: what and at which byte offset of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    /// What went wrong.
    pub kind: EncodeErrorKind,
    /// Byte offset in the message buffer where the failed write would have started.
    pub offset: usize,
}

impl EncodeError {
    /// An error of `kind` at `offset`.
    #[cold]
    pub const fn new(kind: EncodeErrorKind, offset: usize) -> Self {
        EncodeError { kind, offset }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            EncodeErrorKind::BufferTooShort { needed, available } => write!(
                f,
                "buffer too short at offset {}: need {needed} bytes, have {available}",
                self.offset
            ),
            EncodeErrorKind::GroupCountTooLarge { maximum } => write!(
                f,
                "group at offset {} would have more than {maximum} entries",
                self.offset
            ),
            EncodeErrorKind::VarDataTooLong { length, maximum } => write!(
                f,
                "var data of {length} bytes at offset {} exceeds the maximum {maximum}",
                self.offset
            ),
            EncodeErrorKind::ValueTooLong { length, maximum } => write!(
                f,
                "value of {length} bytes for the {maximum}-byte field at block offset {}",
                self.offset
            ),
            EncodeErrorKind::OutOfOrder {
                section,
                next_allowed,
            } => write!(
                f,
                "section {section} written at offset {} after section {next_allowed} was started",
                self.offset
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}
