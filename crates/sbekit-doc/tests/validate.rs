//! Every page `sbekit doc` writes passes the Nu Html Checker (`vnu.jar`, from the `vnu-jar` npm
//! package in `tests/node`, run with Java) with no error: the repository's own schemas always,
//! and with `../shared` the 80 schemas the reference tool accepts, the six venue schemas in
//! `schemas/omi` and the Binance spot schemas' versions together. Skips loudly without Java or
//! the jar (`npm ci` in `tests/node`); a failure under CI.

use sbekit_doc::{site, write_files};
use std::path::{Path, PathBuf};
use std::process::Command;

const TEST: &str = "every_page_passes_the_html_checker";

fn vnu() -> Option<PathBuf> {
    let jar = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/node/node_modules/vnu-jar/build/dist/vnu.jar");
    if !jar.is_file() {
        sbekit_testdata::skip(
            TEST,
            format_args!(
                "{} not found (npm ci in crates/sbekit-doc/tests/node)",
                jar.display()
            ),
        );
        return None;
    }
    if Command::new("java").arg("-version").output().is_err() {
        sbekit_testdata::skip(TEST, "java not found");
        return None;
    }
    Some(jar)
}

/// The sites to check: each a list of schema files documented together.
fn sites() -> Vec<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let own = root.join("crates/sbekit-codegen-tests/schemas");
    let mut out: Vec<Vec<PathBuf>> = [
        "schemas/market-data.xml",
        "schemas/trades.xml",
        "schemas/shootout-2019.xml",
    ]
    .iter()
    .map(|s| vec![root.join(s)])
    .collect();
    for s in ["orders-be.xml", "keywords.xml", "hostile-names.xml"] {
        out.push(vec![own.join(s)]);
    }
    out.push(vec![
        own.join("versioned-v0.xml"),
        own.join("versioned-v1.xml"),
    ]);
    if let Some(reference) = sbekit_testdata::reference_accepted_schemas(TEST) {
        out.extend(reference.into_iter().map(|s| vec![s]));
    }
    if let Some(venue) = sbekit_testdata::venue_schemas(TEST) {
        out.extend(venue.into_iter().map(|s| vec![s]));
    }
    if let Some(binance) = sbekit_testdata::require("schemas/binance-spot", TEST) {
        // The `spot_sbe` package's versions (the directory also holds other schemas).
        let mut spot: Vec<PathBuf> = std::fs::read_dir(&binance)
            .expect("schemas/binance-spot")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("spot_"))
            })
            .collect();
        spot.sort();
        out.push(spot);
    }
    out
}

#[test]
fn every_page_passes_the_html_checker() {
    let Some(jar) = vnu() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut pages = Vec::new();
    for (i, schemas) in sites().iter().enumerate() {
        let loaded: Vec<_> = schemas
            .iter()
            .map(|p| {
                sbekit_compat::load_file(p, &p.display().to_string())
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            })
            .collect();
        let files = site(&loaded).unwrap_or_else(|e| panic!("{schemas:?}: {e}"));
        let out = dir.path().join(format!("s{i:03}"));
        write_files(&out, &files).expect("write");
        pages.extend(
            files
                .iter()
                .filter(|f| f.path.extension().is_some_and(|x| x == "html"))
                .map(|f| out.join(&f.path)),
        );
    }
    // One JVM for every page.
    let out = Command::new("java")
        .arg("-jar")
        .arg(&jar)
        .args(["--errors-only", "--format", "gnu"])
        .args(&pages)
        .output()
        .expect("run java");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && report.trim().is_empty(),
        "{} pages checked:\n{}",
        pages.len(),
        report.lines().take(40).collect::<Vec<_>>().join("\n")
    );
    eprintln!("{TEST}: {} pages, no errors", pages.len());
}
