//! The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
//! when `../shared` is there) generate C that gcc and clang accept under
//! `-std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror`: one compiler process per compiler
//! checks (`-fsyntax-only`) one translation unit that includes every package's headers (the
//! prefixes keep 80 packages apart in one unit) and, for each package, each header alone in a
//! unit of its own (each header includes what it needs).

mod common;

use common::*;
use sbekit_testdata::run_ok;
use std::path::PathBuf;
use std::process::Command;

fn accepted() -> Vec<PathBuf> {
    sbekit_testdata::strict_build_schemas("all_reference_accepted_schemas_compile")
}

/// One compiler at a time (the machine is shared).
static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn compile_all(cc: &str) {
    let schemas = accepted();
    let _one = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let root = tempfile::tempdir().expect("tempdir");
    let tu_dir = root.path().join("tu");
    std::fs::create_dir_all(&tu_dir).expect("tu dir");
    let mut incs = Vec::new();
    let mut tus = Vec::new();
    let mut all = String::new();
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let dir = generate(root.path(), &pkg, s);
        incs.push(format!("-I{}", dir.join("include").display()));
        all.push_str(&format!("#include \"{pkg}/conformance.h\"\n"));
        let alone = if i == 0 {
            vec![
                "sbekit_rt",
                "types",
                "messages",
                "json",
                "owned",
                &pkg,
                "conformance",
            ]
        } else {
            vec!["types", "messages", "json", "owned", &pkg, "conformance"]
        };
        for h in alone {
            let tu = tu_dir.join(format!("{pkg}_{h}.c"));
            std::fs::write(&tu, format!("#include \"{pkg}/{h}.h\"\n")).expect("tu");
            tus.push(tu);
        }
    }
    let all_tu = tu_dir.join("all.c");
    std::fs::write(&all_tu, all).expect("tu");
    tus.push(all_tu);
    run_ok(
        Command::new(cc)
            .args(STRICT)
            .arg("-fsyntax-only")
            .args(&incs)
            .args(&tus),
        &format!("{cc}: the generated headers"),
    );
    eprintln!(
        "{cc}: {} translation units ({} schemas x 6 headers alone, the runtime, all packages in one) compile with warnings as errors",
        tus.len(),
        schemas.len()
    );
}

#[test]
fn all_reference_accepted_schemas_compile_with_gcc() {
    if let Some(c) = compiler("gcc", "all_reference_accepted_schemas_compile_with_gcc") {
        compile_all(&c);
    }
}

#[test]
fn all_reference_accepted_schemas_compile_with_clang() {
    if let Some(c) = compiler("clang", "all_reference_accepted_schemas_compile_with_clang") {
        compile_all(&c);
    }
}
