//! Generated dissectors run in tshark on synthetic captures (`sbekit capture synth`'s writer):
//! every value tshark shows equals what `sbekit capture decode` prints for the same packet,
//! compared as values and counted; truncated and corrupted packets give expert info and no
//! Lua error. Needs tshark (skips loudly without it, fails under `CI=true`).

mod common;

use common::*;
use sbekit_feed::synth::{self, SynthConfig};
use std::path::{Path, PathBuf};

const PORT: u16 = 20_001;

fn reference(rel: &str, test: &str) -> Option<PathBuf> {
    sbekit_testdata::require_reference(rel, test)
}

/// Writes a synthetic capture of `messages` random messages; returns its bytes and path.
fn capture(dir: &Path, d: &Dissector, messages: u64, compress: bool) -> (Vec<u8>, PathBuf) {
    let cfg = SynthConfig {
        messages,
        seed: 7,
        compress,
        ..SynthConfig::default()
    };
    let mut bytes = Vec::new();
    synth::generate(&d.ir, &d.profile, &cfg, &mut bytes).expect("synthetic capture");
    let path = dir.join(format!("{}.pcapng", d.proto));
    std::fs::write(&path, &bytes).expect("capture written");
    (bytes, path)
}

/// Generates, captures, dissects and compares; returns (messages, values) compared.
fn check(test: &str, schema: &Path, profile: &str, proto: &str, messages: u64) -> (usize, usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    let tcp = profile.starts_with("sofh") || profile.starts_with('u');
    let d = dissector(
        dir.path(),
        schema,
        profile,
        proto,
        if tcp { &[] } else { &[PORT] },
        if tcp { &[PORT] } else { &[] },
    );
    let (bytes, pcap) = capture(dir.path(), &d, messages, false);
    if let Some(keep) = std::env::var_os("SBEKIT_WS_KEEP") {
        // Debugging: keep the dissector and capture.
        let keep = PathBuf::from(keep);
        std::fs::create_dir_all(&keep).expect("keep dir");
        std::fs::copy(&d.lua, keep.join(d.lua.file_name().expect("name"))).expect("copy");
        std::fs::copy(&pcap, keep.join(pcap.file_name().expect("name"))).expect("copy");
    }
    let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    assert!(!out.stderr.contains("Lua"), "{test}: {}", out.stderr);
    let (msgs, values) = compare(&d, &bytes, &out.stdout);
    eprintln!("{test}: {msgs} messages, {values} values equal to capture decode's");
    assert!(
        msgs as u64 >= messages,
        "{test}: {msgs} of {messages} messages dissected"
    );
    (msgs, values)
}

#[test]
fn car_over_sofh_equals_capture_decode() {
    if !tshark("car_over_sofh_equals_capture_decode") {
        return;
    }
    let Some(s) = reference(
        "sbe-benchmarks/src/main/resources/car.xml",
        "car_over_sofh_equals_capture_decode",
    ) else {
        return;
    };
    let (_, values) = check("car/sofh", &s, "sofh", "car", 60);
    assert!(values > 60 * 30, "{values}");
}

#[test]
fn car_over_u16le_equals_capture_decode() {
    if !tshark("car_over_u16le_equals_capture_decode") {
        return;
    }
    let Some(s) = reference(
        "sbe-benchmarks/src/main/resources/car.xml",
        "car_over_u16le_equals_capture_decode",
    ) else {
        return;
    };
    check("car/u16le", &s, "u16le", "car", 40);
}

#[test]
fn fix_message_samples_over_sofh_equal_capture_decode() {
    if !tshark("fix_message_samples_over_sofh_equal_capture_decode") {
        return;
    }
    let Some(s) = reference(
        "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
        "fix_message_samples_over_sofh_equal_capture_decode",
    ) else {
        return;
    };
    check("fix-message-samples/sofh", &s, "sofh", "fixsamples", 100);
}

