//! `sbekit capture`: SBE market-data captures through a framing profile (`stats`, `decode`,
//! `export`) and synthetic ones (`synth`). The work is in `sbekit-feed` and `sbekit-arrow`.

use super::{write_stdout, Failure, EXIT_INVALID};
use clap::{Args, Subcommand};
use sbekit_feed::json::JsonLines;
use sbekit_feed::profile::Profile;
use sbekit_feed::read::{
    Channel, FeedMessage, HeadersOnly, PacketMeta, ReadOptions, Reader, Sink, Validate,
};
use sbekit_feed::stats::Stats;
use sbekit_feed::synth::{generate, SynthConfig};
use sbekit_ir::layout::Layout;
use sbekit_otf::{DecodeError, Decoder};
use std::io::{self, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `sbekit capture`.
#[derive(Args)]
#[command(after_help = "\
Profiles (--profile): cme-mdp3 (UDP, and TCP recovery packets starting 0xCAFE), b3-umdf,
coinbase-derivatives, sofh-le (TCP stream: CME iLink 3, B3 EntryPoint), sofh (FIX SOFH,
big-endian, TCP stream), optiq-mdg (Euronext, LZ4 packets); a TOML file describing a custom
one; or `custom` with --define KEY=VALUE items (header_size, seq=OFFSET:WIDTH,
time=OFFSET:WIDTH, length_width, length_counts_itself, before_sbe, big_endian, transport).
Layouts and sources: `cargo doc -p sbekit-feed` (module `profile`) and docs/guide/captures.md.

Examples:
  sbekit capture synth --profile cme-mdp3 --schema mdp3.xml --messages 100000 --gaps 3 -o a.pcapng
  sbekit capture stats --profile cme-mdp3 --schema mdp3.xml a.pcapng
  sbekit capture decode --profile b3-umdf --schema umdf.xml feed.pcap | jq .
  sbekit capture export --profile cme-mdp3 --schema mdp3.xml --to parquet out/ a.pcapng
  sbekit capture stats --arbitrate --profile cme-mdp3 --schema mdp3.xml a.pcapng b.pcapng")]
pub struct CaptureArgs {
    #[command(subcommand)]
    command: CaptureCommand,
}

#[derive(Subcommand)]
enum CaptureCommand {
    /// Packets and messages per template and per channel, sequence gaps and duplicates, time
    /// span, bad packets and throughput.
    Stats(StatsArgs),
    /// JSON lines: each message as `sbekit decode` prints it, plus the packet columns
    /// _capture_time, _channel, _seq, _sending_time and _msg_index.
    Decode(ReadArgs),
    /// Write a deterministic synthetic capture (pcap-ng) of random valid messages.
    Synth(SynthArgs),
    /// Parquet (or Arrow IPC) tables, one per template, partitioned by date and channel, with
    /// the header and packet columns; price composites with a constant exponent as decimals.
    Export(ExportArgs),
}

/// Arguments of `sbekit capture export`.
#[derive(Args)]
#[command(after_help = "\
Writes DIR/date=YYYY-MM-DD/channel=ADDR_PORT/type=MESSAGE/part-NNNNN.parquet (the date is the
packet's capture date, UTC). Columns: the header columns, the message's fields (as `sbekit
decode --to parquet` maps them; a composite of a mantissa and a constant exponent becomes
Decimal128(38, -exponent)), then _capture_time, _channel, _seq, _sending_time, _msg_index.
Files appear under their final names only when complete.

  duckdb -c \"SELECT count(*) FROM read_parquet('out/**/type=MDIncrementalRefreshBook46/*.parquet',
             hive_partitioning=true)\"")]
