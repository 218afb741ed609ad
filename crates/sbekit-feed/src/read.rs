//! Reading a capture through a profile: packets, their headers, and the SBE messages they
//! frame, with every problem counted and located instead of ending the read.

use crate::arbitrate::Arbiter;
use crate::profile::{read_uint, Profile, Transport};
use crate::stats::Stats;
use sbekit_capture::net::{transport, Skip, Transport as Net};
use sbekit_capture::tcp::{Chunk, FlowKey, Reassembler};
use sbekit_capture::PacketReader;
use sbekit_otf::{DecodeError, Decoder, MessageHeader};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A multicast group or TCP endpoint: the destination address and port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Channel {
    /// IPv4 destination address.
    pub addr: [u8; 4],
    /// Destination port.
    pub port: u16,
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d] = self.addr;
        write!(f, "{a}.{b}.{c}.{d}:{}", self.port)
    }
}

/// What is known of the packet a message came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PacketMeta {
    /// Index of the packet (frame) in its capture file, from 0.
    pub index: u64,
    /// Which input file (0 for the first).
    pub file: usize,
    /// Capture time, ns since the epoch.
    pub capture_ns: Option<i64>,
    /// Destination address and port.
    pub channel: Channel,
    /// The packet header's sequence number.
    pub seq: Option<u64>,
    /// The packet header's sending time, ns since the epoch.
    pub sending_ns: Option<i64>,
    /// Byte offset of the packet's payload (after UDP or TCP) in the capture.
    pub offset: u64,
}

/// One SBE message of a packet.
#[derive(Debug, Clone, Copy)]
pub struct FeedMessage<'a> {
    /// Index of the message in its packet, from 0.
    pub index: u32,
    /// Byte offset of its SBE header in the capture.
    pub offset: u64,
    /// The message, from its SBE header to the end of its frame (padding included).
    pub bytes: &'a [u8],
    /// Its SBE header.
    pub header: MessageHeader,
}

/// What was wrong with a packet or a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The capture container could not be read further (the read ends there).
    Container(String),
    /// The payload is shorter than the profile's packet header.
    ShortPacketHeader {
        /// Payload bytes.
        len: usize,
    },
    /// The packet header lacks the profile's constant (CME TCP's `0xCAFE`).
    BadMagic(u64),
    /// A message length that is shorter than its framing or runs past the packet.
    BadLength {
        /// The declared length.
        len: u64,
        /// Bytes left in the packet from the length field on.
        left: usize,
    },
    /// Bytes after the last whole message of a packet that hold no message.
    Trailing(usize),
    /// An SBE message of another schema id than the schema's (counted, not decoded).
    UnknownSchema {
        /// Its schema id.
        schema_id: u64,
        /// Its template id.
        template_id: u64,
        /// Its version.
        version: u64,
    },
    /// A template id the schema does not have.
    UnknownTemplate(u64),
    /// The message does not decode.
    Decode(DecodeError),
    /// An LZ4-compressed packet that does not inflate.
    Lz4(String),
    /// Bytes of a TCP stream that were never captured; the message they cut is lost.
    TcpGap(u64),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Container(e) => write!(f, "capture: {e}"),
            Problem::ShortPacketHeader { len } => {
                write!(f, "payload of {len} bytes is shorter than the packet header")
            }
            Problem::BadMagic(v) => write!(f, "packet header holds {v:#x}, not the profile's"),
            Problem::BadLength { len, left } => write!(
                f,
                "message length {len} does not fit ({left} bytes left in the packet)"
            ),
            Problem::Trailing(n) => write!(f, "{n} bytes after the last message"),
            Problem::UnknownSchema {
                schema_id,
                template_id,
                version,
            } => write!(
                f,
                "message of schema id {schema_id} (template {template_id}, version {version}), not the schema's"
            ),
            Problem::UnknownTemplate(t) => write!(f, "unknown template id {t}"),
            Problem::Decode(e) => write!(f, "{e}"),
            Problem::Lz4(e) => write!(f, "LZ4: {e}"),
            Problem::TcpGap(n) => write!(f, "{n} bytes of the TCP stream missing"),
        }
    }
}

