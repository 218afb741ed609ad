//! What the conformance tests share: a run that skips loudly (a failure under CI) when the
//! language's toolchain is missing.

use sbekit_conformance::{run, Options, Summary};

/// Runs `opts`; `None` after a loud skip when a toolchain is missing; panics on any other error.
pub fn run_or_skip(opts: &Options, test: &str) -> Option<Summary> {
    match run(opts) {
        Ok(sum) => Some(sum),
        Err(sbekit_conformance::Error::MissingToolchain(what, how)) => {
            sbekit_testdata::skip(test, format_args!("{what} not found ({how})"));
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

/// The pinned compiler `npm ci` installs for the TypeScript generator's tests, unless
/// `$SBEKIT_TSC` names one (then `None`: the run reads the variable itself).
#[allow(dead_code)]
pub fn pinned_tsc() -> Option<std::path::PathBuf> {
    if std::env::var_os("SBEKIT_TSC").is_some() {
        return None;
    }
    let tsc = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-ts/tests/node/node_modules/.bin/tsc");
    tsc.exists().then_some(tsc)
}

/// Held by a test for its whole run where the language programs must not be built side by side
/// in one process. With the Rust capture test's `cargo build` started beside the TypeScript
/// one, that build's `rustc -` probe read another process's bytes as its source, every time
/// (cause not found; one at a time, as the CLI runs them, it never happens).
#[allow(dead_code)]
pub static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