struct ExportArgs {
    #[command(flatten)]
    read: ReadArgs,
    /// Output: `--to parquet DIR` or `--to arrow DIR`.
    #[arg(long, num_args = 2, value_names = ["FORMAT", "DIR"], required = true)]
    to: Vec<String>,
    /// Messages per Arrow batch.
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    batch_rows: usize,
    /// A table's batch is also cut when its messages hold this many MiB (each of the up to
    /// 31 tables of a partition holds one batch in memory while it fills, so this and
    /// --writer-memory bound the memory; larger batches write slightly faster).
    #[arg(long, value_name = "MIB", default_value_t = 4)]
    batch_memory: usize,
    /// The memory the export stays within, in MiB: its peak resident set does not grow with
    /// the capture (default 256; measured 175-240 MiB on CME MDP3 captures of 2 to 20
    /// million messages, 0.23 to 2.3 GB, of uncompressed pcap; a gzip capture is inflated
    /// into memory first). An eighth goes to rows staged in all tables together (the largest
    /// tables' batches are cut early past it), a quarter to open Parquet row groups (unless
    /// --writer-memory says otherwise), an eighth of that to what the files keep for their
    /// footers (past it a file is completed and the table goes on in part-00001...), a
    /// thirty-second to capture pages behind the reader; the rest is the writer's per-column
    /// state and the batches in flight. Below about 128 those fixed costs dominate.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    memory: usize,
    #[command(flatten)]
    parquet: super::parquet_args::ParquetArgs,
}

/// The framing profile.
#[derive(Args)]
struct ProfileArgs {
    /// The framing profile: a built-in name, a TOML file, or `custom` (with --define).
    #[arg(short, long)]
    profile: String,
    /// KEY=VALUE items of a custom profile (with --profile custom).
    #[arg(long = "define", value_name = "KEY=VALUE")]
    define: Vec<String>,
}

impl ProfileArgs {
    fn resolve(&self) -> Result<Profile, Failure> {
        Profile::resolve(&self.profile, &self.define).map_err(Failure::usage)
    }
}

/// What reading a capture needs.
#[derive(Args)]
struct ReadArgs {
    #[command(flatten)]
    profile: ProfileArgs,
    /// The schema: XML or `.sbeir`.
    #[arg(short, long)]
    schema: PathBuf,
    /// Capture files (pcap or pcap-ng, plain or gzip).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Merge the inputs as A and B feeds by sequence number (two files, or the channels of
    /// one file): each packet once; the stats say which side brought it and what neither had.
    #[arg(long)]
    arbitrate: bool,
    /// Exit with status 1 if any packet or message was bad (default: report and go on).
    #[arg(long)]
    strict: bool,
    /// Bad packets listed with their location (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    show_bad: usize,
}

/// Arguments of `sbekit capture stats`.
#[derive(Args)]
struct StatsArgs {
    #[command(flatten)]
    read: ReadArgs,
    /// Print JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also decode every message body (slower); by default framing and SBE headers are
    /// checked (lengths chain, schema id, known template) and bodies are not walked.
    #[arg(long)]
    validate: bool,
}

/// Arguments of `sbekit capture synth`.
#[derive(Args)]
#[command(after_help = "\
The output depends only on the options: the same seed gives the same messages, whatever is
dropped or duplicated, so two runs with different --drop lists are the A and B sides of one feed.")]
struct SynthArgs {
    #[command(flatten)]
    profile: ProfileArgs,
    /// The schema whose messages are written.
    #[arg(short, long)]
    schema: PathBuf,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
    /// Messages in all.
    #[arg(long, default_value_t = 10_000)]
    messages: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Most messages per packet.
    #[arg(long, default_value_t = 4)]
    max_per_packet: usize,
    /// Drop this many packets, evenly spread (sequence gaps).
    #[arg(long, default_value_t = 0)]
    gaps: u64,
    /// Send this many packets twice, evenly spread.
    #[arg(long, default_value_t = 0)]
    duplicates: u64,
    /// Drop the packets of these sequence numbers.
    #[arg(long, value_delimiter = ',', value_name = "SEQ,...")]
    drop: Vec<u64>,
    /// Send the packets of these sequence numbers twice.
    #[arg(long, value_delimiter = ',', value_name = "SEQ,...")]
    duplicate: Vec<u64>,
    /// Destination ADDRESS:PORT.
    #[arg(long, default_value = "239.1.1.1:20001", value_parser = parse_channel)]
    channel: Channel,
    /// Only these template ids.
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    templates: Vec<u64>,
    /// LZ4-compress the packets (profiles with a compression flag: optiq-mdg).
    #[arg(long)]
    compress: bool,
    /// Messages that look like a real channel's instead of random bytes: a small set of
    /// instruments (--instruments) whose prices walk on a tick grid, skewed sizes, repeated
    /// symbols and codes, and the template mix of an incremental channel (mostly book and trade
    /// updates, few definitions). Use it to measure exports; the default (random values, all
    /// templates equally) is a worst case for Parquet and a better test of decoders.
    #[arg(long)]
    realistic: bool,
    /// Instruments of the --realistic market.
    #[arg(long, value_name = "N", default_value_t = 40)]
    instruments: usize,
    /// Print a JSON summary on stdout.
    #[arg(long)]
    json: bool,
}

