//! Capture containers: classic pcap (both byte orders, µs and ns) and pcap-ng.
//!
//! The format is sniffed from the magic number, never from the file name. One record parser
//! turns whole records into [`Packet`]s; the slice reader ([`PacketReader`]) and the streaming
//! reader ([`StreamPacketReader`]) only differ in how they obtain those record bytes.

use crate::error::{Error, ErrorKind};
use std::io::Read;

/// Link type of Ethernet II frames (DLT_EN10MB).
pub const LINKTYPE_ETHERNET: u32 = 1;
/// Link type of bare IPv4/IPv6 packets (DLT_RAW as stored in files).
pub const LINKTYPE_RAW: u32 = 101;
/// Link type of bare IPv4 packets.
pub const LINKTYPE_IPV4: u32 = 228;
/// Link type of Linux "cooked" captures (SLL).
pub const LINKTYPE_LINUX_SLL: u32 = 113;

#[path = "pcap_record.rs"]
mod record;

use record::PacketInfo;
use record::RecordParser;

/// Which container a capture uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureFormat {
    /// Classic libpcap.
    Pcap {
        /// True when the file is big-endian.
        big_endian: bool,
        /// True for the nanosecond-resolution magic.
        nanos: bool,
    },
    /// pcap-ng (byte order may change per section).
    PcapNg,
}

/// What the first bytes of a file are, after sniffing magic numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// A gzip stream (magic `1f 8b`); decompress it, then sniff again.
    Gzip,
    /// A capture file of this format.
    Capture(CaptureFormat),
    /// Something else.
    Unknown,
}

/// Classifies a file by its first four bytes.
pub fn sniff(head: &[u8]) -> Sniffed {
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        return Sniffed::Gzip;
    }
    let Some(m) = head.get(..4) else {
        return Sniffed::Unknown;
    };
    let m = [m[0], m[1], m[2], m[3]];
    let pcap = |big_endian, nanos| Sniffed::Capture(CaptureFormat::Pcap { big_endian, nanos });
    match m {
        [0xd4, 0xc3, 0xb2, 0xa1] => pcap(false, false),
        [0xa1, 0xb2, 0xc3, 0xd4] => pcap(true, false),
        [0x4d, 0x3c, 0xb2, 0xa1] => pcap(false, true),
        [0xa1, 0xb2, 0x3c, 0x4d] => pcap(true, true),
        [0x0a, 0x0d, 0x0d, 0x0a] => Sniffed::Capture(CaptureFormat::PcapNg),
        _ => Sniffed::Unknown,
    }
}

impl CaptureFormat {
    /// A short description (`"pcap (big-endian, ns)"`, `"pcap-ng"`).
    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// The description of this format inside a gzip stream (`"gzip / pcap-ng"`).
    pub fn gzip_name(self) -> &'static str {
        self.names().1
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            CaptureFormat::Pcap {
                big_endian: false,
                nanos: false,
            } => (
                "pcap (little-endian, µs)",
                "gzip / pcap (little-endian, µs)",
            ),
            CaptureFormat::Pcap {
                big_endian: false,
                nanos: true,
            } => (
                "pcap (little-endian, ns)",
                "gzip / pcap (little-endian, ns)",
            ),
            CaptureFormat::Pcap {
                big_endian: true,
                nanos: false,
            } => ("pcap (big-endian, µs)", "gzip / pcap (big-endian, µs)"),
            CaptureFormat::Pcap {
                big_endian: true,
                nanos: true,
            } => ("pcap (big-endian, ns)", "gzip / pcap (big-endian, ns)"),
            CaptureFormat::PcapNg => ("pcap-ng", "gzip / pcap-ng"),
        }
    }
}

impl Sniffed {
    /// A short description of what the magic bytes say.
    pub fn name(self) -> &'static str {
        match self {
            Sniffed::Capture(f) => f.name(),
            Sniffed::Gzip => "gzip",
            Sniffed::Unknown => "unknown",
        }
    }
}

