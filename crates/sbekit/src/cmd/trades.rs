//! `sbekit trades`: the trade store (CSV trades to fixed-size SBE records, memory-mapped
//! queries, Parquet export).

use super::{Failure, Output};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::ProgressBar;
use sbekit_trades::convert::{convert, ConvertOptions};
use sbekit_trades::file::{verify, TradeFile};
use sbekit_trades::mem::MemStats;
use sbekit_trades::query::{self, Kernel};
use sbekit_trades::results::{self, HardWriter};
use sbekit_trades::synth::{self, SynthConfig};
use sbekit_trades::{export, stats, Error, LayoutKind};
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `sbekit trades`.
#[derive(Args)]
#[command(after_help = "\
A trade file is a 64-byte header (magic SBETRADE, format version, schema id and version, layout,
record size, record count, time range, CRC-32 of the records and of the header) followed by
fixed-size records described by schemas/trades.xml: 40-byte lossless records (the default) or
32-byte compact ones (server time as a millisecond delta from time).

Example session:
  sbekit trades synth --rows 10000000 --seed 1 -o trades.csv
  sbekit trades convert trades.csv -o trades.sbe
  sbekit trades verify trades.sbe
  sbekit trades query easy trades.sbe > easy.csv
  sbekit trades query hard --threads 2 trades.sbe > hard.csv
  sbekit trades stats trades.sbe
  sbekit trades export --parquet trades.sbe -o trades.parquet")]
pub struct TradesArgs {
    #[command(subcommand)]
    command: TradesCommand,
}

#[derive(Subcommand)]
enum TradesCommand {
    /// Write deterministic synthetic trades as CSV (time,amount,exch,price,server_time,side,ticker).
    Synth(SynthArgs),
    /// Convert trades from CSV to a trade file (streaming, constant memory).
    Convert(ConvertArgs),
    /// Check trade files: header, size, checksum, record codes, time order.
    Verify(VerifyArgs),
    /// Run the easy or hard query; CSV on stdout, timing and memory on stderr.
    Query(QueryArgs),
    /// Count rows per exchange and ticker (CSV on stdout).
    Stats(StatsArgs),
    /// Write a trade file's records as Parquet (for DuckDB, Polars, Spark, DataFusion) or CSV.
    Export(ExportArgs),
    /// Measure the baselines the queries are compared with: the memory-bandwidth scan (sum one
    /// u64 per record over the map) or, with --csv, a bare scan of a CSV file with the csv crate.
    Baseline(BaselineArgs),
}

/// Arguments of `sbekit trades synth`.
#[derive(Args)]
#[command(after_help = "\
The output depends only on the options. Times are ascending nanoseconds; 8 exchanges (gdax,
bmex, btfx, bnce, okex, bits, plnx, krkn) and 6 tickers (btc_usd, eth_usd, ltc_usd, bch_usd,
xrp_usd, eth_btc) in a fixed mix; prices follow a random walk per ticker with per-exchange
premiums; exchanges have outages (no trades for 10 minutes to 3 hours); server_time is 0 when
an exchange sends none.

Examples:
  sbekit trades synth --rows 100000000 --seed 1 -o trades.csv
  sbekit trades synth --rows 1000 -o - | head")]
pub struct SynthArgs {
    /// Number of rows.
    #[arg(long, default_value_t = 1_000_000)]
    rows: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mean trades per second.
    #[arg(long, default_value_t = SynthConfig::default().rate)]
    rate: f64,
    /// Start time in nanoseconds since the epoch (default 2018-01-01T00:00:00Z).
    #[arg(long, default_value_t = SynthConfig::default().start_ns)]
    start_ns: u64,
    /// Output CSV file (`-` for stdout).
    #[arg(short, long)]
    output: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    /// 40-byte records, every value kept exactly.
    Lossless,
    /// 32-byte records; server time kept to the millisecond, within about 24.8 days of time.
    Compact,
}

/// Arguments of `sbekit trades convert`.
#[derive(Args)]
#[command(after_help = "\
Rows must be in time order. A malformed row stops the conversion with its line number and the
reason, and no output file is left; with --skip-invalid such rows are skipped, counted and the
first few reasons printed. The record count always equals the rows accepted. The output appears
only when complete (written to a hidden .NAME.XXXXXX.tmp, synced, then renamed).

Examples:
  sbekit trades convert trades.csv -o trades.sbe
  sbekit trades convert --layout compact --skip-invalid dirty.csv -o trades32.sbe")]