fn parse_channel(s: &str) -> Result<Channel, String> {
    let (addr, port) = s.rsplit_once(':').ok_or("expected ADDRESS:PORT")?;
    let addr: std::net::Ipv4Addr = addr.parse().map_err(|e| format!("{addr}: {e}"))?;
    let port = port.parse().map_err(|e| format!("{port}: {e}"))?;
    Ok(Channel {
        addr: addr.octets(),
        port,
    })
}

/// Runs `sbekit capture`.
pub fn run(args: CaptureArgs) -> Result<ExitCode, Failure> {
    match args.command {
        CaptureCommand::Stats(a) => stats(a),
        CaptureCommand::Decode(a) => decode(a),
        CaptureCommand::Synth(a) => synth(a),
        CaptureCommand::Export(a) => export(a),
    }
}

fn decoder(schema: &std::path::Path) -> Result<Decoder, Failure> {
    let layout = sbekit_schema::load_layout(schema)?;
    decoder_of(schema, &layout)
}

fn decoder_of(schema: &std::path::Path, layout: &Layout) -> Result<Decoder, Failure> {
    Decoder::from_layout(layout)
        .map_err(|e| Failure::invalid(format_args!("{}: {e}", schema.display())))
}

/// Reads every input with `sink`; returns the statistics.
fn read_all(a: &ReadArgs, decoder: &Decoder, sink: &mut dyn Sink) -> Result<Stats, Failure> {
    read_within(a, decoder, sink, RELEASE_EVERY)
}

/// [`read_all`], releasing the capture's pages `window` bytes behind the reader.
fn read_within(
    a: &ReadArgs,
    decoder: &Decoder,
    sink: &mut dyn Sink,
    window: usize,
) -> Result<Stats, Failure> {
    let profile = a.profile.resolve()?;
    let mut captures = Vec::with_capacity(a.files.len());
    for f in &a.files {
        let bytes = sbekit_capture::load(f)
            .map_err(|e| Failure::usage(format_args!("cannot read {}: {e}", f.display())))?;
        captures.push(bytes);
    }
    let views: Vec<&[u8]> = captures.iter().map(|c| &c[..]).collect();
    let mut reader = Reader::new(
        profile,
        decoder,
        ReadOptions {
            arbitrate: a.arbitrate,
            keep_bad: a.show_bad,
        },
    );
    let mut releasing = Releasing {
        sink,
        captures: &captures,
        released: vec![0; captures.len()],
        window: window.max(1 << 16),
        sequential: !a.arbitrate,
        current: 0,
    };
    reader.read(&views, &mut releasing);
    Ok(reader.stats)
}

/// Read this far past the last release, a capture's pages behind the reader are released
/// (the default of [`read_within`]'s window).
const RELEASE_EVERY: usize = 16 << 20;