impl Problem {
    /// A short name for counting (`"bad-length"`, `"unknown-schema"`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::Container(_) => "container",
            Problem::ShortPacketHeader { .. } => "short-packet-header",
            Problem::BadMagic(_) => "bad-magic",
            Problem::BadLength { .. } => "bad-length",
            Problem::Trailing(_) => "trailing-bytes",
            Problem::UnknownSchema { .. } => "unknown-schema",
            Problem::UnknownTemplate(_) => "unknown-template",
            Problem::Decode(_) => "decode",
            Problem::Lz4(_) => "lz4",
            Problem::TcpGap(_) => "tcp-gap",
        }
    }
}

/// A problem with where it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct BadPacket {
    /// Which input file.
    pub file: usize,
    /// Index of the packet in its file.
    pub packet: u64,
    /// Byte offset in the (decompressed) capture.
    pub offset: u64,
    /// What was wrong.
    pub problem: Problem,
}

impl fmt::Display for BadPacket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "file {} packet {} (byte {}): {}",
            self.file, self.packet, self.offset, self.problem
        )
    }
}

/// Receives the messages of a capture.
pub trait Sink {
    /// One message whose header matched the schema. An error is counted as a bad message
    /// (with its packet and offset) and reading goes on.
    fn message(
        &mut self,
        packet: &PacketMeta,
        message: &FeedMessage<'_>,
    ) -> Result<(), DecodeError>;
}

/// A sink that takes every message as it is: framing and SBE headers are checked (lengths
/// chain, schema id, known template), the bodies are not walked.
pub struct HeadersOnly;

impl Sink for HeadersOnly {
    fn message(&mut self, _: &PacketMeta, _: &FeedMessage<'_>) -> Result<(), DecodeError> {
        Ok(())
    }
}

/// A sink that validates every message by decoding it with no output.
pub struct Validate<'d>(pub &'d Decoder);

impl Sink for Validate<'_> {
    fn message(&mut self, _: &PacketMeta, m: &FeedMessage<'_>) -> Result<(), DecodeError> {
        self.0
            .decode(m.bytes, &mut sbekit_otf::NoopVisitor)
            .map(|_| ())
    }
}

/// Options of a read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Merge the inputs as the A and B sides of one feed by sequence number: two files, or
    /// the channels of one file. Each sequence number is delivered once.
    pub arbitrate: bool,
    /// Bad packets kept with their location in [`Stats::bad`] (all are counted).
    pub keep_bad: usize,
}

/// Reads captures through a profile; see the module docs.
pub struct Reader<'d> {
    profile: Arc<Profile>,
    /// The profile of packets carried one per TCP segment, if any.
    tcp_profile: Option<Arc<Profile>>,
    decoder: &'d Decoder,
    opts: ReadOptions,
    /// Statistics of everything read so far.
    pub stats: Stats,
    scratch: Vec<u8>,
}

struct Flow {
    carry: Vec<u8>,
    /// Capture offset of `carry[0]` (approximate after a gap).
    offset: u64,
    meta: PacketMeta,
    messages: u32,
}