pub struct ConvertArgs {
    /// Input CSV (`-` for stdin).
    input: PathBuf,
    /// Output trade file.
    #[arg(short, long)]
    output: PathBuf,
    /// Record layout.
    #[arg(long, value_enum, default_value = "lossless")]
    layout: LayoutArg,
    /// Skip malformed rows (counted and reported) instead of stopping at the first.
    #[arg(long)]
    skip_invalid: bool,
    /// Testing aid: abort the process (as a crash would) once this many rows have been read.
    #[arg(long, hide = true)]
    crash_after_rows: Option<u64>,
}

/// Arguments of `sbekit trades verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Trade files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Which {
    /// Every hour: bmex/gdax btc_usd VWAP ratio.
    Easy,
    /// Every 10 s: the ratio over trailing 5, 15 and 60 minutes.
    Hard,
}

#[derive(Clone, Copy, ValueEnum)]
enum KernelArg {
    /// Masked-integer compare and 0/1 multipliers.
    Branchless,
    /// `match` on decoded enums.
    Branchy,
}

/// Arguments of `sbekit trades query`.
#[derive(Args)]
#[command(after_help = "\
easy: for every hour from the first trade's to the last one's, the ratio of bmex's to gdax's
volume-weighted average btc_usd price; columns hour (ns at the start of the hour), ratio.
hard: every 10 seconds, that ratio over the trailing 5, 15 and 60 minutes; columns time (ns at
the end of the step; windows cover time-w <= t < time), ratio_5m, ratio_15m, ratio_60m.
NaN where a side has no trade; no gaps in time. Elapsed time, rows/s and peak memory go to
stderr. With --csv the same query runs over a CSV file (the yardstick the trade file beats).

Examples:
  sbekit trades query easy trades.sbe
  sbekit trades query hard --threads 2 trades.sbe > hard.csv
  sbekit trades query easy --csv trades.csv")]
pub struct QueryArgs {
    /// Which query.
    #[arg(value_enum)]
    which: Which,
    /// Trade file (or CSV file with --csv).
    file: PathBuf,
    /// Threads; each scans a contiguous part of the file.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Inner loop of the easy query.
    #[arg(long, value_enum, default_value = "branchless")]
    kernel: KernelArg,
    /// Read a CSV file instead of a trade file (one thread).
    #[arg(long)]
    csv: bool,
}

/// Arguments of `sbekit trades stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// Trade file.
    file: PathBuf,
}

/// Arguments of `sbekit trades export`.
#[derive(Args)]
#[command(after_help = "\
--parquet writes the CSV's columns under the same names (time and server_time as Int64
nanoseconds, server_time null where the CSV has 0; exch, side and ticker as dictionary-encoded
strings), snappy-compressed, in row groups of 1048576 rows, so the same SQL runs over the CSV
and the Parquet file. --csv writes the CSV schema back (a lossless file gives back exactly what
synth wrote). Files are written to a hidden .NAME.XXXXXX.tmp and renamed when complete.

Examples:
  sbekit trades export --parquet trades.sbe -o trades.parquet
  sbekit trades export --csv trades.sbe -o - | head")]
pub struct ExportArgs {
    /// Trade file.
    file: PathBuf,
    /// Write Parquet.
    #[arg(long, conflicts_with = "csv", required_unless_present = "csv")]
    parquet: bool,
    /// Write CSV.
    #[arg(long)]
    csv: bool,
    /// Output file (`-` for stdout, CSV only).
    #[arg(short, long)]
    output: PathBuf,
}

/// Arguments of `sbekit trades baseline`.
#[derive(Args)]
pub struct BaselineArgs {
    /// Trade file (or CSV file with --csv).
    file: PathBuf,
    /// Threads (trade files only).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Bare CSV scan with the csv crate instead.
    #[arg(long)]
    csv: bool,
}

/// Runs `sbekit trades`.
pub fn run(args: TradesArgs) -> Result<ExitCode, Failure> {
    let r = match args.command {
        TradesCommand::Synth(a) => run_synth(a),
        TradesCommand::Convert(a) => run_convert(a),
        TradesCommand::Verify(a) => return Ok(run_verify(a)),
        TradesCommand::Query(a) => run_query(a),
        TradesCommand::Stats(a) => run_stats(a),
        TradesCommand::Export(a) => run_export(a),
        TradesCommand::Baseline(a) => run_baseline(a),
    };
    match r {
        Ok(()) | Err(Failure::Closed) => Ok(ExitCode::SUCCESS),
        Err(f) => Err(f),
    }
}

fn bar(total: u64, template: &str) -> ProgressBar {
    super::progress_bar(total, template)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        n as f64 / secs
    } else {
        f64::INFINITY
    }
}

