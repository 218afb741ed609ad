//! The error type of the container layer: what went wrong and at which byte offset.

/// A failure to read the capture container, located by the byte offset (in the uncompressed
/// capture) of the record or block that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte offset {offset}")]
pub struct Error {
    /// Byte offset from the start of the (decompressed) capture where the bad item starts.
    pub offset: u64,
    /// What was wrong there.
    pub kind: ErrorKind,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The first four bytes are neither a pcap nor a pcap-ng magic number.
    #[error("not a pcap or pcap-ng capture (magic {:02x} {:02x} {:02x} {:02x})", .0[0], .0[1], .0[2], .0[3])]
    UnknownMagic([u8; 4]),
    /// The input ended inside an item: `what` needed `needed` bytes, only `available` remained.
    #[error("truncated {what}: needs {needed} bytes, only {available} available")]
    Truncated {
        /// The item that was cut short.
        what: &'static str,
        /// Bytes the item needs.
        needed: u64,
        /// Bytes that were left.
        available: u64,
    },
    /// A record or block declares a length that cannot be right.
    #[error("invalid {what} length {len}")]
    BadLength {
        /// The item whose length is wrong.
        what: &'static str,
        /// The declared length.
        len: u64,
    },
    /// A pcap-ng section header has an unknown byte-order magic.
    #[error("invalid pcap-ng byte-order magic {0:#010x}")]
    BadByteOrder(u32),
    /// A pcap-ng block came before any section header block.
    #[error("pcap-ng block before any section header block")]
    NoSection,
    /// A pcap-ng packet names an interface that no interface description block declared.
    #[error("pcap-ng packet on undeclared interface {0}")]
    UnknownInterface(u32),
    /// Reading the input failed.
    #[error("read error: {0}")]
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
