//! The formats under test, each implementing the same small system: write one message per
//! IEX-TP segment into a pre-allocated buffer, then read every message back and aggregate.

use crate::agg::Aggregates;
use crate::data::Entry;
use std::fmt;

pub mod capnp;
pub mod flatbuffers;
pub mod protobuf;
#[cfg(feature = "reference-sbe")]
pub mod reference;
pub mod rkyv;
pub mod sbe;

/// Why a format failed to write or read a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

impl CodecError {
    /// Wraps any displayable error (only on the error path: it allocates).
    #[cold]
    pub fn from_display(what: &str, e: impl fmt::Display) -> Self {
        CodecError(format!("{what}: {e}"))
    }
}

/// One format's implementation of the system under test. Implementations keep their builders
/// and scratch buffers between calls so that the steady state allocates nothing where the
/// library allows it.
pub trait Codec {
    /// Writes the message for one segment's `entries` at `out[pos..]` (with whatever framing
    /// the format needs to be read back message by message); returns the position after it.
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError>;

    /// Reads the message at `buf[pos..]`, adds its trades and price level updates to `agg`
    /// (and counts it with [`Aggregates::batch`]); returns the position after it.
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError>;

    /// Called (untimed) after a serializing pass wrote `buf[..end]` and before it is read.
    /// Formats read without validation use it to validate every message once, which is what
    /// makes their unchecked reads sound; the others do nothing.
    fn prepare_read(&mut self, buf: &[u8], end: usize) -> Result<(), CodecError> {
        let _ = (buf, end);
        Ok(())
    }
}

/// The rows of the shootout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// sbekit-generated SBE codec, `schemas/market-data.xml` (designed the SBE way).
    Sbe,
    /// sbekit-generated SBE codec, `schemas/shootout-2019.xml` (the original's message shape).
    Sbe2019,
    /// Cap'n Proto, standard (unpacked) framing.
    Capnp,
    /// Cap'n Proto, packed framing.
    CapnpPacked,
    /// FlatBuffers, read with the verifier.
    FlatBuffers,
    /// FlatBuffers, read without the verifier (validated once, untimed).
    FlatBuffersUnchecked,
    /// Protocol Buffers (prost).
    Protobuf,
    /// rkyv, read with bytecheck validation.
    Rkyv,
    /// rkyv, read without validation (validated once, untimed).
    RkyvUnchecked,
    /// The reference tool's generated Rust, `schemas/market-data.xml`.
    #[cfg(feature = "reference-sbe")]
    RefSbe,
    /// The reference tool's generated Rust, `schemas/shootout-2019.xml`.
    #[cfg(feature = "reference-sbe")]
    RefSbe2019,
}

/// Per format: id, label, notes (framing; what is copied; what allocates).
const TABLE: &[(Format, &str, &str, &str)] = &[
    (
        Format::Sbe,
        "sbe",
        "sbekit SBE (market-data)",
        "self-delimiting (decode returns the length, no prefix); encoded in place into the \
         buffer; decode checks the whole message once, then plain loads; no allocation",
    ),
    (
        Format::Sbe2019,
        "sbe-2019",
        "sbekit SBE (2019 schema)",
        "self-delimiting (decode walks the var-data symbols, no prefix); encoded in place; \
         no allocation",
    ),
    (
        Format::Capnp,
        "capnp",
        "Cap'n Proto",
        "segment-table framing; a new Builder per message on a reused scratch segment, copied \
         out by write_message; one small heap allocation per message (the builder's segment \
         list; builders cannot be reused); reads in place without allocation",
    ),
    (
        Format::CapnpPacked,
        "capnp-packed",
        "Cap'n Proto packed",
        "as Cap'n Proto, packed while copying out; one small allocation per message written; \
         reads by unpacking into a reused buffer, no allocation",
    ),
    (
        Format::FlatBuffers,
        "flatbuffers",
        "FlatBuffers (verified)",
        "u32 size prefix; builder and offset vector reused, finished bytes copied into the \
         buffer; verifier on every message read; no allocation",
    ),
    (
        Format::FlatBuffersUnchecked,
        "flatbuffers-unchecked",
        "FlatBuffers (unchecked)",
        "as FlatBuffers; the buffer is verified once, untimed, then read with \
         size_prefixed_root_unchecked (unsafe); no allocation",
    ),
    (
        Format::Protobuf,
        "protobuf",
        "Protocol Buffers (prost)",
        "varint length prefix; message structs and strings reused, encoded straight into the \
         buffer; decoding merges into a reused struct but allocates one String per IEX message",
    ),
    (
        Format::Rkyv,
        "rkyv",
        "rkyv (validated)",
        "u32 length + padding to 8-byte alignment; reused structs and arena, archived straight \
         into the buffer; bytecheck validation on every message read; no allocation",
    ),
    (
        Format::RkyvUnchecked,
        "rkyv-unchecked",
        "rkyv (unchecked)",
        "as rkyv; the buffer is validated once, untimed, then read with access_unchecked \
         (unsafe); no allocation",
    ),
];

