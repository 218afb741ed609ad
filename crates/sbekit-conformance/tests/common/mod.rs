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