fn memory() -> String {
    match MemStats::now() {
        Some(m) => format!(
            "peak RSS {:.1} MB (now: {:.1} MB heap/stack, {:.1} MB mapped file and code)",
            mb(m.peak_rss),
            mb(m.anon),
            mb(m.file)
        ),
        None => "peak memory not available on this platform".into(),
    }
}

fn run_synth(a: SynthArgs) -> Result<(), Failure> {
    let cfg = SynthConfig {
        rows: a.rows,
        seed: a.seed,
        rate: a.rate,
        start_ns: a.start_ns,
    };
    if !(cfg.rate.is_finite() && cfg.rate > 0.0) {
        return Err(Failure::invalid(format_args!(
            "--rate must be a positive number, got {}",
            a.rate
        )));
    }
    let mut out = Output::create(&a.output)?;
    let pb = bar(
        a.rows,
        "synth [{bar:40}] {human_pos}/{human_len} rows {per_sec} eta {eta}",
    );
    let start = Instant::now();
    let bytes = synth::write_csv(&cfg, &mut out, &mut |n| pb.set_position(n))
        .map_err(|e| Failure::from(Error::io(&a.output, e)))?;
    out.commit()?;
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "synth: {} rows, {:.1} MB in {secs:.2} s ({:.2} M rows/s)",
        a.rows,
        mb(bytes),
        rate(a.rows, secs) / 1e6
    );
    Ok(())
}

