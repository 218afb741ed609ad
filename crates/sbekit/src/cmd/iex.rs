//! `sbekit iex`: read IEX captures (`stats`), write synthetic ones (`synth`), export them to
//! Parquet or Arrow IPC (`export`, the work is in `sbekit-arrow`).

use super::{is_closed, progress_bar, write_stdout, Failure, Output};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use sbekit_iex::report::{stats_file, stats_json, stats_text, thousands, type_key};
use sbekit_iex::stats::format_utc;
use sbekit_iex::synth::{generate, SynthConfig};
use sbekit_iex::ReadOptions;
use serde_json::json;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `sbekit iex`.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  sbekit iex stats DEEP10.pcap.gz\n  sbekit iex stats --json day.pcap.gz | jq .messages\n  sbekit iex synth --seed 7 --messages 10000000 -o synth.pcapng"
)]
pub struct IexArgs {
    #[command(subcommand)]
    command: IexCommand,
}

#[derive(Subcommand)]
enum IexCommand {
    /// Count the messages of an IEX capture by type, with symbols, time span, heartbeats,
    /// sequence gaps per session and parse throughput.
    Stats(StatsArgs),
    /// Write a deterministic synthetic DEEP capture (pcap-ng) that resembles a trading day.
    Synth(SynthArgs),
    /// Export captures to Parquet (or Arrow IPC): one table per message type, partitioned
    /// by date and type.
    Export(ExportArgs),
}

/// Arguments of `sbekit iex export`.
#[derive(Args)]
#[command(after_help = "\
Writes DIR/date=YYYY-MM-DD/type=TABLE/part-NNNNN.parquet, one table per message type (trade,
price_level_update, quote_update, trading_status, security_directory, auction_information, ...),
with typed columns: timestamp and send_time as Timestamp(ns, UTC), prices as Decimal128(18, 4),
sequence, session_id, stream_offset and segment_offset. The date is the UTC date of the
capture's first segment. DuckDB, Polars and Spark read DIR as one table:

  duckdb -c \"SELECT symbol, sum(size) FROM read_parquet('out/*/type=trade/*.parquet',
             hive_partitioning=true) GROUP BY symbol\"

Captures are streamed (gzip included) in bounded memory; files appear under their final names
only when complete. A corrupt capture ends its read with an error (exit status 1) after writing
everything before it.

Examples:
  sbekit iex export DEEP10.pcap.gz --to parquet out/
  sbekit iex export day1.pcap.gz day2.pcap.gz --to arrow out/")]
pub struct ExportArgs {
    /// Capture files (pcap or pcap-ng, optionally gzip-compressed).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output: `--to parquet DIR` or `--to arrow DIR`.
    #[arg(long, num_args = 2, value_names = ["FORMAT", "DIR"], required = true)]
    to: Vec<String>,
    /// Skip corrupt IEX-TP segments and messages instead of stopping at the first.
    #[arg(long)]
    keep_going: bool,
    /// Rows per Arrow batch.
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    batch_rows: usize,
    #[command(flatten)]
    parquet: super::parquet_args::ParquetArgs,
}

/// Arguments of `sbekit iex stats`.
#[derive(Args)]
#[command(after_help = "\
Reads classic pcap (either byte order, µs or ns) and pcap-ng, plain or gzip-compressed; the
format is found from the file's magic bytes, not its name. Frames may carry 802.1Q VLAN tags.
IEX-TP segments of DEEP 1.0, TOPS 1.6/1.5 and DEEP+ are decoded; unknown message types are
counted, never fatal.

A truncated or corrupt record ends the read: the statistics of everything before it are still
printed, the error (with its byte offset) goes to stderr and the exit status is 1.

Examples:
  sbekit iex stats DEEP10.pcap.gz
  sbekit iex stats --json 20180127_IEXTP1_DEEP1.0.pcap.gz > stats.json
  sbekit iex stats --keep-going damaged.pcap")]
pub struct StatsArgs {
    /// Capture file (pcap or pcap-ng, optionally gzip-compressed).
    file: PathBuf,
    /// Print machine-readable JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,
    /// Skip corrupt IEX-TP segments and messages (counted) instead of stopping at the first.
    #[arg(long)]
    keep_going: bool,
}