/// A [`Sink`] that passes messages on and releases the pages of each mapped capture that the
/// reader has left behind (`CaptureBytes::release_before`), so that the resident set does not
/// grow with the capture: the reader moves forward through each file (TCP reassembly and
/// arbitration may look a little back; a released page touched again is read back in).
struct Releasing<'a> {
    sink: &'a mut dyn Sink,
    captures: &'a [sbekit_capture::CaptureBytes],
    released: Vec<usize>,
    /// Bytes between releases, and kept behind the reader.
    window: usize,
    /// The files are read one after the other (no arbitration): once the reader is in a later
    /// file, the earlier ones are released whole (else each would keep its last window).
    sequential: bool,
    /// The file of the last message.
    current: usize,
}

impl Sink for Releasing<'_> {
    fn message(&mut self, p: &PacketMeta, m: &FeedMessage<'_>) -> Result<(), DecodeError> {
        let at = usize::try_from(p.offset).unwrap_or(usize::MAX);
        if self.sequential && p.file > self.current {
            for c in self.captures.get(self.current..p.file).unwrap_or_default() {
                c.release_before(c.len());
            }
            self.current = p.file;
        }
        if let (Some(done), Some(c)) = (self.released.get_mut(p.file), self.captures.get(p.file)) {
            // Keep a margin behind the packet (the reader's current window).
            if at >= *done + 2 * self.window {
                let end = at - self.window;
                c.release_before(end);
                *done = end;
            }
        }
        self.sink.message(p, m)
    }
}

/// Bad packets on stderr; the exit status `--strict` asks for.
fn report_bad(a: &ReadArgs, stats: &Stats) -> ExitCode {
    for b in &stats.bad {
        let name = a
            .files
            .get(b.file)
            .map_or(String::new(), |f| f.display().to_string());
        eprintln!(
            "sbekit capture: {name}: packet {} (byte {}): {}",
            b.packet, b.offset, b.problem
        );
    }
    if stats.bad_count > stats.bad.len() as u64 {
        eprintln!(
            "sbekit capture: ... {} more (--show-bad N lists more)",
            stats.bad_count - stats.bad.len() as u64
        );
    }
    if stats.bad_count > 0 && a.strict {
        eprintln!(
            "sbekit capture: {} bad packets or messages (--strict)",
            stats.bad_count
        );
        return ExitCode::from(EXIT_INVALID);
    }
    ExitCode::SUCCESS
}

fn stats(a: StatsArgs) -> Result<ExitCode, Failure> {
    let decoder = decoder(&a.read.schema)?;
    let stats = if a.validate {
        read_all(&a.read, &decoder, &mut Validate(&decoder))?
    } else {
        read_all(&a.read, &decoder, &mut HeadersOnly)?
    };
    let text = if a.json {
        let mut s = serde_json::to_string_pretty(&stats.to_json())
            .map_err(|e| Failure::usage(format_args!("JSON: {e}")))?;
        s.push('\n');
        s
    } else {
        stats_text(&stats)
    };
    write_stdout(text.as_bytes())?;
    Ok(report_bad(&a.read, &stats))
}

