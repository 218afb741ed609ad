//! `sbekit check` and `sbekit inspect`: validate schemas and show their layout.

use super::{write_stdout, Failure, EXIT_INVALID};
use clap::Args;
use sbekit_schema::outline::Outline;
use sbekit_schema::{compile_any_file, Options};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Validate SBE schemas (XML, or reference-format .sbeir IR files).
#[derive(Args)]
#[command(after_help = "\
Diagnostics go to stderr as FILE:LINE:COLUMN: SEVERITY[RULE]: MESSAGE, one per line.
Exit status: 0 if every schema is valid, 1 if any has errors (or warnings, with -W), 2 on usage errors.

Examples:
  sbekit check schemas/*.xml
  sbekit check -W car.xml              # warnings are fatal too
  sbekit check --json car.xml | jq '.[].diagnostics[] | select(.severity == \"error\")'")]
pub struct CheckArgs {
    /// Schema files to check.
    #[arg(required = true, value_name = "SCHEMA")]
    schemas: Vec<PathBuf>,
    /// Treat warnings as errors.
    #[arg(short = 'W', long)]
    warnings_as_errors: bool,
    /// Print one JSON document with every file's diagnostics on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Print only errors and warnings, no per-file summary.
    #[arg(short, long)]
    quiet: bool,
}

/// Show the layout of a schema: messages, fields with offsets and sizes, groups, var data.
#[derive(Args)]
#[command(after_help = "\
Offsets are relative to the enclosing block (message root or group entry); 'var' marks
elements after the first group or var data, whose position depends on the data.

Examples:
  sbekit inspect car.xml
  sbekit inspect --json car.xml | jq '.messages[] | {name, id, blockLength}'")]
pub struct InspectArgs {
    /// The schema (XML or .sbeir).
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
    /// Print JSON instead of the text outline.
    #[arg(long)]
    json: bool,
}

/// Runs `sbekit check`.
pub fn check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let options = Options {
        warnings_as_errors: args.warnings_as_errors,
    };
    let mut all_ok = true;
    let mut report = Vec::new();
    for path in &args.schemas {
        let compiled = compile_any_file(path, &options);
        let ok = compiled.ir.is_some();
        all_ok &= ok;
        if args.json {
            report.push(json!({
                "file": path.display().to_string(),
                "ok": ok,
                "messages": compiled.ir.as_ref().map_or(0, |ir| ir.messages.len()),
                "diagnostics": compiled.diagnostics,
            }));
            continue;
        }
        for d in &compiled.diagnostics {
            eprintln!("{d}");
        }
        if !args.quiet {
            let warnings = compiled.warnings().count();
            let errors = compiled.errors().count();
            match &compiled.ir {
                Some(ir) => println!(
                    "{}: ok ({} message{}, {warnings} warning{})",
                    path.display(),
                    ir.messages.len(),
                    plural(ir.messages.len()),
                    plural(warnings)
                ),
                None => println!(
                    "{}: FAILED ({errors} error{}, {warnings} warning{})",
                    path.display(),
                    plural(errors),
                    plural(warnings)
                ),
            }
        }
    }
    if args.json {
        write_stdout(format!("{}\n", Value::Array(report)).as_bytes())?;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID)
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Runs `sbekit inspect`.
pub fn inspect(args: InspectArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let outline = Outline::new(&layout);
    let text = if args.json {
        let mut t = serde_json::to_string_pretty(&outline)
            .map_err(|e| Failure::usage(format_args!("writing the outline: {e}")))?;
        t.push('\n');
        t
    } else {
        outline.to_text()
    };
    write_stdout(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
