//! `sbekit_conformance::run` on our own schemas (no `../shared` needed): the generated C++ and
//! TypeScript agree with `sbekit decode` on random messages at every version, one program per
//! language for all the schemas. Skips loudly without a compiler (or `tsc`), fails under CI.

use sbekit_conformance::{run, Lang, Options};
use std::path::{Path, PathBuf};

fn own() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    [
        "schemas/market-data.xml",
        "schemas/shootout-2019.xml",
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
        "crates/sbekit-codegen-tests/schemas/keywords.xml",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect()
}

fn check(lang: Lang, test: &str) {
    let opts = Options::new(own(), lang);
    match run(&opts) {
        Ok(sum) => {
            eprintln!("{test}: {}", sum.line());
            for e in &sum.examples {
                eprintln!("{e}");
            }
            assert_eq!(sum.disagreements, 0, "{}", sum.line());
            assert_eq!(sum.json_equal, sum.messages);
            assert!(
                sum.messages > 100 && sum.reencoded_identical > 50,
                "{}",
                sum.line()
            );
        }
        Err(sbekit_conformance::Error::MissingToolchain(what, how)) => {
            if sbekit_testdata::is_ci() {
                panic!("{test}: {what} not found ({how}); CI=true makes this a failure");
            }
            eprintln!("\n*** SKIPPED {test}: {what} not found ({how}). ***\n");
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

#[test]
fn cpp_agrees_with_sbekit_decode() {
    check(Lang::Cpp, "cpp_agrees_with_sbekit_decode");
}

#[test]
fn typescript_agrees_with_sbekit_decode() {
    // The pinned tsc of the TypeScript generator's tests (`npm ci` in its tests/node).
    let tsc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-ts/tests/node/node_modules/.bin/tsc");
    if std::env::var_os("SBEKIT_TSC").is_none() && tsc.exists() {
        std::env::set_var("SBEKIT_TSC", &tsc);
    }
    check(Lang::TypeScript, "typescript_agrees_with_sbekit_decode");
}

#[test]
fn frames_round_trip_and_bad_frames_are_errors() {
    let f = sbekit_conformance::read_frames(&[2, 0, 0, 0, 7, 8, 0, 0, 0, 0]).expect("frames");
    assert_eq!(f, vec![vec![7, 8], vec![]]);
    assert!(sbekit_conformance::read_frames(&[5, 0, 0, 0, 1]).is_err());
    assert!(sbekit_conformance::read_frames(&[1, 0]).is_err());
}

#[test]
fn json_is_compared_as_values_ignoring_version() {
    let a: serde_json::Value =
        serde_json::from_str(r#"{"$version":1,"x":1.0,"y":[35.9]}"#).unwrap();
    let b: serde_json::Value = serde_json::from_str(r#"{"x":1,"y":[35.900001525878906]}"#).unwrap();
    assert!(sbekit_conformance::same_json(&a, &b));
    let c: serde_json::Value = serde_json::from_str(r#"{"x":2,"y":[35.9]}"#).unwrap();
    assert!(!sbekit_conformance::same_json(&a, &c));
}
