//! Golden files: the generated headers for our own schemas, checked in so that every change to
//! the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-cpp --test
//! golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let files = sbekit_codegen_cpp::generate_layout(&layout, &Default::default()).expect("plan");
    // The runtime is the same text for every schema (it is the crate's own file).
    let mut text = String::new();
    for f in files
        .iter()
        .filter(|f| !f.path.ends_with("sbekit_runtime.hpp"))
    {
        text.push_str(&format!("==> {} <==\n", f.path.display()));
        text.push_str(&f.text);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    sbekit_testdata::check_golden(&path, &text, schema);
}

#[test]
fn orders_be_matches_golden() {
    check(
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "orders_be.txt",
    );
}

#[test]
fn market_data_matches_golden() {
    check("schemas/market-data.xml", "market_data.txt");
}

#[test]
fn output_is_deterministic_and_complete() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let a = sbekit_codegen_cpp::generate_layout(&layout, &Default::default()).expect("plan");
    let b = sbekit_codegen_cpp::generate_layout(&layout, &Default::default()).expect("plan");
    assert_eq!(a, b);
    let paths: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    let dir = sbekit_codegen_cpp::package_dir(&layout.package);
    for h in sbekit_codegen_cpp::HEADERS {
        let h = h.replace("PACKAGE", &dir);
        assert!(
            paths.contains(&format!("include/{dir}/{h}")),
            "{h} missing from {paths:?}"
        );
    }
    for f in [
        "CMakeLists.txt",
        "README.md",
        "examples/sbe_conformance.cpp",
    ] {
        assert!(paths.contains(&f.to_string()), "{f} missing");
    }
    let cmake = &a
        .iter()
        .find(|f| f.path.ends_with("CMakeLists.txt"))
        .expect("cmake")
        .text;
    assert!(cmake.contains(&format!("add_library({dir}::sbe ALIAS {dir}_sbe)")));
    assert!(cmake.contains("INTERFACE"));
}

/// `cmake/SbekitGenerate.cmake` names every header the CLI writes as its command's output, so
/// that a build which includes one waits for (and re-runs) the generation.
#[test]
fn cmake_helper_lists_every_header() {
    let helper =
        std::fs::read_to_string(root().join("cmake/SbekitGenerate.cmake")).expect("the helper");
    for h in sbekit_codegen_cpp::HEADERS {
        let h = h.replace("PACKAGE", "${pkg}");
        assert!(
            helper.contains(&format!("\"${{inc}}/{h}\"")),
            "cmake/SbekitGenerate.cmake does not list {h}"
        );
    }
}