/// Arguments of `sbekit iex synth`.
#[derive(Args)]
#[command(after_help = "\
The output depends only on the options: the same seed and counts give byte-identical files on
every machine. The capture holds exactly --messages messages (plus heartbeat segments, which
carry none): an administrative spin over the symbol universe, the system-event timeline of a
trading day, auctions for the test symbols, and continuous trading whose mix, sizes, prices and
packet shapes are calibrated from real IEX samples. Addresses are 239.192.0.4:10378 so a
synthetic file cannot be mistaken for a real feed.

Examples:
  sbekit iex synth --seed 1 --messages 1000000 -o day.pcapng
  sbekit iex synth --seed 7 --messages 50000000 --trade-share 0.05 -o big.pcapng
  sbekit iex synth --messages 1000 -o - | sbekit iex stats /dev/stdin")]
pub struct SynthArgs {
    /// PRNG seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Exact number of messages to write.
    #[arg(long, default_value_t = 1_000_000)]
    messages: u64,
    /// Output file (`-` for stdout).
    #[arg(short, long)]
    output: PathBuf,
    /// Symbol universe size (reduced automatically for small message counts).
    #[arg(long, default_value_t = SynthConfig::default().symbols)]
    symbols: u32,
    /// Share of trade reports among trading messages (0 to 1).
    #[arg(long, default_value_t = SynthConfig::default().trade_share)]
    trade_share: f64,
    /// Trading date, YYYY-MM-DD (session times in US Eastern time).
    #[arg(long, default_value = "2023-10-02", value_parser = parse_date)]
    date: (i32, u32, u32),
    /// Do not write heartbeat segments for idle seconds.
    #[arg(long)]
    no_heartbeats: bool,
    /// Print a JSON summary on stdout (not allowed with `-o -`).
    #[arg(long)]
    json: bool,
}

fn parse_date(s: &str) -> Result<(i32, u32, u32), String> {
    let parts: Vec<&str> = s.split('-').collect();
    let bad = || format!("expected YYYY-MM-DD, got {s:?}");
    if parts.len() != 3 {
        return Err(bad());
    }
    let y: i32 = parts[0].parse().map_err(|_| bad())?;
    let m: u32 = parts[1].parse().map_err(|_| bad())?;
    let d: u32 = parts[2].parse().map_err(|_| bad())?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1970..=9999).contains(&y) {
        return Err(bad());
    }
    Ok((y, m, d))
}

/// Runs `sbekit iex`.
pub fn run(args: IexArgs) -> Result<ExitCode, Failure> {
    match args.command {
        IexCommand::Stats(a) => stats(a),
        IexCommand::Synth(a) => synth(a),
        IexCommand::Export(a) => export(a),
    }
}

fn progress(total: u64, what: &str) -> ProgressBar {
    progress_bar(
        total,
        &format!("{what} [{{bar:40}}] {{bytes}}/{{total_bytes}} {{bytes_per_sec}} eta {{eta}}"),
    )
}

