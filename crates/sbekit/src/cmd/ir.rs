//! `sbekit ir`: write a schema's IR in the reference tool's `.sbeir` format.

use super::{write_stdout, Failure};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Write a schema's intermediate representation as a `.sbeir` file (the reference tool's format).
#[derive(Args)]
#[command(after_help = "\
The output can be read by the reference SBE tool's IrDecoder and by every sbekit command that
takes a schema.

Examples:
  sbekit ir car.xml -o car.sbeir
  sbekit ir car.xml -o - | xxd | head")]
pub struct IrArgs {
    /// The schema: an XML schema (or a `.sbeir` file, which is rewritten).
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
    /// The output file; `-` writes to stdout.
    #[arg(short, long, value_name = "FILE.sbeir")]
    output: PathBuf,
}

/// Runs `sbekit ir`.
pub fn run(args: IrArgs) -> Result<ExitCode, Failure> {
    let ir = sbekit_schema::load_ir(&args.schema)?;
    let bytes = sbekit_ir::sbeir::encode(&ir);
    if args.output.as_os_str() == "-" {
        write_stdout(&bytes)?;
    } else {
        sbekit_fs::write(&args.output, &bytes).map_err(|e| {
            Failure::usage(format_args!("cannot write {}: {e}", args.output.display()))
        })?;
    }
    Ok(ExitCode::SUCCESS)
}
