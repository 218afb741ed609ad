//! Framing profiles: how a venue wraps SBE messages in packets.
//!
//! A packet (a UDP datagram, or a TCP segment for CME's TCP recovery) starts with a fixed
//! packet header holding a sequence number and a sending time, then carries messages, each
//! behind a length. Over a reassembled TCP stream (`sofh-le`, `sofh`) there is no packet
//! header: messages follow each other behind their framing headers. All integers are
//! little-endian except in `sofh`.
//!
//! | profile | transport | packet header | per message | source |
//! |---|---|---|---|---|
//! | `cme-mdp3` | UDP | 12 bytes: MsgSeqNum u32, SendingTime u64 (ns) | MsgSize u16 (counts itself), SBE header and body | CME MDP 3.0 "Packet Structure"; confirmed by the bytes of the real captures in `../shared/data/omi` |
//! | `cme-mdp3` | TCP (recovery) | 14 bytes: encoding type u16 `0xCAFE`, MsgSeqNum u32, SendingTime u64 | as UDP | the same; one packet per TCP segment, as in the real captures |
//! | `b3-umdf` | UDP | 16 bytes: channel u8, reserved u8, sequenceVersion u16, sequenceNumber u32, sendingTime u64 | messageLength u16 (counts its 4-byte framing header), encodingType u16, SBE header and body | B3 UMDF binary specification; confirmed by the real captures |
//! | `coinbase-derivatives` | UDP | 24 bytes: SendingTime i64, SeqNum i64, ChannelId u16, PktFlags u8, PktMessageCount u8, SnapshotInstrumentId i32 | FrameLength u16 (counts itself), which is the first field of the schema's own `messageHeader`: the SBE message starts at it; trailing bytes of a frame are alignment padding | Coinbase Derivatives Market Data API 1.2 schema; confirmed by the real captures |
//! | `sofh-le` | TCP stream | none | length u16 (counts its 4-byte header), encoding type u16 (`0xCAFE` CME iLink 3, `0xEB50` B3 EntryPoint), SBE header and body | CME iLink 3 and B3 EntryPoint specifications; confirmed by the real captures |
//! | `sofh` | TCP stream | none | FIX SOFH: length u32 big-endian (counts its 6-byte header), encoding type u16 big-endian, SBE header and body | FIX Simple Open Framing Header standard |
//! | `optiq-mdg` | UDP | 16 bytes: packetTime u64, packetSequenceNumber u32, packetFlags u16, channelId u16; packetFlags bit 0 set: the rest of the packet is LZ4-compressed (an LZ4 block) | frame length u16 (the SBE message's size, not counting the 2-byte field), SBE header and body | Euronext Optiq MDG as issue 21 gives it and Open-Markets-Initiative's Optiq MDG SBE 4.5 dissector (the compression flag is packetFlags bit `0x0001`); no real capture was at hand, tested on synthetic ones only |
//!
//! A [`Profile`] can also be described without code, from TOML ([`Profile::from_toml`]) or
//! the same keys as `key=value` flags ([`Profile::from_flags`]):
//!
//! ```toml
//! name = "my-feed"
//! transport = "udp"          # udp | tcp-packets | tcp-stream
//! header_size = 16           # packet header bytes
//! seq = { offset = 4, width = 4 }
//! time = { offset = 8, width = 8 }
//! length_width = 2           # message length: 2 or 4 bytes
//! length_counts_itself = true
//! before_sbe = 4             # framing bytes from the length to the SBE header (length included)
//! big_endian = false
//! ```

use serde::Deserialize;
use std::fmt;

/// An unsigned integer field of the packet header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeaderField {
    /// Offset from the start of the packet.
    pub offset: usize,
    /// Width in bytes: 1, 2, 4 or 8.
    pub width: usize,
}

impl HeaderField {
    /// Reads the field (little-endian unless `big_endian`); `None` past the end.
    pub fn read(&self, bytes: &[u8], big_endian: bool) -> Option<u64> {
        read_uint(bytes, self.offset, self.width, big_endian)
    }
}

/// Reads an unsigned integer of `width` bytes (1, 2, 4 or 8) at `at`.
pub fn read_uint(bytes: &[u8], at: usize, width: usize, big_endian: bool) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(width)?)?;
    let mut v = [0u8; 8];
    if big_endian {
        v[8 - width..].copy_from_slice(b);
        Some(u64::from_be_bytes(v))
    } else {
        v[..width].copy_from_slice(b);
        Some(u64::from_le_bytes(v))
    }
}

/// How packets reach the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    /// Each UDP datagram is one packet.
    Udp,
    /// Each TCP segment is one packet (CME MDP 3.0 TCP recovery).
    TcpPackets,
    /// A reassembled TCP byte stream of framed messages, no packet header.
    TcpStream,
}

