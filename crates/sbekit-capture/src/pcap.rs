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

/// Records larger than this are treated as corrupt: no link layer carries 16 MiB frames, and
/// the streaming reader must not allocate whatever a corrupt length field asks for.
const MAX_RECORD: u64 = 16 << 20;

const PCAPNG_SHB: u32 = 0x0A0D_0D0A;
const PCAPNG_BOM: u32 = 0x1A2B_3C4D;
const PCAPNG_IDB: u32 = 1;
const PCAPNG_OPB: u32 = 2;
const PCAPNG_SPB: u32 = 3;
const PCAPNG_EPB: u32 = 6;

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

/// How a pcap-ng interface's timestamp units convert to nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TsRes {
    /// Units of 10^-n seconds.
    Dec(u8),
    /// Units of 2^-n seconds.
    Bin(u8),
}

impl TsRes {
    #[inline]
    fn to_ns(self, units: u64) -> i64 {
        // Fast path for the usual µs / ns resolutions.
        match self {
            TsRes::Dec(6) if units < (1 << 53) => return (units * 1000) as i64,
            TsRes::Dec(9) if units <= i64::MAX as u64 => return units as i64,
            _ => {}
        }
        let ns: i128 = match self {
            TsRes::Dec(n) if n <= 9 => units as i128 * 10i128.pow(9 - n as u32),
            // Finer than 1 ns: divide (powers above 10^38 would overflow; clamp the exponent).
            TsRes::Dec(n) => units as i128 / 10i128.pow((n as u32 - 9).min(38)),
            TsRes::Bin(n) => (units as i128 * 1_000_000_000) >> n.min(127),
        };
        ns.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }
}

#[derive(Debug, Clone, Copy)]
struct Iface {
    link_type: u32,
    snaplen: u32,
    tsres: TsRes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endian {
    Little,
    Big,
}

impl Endian {
    #[inline(always)]
    fn u16(self, b: &[u8], at: usize) -> u16 {
        let v = [b[at], b[at + 1]];
        match self {
            Endian::Little => u16::from_le_bytes(v),
            Endian::Big => u16::from_be_bytes(v),
        }
    }
    #[inline(always)]
    fn u32(self, b: &[u8], at: usize) -> u32 {
        let v = [b[at], b[at + 1], b[at + 2], b[at + 3]];
        match self {
            Endian::Little => u32::from_le_bytes(v),
            Endian::Big => u32::from_be_bytes(v),
        }
    }
}

#[derive(Debug, Clone)]
enum State {
    Pcap {
        endian: Endian,
        nanos: bool,
        link_type: u32,
    },
    PcapNg {
        /// `None` until the first section header block has been read.
        endian: Option<Endian>,
        ifaces: Vec<Iface>,
    },
}

/// Turns whole capture records into packets; shared by the slice and the streaming readers.
#[derive(Debug, Clone)]
pub(crate) struct RecordParser {
    state: State,
}

impl RecordParser {
    /// Reads the file header (for classic pcap) and returns the parser and the bytes consumed.
    /// `head` must hold at least the first 24 bytes when available.
    pub(crate) fn new(head: &[u8]) -> Result<(RecordParser, usize), Error> {
        match sniff(head) {
            Sniffed::Capture(CaptureFormat::Pcap { big_endian, nanos }) => {
                if head.len() < 24 {
                    return Err(Error::truncated(
                        0,
                        "pcap file header",
                        24,
                        head.len() as u64,
                    ));
                }
                let endian = if big_endian {
                    Endian::Big
                } else {
                    Endian::Little
                };
                // The upper bits of the link-type field carry FCS information; keep the type.
                let link_type = endian.u32(head, 20) & 0x0fff_ffff;
                let state = State::Pcap {
                    endian,
                    nanos,
                    link_type,
                };
                Ok((RecordParser { state }, 24))
            }
            Sniffed::Capture(CaptureFormat::PcapNg) => Ok((
                RecordParser {
                    state: State::PcapNg {
                        endian: None,
                        ifaces: Vec::new(),
                    },
                },
                0,
            )),
            _ => {
                let mut m = [0u8; 4];
                for (d, s) in m.iter_mut().zip(head) {
                    *d = *s;
                }
                Err(Error::new(0, ErrorKind::UnknownMagic(m)))
            }
        }
    }

    /// The container format being parsed.
    pub(crate) fn capture_format(&self) -> CaptureFormat {
        match self.state {
            State::Pcap { endian, nanos, .. } => CaptureFormat::Pcap {
                big_endian: endian == Endian::Big,
                nanos,
            },
            State::PcapNg { .. } => CaptureFormat::PcapNg,
        }
    }

    /// How many bytes [`record_len`](Self::record_len) needs to see.
    #[inline]
    pub(crate) fn prefix_len(&self) -> usize {
        match self.state {
            State::Pcap { .. } => 16,
            // type, total length and (for a section header) the byte-order magic.
            State::PcapNg { .. } => 12,
        }
    }

