//! `sbekit`: the command-line front end. Each subcommand lives in its own module under `cmd/`.

#![forbid(unsafe_code)]

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Simple Binary Encoding toolkit: schemas, codecs, decoding, IEX data and benchmarks.
#[derive(Parser)]
#[command(name = "sbekit", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