fn stats_text(s: &Stats) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} bytes, {} frames ({} other traffic, {} malformed), {} packets, {} messages",
        s.bytes, s.frames, s.other_frames, s.malformed_frames, s.packets, s.messages
    );
    if let Some((a, b)) = s.time_span {
        let _ = writeln!(
            t,
            "time span: {} .. {} ({:.3} s)",
            sbekit_iex::stats::format_utc(a),
            sbekit_iex::stats::format_utc(b),
            (b - a) as f64 / 1e9
        );
    }
    let _ = writeln!(t, "\nmessages by template:");
    for (name, c) in &s.templates {
        let _ = writeln!(t, "  {:>12}  {name} ({})", c.messages, c.id);
    }
    let _ = writeln!(t, "\nchannels:");
    for (ch, c) in &s.channels {
        // A framing without sequence numbers has no range to show.
        let seq = match (c.first_seq, c.last_seq) {
            (Some(a), Some(b)) => format!("seq {a}..{b}"),
            _ => "no sequence numbers".to_string(),
        };
        let _ = writeln!(
            t,
            "  {ch}: {} packets, {} messages, {seq}, {} gaps ({} missing), {} duplicates",
            c.packets, c.messages, c.gaps, c.missing, c.duplicates
        );
    }
    if !s.unknown.is_empty() {
        let _ = writeln!(t, "\nnot covered by the schema (counted, not decoded):");
        for ((sid, tid, v), n) in &s.unknown {
            let _ = writeln!(t, "  {n:>12}  schema {sid} template {tid} version {v}");
        }
    }
    if s.newer_version > 0 {
        let _ = writeln!(
            t,
            "{} messages of a newer version than the schema's",
            s.newer_version
        );
    }
    if s.tcp_gaps + s.tcp_retransmitted > 0 {
        let _ = writeln!(
            t,
            "TCP: {} gaps ({} bytes), {} retransmitted segments",
            s.tcp_gaps, s.tcp_gap_bytes, s.tcp_retransmitted
        );
    }
    if let Some(a) = &s.arbitration {
        let sides: Vec<String> = a
            .from_side
            .iter()
            .zip(["A", "B", "C", "D"].iter().chain(std::iter::repeat(&"?")))
            .map(|(n, side)| format!("{n} from {side}"))
            .collect();
        let ranges: Vec<String> = a
            .unfilled
            .iter()
            .map(|&(lo, hi)| {
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}..{hi}")
                }
            })
            .collect();
        let _ = writeln!(
            t,
            "arbitration: packets {}, {} duplicates dropped, {} sequence numbers neither side had{}",
            sides.join(", "),
            a.duplicates_dropped,
            a.unfilled_count,
            if ranges.is_empty() { String::new() } else { format!(" ({})", ranges.join(", ")) }
        );
    }
    let kinds: Vec<String> = s
        .bad_by_kind
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    let _ = writeln!(
        t,
        "bad packets or messages: {}{}",
        s.bad_count,
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        }
    );
    if s.seconds > 0.0 {
        let _ = writeln!(
            t,
            "read in {:.3} s: {:.1} MB/s, {:.2} M messages/s",
            s.seconds,
            s.bytes as f64 / s.seconds / 1e6,
            s.messages as f64 / s.seconds / 1e6
        );
    }
    t
}

/// JSON lines to stdout, flushed in chunks; a closed pipe silences the rest.
struct Printer<'d> {
    lines: JsonLines<'d>,
    closed: bool,
    error: Option<Failure>,
}

/// Output is handed to stdout in chunks of about this size.
const FLUSH_AT: usize = 256 << 10;

impl Printer<'_> {
    fn flush(&mut self) {
        if self.closed || self.error.is_some() {
            self.lines.clear();
            return;
        }
        match write_stdout(self.lines.output()) {
            Ok(true) => {}
            Ok(false) => self.closed = true,
            Err(e) => self.error = Some(e),
        }
        self.lines.clear();
    }
}

impl Sink for Printer<'_> {
    fn message(&mut self, p: &PacketMeta, m: &FeedMessage<'_>) -> Result<(), DecodeError> {
        self.lines.message(p, m)?;
        if self.lines.output().len() >= FLUSH_AT {
            self.flush();
        }
        Ok(())
    }
}

fn decode(a: ReadArgs) -> Result<ExitCode, Failure> {
    let decoder = decoder(&a.schema)?;
    let mut printer = Printer {
        lines: JsonLines::new(&decoder),
        closed: false,
        error: None,
    };
    let stats = read_all(&a, &decoder, &mut printer)?;
    printer.flush();
    if let Some(e) = printer.error {
        return Err(e);
    }
    eprintln!(
        "sbekit capture: {} messages from {} packets; {} bad",
        stats.messages, stats.packets, stats.bad_count
    );
    Ok(report_bad(&a, &stats))
}

