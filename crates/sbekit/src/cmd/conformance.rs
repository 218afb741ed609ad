//! `sbekit conformance --schema S --lang cpp|rust|ts|java|go|c|csharp [--messages FILE | --capture
//! FILE --profile P] [--keep DIR]`: checks the generated codecs of a language against the
//! schema-driven decoder (`sbekit_conformance`); `--write-messages DIR` writes the random
//! messages instead, a file per schema.

use super::Failure;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Generates the codecs into a scratch directory, builds the conformance program every generated
package ships (one program for all the schemas given), pipes it u32le-framed messages and checks
that its JSON equals `sbekit decode --framing u32le`'s, every member included (numbers as
values; \"$version\" for an older writer's message), and that each message written at the
schema's version re-encodes byte for byte, or, where its bytes carry what its values cannot
(blocks longer than the schema's, padding, unknown set bits, bytes past a NUL), exactly as
`sbekit encode` writes its values, differing only in bytes shown one by one to carry no value
(text not valid in its encoding, which `sbekit decode` reads as Latin-1, must keep its bytes).
Messages of other versions must re-encode to the same values at their own version. --keep
writes DIR/<lang>.rules.tsv: the rule each message passed by, or DISAGREE.

--owned checks the owned values instead (`CarOwned`, `CarObject`, ...; a language without them
is refused with the list of those that have them): each message is decoded into its owned
value and written again by it; the JSON of what it writes, and its bytes, must pass the same
rules as the flyweights'. --and-owned checks the flyweights, then the owned values, from one
build of the program (a summary line each; with --keep, the owned values' files are
DIR/<lang>-owned.*): half the build time of two runs.

Messages: random ones of every type at the schema's version (also padded), every older
version and from a newer writer, plus damaged copies; or u32le-framed files (--messages, one
per --schema, in order); or every message of the schema in captures (--capture, with the
framing profile of `sbekit capture`: messages of other schemas are counted, not checked).
--write-messages DIR writes the random messages, DIR/NN-<schema>.u32 for the NNth schema, and
builds nothing: the same input for every language, or for another tool.

Exit status: 0 all agree, 1 any disagreement, 2 a missing toolchain (named: a C++17 compiler,
a C11 compiler, cargo, node, tsc, javac, java, the Agrona jar in ~/.m2, go, mcs, mono) or bad arguments.

Examples:
  sbekit conformance --schema car.xml --lang cpp
  sbekit conformance --schema car.xml --lang rust
  sbekit conformance --schema car.xml --lang rust --owned
  sbekit conformance --schema car.xml --lang cpp --and-owned
  sbekit conformance --schema car.xml --lang java
  sbekit conformance --schema car.xml --lang go
  sbekit conformance --schema car.xml --lang c
  sbekit conformance --schema car.xml --lang csharp
  sbekit conformance --schema a.xml --schema b.xml --lang ts --keep out/
  sbekit conformance --schema car.xml --lang cpp --messages cars.u32
  sbekit conformance --schema a.xml --schema b.xml --write-messages msgs/
  sbekit conformance --schema a.xml --schema b.xml --lang go \
      --messages msgs/00-a.u32 --messages msgs/01-b.u32
  sbekit conformance --schema mdp3.xml --lang java --capture feed.pcap --profile cme-mdp3";

/// Arguments of `sbekit conformance`.
#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct ConformanceArgs {
    /// A schema (XML or `.sbeir`); repeat for several (one build for all).
    #[arg(short, long, required = true)]
    schema: Vec<PathBuf>,
    /// The generated codecs to check: `cpp` (`c++`), `rust`, `ts` (`typescript`), `java`, `go`, `c` or `csharp` (`cs`).
    #[arg(long, required_unless_present = "write_messages")]
    lang: Option<String>,
    /// A u32le-framed file of messages to use instead of random ones; one per --schema, in
    /// the same order.
    #[arg(long, value_name = "FILE", conflicts_with = "capture")]
    messages: Vec<PathBuf>,
    /// Write the random messages to DIR (`NN-<schema>.u32`, one per --schema) and stop.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["messages", "capture", "lang", "keep"])]
    write_messages: Option<PathBuf>,
    /// A capture (pcap or pcap-ng, plain or gzip) whose messages of the schema to use instead
    /// of random ones; repeat for several (one schema only; needs --profile).
    #[arg(long, value_name = "FILE", requires = "profile")]
    capture: Vec<PathBuf>,
    /// The captures' framing: a profile of `sbekit capture` (cme-mdp3, b3-umdf,
    /// coinbase-derivatives, sofh-le, sofh, optiq-mdg), a TOML file, or `custom`.
    #[arg(short, long)]
    profile: Option<String>,
    /// KEY=VALUE items of a custom profile (with --profile custom).
    #[arg(long = "define", value_name = "KEY=VALUE")]
    define: Vec<String>,
    /// Keep `DIR/<lang>.jsonl`, `DIR/<lang>.reencoded.u32` and the build.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Seed of the random messages.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random messages per message type at the schema's version.
    #[arg(long, default_value_t = 8)]
    per_message: usize,
    /// Check the owned values (`CarOwned`: decoded, then written again by them) instead of
    /// the flyweights.
    #[arg(long, conflicts_with = "and_owned")]
    owned: bool,
    /// Check the flyweights, then the owned values, from one build (a summary line each).
    #[arg(long)]
    and_owned: bool,
}

/// Runs `sbekit conformance`.
pub fn run(args: ConformanceArgs) -> Result<ExitCode, Failure> {
    let lang = match &args.lang {
        Some(l) => l.parse().map_err(Failure::usage)?,
        // Only --write-messages goes without a language: nothing is built.
        None => sbekit_conformance::Lang::Rust,
    };
    let mut opts = sbekit_conformance::Options::new(args.schema, lang);
    opts.seed = args.seed;
    opts.per_message = args.per_message;
    if let Some(dir) = &args.write_messages {
        let files = sbekit_conformance::write_messages(&opts, dir).map_err(failure)?;
        for f in files {
            println!("{}", f.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    opts.messages = args.messages;
    if !args.capture.is_empty() {
        if opts.schemas.len() != 1 {
            return Err(Failure::usage("--capture takes the messages of one schema"));
        }
        let spec = args.profile.as_deref().unwrap_or_default();
        let profile =
            sbekit_feed::profile::Profile::resolve(spec, &args.define).map_err(Failure::usage)?;
        opts.captures = vec![sbekit_conformance::Captures {
            files: args.capture,
            profile,
        }];
    }
    opts.keep = args.keep;
    let views: &[bool] = match (args.and_owned, args.owned) {
        (true, _) => &[false, true],
        (false, owned) => &[owned][..],
    };
    let sums = sbekit_conformance::run_views(&opts, views).map_err(failure)?;
    for sum in &sums {
        for e in &sum.examples {
            eprintln!("{e}");
        }
        println!("{}", sum.line());
    }
    Ok(if sums.iter().all(|s| s.disagreements == 0) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_INVALID)
    })
}

/// A schema that does not load is invalid input (exit 1); the rest are usage or tool errors.
fn failure(e: sbekit_conformance::Error) -> Failure {
    match e {
        sbekit_conformance::Error::Schema(..) => Failure::invalid(e),
        _ => Failure::usage(e),
    }
}
