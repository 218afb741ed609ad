//! `sbekit shootout`: the binary format shootout on IEX data (see the `sbekit-shootout` crate).

use super::Failure;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sbekit_shootout::bench::{self, Options, Progress};
use sbekit_shootout::codec::Format;
use sbekit_shootout::data::Input;
use sbekit_shootout::report::Summary;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `sbekit shootout`.
#[derive(Args)]
#[command(after_help = "\
For every IEX-TP segment with trade reports or price level updates, each format writes those
messages as one message into a pre-allocated buffer; then the whole buffer is read back message
by message and aggregated per symbol (traded volume, lowest and highest bid and ask). Every
format's aggregates and message counts must equal those computed directly from the IEX
messages, or the run fails (exit status 1).

Figures: per-message latency percentiles (HDR histograms, clock overhead included), sums, and
a throughput pass without per-message clocks; each is the median over --runs, with ratios to
the first format (sbekit SBE by default). Build with --release: debug figures are meaningless.

Examples:
  sbekit shootout
  sbekit shootout --file 20180127_IEXTP1_DEEP1.0.pcap.gz --messages 50000000 --out results
  sbekit shootout --formats sbe,flatbuffers,protobuf --runs 9 --pin 1 --json > run.json")]
pub struct ShootoutArgs {
    /// IEX capture to read (pcap or pcap-ng, plain or gzip). Without it, the built-in
    /// synthetic DEEP day is generated in memory.
    #[arg(long, value_name = "CAPTURE")]
    file: Option<PathBuf>,
    /// Size of the built-in day in IEX messages; with --file, read at most this many.
    #[arg(long, value_name = "N")]
    messages: Option<u64>,
    /// Seed of the built-in day.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Formats to run, comma separated, in report order (the first is the ratio baseline).
    #[arg(long, value_delimiter = ',', value_parser = parse_format, value_name = "LIST",
          default_values_t = Format::ALL.to_vec())]
    formats: Vec<Format>,
    /// Measured runs; figures are medians over them.
    #[arg(long, default_value_t = 5, value_name = "N")]
    runs: usize,
    /// Skip the untimed warm-up pass.
    #[arg(long)]
    no_warmup: bool,
    /// Pin the measuring thread to this CPU.
    #[arg(long, value_name = "CPU")]
    pin: Option<usize>,
    /// Trades and updates held in memory at once; bigger inputs are processed in chunks.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    chunk: usize,
    /// Write shootout.json, shootout.txt and the latency chart shootout.svg into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON report on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_id(s).ok_or_else(|| {
        let ids: Vec<_> = Format::ALL.iter().map(|f| f.id()).collect();
        format!("unknown format {s:?}; known: {}", ids.join(", "))
    })
}

/// A progress bar on stderr when it is a terminal.
struct Bar {
    bar: Option<ProgressBar>,
}

impl Progress for Bar {
    fn chunk(&mut self, index: u64, steps: u64) {
        if let Some(b) = &self.bar {
            b.set_length(b.position() + steps);
            b.set_prefix(format!("chunk {}", index + 1));
        }
    }
    fn step(&mut self, format: Format, run: usize) {
        if let Some(b) = &self.bar {
            b.set_message(if run == 0 {
                format!("{} warm-up done", format.id())
            } else {
                format!("{} run {run} done", format.id())
            });
            b.inc(1);
        }
    }
}

/// Runs `sbekit shootout`.
pub fn run(args: ShootoutArgs) -> Result<ExitCode, Failure> {
    // The shootout's failures are bad arguments, unreadable input, or a format disagreeing
    // with the direct computation (its correctness gate): all reported the same way.
    run_inner(args).map_err(Failure::invalid)?;
    Ok(ExitCode::SUCCESS)
}

fn run_inner(args: ShootoutArgs) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!(
            "sbekit shootout: warning: this is a debug build; run with `cargo run --release` \
             for meaningful figures"
        );
    }
    let (input, limit) = match &args.file {
        Some(p) => (Input::File(p.clone()), args.messages),
        None => {
            let mut input = Input::synthetic(args.messages.unwrap_or(1_000_000));
            if let Input::Synthetic(c) = &mut input {
                c.seed = args.seed;
            }
            (input, None)
        }
    };
    if let Some(cpu) = args.pin {
        bench::pin_to_cpu(cpu).map_err(|e| e.to_string())?;
    }
    let opts = Options {
        formats: args.formats.clone(),
        runs: args.runs,
        warmup: !args.no_warmup,
        limit,
        chunk_entries: args.chunk.max(1),
        latency: true,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_prefix("reading input");
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    let mut progress = Bar { bar };
    let outcome = bench::run(&input, &opts, &mut progress);
    if let Some(b) = &progress.bar {
        b.finish_and_clear();
    }
    let outcome = outcome.map_err(|e| e.to_string())?;
    let summary = Summary::new(input.describe(), &opts, &outcome, args.pin);
    let table = summary.to_table();
    let json = summary.to_json();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let write = |name: &str, text: &str| {
            let p = dir.join(name);
            sbekit_fs::write(&p, text.as_bytes()).map_err(|e| format!("{}: {e}", p.display()))
        };
        write("shootout.json", &json)?;
        write("shootout.txt", &table)?;
        write("shootout.svg", &sbekit_shootout::chart::svg(&summary)?)?;
    }
    let mut out = std::io::stdout().lock();
    let text = if args.json { json + "\n" } else { table };
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    Ok(())
}
