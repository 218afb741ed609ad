//! Locates test material in `../shared` beside the workspace.
//!
//! Real IEX captures and the reference tool's vectors may not be redistributed, so tests read
//! them in place. On a user's machine without `../shared` such tests print a loud SKIPPED line
//! and return; under CI (`CI=true`) a missing file fails the test instead, so a green CI run
//! always means the tests really ran ([`skip`] is that rule, for tools as well as files).
//!
//! [`SchemaXml`] builds the small inline schemas tests write; [`check_golden`] compares a
//! generator's output with its checked-in golden file.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod driver;
mod golden;
mod omi;
mod process;
mod schema;

pub use driver::{
    frames, pipe, run_ok, same_json, unframe, workspace_file, CarVector, CAR_SCHEMAS, CAR_VECTORS,
};
pub use golden::check_golden;
pub use omi::OMI_CAPTURES;
pub use process::{dir_entries, output_with_stdin};
pub use schema::{SchemaXml, STANDARD_HEADER};

use std::io::Write;
use std::path::{Path, PathBuf};

/// The `shared` directory beside the workspace root (it may not exist).
pub fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SBEKIT_SHARED_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The reference SBE conformance directory (`shared/conformance/reference-sbe`).
pub fn reference_sbe_dir() -> PathBuf {
    shared_dir().join("conformance/reference-sbe")
}

/// True when running under CI, where missing test material is a failure.
pub fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Returns the path of `relative` under `shared/` if it exists.
///
/// If it does not, it [`skip`]s (a failure under CI) and returns `None` so the caller can
/// return early.
pub fn require(relative: &str, test: &str) -> Option<PathBuf> {
    let path = shared_dir().join(relative);
    if path.exists() {
        return Some(path);
    }
    skip(
        test,
        format_args!(
            "{} not found. Put the shared/ directory beside the checkout (or set \
             SBEKIT_SHARED_DIR) to run it",
            path.display()
        ),
    );
    None
}

/// The one way a test skips: it cannot run here because of `why` (missing test material, a
/// tool that is not installed).
///
/// Under CI (`CI=true`) this panics, so the test fails and a green CI run means every test
/// really ran; elsewhere it prints a loud `*** SKIPPED test: why ***` line on stderr (past the
/// harness's output capture, so that `cargo test` shows it) and returns, and the caller returns
/// early.
#[track_caller]
pub fn skip(test: &str, why: impl std::fmt::Display) {
    if is_ci() {
        panic!("{test}: {why} (CI=true makes a skip a failure)");
    }
    // Straight to the process's stderr: the test harness captures `eprintln!` of a test that
    // passes, which would hide the skip from the person it is meant for.
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED {test}: {why} ***\n");
}

/// Like [`require`], for a path under the reference SBE conformance directory.
pub fn require_reference(relative: &str, test: &str) -> Option<PathBuf> {
    require(&format!("conformance/reference-sbe/{relative}"), test)
}

/// The repository's schemas written to break generators (issue 34): names that are keywords of
/// the target languages, and names of every generator's runtime identifiers and of what it
/// declares per message (`crates/sbekit-codegen-tests/schemas/`).
pub const HOSTILE_SCHEMAS: [&str; 2] = ["keywords.xml", "hostile-names.xml"];

/// What a generator's strict build test compiles: the repository's [`HOSTILE_SCHEMAS`] always
/// (no `../shared` needed), then the 80 schemas the reference tool accepts when `../shared` is
/// there ([`reference_accepted_schemas`]: skipped loudly without it, a failure under CI).
pub fn strict_build_schemas(test: &str) -> Vec<PathBuf> {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas");
    let mut out: Vec<PathBuf> = HOSTILE_SCHEMAS.iter().map(|s| own.join(s)).collect();
    out.extend(reference_accepted_schemas(test).unwrap_or_default());
    out
}

/// The venue schemas in `shared/schemas/omi` (CME, B3, Coinbase, ...), sorted; `None` (skipped
/// loudly, or a failure under CI) without `../shared`.
pub fn venue_schemas(test: &str) -> Option<Vec<PathBuf>> {
    let dir = require("schemas/omi", test)?;
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    out.sort();
    Some(out)
}

/// The schemas the reference tool accepts (the 80 `exit_code` 0 rows of
/// `derived/reference-verdicts-sbe-all-1.38.1.tsv`), as paths under [`reference_sbe_dir`]; `None`
/// (skipped loudly, or a failure under CI) without `../shared`. `test` names the caller in the
/// skip message.
pub fn reference_accepted_schemas(test: &str) -> Option<Vec<PathBuf>> {
    let tsv = require_reference("derived/reference-verdicts-sbe-all-1.38.1.tsv", test)?;
    let text = std::fs::read_to_string(&tsv).unwrap_or_else(|e| panic!("{}: {e}", tsv.display()));
    let root = reference_sbe_dir();
    let schemas: Vec<PathBuf> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let (schema, code) = (cols.next()?, cols.next()?);
            (code == "0").then(|| root.join(schema))
        })
        .collect();
    assert_eq!(schemas.len(), 80, "accepted schemas in {}", tsv.display());
    Some(schemas)
}
