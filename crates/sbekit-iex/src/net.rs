//! Link, network and transport layers: Ethernet II (with 802.1Q / QinQ tags), Linux SLL and raw
//! IP, IPv4 (with options), UDP.

use crate::capture::{LINKTYPE_ETHERNET, LINKTYPE_IPV4, LINKTYPE_LINUX_SLL, LINKTYPE_RAW};

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

/// Why a frame yielded no UDP datagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// The link type is not one this reader decodes.
    LinkType,
    /// Not IPv4 (ARP, IPv6, LLDP...).
    NotIpv4,
    /// IPv4 but not UDP.
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
    if ip[9] != 17 {
        return Err(Skip::NotUdp);
    }
    // More-fragments flag or a non-zero fragment offset.
    if be16(ip, 6).ok_or(Skip::Malformed)? & 0x3fff != 0 {
        return Err(Skip::Fragment);
    }
    let total = be16(ip, 2).ok_or(Skip::Malformed)? as usize;
    // A snap-length cut leaves fewer bytes than the IP length: keep what there is, the IEX-TP
    // layer reports the shortfall.
    let ip = &ip[..total.clamp(ihl, ip.len())];
    let udp = &ip[ihl..];
    if udp.len() < 8 {
        return Err(Skip::Malformed);
    }
    let udp_len = be16(udp, 4).ok_or(Skip::Malformed)? as usize;
    if udp_len < 8 {
        return Err(Skip::Malformed);
    }
    let payload = &udp[8..udp_len.min(udp.len())];
    Ok(Datagram {
        src: [ip[12], ip[13], ip[14], ip[15]],
        dst: [ip[16], ip[17], ip[18], ip[19]],
        src_port: be16(udp, 0).unwrap_or(0),
        dst_port: be16(udp, 2).unwrap_or(0),
        payload,
        payload_offset: ip_start + ihl + 8,
    })
}
