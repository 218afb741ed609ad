//! `sbekit ir`: write a schema's IR in the reference tool's `.sbeir` format.

use clap::Args;
use std::io::Write;
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
pub fn run(args: IrArgs) -> ExitCode {
    let ir = match sbekit_schema::load_ir(&args.schema) {
        Ok(ir) => ir,
        Err(e) => {
            eprintln!("sbekit ir: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes = sbekit_ir::sbeir::encode(&ir);
    let written = if args.output.as_os_str() == "-" {
        std::io::stdout().lock().write_all(&bytes)
    } else {
        std::fs::write(&args.output, &bytes)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sbekit ir: cannot write {}: {e}", args.output.display());
            ExitCode::from(2)
        }
    }
}
