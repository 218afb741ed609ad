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
    /// The capture container (pcap, pcap-ng, gzip) could not be read: the shared capture
    /// layer's own error, kept as it is (its truncations and read errors arrive as
    /// [`IexErrorKind::Truncated`] and [`IexErrorKind::Io`], which this crate raises too).
    #[error(transparent)]
    Container(sbekit_capture::ErrorKind),
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
            C::Truncated {
                what,
                needed,
                available,
            } => IexErrorKind::Truncated {
                what,
                needed,
                available,
            },
            C::Io(m) => IexErrorKind::Io(m),
            other => IexErrorKind::Container(other),
        };
        Error::new(e.offset, kind)
    }
}
