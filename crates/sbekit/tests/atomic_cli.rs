//! Every command that writes a file writes it atomically (`sbekit_fs`): a run whose write fails
//! leaves neither the file nor a temporary file behind, and an existing file keeps its old
//! content; a successful run leaves exactly the file.
//!
//! The write failure is real: the command runs under `ulimit -f 1` with SIGXFSZ ignored, so the
//! kernel refuses to grow any file past one block (`EFBIG`) while the command is mid-way.

#![cfg(unix)]

use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_testdata::{dir_entries, output_with_stdin};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/shootout-2019.xml")
}

/// Runs sbekit with `stdin`; with `limited`, any file it writes is capped at one block.
fn run(args: &[&str], stdin: &[u8], limited: bool) -> Output {
    let mut cmd = if limited {
        let mut c = Command::new("/bin/sh");
        c.arg("-c")
            .arg("trap '' XFSZ; ulimit -f 1 && exec \"$0\" \"$@\"")
            .arg(BIN);
        c
    } else {
        Command::new(BIN)
    };
    output_with_stdin(cmd.args(args), stdin)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args` (its output path is `out`) once with the file-size limit and once without:
/// the limited run fails with status 2 and leaves `dir` exactly as it was (a file that was
/// there keeps its bytes); the free run succeeds and adds only `out`.
fn check(dir: &Path, out: &Path, args: &[&str], stdin: &[u8]) {
    for old in [None, Some(&b"old bytes"[..])] {
        if let Some(b) = old {
            std::fs::write(out, b).unwrap();
        } else {
            let _ = std::fs::remove_file(out);
        }
        let before = dir_entries(dir);
        let r = run(args, stdin, true);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("sbekit: error:"), "{args:?}: {err}");
        assert_eq!(dir_entries(dir), before, "{args:?}: nothing left behind");
        match old {
            Some(b) => assert_eq!(std::fs::read(out).unwrap(), b, "{args:?}: old content kept"),
            None => assert!(!out.exists()),
        }
    }
    let _ = std::fs::remove_file(out);
    let before = dir_entries(dir);
    let r = run(args, stdin, false);
    assert!(
        r.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let mut want = before;
    want.push(out.file_name().unwrap().to_string_lossy().into_owned());
    want.sort();
    assert_eq!(
        dir_entries(dir),
        want,
        "{args:?}: only the output file is added"
    );
    assert!(
        std::fs::metadata(out).unwrap().len() > 512,
        "{args:?}: the limit would have bitten"
    );
}

#[test]
fn iex_synth_output_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("day.pcap");
    check(
        dir.path(),
        &out,
        &["iex", "synth", "--messages", "5000", "-o", s(&out)],
        b"",
    );
}

#[test]
fn encode_output_is_atomic() {
    let ir = sbekit_schema::load_ir(&schema()).unwrap();
    let mut rng = Rng::new(5);
    let mut stream = Vec::new();
    for _ in 0..200 {
        stream.extend(random_message(&ir, &ir.messages[0], &mut rng, &Options::default()).bytes);
    }
    let sch = schema();
    let json = run(&["decode", "-s", s(&sch)], &stream, false);
    assert!(json.status.success());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("again.sbe");
    check(
        dir.path(),
        &out,
        &["encode", "-s", s(&sch), "-o", s(&out)],
        &json.stdout,
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        stream,
        "decode | encode is exact"
    );
}

#[test]
fn ir_and_trades_outputs_are_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let sch = schema();
    let ir = dir.path().join("s.sbeir");
    check(dir.path(), &ir, &["ir", s(&sch), "-o", s(&ir)], b"");
    let csv = dir.path().join("t.csv");
    check(
        dir.path(),
        &csv,
        &["trades", "synth", "--rows", "2000", "-o", s(&csv)],
        b"",
    );
    let sbe = dir.path().join("t.sbe");
    check(
        dir.path(),
        &sbe,
        &["trades", "convert", s(&csv), "-o", s(&sbe)],
        b"",
    );
    let back = dir.path().join("back.csv");
    check(
        dir.path(),
        &back,
        &["trades", "export", "--csv", s(&sbe), "-o", s(&back)],
        b"",
    );
    let pq = dir.path().join("t.parquet");
    check(
        dir.path(),
        &pq,
        &["trades", "export", "--parquet", s(&sbe), "-o", s(&pq)],
        b"",
    );
}

/// Killed mid-write (SIGKILL: no code of ours runs), a command leaves nothing at its output
/// path and the old file intact; only its hidden temporary file (`.NAME.XXXXXX.tmp`) remains.
#[test]
fn a_killed_writer_leaves_the_target_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("day.pcap");
    std::fs::write(&out, b"old day").unwrap();
    let mut child = Command::new(BIN)
        .args(["iex", "synth", "--messages", "50000000", "-o", s(&out)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the temporary file holds some bytes, then kill.
    let started = std::time::Instant::now();
    let tmp = loop {
        let tmp = dir_entries(dir.path())
            .into_iter()
            .find(|n| n.starts_with(".day.pcap.") && n.ends_with(".tmp"));
        if let Some(t) = tmp.map(|n| dir.path().join(n)) {
            if std::fs::metadata(&t).is_ok_and(|m| m.len() > 1 << 20) {
                break t;
            }
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no temporary file grew"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"old day",
        "the old file is intact"
    );
    assert_eq!(
        dir_entries(dir.path()),
        [
            tmp.file_name().unwrap().to_string_lossy().into_owned(),
            "day.pcap".into()
        ],
        "only the hidden temporary file is left"
    );
}

/// Every file under `dir` (relative path, bytes); none if `dir` does not exist.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// `generate` writes many files: when one cannot be written, the run fails with status 2,
/// leaves no temporary file, and every file it did leave is whole (as a free run writes it).
#[test]
fn generate_output_is_atomic() {
    let sch = schema();
    for lang in ["rust", "ts"] {
        let dir = tempfile::tempdir().unwrap();
        let free = dir.path().join("free");
        let args = |out: &Path| -> Vec<String> {
            ["generate", "--lang", lang, s(&sch), "-o", s(out)]
                .map(String::from)
                .to_vec()
        };
        let a = args(&free);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = run(&a, b"", false);
        assert!(
            r.status.success(),
            "{lang}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let full = tree(&free);
        assert!(
            full.values().any(|b| b.len() > 512),
            "{lang}: the limit would bite"
        );
        let out = dir.path().join("out");
        let a = args(&out);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = run(&a, b"", true);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{lang}: {err}");
        assert!(err.contains("sbekit: error:"), "{lang}: {err}");
        let got = tree(&out);
        for (p, bytes) in &got {
            assert_eq!(
                full.get(p),
                Some(bytes),
                "{lang}: {p} is whole, not a temporary"
            );
        }
        assert!(got.len() < full.len(), "{lang}: the write failed part-way");
    }
}
