//! The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
//! when `../shared` is there) generate Go that builds, passes `go vet` and is
//! `gofmt`-clean: one module holding a package per schema, one `go build ./...` and one
//! `go vet ./...` for all of them.

mod common;

use common::*;
use sbekit_testdata::run_ok;

#[test]
fn all_reference_accepted_schemas_build_vet_and_are_gofmt_clean() {
    let test = "all_reference_accepted_schemas_build_vet_and_are_gofmt_clean";
    let Some(go) = go(test) else { return };
    let schemas = sbekit_testdata::strict_build_schemas(test);
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), sbekit_codegen_go::go_mod("sbeall")).expect("go.mod");
    for (i, s) in schemas.iter().enumerate() {
        package(root, "sbeall", &format!("s{i:02}"), s);
    }
    run_ok(go_cmd(&go, root).args(["build", "./..."]), "go build ./...");
    run_ok(go_cmd(&go, root).args(["vet", "./..."]), "go vet ./...");
    let gofmt = std::path::Path::new(&go)
        .parent()
        .map(|p| p.join("gofmt"))
        .filter(|p| p.exists())
        .map_or_else(|| "gofmt".to_string(), |p| p.display().to_string());
    let unformatted = run_ok(
        std::process::Command::new(&gofmt).arg("-l").arg(root),
        "gofmt -l",
    );
    assert!(
        unformatted.is_empty(),
        "gofmt -l lists files:\n{}",
        String::from_utf8_lossy(&unformatted)
    );
}