/// A framing profile; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The profile's name.
    pub name: String,
    /// How packets arrive.
    pub transport: Transport,
    /// Packet header bytes (0 for a TCP stream).
    pub header_size: usize,
    /// The packet sequence number.
    pub seq: Option<HeaderField>,
    /// The sending time (ns since the epoch).
    pub time: Option<HeaderField>,
    /// A constant the packet header must hold (offset, width, value), e.g. CME TCP's `0xCAFE`.
    pub magic: Option<(HeaderField, u64)>,
    /// When this header field has bit 0 set, the packet after its header is an LZ4 block.
    pub lz4_flag: Option<HeaderField>,
    /// Width of each message's length field: 2 or 4.
    pub length_width: usize,
    /// True when the length counts the framing bytes (`before_sbe`) too; otherwise it counts
    /// what follows them.
    pub length_counts_itself: bool,
    /// Framing bytes from the start of the length to the SBE message header, the length
    /// included. 0 when the length is the first field of the SBE header itself (Coinbase).
    pub before_sbe: usize,
    /// Integers of the framing are big-endian (`sofh`).
    pub big_endian: bool,
    /// Transport used when both would fit: the built-in `cme-mdp3` takes UDP datagrams and,
    /// when the packet starts with `0xCAFE` over TCP, the 14-byte TCP recovery header.
    pub tcp_variant: Option<Box<Profile>>,
}

/// The names of the built-in profiles.
pub const BUILT_IN: &[&str] = &[
    "cme-mdp3",
    "b3-umdf",
    "coinbase-derivatives",
    "sofh-le",
    "sofh",
    "optiq-mdg",
];

const fn field(offset: usize, width: usize) -> Option<HeaderField> {
    Some(HeaderField { offset, width })
}

fn base(name: &str, transport: Transport, header_size: usize) -> Profile {
    Profile {
        name: name.to_string(),
        transport,
        header_size,
        seq: None,
        time: None,
        magic: None,
        lz4_flag: None,
        length_width: 2,
        length_counts_itself: true,
        before_sbe: 2,
        big_endian: false,
        tcp_variant: None,
    }
}

/// A profile could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError(pub String);

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProfileError {}

/// The keys of a custom profile, as TOML or flags give them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Custom {
    name: Option<String>,
    transport: Option<Transport>,
    header_size: usize,
    seq: Option<HeaderField>,
    time: Option<HeaderField>,
    length_width: Option<usize>,
    length_counts_itself: Option<bool>,
    before_sbe: Option<usize>,
    big_endian: Option<bool>,
}

impl Profile {
    /// A built-in profile by name (see [`BUILT_IN`]).
    pub fn built_in(name: &str) -> Option<Profile> {
        Some(match name {
            "cme-mdp3" => {
                let mut p = base(name, Transport::Udp, 12);
                p.seq = field(0, 4);
                p.time = field(4, 8);
                let mut tcp = base(name, Transport::TcpPackets, 14);
                tcp.magic = Some((
                    HeaderField {
                        offset: 0,
                        width: 2,
                    },
                    0xCAFE,
                ));
                tcp.seq = field(2, 4);
                tcp.time = field(6, 8);
                p.tcp_variant = Some(Box::new(tcp));
                p
            }
            "b3-umdf" => {
                let mut p = base(name, Transport::Udp, 16);
                p.seq = field(4, 4);
                p.time = field(8, 8);
                p.before_sbe = 4;
                p
            }
            "coinbase-derivatives" => {
                let mut p = base(name, Transport::Udp, 24);
                p.time = field(0, 8);
                p.seq = field(8, 8);
                p.before_sbe = 0;
                p
            }
            "sofh-le" => {
                let mut p = base(name, Transport::TcpStream, 0);
                p.before_sbe = 4;
                p
            }
            "sofh" => {
                let mut p = base(name, Transport::TcpStream, 0);
                p.length_width = 4;
                p.before_sbe = 6;
                p.big_endian = true;
                p
            }
            "optiq-mdg" => {
                let mut p = base(name, Transport::Udp, 16);
                p.time = field(0, 8);
                p.seq = field(8, 4);
                p.lz4_flag = field(12, 2);
                p.length_counts_itself = false;
                p
            }
            _ => return None,
        })
    }

    /// A custom profile from TOML (see the module docs for the keys).
    pub fn from_toml(text: &str) -> Result<Profile, ProfileError> {
        let c: Custom = toml::from_str(text).map_err(|e| ProfileError(e.to_string()))?;
        Profile::from_custom(c)
    }

