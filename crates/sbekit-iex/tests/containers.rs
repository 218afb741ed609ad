//! Container, network and IEX-TP edge cases on captures built by hand in this file (no real
//! data): every pcap magic, pcap-ng sections of both byte orders, interfaces with different
//! `if_tsresol`, simple packet blocks, options, unknown blocks, VLAN / QinQ, IPv4 options,
//! skipped frames, and corrupt or truncated records and messages.

// The packet readers live in the shared capture layer, with its own error kinds.
use sbekit_capture::ErrorKind as CaptureErrorKind;
use sbekit_iex::{
    Capture, IexErrorKind, Message, PacketReader, ReadOptions, Segment, Segments,
    StreamPacketReader, StreamSegments,
};

// ---- builders ---------------------------------------------------------------------------------

fn msg_block(msgs: &[&[u8]]) -> Vec<u8> {
    let mut p = Vec::new();
    for m in msgs {
        p.extend_from_slice(&(m.len() as u16).to_le_bytes());
        p.extend_from_slice(m);
    }
    p
}

fn iextp(proto: u16, session: u32, seq: i64, offset: i64, send: i64, msgs: &[&[u8]]) -> Vec<u8> {
    let payload = msg_block(msgs);
    let mut h = vec![1u8, 0];
    h.extend_from_slice(&proto.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&session.to_le_bytes());
    h.extend_from_slice(&(payload.len() as u16).to_le_bytes());
    h.extend_from_slice(&(msgs.len() as u16).to_le_bytes());
    h.extend_from_slice(&offset.to_le_bytes());
    h.extend_from_slice(&seq.to_le_bytes());
    h.extend_from_slice(&send.to_le_bytes());
    h.extend_from_slice(&payload);
    h
}

/// Ethernet frame with the given VLAN TPIDs, an IPv4 header with `ip_opt_words` option words,
/// and IP protocol `proto` carrying `payload` (as UDP when proto is 17).
fn frame(tags: &[u16], ip_opt_words: usize, proto: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x01, 0x00, 0x5e, 0x57, 0x15, 0x04, 0x02, 0, 0, 0, 0, 1];
    for (i, t) in tags.iter().enumerate() {
        f.extend_from_slice(&t.to_be_bytes());
        f.extend_from_slice(&(100 + i as u16).to_be_bytes());
    }
    f.extend_from_slice(&0x0800u16.to_be_bytes());
    let ihl = 5 + ip_opt_words;
    let l4_len = if proto == 17 {
        8 + payload.len()
    } else {
        payload.len()
    };
    let total = ihl * 4 + l4_len;
    f.push(0x40 | ihl as u8);
    f.push(0);
    f.extend_from_slice(&(total as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0, 0x40, 0, 64, proto, 0, 0]);
    f.extend_from_slice(&[23, 226, 155, 132, 233, 215, 21, 4]);
    f.resize(f.len() + ip_opt_words * 4, 1); // NOP options
    if proto == 17 {
        f.extend_from_slice(&10378u16.to_be_bytes());
        f.extend_from_slice(&10378u16.to_be_bytes());
        f.extend_from_slice(&(l4_len as u16).to_be_bytes());
        f.extend_from_slice(&[0, 0]);
    }
    f.extend_from_slice(payload);
    f
}

fn udp(payload: &[u8]) -> Vec<u8> {
    frame(&[], 0, 17, payload)
}

fn pcap(be: bool, nanos: bool, link: u32, recs: &[(u32, u32, Vec<u8>)]) -> Vec<u8> {
    let u16b = |v: u16| if be { v.to_be_bytes() } else { v.to_le_bytes() };
    let u32b = |v: u32| if be { v.to_be_bytes() } else { v.to_le_bytes() };
    let mut f = Vec::new();
    f.extend_from_slice(&u32b(if nanos { 0xa1b2_3c4d } else { 0xa1b2_c3d4 }));
    f.extend_from_slice(&u16b(2));
    f.extend_from_slice(&u16b(4));
    f.extend_from_slice(&u32b(0));
    f.extend_from_slice(&u32b(0));
    f.extend_from_slice(&u32b(65535));
    f.extend_from_slice(&u32b(link));
    for (s, frac, data) in recs {
        f.extend_from_slice(&u32b(*s));
        f.extend_from_slice(&u32b(*frac));
        f.extend_from_slice(&u32b(data.len() as u32));
        f.extend_from_slice(&u32b(data.len() as u32));
        f.extend_from_slice(data);
    }
    f
}

