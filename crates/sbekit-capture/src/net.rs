//! Link, network and transport layers: Ethernet II (with 802.1Q / QinQ tags), Linux SLL and raw
//! IP, IPv4 (with options), UDP and TCP.

use crate::pcap::{LINKTYPE_ETHERNET, LINKTYPE_IPV4, LINKTYPE_LINUX_SLL, LINKTYPE_RAW};

/// A UDP datagram found in a frame.
#[derive(Debug, Clone, Copy)]
pub struct Datagram<'a> {
    /// IPv4 source address.
    pub src: [u8; 4],
    /// IPv4 destination address.
    pub dst: [u8; 4],
    /// UDP source port.
    pub src_port: u16,
    /// UDP destination port.
    pub dst_port: u16,
    /// UDP payload (bounded by the UDP and IP lengths, so Ethernet padding is excluded).
    pub payload: &'a [u8],
    /// Offset of `payload[0]` within the frame.
    pub payload_offset: usize,
}

/// A TCP segment found in a frame.
#[derive(Debug, Clone, Copy)]
pub struct TcpSegment<'a> {
    /// IPv4 source address.
    pub src: [u8; 4],
    /// IPv4 destination address.
    pub dst: [u8; 4],
    /// TCP source port.
    pub src_port: u16,
    /// TCP destination port.
    pub dst_port: u16,
    /// Sequence number of `payload[0]` (of the SYN itself when [`TcpSegment::syn`]).
    pub seq: u32,
    /// The SYN flag: the stream's first sequence number is `seq + 1`.
    pub syn: bool,
    /// The FIN or RST flag: the stream ends after this segment.
    pub fin: bool,
    /// TCP payload (bounded by the IP length, so Ethernet padding is excluded).
    pub payload: &'a [u8],
    /// Offset of `payload[0]` within the frame.
    pub payload_offset: usize,
}

/// The transport-layer content of a frame.
#[derive(Debug, Clone, Copy)]
pub enum Transport<'a> {
    /// A UDP datagram.
    Udp(Datagram<'a>),
    /// A TCP segment.
    Tcp(TcpSegment<'a>),
}

/// Why a frame yielded no UDP datagram (or TCP segment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// The link type is not one this reader decodes.
    LinkType,
    /// Not IPv4 (ARP, IPv6, LLDP...).
    NotIpv4,
    /// IPv4 but not UDP (or, for [`transport`], neither UDP nor TCP).
    NotUdp,
    /// A non-first IPv4 fragment, or a first fragment (reassembly is out of scope: IEX-TP never
    /// fragments).
    Fragment,
    /// A header is cut short or inconsistent.
    Malformed,
}

const ETHERTYPE_IPV4: u16 = 0x0800;
const ETHERTYPE_VLAN: u16 = 0x8100;
const ETHERTYPE_QINQ: u16 = 0x88a8;
const ETHERTYPE_QINQ_OLD: u16 = 0x9100;

#[inline]
fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

/// Finds the UDP datagram in a frame of the given link type.
#[inline]
pub fn udp_datagram(link_type: u32, frame: &[u8]) -> Result<Datagram<'_>, Skip> {
    if link_type == LINKTYPE_ETHERNET {
        if let Some(d) = untagged_udp(frame) {
            return Ok(d);
        }
    }
    general(link_type, frame)
}

/// The common case in one pass: untagged Ethernet, IPv4 without options, unfragmented UDP.
/// Gives exactly what [`general`] gives for such frames, and `None` for everything else.
#[inline(always)]
fn untagged_udp(frame: &[u8]) -> Option<Datagram<'_>> {
    let h: &[u8; 42] = frame.get(..42)?.try_into().ok()?;
    if h[12] != 0x08
        || h[13] != 0x00
        || h[14] != 0x45
        || h[23] != 17
        || (h[20] & 0x3f) != 0
        || h[21] != 0
    {
        return None;
    }
    let total = u16::from_be_bytes([h[16], h[17]]) as usize;
    let udp_len = u16::from_be_bytes([h[38], h[39]]) as usize;
    let ip_len = total.clamp(20, frame.len() - 14);
    if udp_len < 8 || ip_len < 28 {
        return None;
    }
    let end = 42 + (udp_len - 8).min(ip_len - 28);
    Some(Datagram {
        src: [h[26], h[27], h[28], h[29]],
        dst: [h[30], h[31], h[32], h[33]],
        src_port: u16::from_be_bytes([h[34], h[35]]),
        dst_port: u16::from_be_bytes([h[36], h[37]]),
        payload: &frame[42..end],
        payload_offset: 42,
    })
}

