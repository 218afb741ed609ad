//! `sbekit conformance --schema S --lang cpp|rust|ts|java|go|c|csharp [--messages FILE] [--keep DIR]`: checks the
//! generated codecs of a language against the schema-driven decoder (`sbekit_conformance`).

use super::Failure;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Generates the codecs into a scratch directory, builds the conformance program every generated
package ships (one program for all the schemas given), pipes it u32le-framed messages and checks
that its JSON equals `sbekit decode --framing u32le`'s (numbers as values; a top-level
\"$version\" member is ignored) and that messages of the schema's version re-encode
byte-identically (padding zeroed, as `sbekit encode` writes it). Without --messages: random
messages of every type at the schema's version, every older version and from a newer writer.

Exit status: 0 all agree, 1 any disagreement, 2 a missing toolchain (named: a C++17 compiler,
a C11 compiler, cargo, node, tsc, javac, java, the Agrona jar in ~/.m2, go, mcs, mono) or bad arguments.

Examples:
  sbekit conformance --schema car.xml --lang cpp
  sbekit conformance --schema car.xml --lang rust
  sbekit conformance --schema car.xml --lang java
  sbekit conformance --schema car.xml --lang go
  sbekit conformance --schema car.xml --lang c
  sbekit conformance --schema car.xml --lang csharp
  sbekit conformance --schema a.xml --schema b.xml --lang ts --keep out/
  sbekit conformance --schema car.xml --lang cpp --messages cars.u32";

/// Arguments of `sbekit conformance`.
#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct ConformanceArgs {
    /// A schema (XML or `.sbeir`); repeat for several (one build for all).
    #[arg(short, long, required = true)]
    schema: Vec<PathBuf>,
    /// The generated codecs to check: `cpp` (`c++`), `rust`, `ts` (`typescript`), `java`, `go`, `c` or `csharp` (`cs`).
    #[arg(long)]
    lang: String,
    /// A u32le-framed file of messages to use instead of random ones (one schema only).
    #[arg(long)]
    messages: Option<PathBuf>,
    /// Keep `DIR/<lang>.jsonl`, `DIR/<lang>.reencoded.u32` and the build.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Seed of the random messages.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random messages per message type at the schema's version.
    #[arg(long, default_value_t = 8)]
    per_message: usize,
}

/// Runs `sbekit conformance`.
pub fn run(args: ConformanceArgs) -> Result<ExitCode, Failure> {
    let lang = args.lang.parse().map_err(Failure::usage)?;
    let mut opts = sbekit_conformance::Options::new(args.schema, lang);
    opts.messages = args.messages;
    opts.keep = args.keep;
    opts.seed = args.seed;
    opts.per_message = args.per_message;
    let sum = sbekit_conformance::run(&opts).map_err(|e| match e {
        sbekit_conformance::Error::Schema(..) => Failure::invalid(e),
        _ => Failure::usage(e),
    })?;
    for e in &sum.examples {
        eprintln!("{e}");
    }
    println!("{}", sum.line());
    Ok(if sum.disagreements == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_INVALID)
    })
}