impl<'d> Reader<'d> {
    /// A reader for captures framed by `profile`, decoded with `decoder`.
    pub fn new(profile: Profile, decoder: &'d Decoder, opts: ReadOptions) -> Self {
        let tcp_profile = if profile.transport == Transport::TcpPackets {
            Some(Arc::new(profile.clone()))
        } else {
            profile.tcp_variant.as_deref().cloned().map(Arc::new)
        };
        Reader {
            profile: Arc::new(profile),
            tcp_profile,
            decoder,
            stats: Stats::new(opts.keep_bad),
            opts,
            scratch: Vec::new(),
        }
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Reads whole captures (pcap or pcap-ng bytes), handing every message to `sink`.
    pub fn read(&mut self, captures: &[&[u8]], sink: &mut dyn Sink) {
        let start = std::time::Instant::now();
        if self.opts.arbitrate {
            self.read_arbitrated(captures, sink);
        } else {
            for (file, bytes) in captures.iter().enumerate() {
                self.stats.bytes += bytes.len() as u64;
                let mut flows = HashMap::new();
                let mut tcp = Reassembler::default();
                self.read_one(file, bytes, sink, &mut flows, &mut tcp, &mut |_| true);
                self.finish_tcp(&mut flows, &mut tcp, sink);
            }
        }
        let decoder = self.decoder;
        self.stats
            .settle(&|id| decoder.message_by_id(id).map(|m| m.name.clone()));
        self.stats.seconds += start.elapsed().as_secs_f64();
    }

    /// One capture; `keep` decides for each packet (after its header is read) whether its
    /// messages are delivered.
    fn read_one(
        &mut self,
        file: usize,
        bytes: &[u8],
        sink: &mut dyn Sink,
        flows: &mut HashMap<FlowKey, Flow>,
        tcp: &mut Reassembler,
        keep: &mut dyn FnMut(&PacketMeta) -> bool,
    ) {
        let reader = match PacketReader::new(bytes) {
            Ok(r) => r,
            Err(e) => {
                self.bad(file, 0, e.offset, Problem::Container(e.kind.to_string()));
                return;
            }
        };
        for (index, packet) in reader.enumerate() {
            match packet {
                Ok(p) => self.one_frame(file, index as u64, &p, sink, flows, tcp, keep),
                Err(e) => {
                    self.bad(
                        file,
                        index as u64,
                        e.offset,
                        Problem::Container(e.kind.to_string()),
                    );
                    return;
                }
            }
        }
    }

    /// One captured frame.
    #[allow(clippy::too_many_arguments)]
    fn one_frame(
        &mut self,
        file: usize,
        index: u64,
        packet: &sbekit_capture::Packet<'_>,
        sink: &mut dyn Sink,
        flows: &mut HashMap<FlowKey, Flow>,
        tcp: &mut Reassembler,
        keep: &mut dyn FnMut(&PacketMeta) -> bool,
    ) {
        self.stats.frames += 1;
        let mut meta = PacketMeta {
            index,
            file,
            capture_ns: packet.timestamp_ns,
            ..PacketMeta::default()
        };
        match transport(packet.link_type, packet.data) {
            Ok(Net::Udp(d)) if self.profile.transport == Transport::Udp => {
                meta.channel = Channel {
                    addr: d.dst,
                    port: d.dst_port,
                };
                meta.offset = packet.offset + d.payload_offset as u64;
                let profile = Arc::clone(&self.profile);
                self.packet(&profile, &meta, d.payload, sink, keep);
            }
            Ok(Net::Tcp(s)) if self.profile.transport == Transport::TcpStream => {
                meta.channel = Channel {
                    addr: s.dst,
                    port: s.dst_port,
                };
                meta.offset = packet.offset + s.payload_offset as u64;
                if !s.payload.is_empty() {
                    self.stats.packet(&meta, s.payload.len());
                }
                let mut chunks: Vec<(FlowKey, Option<Vec<u8>>, u64)> = Vec::new();
                // The reassembler lends its bytes to a closure; collect, then frame.
                tcp.push(&s, &mut |k, c| match c {
                    Chunk::Bytes(b) => chunks.push((k, Some(b.to_vec()), 0)),
                    Chunk::Gap(n) => chunks.push((k, None, n)),
                });
                for (k, bytes, gap) in chunks {
                    self.stream_chunk(flows, k, &meta, bytes.as_deref(), gap, sink);
                }
            }
            Ok(Net::Tcp(s)) if !s.payload.is_empty() && self.tcp_profile.is_some() => {
                meta.channel = Channel {
                    addr: s.dst,
                    port: s.dst_port,
                };
                meta.offset = packet.offset + s.payload_offset as u64;
                if let Some(profile) = self.tcp_profile.clone() {
                    self.packet(&profile, &meta, s.payload, sink, keep);
                }
            }
            Ok(_) | Err(Skip::LinkType | Skip::NotIpv4 | Skip::NotUdp) => {
                self.stats.other_frames += 1
            }
            Err(Skip::Fragment | Skip::Malformed) => self.stats.malformed_frames += 1,
        }
    }

    /// One packet: its header, then its messages.
    fn packet(
        &mut self,
        profile: &Profile,
        meta: &PacketMeta,
        payload: &[u8],
        sink: &mut dyn Sink,
        keep: &mut dyn FnMut(&PacketMeta) -> bool,
    ) {
        let mut meta = *meta;
        self.stats.packet(&meta, payload.len());
        let h = profile.header_size;
        if payload.len() < h {
            let p = Problem::ShortPacketHeader { len: payload.len() };
            self.bad(meta.file, meta.index, meta.offset, p);
            return;
        }
        if let Some((f, v)) = profile.magic {
            let got = f.read(payload, profile.big_endian).unwrap_or(0);
            if got != v {
                self.bad(meta.file, meta.index, meta.offset, Problem::BadMagic(got));
                return;
            }
        }
        meta.seq = profile
            .seq
            .and_then(|f| f.read(payload, profile.big_endian));
        meta.sending_ns = profile
            .time
            .and_then(|f| f.read(payload, profile.big_endian))
            .map(|t| t as i64);
        self.stats.sequence(&meta);
        if !keep(&meta) {
            return;
        }
        let mut body = &payload[h..];
        let compressed = profile
            .lz4_flag
            .and_then(|f| f.read(payload, profile.big_endian))
            .is_some_and(|v| v & 1 != 0);
        let mut scratch = std::mem::take(&mut self.scratch);
        if compressed {
            scratch.clear();
            scratch.resize(1 << 16, 0);
            match lz4_flex::block::decompress_into(body, &mut scratch) {
                Ok(n) => {
                    scratch.truncate(n);
                    body = &scratch;
                }
                Err(e) => {
                    let p = Problem::Lz4(e.to_string());
                    self.bad(meta.file, meta.index, meta.offset + h as u64, p);
                    self.scratch = scratch;
                    return;
                }
            }
        }
        let base = meta.offset + h as u64;
        let (_, problem) = self.frames(profile, &meta, body, base, 0, sink);
        if let Some((at, p)) = problem {
            self.bad(meta.file, meta.index, at, p);
        }
        self.scratch = scratch;
    }

    /// Frames and delivers the messages of `body`. Returns the bytes used and the problem
    /// that stopped framing early, if any (for a stream, a partial message at the end is not a
    /// problem: it waits for more bytes).
    fn frames(
        &mut self,
        profile: &Profile,
        meta: &PacketMeta,
        body: &[u8],
        base: u64,
        first_index: u32,
        sink: &mut dyn Sink,
    ) -> (usize, Option<(u64, Problem)>) {
        let stream = profile.transport == Transport::TcpStream;
        let mut pos = 0usize;
        let mut index = first_index;
        let lw = profile.length_width;
        while pos < body.len() {
            let left = body.len() - pos;
            let Some(len) = read_uint(body, pos, lw, profile.big_endian) else {
                if stream {
                    return (pos, None);
                }
                return (pos, Some((base + pos as u64, Problem::Trailing(left))));
            };
            let frame = if profile.length_counts_itself {
                len
            } else {
                len + profile.before_sbe as u64
            };
            let min = (profile.before_sbe as u64).max(lw as u64) + 1;
            if frame < min {
                let p = Problem::BadLength { len, left };
                return (pos, Some((base + pos as u64, p)));
            }
            if frame > left as u64 {
                if stream && frame <= 1 << 24 {
                    return (pos, None);
                }
                let p = Problem::BadLength { len, left };
                return (pos, Some((base + pos as u64, p)));
            }
            let frame = frame as usize;
            let sbe = &body[pos + profile.before_sbe..pos + frame];
            let offset = base + (pos + profile.before_sbe) as u64;
            self.message(meta, index, sbe, offset, sink);
            index += 1;
            pos += frame;
        }
        (pos, None)
    }

    fn message(
        &mut self,
        meta: &PacketMeta,
        index: u32,
        sbe: &[u8],
        offset: u64,
        sink: &mut dyn Sink,
    ) {
        let header = match self.decoder.read_header(sbe) {
            Ok(h) => h,
            Err(e) => {
                self.bad(meta.file, meta.index, offset, Problem::Decode(e));
                return;
            }
        };
        if header.schema_id != self.decoder.schema_id()
            && self.decoder.header().constants[2].is_none()
        {
            self.stats.unknown_schema(&header);
            let p = Problem::UnknownSchema {
                schema_id: header.schema_id,
                template_id: header.template_id,
                version: header.version,
            };
            self.bad(meta.file, meta.index, offset, p);
            return;
        }
        if self.decoder.message_by_id(header.template_id).is_none() {
            self.stats.unknown_schema(&header);
            let p = Problem::UnknownTemplate(header.template_id);
            self.bad(meta.file, meta.index, offset, p);
            return;
        }
        let m = FeedMessage {
            index,
            offset,
            bytes: sbe,
            header,
        };
        match sink.message(meta, &m) {
            Ok(()) => {
                let schema = (self.decoder.schema_id(), self.decoder.schema_version());
                self.stats.message(meta, &header, schema)
            }
            Err(e) => {
                let e = DecodeError {
                    offset: e.offset,
                    ..e
                };
                let at = offset + e.offset as u64;
                self.bad(meta.file, meta.index, at, Problem::Decode(e));
            }
        }
    }

    /// Bytes (or a gap) of a reassembled TCP stream.
    fn stream_chunk(
        &mut self,
        flows: &mut HashMap<FlowKey, Flow>,
        key: FlowKey,
        meta: &PacketMeta,
        bytes: Option<&[u8]>,
        gap: u64,
        sink: &mut dyn Sink,
    ) {
        let flow = flows.entry(key).or_insert_with(|| Flow {
            carry: Vec::new(),
            offset: meta.offset,
            meta: *meta,
            messages: 0,
        });
        let Some(bytes) = bytes else {
            // What waited for the missing bytes is lost with them.
            flow.carry.clear();
            let at = meta.offset;
            self.bad(meta.file, meta.index, at, Problem::TcpGap(gap));
            return;
        };
        if flow.carry.is_empty() {
            flow.offset = meta.offset;
        }
        flow.carry.extend_from_slice(bytes);
        flow.meta = *meta;
        let carry = std::mem::take(&mut flow.carry);
        let (base, first) = (flow.offset, flow.messages);
        let profile = Arc::clone(&self.profile);
        let (used, problem) = self.frames(&profile, meta, &carry, base, first, sink);
        let flow = flows.get_mut(&key).expect("the flow was inserted above");
        flow.messages = first + count_frames(&profile, &carry[..used]);
        if let Some((at, p)) = problem {
            // A stream cannot be resynchronised inside: drop what is buffered.
            self.bad(meta.file, meta.index, at, p);
            flow.carry.clear();
            return;
        }
        flow.carry = carry[used..].to_vec();
        flow.offset = base + used as u64;
    }

    fn finish_tcp(
        &mut self,
        flows: &mut HashMap<FlowKey, Flow>,
        tcp: &mut Reassembler,
        sink: &mut dyn Sink,
    ) {
        let mut chunks: Vec<(FlowKey, Option<Vec<u8>>, u64)> = Vec::new();
        tcp.finish(&mut |k, c| match c {
            Chunk::Bytes(b) => chunks.push((k, Some(b.to_vec()), 0)),
            Chunk::Gap(n) => chunks.push((k, None, n)),
        });
        for (k, bytes, gap) in chunks {
            let meta = flows.get(&k).map(|f| f.meta).unwrap_or_default();
            self.stream_chunk(flows, k, &meta, bytes.as_deref(), gap, sink);
        }
        let mut keys: Vec<FlowKey> = flows.keys().copied().collect();
        keys.sort();
        for k in keys {
            if let Some(f) = flows.get(&k) {
                if !f.carry.is_empty() {
                    let (meta, n, at) = (f.meta, f.carry.len(), f.offset);
                    self.bad(meta.file, meta.index, at, Problem::Trailing(n));
                }
            }
        }
        let c = tcp.counters();
        self.stats.tcp_gaps += c.gaps;
        self.stats.tcp_gap_bytes += c.gap_bytes;
        self.stats.tcp_retransmitted += c.duplicate_segments;
        flows.clear();
    }

    fn read_arbitrated(&mut self, captures: &[&[u8]], sink: &mut dyn Sink) {
        // Packets of all inputs in capture-time order (a stable sort: ties keep file order),
        // then each sequence number once.
        let mut order = Vec::new();
        for (file, bytes) in captures.iter().enumerate() {
            self.stats.bytes += bytes.len() as u64;
            let reader = match PacketReader::new(bytes) {
                Ok(r) => r,
                Err(e) => {
                    self.bad(file, 0, e.offset, Problem::Container(e.kind.to_string()));
                    continue;
                }
            };
            for (index, p) in reader.enumerate() {
                match p {
                    Ok(p) => order.push((p.timestamp_ns.unwrap_or(0), file, index as u64, p)),
                    Err(e) => {
                        let p = Problem::Container(e.kind.to_string());
                        self.bad(file, index as u64, e.offset, p);
                        break;
                    }
                }
            }
        }
        order.sort_by_key(|o| o.0);
        let mut arbiter = Arbiter::default();
        let mut sides: Vec<(usize, Channel)> = Vec::new();
        let two_files = captures.len() > 1;
        let mut flows = HashMap::new();
        let mut tcp = Reassembler::default();
        for (_, file, index, packet) in order {
            let mut keep = |m: &PacketMeta| {
                // A side is a file, or with one file a channel.
                let side_key = if two_files {
                    (file, Channel::default())
                } else {
                    (0, m.channel)
                };
                let side = match sides.iter().position(|s| *s == side_key) {
                    Some(i) => i,
                    None => {
                        sides.push(side_key);
                        sides.len() - 1
                    }
                };
                match m.seq {
                    Some(seq) => arbiter.offer(seq, side),
                    None => true,
                }
            };
            self.one_frame(file, index, &packet, sink, &mut flows, &mut tcp, &mut keep);
        }
        self.finish_tcp(&mut flows, &mut tcp, sink);
        self.stats.arbitration = Some(arbiter.finish());
    }

    fn bad(&mut self, file: usize, packet: u64, offset: u64, problem: Problem) {
        self.stats.bad(BadPacket {
            file,
            packet,
            offset,
            problem,
        });
    }
}

fn count_frames(profile: &Profile, bytes: &[u8]) -> u32 {
    let mut pos = 0;
    let mut n = 0;
    while let Some(len) = read_uint(bytes, pos, profile.length_width, profile.big_endian) {
        let frame = if profile.length_counts_itself {
            len
        } else {
            len + profile.before_sbe as u64
        };
        if frame == 0 || pos as u64 + frame > bytes.len() as u64 {
            break;
        }
        pos += frame as usize;
        n += 1;
    }
    n
}