    /// A custom profile from `key=value` items with the TOML keys; the fields take
    /// `offset:width` (`seq=4:4`).
    pub fn from_flags(items: &[String]) -> Result<Profile, ProfileError> {
        let mut t = String::new();
        for item in items {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| ProfileError(format!("'{item}' is not key=value")))?;
            let (k, v) = (k.trim(), v.trim());
            let value = match k {
                "seq" | "time" => {
                    let (o, w) = v
                        .split_once(':')
                        .ok_or_else(|| ProfileError(format!("{k}: '{v}' is not offset:width")))?;
                    format!("{{ offset = {o}, width = {w} }}")
                }
                "name" | "transport" => format!("{v:?}"),
                _ => v.to_string(),
            };
            t.push_str(&format!("{k} = {value}\n"));
        }
        Profile::from_toml(&t)
    }

    fn from_custom(c: Custom) -> Result<Profile, ProfileError> {
        let transport = c.transport.unwrap_or(Transport::Udp);
        let mut p = base(
            c.name.as_deref().unwrap_or("custom"),
            transport,
            c.header_size,
        );
        p.seq = c.seq;
        p.time = c.time;
        p.length_width = c.length_width.unwrap_or(2);
        p.length_counts_itself = c.length_counts_itself.unwrap_or(true);
        p.before_sbe = c.before_sbe.unwrap_or(p.length_width);
        p.big_endian = c.big_endian.unwrap_or(false);
        p.check()?;
        Ok(p)
    }

    /// Checks that the fields fit: widths of 1, 2, 4 or 8, fields inside the header, framing
    /// bytes that hold the length.
    pub fn check(&self) -> Result<(), ProfileError> {
        let err = |m: String| Err(ProfileError(format!("profile {}: {m}", self.name)));
        if self.length_width != 2 && self.length_width != 4 {
            return err(format!(
                "length_width {} (must be 2 or 4)",
                self.length_width
            ));
        }
        if self.before_sbe != 0 && self.before_sbe < self.length_width {
            return err(format!(
                "before_sbe {} is shorter than the length itself ({})",
                self.before_sbe, self.length_width
            ));
        }
        if self.header_size > 65_535 || self.before_sbe > 64 {
            return err("header_size or before_sbe is implausibly large".into());
        }
        for (what, f) in [("seq", self.seq), ("time", self.time)] {
            if let Some(f) = f {
                if ![1, 2, 4, 8].contains(&f.width) {
                    return err(format!("{what} width {} (must be 1, 2, 4 or 8)", f.width));
                }
                if f.offset + f.width > self.header_size {
                    return err(format!(
                        "{what} at {}..{} lies outside the {}-byte packet header",
                        f.offset,
                        f.offset + f.width,
                        self.header_size
                    ));
                }
            }
        }
        Ok(())
    }

    /// A built-in profile by name, a custom one from a TOML file's path, or (`custom`) one
    /// from `flags` (`key=value` items with the TOML keys).
    pub fn resolve(spec: &str, flags: &[String]) -> Result<Profile, ProfileError> {
        if spec == "custom" {
            return Profile::from_flags(flags);
        }
        if !flags.is_empty() {
            return Err(ProfileError(
                "profile flags (--define) need --profile custom".into(),
            ));
        }
        if let Some(p) = Profile::built_in(spec) {
            return Ok(p);
        }
        let path = std::path::Path::new(spec);
        if path.is_file() {
            let text =
                std::fs::read_to_string(path).map_err(|e| ProfileError(format!("{spec}: {e}")))?;
            return Profile::from_toml(&text).map_err(|e| ProfileError(format!("{spec}: {e}")));
        }
        Err(ProfileError(format!(
            "unknown profile '{spec}' (built in: {}; or a TOML file, or `custom` with --define)",
            BUILT_IN.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_profile_is_consistent() {
        for name in BUILT_IN {
            let p = Profile::built_in(name).unwrap();
            p.check().unwrap();
            if let Some(t) = &p.tcp_variant {
                t.check().unwrap();
            }
        }
    }

    #[test]
    fn custom_profiles_from_toml_and_flags_agree() {
        let t = Profile::from_toml(
            "name = \"x\"\nheader_size = 16\nseq = { offset = 4, width = 4 }\n\
             time = { offset = 8, width = 8 }\nbefore_sbe = 4\n",
        )
        .unwrap();
        let f = Profile::from_flags(&[
            "name=x".into(),
            "header_size=16".into(),
            "seq=4:4".into(),
            "time=8:8".into(),
            "before_sbe=4".into(),
        ])
        .unwrap();
        assert_eq!(t, f);
        // The same layout as the built-in B3 profile.
        let mut b3 = Profile::built_in("b3-umdf").unwrap();
        b3.name = "x".into();
        assert_eq!(t, b3);
    }

    #[test]
    fn bad_custom_profiles_are_errors() {
        assert!(Profile::from_toml("header_size = 4\nseq = { offset = 2, width = 4 }").is_err());
        assert!(Profile::from_toml("header_size = 4\nlength_width = 3").is_err());
        assert!(Profile::from_toml("header_size = 4\nbogus = 1").is_err());
        assert!(Profile::from_flags(&["seq=4".into()]).is_err());
    }
}