fn run_convert(a: ConvertArgs) -> Result<(), Failure> {
    let opts = ConvertOptions {
        layout: match a.layout {
            LayoutArg::Lossless => LayoutKind::Lossless,
            LayoutArg::Compact => LayoutKind::Compact,
        },
        skip_invalid: a.skip_invalid,
        keep_reasons: 5,
    };
    let total = std::fs::metadata(&a.input).map(|m| m.len()).unwrap_or(0);
    let pb = bar(
        total,
        "convert [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    );
    let crash = a.crash_after_rows;
    let start = Instant::now();
    let rep = convert(&a.input, &a.output, &opts, &mut |bytes, rows| {
        pb.set_position(bytes);
        if crash.is_some_and(|n| rows >= n) {
            std::process::abort();
        }
    });
    pb.finish_and_clear();
    let rep = rep?;
    let secs = start.elapsed().as_secs_f64();
    let h = rep.header;
    eprintln!(
        "convert: {} rows read, {} written, {} skipped in {secs:.2} s: {:.2} M rows/s, {:.1} MB/s \
         of CSV; {} ({} layout, {} B/record, {:.1} MB)",
        rep.rows,
        h.record_count,
        rep.skipped,
        rate(rep.rows, secs) / 1e6,
        rate(rep.bytes_in, secs) / 1e6,
        a.output.display(),
        h.layout,
        h.record_size,
        mb(rep.bytes_out)
    );
    for s in &rep.first_skipped {
        eprintln!(
            "convert: skipped {}: line {}: {}",
            a.input.display(),
            s.line,
            s.reason
        );
    }
    if rep.skipped > rep.first_skipped.len() as u64 {
        eprintln!(
            "convert: ... and {} more skipped rows",
            rep.skipped - rep.first_skipped.len() as u64
        );
    }
    Ok(())
}

fn run_verify(a: VerifyArgs) -> ExitCode {
    let mut ok = true;
    for f in &a.files {
        match verify(f) {
            Ok(r) => {
                let h = r.header;
                println!(
                    "{}: ok: format {}, schema {} v{}, {} layout ({} B/record), {} records, \
                     time {}..{}, records CRC-32 {:#010x}",
                    f.display(),
                    h.format_version,
                    h.schema_id,
                    h.schema_version,
                    h.layout,
                    h.record_size,
                    h.record_count,
                    h.time_min,
                    h.time_max,
                    h.records_crc32
                );
            }
            Err(e) => {
                ok = false;
                eprintln!("sbekit: error: {e}");
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_INVALID)
    }
}

fn report(what: &str, rows: u64, bytes: u64, secs: f64, out_rows: u64, threads: usize) {
    eprintln!(
        "{what}: {rows} rows in {secs:.3} s: {:.1} M rows/s, {:.2} GB/s; {out_rows} result rows; \
         {threads} thread(s); {}",
        rate(rows, secs) / 1e6,
        rate(bytes, secs) / 1e9,
        memory()
    );
}

/// A failed write to stdout, as the library's error (a closed pipe stays recognizable).
fn stdout_err(e: io::Error) -> Error {
    Error::Io {
        path: "<stdout>".into(),
        source: e,
    }
}

fn run_query(a: QueryArgs) -> Result<(), Failure> {
    let threads = a.threads.max(1);
    let kernel = match a.kernel {
        KernelArg::Branchless => Kernel::Branchless,
        KernelArg::Branchy => Kernel::Branchy,
    };
    let name = match a.which {
        Which::Easy => "query easy",
        Which::Hard => "query hard",
    };
    let start = Instant::now();
    if a.csv {
        if threads > 1 {
            return Err(Failure::invalid(
                "--threads needs a trade file (CSV is read on one thread)",
            ));
        }
        let bytes = std::fs::metadata(&a.file).map(|m| m.len()).unwrap_or(0);
        let (rows, out_rows) = match a.which {
            Which::Easy => {
                let (res, n) = query::easy_csv(&a.file)?;
                results::write_easy(&res, io::stdout().lock()).map_err(Failure::output)?;
                (n, res.len() as u64)
            }
            Which::Hard => {
                let mut w = HardWriter::new(io::stdout().lock()).map_err(Failure::output)?;
                let n = query::hard_csv(&a.file, &mut |b| w.write(b).map_err(stdout_err))?;
                (n, w.finish().map_err(Failure::output)?)
            }
        };
        report(
            &format!("{name} (CSV)"),
            rows,
            bytes,
            start.elapsed().as_secs_f64(),
            out_rows,
            1,
        );
        return Ok(());
    }
    let f = TradeFile::open(&a.file)?;
    let (rows, bytes) = (f.len(), f.header().file_size());
    let out_rows = match a.which {
        Which::Easy => {
            let res = query::easy(&f, threads, kernel)?;
            results::write_easy(&res, io::stdout().lock()).map_err(Failure::output)?;
            res.len() as u64
        }
        Which::Hard => {
            let mut w = HardWriter::new(io::stdout().lock()).map_err(Failure::output)?;
            query::hard(&f, threads, &mut |b| w.write(b).map_err(stdout_err))?;
            w.finish().map_err(Failure::output)?
        }
    };
    report(
        name,
        rows,
        bytes,
        start.elapsed().as_secs_f64(),
        out_rows,
        threads,
    );
    Ok(())
}

fn run_stats(a: StatsArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let f = TradeFile::open(&a.file)?;
    let st = stats::stats(&f)?;
    results::write_stats(&st, io::stdout().lock()).map_err(Failure::output)?;
    let h = f.header();
    eprintln!(
        "stats: {} rows, {} layout, time {}..{}, {} exchange/ticker pairs",
        st.rows,
        h.layout,
        h.time_min,
        h.time_max,
        st.counts.len()
    );
    report(
        "stats",
        st.rows,
        h.file_size(),
        start.elapsed().as_secs_f64(),
        st.counts.len() as u64,
        1,
    );
    Ok(())
}

fn run_export(a: ExportArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let f = TradeFile::open(&a.file)?;
    let n = if a.parquet {
        if a.output == Path::new("-") {
            return Err(Failure::invalid(
                "Parquet cannot be written to stdout; name a file with -o",
            ));
        }
        let pb = bar(
            f.len(),
            "export [{bar:40}] {human_pos}/{human_len} rows {per_sec} eta {eta}",
        );
        let n = sbekit_arrow::trades::to_parquet(&f, &a.output, &mut |rows| pb.set_position(rows));
        pb.finish_and_clear();
        n?
    } else {
        let mut out = Output::create(&a.output)?;
        let n = export::to_csv(&f, &mut out)?;
        out.commit()?;
        n
    };
    let secs = start.elapsed().as_secs_f64();
    let size = std::fs::metadata(&a.output).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "export: {n} rows to {} ({:.1} MB) in {secs:.2} s ({:.2} M rows/s)",
        a.output.display(),
        mb(size),
        rate(n, secs) / 1e6
    );
    Ok(())
}

fn run_baseline(a: BaselineArgs) -> Result<(), Failure> {
    let start = Instant::now();
    if a.csv {
        let bytes = std::fs::metadata(&a.file).map(|m| m.len()).unwrap_or(0);
        let n = query::baseline_csv(&a.file)?;
        println!("{n}");
        report(
            "baseline (bare CSV scan)",
            n.saturating_sub(1),
            bytes,
            start.elapsed().as_secs_f64(),
            1,
            1,
        );
        return Ok(());
    }
    let threads = a.threads.max(1);
    let f = TradeFile::open(&a.file)?;
    let sum = query::baseline(&f, threads)?;
    println!("{sum}");
    report(
        "baseline (sum one u64 per record)",
        f.len(),
        f.header().file_size(),
        start.elapsed().as_secs_f64(),
        1,
        threads,
    );
    Ok(())
}
