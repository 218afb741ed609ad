//! End-to-end tests of `sbekit iex stats` and `sbekit iex synth` through the built binary.

use serde_json::Value;
use std::process::{Command, Output};

fn sbekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(args)
        .output()
        .expect("run sbekit")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn synth_is_deterministic_and_stats_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pcapng");
    let b = dir.path().join("b.pcapng");
    let c = dir.path().join("c.pcapng");
    let (a_s, b_s, c_s) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        c.to_str().unwrap(),
    );
    let out = sbekit(&[
        "iex",
        "synth",
        "--seed",
        "9",
        "--messages",
        "25000",
        "-o",
        a_s,
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = json(&out);
    assert_eq!(summary["messages"], 25_000);
    assert!(sbekit(&[
        "iex",
        "synth",
        "--seed",
        "9",
        "--messages",
        "25000",
        "-o",
        b_s
    ])
    .status
    .success());
    assert!(sbekit(&[
        "iex",
        "synth",
        "--seed",
        "10",
        "--messages",
        "25000",
        "-o",
        c_s
    ])
    .status
    .success());
    let (ba, bb, bc) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(ba, bb, "same seed, same bytes");
    assert_ne!(ba, bc, "different seed, different bytes");
    assert_eq!(summary["bytes"], ba.len() as u64);

    let out = sbekit(&["iex", "stats", "--json", a_s]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "no progress bar or noise when stderr is not a terminal"
    );
    let s = json(&out);
    assert_eq!(s["messages"], 25_000);
    assert_eq!(s["error"], Value::Null);
    assert_eq!(s["format"], "pcap-ng");
    assert_eq!(
        s["by_type"], summary["by_type"],
        "stats agrees with what synth wrote"
    );
    let total: u64 = s["by_type"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total, 25_000);
    assert_eq!(s["segments"], summary["packets"]);
    assert_eq!(s["heartbeats"], summary["heartbeats"]);
    assert_eq!(s["sequence_gaps"], 0);
    assert_eq!(s["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(s["sessions"][0]["protocol"], "DEEP 1.0");
    assert_eq!(s["send_time"]["first"], summary["first_send"]);
    assert!(s["throughput"]["messages_per_second"].as_f64().unwrap() > 0.0);

    // The human table names the counts.
    let out = sbekit(&["iex", "stats", a_s]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("messages    25,000 (0 of unknown types)"),
        "{text}"
    );
    assert!(text.contains("price level update (buy)"), "{text}");
}

#[test]
fn synth_to_stdout_matches_file_and_streams_into_stats() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.pcapng");
    assert!(sbekit(&[
        "iex",
        "synth",
        "--messages",
        "3000",
        "-o",
        f.to_str().unwrap()
    ])
    .status
    .success());
    let out = sbekit(&["iex", "synth", "--messages", "3000", "-o", "-"]);
    assert!(out.status.success());
    assert_eq!(out.stdout, std::fs::read(&f).unwrap());

    // A gzip-compressed copy goes through the streaming reader and gives the same counts.
    let gz = dir.path().join("f.bin");
    let mut enc = flate2_like_gzip(&out.stdout);
    std::fs::write(&gz, &mut enc).unwrap();
    let plain = json(&sbekit(&["iex", "stats", "--json", f.to_str().unwrap()]));
    let zipped = json(&sbekit(&["iex", "stats", "--json", gz.to_str().unwrap()]));
    assert_eq!(zipped["format"], "gzip / pcap-ng");
    assert_eq!(plain["by_type"], zipped["by_type"]);
    assert_eq!(plain["messages"], 3000);

    // A pipe is read once, as a stream: `synth -o - | stats /dev/stdin`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(["iex", "stats", "--json", "/dev/stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = out.stdout.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&bytes).unwrap();
    });
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(piped.status.success());
    let piped = json(&piped);
    assert_eq!(piped["format"], "pcap-ng");
    assert_eq!(piped["by_type"], plain["by_type"]);
}