/// Finds the UDP datagram or TCP segment in a frame of the given link type.
#[inline]
pub fn transport(link_type: u32, frame: &[u8]) -> Result<Transport<'_>, Skip> {
    if link_type == LINKTYPE_ETHERNET {
        if let Some(d) = untagged_udp(frame) {
            return Ok(Transport::Udp(d));
        }
    }
    let ip = ipv4(link_type, frame)?;
    match ip.protocol {
        UDP => udp_in(&ip).map(Transport::Udp),
        TCP => tcp_in(&ip).map(Transport::Tcp),
        _ => Err(Skip::NotUdp),
    }
}

/// Finds the TCP segment in a frame of the given link type.
pub fn tcp_segment(link_type: u32, frame: &[u8]) -> Result<TcpSegment<'_>, Skip> {
    let ip = ipv4(link_type, frame)?;
    if ip.protocol != TCP {
        return Err(Skip::NotUdp);
    }
    tcp_in(&ip)
}

const UDP: u8 = 17;
const TCP: u8 = 6;

/// An unfragmented IPv4 packet: its header fields and where its payload lies.
struct Ipv4<'a> {
    protocol: u8,
    src: [u8; 4],
    dst: [u8; 4],
    /// The transport header and payload (bounded by the IP total length).
    body: &'a [u8],
    /// Offset of `body[0]` within the frame.
    body_offset: usize,
}

/// Any supported link type, VLAN tags, IPv4 options.
fn general(link_type: u32, frame: &[u8]) -> Result<Datagram<'_>, Skip> {
    let ip = ipv4(link_type, frame)?;
    if ip.protocol != UDP {
        return Err(Skip::NotUdp);
    }
    udp_in(&ip)
}

fn ipv4(link_type: u32, frame: &[u8]) -> Result<Ipv4<'_>, Skip> {
    let ip_start = match link_type {
        LINKTYPE_ETHERNET => {
            let mut at = 12;
            let mut ethertype = be16(frame, at).ok_or(Skip::Malformed)?;
            // Skip any stack of VLAN tags (802.1Q, 802.1ad QinQ).
            let mut tags = 0;
            while matches!(
                ethertype,
                ETHERTYPE_VLAN | ETHERTYPE_QINQ | ETHERTYPE_QINQ_OLD
            ) {
                tags += 1;
                if tags > 8 {
                    return Err(Skip::Malformed);
                }
                at += 4;
                ethertype = be16(frame, at).ok_or(Skip::Malformed)?;
            }
            if ethertype != ETHERTYPE_IPV4 {
                return Err(Skip::NotIpv4);
            }
            at + 2
        }
        LINKTYPE_LINUX_SLL => {
            if be16(frame, 14).ok_or(Skip::Malformed)? != ETHERTYPE_IPV4 {
                return Err(Skip::NotIpv4);
            }
            16
        }
        LINKTYPE_RAW | LINKTYPE_IPV4 => 0,
        _ => return Err(Skip::LinkType),
    };
    let ip = frame.get(ip_start..).ok_or(Skip::Malformed)?;
    let &vihl = ip.first().ok_or(Skip::Malformed)?;
    if vihl >> 4 != 4 {
        return Err(Skip::NotIpv4);
    }
    let ihl = (vihl & 0x0f) as usize * 4;
    if ihl < 20 || ip.len() < ihl {
        return Err(Skip::Malformed);
    }
    // More-fragments flag or a non-zero fragment offset.
    if be16(ip, 6).ok_or(Skip::Malformed)? & 0x3fff != 0 {
        return Err(Skip::Fragment);
    }
    let total = be16(ip, 2).ok_or(Skip::Malformed)? as usize;
    // A snap-length cut leaves fewer bytes than the IP length: keep what there is, the IEX-TP
    // layer reports the shortfall.
    let ip = &ip[..total.clamp(ihl, ip.len())];
    Ok(Ipv4 {
        protocol: ip[9],
        src: [ip[12], ip[13], ip[14], ip[15]],
        dst: [ip[16], ip[17], ip[18], ip[19]],
        body: &ip[ihl..],
        body_offset: ip_start + ihl,
    })
}

