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
