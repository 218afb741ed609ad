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
    sbekit_testdata::skip(
        test,
        format_args!("{name} not found (apt-get install gcc clang)"),
    );
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

/// The reference car schemas as packages `ref0`, `ref1`, ... (`sbekit_testdata::CAR_SCHEMAS`
/// order), or `None` (skipped loudly) when `../shared` lacks any of them.
pub fn car_schemas(test: &str) -> Option<Vec<(String, PathBuf)>> {
    let refs = sbekit_testdata::CAR_SCHEMAS;
    if !refs
        .iter()
        .all(|r| sbekit_testdata::require_reference(r, test).is_some())
    {
        return None;
    }
    Some(
        refs.iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    format!("ref{i}"),
                    sbekit_testdata::reference_sbe_dir().join(r),
                )
            })
            .collect(),
    )
}

/// Builds `root/prog` under `-fsanitize=address,undefined` (any report aborts) and the strict
/// warnings: the packages of `schemas` (prefix, path) generated into `root`, and a `main.c` that
/// includes each one's `conformance.h` (so everything), then `code`. `None` (skipped loudly)
/// without gcc.
pub fn sanitized_program(
    root: &Path,
    test: &str,
    schemas: &[(String, PathBuf)],
    code: &str,
) -> Option<PathBuf> {
    let cc = compiler("gcc", test)?;
    let mut incs = Vec::new();
    let mut main = String::from("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
    for (pkg, path) in schemas {
        let dir = generate(root, pkg, path);
        incs.push(format!("-I{}", dir.join("include").display()));
        main.push_str(&format!("#include \"{pkg}/conformance.h\"\n"));
    }
    main.push_str(code);
    let src = root.join("main.c");
    std::fs::write(&src, main).expect("main");
    let exe = root.join("prog");
    sbekit_testdata::run_ok(
        Command::new(&cc)
            .args(STRICT)
            .args([
                "-O1",
                "-g",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
            ])
            .args(&incs)
            .arg(&src)
            .arg("-o")
            .arg(&exe),
        "compile the sanitized program",
    );
    Some(exe)
}