fn udp_in<'a>(ip: &Ipv4<'a>) -> Result<Datagram<'a>, Skip> {
    let udp = ip.body;
    if udp.len() < 8 {
        return Err(Skip::Malformed);
    }
    let udp_len = be16(udp, 4).ok_or(Skip::Malformed)? as usize;
    if udp_len < 8 {
        return Err(Skip::Malformed);
    }
    let payload = &udp[8..udp_len.min(udp.len())];
    Ok(Datagram {
        src: ip.src,
        dst: ip.dst,
        src_port: be16(udp, 0).unwrap_or(0),
        dst_port: be16(udp, 2).unwrap_or(0),
        payload,
        payload_offset: ip.body_offset + 8,
    })
}

fn tcp_in<'a>(ip: &Ipv4<'a>) -> Result<TcpSegment<'a>, Skip> {
    let tcp = ip.body;
    let head: &[u8; 20] = tcp
        .get(..20)
        .and_then(|h| h.try_into().ok())
        .ok_or(Skip::Malformed)?;
    let data_offset = (head[12] >> 4) as usize * 4;
    if data_offset < 20 || data_offset > tcp.len() {
        return Err(Skip::Malformed);
    }
    let flags = head[13];
    Ok(TcpSegment {
        src: ip.src,
        dst: ip.dst,
        src_port: u16::from_be_bytes([head[0], head[1]]),
        dst_port: u16::from_be_bytes([head[2], head[3]]),
        seq: u32::from_be_bytes([head[4], head[5], head[6], head[7]]),
        syn: flags & 0x02 != 0,
        fin: flags & 0x05 != 0,
        payload: &tcp[data_offset..],
        payload_offset: ip.body_offset + data_offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn valid_frame(payload_len: usize) -> Vec<u8> {
        let mut f = vec![0u8; 42 + payload_len];
        f[12] = 0x08;
        f[14] = 0x45;
        f[16..18].copy_from_slice(&((28 + payload_len) as u16).to_be_bytes());
        f[23] = 17;
        f[38..40].copy_from_slice(&((8 + payload_len) as u16).to_be_bytes());
        f
    }

    proptest! {
        /// The one-pass fast path agrees with the general decoder on every frame it accepts.
        #[test]
        fn fast_path_matches_general(
            len in 0usize..64,
            edits in proptest::collection::vec((0usize..50, any::<u8>()), 0..4),
            extra in 0usize..8,
        ) {
            let mut f = valid_frame(len);
            f.resize(f.len() + extra, 0xaa); // trailing padding
            for (at, v) in edits {
                if at < f.len() {
                    f[at] = v;
                }
            }
            if let Some(d) = untagged_udp(&f) {
                let g = general(LINKTYPE_ETHERNET, &f).expect("general rejects a fast-path frame");
                prop_assert_eq!(d.payload, g.payload);
                prop_assert_eq!(d.payload_offset, g.payload_offset);
                prop_assert_eq!((d.src, d.dst, d.src_port, d.dst_port), (g.src, g.dst, g.src_port, g.dst_port));
            }
        }
    }

    #[test]
    fn fast_path_takes_the_common_frame() {
        let f = valid_frame(40);
        assert_eq!(untagged_udp(&f).unwrap().payload.len(), 40);
        let mut tagged = f.clone();
        tagged[12] = 0x81;
        assert!(untagged_udp(&tagged).is_none());
    }
}