#[test]
fn fix_binary_over_cme_mdp3_equals_capture_decode() {
    if !tshark("fix_binary_over_cme_mdp3_equals_capture_decode") {
        return;
    }
    let Some(s) = reference(
        "sbe-tool/src/test/resources/FixBinary.xml",
        "fix_binary_over_cme_mdp3_equals_capture_decode",
    ) else {
        return;
    };
    check("FixBinary/cme-mdp3", &s, "cme-mdp3", "cme_mdp3", 300);
}

#[test]
fn market_data_over_every_udp_profile_equals_capture_decode() {
    if !tshark("market_data_over_every_udp_profile_equals_capture_decode") {
        return;
    }
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    // (`coinbase-derivatives` frames by the schema's own header, whose first field is the
    // frame length: it fits Coinbase's schema only, tested on the real captures.)
    for (p, proto) in [
        ("b3-umdf", "md_b3"),
        ("optiq-mdg", "md_optiq"),
        ("sofh-le", "md_sofhle"),
        ("u32le", "md_u32"),
    ] {
        check(p, &s, p, proto, 60);
    }
}

#[test]
fn orders_be_big_endian_equals_capture_decode() {
    if !tshark("orders_be_big_endian_equals_capture_decode") {
        return;
    }
    let s =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas/orders-be.xml");
    check("orders-be/sofh", &s, "sofh", "orders_be", 60);
}

/// Issue 34: the hostile-name schemas (keywords of every target language, every generator's
/// runtime identifiers) give dissectors that load in tshark without a Lua error and dissect
/// every message as `sbekit capture decode` reads it.
#[test]
fn hostile_names_load_and_equal_capture_decode() {
    if !tshark("hostile_names_load_and_equal_capture_decode") {
        return;
    }
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas");
    for (schema, proto) in [
        ("hostile-names.xml", "hostile_names"),
        ("keywords.xml", "keywords"),
    ] {
        check(schema, &own.join(schema), "sofh-le", proto, 40);
    }
}

/// The UDP payloads of a capture.
fn udp_payloads(capture: &[u8]) -> Vec<Vec<u8>> {
    sbekit_capture::PacketReader::new(capture)
        .expect("capture")
        .map(|p| {
            let p = p.expect("packet");
            sbekit_capture::net::udp_datagram(p.link_type, p.data)
                .expect("UDP")
                .payload
                .to_vec()
        })
        .collect()
}

/// Where each message of a `cme-mdp3` UDP payload ends (the valid cut points).
fn boundaries(payload: &[u8]) -> Vec<usize> {
    let mut out = vec![12];
    let mut at = 12;
    while at + 2 <= payload.len() {
        at += usize::from(u16::from_le_bytes([payload[at], payload[at + 1]]));
        out.push(at);
    }
    out
}

