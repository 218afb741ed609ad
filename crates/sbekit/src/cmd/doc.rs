//! `sbekit doc`: a browsable HTML reference of a schema, or of several versions of one.

use super::Failure;
use clap::Args;
use sbekit_compat::LoadError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Write a static HTML reference of a schema: messages with byte maps, types, search, and
/// (given several versions) what changed between them.
#[derive(Args)]
#[command(after_help = "\
Each SCHEMA is an XML schema, a .sbeir file, or git:REV:path (as for `sbekit compat`). Given
several versions of one schema (they share its package or its id), the newest (by id, then
`version`) is documented and versions.html lists what `sbekit compat` finds between each
version and the next.

The site is plain HTML, one stylesheet and one script: open DIR/index.html from disk, no
server or network needed. Files already in DIR that the site does not write are left alone.

Exit status: 0 written, 1 an invalid schema, 2 usage or I/O errors.

Examples:
  sbekit doc schemas/market-data.xml -o site
  sbekit doc spot_1_0.xml spot_2_0.xml spot_3_0.xml -o binance-doc")]
pub struct DocArgs {
    /// The schema, or several versions of it.
    #[arg(value_name = "SCHEMA", required = true)]
    schemas: Vec<String>,
    /// The directory to write the site into (created if needed).
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
}

fn load_failure(e: LoadError) -> Failure {
    if e.is_invalid_schema() {
        Failure::invalid(e)
    } else {
        Failure::usage(e)
    }
}

/// Runs `sbekit doc`.
pub fn run(args: DocArgs) -> Result<ExitCode, Failure> {
    let schemas = args
        .schemas
        .iter()
        .map(|s| sbekit_compat::load(s).map_err(load_failure))
        .collect::<Result<Vec<_>, _>>()?;
    let files = sbekit_doc::site(&schemas).map_err(Failure::invalid)?;
    sbekit_doc::write_files(&args.out, &files).map_err(Failure::usage)?;
    eprintln!(
        "wrote {} files to {}; open {}",
        files.len(),
        args.out.display(),
        args.out.join("index.html").display()
    );
    Ok(ExitCode::SUCCESS)
}
