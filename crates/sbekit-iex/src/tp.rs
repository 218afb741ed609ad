//! IEX-TP segments (one per UDP datagram) and the message blocks inside them, plus the readers
//! that go from capture bytes to segments and messages.

use crate::capture::{Packet, PacketReader, StreamPacketReader};
use crate::error::{Error, IexErrorKind};
use crate::msg::Message;
use crate::net::{udp_datagram, Skip};
use std::io::Read;

/// Length of the IEX-TP segment header.
pub const HEADER_LEN: usize = 40;

/// The feed a segment carries, from its message protocol id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// 0x8002, TOPS 1.5.
    Tops15,
    /// 0x8003, TOPS 1.6.
    Tops16,
    /// 0x8004, DEEP 1.0.
    Deep10,
    /// 0x8005, DEEP+.
    DeepPlus,
    /// Any other id.
    Other(u16),
}

impl Protocol {
    /// Maps a message protocol id.
    pub fn from_id(id: u16) -> Protocol {
        match id {
            0x8002 => Protocol::Tops15,
            0x8003 => Protocol::Tops16,
            0x8004 => Protocol::Deep10,
            0x8005 => Protocol::DeepPlus,
            other => Protocol::Other(other),
        }
    }

    /// A short name ("DEEP 1.0", ...).
    pub fn name(&self) -> &'static str {
        match self {
            Protocol::Tops15 => "TOPS 1.5",
            Protocol::Tops16 => "TOPS 1.6",
            Protocol::Deep10 => "DEEP 1.0",
            Protocol::DeepPlus => "DEEP+",
            Protocol::Other(_) => "unknown",
        }
    }
}

#[inline(always)]
fn le16(b: &[u8; HEADER_LEN], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
#[inline(always)]
fn le32(b: &[u8; HEADER_LEN], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
#[inline(always)]
fn le64(b: &[u8; HEADER_LEN], at: usize) -> i64 {
    let mut v = [0u8; 8];
    v.copy_from_slice(&b[at..at + 8]);
    i64::from_le_bytes(v)
}

/// One IEX-TP segment: the 40-byte header and its payload of message blocks.
#[derive(Debug, Clone, Copy)]
pub struct Segment<'a> {
    header: &'a [u8; HEADER_LEN],
    payload: &'a [u8],
    offset: u64,
    capture_ns: Option<i64>,
}

impl<'a> Segment<'a> {
    /// Reads a segment from a UDP payload. `offset` is the payload's position in the capture.
    ///
    /// `Ok(None)` when the datagram is not IEX-TP (too short, or version not 1). A payload length
    /// that disagrees with the datagram is an error.
    #[inline]
    pub fn parse(udp_payload: &'a [u8], offset: u64) -> Result<Option<Segment<'a>>, Error> {
        let Some(head) = udp_payload.get(..HEADER_LEN) else {
            return Ok(None);
        };
        let header: &'a [u8; HEADER_LEN] = match head.try_into() {
            Ok(h) => h,
            Err(_) => return Ok(None),
        };
        if header[0] != 1 {
            return Ok(None);
        }
        let declared = le16(header, 12);
        let rest = &udp_payload[HEADER_LEN..];
        if rest.len() < declared as usize {
            return Err(Error::new(
                offset,
                IexErrorKind::PayloadLength {
                    declared,
                    actual: rest.len() as u64,
                },
            ));
        }
        Ok(Some(Segment {
            header,
            payload: &rest[..declared as usize],
            offset,
            capture_ns: None,
        }))
    }

    /// The raw 40 header bytes.
    pub fn header_bytes(&self) -> &'a [u8; HEADER_LEN] {
        self.header
    }
    /// IEX-TP version (1).
    #[inline]
    pub fn version(&self) -> u8 {
        self.header[0]
    }
    /// Message protocol id (0x8004 DEEP, 0x8003 TOPS 1.6, ...).
    #[inline]
    pub fn protocol_id(&self) -> u16 {
        le16(self.header, 2)
    }
    /// The feed, from the protocol id.
    #[inline]
    pub fn protocol(&self) -> Protocol {
        Protocol::from_id(self.protocol_id())
    }
    /// Channel id.
    #[inline]
    pub fn channel_id(&self) -> u32 {
        le32(self.header, 4)
    }
    /// Session id.
    #[inline]
    pub fn session_id(&self) -> u32 {
        le32(self.header, 8)
    }
    /// Payload length in bytes.
    #[inline]
    pub fn payload_length(&self) -> u16 {
        le16(self.header, 12)
    }
    /// Number of messages the header announces (0 for a heartbeat).
    #[inline]
    pub fn message_count(&self) -> u16 {
        le16(self.header, 14)
    }
    /// Byte offset of this payload in the session's stream.
    #[inline]
    pub fn stream_offset(&self) -> i64 {
        le64(self.header, 16)
    }
    /// Sequence number of the first message (the next one, in a heartbeat).
    #[inline]
    pub fn first_seq(&self) -> i64 {
        le64(self.header, 24)
    }
    /// Send time, ns since the epoch.
    #[inline]
    pub fn send_time(&self) -> i64 {
        le64(self.header, 32)
    }
    /// True for a heartbeat (no messages).
    #[inline]
    pub fn is_heartbeat(&self) -> bool {
        self.message_count() == 0 && self.payload.is_empty()
    }
    /// The message blocks.
    #[inline]
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }
    /// Byte offset of the segment header in the capture.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// Capture timestamp of the packet that carried it (ns), when known.
    #[inline]
    pub fn capture_time(&self) -> Option<i64> {
        self.capture_ns
    }
    /// Iterates the messages of this segment.
    #[inline]
    pub fn messages(&self) -> MessageIter<'a> {
        MessageIter {
            buf: self.payload,
            pos: 0,
            base: self.offset + HEADER_LEN as u64,
        }
    }
}

