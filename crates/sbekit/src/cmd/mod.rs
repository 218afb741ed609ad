//! Subcommand implementations, and the policy they share.
//!
//! Every subcommand follows one policy (docs/guide/exit-status.md):
//! - exit status 0 on success; [`EXIT_INVALID`] (1) when the input is invalid or has findings
//!   (schema errors, undecodable messages, a corrupt capture, a failed verification); and
//!   [`EXIT_USAGE`] (2) for usage, I/O and environment errors (bad arguments, a file that cannot
//!   be read or written), which is also what clap uses for bad arguments;
//! - fatal errors are one line on stderr, `sbekit: error: MESSAGE`; findings about the input
//!   keep their own located format (`file:line:col: error[rule]: ...`, `message N at byte ...`);
//! - a closed stdout pipe (`sbekit decode ... | head`) ends the output quietly, with the status
//!   the work done so far earned, never a panic.

pub mod capture;
pub mod clock;
pub mod compat;
pub mod conformance;
pub mod decode;
pub mod doc;
pub mod encode;
pub mod generate;
pub mod iex;
pub mod ir;
pub mod parquet_args;
pub mod schema;
pub mod shootout;
pub mod trades;

use indicatif::{ProgressBar, ProgressStyle};
use sbekit_fs::AtomicFile;
use std::fmt::Display;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
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
    /// The reader closed stdout: output ends quietly with exit 0 (see [`is_closed`]).
    Closed,
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

    /// A failed write of the command's output: a closed pipe ends quietly, anything else is an
    /// I/O failure.
    pub fn output(e: io::Error) -> Self {
        if is_closed(&e) {
            Failure::Closed
        } else {
            Failure::usage(format_args!("writing output: {e}"))
        }
    }

    /// Prints the error line and returns the exit status.
    pub fn report(self) -> ExitCode {
        let (msg, code) = match self {
            Failure::Invalid(m) => (m, EXIT_INVALID),
            Failure::Usage(m) => (m, EXIT_USAGE),
            Failure::Closed => return ExitCode::SUCCESS,
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

impl From<sbekit_trades::Error> for Failure {
    /// Files that cannot be opened or written are I/O errors (a closed stdout ends quietly);
    /// bad content and bad requests are invalid input.
    fn from(e: sbekit_trades::Error) -> Self {
        match e {
            sbekit_trades::Error::Io { source, .. } if is_closed(&source) => Failure::Closed,
            sbekit_trades::Error::Io { .. } => Failure::usage(e),
            e => Failure::invalid(e),
        }
    }
}

/// The one closed-pipe rule: a write that failed because the reader went away
/// (`sbekit ... | head`) is not an error; the output just ends.
pub fn is_closed(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
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
        Err(e) => match Failure::output(e) {
            Failure::Closed => Ok(false),
            f => Err(f),
        },
    }
}

/// Writes `bytes` to stdout (see [`write_or_closed`]).
pub fn write_stdout(bytes: &[u8]) -> Result<bool, Failure> {
    write_or_closed(&mut io::stdout().lock(), bytes)
}

/// A command's output: stdout, or a file written atomically through [`sbekit_fs::AtomicFile`]
/// (`-` means stdout). A file appears at its path only on [`Output::commit`]; dropped
/// uncommitted (an error, an interruption) it leaves nothing behind.
pub enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file being written, and the path it will have.
    File(BufWriter<AtomicFile>, PathBuf),
}

impl Output {
    /// Opens `path` for writing (`-` for stdout). A file that cannot be created is an I/O
    /// failure.
    pub fn create(path: &Path) -> Result<Self, Failure> {
        if path.as_os_str() == "-" {
            return Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 20,
                io::stdout().lock(),
            )));
        }
        let f = AtomicFile::create(path)
            .map_err(|e| Failure::usage(format_args!("cannot create {}: {e}", path.display())))?;
        Ok(Output::File(
            BufWriter::with_capacity(1 << 20, f),
            path.to_path_buf(),
        ))
    }

    /// Flushes stdout, or syncs the file and renames it into place.
    pub fn commit(self) -> Result<(), Failure> {
        match self {
            Output::Stdout(mut w) => w.flush().map_err(Failure::output),
            Output::File(w, path) => {
                let fail = |e: io::Error| {
                    Failure::usage(format_args!("cannot write {}: {e}", path.display()))
                };
                w.into_inner()
                    .map_err(|e| fail(e.into_error()))?
                    .commit()
                    .map_err(fail)
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(w, _) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(w, _) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(w, _) => w.flush(),
        }
    }
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
