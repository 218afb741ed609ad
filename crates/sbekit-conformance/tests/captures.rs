//! `sbekit conformance` on real traffic (issue 35): the shared captures of CME MDP 3.0 (UDP
//! and TCP), CME iLink 3, B3 UMDF and EntryPoint and Coinbase Derivatives, read through their
//! `sbekit capture` profiles, checked in every language: one program per language holds a
//! package per (schema, profile). Skips loudly without `../shared` or a toolchain; fails in CI.

mod common;

use common::run_or_skip;
use sbekit_conformance::{Captures, Lang, Options};
use sbekit_feed::profile::Profile;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn check(lang: Lang, test: &str) {
    let _one = common::ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    // Captures grouped by (schema, profile), in a stable order.
    let mut groups: BTreeMap<(&str, &str), Vec<PathBuf>> = BTreeMap::new();
    for (file, profile, schema) in sbekit_testdata::OMI_CAPTURES {
        let Some(path) = sbekit_testdata::require(&format!("data/omi/{file}"), test) else {
            return;
        };
        groups.entry((schema, profile)).or_default().push(path);
    }
    let mut schemas = Vec::new();
    let mut captures = Vec::new();
    for ((schema, profile), files) in groups {
        let Some(s) = sbekit_testdata::require(&format!("schemas/omi/{schema}"), test) else {
            return;
        };
        schemas.push(s);
        captures.push(Captures {
            files,
            profile: Profile::resolve(profile, &[]).expect("built-in profile"),
        });
    }
    assert!(
        schemas.len() >= 6,
        "{} (schema, profile) pairs",
        schemas.len()
    );
    let mut opts = Options::new(schemas, lang);
    opts.captures = captures;
    opts.tsc = common::pinned_tsc();
    let Some(sum) = run_or_skip(&opts, test) else {
        return;
    };
    eprintln!("{test}: {}", sum.line());
    for e in &sum.examples {
        eprintln!("{e}");
    }
    assert_eq!(sum.disagreements, 0, "{}", sum.line());
    assert_eq!(sum.json_equal, sum.messages, "{}", sum.line());
    // Every capture holds at least one message of its schema.
    assert!(
        sum.messages >= sbekit_testdata::OMI_CAPTURES.len(),
        "{}",
        sum.line()
    );
}

#[test]
fn cpp_reads_real_captures_as_sbekit_does() {
    check(Lang::Cpp, "cpp_reads_real_captures_as_sbekit_does");
}

#[test]
fn rust_reads_real_captures_as_sbekit_does() {
    check(Lang::Rust, "rust_reads_real_captures_as_sbekit_does");
}

#[test]
fn typescript_reads_real_captures_as_sbekit_does() {
    check(
        Lang::TypeScript,
        "typescript_reads_real_captures_as_sbekit_does",
    );
}

#[test]
fn java_reads_real_captures_as_sbekit_does() {
    check(Lang::Java, "java_reads_real_captures_as_sbekit_does");
}

#[test]
fn go_reads_real_captures_as_sbekit_does() {
    check(Lang::Go, "go_reads_real_captures_as_sbekit_does");
}

#[test]
fn c_reads_real_captures_as_sbekit_does() {
    check(Lang::C, "c_reads_real_captures_as_sbekit_does");
}

#[test]
fn csharp_reads_real_captures_as_sbekit_does() {
    check(Lang::CSharp, "csharp_reads_real_captures_as_sbekit_does");
}
