//! Framing of the messages a conformance program reads and writes (u32le: each message after
//! its length as a little-endian `u32`), and the one header slot the judge reads.

/// A message framed: its length as a little-endian `u32`, then its bytes.
pub(crate) fn frame(b: &[u8]) -> Vec<u8> {
    let mut v = (b.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(b);
    v
}

/// Splits a u32le-framed stream.
pub fn read_frames(b: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut p = 0;
    while p < b.len() {
        let Some(h) = b.get(p..p + 4) else {
            return Err(format!("truncated frame length at byte {p}"));
        };
        let n = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
        let Some(m) = b.get(p + 4..p + 4 + n) else {
            return Err(format!("frame at byte {p} declares {n} bytes past the end"));
        };
        out.push(m.to_vec());
        p += 4 + n;
    }
    Ok(out)
}

/// The version in a message's header (through `sbekit_ir::wire`, as every decoder reads it).
pub(crate) fn header_version(l: &sbekit_ir::layout::Layout, b: &[u8]) -> Option<u64> {
    l.header.version.read(b, l.byte_order)
}

/// Bytes as lowercase hex, for messages in reports.
pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