fn synth(a: SynthArgs) -> Result<ExitCode, Failure> {
    let profile = a.profile.resolve()?;
    let ir = sbekit_schema::load_ir(&a.schema)?;
    let mut cfg = SynthConfig {
        messages: a.messages,
        seed: a.seed,
        max_per_packet: a.max_per_packet.max(1),
        drop: a.drop.iter().copied().collect(),
        duplicate: a.duplicate.iter().copied().collect(),
        channel: a.channel,
        templates: a.templates.clone(),
        compress: a.compress,
        realistic: a.realistic.then_some(a.instruments.max(1)),
        ..SynthConfig::default()
    };
    // Evenly spread drops and duplicates over the packets the messages fill (about
    // messages / average-per-packet of them).
    let packets = (a.messages * 2 / (cfg.max_per_packet as u64 + 1)).max(1);
    for (n, set, shift) in [
        (a.gaps, &mut cfg.drop, 0),
        (a.duplicates, &mut cfg.duplicate, 1),
    ] {
        if n == 0 {
            continue;
        }
        let step = (packets / (n + 1)).max(2);
        for i in 1..=n {
            set.insert(cfg.first_seq + i * step + shift);
        }
    }
    // Through sbekit_fs: the capture appears under its name only when complete.
    let file = sbekit_fs::AtomicFile::create(&a.output)
        .map_err(|e| Failure::usage(format_args!("cannot create {}: {e}", a.output.display())))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let summary = generate(&ir, &profile, &cfg, &mut out).map_err(|e| write_error(&a.output, e))?;
    out.into_inner()
        .map_err(|e| write_error(&a.output, e.into_error()))?
        .commit()
        .map_err(|e| write_error(&a.output, e))?;
    let by_template: serde_json::Map<String, serde_json::Value> = summary
        .by_template
        .iter()
        .map(|(k, v)| (k.to_string(), (*v).into()))
        .collect();
    let json = serde_json::json!({
        "packets": summary.packets, "messages": summary.messages,
        "dropped_messages": summary.dropped_messages,
        "by_template": by_template, "seq_range": summary.seq_range, "bytes": summary.bytes,
        "dropped_seqs": cfg.drop, "duplicated_seqs": cfg.duplicate,
    });
    if a.json {
        write_stdout(format!("{json}\n").as_bytes())?;
    } else {
        eprintln!(
            "sbekit capture synth: {} packets, {} messages ({} in dropped packets), {} bytes to {}",
            summary.packets,
            summary.messages,
            summary.dropped_messages,
            summary.bytes,
            a.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn write_error(path: &std::path::Path, e: io::Error) -> Failure {
    Failure::usage(format_args!("writing {}: {e}", path.display()))
}

fn export(a: ExportArgs) -> Result<ExitCode, Failure> {
    use sbekit_arrow::capture::{CaptureColumns, Output};
    let clock = super::clock::CommandClock::whole_command();
    let layout = sbekit_schema::load_layout(&a.read.schema)?;
    let decoder = decoder_of(&a.read.schema, &layout)?;
    let (mut out, dir) = a.parquet.open(&a.to, a.memory / 4)?;
    let options = sbekit_arrow::Options {
        batch_rows: a.batch_rows.max(1),
        batch_bytes: a.batch_memory.max(1).saturating_mul(1 << 20),
        ..sbekit_arrow::Options::default()
    };
    let mut cols = CaptureColumns::new(&layout, options, Output::Writer(&mut out))
        .with_staging(super::parquet_args::mib(a.memory / 8));
    // The capture's pages a thirty-second of the budget behind the reader are let go.
    let window = RELEASE_EVERY.min(super::parquet_args::mib(a.memory) / 32);
    let stats = read_within(&a.read, &decoder, &mut cols, window)?;
    cols.finish().map_err(Failure::usage)?;
    let (rows, files) = out.finish().map_err(Failure::usage)?;
    for (table, n) in &rows {
        eprintln!("sbekit capture export: {table}: {n} rows");
    }
    // The whole command's time (schema, reading, writing, the files made durable), not the
    // read loop's alone.
    eprintln!(
        "sbekit capture export: {} messages from {} packets into {} files under {} in {}; {} bad",
        stats.messages,
        stats.packets,
        files.len(),
        dir.display(),
        clock.report(),
        stats.bad_count
    );
    Ok(report_bad(&a.read, &stats))
}
