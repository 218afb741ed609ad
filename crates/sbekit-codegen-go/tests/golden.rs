//! Golden files: the generated Go for our own schemas, checked in so that every change to the
//! generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-go --test
//! golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let files = sbekit_codegen_go::generate_layout(&layout, &Default::default()).expect("plan");
    // The runtime's schema-independent part is the crate's own file, the same for every schema.
    let mut text = String::new();
    for f in &files {
        text.push_str(&format!("==> {} <==\n", f.path.display()));
        if f.path.ends_with("runtime.go") {
            let cut = f.text.find("// MaxEmptyEntries").unwrap_or(f.text.len());
            text.push_str(&f.text[..cut]);
        } else {
            text.push_str(&f.text);
        }
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

/// Identifiers stay unique on a type when schema names collide with the methods the generator
/// adds, and Go keywords never reach the output.
#[test]
fn names_do_not_collide() {
    let layout = sbekit_schema::load_layout(
        &root().join("crates/sbekit-codegen-tests/schemas/keywords.xml"),
    )
    .expect("schema compiles");
    let files = sbekit_codegen_go::generate_layout(&layout, &Default::default()).expect("plan");
    for f in files
        .iter()
        .filter(|f| f.path.extension().is_some_and(|e| e == "go"))
    {
        let mut seen = std::collections::HashSet::new();
        for l in f.text.lines().filter(|l| l.starts_with("func (")) {
            let recv_ty = l
                .split(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .last()
                .unwrap_or("")
                .trim_start_matches('*');
            let name = l
                .split(')')
                .nth(1)
                .unwrap_or("")
                .trim()
                .split('(')
                .next()
                .unwrap_or("");
            assert!(
                seen.insert((recv_ty.to_string(), name.to_string())),
                "{}: {recv_ty}.{name} declared twice",
                f.path.display()
            );
        }
    }
}
