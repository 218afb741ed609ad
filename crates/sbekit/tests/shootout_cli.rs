//! End-to-end tests of `sbekit shootout` through the built binary: every format on a small
//! synthetic day and on the go-iex DEEP10 sample, the correctness gate, the table, the JSON and
//! the files written to `--out`. They exercise the code; they do not judge its speed.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");

fn sbekit(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run sbekit")
}

fn ids() -> Vec<&'static str> {
    sbekit_shootout::codec::Format::ALL
        .iter()
        .map(|f| f.id())
        .collect()
}

/// Checks a JSON report: every format ran, the gate passed, counts agree.
fn check_report(v: &Value) {
    assert_eq!(v["gate"], "passed");
    let formats = v["formats"].as_array().expect("formats");
    let got: Vec<&str> = formats.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(got, ids());
    let st = &v["input_stats"];
    let batches = st["batches"].as_u64().unwrap();
    let entries = st["trades"].as_u64().unwrap() + st["quotes"].as_u64().unwrap();
    assert!(batches > 0 && entries >= batches);
    for f in formats {
        assert_eq!(f["messages"].as_u64(), Some(batches), "{}", f["id"]);
        assert_eq!(f["entries"].as_u64(), Some(entries), "{}", f["id"]);
        assert!(f["bytes"].as_u64().unwrap() > 0);
        for phase in ["serialize", "deserialize"] {
            let p = &f[phase];
            assert!(p["p50_ns"].as_u64().unwrap() <= p["p99_ns"].as_u64().unwrap());
            assert!(p["p99_ns"].as_u64().unwrap() <= p["max_ns"].as_u64().unwrap());
            assert!(p["pass_s"].as_f64().unwrap() > 0.0, "{} {phase}", f["id"]);
        }
    }
    // Ratios are against the first format.
    assert_eq!(formats[0]["ratios"]["bytes"].as_f64(), Some(1.0));
}

#[test]
fn synthetic_day_table_json_and_chart() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let o = sbekit(&[
        "shootout",
        "--messages",
        "20000",
        "--runs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The table names every format in both directions.
    assert!(stdout.contains("Correctness gate: passed"), "{stdout}");
    assert!(stdout.contains("Serialize") && stdout.contains("Deserialize"));
    assert!(stdout.contains("sbekit SBE (market-data)"));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("shootout.json")).unwrap()).unwrap();
    check_report(&json);
    assert_eq!(json["runs"], 2);
    assert_eq!(json["input_stats"]["iex_messages"], 20000);
    let svg = std::fs::read_to_string(out.join("shootout.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("deserialize"));
    assert_eq!(
        std::fs::read_to_string(out.join("shootout.txt")).unwrap(),
        stdout
    );
}

#[test]
fn format_selection_json_on_stdout() {
    let o = sbekit(&[
        "shootout",
        "--messages",
        "5000",
        "--runs",
        "1",
        "--no-warmup",
        "--formats",
        "sbe-2019,sbe",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    let got: Vec<&str> = v["formats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(got, ["sbe-2019", "sbe"]);
    assert_eq!(v["baseline"], "sbekit SBE (2019 schema)");
}

#[test]
fn bad_arguments_are_reported() {
    let o = sbekit(&["shootout", "--formats", "xml"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown format"));
    let o = sbekit(&["shootout", "--runs", "0", "--messages", "100"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--runs"));
    let o = sbekit(&["shootout", "--file", "/nonexistent/capture.pcap"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/capture.pcap"));
}

#[test]
fn deep10_every_format_passes_the_gate() {
    let Some(path) = sbekit_testdata::require(
        "data/iex/go-iex/DEEP10.pcap.gz",
        "deep10_every_format_passes_the_gate",
    ) else {
        return;
    };
    let o = sbekit(&[
        "shootout",
        "--file",
        path.to_str().unwrap(),
        "--runs",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    check_report(&v);
    assert!(v["input"]
        .as_str()
        .unwrap()
        .ends_with(Path::new("DEEP10.pcap.gz").to_str().unwrap()));
}
