//! pcap-ng framing of the synthetic packets: Ethernet, IPv4 and UDP headers, block options.

pub(super) fn push_option(b: &mut Vec<u8>, code: u16, value: &[u8]) {
    b.extend_from_slice(&code.to_le_bytes());
    b.extend_from_slice(&(value.len() as u16).to_le_bytes());
    b.extend_from_slice(value);
    b.resize(b.len() + (4 - value.len() % 4) % 4, 0);
}

/// Ethernet, IPv4 and UDP headers for a frame of `frame_len` bytes. The addresses are
/// administratively scoped (239.x) so synthetic captures are never mistaken for IEX feeds.
pub(super) fn write_frame_headers(h: &mut [u8], frame_len: usize) {
    let dst_ip = [239, 192, 0, 4];
    h[0..6].copy_from_slice(&[0x01, 0x00, 0x5e, dst_ip[1] & 0x7f, dst_ip[2], dst_ip[3]]);
    h[6..12].copy_from_slice(&[0x02, 0x53, 0x59, 0x4e, 0x54, 0x48]);
    h[12..14].copy_from_slice(&0x0800u16.to_be_bytes());
    let ip = &mut h[14..34];
    let ip_len = (frame_len - 14) as u16;
    ip[0] = 0x45;
    ip[1] = 0;
    ip[2..4].copy_from_slice(&ip_len.to_be_bytes());
    ip[4..6].copy_from_slice(&0u16.to_be_bytes());
    ip[6..8].copy_from_slice(&0x4000u16.to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    ip[10..12].copy_from_slice(&[0, 0]);
    ip[12..16].copy_from_slice(&[10, 83, 89, 1]);
    ip[16..20].copy_from_slice(&dst_ip);
    let mut sum = 0u32;
    for c in ip.chunks(2) {
        sum += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    ip[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    let udp = &mut h[34..42];
    udp[0..2].copy_from_slice(&10_378u16.to_be_bytes());
    udp[2..4].copy_from_slice(&10_378u16.to_be_bytes());
    udp[4..6].copy_from_slice(&((frame_len - 34) as u16).to_be_bytes());
    // UDP checksum 0: "not computed", allowed over IPv4.
    udp[6..8].copy_from_slice(&[0, 0]);
}
