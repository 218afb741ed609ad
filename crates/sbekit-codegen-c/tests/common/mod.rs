//! Helpers shared by the C tests: finding compilers (skipping loudly, or failing under
//! `CI=true`), generating packages, and running programs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The warnings every generated header must pass.
pub const STRICT: &[&str] = &[
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Wconversion",
    "-Werror",
];

/// `name` if it runs; otherwise skips loudly (`None`), or panics under `CI=true`.
pub fn compiler(name: &str, test: &str) -> Option<String> {
    let ok = Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return Some(name.to_string());
    }
    if sbekit_testdata::is_ci() {
        panic!("{test}: {name} is missing (CI=true makes this a failure)");
    }
    eprintln!("\n*** SKIPPED {test}: {name} not found (apt-get install gcc clang). ***\n");
    None
}

/// Generates the package of `schema` into `root/<pkg>` with prefix `pkg`.
pub fn generate(root: &Path, pkg: &str, schema: &Path) -> PathBuf {
    let layout =
        sbekit_schema::load_layout(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let opts = sbekit_codegen_c::Options {
        package: Some(pkg.to_string()),
    };
    let dir = root.join(pkg);
    sbekit_codegen_c::write_package(&layout, &dir, &opts).expect("write package");
    dir
}

/// Runs `cmd`, panicking with its stderr on failure (or on any diagnostic).
pub fn run_ok(cmd: &mut Command, what: &str) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.trim().is_empty(),
        "{what} failed ({}):\n{}",
        out.status,
        err.chars().take(8000).collect::<String>()
    );
    out.stdout
}

/// Runs `prog args` with `input` on stdin; its stdout (panics on failure, sanitizer reports
/// included).
pub fn pipe(prog: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new(prog)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = t.join();
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}):\n{}",
        prog.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("runtime error"),
        "undefined behaviour reported:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// u32le frames of `msgs`.
pub fn frames(msgs: &[Vec<u8>]) -> Vec<u8> {
    let mut v = Vec::new();
    for m in msgs {
        v.extend_from_slice(&(m.len() as u32).to_le_bytes());
        v.extend_from_slice(m);
    }
    v
}

/// Splits u32le frames.
pub fn unframe(b: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 4 <= b.len() {
        let n = u32::from_le_bytes([b[p], b[p + 1], b[p + 2], b[p + 3]]) as usize;
        out.push(b[p + 4..p + 4 + n].to_vec());
        p += 4 + n;
    }
    out
}
