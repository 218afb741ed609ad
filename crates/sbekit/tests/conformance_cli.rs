//! `sbekit conformance`: the summary line and exit statuses (0 all agree, 2 for a missing
//! toolchain, named, or bad arguments).

use std::path::Path;
use std::process::Command;

fn sbekit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
}

fn schema() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-tests/schemas/orders-be.xml")
        .display()
        .to_string()
}

#[test]
fn missing_compiler_exits_2_and_names_it() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = sbekit()
        .args(["conformance", "--schema", &schema(), "--lang", "cpp"])
        .env("PATH", empty.path())
        .env_remove("CXX")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("C++17 compiler"), "{err}");
}

#[test]
fn missing_c_compiler_exits_2_and_names_it() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = sbekit()
        .args(["conformance", "--schema", &schema(), "--lang", "c"])
        .env("PATH", empty.path())
        .env_remove("CC")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("C11 compiler"), "{err}");
}

#[test]
fn missing_mono_exits_2_and_names_it() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = sbekit()
        .args(["conformance", "--schema", &schema(), "--lang", "csharp"])
        .env("PATH", empty.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mcs not found"), "{err}");
}

#[test]
fn missing_cargo_exits_2_and_names_it() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = sbekit()
        .args(["conformance", "--schema", &schema(), "--lang", "rust"])
        .env("PATH", empty.path())
        .env_remove("CARGO")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cargo not found"), "{err}");
}

#[test]
fn unknown_language_exits_2() {
    let out = sbekit()
        .args(["conformance", "--schema", &schema(), "--lang", "cobol"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn owned_and_and_owned_conflict() {
    let out = sbekit()
        .args([
            "conformance",
            "--schema",
            &schema(),
            "--lang",
            "cpp",
            "--owned",
            "--and-owned",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

/// One build, both views: the flyweights' line and files, then the owned values'.
#[test]
fn cpp_summary_line_and_kept_files() {
    let have = Command::new("c++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        sbekit_testdata::skip("cpp_summary_line_and_kept_files", "no c++ compiler");
        return;
    }
    let keep = tempfile::tempdir().expect("tempdir");
    let out = sbekit()
        .args([
            "conformance",
            "--schema",
            &schema(),
            "--lang",
            "cpp",
            "--and-owned",
            "--keep",
        ])
        .arg(keep.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (line, view, file) in [
        (lines[0], "cpp: ", "cpp"),
        (lines[1], "cpp owned: ", "cpp-owned"),
    ] {
        let head = format!("conformance {view}");
        assert!(line.starts_with(&head), "{text}");
        assert!(line.ends_with(", 0 disagreements"), "{text}");
        let jsonl =
            std::fs::read_to_string(keep.path().join(format!("{file}.jsonl"))).expect("jsonl kept");
        let n: usize = line
            .trim_start_matches(&head)
            .split(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .expect("count");
        assert_eq!(jsonl.lines().count(), n);
        assert!(keep.path().join(format!("{file}.reencoded.u32")).exists());
    }
}
