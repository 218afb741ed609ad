//! `sbekit check` and `sbekit inspect` through the real binary.

use std::process::Command;

fn sbekit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
}

fn repo_file(rel: &str) -> String {
    format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_accepts_the_project_schemas() {
    let out = sbekit()
        .arg("check")
        .arg(repo_file("schemas/market-data.xml"))
        .arg(repo_file("schemas/shootout-2019.xml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.matches(": ok (1 message, 0 warnings)").count(),
        2,
        "{stdout}"
    );
}

#[test]
fn check_reports_errors_with_location_and_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.xml");
    std::fs::write(
        &bad,
        "<messageSchema package=\"p\" id=\"1\">\n  <types/>\n  <message name=\"M\" id=\"1\">\n    <field name=\"f\" id=\"1\" type=\"Missing\"/>\n  </message>\n</messageSchema>\n",
    )
    .unwrap();
    let out = sbekit().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("bad.xml:4:5: error[unknown-type]: field 'f' has unknown type 'Missing'"),
        "{stderr}"
    );

    let out = sbekit()
        .args(["check", "--json"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report[0]["ok"], false);
    let rules: Vec<&str> = report[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"unknown-type") && rules.contains(&"message-header"),
        "{rules:?}"
    );
}

#[test]
fn inspect_shows_offsets_and_block_lengths() {
    let out = sbekit()
        .args(["inspect", "--json"])
        .arg(repo_file("schemas/market-data.xml"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let o: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &o["messages"][0];
    assert_eq!(m["name"], "MarketUpdates");
    assert_eq!(m["blockLength"], 8);
    let updates = &m["groups"][1];
    assert_eq!(updates["name"], "levelUpdates");
    assert_eq!(updates["blockLength"], 30);
    assert_eq!(updates["offset"], -1);
    let side = &updates["fields"][5];
    assert_eq!(
        (side["name"].as_str(), side["offset"].as_i64()),
        (Some("side"), Some(29))
    );

    let text = sbekit()
        .arg("inspect")
        .arg(repo_file("schemas/market-data.xml"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("message MarketUpdates id=1 blockLength=8"),
        "{text}"
    );
    assert!(
        text.contains("group levelUpdates id=8 blockLength=30"),
        "{text}"
    );
}

#[test]
fn inspect_fails_cleanly_on_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.sbeir");
    std::fs::write(&f, [0xffu8; 40]).unwrap();
    let out = sbekit().arg("inspect").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("sbekit: error:"));
}
