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
