//! Helpers shared by the Go tests: finding `go` (skipping loudly, or failing under `CI=true`),
//! the 80 reference-accepted schemas, generating modules and running commands.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};

/// `go` if it runs; otherwise skips loudly (`None`), or panics under `CI=true`.
pub fn go(test: &str) -> Option<String> {
    let go = std::env::var("SBEKIT_GO").unwrap_or_else(|_| "go".into());
    let ok = Command::new(&go)
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return Some(go);
    }
    sbekit_testdata::skip(test, "go not found (install Go 1.21+ or set SBEKIT_GO)");
    None
}

/// Writes package `pkg` of `schema` into `root/pkg` (module `module`).
pub fn package(root: &Path, module: &str, pkg: &str, schema: &Path) {
    let layout =
        sbekit_schema::load_layout(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let plan = sbekit_plan::Plan::new(&layout).expect("plan");
    let opts = sbekit_codegen_go::Options {
        package: Some(pkg.into()),
        module: Some(module.into()),
    };
    let files = sbekit_codegen_go::package_files(&plan, &opts);
    sbekit_codegen_go::write_files(&root.join(pkg), &files).expect("write package");
}

/// A `go` command in `dir`, offline (the generated code needs only the standard library).
pub fn go_cmd(go: &str, dir: &Path) -> Command {
    let mut c = Command::new(go);
    c.current_dir(dir)
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-mod=mod");
    c
}
