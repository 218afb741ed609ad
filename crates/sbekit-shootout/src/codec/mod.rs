//! The formats under test, each implementing the same small system: write one message per
//! IEX-TP segment into a pre-allocated buffer, then read every message back and aggregate.

use crate::agg::Aggregates;
use crate::data::Entry;
use std::fmt;

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
}

/// The rows of the shootout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// sbekit-generated SBE codec, `schemas/market-data.xml` (designed the SBE way).
    Sbe,
    /// sbekit-generated SBE codec, `schemas/shootout-2019.xml` (the original's message shape).
    Sbe2019,
}

impl Format {
    /// Every format, in report order (the baseline first).
    pub const ALL: &'static [Format] = &[Format::Sbe, Format::Sbe2019];

    /// The short name used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            Format::Sbe => "sbe",
            Format::Sbe2019 => "sbe-2019",
        }
    }

    /// The row label in reports.
    pub fn label(self) -> &'static str {
        match self {
            Format::Sbe => "sbekit SBE (market-data)",
            Format::Sbe2019 => "sbekit SBE (2019 schema)",
        }
    }

    /// The format for a short name.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// How the format frames messages and what it cannot avoid allocating.
    pub fn notes(self) -> &'static str {
        match self {
            Format::Sbe => {
                "self-delimiting (decode returns the length); writes in place; no allocation"
            }
            Format::Sbe2019 => {
                "self-delimiting (decode walks the var data); writes in place; no allocation"
            }
        }
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
}

impl AnyCodec {
    /// A fresh codec for `format`.
    pub fn new(format: Format) -> AnyCodec {
        match format {
            Format::Sbe => AnyCodec::Sbe(Default::default()),
            Format::Sbe2019 => AnyCodec::Sbe2019(Default::default()),
        }
    }
}

/// Calls `$body` with `$c` bound to the concrete codec inside an [`AnyCodec`].
macro_rules! dispatch {
    ($any:expr, $c:ident => $body:expr) => {
        match $any {
            $crate::codec::AnyCodec::Sbe($c) => $body,
            $crate::codec::AnyCodec::Sbe2019($c) => $body,
        }
    };
}
pub(crate) use dispatch;
