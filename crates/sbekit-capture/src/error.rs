//! The error type of the container layer: what went wrong and at which byte offset.

use std::fmt;

/// A failure to read the capture container, located by the byte offset (in the uncompressed
/// capture) of the record or block that could not be read.
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
    /// Reading the input failed.
    Io(String),
}

impl Error {
    /// An error of `kind` at `offset`.
    pub fn new(offset: u64, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }

    /// A [`ErrorKind::Truncated`] error.
    pub fn truncated(offset: u64, what: &'static str, needed: u64, available: u64) -> Self {
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
            ErrorKind::UnknownInterface(i) => {
                write!(f, "pcap-ng packet on undeclared interface {i}")
            }
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