/// One captured frame, borrowed from the capture.
#[derive(Debug, Clone, Copy)]
pub struct Packet<'a> {
    /// Capture time in nanoseconds since the epoch; `None` for pcap-ng simple packet blocks.
    pub timestamp_ns: Option<i64>,
    /// Link-layer type of `data` (1 = Ethernet).
    pub link_type: u32,
    /// The captured bytes (possibly fewer than `orig_len`).
    pub data: &'a [u8],
    /// Length of the frame on the wire.
    pub orig_len: u32,
    /// Byte offset of `data[0]` in the (decompressed) capture.
    pub offset: u64,
}

/// Iterates the packets of a capture held in memory, borrowing from it (zero-copy).
///
/// After an error the iterator ends: a corrupt record length leaves no reliable way to find the
/// next record. All packets before the error have been yielded.
#[derive(Debug, Clone)]
pub struct PacketReader<'a> {
    data: &'a [u8],
    pos: usize,
    parser: RecordParser,
    done: bool,
}

impl<'a> PacketReader<'a> {
    /// Reads the file header and positions the reader at the first record.
    pub fn new(data: &'a [u8]) -> Result<Self, Error> {
        let (parser, pos) = RecordParser::new(data)?;
        Ok(PacketReader {
            data,
            pos,
            parser,
            done: false,
        })
    }

    /// Byte offset of the next record.
    pub fn position(&self) -> u64 {
        self.pos as u64
    }

    #[inline]
    fn step(&mut self) -> Result<Option<Packet<'a>>, Error> {
        loop {
            let data: &'a [u8] = self.data;
            let rest = &data[self.pos..];
            if rest.is_empty() {
                return Ok(None);
            }
            let off = self.pos as u64;
            if let Some((len, p)) = self.parser.fast_packet(rest, off) {
                self.pos += len;
                return Ok(Some(p));
            }
            let need = self.parser.prefix_len();
            if rest.len() < need {
                return Err(Error::truncated(
                    off,
                    "capture record header",
                    need as u64,
                    rest.len() as u64,
                ));
            }
            let len = self.parser.record_len(rest, off)?;
            if rest.len() < len {
                return Err(Error::truncated(
                    off,
                    "capture record",
                    len as u64,
                    rest.len() as u64,
                ));
            }
            let rec = &data[self.pos..self.pos + len];
            self.pos += len;
            if let Some(p) = self.parser.parse(rec, off)? {
                return Ok(Some(p));
            }
        }
    }
}

