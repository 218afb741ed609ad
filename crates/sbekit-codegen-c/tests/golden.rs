//! Golden files: the generated headers for our own schemas, checked in so that every change to
//! the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-c --test
//! golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let files = sbekit_codegen_c::generate_layout(&layout, &Default::default()).expect("plan");
    // The runtime is the same text for every schema (it is the crate's own file).
    let mut text = String::new();
    for f in files.iter().filter(|f| !f.path.ends_with("sbekit_rt.h")) {
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
    let a = sbekit_codegen_c::generate_layout(&layout, &Default::default()).expect("plan");
    let b = sbekit_codegen_c::generate_layout(&layout, &Default::default()).expect("plan");
    assert_eq!(a, b);
    let paths: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    let dir = sbekit_codegen_c::package_prefix(&layout.package);
    for h in sbekit_codegen_c::HEADERS {
        let h = h.replace("PACKAGE", &dir);
        assert!(
            paths.contains(&format!("include/{dir}/{h}")),
            "{h} missing from {paths:?}"
        );
    }
    for f in ["README.md", "examples/sbe_conformance.c"] {
        assert!(paths.contains(&f.to_string()), "{f} missing");
    }
}

#[test]
fn prefixes_are_c_identifiers_clear_of_keywords_and_the_runtime() {
    use sbekit_codegen_c::package_prefix;
    assert_eq!(
        package_prefix("uk.co.real_logic.sbe.benchmarks"),
        "uk_co_real_logic_sbe_benchmarks"
    );
    assert_eq!(package_prefix("b3.umdf.mbo.sbe"), "b3_umdf_mbo_sbe");
    assert_eq!(package_prefix("int"), "int_sbe");
    assert_eq!(package_prefix("sbekit"), "sbekit_sbe");
    assert_eq!(package_prefix("sbekit.x"), "sbekit_x_sbe");
    assert_eq!(package_prefix("9lives"), "sbe_9lives");
    assert_eq!(package_prefix("..."), "schema");
}
