//! `sbekit compat`: is a new schema version compatible with an old one?

use super::{write_stdout, Failure, EXIT_INVALID};
use clap::{Args, ValueEnum};
use sbekit_compat::{
    oracle, rules, Direction, Effect, LoadError, Options, OracleError, Severity, Tier, Verdict,
};
use std::process::ExitCode;

/// Messages per message type and way when `--explain` runs the oracle.
const EXPLAIN_MESSAGES: usize = 1000;

/// Compare two versions of a schema and report what breaks readers on either side.
#[derive(Args)]
#[command(after_help = "\
Each side is an XML schema, a .sbeir file, or git:REV:path (read with `git show`, not checked
out; XIncluded files are read from the same revision).

Directions: backward = new readers read old messages; forward = old readers read new messages.
Exit status: 0 compatible, 1 breaking (or warnings with -W) or an invalid schema, 2 usage or
I/O errors (a file or git revision that cannot be read).

Examples:
  sbekit compat old.xml new.xml
  sbekit compat git:main:schemas/md.xml schemas/md.xml --direction backward
  sbekit compat --tier api --json old.xml new.xml
  sbekit compat --explain old.xml new.xml     # run messages across the versions, show one
  sbekit compat --list-rules")]
pub struct CompatArgs {
    /// The old schema.
    #[arg(value_name = "OLD", required_unless_present = "list_rules")]
    old: Option<String>,
    /// The new schema.
    #[arg(value_name = "NEW", required_unless_present = "list_rules")]
    new: Option<String>,
    /// `wire`: what breaks bytes; `api`: also what breaks generated code (renames, types).
    #[arg(long, value_enum, default_value = "wire")]
    tier: TierArg,
    /// Which readers to protect.
    #[arg(long, value_enum, default_value = "full")]
    direction: DirectionArg,
    /// Warnings are fatal (exit 1).
    #[arg(short = 'W')]
    warnings_fatal: bool,
    /// Machine-readable output on stdout.
    #[arg(long)]
    json: bool,
    /// Run the execution oracle (1,000 random messages per type and way) and print a
    /// counterexample for a breaking verdict: the bytes and what each side decodes.
    #[arg(long)]
    explain: bool,
    /// List the rules and exit.
    #[arg(long)]
    list_rules: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum TierArg {
    Wire,
    Api,
}

#[derive(Clone, Copy, ValueEnum)]
enum DirectionArg {
    Backward,
    Forward,
    Full,
}

fn load_failure(e: LoadError) -> Failure {
    if e.is_invalid_schema() {
        Failure::invalid(e)
    } else {
        Failure::usage(e)
    }
}

/// Runs `sbekit compat`.
pub fn run(args: CompatArgs) -> Result<ExitCode, Failure> {
    if args.list_rules {
        list_rules(args.json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(old), Some(new)) = (&args.old, &args.new) else {
        return Err(Failure::usage("compat: OLD and NEW are required"));
    };
    // A side that is not a valid schema is invalid input (exit 1, as for `check`); one that
    // cannot be read (a missing file, a bad git revision) is an I/O error (exit 2).
    let old = sbekit_compat::load(old).map_err(load_failure)?;
    let new = sbekit_compat::load(new).map_err(load_failure)?;
    let options = Options {
        tier: match args.tier {
            TierArg::Wire => Tier::Wire,
            TierArg::Api => Tier::Api,
        },
        direction: match args.direction {
            DirectionArg::Backward => Direction::Backward,
            DirectionArg::Forward => Direction::Forward,
            DirectionArg::Full => Direction::Full,
        },
    };
    let report = sbekit_compat::check(&old, &new, &options);
    let proof = if args.explain {
        Some(
            oracle::run(&old, &new, &report.comparison.renames, EXPLAIN_MESSAGES, 1).map_err(
                |e| match e {
                    OracleError::Decoder { .. } => Failure::invalid(e),
                    e => Failure::usage(e),
                },
            )?,
        )
    } else {
        None
    };
    if args.json {
        let v = serde_json::json!({
            "old": old.label,
            "new": new.label,
            "tier": options.tier,
            "direction": options.direction,
            "verdict": report.verdict,
            "diagnostics": report.diagnostics,
            "oracle": proof,
        });
        let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
        text.push('\n');
        write_stdout(text.as_bytes())?;
    } else {
        for d in &report.diagnostics {
            eprintln!("{d}");
        }
        let count = |s| {
            report
                .diagnostics
                .iter()
                .filter(|d| d.severity == s)
                .count()
        };
        eprintln!(
            "{}: {} error(s), {} warning(s), {} compatible change(s)",
            match report.verdict {
                Verdict::Compatible => "compatible",
                Verdict::Warnings => "compatible with warnings",
                Verdict::Breaking => "breaking",
            },
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Note)
        );
        if let Some(p) = &proof {
            explain(p, options.direction, report.verdict);
        }
    }
    let fatal = report.verdict == Verdict::Breaking
        || (args.warnings_fatal && report.verdict == Verdict::Warnings);
    Ok(if fatal {
        ExitCode::from(EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}

fn explain(p: &oracle::OracleReport, direction: Direction, verdict: Verdict) {
    let ways = match direction {
        Direction::Backward => vec![&p.backward],
        Direction::Forward => vec![&p.forward],
        Direction::Full => vec![&p.backward, &p.forward],
    };
    let worst = sbekit_compat::oracle_effect(p, direction);
    eprintln!(
        "oracle: {} messages run; {}",
        ways.iter().map(|w| w.messages).sum::<usize>(),
        match worst {
            Effect::Ok => "no difference in any shared element",
            Effect::Warn => "readers meet values they do not know (warning)",
            Effect::Break => "a shared element decodes differently (breaking)",
        }
    );
    let agrees = match verdict {
        Verdict::Breaking => worst == Effect::Break,
        _ => worst != Effect::Break,
    };
    if !agrees {
        eprintln!("oracle: DISAGREES with the rules' verdict; please report this schema pair");
    }
    for w in ways {
        if let Some(c) = &w.counterexample {
            let way = match c.way {
                oracle::Way::Backward => "new reader, old writer",
                oracle::Way::Forward => "old reader, new writer",
            };
            eprintln!(
                "counterexample ({way}): message '{}' written at version {}, {} bytes:",
                c.message,
                c.writer_version,
                c.bytes.len()
            );
            for chunk in c.bytes.chunks(16) {
                let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
                eprintln!("  {}", hex.join(" "));
            }
            if !c.path.is_empty() {
                eprintln!(
                    "  at {}: writer wrote {}, reader read {}",
                    c.path, c.writer, c.reader
                );
            } else {
                eprintln!("  reader fails: {}", c.reader);
            }
            eprintln!("  writer decodes: {}", c.writer_json);
            eprintln!("  reader decodes: {}", c.reader_json);
        }
    }
}

fn list_rules(json: bool) -> Result<(), Failure> {
    if json {
        let mut out = serde_json::to_string_pretty(rules::ALL).unwrap_or_default();
        out.push('\n');
        write_stdout(out.as_bytes())?;
        return Ok(());
    }
    let e = |x: Effect| match x {
        Effect::Ok => "ok",
        Effect::Warn => "warn",
        Effect::Break => "BREAK",
    };
    let mut out = format!(
        "{:<30} {:<5} {:<9} {:<8} explanation [specification]\n",
        "rule", "tier", "backward", "forward"
    );
    for r in rules::ALL {
        let tier = match r.tier {
            Tier::Wire => "wire",
            Tier::Api => "api",
        };
        out.push_str(&format!(
            "{:<30} {:<5} {:<9} {:<8} {} [{}]\n",
            r.name,
            tier,
            e(r.backward),
            e(r.forward),
            r.summary,
            r.spec
        ));
    }
    write_stdout(out.as_bytes())?;
    Ok(())
}
