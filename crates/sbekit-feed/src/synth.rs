//! Deterministic synthetic captures (pcap-ng) of random valid messages, framed by any
//! profile, with packets dropped (sequence gaps) or sent twice (duplicates) on request.
//! Tests and benchmarks use them, because real captures cannot be committed.
//!
//! The messages depend only on `seed` (and the schema); the packets to drop or duplicate are
//! given by sequence number, so two runs with the same seed and different drops are the A and
//! B sides of one feed.

use crate::profile::{Profile, Transport};
use crate::read::Channel;
use sbekit_capture::write::PcapNgWriter;
use sbekit_ir::{Ir, Token};
use sbekit_otf::random::{market_message, random_message, Market, Options, Rng};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

/// How to shape a synthetic capture.
#[derive(Debug, Clone)]
pub struct SynthConfig {
    /// Messages in all (dropped packets included).
    pub messages: u64,
    /// Seed of the messages and of how they are packed.
    pub seed: u64,
    /// Most messages in one packet (each packet holds 1 to this many, and fits 1,400 bytes).
    pub max_per_packet: usize,
    /// Sequence numbers of packets left out (gaps).
    pub drop: BTreeSet<u64>,
    /// Sequence numbers of packets written twice (duplicates).
    pub duplicate: BTreeSet<u64>,
    /// The destination (multicast group or TCP server) and port.
    pub channel: Channel,
    /// The first packet's sequence number.
    pub first_seq: u64,
    /// Capture time of the first packet, ns since the epoch.
    pub start_ns: i64,
    /// Only these templates (ids); all when empty.
    pub templates: Vec<u64>,
    /// Largest group count and var-data length of the random messages.
    pub max_group: u64,
    /// Compress packets (profiles with an LZ4 flag, i.e. `optiq-mdg`).
    pub compress: bool,
    /// Realistic messages instead of random ones: `Some(n)` for a market of `n` instruments
    /// ([`sbekit_otf::random::Market`]: prices on a walking tick grid, skewed sizes, repeated
    /// symbols) and a channel's template mix ([`template_weight`]: mostly book and trade
    /// updates, few definitions); `None` for uniformly random templates and values.
    pub realistic: Option<usize>,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            messages: 1_000,
            seed: 1,
            max_per_packet: 4,
            drop: BTreeSet::new(),
            duplicate: BTreeSet::new(),
            channel: Channel {
                addr: [239, 1, 1, 1],
                port: 20_001,
            },
            first_seq: 1,
            // 2026-01-02T00:00:00Z.
            start_ns: 1_767_312_000_000_000_000,
            templates: Vec::new(),
            max_group: 3,
            compress: false,
            realistic: None,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SynthSummary {
    /// Packets written (duplicates included).
    pub packets: u64,
    /// Distinct messages written (those of dropped packets excluded, duplicates once).
    pub messages: u64,
    /// Those messages by template id.
    pub by_template: BTreeMap<u64, u64>,
    /// Messages of dropped packets.
    pub dropped_messages: u64,
    /// Sequence numbers used, first and last.
    pub seq_range: (u64, u64),
    /// Bytes of the capture.
    pub bytes: u64,
}

/// Largest UDP payload a synthetic packet fills.
const MAX_PAYLOAD: usize = 1_400;

/// Writes a synthetic capture of `ir`'s messages framed by `profile` to `out`.
pub fn generate(
    ir: &Ir,
    profile: &Profile,
    cfg: &SynthConfig,
    out: impl Write,
) -> io::Result<SynthSummary> {
    let messages: Vec<&Vec<Token>> = ir
        .messages
        .iter()
        .filter(|m| cfg.templates.is_empty() || cfg.templates.contains(&(m[0].id as u64)))
        .collect();
    if messages.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the schema has no (selected) message to write",
        ));
    }
    let mut w = PcapNgWriter::new(out, "sbekit capture synth (synthetic data)")?;
    let mut rng = Rng::new(cfg.seed);
    let opts = Options {
        max_group: cfg.max_group,
        max_data: 16,
        ..Options::default()
    };
    let mut market = cfg.realistic.map(|n| Market::new(n, &mut rng));
    // Cumulative template weights (uniform without a market).
    let mut cumulative = Vec::with_capacity(messages.len());
    let mut total = 0u64;
    for m in &messages {
        total += match market {
            Some(_) => template_weight(&m[0].name),
            None => 1,
        };
        cumulative.push(total);
    }
    let mut summary = SynthSummary::default();
    let mut seq = cfg.first_seq;
    let mut time = cfg.start_ns;
    let mut tcp_seq: u32 = 1_000;
    let src = ([10, 0, 0, 1], 30_001u16);
    let dst = (cfg.channel.addr, cfg.channel.port);
    let mut left = cfg.messages;
    let mut packet = Vec::with_capacity(2048);
    while left > 0 {
        let want = 1 + rng.below_or(cfg.max_per_packet.max(1) as u64 - 1);
        packet.clear();
        packet.resize(profile.header_size, 0);
        let mut templates = Vec::new();
        while (templates.len() as u64) < want && left > 0 {
            let m = if market.is_some() {
                let r = rng.below_or(total - 1);
                messages[cumulative.partition_point(|&c| c <= r)]
            } else {
                messages[rng.below_or(messages.len() as u64 - 1) as usize]
            };
            let msg = match &mut market {
                Some(mk) => market_message(ir, m, &mut rng, &opts, mk).bytes,
                None => random_message(ir, m, &mut rng, &opts).bytes,
            };
            let framed = frame(profile, &msg);
            if !templates.is_empty() && packet.len() + framed.len() > MAX_PAYLOAD {
                break;
            }
            packet.extend_from_slice(&framed);
            templates.push(m[0].id as u64);
            left -= 1;
        }
        time += 1_000 + rng.below_or(2_000) as i64;
        let send = time - 2_000;
        let be = profile.big_endian;
        if let Some(f) = profile.seq {
            put(&mut packet, f.offset, f.width, seq, be);
        }
        if let Some(f) = profile.time {
            put(&mut packet, f.offset, f.width, send as u64, be);
        }
        if cfg.compress {
            if let Some(f) = profile.lz4_flag {
                put(&mut packet, f.offset, f.width, 1, be);
                let body = lz4_flex::block::compress(&packet[profile.header_size..]);
                packet.truncate(profile.header_size);
                packet.extend_from_slice(&body);
            }
        }
        let n = templates.len() as u64;
        if cfg.drop.contains(&seq) {
            summary.dropped_messages += n;
            if profile.transport == Transport::TcpStream {
                tcp_seq = tcp_seq.wrapping_add(packet.len() as u32);
            }
        } else {
            let copies = if cfg.duplicate.contains(&seq) { 2 } else { 1 };
            for _ in 0..copies {
                match profile.transport {
                    Transport::Udp => w.udp(time, src, dst, &packet)?,
                    Transport::TcpPackets | Transport::TcpStream => {
                        w.tcp(time, src, dst, tcp_seq, &packet)?
                    }
                }
                summary.packets += 1;
            }
            if profile.transport == Transport::TcpStream {
                tcp_seq = tcp_seq.wrapping_add(packet.len() as u32);
            }
            summary.messages += n;
            for t in templates {
                *summary.by_template.entry(t).or_default() += 1;
            }
        }
        if summary.seq_range == (0, 0) {
            summary.seq_range.0 = seq;
        }
        summary.seq_range.1 = seq;
        seq += 1;
    }
    summary.bytes = w.bytes_written();
    w.into_inner()?;
    Ok(summary)
}

