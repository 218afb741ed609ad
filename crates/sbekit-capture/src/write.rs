//! A pcap-ng writer for synthetic captures: one section, one Ethernet interface with
//! nanosecond timestamps, and UDP or TCP frames over IPv4 built around a payload.

use std::io::{self, Write};

/// An IPv4 address and port.
pub type Endpoint = ([u8; 4], u16);

/// Writes a pcap-ng capture; see the module docs.
pub struct PcapNgWriter<W: Write> {
    out: W,
    block: Vec<u8>,
    bytes: u64,
    ip_id: u16,
}

fn push_option(b: &mut Vec<u8>, code: u16, value: &[u8]) {
    b.extend_from_slice(&code.to_le_bytes());
    b.extend_from_slice(&(value.len() as u16).to_le_bytes());
    b.extend_from_slice(value);
    b.resize(b.len() + (4 - value.len() % 4) % 4, 0);
}

/// Ethernet II + IPv4 (no options) + UDP, or + TCP (no options).
const ETH_IP: usize = 34;
const UDP_HDR: usize = 8;
const TCP_HDR: usize = 20;

impl<W: Write> PcapNgWriter<W> {
    /// Writes the section header (naming `application`) and the interface description.
    pub fn new(mut out: W, application: &str) -> io::Result<Self> {
        let mut b = Vec::with_capacity(128);
        let opt_len = 4 + application.len().div_ceil(4) * 4 + 4;
        let len = 28 + opt_len as u32;
        b.extend_from_slice(&0x0A0D_0D0Au32.to_le_bytes());
        b.extend_from_slice(&len.to_le_bytes());
        b.extend_from_slice(&0x1A2B_3C4Du32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(-1i64).to_le_bytes());
        push_option(&mut b, 4, application.as_bytes());
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&len.to_le_bytes());
        // Interface: Ethernet, snap length 65535, if_tsresol 9 (ns).
        let idb_len = 20 + 8 + 4u32;
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&idb_len.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&65_535u32.to_le_bytes());
        push_option(&mut b, 9, &[9]);
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&idb_len.to_le_bytes());
        out.write_all(&b)?;
        Ok(PcapNgWriter {
            out,
            block: Vec::with_capacity(2048),
            bytes: b.len() as u64,
            ip_id: 0,
        })
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes
    }

    /// Writes one UDP datagram captured at `ts_ns`.
    pub fn udp(
        &mut self,
        ts_ns: i64,
        src: Endpoint,
        dst: Endpoint,
        payload: &[u8],
    ) -> io::Result<()> {
        let frame_len = ETH_IP + UDP_HDR + payload.len();
        self.begin(frame_len, src.0, dst.0, 17)?;
        let b = &mut self.block;
        b.extend_from_slice(&src.1.to_be_bytes());
        b.extend_from_slice(&dst.1.to_be_bytes());
        b.extend_from_slice(&((UDP_HDR + payload.len()) as u16).to_be_bytes());
        // Checksum 0: "not computed", allowed over IPv4.
        b.extend_from_slice(&[0, 0]);
        self.finish(ts_ns, frame_len, payload)
    }

    /// Writes one TCP segment (ACK|PSH) with sequence number `seq`, captured at `ts_ns`.
    pub fn tcp(
        &mut self,
        ts_ns: i64,
        src: Endpoint,
        dst: Endpoint,
        seq: u32,
        payload: &[u8],
    ) -> io::Result<()> {
        let frame_len = ETH_IP + TCP_HDR + payload.len();
        self.begin(frame_len, src.0, dst.0, 6)?;
        let b = &mut self.block;
        b.extend_from_slice(&src.1.to_be_bytes());
        b.extend_from_slice(&dst.1.to_be_bytes());
        b.extend_from_slice(&seq.to_be_bytes());
        b.extend_from_slice(&1u32.to_be_bytes()); // ack
        b.push(5 << 4); // data offset: 20 bytes
        b.push(0x18); // ACK | PSH
        b.extend_from_slice(&65_535u16.to_be_bytes()); // window
        b.extend_from_slice(&[0, 0, 0, 0]); // checksum (not checked by readers), urgent
        self.finish(ts_ns, frame_len, payload)
    }

    /// Flushes and returns the output.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// Starts an enhanced packet block: its head, then Ethernet and IPv4 headers.
    fn begin(&mut self, frame_len: usize, src: [u8; 4], dst: [u8; 4], proto: u8) -> io::Result<()> {
        if frame_len > 65_535 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("frame of {frame_len} bytes is larger than an IPv4 packet"),
            ));
        }
        let b = &mut self.block;
        b.clear();
        b.resize(28, 0); // block head, filled in by `finish`
                         // Ethernet: an IPv4 multicast MAC for multicast groups, a fixed local one otherwise.
        if dst[0] >= 224 && dst[0] < 240 {
            b.extend_from_slice(&[0x01, 0x00, 0x5e, dst[1] & 0x7f, dst[2], dst[3]]);
        } else {
            b.extend_from_slice(&[0x02, 0, dst[0], dst[1], dst[2], dst[3]]);
        }
        b.extend_from_slice(&[0x02, 0x53, 0x59, 0x4e, 0x54, 0x48]);
        b.extend_from_slice(&0x0800u16.to_be_bytes());
        let ip_start = b.len();
        b.push(0x45);
        b.push(0);
        b.extend_from_slice(&((frame_len - 14) as u16).to_be_bytes());
        b.extend_from_slice(&self.ip_id.to_be_bytes());
        self.ip_id = self.ip_id.wrapping_add(1);
        b.extend_from_slice(&0x4000u16.to_be_bytes()); // don't fragment
        b.push(64);
        b.push(proto);
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(&src);
        b.extend_from_slice(&dst);
        let mut sum = 0u32;
        for c in b[ip_start..ip_start + 20].chunks(2) {
            sum += u16::from_be_bytes([c[0], c[1]]) as u32;
        }
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        b[ip_start + 10..ip_start + 12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
        Ok(())
    }

    fn finish(&mut self, ts_ns: i64, frame_len: usize, payload: &[u8]) -> io::Result<()> {
        let b = &mut self.block;
        b.extend_from_slice(payload);
        let padded = frame_len.div_ceil(4) * 4;
        let block_len = (28 + padded + 4) as u32;
        let ts = ts_ns.max(0) as u64;
        b[0..4].copy_from_slice(&6u32.to_le_bytes());
        b[4..8].copy_from_slice(&block_len.to_le_bytes());
        b[8..12].copy_from_slice(&0u32.to_le_bytes());
        b[12..16].copy_from_slice(&((ts >> 32) as u32).to_le_bytes());
        b[16..20].copy_from_slice(&(ts as u32).to_le_bytes());
        b[20..24].copy_from_slice(&(frame_len as u32).to_le_bytes());
        b[24..28].copy_from_slice(&(frame_len as u32).to_le_bytes());
        b.resize(28 + padded, 0);
        b.extend_from_slice(&block_len.to_le_bytes());
        self.out.write_all(b)?;
        self.bytes += b.len() as u64;
        Ok(())
    }
}
