//! Helpers shared by the C# tests: Mono's `mcs` and `mono` (skipping loudly without them, or
//! failing under `CI=true`), generating projects, one `mcs` run, and running programs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// True when `mcs` and `mono` run; otherwise skips `test`.
pub fn toolchain(test: &str) -> bool {
    for (tool, arg) in [("mcs", "--version"), ("mono", "--version")] {
        let ok = Command::new(tool)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            sbekit_testdata::skip(
                test,
                format_args!("{tool} not found (apt-get install mono-mcs mono-runtime)"),
            );
            return false;
        }
    }
    true
}

/// Generates the project of `schema` into `root/<ns>` with namespace `ns`.
pub fn generate(root: &Path, ns: &str, schema: &Path) -> PathBuf {
    let layout =
        sbekit_schema::load_layout(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let opts = sbekit_codegen_csharp::Options {
        namespace: Some(ns.to_string()),
    };
    let dir = root.join(ns);
    sbekit_codegen_csharp::write_package(&layout, &dir, &opts).expect("write project");
    dir
}

/// Every `.cs` file of the library under a generated project (`src/`).
pub fn cs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("src"))
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cs"))
        .collect();
    v.sort();
    out.extend(v);
}

/// Compiles `srcs` in one `mcs` run (warnings as errors; a library with its XML documentation)
/// into `out` (`.exe` or `.dll` by `target`); panics with the diagnostics on any warning or
/// error.
pub fn mcs(srcs: &[PathBuf], out: &Path, target: &str) {
    mcs_with_refs(srcs, &[], out, target)
}

/// [`mcs`] with the assemblies `refs` referenced.
pub fn mcs_with_refs(srcs: &[PathBuf], refs: &[PathBuf], out: &Path, target: &str) {
    let list = out.with_extension("rsp");
    let text: Vec<String> = srcs
        .iter()
        .map(|p| format!("\"{}\"", p.display()))
        .collect();
    std::fs::write(&list, text.join("\n")).expect("response file");
    let mut cmd = Command::new("mcs");
    cmd.args(sbekit_codegen_csharp::MCS_FLAGS)
        .args(["-nologo", &format!("-target:{target}")])
        .arg(format!("-out:{}", out.display()));
    for r in refs {
        cmd.arg(format!("-r:{}", r.display()));
    }
    if target == "library" {
        // With documentation output, as the .csproj builds a library: a public member without
        // an XML comment (CS1591) is then an error too. (The tests' own drivers have none.)
        cmd.arg(format!("-doc:{}", out.with_extension("xml").display()));
    }
    let res = cmd
        .arg(format!("@{}", list.display()))
        .output()
        .expect("run mcs");
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&res.stdout),
        String::from_utf8_lossy(&res.stderr)
    );
    assert!(
        res.status.success() && !err.contains("warning"),
        "mcs failed:\n{}",
        err.chars().take(8000).collect::<String>()
    );
}

/// Runs `mono exe args` with `input` on stdin; its stdout (panics on failure).
pub fn mono(exe: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new("mono")
        .arg(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mono");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = t.join();
    assert!(
        out.status.success(),
        "mono {} {args:?} failed ({}):\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