#[test]
fn truncated_and_corrupted_packets_give_expert_info_and_no_lua_error() {
    let test = "truncated_and_corrupted_packets_give_expert_info_and_no_lua_error";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let d = dissector(dir.path(), &s, "cme-mdp3", "md", &[PORT], &[]);
    let (bytes, _) = capture(dir.path(), &d, 24, false);
    let intact = udp_payloads(&bytes);
    // Every cut and every byte flipped of two packets, each followed by the intact packet.
    let mut packets: Vec<(Vec<u8>, Option<bool>)> = Vec::new();
    for p in intact.iter().take(2) {
        let valid = boundaries(p);
        // (An empty datagram reaches no dissector: cuts start at 1 byte.)
        for cut in 1..p.len() {
            packets.push((p[..cut].to_vec(), Some(!valid.contains(&cut))));
        }
        for i in 0..p.len() {
            let mut q = p.clone();
            q[i] ^= 0xFF;
            packets.push((q, None));
        }
        packets.push((p.clone(), Some(false)));
    }
    let mut out = Vec::new();
    let mut w = sbekit_capture::write::PcapNgWriter::new(&mut out, "sbekit test").expect("writer");
    for (i, (p, _)) in packets.iter().enumerate() {
        w.udp(
            i as i64 * 1000,
            ([10, 0, 0, 1], 30001),
            ([239, 1, 1, 1], PORT),
            p,
        )
        .expect("packet");
    }
    w.into_inner().expect("flush");
    let pcap = dir.path().join("bad.pcapng");
    std::fs::write(&pcap, &out).expect("capture written");
    let t = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    assert!(!t.stderr.contains("Lua"), "{}", t.stderr);
    assert!(!t.stdout.contains("Lua Error"), "a Lua error in the tree");
    let trees = pdml(&t.stdout, "md");
    assert_eq!(trees.len(), packets.len());
    let (mut expected, mut flagged) = (0, 0);
    for (i, (items, (_, must))) in trees.iter().zip(&packets).enumerate() {
        let mut flat = Vec::new();
        all(items, &mut flat);
        let experts: Vec<&str> = flat
            .iter()
            .filter(|it| it.name.starts_with("md.expert."))
            .map(|it| it.name.as_str())
            .collect();
        assert!(!experts.contains(&"md.expert.internal"), "packet {i}");
        match must {
            Some(true) => {
                expected += 1;
                assert!(
                    !experts.is_empty(),
                    "packet {i}: a cut message gives no expert info"
                );
            }
            Some(false) => assert!(experts.is_empty(), "packet {i}: {experts:?}"),
            None => flagged += usize::from(!experts.is_empty()),
        }
    }
    eprintln!(
        "{} packets: {expected} truncated inside a message, each with expert info; {flagged} of the byte flips flagged",
        packets.len()
    );
    assert!(expected > 100 && flagged > 0);
    // The intact packets after the bad ones are dissected as the decoder reads them.
    let (msgs, _) = compare(
        &d,
        &bytes,
        &run(&[&d.lua], &dir.path().join("md.pcapng"), &["-T", "pdml"]).stdout,
    );
    assert!(msgs >= 24);
}

#[test]
fn the_heuristic_finds_packets_on_any_port() {
    let test = "the_heuristic_finds_packets_on_any_port";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let d = dissector(dir.path(), &s, "cme-mdp3", "md", &[], &[]);
    let (bytes, pcap) = capture(dir.path(), &d, 30, false);
    let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    let (msgs, values) = compare(&d, &bytes, &out.stdout);
    assert!(msgs >= 30 && values > 0);
}

#[test]
fn optiq_lz4_payloads_are_decompressed() {
    let test = "optiq_lz4_payloads_are_decompressed";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let d = dissector(dir.path(), &s, "optiq-mdg", "md_lz4", &[PORT], &[]);
    let (bytes, pcap) = capture(dir.path(), &d, 60, true);
    let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    assert!(
        out.stdout.contains("decompressed"),
        "no packet was compressed"
    );
    let (msgs, values) = compare(&d, &bytes, &out.stdout);
    eprintln!("optiq-mdg LZ4: {msgs} messages, {values} values");
    assert!(msgs >= 60);
}

#[test]
fn display_filters_select_messages_and_fields() {
    let test = "display_filters_select_messages_and_fields";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let d = dissector(dir.path(), &s, "cme-mdp3", "md", &[PORT], &[]);
    let (bytes, pcap) = capture(dir.path(), &d, 40, false);
    let oracle = decode(&d, &bytes);
    let m = &d.plan.messages[0];
    let field = &m.body.fields[0].name;
    let filter = format!("md.{}", m.body.name);
    let out = run(
        &[&d.lua],
        &pcap,
        &[
            "-Y",
            &filter,
            "-T",
            "fields",
            "-e",
            "md.templateId",
            "-e",
            &format!("md.{}.{field}", m.body.name),
        ],
    );
    let rows: Vec<&str> = out.stdout.lines().collect();
    // The packets holding that message, as the decoder counts them.
    let want = oracle
        .values()
        .filter(|msgs| msgs.iter().any(|j| j.get(field.as_str()).is_some()))
        .count();
    assert!(want > 0);
    assert_eq!(rows.len(), want, "{}", out.stdout);
    assert!(rows
        .iter()
        .all(|r| r.split('\t').nth(1).is_some_and(|v| !v.is_empty())));
}

