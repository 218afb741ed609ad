//! Messages from captures: the SBE messages of pcap / pcap-ng files (gzip too) framed by one of
//! `sbekit capture`'s profiles, found exactly as `sbekit capture decode` finds them, so that a
//! user can ask whether the generated codecs read a venue's traffic as sbekit does.

use crate::{Case, Error};
use sbekit_feed::profile::Profile;
use sbekit_feed::read::{FeedMessage, PacketMeta, ReadOptions, Reader, Sink};
use std::path::PathBuf;

/// Capture files whose messages one schema's codecs are checked on.
#[derive(Debug, Clone)]
pub struct Captures {
    /// pcap or pcap-ng files, plain or gzip.
    pub files: Vec<PathBuf>,
    /// Their framing (`sbekit capture --profile`).
    pub profile: Profile,
}

/// What the captures held beside the schema's messages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaptureCounts {
    /// Messages of another schema id (or an unknown template): counted, not checked.
    pub other_schema: u64,
    /// Packets or messages whose framing was bad (as `sbekit capture stats` counts them).
    pub bad: u64,
}

/// Collects every message of the schema, as its bytes from the SBE header to its frame's end.
struct Collect {
    version: u64,
    cases: Vec<Case>,
}

impl Sink for Collect {
    fn message(
        &mut self,
        _: &PacketMeta,
        m: &FeedMessage<'_>,
    ) -> Result<(), sbekit_otf::DecodeError> {
        self.cases.push(Case {
            bytes: m.bytes.to_vec(),
            current: m.header.version == self.version,
        });
        Ok(())
    }
}

/// The schema's messages in `c`'s files, in capture order, and what else they held.
pub(crate) fn capture_cases(
    decoder: &sbekit_otf::Decoder,
    c: &Captures,
) -> Result<(Vec<Case>, CaptureCounts), Error> {
    let mut loaded = Vec::with_capacity(c.files.len());
    for f in &c.files {
        let bytes = sbekit_capture::load(f)
            .map_err(|e| Error::Usage(format!("cannot read {}: {e}", f.display())))?;
        loaded.push(bytes);
    }
    let views: Vec<&[u8]> = loaded.iter().map(|b| &b[..]).collect();
    let mut reader = Reader::new(
        c.profile.clone(),
        decoder,
        ReadOptions {
            arbitrate: false,
            keep_bad: 0,
        },
    );
    let mut sink = Collect {
        version: decoder.schema_version(),
        cases: Vec::new(),
    };
    reader.read(&views, &mut sink);
    let counts = CaptureCounts {
        other_schema: reader.stats.unknown.values().sum(),
        bad: reader.stats.bad_count,
    };
    Ok((sink.cases, counts))
}
