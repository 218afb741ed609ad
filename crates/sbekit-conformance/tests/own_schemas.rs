//! `sbekit_conformance::run` on our own schemas (no `../shared` needed): the generated C++,
//! TypeScript, Rust and Java agree with `sbekit decode` on random messages at every version, one
//! program per language for all the schemas. Skips loudly without a compiler (or `tsc`,
//! `cargo`, a JDK or Agrona), fails under CI.

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
fn c_agrees_with_sbekit_decode() {
    check(Lang::C, "c_agrees_with_sbekit_decode");
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
fn go_agrees_with_sbekit_decode() {
    check(Lang::Go, "go_agrees_with_sbekit_decode");
}

#[test]
fn rust_agrees_with_sbekit_decode() {
    check(Lang::Rust, "rust_agrees_with_sbekit_decode");
}

#[test]
fn java_agrees_with_sbekit_decode() {
    check(Lang::Java, "java_agrees_with_sbekit_decode");
}

#[test]
fn csharp_agrees_with_sbekit_decode() {
    check(Lang::CSharp, "csharp_agrees_with_sbekit_decode");
}

/// One schema: the generated crate's own `examples/sbe_conformance.rs`, fed messages written at
/// version 0 and 1 of a version-1 schema plus a truncated one. Every message re-encodes at its
/// own version (the header's version and each block's length are the input's), and the
/// truncated one is refused as `sbekit decode` refuses it.
#[test]
fn rust_example_reencodes_older_versions_at_their_version() {
    let schema = own()[3].clone();
    let ir = sbekit_schema::load_ir(&schema).expect("schema");
    assert_eq!(ir.version, 1, "versioned-v1.xml is at version 1");
    let mut rng = sbekit_otf::random::Rng::new(7);
    let mut input = Vec::new();
    let mut cases = Vec::new();
    for msg in &ir.messages {
        for v in [0, 1, 0, 1] {
            let o = sbekit_otf::random::Options {
                writer_version: Some(v),
                ..Default::default()
            };
            cases.push(sbekit_otf::random::random_message(&ir, msg, &mut rng, &o).bytes);
        }
    }
    let mut cut = cases[0].clone();
    cut.truncate(cut.len() - 1);
    cases.push(cut);
    for c in &cases {
        input.extend_from_slice(&(c.len() as u32).to_le_bytes());
        input.extend_from_slice(c);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("in.u32");
    std::fs::write(&file, &input).expect("write");
    let mut opts = Options::new(vec![schema], Lang::Rust);
    opts.messages = Some(file);
    opts.keep = Some(dir.path().join("keep"));
    let sum = match run(&opts) {
        Ok(sum) => sum,
        Err(sbekit_conformance::Error::MissingToolchain(what, how)) => {
            assert!(!sbekit_testdata::is_ci(), "{what} not found ({how})");
            eprintln!("\n*** SKIPPED: {what} not found ({how}). ***\n");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    for e in &sum.examples {
        eprintln!("{e}");
    }
    assert_eq!(sum.messages, cases.len());
    assert_eq!(sum.disagreements, 0, "{}", sum.line());
    assert_eq!(sum.json_equal, cases.len(), "{}", sum.line());
    let out = std::fs::read(dir.path().join("keep/rust.reencoded.u32")).expect("kept");
    let frames = sbekit_conformance::read_frames(&out).expect("frames");
    assert_eq!(frames.len(), cases.len());
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    for (i, (c, f)) in cases.iter().zip(&frames).enumerate().take(cases.len() - 1) {
        // Header: blockLength at 0, version at 6; the random writer writes each version's
        // own block lengths, so the re-encoding has the input's length too.
        assert_eq!(u16_at(f, 6), u16_at(c, 6), "message {i}: version");
        assert_eq!(u16_at(f, 0), u16_at(c, 0), "message {i}: block length");
        assert_eq!(f.len(), c.len(), "message {i}: length");
    }
    assert!(frames[cases.len() - 1].is_empty(), "the truncated message");
    let jsonl = std::fs::read_to_string(dir.path().join("keep/rust.jsonl")).expect("kept");
    assert!(jsonl
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("{\"error\":")));
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