#[test]
fn fields_newer_than_the_writer_are_absent_as_decode_prints_them() {
    let test = "fields_newer_than_the_writer_are_absent_as_decode_prints_them";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas");
    // The version 1 dissector reads messages a version 0 writer sent.
    let d = dissector(
        dir.path(),
        &schemas.join("versioned-v1.xml"),
        "cme-mdp3",
        "ver",
        &[PORT],
        &[],
    );
    let v0 = sbekit_schema::load_ir(&schemas.join("versioned-v0.xml")).expect("v0");
    let cfg = SynthConfig {
        messages: 40,
        seed: 3,
        ..SynthConfig::default()
    };
    let mut bytes = Vec::new();
    synth::generate(&v0, &d.profile, &cfg, &mut bytes).expect("synthetic capture");
    let pcap = dir.path().join("v0.pcapng");
    std::fs::write(&pcap, &bytes).expect("capture written");
    let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    let (msgs, values) = compare(&d, &bytes, &out.stdout);
    assert!(msgs >= 40, "{msgs}");
    // Every message shows its version 1 fields as absent.
    let absent = out.stdout.matches(": (absent)").count();
    eprintln!("v0 writer, v1 dissector: {msgs} messages, {values} values, {absent} absent items");
    assert!(absent >= msgs, "{absent} absent items in {msgs} messages");
}

#[test]
fn binance_spot_over_sofh_equals_capture_decode() {
    let test = "binance_spot_over_sofh_equals_capture_decode";
    if !tshark(test) {
        return;
    }
    let Some(s) = sbekit_testdata::require("schemas/binance-spot/spot_3_5.xml", test) else {
        return;
    };
    check("binance spot_3_5/sofh", &s, "sofh", "binance", 200);
}

#[test]
fn messages_split_across_tcp_segments_are_reassembled() {
    let test = "messages_split_across_tcp_segments_are_reassembled";
    if !tshark(test) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let d = dissector(dir.path(), &s, "sofh-le", "md_split", &[], &[PORT]);
    let (bytes, _) = capture(dir.path(), &d, 40, false);
    // The stream again, cut into segments of 1 to 97 bytes (cuts inside length prefixes,
    // headers and bodies).
    let mut stream = Vec::new();
    for p in sbekit_capture::PacketReader::new(&bytes).expect("capture") {
        let p = p.expect("packet");
        let t = sbekit_capture::net::tcp_segment(p.link_type, p.data).expect("TCP");
        stream.extend_from_slice(t.payload);
    }
    let mut out = Vec::new();
    let mut w = sbekit_capture::write::PcapNgWriter::new(&mut out, "sbekit test").expect("writer");
    let (mut at, mut n, mut seq) = (0usize, 0u32, 1000u32);
    while at < stream.len() {
        let len = (1 + (n as usize * 37) % 97).min(stream.len() - at);
        w.tcp(
            i64::from(n),
            ([10, 0, 0, 1], 30001),
            ([239, 1, 1, 1], PORT),
            seq,
            &stream[at..at + len],
        )
        .expect("segment");
        seq = seq.wrapping_add(len as u32);
        at += len;
        n += 1;
    }
    w.into_inner().expect("flush");
    let pcap = dir.path().join("split.pcapng");
    std::fs::write(&pcap, &out).expect("capture written");
    let t = run(&[&d.lua], &pcap, &["-T", "pdml"]);
    let (msgs, values) = compare_as(&d, &out, &t.stdout, false);
    eprintln!("{n} segments: {msgs} messages, {values} values equal to capture decode's");
    assert!(msgs >= 40);
}