    /// Total length of the record starting with `prefix` (which holds `prefix_len()` bytes).
    #[inline]
    pub(crate) fn record_len(&self, prefix: &[u8], offset: u64) -> Result<usize, Error> {
        match &self.state {
            State::Pcap { endian, .. } => {
                let incl = endian.u32(prefix, 8) as u64;
                if incl > MAX_RECORD {
                    return Err(Error::new(
                        offset,
                        ErrorKind::BadLength {
                            what: "pcap record",
                            len: incl,
                        },
                    ));
                }
                Ok(16 + incl as usize)
            }
            State::PcapNg { endian, .. } => {
                let raw_type = [prefix[0], prefix[1], prefix[2], prefix[3]];
                let e = if u32::from_le_bytes(raw_type) == PCAPNG_SHB {
                    // A section header carries its own byte order.
                    match u32::from_le_bytes([prefix[8], prefix[9], prefix[10], prefix[11]]) {
                        PCAPNG_BOM => Endian::Little,
                        v if v.swap_bytes() == PCAPNG_BOM => Endian::Big,
                        v => return Err(Error::new(offset, ErrorKind::BadByteOrder(v))),
                    }
                } else {
                    endian.ok_or(Error::new(offset, ErrorKind::NoSection))?
                };
                let len = e.u32(prefix, 4) as u64;
                if !(12..=MAX_RECORD).contains(&len) || len % 4 != 0 {
                    return Err(Error::new(
                        offset,
                        ErrorKind::BadLength {
                            what: "pcap-ng block",
                            len,
                        },
                    ));
                }
                Ok(len as usize)
            }
        }
    }

    /// Parses one whole record. `offset` is the record's position in the capture.
    /// Returns `None` for records that carry no packet (interface descriptions, statistics...).
    #[inline]
    pub(crate) fn parse<'a>(
        &mut self,
        rec: &'a [u8],
        offset: u64,
    ) -> Result<Option<Packet<'a>>, Error> {
        Ok(self.classify(rec, offset)?.map(|i| i.packet(rec, offset)))
    }

    /// The common case in one pass: a well-formed little-endian pcap record or pcap-ng enhanced
    /// packet block, whole in `rest`. Returns the record length and the packet, or `None` to
    /// let the general path handle (and report) anything else.
    #[inline(always)]
    fn fast_packet<'a>(&self, rest: &'a [u8], off: u64) -> Option<(usize, Packet<'a>)> {
        let le32 =
            |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        match &self.state {
            State::Pcap {
                endian: Endian::Little,
                nanos,
                link_type,
            } => {
                let head: &[u8; 16] = rest.get(..16)?.try_into().ok()?;
                let incl = le32(head, 8) as usize;
                let len = 16 + incl;
                if incl as u64 > MAX_RECORD || rest.len() < len {
                    return None;
                }
                let frac = le32(head, 4) as i64;
                let ts =
                    le32(head, 0) as i64 * 1_000_000_000 + if *nanos { frac } else { frac * 1000 };
                Some((
                    len,
                    Packet {
                        timestamp_ns: Some(ts),
                        link_type: *link_type,
                        data: &rest[16..len],
                        orig_len: le32(head, 12),
                        offset: off + 16,
                    },
                ))
            }
            State::PcapNg {
                endian: Some(Endian::Little),
                ifaces,
            } => {
                let head: &[u8; 28] = rest.get(..28)?.try_into().ok()?;
                if le32(head, 0) != PCAPNG_EPB {
                    return None;
                }
                let len = le32(head, 4) as usize;
                let cap = le32(head, 20) as usize;
                if len % 4 != 0
                    || len > rest.len()
                    || len as u64 > MAX_RECORD
                    || cap > len.checked_sub(32)?
                {
                    return None;
                }
                if le32(rest, len - 4) as usize != len {
                    return None;
                }
                let iface = ifaces.get(le32(head, 8) as usize)?;
                let units = ((le32(head, 12) as u64) << 32) | le32(head, 16) as u64;
                Some((
                    len,
                    Packet {
                        timestamp_ns: Some(iface.tsres.to_ns(units)),
                        link_type: iface.link_type,
                        data: &rest[28..28 + cap],
                        orig_len: le32(head, 24),
                        offset: off + 28,
                    },
                ))
            }
            _ => None,
        }
    }

    /// Like [`parse`](Self::parse) but returns where the packet is instead of borrowing it,
    /// which lets the streaming reader loop over non-packet records without borrow conflicts.
    #[inline]
    fn classify(&mut self, rec: &[u8], offset: u64) -> Result<Option<PacketInfo>, Error> {
        match &mut self.state {
            State::Pcap {
                endian,
                nanos,
                link_type,
            } => {
                let e = *endian;
                let secs = e.u32(rec, 0) as i64;
                let frac = e.u32(rec, 4) as i64;
                let ts = secs * 1_000_000_000 + if *nanos { frac } else { frac * 1000 };
                Ok(Some(PacketInfo {
                    timestamp_ns: Some(ts),
                    link_type: *link_type,
                    start: 16,
                    end: rec.len(),
                    orig_len: e.u32(rec, 12),
                }))
            }
            State::PcapNg { endian, ifaces } => {
                let block_type = u32::from_le_bytes([rec[0], rec[1], rec[2], rec[3]]);
                if block_type == PCAPNG_SHB {
                    *endian = Some(
                        if u32::from_le_bytes([rec[8], rec[9], rec[10], rec[11]]) == PCAPNG_BOM {
                            Endian::Little
                        } else {
                            Endian::Big
                        },
                    );
                    // Interface ids are numbered per section.
                    ifaces.clear();
                }
                let e = endian.ok_or(Error::new(offset, ErrorKind::NoSection))?;
                let len = rec.len();
                let trailer = e.u32(rec, len - 4);
                if trailer as usize != len {
                    return Err(Error::new(
                        offset + len as u64 - 4,
                        ErrorKind::BadLength {
                            what: "pcap-ng trailing block",
                            len: trailer as u64,
                        },
                    ));
                }
                // Everything between the 8-byte head and the 4-byte tail.
                let body = &rec[8..len - 4];
                let block_type = e.u32(rec, 0);
                match block_type {
                    PCAPNG_IDB => {
                        if body.len() < 8 {
                            return Err(short_block(offset, "interface description block", len));
                        }
                        let tsres = idb_tsresol(e, &body[8..]);
                        ifaces.push(Iface {
                            link_type: e.u16(body, 0) as u32,
                            snaplen: e.u32(body, 4),
                            tsres,
                        });
                        Ok(None)
                    }
                    PCAPNG_EPB | PCAPNG_OPB => {
                        if body.len() < 20 {
                            return Err(short_block(offset, "packet block", len));
                        }
                        // The obsolete packet block has a 16-bit interface id and a drop count.
                        let iface_id = if block_type == PCAPNG_EPB {
                            e.u32(body, 0)
                        } else {
                            e.u16(body, 0) as u32
                        };
                        let iface = *ifaces
                            .get(iface_id as usize)
                            .ok_or(Error::new(offset, ErrorKind::UnknownInterface(iface_id)))?;
                        let units = ((e.u32(body, 4) as u64) << 32) | e.u32(body, 8) as u64;
                        let cap = e.u32(body, 12) as usize;
                        if cap > body.len() - 20 {
                            return Err(Error::new(
                                offset,
                                ErrorKind::BadLength {
                                    what: "pcap-ng captured packet",
                                    len: cap as u64,
                                },
                            ));
                        }
                        Ok(Some(PacketInfo {
                            timestamp_ns: Some(iface.tsres.to_ns(units)),
                            link_type: iface.link_type,
                            start: 28,
                            end: 28 + cap,
                            orig_len: e.u32(body, 16),
                        }))
                    }
                    PCAPNG_SPB => {
                        if body.len() < 4 {
                            return Err(short_block(offset, "simple packet block", len));
                        }
                        let iface = *ifaces
                            .first()
                            .ok_or(Error::new(offset, ErrorKind::UnknownInterface(0)))?;
                        let orig = e.u32(body, 0);
                        // The captured length is implied: the original length, cut to the
                        // snap length and to the space the block has.
                        let mut cap = (orig as usize).min(body.len() - 4);
                        if iface.snaplen != 0 {
                            cap = cap.min(iface.snaplen as usize);
                        }
                        Ok(Some(PacketInfo {
                            timestamp_ns: None,
                            link_type: iface.link_type,
                            start: 12,
                            end: 12 + cap,
                            orig_len: orig,
                        }))
                    }
                    // Section headers were handled above; statistics, name resolution, custom
                    // and unknown blocks carry no packets.
                    _ => Ok(None),
                }
            }
        }
    }
}

