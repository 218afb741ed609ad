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
enum Command {
    /// Validate SBE schemas and report errors and warnings with file, line, column and rule.
    Check(cmd::schema::CheckArgs),
    /// Show a schema's messages, fields, offsets, sizes, groups and var data.
    Inspect(cmd::schema::InspectArgs),
    /// Decode SBE messages (a file or stdin) to JSON lines, driven by the schema's IR.
    Decode(cmd::decode::DecodeArgs),
    /// Encode JSON lines (as `decode` prints them) to SBE messages, driven by the schema.
    Encode(cmd::encode::EncodeArgs),
    /// Write a schema's IR as a .sbeir file (the reference tool's IR format).
    Ir(cmd::ir::IrArgs),
    /// SBE market-data captures (CME, B3, Coinbase, Euronext, SOFH, custom framings) to
    /// statistics and JSON lines; synthetic captures.
    Capture(cmd::capture::CaptureArgs),
    /// Read IEX market data captures (DEEP, TOPS, DEEP+) and write synthetic ones.
    Iex(cmd::iex::IexArgs),
    /// Binary format shootout on IEX data: sbekit SBE vs Cap'n Proto, FlatBuffers, Protocol
    /// Buffers and rkyv (latency percentiles, throughput, correctness gate).
    Shootout(cmd::shootout::ShootoutArgs),
    /// Trade store: CSV trades to fixed-size SBE records, memory-mapped queries, export.
    Trades(cmd::trades::TradesArgs),
    /// Compare two versions of a schema: what breaks old or new readers, proven by execution.
    Compat(cmd::compat::CompatArgs),
    /// Write a browsable HTML reference of a schema (messages with byte maps, types, search,
    /// version history).
    Doc(cmd::doc::DocArgs),
    /// Generate codecs from a schema: Rust, TypeScript, C++, C, Java, Go or C#, or a Wireshark
    /// dissector.
    Generate(cmd::generate::GenerateArgs),
    /// Check a language's generated codecs against the schema-driven decoder (JSON and
    /// re-encoding), on random messages or a messages file.
    Conformance(cmd::conformance::ConformanceArgs),
}

fn main() -> ExitCode {
    cmd::clock::mark_process_start();
    let cli = Cli::parse();
    cmd::finish(match cli.command {
        Command::Check(args) => cmd::schema::check(args),
        Command::Inspect(args) => cmd::schema::inspect(args),
        Command::Decode(args) => cmd::decode::run(args),
        Command::Encode(args) => cmd::encode::run(args),
        Command::Ir(args) => cmd::ir::run(args),
        Command::Capture(args) => cmd::capture::run(args),
        Command::Iex(args) => cmd::iex::run(args),
        Command::Shootout(args) => cmd::shootout::run(args),
        Command::Trades(args) => cmd::trades::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Compat(args) => cmd::compat::run(args),
        Command::Doc(args) => cmd::doc::run(args),
        Command::Conformance(args) => cmd::conformance::run(args),
    })
}