fn stats(a: StatsArgs) -> Result<ExitCode, Failure> {
    let opts = ReadOptions {
        keep_going: a.keep_going,
    };
    let pb = progress(0, "reading");
    let report = stats_file(&a.file, opts, &mut |done, total| {
        pb.set_length(total);
        pb.set_position(done);
    })
    .map_err(|e| {
        let msg = format!("{}: {e}", a.file.display());
        match e.kind {
            sbekit_iex::IexErrorKind::Io(_) => Failure::usage(msg),
            _ => Failure::invalid(msg),
        }
    })?;
    pb.finish_and_clear();
    let out = if a.json {
        let mut v = stats_json(&report);
        v["file"] = json!(a.file.display().to_string());
        serde_json::to_string_pretty(&v)
            .map(|s| s + "\n")
            .unwrap_or_default()
    } else {
        stats_text(&a.file.display().to_string(), &report)
    };
    write_stdout(out.as_bytes())?;
    match &report.error {
        Some(e) => Err(Failure::invalid(format_args!(
            "{}: input ended early: {e} (statistics cover everything before it)",
            a.file.display()
        ))),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Counts bytes written, for the synth progress bar.
struct CountingWriter<W> {
    inner: W,
    pb: ProgressBar,
    n: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.n += k as u64;
        // Cheap enough: indicatif rate-limits drawing.
        if self.n & 0xf_ffff < k as u64 {
            self.pb.set_position(self.n);
        }
        Ok(k)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn synth(a: SynthArgs) -> Result<ExitCode, Failure> {
    if !(0.0..=1.0).contains(&a.trade_share) {
        return Err(Failure::usage("--trade-share must be between 0 and 1"));
    }
    let to_stdout = a.output.as_os_str() == "-";
    if to_stdout && a.json {
        return Err(Failure::usage(
            "--json prints on stdout, so it cannot be used with -o -",
        ));
    }
    let cfg = SynthConfig {
        seed: a.seed,
        messages: a.messages,
        symbols: a.symbols.max(1),
        trade_share: a.trade_share,
        date: a.date,
        heartbeats: !a.no_heartbeats,
        ..SynthConfig::default()
    };
    // About 120 bytes per message in the default profile; only used to scale the bar.
    let pb = progress(a.messages.saturating_mul(120), "writing");
    let start = Instant::now();
    // A file appears only when the whole day is written (an error or ^C leaves none).
    let mut out = Output::create(&a.output)?;
    let result = generate(
        &cfg,
        CountingWriter {
            inner: &mut out,
            pb: pb.clone(),
            n: 0,
        },
    );
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let summary = match result {
        Ok(s) => s,
        // A reader that stops early (`| head -c`) is not an error for a generator.
        Err(e) if is_closed(&e) => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(Failure::usage(format_args!("{}: {e}", a.output.display()))),
    };
    match out.commit() {
        Ok(()) | Err(Failure::Closed) => {}
        Err(f) => return Err(f),
    }
    if a.json {
        let mut by_type = serde_json::Map::new();
        for t in 0..=255u8 {
            let c = summary.by_type[t as usize];
            if c > 0 {
                by_type.insert(type_key(t), json!(c));
            }
        }
        let v = json!({
            "output": a.output.display().to_string(),
            "seed": a.seed,
            "messages": summary.messages,
            "packets": summary.packets,
            "heartbeats": summary.heartbeats,
            "symbols": summary.symbols,
            "bytes": summary.bytes,
            "first_send": format_utc(summary.time_span.0),
            "last_send": format_utc(summary.time_span.1),
            "by_type": by_type,
            "seconds": secs,
        });
        write_stdout(
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default()).as_bytes(),
        )?;
    } else {
        eprintln!(
            "wrote {} messages in {} packets ({} heartbeats), {} symbols, {} bytes to {} in {:.2} s",
            thousands(summary.messages),
            thousands(summary.packets),
            thousands(summary.heartbeats),
            thousands(summary.symbols as u64),
            thousands(summary.bytes),
            a.output.display(),
            secs
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn export(a: ExportArgs) -> Result<ExitCode, Failure> {
    let (mut out, dir) = a.parquet.open(&a.to, super::parquet_args::WRITER_MIB)?;
    let total: u64 = a
        .files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok().map(|m| m.len()))
        .sum();
    let pb = progress_bar(
        total,
        "export [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    );
    let opts = ReadOptions {
        keep_going: a.keep_going,
    };
    let clock = super::clock::CommandClock::whole_command();
    let mut failed = false;
    let mut done = 0u64;
    for path in &a.files {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let r = sbekit_arrow::iex::export_capture(
            path,
            opts,
            a.batch_rows.max(1),
            &mut out,
            &mut |b| pb.set_position(done + b),
        )
        .map_err(|e| Failure::usage(format_args!("{}: {e}", path.display())))?;
        out.close_all().map_err(Failure::usage)?;
        done += size;
        if let Some(e) = &r.error {
            failed = true;
            pb.suspend(|| eprintln!("sbekit iex export: {}: {e}", path.display()));
        }
        if r.message_errors > 0 {
            pb.suspend(|| {
                eprintln!(
                    "sbekit iex export: {}: {} unreadable messages skipped",
                    path.display(),
                    r.message_errors
                )
            });
        }
    }
    pb.finish_and_clear();
    let (rows, files) = out.finish().map_err(Failure::usage)?;
    super::decode::summary("iex export", &rows, files.len(), dir, &clock);
    Ok(if failed {
        ExitCode::from(super::EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}
