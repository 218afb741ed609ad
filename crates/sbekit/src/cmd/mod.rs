//! Subcommand implementations, and the policy they share.
//!
//! Every subcommand follows one policy (the README's "Exit status and errors"):
//! - exit status 0 on success; [`EXIT_INVALID`] (1) when the input is invalid or has findings
//!   (schema errors, undecodable messages, a corrupt capture, a failed verification); and
//!   [`EXIT_USAGE`] (2) for usage, I/O and environment errors (bad arguments, a file that cannot
//!   be read or written), which is also what clap uses for bad arguments;
//! - fatal errors are one line on stderr, `sbekit: error: MESSAGE`; findings about the input
//!   keep their own located format (`file:line:col: error[rule]: ...`, `message N at byte ...`);
//! - a closed stdout pipe (`sbekit decode ... | head`) ends the output quietly, with the status
//!   the work done so far earned, never a panic.

pub mod compat;
pub mod conformance;
pub mod decode;
pub mod encode;
pub mod generate;
pub mod iex;
pub mod ir;
pub mod schema;
pub mod shootout;
pub mod trades;

use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Exit status when the input is invalid or has findings.
pub const EXIT_INVALID: u8 = 1;
/// Exit status for usage, I/O and environment errors.
pub const EXIT_USAGE: u8 = 2;

/// Why a command failed, which decides its exit status.
#[derive(Debug)]
pub enum Failure {
    /// The input is invalid or has findings (exit 1).
    Invalid(String),
    /// A usage, I/O or environment error (exit 2).
    Usage(String),
}

impl Failure {
    /// An invalid-input failure.
    pub fn invalid(msg: impl Display) -> Self {
        Failure::Invalid(msg.to_string())
    }

    /// A usage or I/O failure.
    pub fn usage(msg: impl Display) -> Self {
        Failure::Usage(msg.to_string())
    }

    /// Prints the error line and returns the exit status.
    pub fn report(self) -> ExitCode {
        let (msg, code) = match self {
            Failure::Invalid(m) => (m, EXIT_INVALID),
            Failure::Usage(m) => (m, EXIT_USAGE),
        };
        eprintln!("sbekit: error: {msg}");
        ExitCode::from(code)
    }
}

impl From<sbekit_schema::LoadError> for Failure {
    /// A schema that cannot be read is an I/O error; one that does not compile is invalid.
    fn from(e: sbekit_schema::LoadError) -> Self {
        match e {
            sbekit_schema::LoadError::Io { .. } => Failure::usage(e),
            _ => Failure::invalid(e),
        }
    }
}

/// Turns a command's result into its exit status.
pub fn finish(result: Result<ExitCode, Failure>) -> ExitCode {
    result.unwrap_or_else(Failure::report)
}

/// Writes `bytes` to `out`. Returns `Ok(false)` when the reader has gone away (a closed pipe),
/// which ends output quietly; other write errors are I/O failures.
pub fn write_or_closed(out: &mut impl Write, bytes: &[u8]) -> Result<bool, Failure> {
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Failure::usage(format_args!("writing output: {e}"))),
    }
}

/// Writes `bytes` to stdout (see [`write_or_closed`]).
pub fn write_stdout(bytes: &[u8]) -> Result<bool, Failure> {
    write_or_closed(&mut io::stdout().lock(), bytes)
}

/// A progress bar on stderr when it is a terminal; hidden otherwise (pipes and CI stay clean).
pub fn progress_bar(total: u64, template: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}
