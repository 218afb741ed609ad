//! Packet captures for market-data readers, shared by the IEX reader (`sbekit-iex`) and the
//! SBE feed reader (`sbekit-feed`).
//!
//! - [`pcap`]: classic pcap (both byte orders, µs and ns) and pcap-ng, sniffed by magic bytes;
//!   [`PacketReader`] over bytes in memory (zero-copy, with a one-pass fast path for the
//!   common records) and [`StreamPacketReader`] over any reader (bounded memory).
//! - [`net`]: Ethernet II with 802.1Q / QinQ tags, Linux SLL, raw IP; IPv4 with options; UDP
//!   ([`net::udp_datagram`], with a one-pass fast path) and TCP ([`net::transport`]).
//! - [`tcp`]: in-order TCP stream reassembly with gaps reported.
//! - [`write`]: a pcap-ng writer for synthetic captures.
//! - [`load`]: a whole capture file: memory-mapped, or inflated when gzip (detected by magic
//!   bytes).
//!
//! Readers never panic: malformed input gives an [`Error`] naming the byte offset, after every
//! packet before it was delivered.

#![warn(missing_docs)]

pub mod error;
pub mod net;
pub mod pcap;
pub mod tcp;
pub mod write;

pub use error::{Error, ErrorKind};
pub use pcap::{sniff, CaptureFormat, Packet, PacketReader, Sniffed, StreamPacketReader};

use std::io::{self, BufReader, Read};
use std::path::Path;

/// A whole capture's bytes: memory-mapped, or inflated from gzip.
pub enum CaptureBytes {
    /// A plain file, mapped read-only (`sbekit_fs::map`).
    Mapped(sbekit_fs::Mmap),
    /// Inflated gzip, or an empty file.
    Owned(Vec<u8>),
}

impl CaptureBytes {
    /// Lets the kernel drop the resident pages of the bytes `..end` of a mapped capture
    /// (`sbekit_fs::release`: they stay readable, read back from the file if touched again), so
    /// that reading a capture from start to end keeps a bounded part of it resident. Inflated
    /// captures are owned memory and keep theirs.
    pub fn release_before(&self, end: usize) {
        if let CaptureBytes::Mapped(m) = self {
            // Advice only: a failure leaves the pages resident, nothing more.
            let _ = sbekit_fs::release(m, 0, end);
        }
    }
}

impl std::ops::Deref for CaptureBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            CaptureBytes::Mapped(m) => m,
            CaptureBytes::Owned(v) => v,
        }
    }
}

/// Opens a whole capture file: a gzip file (detected by its magic bytes, not its name) is
/// inflated into memory, multi-member streams included; anything else is memory-mapped.
pub fn load(path: impl AsRef<Path>) -> io::Result<CaptureBytes> {
    let mut file = std::fs::File::open(path.as_ref())?;
    let mut head = [0u8; 2];
    let mut n = 0;
    while n < 2 {
        match file.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if sniff(&head[..n]) == Sniffed::Gzip {
        let file = std::fs::File::open(path.as_ref())?;
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, file))
            .read_to_end(&mut out)?;
        return Ok(CaptureBytes::Owned(out));
    }
    if file.metadata()?.len() == 0 {
        return Ok(CaptureBytes::Owned(Vec::new()));
    }
    Ok(CaptureBytes::Mapped(sbekit_fs::map(&file)?))
}
