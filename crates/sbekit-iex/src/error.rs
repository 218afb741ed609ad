//! The one error type of this crate: what went wrong and at which byte offset.

/// A decoding failure, located by the byte offset (in the uncompressed capture stream) of the
/// record, block, segment or message that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte offset {offset}")]
pub struct Error {
    /// Byte offset from the start of the (decompressed) capture where the bad item starts.
    pub offset: u64,
    /// What was wrong there.
    pub kind: IexErrorKind,
}

/// The kinds of [`Error`] (named apart from `sbekit_otf::ErrorKind`, which the CLI also uses).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IexErrorKind {
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
    /// An IEX-TP header's payload length disagrees with the bytes the datagram carries.
    #[error(
        "IEX-TP payload length {declared} but the datagram carries {actual} bytes after the header"
    )]
    PayloadLength {
        /// Payload length in the IEX-TP header.
        declared: u16,
        /// Bytes that follow the header in the datagram.
        actual: u64,
    },
    /// A message block of length zero (it has no message type byte).
    #[error("IEX-TP message block of length 0")]
    EmptyMessage,
    /// A message block ends past the end of its segment.
    #[error("IEX-TP message of length {len} runs past the segment ({remaining} bytes left)")]
    MessageOverrun {
        /// Declared message length.
        len: u16,
        /// Bytes left in the segment after the length field.
        remaining: u64,
    },
    /// A known message type is shorter than its specification allows.
    #[error("message type {} is {len} bytes, needs at least {need}", crate::msg::type_label(*.msg_type))]
    MessageTooShort {
        /// The message type byte.
        msg_type: u8,
        /// Declared message length.
        len: u16,
        /// Minimum length of that type.
        need: u16,
    },
    /// Reading the input failed.
    #[error("read error: {0}")]
    Io(String),
}

impl Error {
    pub(crate) fn new(offset: u64, kind: IexErrorKind) -> Self {
        Error { offset, kind }
    }

    pub(crate) fn truncated(offset: u64, what: &'static str, needed: u64, available: u64) -> Self {
        Error::new(
            offset,
            IexErrorKind::Truncated {
                what,
                needed,
                available,
            },
        )
    }
}

impl From<sbekit_capture::Error> for Error {
    fn from(e: sbekit_capture::Error) -> Self {
        use sbekit_capture::ErrorKind as C;
        let kind = match e.kind {
            C::UnknownMagic(m) => IexErrorKind::UnknownMagic(m),
            C::Truncated {
                what,
                needed,
                available,
            } => IexErrorKind::Truncated {
                what,
                needed,
                available,
            },
            C::BadLength { what, len } => IexErrorKind::BadLength { what, len },
            C::BadByteOrder(v) => IexErrorKind::BadByteOrder(v),
            C::NoSection => IexErrorKind::NoSection,
            C::UnknownInterface(i) => IexErrorKind::UnknownInterface(i),
            C::Io(m) => IexErrorKind::Io(m),
            // The container error kinds are non-exhaustive: keep the message of any new one.
            other => IexErrorKind::Io(other.to_string()),
        };
        Error::new(e.offset, kind)
    }
}