/// Iterates the message blocks of one segment, always advancing by each block's length.
///
/// A block that runs past the segment or is empty ends the iteration with an error (the framing
/// is lost); a known type that is too short yields an error and iteration continues.
#[derive(Debug, Clone)]
pub struct MessageIter<'a> {
    buf: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> MessageIter<'a> {
    /// Byte offset in the capture of the next message block.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }
}

impl<'a> Iterator for MessageIter<'a> {
    type Item = Result<Message<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        let pos = self.pos;
        let rest = buf.get(pos..)?;
        if rest.is_empty() {
            return None;
        }
        let at = self.base + pos as u64;
        let (len, body) = match rest {
            [a, b, body @ ..] => (u16::from_le_bytes([*a, *b]), body),
            _ => {
                self.pos = buf.len();
                return Some(Err(Error::truncated(
                    at,
                    "message length",
                    2,
                    rest.len() as u64,
                )));
            }
        };
        let Some(raw) = body.get(..len as usize) else {
            self.pos = buf.len();
            return Some(Err(Error::new(
                at,
                IexErrorKind::MessageOverrun {
                    len,
                    remaining: body.len() as u64,
                },
            )));
        };
        if raw.is_empty() {
            self.pos = buf.len();
            return Some(Err(Error::new(at, IexErrorKind::EmptyMessage)));
        }
        self.pos = pos + 2 + len as usize;
        Some(Message::parse(raw).map_err(|need| {
            Error::new(
                at,
                IexErrorKind::MessageTooShort {
                    msg_type: raw[0],
                    len,
                    need: need as u16,
                },
            )
        }))
    }
}

/// Counts of frames that carried no IEX-TP segment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameCounters {
    /// Frames seen (all link types).
    pub frames: u64,
    /// Frames that are not IPv4 UDP (other ethertypes, other IP protocols, other link types).
    pub non_udp: u64,
    /// IPv4 fragments.
    pub fragments: u64,
    /// Frames with a cut or inconsistent Ethernet, IPv4 or UDP header.
    pub malformed: u64,
    /// UDP datagrams that are not IEX-TP (shorter than 40 bytes, or version not 1).
    pub non_iextp: u64,
    /// Errors skipped because [`ReadOptions::keep_going`] was set.
    pub skipped_errors: u64,
}

/// Options shared by the segment and message readers.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Continue after a corrupt segment or message (counted in
    /// [`FrameCounters::skipped_errors`]) instead of stopping at the first error. Errors in the
    /// capture container itself (a truncated record) always end the input.
    pub keep_going: bool,
}

/// From a packet to its IEX-TP segment, counting what is skipped.
#[inline]
pub(crate) fn segment_of<'a>(
    packet: &Packet<'a>,
    counters: &mut FrameCounters,
) -> Result<Option<Segment<'a>>, Error> {
    counters.frames += 1;
    let dgram = match udp_datagram(packet.link_type, packet.data) {
        Ok(d) => d,
        Err(skip) => {
            match skip {
                Skip::LinkType | Skip::NotIpv4 | Skip::NotUdp => counters.non_udp += 1,
                Skip::Fragment => counters.fragments += 1,
                Skip::Malformed => counters.malformed += 1,
            }
            return Ok(None);
        }
    };
    let off = packet.offset + dgram.payload_offset as u64;
    match Segment::parse(dgram.payload, off)? {
        Some(mut s) => {
            s.capture_ns = packet.timestamp_ns;
            Ok(Some(s))
        }
        None => {
            counters.non_iextp += 1;
            Ok(None)
        }
    }
}

/// Iterates the IEX-TP segments (heartbeats included) of a capture in memory.
#[derive(Debug, Clone)]
pub struct Segments<'a> {
    packets: PacketReader<'a>,
    counters: FrameCounters,
    opts: ReadOptions,
    done: bool,
}

