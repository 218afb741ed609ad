//! The one error type of this crate: what went wrong and at which byte offset.

use std::fmt;

/// A decoding failure, located by the byte offset (in the uncompressed capture stream) of the
/// record, block, segment or message that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Byte offset from the start of the (decompressed) capture where the bad item starts.
    pub offset: u64,
    /// What was wrong there.
    pub kind: ErrorKind,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The first four bytes are neither a pcap nor a pcap-ng magic number.
    UnknownMagic([u8; 4]),
    /// The input ended inside an item: `what` needed `needed` bytes, only `available` remained.
    Truncated {
        /// The item that was cut short.
        what: &'static str,
        /// Bytes the item needs.
        needed: u64,
        /// Bytes that were left.
        available: u64,
    },
    /// A record or block declares a length that cannot be right.
    BadLength {
        /// The item whose length is wrong.
        what: &'static str,
        /// The declared length.
        len: u64,
    },
    /// A pcap-ng section header has an unknown byte-order magic.
    BadByteOrder(u32),
    /// A pcap-ng block came before any section header block.
    NoSection,
    /// A pcap-ng packet names an interface that no interface description block declared.
    UnknownInterface(u32),
    /// An IEX-TP header's payload length disagrees with the bytes the datagram carries.
    PayloadLength {
        /// Payload length in the IEX-TP header.
        declared: u16,
        /// Bytes that follow the header in the datagram.
        actual: u64,
    },
    /// A message block of length zero (it has no message type byte).
    EmptyMessage,
    /// A message block ends past the end of its segment.
    MessageOverrun {
        /// Declared message length.
        len: u16,
        /// Bytes left in the segment after the length field.
        remaining: u64,
    },
    /// A known message type is shorter than its specification allows.
    MessageTooShort {
        /// The message type byte.
        msg_type: u8,
        /// Declared message length.
        len: u16,
        /// Minimum length of that type.
        need: u16,
    },
    /// Reading the input failed.
    Io(String),
}

impl Error {
    pub(crate) fn new(offset: u64, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }

    pub(crate) fn truncated(offset: u64, what: &'static str, needed: u64, available: u64) -> Self {
        Error::new(
            offset,
            ErrorKind::Truncated {
                what,
                needed,
                available,
            },
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnknownMagic(m) => write!(
                f,
                "not a pcap or pcap-ng capture (magic {:02x} {:02x} {:02x} {:02x})",
                m[0], m[1], m[2], m[3]
            ),
            ErrorKind::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "truncated {what}: needs {needed} bytes, only {available} available"
            ),
            ErrorKind::BadLength { what, len } => write!(f, "invalid {what} length {len}"),
            ErrorKind::BadByteOrder(v) => write!(f, "invalid pcap-ng byte-order magic {v:#010x}"),
            ErrorKind::NoSection => write!(f, "pcap-ng block before any section header block"),
            ErrorKind::UnknownInterface(i) => write!(f, "pcap-ng packet on undeclared interface {i}"),
            ErrorKind::PayloadLength { declared, actual } => write!(
                f,
                "IEX-TP payload length {declared} but the datagram carries {actual} bytes after the header"
            ),
            ErrorKind::EmptyMessage => write!(f, "IEX-TP message block of length 0"),
            ErrorKind::MessageOverrun { len, remaining } => write!(
                f,
                "IEX-TP message of length {len} runs past the segment ({remaining} bytes left)"
            ),
            ErrorKind::MessageTooShort {
                msg_type,
                len,
                need,
            } => write!(
                f,
                "message type {} is {len} bytes, needs at least {need}",
                crate::msg::type_label(*msg_type)
            ),
            ErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind, self.offset)
    }
}

impl std::error::Error for Error {}

impl From<sbekit_capture::Error> for Error {
    fn from(e: sbekit_capture::Error) -> Self {
        use sbekit_capture::ErrorKind as C;
        let kind = match e.kind {
            C::UnknownMagic(m) => ErrorKind::UnknownMagic(m),
            C::Truncated {
                what,
                needed,
                available,
            } => ErrorKind::Truncated {
                what,
                needed,
                available,
            },
            C::BadLength { what, len } => ErrorKind::BadLength { what, len },
            C::BadByteOrder(v) => ErrorKind::BadByteOrder(v),
            C::NoSection => ErrorKind::NoSection,
            C::UnknownInterface(i) => ErrorKind::UnknownInterface(i),
            C::Io(m) => ErrorKind::Io(m),
            // The container error kinds are non-exhaustive: keep the message of any new one.
            other => ErrorKind::Io(other.to_string()),
        };
        Error::new(e.offset, kind)
    }
}
