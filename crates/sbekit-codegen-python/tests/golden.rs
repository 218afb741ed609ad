//! Golden files of the typed Python modules for the project's own schemas, and a check that
//! every module for them (hostile names included) is Python the interpreter accepts.
//! `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-python --test golden` rewrites the goldens.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn module(schema: &str) -> (String, String) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let plan = sbekit_plan::Plan::new(&layout).expect("plan");
    (
        sbekit_codegen_python::module_name(&plan),
        sbekit_codegen_python::generate(&plan),
    )
}

#[test]
fn market_data_matches_golden() {
    let (_, text) = module("schemas/market-data.xml");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/market_data.py");
    sbekit_testdata::check_golden(&path, &text, "schemas/market-data.xml");
}

#[test]
fn versioned_schema_matches_golden() {
    let schema = "crates/sbekit-codegen-tests/schemas/versioned-v1.xml";
    let (_, text) = module(schema);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/versioned_v1.py");
    sbekit_testdata::check_golden(&path, &text, schema);
}

/// Every own schema's module compiles in Python (`compile()` of its text), hostile and
/// keyword names included; names stay unique.
#[test]
fn modules_compile_in_python() {
    if Command::new("python3").arg("--version").output().is_err() {
        sbekit_testdata::skip("modules_compile_in_python", "python3 is not on PATH");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let schemas = [
        "schemas/market-data.xml",
        "schemas/shootout-2019.xml",
        "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "crates/sbekit-codegen-tests/schemas/hostile-names.xml",
        "crates/sbekit-codegen-tests/schemas/keywords.xml",
        "crates/sbekit-codegen-ts/tests/schemas/kinds.xml",
        "crates/sbekit-codegen-ts/tests/schemas/hostile.xml",
    ];
    for schema in schemas {
        let (name, text) = module(schema);
        let file = dir.path().join(format!("{name}.py"));
        std::fs::write(&file, &text).expect("write");
        let out = Command::new("python3")
            .arg("-c")
            .arg("import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')")
            .arg(&file)
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{schema}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // One definition per name: a repeated class name would shadow another type.
        let mut seen = std::collections::HashSet::new();
        for line in text.lines() {
            if let Some((lhs, _)) = line.split_once(" = _t.") {
                assert!(
                    seen.insert(lhs.to_string()),
                    "{schema}: {lhs} defined twice"
                );
            }
        }
    }
}