/// The rows of the `reference-sbe` feature.
#[cfg(feature = "reference-sbe")]
static REFERENCE: [(Format, &str, &str, &str); 2] = [
    (
        Format::RefSbe,
        "ref-sbe",
        "reference SBE (market-data)",
        "the reference tool's (sbe-all 1.38.1) generated Rust; in place, no allocation; \
         decoders do not validate lengths first (out-of-bounds reads panic)",
    ),
    (
        Format::RefSbe2019,
        "ref-sbe-2019",
        "reference SBE (2019 schema)",
        "the reference tool's generated Rust for the 2019 shape; in place, no allocation",
    ),
];

impl Format {
    /// Every format, in report order (the baseline first).
    pub const ALL: &'static [Format] = &[
        Format::Sbe,
        Format::Sbe2019,
        Format::Capnp,
        Format::CapnpPacked,
        Format::FlatBuffers,
        Format::FlatBuffersUnchecked,
        Format::Protobuf,
        Format::Rkyv,
        Format::RkyvUnchecked,
        #[cfg(feature = "reference-sbe")]
        Format::RefSbe,
        #[cfg(feature = "reference-sbe")]
        Format::RefSbe2019,
    ];

    fn row(self) -> &'static (Format, &'static str, &'static str, &'static str) {
        #[cfg(feature = "reference-sbe")]
        if let Some(r) = REFERENCE.iter().find(|r| r.0 == self) {
            return r;
        }
        TABLE.iter().find(|r| r.0 == self).unwrap_or(&TABLE[0])
    }

    /// The short name used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        self.row().1
    }

    /// The row label in reports.
    pub fn label(self) -> &'static str {
        self.row().2
    }

    /// The format for a short name.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// How the format frames messages, what it copies and what it cannot avoid allocating.
    pub fn notes(self) -> &'static str {
        self.row().3
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A codec of any format, so that a run can hold one of each and dispatch once per pass (the
/// measuring loops are monomorphized per format: no dynamic dispatch in the timed code).
pub enum AnyCodec {
    /// [`Format::Sbe`].
    Sbe(sbe::SbeMarketData),
    /// [`Format::Sbe2019`].
    Sbe2019(sbe::Sbe2019),
    /// [`Format::Capnp`].
    Capnp(Box<capnp::Capnp>),
    /// [`Format::CapnpPacked`].
    CapnpPacked(Box<capnp::CapnpPacked>),
    /// [`Format::FlatBuffers`].
    FlatBuffers(Box<flatbuffers::FlatBuffers>),
    /// [`Format::FlatBuffersUnchecked`].
    FlatBuffersUnchecked(Box<flatbuffers::FlatBuffersUnchecked>),
    /// [`Format::Protobuf`].
    Protobuf(Box<protobuf::Protobuf>),
    /// [`Format::Rkyv`].
    Rkyv(Box<rkyv::Rkyv>),
    /// [`Format::RkyvUnchecked`].
    RkyvUnchecked(Box<rkyv::RkyvUnchecked>),
    /// [`Format::RefSbe`].
    #[cfg(feature = "reference-sbe")]
    RefSbe(reference::RefSbeMarketData),
    /// [`Format::RefSbe2019`].
    #[cfg(feature = "reference-sbe")]
    RefSbe2019(reference::RefSbe2019),
}

impl AnyCodec {
    /// A fresh codec for `format`.
    pub fn new(format: Format) -> AnyCodec {
        match format {
            Format::Sbe => AnyCodec::Sbe(Default::default()),
            Format::Sbe2019 => AnyCodec::Sbe2019(Default::default()),
            Format::Capnp => AnyCodec::Capnp(Default::default()),
            Format::CapnpPacked => AnyCodec::CapnpPacked(Default::default()),
            Format::FlatBuffers => AnyCodec::FlatBuffers(Default::default()),
            Format::FlatBuffersUnchecked => AnyCodec::FlatBuffersUnchecked(Default::default()),
            Format::Protobuf => AnyCodec::Protobuf(Default::default()),
            Format::Rkyv => AnyCodec::Rkyv(Default::default()),
            Format::RkyvUnchecked => AnyCodec::RkyvUnchecked(Default::default()),
            #[cfg(feature = "reference-sbe")]
            Format::RefSbe => AnyCodec::RefSbe(Default::default()),
            #[cfg(feature = "reference-sbe")]
            Format::RefSbe2019 => AnyCodec::RefSbe2019(Default::default()),
        }
    }
}

/// Calls `$body` with `$c` bound to the concrete codec inside an [`AnyCodec`] (as `&mut C`).
macro_rules! dispatch {
    ($any:expr, $c:ident => $body:expr) => {
        match $any {
            $crate::codec::AnyCodec::Sbe($c) => $body,
            $crate::codec::AnyCodec::Sbe2019($c) => $body,
            $crate::codec::AnyCodec::Capnp(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::CapnpPacked(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::FlatBuffers(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::FlatBuffersUnchecked(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::Protobuf(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::Rkyv(b) => {
                let $c = &mut **b;
                $body
            }
            $crate::codec::AnyCodec::RkyvUnchecked(b) => {
                let $c = &mut **b;
                $body
            }
            #[cfg(feature = "reference-sbe")]
            $crate::codec::AnyCodec::RefSbe($c) => $body,
            #[cfg(feature = "reference-sbe")]
            $crate::codec::AnyCodec::RefSbe2019($c) => $body,
        }
    };
}
pub(crate) use dispatch;