impl<'a> Segments<'a> {
    /// Reads the capture header of `data` (pcap or pcap-ng).
    pub fn new(data: &'a [u8], opts: ReadOptions) -> Result<Self, Error> {
        Ok(Segments {
            packets: PacketReader::new(data)?,
            counters: FrameCounters::default(),
            opts,
            done: false,
        })
    }

    /// What was skipped so far.
    pub fn counters(&self) -> &FrameCounters {
        &self.counters
    }

    /// Bytes of the capture read so far.
    pub fn position(&self) -> u64 {
        self.packets.position()
    }

    /// Flattens into an iterator over all messages.
    pub fn messages(self) -> Messages<'a> {
        Messages {
            segments: self,
            current: MessageIter {
                buf: &[],
                pos: 0,
                base: 0,
            },
        }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Result<Segment<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let packet = match self.packets.next() {
                None => break,
                Some(Ok(p)) => p,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
            };
            match segment_of(&packet, &mut self.counters) {
                Ok(Some(s)) => return Some(Ok(s)),
                Ok(None) => {}
                Err(e) => {
                    if self.opts.keep_going {
                        self.counters.skipped_errors += 1;
                    } else {
                        self.done = true;
                    }
                    return Some(Err(e));
                }
            }
        }
        self.done = true;
        None
    }
}

/// All messages of a capture in memory, in order, segment after segment.
#[derive(Debug, Clone)]
pub struct Messages<'a> {
    segments: Segments<'a>,
    current: MessageIter<'a>,
}

impl<'a> Messages<'a> {
    /// What was skipped so far.
    pub fn counters(&self) -> &FrameCounters {
        self.segments.counters()
    }

    /// Counts a skipped message error, or ends the iteration (kept out of the hot loop).
    #[cold]
    fn message_error(&mut self, e: Error) -> Error {
        if self.segments.opts.keep_going {
            self.segments.counters.skipped_errors += 1;
        } else {
            self.segments.done = true;
            self.current.pos = self.current.buf.len();
        }
        e
    }
}

impl<'a> Iterator for Messages<'a> {
    type Item = Result<Message<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.current.next() {
                return Some(match item {
                    Ok(m) => Ok(m),
                    Err(e) => Err(self.message_error(e)),
                });
            }
            match self.segments.next()? {
                Ok(s) => self.current = s.messages(),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Streams IEX-TP segments from any reader (e.g. a gzip decoder) with bounded memory. A lending
/// reader: each segment borrows an internal buffer until the next call.
pub struct StreamSegments<R> {
    packets: StreamPacketReader<R>,
    counters: FrameCounters,
    opts: ReadOptions,
    done: bool,
}

impl<R: Read> StreamSegments<R> {
    /// Reads the capture header from `input`.
    pub fn new(input: R, opts: ReadOptions) -> Result<Self, Error> {
        Ok(StreamSegments {
            packets: StreamPacketReader::new(input)?,
            counters: FrameCounters::default(),
            opts,
            done: false,
        })
    }

    /// What was skipped so far.
    pub fn counters(&self) -> &FrameCounters {
        &self.counters
    }

    /// Bytes of the decompressed stream read so far.
    pub fn position(&self) -> u64 {
        self.packets.position()
    }

    /// The container format ("pcap (little-endian, µs)", "pcap-ng", ...).
    pub fn format_name(&self) -> &'static str {
        self.packets.format_name()
    }

    /// The container format.
    pub fn capture_format(&self) -> crate::CaptureFormat {
        self.packets.capture_format()
    }

    /// The next segment, `None` at the end, or an error.
    pub fn next_segment(&mut self) -> Option<Result<Segment<'_>, Error>> {
        if self.done {
            return None;
        }
        loop {
            if let Err(e) = self.packets.advance()? {
                self.done = true;
                return Some(Err(e.into()));
            }
            let found = match self.packets.current() {
                Some(p) => segment_of(&p, &mut self.counters).map(|s| s.is_some()),
                None => Ok(false),
            };
            match found {
                Ok(false) => continue,
                Ok(true) => break,
                Err(e) => {
                    if self.opts.keep_going {
                        self.counters.skipped_errors += 1;
                    } else {
                        self.done = true;
                    }
                    return Some(Err(e));
                }
            }
        }
        // Decode the segment again from the packet buffer: returning the first borrow from
        // inside the loop is rejected by the borrow checker, and this costs a few comparisons.
        let p = self.packets.current()?;
        let mut scratch = FrameCounters::default();
        segment_of(&p, &mut scratch).transpose()
    }

    /// Calls `f` for every segment until the input ends or `f` returns an error.
    pub fn for_each_segment<E: From<Error>>(
        &mut self,
        mut f: impl FnMut(&Segment<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        while let Some(s) = self.next_segment() {
            f(&s?)?;
        }
        Ok(())
    }
}
