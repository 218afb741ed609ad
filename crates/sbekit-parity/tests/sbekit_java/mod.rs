//! sbekit's generated Java codecs (`sbekit-codegen-java`), one module per schema (package
//! `sbj<i>`), compiled in one `javac` run against the reference jar's Agrona.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

/// Generates and compiles the modules; the class directory.
pub fn build(work: &Path, schemas: &[PathBuf]) -> PathBuf {
    let root = work.join("sbekit-java");
    let mut srcs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let layout = sbekit_schema::load_layout(s).unwrap();
        let dir = root.join(format!("sbj{i}"));
        let opts = sbekit_codegen_java::Options {
            package: Some(format!("sbj{i}")),
        };
        sbekit_codegen_java::write_package(&layout, &dir, &opts).unwrap();
        sources(&dir, &mut srcs);
    }
    let classes = root.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let list = root.join("sources.txt");
    let text: Vec<String> = srcs
        .iter()
        .map(|p| format!("\"{}\"", p.display()))
        .collect();
    std::fs::write(&list, text.join("\n")).unwrap();
    let out = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-nowarn", "-cp"])
        .arg(sbekit_parity::java::jar_path())
        .arg("-d")
        .arg(&classes)
        .arg(format!("@{}", list.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "javac on sbekit's generated Java failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    classes
}

/// Runs module `i`'s conformance program in `mode` over the u32le-framed file `input`.
pub fn run(classes: &Path, i: usize, mode: &str, input: &Path) -> Vec<u8> {
    let mut cp = classes.as_os_str().to_owned();
    cp.push(":");
    cp.push(sbekit_parity::java::jar_path());
    let out = Command::new("java")
        .args([
            "--add-opens",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp",
        ])
        .arg(cp)
        .arg(format!("sbj{i}.SbeConformance"))
        .arg(mode)
        .stdin(Stdio::from(std::fs::File::open(input).unwrap()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sbekit's generated Java ({mode}) failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
