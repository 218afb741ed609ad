//! The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
//! when `../shared` is there) generate C++ that g++ and clang++ accept under
//! `-std=c++17 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -fno-exceptions
//! -fno-rtti`. The translation units are checked with `-fsyntax-only`, many per compiler
//! process, two processes at a time.
//!
//! Each of the repository's schemas has every header included alone in a unit of its own (each
//! header includes what it needs). The generator's `#include` lines do not depend on the schema,
//! so each reference schema gets one unit, of `conformance.hpp`, which includes every other
//! header: six units per schema cost five times the time (CI ran 7.5 minutes here), mostly
//! re-parsing the standard library, for no check the repository's schemas do not already make.

mod common;

use common::*;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn accepted() -> Vec<PathBuf> {
    sbekit_testdata::strict_build_schemas("all_reference_accepted_schemas_compile")
}

/// One compiler at a time (each runs two processes; CI has two cores).
static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn compile_all(cxx: &str) {
    let schemas = accepted();
    let _one = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let root = tempfile::tempdir().expect("tempdir");
    let mut incs = Vec::new();
    let mut tus = Vec::new();
    let tu_dir = root.path().join("tu");
    std::fs::create_dir_all(&tu_dir).expect("tu dir");
    // The runtime once; then each schema's headers, each alone in a translation unit.
    let first = tu_dir.join("runtime.cpp");
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let dir = generate(root.path(), &pkg, s);
        incs.push(format!("-I{}", dir.join("include").display()));
        if i == 0 {
            std::fs::write(&first, format!("#include \"{pkg}/sbekit_runtime.hpp\"\n")).expect("tu");
            tus.push(first.clone());
        }
        let alone: &[&str] = if i < sbekit_testdata::HOSTILE_SCHEMAS.len() {
            &[
                "types",
                "messages",
                "json",
                pkg.as_str(),
                "owned",
                "conformance",
            ]
        } else {
            &["conformance"]
        };
        for h in alone {
            let tu = tu_dir.join(format!("{pkg}_{h}.cpp"));
            std::fs::write(&tu, format!("#include \"{pkg}/{h}.hpp\"\n")).expect("tu");
            tus.push(tu);
        }
    }
    let half = tus.len().div_ceil(2);
    let kids: Vec<_> = tus
        .chunks(half)
        .map(|part| {
            Command::new(cxx)
                .args(STRICT)
                .arg("-fsyntax-only")
                .args(&incs)
                .args(part)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn compiler")
        })
        .collect();
    for k in kids {
        let out = k.wait_with_output().expect("compiler");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.trim().is_empty(),
            "{cxx}: generated headers do not compile cleanly:\n{}",
            err.chars().take(6000).collect::<String>()
        );
    }
    eprintln!(
        "{cxx}: {} translation units (the runtime; {} schemas, each header alone for the repository's) compile with warnings as errors",
        tus.len(),
        schemas.len()
    );
}

#[test]
fn all_reference_accepted_schemas_compile_with_gxx() {
    if let Some(c) = compiler("g++", "all_reference_accepted_schemas_compile_with_gxx") {
        compile_all(&c);
    }
}

#[test]
fn all_reference_accepted_schemas_compile_with_clang() {
    if let Some(c) = compiler(
        "clang++",
        "all_reference_accepted_schemas_compile_with_clang",
    ) {
        compile_all(&c);
    }
}
