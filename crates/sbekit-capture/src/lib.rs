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
//! - [`load`]: a whole capture file in memory, gzip inflated (detected by magic bytes).
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

/// Reads a whole capture file into memory; a gzip file (detected by its magic bytes, not its
/// name) is inflated, multi-member streams included.
pub fn load(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    if sniff(&bytes) == Sniffed::Gzip {
        let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
        flate2::read::MultiGzDecoder::new(BufReader::new(&bytes[..])).read_to_end(&mut out)?;
        return Ok(out);
    }
    Ok(bytes)
}
