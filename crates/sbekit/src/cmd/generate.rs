//! `sbekit generate --lang rust|typescript SCHEMA -o DIR`: Rust codecs as a standalone crate or a
//! module, or TypeScript codecs as an npm package.

use super::Failure;
use clap::Args;
use sbekit_codegen::{KeywordStyle, Options, RuntimeDep};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `sbekit generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// Target language: `rust`, or `typescript` (`ts`) for an npm package.
    #[arg(long, default_value = "rust")]
    lang: String,
    /// The schema: SBE XML or a `.sbeir` IR file.
    schema: PathBuf,
    /// Output directory.
    #[arg(short, long)]
    out: PathBuf,
    /// Write one module file `<package>.rs` into the directory instead of a crate.
    #[arg(long)]
    module: bool,
    /// Crate name, or npm package name with `--lang typescript` (default: `<package>-sbe`, or the
    /// package if it already ends in `sbe`).
    #[arg(long)]
    crate_name: Option<String>,
    /// Depend on the runtime by path (a checkout of `crates/sbekit-runtime`) instead of the
    /// copy written into `<out>/sbekit-runtime/` by default.
    #[arg(long)]
    runtime_path: Option<PathBuf>,
    /// Schema names that are Rust keywords: `raw` identifiers (`r#type`) or a `suffix` (`type_`).
    #[arg(long, default_value = "raw", value_parser = ["raw", "suffix"])]
    keywords: String,
    /// Leave the output unformatted (skip rustfmt).
    #[arg(long)]
    no_rustfmt: bool,
}

/// Runs `sbekit generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode, Failure> {
    if args.lang == "typescript" || args.lang == "ts" {
        return typescript(&args);
    }
    if args.lang != "rust" {
        return Err(Failure::usage(format_args!(
            "unsupported language '{}' ('rust' or 'typescript')",
            args.lang
        )));
    }
    let ir = sbekit_schema::load_ir(&args.schema)?;
    if !args.no_rustfmt {
        // The generator falls back to unformatted output; say so rather than do it silently.
        if let Err(e) = sbekit_codegen::try_format("fn main() {}\n") {
            eprintln!(
                "sbekit: warning: the output is left unformatted: {e} (--no-rustfmt silences this)"
            );
        }
    }
    let opts = Options {
        rustfmt: !args.no_rustfmt,
        keywords: if args.keywords == "suffix" {
            KeywordStyle::Suffix
        } else {
            KeywordStyle::Raw
        },
        ..Options::default()
    };
    let result = if args.module {
        sbekit_codegen::write_module(&ir, &args.out, &opts).map(|p| p.display().to_string())
    } else {
        let name = args
            .crate_name
            .clone()
            .unwrap_or_else(|| sbekit_codegen::crate_name(&ir));
        let dep = match &args.runtime_path {
            Some(p) => RuntimeDep::Path(p.clone()),
            None => RuntimeDep::Bundled,
        };
        sbekit_codegen::write_crate(&ir, &args.out, &name, &dep, &opts)
            .map(|()| format!("{} (crate {name})", args.out.display()))
    };
    match result {
        Ok(what) => {
            eprintln!("wrote {what}");
            Ok(ExitCode::SUCCESS)
        }
        // The schema compiled, so what is left is the generator refusing it or a write failing.
        Err(e @ sbekit_codegen::GenError::Io(..)) => Err(Failure::usage(e)),
        Err(e) => Err(Failure::invalid(e)),
    }
}

/// `--lang typescript`: an npm package in `args.out` (`--crate-name` names the package).
fn typescript(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_ts::Options {
        package_name: args.crate_name.clone(),
    };
    sbekit_codegen_ts::write_package(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (npm package)", args.out.display());
    Ok(ExitCode::SUCCESS)
}