/// A stored (uncompressed) gzip member, written by hand so the test needs no gzip library:
/// header, DEFLATE "stored" blocks, CRC-32 and length.
fn flate2_like_gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    let chunks: Vec<&[u8]> = data.chunks(65_535).collect();
    for (i, c) in chunks.iter().enumerate() {
        out.push((i + 1 == chunks.len()) as u8);
        out.extend_from_slice(&(c.len() as u16).to_le_bytes());
        out.extend_from_slice(&(!(c.len() as u16)).to_le_bytes());
        out.extend_from_slice(c);
    }
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    out.extend_from_slice(&(!crc).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[test]
fn stats_on_real_truncated_capture_reports_offset_and_fails() {
    let Some(p) = sbekit_testdata::require("data/iex/go-iex/DEEP10.pcap.gz", "iex_cli_deep10")
    else {
        return;
    };
    let out = sbekit(&["iex", "stats", "--json", p.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a truncated capture exits with 1"
    );
    let s = json(&out);
    assert_eq!(s["messages"], 391_999);
    assert_eq!(s["by_type"]["T"], 83_343);
    assert_eq!(s["error"]["offset"], 22_195_748);
    assert_eq!(s["sessions"][0]["resets"], 11);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("sbekit: error: "), "{err}");
    assert!(err.contains("byte offset 22195748"), "{err}");
}

#[test]
fn errors_and_help() {
    // A file that cannot be opened is an I/O error (2); bad content is invalid input (1).
    let out = sbekit(&["iex", "stats", "/nonexistent/capture.pcap"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("sbekit: error: "));

    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.pcap");
    std::fs::write(&junk, b"this is not a capture at all").unwrap();
    let out = sbekit(&["iex", "stats", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a pcap or pcap-ng capture"));

    let out = sbekit(&[
        "iex",
        "synth",
        "--messages",
        "10",
        "--trade-share",
        "2",
        "-o",
        "x",
    ]);
    assert!(!out.status.success());

    for args in [
        &["iex", "stats", "--help"][..],
        &["iex", "synth", "--help"][..],
        &["iex", "--help"][..],
    ] {
        let out = sbekit(args);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Examples:"), "{args:?}: {text}");
    }
}

#[test]
fn keep_going_skips_a_corrupt_segment() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.pcapng");
    let f_s = f.to_str().unwrap();
    let out = sbekit(&[
        "iex",
        "synth",
        "--messages",
        "2000",
        "--no-heartbeats",
        "-o",
        f_s,
    ]);
    assert!(out.status.success());
    let mut bytes = std::fs::read(&f).unwrap();
    // Walk the pcap-ng blocks (SHB, IDB, then EPBs) to the 10th EPB and make its IEX-TP
    // payload length claim more bytes than the datagram has.
    let mut at = 0usize;
    for _ in 0..(2 + 9) {
        at += u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
    }
    assert_eq!(
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
        6,
        "an EPB"
    );
    let tp = at + 28 + 42;
    bytes[tp + 12..tp + 14].copy_from_slice(&0xffffu16.to_le_bytes());
    std::fs::write(&f, &bytes).unwrap();

    let strict = sbekit(&["iex", "stats", "--json", f_s]);
    assert_eq!(strict.status.code(), Some(1));
    let s = json(&strict);
    assert_eq!(s["error"]["offset"], tp as u64);
    assert_eq!(s["segments"], 9, "stops at the corrupt 10th segment");

    let lenient = sbekit(&["iex", "stats", "--json", "--keep-going", f_s]);
    assert!(lenient.status.success());
    let l = json(&lenient);
    assert_eq!(l["error"], Value::Null);
    assert_eq!(l["skipped_errors"], 1);
    let strict_msgs = s["messages"].as_u64().unwrap();
    let lenient_msgs = l["messages"].as_u64().unwrap();
    assert!(
        lenient_msgs > strict_msgs && lenient_msgs < 2000,
        "{lenient_msgs}"
    );
}