struct Ng {
    be: bool,
    out: Vec<u8>,
}

impl Ng {
    fn u16b(&self, v: u16) -> [u8; 2] {
        if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    }
    fn u32b(&self, v: u32) -> [u8; 4] {
        if self.be {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    }
    fn opts(&self, opts: &[(u16, &[u8])]) -> Vec<u8> {
        let mut o = Vec::new();
        for (code, val) in opts {
            o.extend_from_slice(&self.u16b(*code));
            o.extend_from_slice(&self.u16b(val.len() as u16));
            o.extend_from_slice(val);
            o.resize(o.len().div_ceil(4) * 4, 0);
        }
        if !opts.is_empty() {
            o.extend_from_slice(&[0, 0, 0, 0]);
        }
        o
    }
    fn block(&mut self, ty: u32, body: &[u8]) {
        let len = 12 + body.len().div_ceil(4) * 4;
        let mut b = Vec::new();
        b.extend_from_slice(&self.u32b(ty));
        b.extend_from_slice(&self.u32b(len as u32));
        b.extend_from_slice(body);
        b.resize(len - 4, 0);
        b.extend_from_slice(&self.u32b(len as u32));
        self.out.extend_from_slice(&b);
    }
    fn shb(&mut self, be: bool) {
        self.be = be;
        let mut body = Vec::new();
        body.extend_from_slice(&self.u32b(0x1A2B_3C4D));
        body.extend_from_slice(&self.u16b(1));
        body.extend_from_slice(&self.u16b(0));
        body.extend_from_slice(&(-1i64).to_le_bytes());
        body.extend(self.opts(&[(3, b"hand-built test capture")]));
        // The type 0x0A0D0D0A is a palindrome, so either byte order writes the same bytes.
        self.block(0x0A0D_0D0A, &body);
    }
    fn idb(&mut self, link: u16, snaplen: u32, tsresol: Option<u8>) {
        let mut body = Vec::new();
        body.extend_from_slice(&self.u16b(link));
        body.extend_from_slice(&self.u16b(0));
        body.extend_from_slice(&self.u32b(snaplen));
        let res;
        let mut opts: Vec<(u16, &[u8])> = vec![(2, b"eth0")];
        if let Some(r) = tsresol {
            res = [r];
            opts.push((9, &res));
        }
        body.extend(self.opts(&opts));
        self.block(1, &body);
    }
    fn epb(&mut self, iface: u32, units: u64, data: &[u8], with_opts: bool) {
        let mut body = Vec::new();
        body.extend_from_slice(&self.u32b(iface));
        body.extend_from_slice(&self.u32b((units >> 32) as u32));
        body.extend_from_slice(&self.u32b(units as u32));
        body.extend_from_slice(&self.u32b(data.len() as u32));
        body.extend_from_slice(&self.u32b(data.len() as u32));
        body.extend_from_slice(data);
        body.resize(body.len().div_ceil(4) * 4, 0);
        if with_opts {
            body.extend(self.opts(&[(1, b"a comment on a packet")]));
        }
        self.block(6, &body);
    }
    fn spb(&mut self, data: &[u8]) {
        let mut body = Vec::new();
        body.extend_from_slice(&self.u32b(data.len() as u32));
        body.extend_from_slice(data);
        self.block(3, &body);
    }
}

fn trade(sym: &[u8; 8], size: u32, price: i64, id: i64) -> Vec<u8> {
    let mut m = vec![b'T', 0x80];
    m.extend_from_slice(&1_500_000_000_000_000_000i64.to_le_bytes());
    m.extend_from_slice(sym);
    m.extend_from_slice(&size.to_le_bytes());
    m.extend_from_slice(&price.to_le_bytes());
    m.extend_from_slice(&id.to_le_bytes());
    m
}

fn all_messages(data: &[u8], opts: ReadOptions) -> (Vec<Vec<u8>>, Vec<sbekit_iex::Error>) {
    let mut ok = Vec::new();
    let mut errs = Vec::new();
    for m in Segments::new(data, opts).unwrap().messages() {
        match m {
            Ok(m) => ok.push(m.raw().to_vec()),
            Err(e) => errs.push(e),
        }
    }
    (ok, errs)
}

fn stream_messages(data: &[u8], opts: ReadOptions) -> (Vec<Vec<u8>>, Vec<sbekit_iex::Error>) {
    let mut ok = Vec::new();
    let mut errs = Vec::new();
    let mut s = match StreamSegments::new(data, opts) {
        Ok(s) => s,
        Err(e) => return (ok, vec![e]),
    };
    while let Some(seg) = s.next_segment() {
        match seg {
            Ok(seg) => {
                for m in seg.messages() {
                    match m {
                        Ok(m) => ok.push(m.raw().to_vec()),
                        Err(e) => {
                            errs.push(e);
                            if !opts.keep_going {
                                return (ok, errs);
                            }
                        }
                    }
                }
            }
            Err(e) => errs.push(e),
        }
    }
    (ok, errs)
}

// ---- tests ------------------------------------------------------------------------------------

/// The golden vector of the IEX Transport Specification (§ Examples, DEEP v1.0), as quoted in
/// `shared/docs/iex-format.md`.
#[test]
fn transport_spec_golden_vector() {
    let hex = "01000480010000000000874248000200\
               8ca6210000000000cac3000000000000ec45c22096866d14\
               2600 54 00 ac63c02096866d14 5a49455854202020 64000000 241d0f0000000000 968f060000000000\
               1e00 38 01 ac63c02096866d14 5a49455854202020 e4250000 241d0f0000000000";
    let hex: String = hex.split_whitespace().collect();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(bytes.len(), 40 + 72);
    let seg = Segment::parse(&bytes, 0).unwrap().unwrap();
    assert_eq!(seg.version(), 1);
    assert_eq!(seg.protocol_id(), 0x8004);
    assert_eq!(seg.protocol(), sbekit_iex::Protocol::Deep10);
    assert_eq!(seg.channel_id(), 1);
    assert_eq!(seg.session_id(), 0x4287_0000);
    assert_eq!(seg.payload_length(), 72);
    assert_eq!(seg.message_count(), 2);
    assert_eq!(seg.stream_offset(), 2_205_324);
    assert_eq!(seg.first_seq(), 50_122);
    assert_eq!(
        sbekit_iex::stats::format_utc(seg.send_time()),
        "2016-08-23T19:30:32.572839404Z" // 15:30:32.572839404 EDT
    );
    let msgs: Vec<Message> = seg.messages().map(|m| m.unwrap()).collect();
    assert_eq!(msgs.len(), 2);
    let Message::TradeReport(t) = msgs[0] else {
        panic!()
    };
    assert_eq!(
        (t.symbol().as_str(), t.size(), t.trade_id()),
        ("ZIEXT", 100, 429_974)
    );
    assert_eq!(t.price().to_string(), "99.0500");
    let Message::PriceLevelUpdate(u) = msgs[1] else {
        panic!()
    };
    assert!(u.is_buy());
    assert_eq!(
        (u.event_flags(), u.size(), u.price().raw()),
        (1, 9_700, 990_500)
    );
}

fn sample_segments() -> Vec<Vec<u8>> {
    vec![
        iextp(
            0x8004,
            7,
            1,
            0,
            10,
            &[&trade(b"AAPL    ", 100, 1_500_000, 1)],
        ),
        iextp(0x8004, 7, 2, 40, 11, &[]), // heartbeat
        iextp(
            0x8004,
            7,
            2,
            40,
            12,
            &[
                &trade(b"MSFT    ", 200, 3_000_000, 2),
                &trade(b"JPM-A   ", 7, -5, 3),
            ],
        ),
    ]
}

#[test]
fn every_pcap_magic_reads_the_same() {
    let segs = sample_segments();
    let mut results = Vec::new();
    for be in [false, true] {
        for nanos in [false, true] {
            let recs: Vec<_> = segs
                .iter()
                .enumerate()
                .map(|(i, s)| (1_600_000_000 + i as u32, 123, udp(s)))
                .collect();
            let data = pcap(be, nanos, 1, &recs);
            let packets: Vec<_> = PacketReader::new(&data)
                .unwrap()
                .map(|p| p.unwrap())
                .collect();
            assert_eq!(packets.len(), 3);
            let frac_ns = if nanos { 123 } else { 123_000 };
            assert_eq!(
                packets[1].timestamp_ns,
                Some(1_600_000_001 * 1_000_000_000 + frac_ns)
            );
            let (msgs, errs) = all_messages(&data, ReadOptions::default());
            assert!(errs.is_empty());
            results.push(msgs);
        }
    }
    assert_eq!(results[0].len(), 3);
    assert!(results.iter().all(|r| r == &results[0]));
    let m = Message::parse(&results[0][2]).unwrap();
    assert_eq!(m.symbol().unwrap().as_str(), "JPM-A");
    let Message::TradeReport(t) = m else { panic!() };
    assert_eq!(t.price().raw(), -5, "prices are signed");
    assert_eq!(t.price().to_string(), "-0.0005");
}

#[test]
fn pcapng_sections_interfaces_resolutions_and_unknown_blocks() {
    let segs = sample_segments();
    let mut ng = Ng {
        be: false,
        out: Vec::new(),
    };
    // Section 1, little-endian: interface 0 in µs (default, no option), interface 1 in ns.
    ng.shb(false);
    ng.idb(1, 65535, None);
    ng.idb(1, 65535, Some(9));
    ng.epb(0, 1_700_000_000_000_001, &udp(&segs[0]), true);
    ng.block(5, &[0; 20]); // interface statistics block: skipped
    ng.block(0x0000_0BAD, &[1, 2, 3, 4, 5, 6, 7, 8]); // custom / unknown: skipped
    ng.epb(1, 1_700_000_000_000_000_002, &udp(&segs[1]), false);
    // Section 2, big-endian: interfaces restart at 0; binary resolution 2^-10 s.
    ng.shb(true);
    ng.idb(1, 65535, Some(0x80 | 10));
    ng.epb(0, 1024 * 5 + 512, &udp(&segs[2]), true);
    // A simple packet block (no timestamp) on interface 0.
    ng.spb(&udp(&segs[0]));
    let data = ng.out;

    let packets: Vec<_> = PacketReader::new(&data)
        .unwrap()
        .map(|p| p.unwrap())
        .collect();
    assert_eq!(packets.len(), 4);
    assert_eq!(packets[0].timestamp_ns, Some(1_700_000_000_000_001_000));
    assert_eq!(packets[1].timestamp_ns, Some(1_700_000_000_000_000_002));
    assert_eq!(packets[2].timestamp_ns, Some(5_500_000_000));
    assert_eq!(packets[3].timestamp_ns, None);
    // EPB padding and options do not leak into the frame.
    assert_eq!(packets[0].data, &udp(&segs[0])[..]);
    assert_eq!(packets[3].data, &udp(&segs[0])[..]);

    let (msgs, errs) = all_messages(&data, ReadOptions::default());
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(msgs.len(), 4);

    // The streaming reader sees exactly the same packets.
    let mut sr = StreamPacketReader::new(&data[..]).unwrap();
    let mut n = 0;
    while let Some(p) = sr.next_packet() {
        let p = p.unwrap();
        assert_eq!(p.data, packets[n].data);
        assert_eq!(p.timestamp_ns, packets[n].timestamp_ns);
        assert_eq!(p.offset, packets[n].offset);
        n += 1;
    }
    assert_eq!(n, 4);
    assert_eq!(stream_messages(&data, ReadOptions::default()), (msgs, errs));
}

#[test]
fn pcapng_errors() {
    // A packet on an interface that no interface description block declared.
    let mut ng = Ng {
        be: false,
        out: Vec::new(),
    };
    ng.shb(false);
    let shb_len = ng.out.len();
    ng.epb(0, 0, &udp(&sample_segments()[0]), false);
    let e = PacketReader::new(&ng.out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.kind, CaptureErrorKind::UnknownInterface(0));
    assert_eq!(e.offset, shb_len as u64);

    // A trailing length that disagrees with the leading one.
    let mut ng = Ng {
        be: false,
        out: Vec::new(),
    };
    ng.shb(false);
    ng.idb(1, 65535, None);
    let n = ng.out.len();
    ng.out[n - 4] ^= 0x40;
    let e = PacketReader::new(&ng.out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(matches!(e.kind, CaptureErrorKind::BadLength { .. }), "{e}");

    // A block length that is not a multiple of 4.
    let mut ng = Ng {
        be: false,
        out: Vec::new(),
    };
    ng.shb(false);
    ng.out.extend_from_slice(&1u32.to_le_bytes());
    ng.out.extend_from_slice(&13u32.to_le_bytes());
    ng.out.extend_from_slice(&[0; 8]);
    let e = PacketReader::new(&ng.out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(e.kind, CaptureErrorKind::BadLength { len: 13, .. }),
        "{e}"
    );

    // Not a capture at all.
    let e = PacketReader::new(b"GIF89a....").unwrap_err();
    assert!(matches!(e.kind, CaptureErrorKind::UnknownMagic(_)));
    assert_eq!(e.offset, 0);
}

#[test]
fn vlan_qinq_ip_options_and_skipped_frames() {
    let seg = iextp(0x8003, 1, 1, 0, 1, &[&trade(b"IBM     ", 1, 1, 1)]);
    let mut arp = vec![0xff; 12];
    arp.extend_from_slice(&0x0806u16.to_be_bytes());
    arp.extend_from_slice(&[0; 28]);
    let mut fragment = udp(&seg);
    fragment[14 + 6] = 0x20; // more fragments
    let mut short_udp = udp(b"hi");
    short_udp.resize(60, 0); // Ethernet minimum-size padding after a tiny datagram
    let v1 = udp(&seg);
    let recs = vec![
        (1, 0, frame(&[0x8100], 0, 17, &seg)),
        (2, 0, frame(&[0x88a8, 0x8100], 0, 17, &seg)),
        (3, 0, frame(&[], 3, 17, &seg)),
        (4, 0, arp),
        (5, 0, frame(&[], 0, 6, &[0; 20])),
        (6, 0, fragment),
        (7, 0, short_udp),
        (8, 0, vec![0x01, 0x02]),
        (9, 0, v1),
    ];
    let data = pcap(false, false, 1, &recs);
    let mut segs = Segments::new(&data, ReadOptions::default()).unwrap();
    let found: Vec<_> = segs
        .by_ref()
        .map(|s| s.unwrap().messages().count())
        .collect();
    assert_eq!(found, vec![1, 1, 1, 1]);
    let c = *segs.counters();
    assert_eq!(c.frames, 9);
    assert_eq!(c.non_udp, 2, "ARP and TCP");
    assert_eq!(c.fragments, 1);
    assert_eq!(
        c.non_iextp, 1,
        "a 2-byte UDP payload, padding not counted as payload"
    );
    assert_eq!(c.malformed, 1, "a 2-byte frame");
}

#[test]
fn messages_unknown_longer_short_overrun_empty() {
    let mut longer = trade(b"AA      ", 5, 42, 9);
    longer.extend_from_slice(&[0xee; 4]); // TOPS 1.5 style trailing reserved bytes
    let unknown = [b'Z', 1, 2, 3];
    let short_t = [b'T'; 20];
    let seg = iextp(
        0x8004,
        1,
        1,
        0,
        1,
        &[&longer, &unknown, &short_t, &trade(b"B       ", 1, 1, 1)],
    );
    let s = Segment::parse(&seg, 1000).unwrap().unwrap();
    let items: Vec<_> = s.messages().collect();
    assert_eq!(items.len(), 4);
    let Ok(Message::TradeReport(t)) = items[0] else {
        panic!()
    };
    assert_eq!(
        (t.size(), t.price().raw(), t.trade_id(), t.raw().len()),
        (5, 42, 9, 42)
    );
    let Ok(Message::Unknown(u)) = items[1] else {
        panic!()
    };
    assert_eq!(u.raw(), &unknown);
    let Err(e) = &items[2] else { panic!() };
    assert_eq!(
        e.kind,
        IexErrorKind::MessageTooShort {
            msg_type: b'T',
            len: 20,
            need: 38
        }
    );
    // Offset of the third block: segment at 1000, header 40, blocks of 2+42 and 2+4.
    assert_eq!(e.offset, 1000 + 40 + 44 + 6);
    assert!(
        matches!(items[3], Ok(Message::TradeReport(_))),
        "framing survives a short message"
    );

    // A block running past the segment ends the segment with an error.
    let mut seg = iextp(
        0x8004,
        1,
        1,
        0,
        1,
        &[&trade(b"C       ", 1, 1, 1), &[b'S'; 10]],
    );
    let n = seg.len();
    seg[n - 12] = 200; // second block's length
    let s = Segment::parse(&seg, 0).unwrap().unwrap();
    let items: Vec<_> = s.messages().collect();
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    let Err(e) = &items[1] else { panic!() };
    assert!(matches!(
        e.kind,
        IexErrorKind::MessageOverrun {
            len: 200,
            remaining: 10
        }
    ));

    // A zero-length block.
    let mut seg = iextp(0x8004, 1, 1, 0, 1, &[&[b'S'; 10]]);
    seg[40] = 0;
    seg.truncate(42);
    seg[12] = 2;
    let s = Segment::parse(&seg, 0).unwrap().unwrap();
    let e = s.messages().next().unwrap().unwrap_err();
    assert_eq!(e.kind, IexErrorKind::EmptyMessage);

    // An IEX-TP payload length larger than the datagram.
    let mut seg = iextp(0x8004, 1, 1, 0, 1, &[&[b'S'; 10]]);
    seg[12] = 99;
    let e = Segment::parse(&seg, 5).unwrap_err();
    assert_eq!(
        e.kind,
        IexErrorKind::PayloadLength {
            declared: 99,
            actual: 12
        }
    );
    assert_eq!(e.offset, 5);
}

#[test]
fn keep_going_continues_past_corrupt_segments() {
    let good = iextp(0x8004, 1, 1, 0, 1, &[&trade(b"A       ", 1, 1, 1)]);
    let mut bad = good.clone();
    bad[12] = 200; // payload length beyond the datagram
    let recs: Vec<_> = [&good, &bad, &good]
        .iter()
        .map(|s| (1u32, 0u32, udp(s)))
        .collect();
    let data = pcap(false, false, 1, &recs);
    let (ok, errs) = all_messages(&data, ReadOptions::default());
    assert_eq!(
        (ok.len(), errs.len()),
        (1, 1),
        "stops at the corrupt segment"
    );
    let (ok, errs) = all_messages(&data, ReadOptions { keep_going: true });
    assert_eq!((ok.len(), errs.len()), (2, 1), "continues past it");
    assert_eq!(
        stream_messages(&data, ReadOptions { keep_going: true }),
        (ok, errs)
    );
}

#[test]
fn every_truncation_delivers_the_prefix_then_errors() {
    let segs = sample_segments();
    let recs: Vec<_> = segs.iter().map(|s| (1u32, 0u32, udp(s))).collect();
    let data = pcap(false, false, 1, &recs);
    let (full, _) = all_messages(&data, ReadOptions::default());
    // Record boundaries: header 24, then 16 + frame length each.
    let mut ends = vec![24usize];
    for r in &recs {
        ends.push(ends.last().unwrap() + 16 + r.2.len());
    }
    for cut in 24..data.len() {
        let part = &data[..cut];
        let (ok, errs) = all_messages(part, ReadOptions::default());
        let whole_records = ends.iter().filter(|&&e| e <= cut).count() - 1;
        let expected: usize = segs[..whole_records]
            .iter()
            .map(|s| Segment::parse(s, 0).unwrap().unwrap().messages().count())
            .sum();
        assert_eq!(ok, full[..expected].to_vec(), "cut at {cut}");
        if ends.contains(&cut) {
            assert!(errs.is_empty(), "cut at a record boundary is a clean end");
        } else {
            assert_eq!(errs.len(), 1, "cut at {cut}");
            assert_eq!(errs[0].offset, ends[whole_records] as u64);
            assert!(matches!(errs[0].kind, IexErrorKind::Truncated { .. }));
        }
        assert_eq!(
            stream_messages(part, ReadOptions::default()),
            (ok, errs),
            "cut {cut}"
        );
    }
}

#[test]
fn capture_from_vec_and_open_agree() {
    let recs: Vec<_> = sample_segments()
        .iter()
        .map(|s| (1u32, 0u32, udp(s)))
        .collect();
    let data = pcap(false, false, 1, &recs);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.cap");
    std::fs::write(&p, &data).unwrap();
    let mapped = Capture::open(&p).unwrap();
    assert_eq!(mapped.bytes(), &data[..]);
    assert_eq!(mapped.messages(ReadOptions::default()).unwrap().count(), 3);
    // An empty file is an error, not a panic.
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    assert!(Capture::open(&empty)
        .unwrap()
        .segments(ReadOptions::default())
        .is_err());
}

#[test]
fn stats_sequence_gaps_resets_and_backwards() {
    let m = trade(b"GAP     ", 1, 1, 1);
    let segs = [
        iextp(0x8004, 9, 1, 0, 1, &[&m, &m]),      // 1, 2
        iextp(0x8004, 9, 3, 84, 2, &[&m]),         // 3: continuous
        iextp(0x8004, 9, 10, 126, 3, &[&m]),       // expected 4: gap of 6
        iextp(0x8004, 9, 11, 168, 4, &[]),         // heartbeat announcing 11: continuous
        iextp(0x8004, 9, 1, 0, 5, &[&m]),          // restart at 1, offset 0: reset
        iextp(0x8004, 9, 1, 42, 6, &[&m]),         // expected 2, got 1: a reset (sequence 1)
        iextp(0x8004, 9, 1, 42, 7, &[&m, &m, &m]), // expected 2 again: reset
        iextp(0x8004, 9, 3, 200, 8, &[&m]),        // expected 4, got 3: backwards (duplicate)
        iextp(0x8003, 9, 1, 0, 9, &[&m]),          // another protocol: its own session
    ];
    let recs: Vec<_> = segs.iter().map(|s| (1u32, 0u32, udp(s))).collect();
    let data = pcap(false, false, 1, &recs);
    let mut stats = sbekit_iex::stats::Stats::default();
    for s in Segments::new(&data, ReadOptions::default()).unwrap() {
        stats.add_segment(&s.unwrap(), false).unwrap();
    }
    assert_eq!(stats.sessions.len(), 2);
    let deep = &stats.sessions[&(0x8004, 1, 9)];
    assert_eq!(deep.segments, 8);
    assert_eq!(deep.heartbeats, 1);
    assert_eq!((deep.gaps, deep.missing_messages), (1, 6));
    assert_eq!(deep.resets, 3);
    assert_eq!(deep.backwards, 1);
    assert_eq!(deep.next_seq, Some(4));
    let tops = &stats.sessions[&(0x8003, 1, 9)];
    assert_eq!((tops.segments, tops.gaps, tops.resets), (1, 0, 0));
    assert_eq!(stats.total_gaps(), (1, 6));
    assert_eq!(stats.messages, 11);
    assert_eq!(stats.symbols.len(), 1);
    assert_eq!(stats.send_time, Some((1, 9)));
}