/// A template's share of a realistic channel's messages, by its name (per mille, roughly a
/// CME MDP 3.0 incremental channel's mix): book updates most, then trades, statistics and
/// status; definitions, snapshots and administrative messages rarely (weight 1). Names are
/// matched by parts, so other schemas' templates get the weight of what they resemble.
pub fn template_weight(name: &str) -> u64 {
    let n = name.to_ascii_lowercase();
    if n.contains("snapshot") || n.contains("definition") || n.contains("admin") {
        1
    } else if n.contains("orderbook") {
        150
    } else if n.contains("book") {
        if n.contains("long") {
            50
        } else {
            450
        }
    } else if n.contains("trade") {
        if n.contains("long") {
            30
        } else {
            150
        }
    } else if n.contains("volume") || n.contains("statistics") {
        30
    } else if n.contains("status") {
        15
    } else {
        2
    }
}

/// One message in the profile's framing.
fn frame(profile: &Profile, msg: &[u8]) -> Vec<u8> {
    let be = profile.big_endian;
    let lw = profile.length_width;
    let mut f = Vec::with_capacity(profile.before_sbe + msg.len());
    f.resize(profile.before_sbe, 0);
    f.extend_from_slice(msg);
    let len = if profile.length_counts_itself {
        f.len()
    } else {
        msg.len()
    } as u64;
    // The length is the first bytes of the frame (of the SBE header itself when before_sbe is
    // 0, as Coinbase's `frameLength`).
    put(&mut f, 0, lw, len, be);
    // An encoding type after the length: SBE little-endian (0xEB50) as B3 and FIX SOFH use.
    if profile.before_sbe >= lw + 2 {
        put(&mut f, lw, 2, 0xEB50, be);
    }
    f
}

fn put(buf: &mut [u8], at: usize, width: usize, v: u64, big_endian: bool) {
    let Some(dst) = buf.get_mut(at..at + width) else {
        return;
    };
    if big_endian {
        dst.copy_from_slice(&v.to_be_bytes()[8 - width..]);
    } else {
        dst.copy_from_slice(&v.to_le_bytes()[..width]);
    }
}
