//! The real packets of `../shared/data/omi` (CME MDP 3.0 and iLink 3, B3 UMDF and EntryPoint,
//! Coinbase Derivatives): the dissectors generated for their schemas and profiles show every
//! message, with every value equal to what `sbekit capture decode` prints. Skips loudly
//! without `../shared` or tshark.

mod common;

use common::*;

use sbekit_testdata::OMI_CAPTURES;

/// The destination port of the capture's first packet, and whether it is TCP.
fn port(capture: &[u8]) -> (u16, bool) {
    let p = sbekit_capture::PacketReader::new(capture)
        .expect("capture")
        .next()
        .expect("a packet")
        .expect("packet");
    if let Ok(u) = sbekit_capture::net::udp_datagram(p.link_type, p.data) {
        return (u.dst_port, false);
    }
    let t = sbekit_capture::net::tcp_segment(p.link_type, p.data).expect("UDP or TCP");
    (t.dst_port, true)
}

#[test]
fn real_packets_equal_capture_decode() {
    let test = "real_packets_equal_capture_decode";
    if !tshark(test) {
        return;
    }
    let Some(data) = sbekit_testdata::require("data/omi", test) else {
        return;
    };
    let Some(schemas) = sbekit_testdata::require("schemas/omi", test) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut msgs, mut values) = (0, 0);
    for (i, (file, profile, schema)) in OMI_CAPTURES.iter().enumerate() {
        let pcap = data.join(file);
        let bytes = std::fs::read(&pcap).expect("capture");
        let (p, tcp) = port(&bytes);
        let proto = format!("omi{i:02}");
        let (udp, tcps) = if tcp {
            (vec![], vec![p])
        } else {
            (vec![p], vec![])
        };
        let d = dissector(
            dir.path(),
            &schemas.join(schema),
            profile,
            &proto,
            &udp,
            &tcps,
        );
        let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
        assert!(!out.stderr.contains("Lua"), "{file}: {}", out.stderr);
        let (m, v) = compare(&d, &bytes, &out.stdout);
        eprintln!("{file}: {m} messages, {v} values equal");
        msgs += m;
        values += v;
    }
    eprintln!(
        "{} real captures: {msgs} messages, {values} values equal to capture decode's",
        OMI_CAPTURES.len()
    );
    // The data README's counts: every message of the listed schemas' ids (the 4 of CME's
    // session schema id 2 are shown as another schema, and the decoder skips them).
    assert_eq!(msgs, 40);
}
