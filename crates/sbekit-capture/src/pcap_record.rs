//! The record parser of [`super`]: classic pcap records and pcap-ng blocks (section headers,
//! interface descriptions, enhanced, simple and obsolete packet blocks) turned into
//! [`Packet`]s, with a fast path for the common records. Both readers share it.

use super::{sniff, CaptureFormat, Packet, Sniffed};
use crate::error::{Error, ErrorKind};

/// Records larger than this are treated as corrupt: no link layer carries 16 MiB frames, and
/// the streaming reader must not allocate whatever a corrupt length field asks for.
const MAX_RECORD: u64 = 16 << 20;

const PCAPNG_SHB: u32 = 0x0A0D_0D0A;
const PCAPNG_BOM: u32 = 0x1A2B_3C4D;
const PCAPNG_IDB: u32 = 1;
const PCAPNG_OPB: u32 = 2;
const PCAPNG_SPB: u32 = 3;
const PCAPNG_EPB: u32 = 6;

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
    pub(super) fn fast_packet<'a>(&self, rest: &'a [u8], off: u64) -> Option<(usize, Packet<'a>)> {
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
    pub(super) fn classify(
        &mut self,
        rec: &[u8],
        offset: u64,
    ) -> Result<Option<PacketInfo>, Error> {
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
pub(super) struct PacketInfo {
    timestamp_ns: Option<i64>,
    link_type: u32,
    start: usize,
    end: usize,
    orig_len: u32,
}

impl PacketInfo {
    #[inline]
    pub(super) fn packet<'a>(&self, rec: &'a [u8], offset: u64) -> Packet<'a> {
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