/// Where a packet lies inside its record, and its metadata.
#[derive(Debug, Clone, Copy)]
struct PacketInfo {
    timestamp_ns: Option<i64>,
    link_type: u32,
    start: usize,
    end: usize,
    orig_len: u32,
}

impl PacketInfo {
    #[inline]
    fn packet<'a>(&self, rec: &'a [u8], offset: u64) -> Packet<'a> {
        Packet {
            timestamp_ns: self.timestamp_ns,
            link_type: self.link_type,
            data: &rec[self.start..self.end],
            orig_len: self.orig_len,
            offset: offset + self.start as u64,
        }
    }
}

fn short_block(offset: u64, what: &'static str, len: usize) -> Error {
    Error::new(
        offset,
        ErrorKind::BadLength {
            what,
            len: len as u64,
        },
    )
}

/// Finds `if_tsresol` (option code 9) in an interface description block's options.
fn idb_tsresol(e: Endian, mut opts: &[u8]) -> TsRes {
    let mut res = TsRes::Dec(6);
    while opts.len() >= 4 {
        let code = e.u16(opts, 0);
        let len = e.u16(opts, 2) as usize;
        if code == 0 {
            break;
        }
        let padded = (len + 3) & !3;
        if opts.len() < 4 + len {
            break;
        }
        if code == 9 && len >= 1 {
            let v = opts[4];
            res = if v & 0x80 == 0 {
                TsRes::Dec(v)
            } else {
                TsRes::Bin(v & 0x7f)
            };
        }
        opts = opts.get(4 + padded..).unwrap_or(&[]);
    }
    res
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
