//! Helpers shared by the Java tests: the JDK and Agrona (skipping loudly without them, or
//! failing under `CI=true`), generating modules, one `javac` batch, and running classes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The JVM option Agrona 2 needs.
pub const JVM_ARGS: [&str; 2] = ["--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"];

/// The Agrona jar when `javac`, `java` and the jar are all there; otherwise skips.
pub fn toolchain(test: &str) -> Option<PathBuf> {
    for tool in ["javac", "java"] {
        let ok = Command::new(tool)
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            sbekit_testdata::skip(test, format_args!("{tool} not found (install a JDK 17+)"));
            return None;
        }
    }
    match sbekit_codegen_java::agrona_jar() {
        Some(j) => Some(j),
        None => {
            sbekit_testdata::skip(
                test,
                format_args!(
                    "Agrona {v} is not in ~/.m2 (mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact=org.agrona:agrona:{v})",
                    v = sbekit_codegen_java::AGRONA_VERSION
                ),
            );
            None
        }
    }
}

/// Generates the module of `schema` into `root/<pkg>` with Java package `pkg`.
pub fn generate(root: &Path, pkg: &str, schema: &Path) -> PathBuf {
    let layout =
        sbekit_schema::load_layout(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let opts = sbekit_codegen_java::Options {
        package: Some(pkg.to_string()),
    };
    let dir = root.join(pkg);
    sbekit_codegen_java::write_package(&layout, &dir, &opts).expect("write module");
    dir
}

/// Every `.java` file under `dir`.
pub fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            java_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

/// Compiles `srcs` in one `javac -Xlint:all -Werror --release 17` run into `classes`; panics
/// with the diagnostics on any warning or error.
pub fn javac(jar: &Path, srcs: &[PathBuf], classes: &Path) {
    std::fs::create_dir_all(classes).expect("classes dir");
    let list = classes.with_extension("sources");
    let text: Vec<String> = srcs
        .iter()
        .map(|p| format!("\"{}\"", p.display()))
        .collect();
    std::fs::write(&list, text.join("\n")).expect("sources");
    let out = Command::new("javac")
        .args([
            "-Xlint:all",
            "-Werror",
            "--release",
            "17",
            "-encoding",
            "UTF-8",
            "-cp",
        ])
        .arg(jar)
        .arg("-d")
        .arg(classes)
        .arg(format!("@{}", list.display()))
        .output()
        .expect("run javac");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.trim().is_empty(),
        "javac -Xlint:all -Werror failed:\n{}",
        err.chars().take(8000).collect::<String>()
    );
}

/// Runs `class args` with `input` on stdin; its stdout (panics on failure).
pub fn java(jar: &Path, classes: &Path, class: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut cp = classes.as_os_str().to_owned();
    cp.push(":");
    cp.push(jar);
    let mut child = Command::new("java")
        .args(JVM_ARGS)
        .arg("-cp")
        .arg(cp)
        .arg(class)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn java");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = t.join();
    assert!(
        out.status.success(),
        "java {class} {args:?} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