impl<'a> Iterator for PacketReader<'a> {
    type Item = Result<Packet<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.step() {
            Ok(Some(p)) => Some(Ok(p)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Reads packets from any [`Read`] (e.g. a gzip decoder) one record at a time into a reused
/// buffer, so memory stays bounded by the largest record.
///
/// It is a lending reader: each [`next_packet`](Self::next_packet) borrows the buffer until the
/// next call, so it is not an [`Iterator`].
pub struct StreamPacketReader<R> {
    input: std::io::Chain<std::io::Cursor<Vec<u8>>, R>,
    buf: Vec<u8>,
    parser: RecordParser,
    pos: u64,
    done: bool,
    last: Option<(PacketInfo, u64)>,
}

impl<R: Read> StreamPacketReader<R> {
    /// Reads the file header from `input`.
    pub fn new(mut input: R) -> Result<Self, Error> {
        let mut head = [0u8; 24];
        let n = read_full(&mut input, &mut head, 0)?;
        let (parser, used) = RecordParser::new(&head[..n])?;
        // Bytes read beyond the file header belong to the first record: put them back.
        let back = std::io::Cursor::new(head[used..n].to_vec());
        Ok(StreamPacketReader {
            input: back.chain(input),
            buf: Vec::with_capacity(2048),
            parser,
            pos: used as u64,
            done: false,
            last: None,
        })
    }

    /// Bytes of the (decompressed) stream consumed so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The container format.
    pub fn capture_format(&self) -> CaptureFormat {
        self.parser.capture_format()
    }

    /// The container format's name ("pcap (little-endian, µs)", "pcap-ng", ...).
    pub fn format_name(&self) -> &'static str {
        self.capture_format().name()
    }

    /// The next packet, `None` at a clean end of input, or an error (after which it returns
    /// `None`).
    pub fn next_packet(&mut self) -> Option<Result<Packet<'_>, Error>> {
        match self.advance()? {
            Ok(()) => self.current().map(Ok),
            Err(e) => Some(Err(e)),
        }
    }

    /// Moves to the next packet without borrowing it; see [`current`](Self::current).
    pub fn advance(&mut self) -> Option<Result<(), Error>> {
        self.last = None;
        if self.done {
            return None;
        }
        loop {
            let step = self.fill_record().and_then(|len| match len {
                None => Ok(None),
                Some(len) => {
                    let off = self.pos - len as u64;
                    self.parser
                        .classify(&self.buf[..len], off)
                        .map(|info| Some((info, off)))
                }
            });
            match step {
                Ok(Some((Some(info), off))) => {
                    self.last = Some((info, off));
                    return Some(Ok(()));
                }
                Ok(Some((None, _))) => continue,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// The packet [`advance`](Self::advance) moved to, if any.
    pub fn current(&self) -> Option<Packet<'_>> {
        self.last.map(|(info, off)| info.packet(&self.buf, off))
    }

    /// Reads the next whole record into `buf` (exactly); `Ok(None)` at a clean end of input.
    fn fill_record(&mut self) -> Result<Option<usize>, Error> {
        let need = self.parser.prefix_len();
        let start = self.pos;
        self.buf.resize(need, 0);
        let got = read_full(&mut self.input, &mut self.buf[..need], start)?;
        if got == 0 {
            return Ok(None);
        }
        if got < need {
            return Err(Error::truncated(
                start,
                "capture record header",
                need as u64,
                got as u64,
            ));
        }
        let len = self.parser.record_len(&self.buf[..need], start)?;
        self.buf.resize(len, 0);
        let got = read_full(
            &mut self.input,
            &mut self.buf[need..len],
            start + need as u64,
        )?;
        if need + got < len {
            return Err(Error::truncated(
                start,
                "capture record",
                len as u64,
                (need + got) as u64,
            ));
        }
        self.pos = start + len as u64;
        Ok(Some(len))
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full<R: Read>(r: &mut R, buf: &mut [u8], offset: u64) -> Result<usize, Error> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::new(offset + n as u64, ErrorKind::Io(e.to_string()))),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A pcap-ng section (SHB + IDB, µs) followed by one EPB carrying `frame`.
    fn epb_capture(frame: &[u8]) -> (Vec<u8>, usize) {
        let mut v = Vec::new();
        let shb = [
            0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 28, 0, 0, 0,
        ];
        v.extend_from_slice(&shb);
        let idb = [
            1, 0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0, 0, 20, 0, 0, 0,
        ];
        v.extend_from_slice(&idb);
        let start = v.len();
        let padded = frame.len().div_ceil(4) * 4;
        let len = (32 + padded) as u32;
        v.extend_from_slice(&6u32.to_le_bytes());
        v.extend_from_slice(&len.to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
        v.extend_from_slice(&7u32.to_le_bytes());
        v.extend_from_slice(&9u32.to_le_bytes());
        v.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        v.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        v.extend_from_slice(frame);
        v.resize(start + 28 + padded, 0);
        v.extend_from_slice(&len.to_le_bytes());
        (v, start)
    }

    proptest! {
        /// The fast path agrees with the checked path on every record it accepts, for pcap-ng
        /// EPBs and classic pcap records with corrupted headers.
        #[test]
        fn fast_path_matches_checked_path(
            frame in proptest::collection::vec(any::<u8>(), 0..64),
            edits in proptest::collection::vec((0usize..40, any::<u8>()), 0..3),
            pcap in any::<bool>(),
        ) {
            let (mut data, start) = if pcap {
                let mut v = vec![0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0];
                v.extend_from_slice(&[0; 8]);
                v.extend_from_slice(&65535u32.to_le_bytes());
                v.extend_from_slice(&1u32.to_le_bytes());
                let start = v.len();
                v.extend_from_slice(&5u32.to_le_bytes());
                v.extend_from_slice(&6u32.to_le_bytes());
                v.extend_from_slice(&(frame.len() as u32).to_le_bytes());
                v.extend_from_slice(&(frame.len() as u32).to_le_bytes());
                v.extend_from_slice(&frame);
                (v, start)
            } else {
                epb_capture(&frame)
            };
            for (at, v) in edits {
                if start + at < data.len() {
                    data[start + at] = v;
                }
            }
            let (mut parser, _) = RecordParser::new(&data).unwrap();
            if !pcap {
                // Feed the SHB and IDB through the checked path first.
                for at in [0usize, 28] {
                    let len = parser.record_len(&data[at..], at as u64).unwrap();
                    parser.parse(&data[at..at + len], at as u64).unwrap();
                }
            }
            let rest = &data[start..];
            if let Some((len, fast)) = parser.fast_packet(rest, start as u64) {
                let checked_len = parser.record_len(rest, start as u64).unwrap();
                prop_assert_eq!(len, checked_len);
                let slow = parser.parse(&rest[..len], start as u64).unwrap().unwrap();
                prop_assert_eq!(fast.data, slow.data);
                prop_assert_eq!(fast.timestamp_ns, slow.timestamp_ns);
                prop_assert_eq!((fast.offset, fast.orig_len, fast.link_type), (slow.offset, slow.orig_len, slow.link_type));
            }
        }
    }

    #[test]
    fn fast_path_takes_the_common_records() {
        let (data, start) = epb_capture(&[1, 2, 3, 4, 5]);
        let (mut parser, _) = RecordParser::new(&data).unwrap();
        for at in [0usize, 28] {
            let len = parser.record_len(&data[at..], at as u64).unwrap();
            parser.parse(&data[at..at + len], at as u64).unwrap();
        }
        let (len, p) = parser.fast_packet(&data[start..], start as u64).unwrap();
        assert_eq!((len, p.data), (40, &[1u8, 2, 3, 4, 5][..]));
        assert_eq!(p.timestamp_ns, Some(((7u64 << 32) | 9) as i64 * 1000));
        // Cut short: the fast path declines and the checked path reports the truncation.
        assert!(parser
            .fast_packet(&data[start..data.len() - 1], 0)
            .is_none());
    }

    #[test]
    fn written_captures_take_the_fast_path_for_every_packet() {
        let mut w = crate::write::PcapNgWriter::new(Vec::new(), "test").unwrap();
        for i in 0..1_000u32 {
            let payload = vec![i as u8; (i % 300) as usize];
            w.udp(
                i as i64 * 1_000,
                ([10, 0, 0, 1], 1),
                ([239, 1, 1, 1], 2),
                &payload,
            )
            .unwrap();
        }
        let data = w.into_inner().unwrap();
        let mut r = PacketReader::new(&data).unwrap();
        let (mut fast, mut slow) = (0, 0);
        loop {
            let rest = &data[r.pos..];
            if rest.is_empty() {
                break;
            }
            match r.parser.fast_packet(rest, r.pos as u64) {
                Some((len, _)) => {
                    fast += 1;
                    r.pos += len;
                }
                None => {
                    slow += 1;
                    let len = r.parser.record_len(rest, r.pos as u64).unwrap();
                    r.parser.parse(&rest[..len], r.pos as u64).unwrap();
                    r.pos += len;
                }
            }
        }
        assert_eq!(
            slow, 2,
            "only the section and interface headers take the checked path"
        );
        assert_eq!(fast, 1_000);
    }
}
