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
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if want != text {
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
        panic!(
            "generated code for {schema} differs from {} at line {}:\n  golden:    {}\n  generated: {}\n(UPDATE_GOLDEN=1 rewrites the golden file)",
            path.display(),
            line + 1,
            want.lines().nth(line).unwrap_or("<end>"),
            text.lines().nth(line).unwrap_or("<end>"),
        );
    }
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
