//! Golden files: the generator's output for our own schemas, checked in so that every change
//! to the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen --test
//! golden` rewrites them. The output is laid out by prettyplease (no rustfmt involved), so the
//! files read like code and compare equal on every machine.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, golden: &str) {
    let ir = sbekit_schema::load_ir(&root().join(schema)).expect("schema compiles");
    let text = sbekit_codegen::generate(&ir, &Default::default()).expect("generates");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    sbekit_testdata::check_golden(&path, &text, schema);
}

#[test]
fn market_data_golden() {
    check("schemas/market-data.xml", "market_data.rs");
}

/// Big-endian, versions, nested groups, var data, constants, optional values.
#[test]
fn orders_be_golden() {
    check(
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "orders_be.rs",
    );
}
