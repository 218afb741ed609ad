//! `sbekit decode`: decode a stream of SBE messages to JSON lines, driven by the schema's IR,
//! or to Parquet / Arrow IPC tables (`--to`, the work is in `sbekit-arrow`).

use super::{write_or_closed, write_stdout, Failure, EXIT_INVALID};
use clap::Args;
use sbekit_otf::framing::{
    Framing, MessageInfo, MessageSink, MessageStream, RunReport, StreamError, DEFAULT_MAX_MESSAGE,
};
use sbekit_otf::{DecodeError, Decoder, JsonPrinter, Limits, MessageHeader, NoopVisitor, Visitor};
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Decode SBE messages from a file or stdin and print them as JSON, one message per line.
#[derive(Args)]
#[command(after_help = "\
Framings:
  sbe     messages back to back, each starting with its SBE message header (default)
  u16le   each message preceded by its length as a little-endian u16 (prefix not counted)
  u32le   each message preceded by its length as a little-endian u32 (prefix not counted)
  sofh    FIX Simple Open Framing Header: big-endian u32 length including the 6-byte header,
          big-endian u16 encoding type 0xEB50 (SBE little endian) or 0x5BE0 (SBE big endian)

A message written at an older version than the schema's starts with \"$version\": N, which
`sbekit encode` honours: `sbekit decode ... | sbekit encode ...` gives back the same bytes.

Input is read through a bounded buffer, so files larger than memory stream in constant memory.
A bad message is reported on stderr with its index and byte offset, and decoding stops; with
--keep-going the length-prefixed framings skip the bad frame and go on (back-to-back messages
cannot be resynchronised). Bytes after a message inside its length-prefixed frame are padding
(some venues pad to 8 bytes): skipped and counted on stderr, or an error with --strict-frames. Exit status: 0 if every message decoded, 1 if any failed, 2 on
usage, schema or I/O errors.

With --to parquet DIR (or --to arrow DIR for Arrow IPC streams), every message template becomes
one table: DIR/type=<Message>/part-00000.parquet, with the header columns (_template_id,
_schema_id, _acting_version, _block_length, _offset) and the message's fields (groups as lists
of structs, enums dictionary-encoded; see docs/guide/arrow-parquet.md). Several input files may be given; each
gets its own part files. Memory stays bounded, files appear under their final names only when
complete, and the rows written per table are printed on stderr.

Text that is not valid in its field's declared character encoding is read one byte per code
point (Latin-1) on every output, so no message is lost over it; the number of such values is
printed on stderr (the exit status does not change).

Examples:
  sbekit decode --schema car.xml car.sbe
  sbekit decode -s market.xml --framing u32le --to parquet out/ day1.bin day2.bin
  sbekit decode -s market.sbeir --framing sofh --template MarketDataIncrementalRefreshTrades capture.bin
  cat stream.bin | sbekit decode -s car.xml --framing u32le --count -")]
pub struct DecodeArgs {
    /// The schema: an XML schema or a reference-format `.sbeir` IR file.
    #[arg(short, long, value_name = "SCHEMA")]
    schema: PathBuf,
    /// The input files; `-` (the default) reads stdin. Several only with --to.
    #[arg(value_name = "FILE", default_value = "-")]
    inputs: Vec<PathBuf>,
    /// Write tables instead of JSON: `--to parquet DIR` or `--to arrow DIR`.
    #[arg(long, num_args = 2, value_names = ["FORMAT", "DIR"])]
    to: Option<Vec<String>>,
    /// Messages per Arrow batch (with --to).
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    batch_rows: usize,
    #[command(flatten)]
    parquet: super::parquet_args::ParquetArgs,
    /// How messages are delimited.
    #[arg(long, default_value = "sbe", value_parser = parse_framing)]
    framing: Framing,
    /// Only decode messages of this template (id or name); others are skipped.
    #[arg(long, value_name = "ID|NAME")]
    template: Option<String>,
    /// Indent the JSON (one message spans several lines).
    #[arg(long)]
    pretty: bool,
    /// Print only the number of (matching) messages.
    #[arg(long)]
    count: bool,
    /// After a bad message, go on with the next frame where the framing allows it.
    #[arg(short = 'k', long)]
    keep_going: bool,
    /// Treat bytes after a message inside its frame as an error instead of padding.
    #[arg(long)]
    strict_frames: bool,
    /// Largest message accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE)]
    max_message_size: usize,
    /// Refuse a message that declares more entries of empty-block groups than this, in all
    /// its groups together (they take no bytes, so the input's size cannot bound them).
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT_MAX_EMPTY_ENTRIES)]
    max_empty_entries: u64,
}

fn parse_framing(s: &str) -> Result<Framing, String> {
    s.parse()
}

/// Runs `sbekit decode`.
pub fn run(args: DecodeArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let decoder = Decoder::from_layout(&layout)
        .map_err(|e| Failure::invalid(format_args!("{}: {e}", args.schema.display())))?
        .with_limits(Limits {
            max_empty_entries: args.max_empty_entries,
        });
    let template = match &args.template {
        None => None,
        Some(t) => {
            let found = match t.parse::<u64>() {
                Ok(id) => decoder.message_by_id(id),
                Err(_) => decoder.message_by_name(t),
            };
            let m = found
                .ok_or_else(|| Failure::usage(format_args!("the schema has no message '{t}'")))?;
            Some(m.id)
        }
    };
    if let Some(to) = &args.to {
        return export(&args, &layout, &decoder, template, to);
    }
    let [input] = &args.inputs[..] else {
        return Err(Failure::usage(
            "several input files need --to (JSON output reads one input)",
        ));
    };
    let input: Box<dyn Read> = if input.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(input)
            .map_err(|e| Failure::usage(format_args!("cannot open {}: {e}", input.display())))?;
        Box::new(f)
    };
    let stream = MessageStream::new(input, args.framing, args.max_message_size)
        .strict_frames(args.strict_frames);
    let (outcome, fallbacks) = if args.count {
        let o = drive(&args, &decoder, template, stream, &mut NoopVisitor, |_| {
            None
        })?;
        (o, 0)
    } else {
        let mut printer = JsonPrinter::new(args.pretty).with_versions(decoder.schema_version());
        let o = drive(&args, &decoder, template, stream, &mut printer, |p| Some(p))?;
        (o, printer.text_fallbacks())
    };
    report_fallbacks(fallbacks);
    if args.count {
        write_stdout(format!("{}\n", outcome.decoded).as_bytes())?;
    }
    if outcome.padded_frames > 0 {
        eprintln!(
            "sbekit decode: {} frame{} held trailing padding ({} bytes in all), skipped",
            outcome.padded_frames,
            if outcome.padded_frames == 1 { "" } else { "s" },
            outcome.padding
        );
    }
    if outcome.failed > 0 {
        eprintln!(
            "sbekit decode: {} message{} decoded, {} failed",
            outcome.decoded,
            if outcome.decoded == 1 { "" } else { "s" },
            outcome.failed
        );
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    Ok(ExitCode::SUCCESS)
}

/// Output is handed to stdout in chunks of about this size.
const FLUSH_AT: usize = 256 << 10;

/// Decodes the whole stream into `visitor` through the shared stream loop
/// ([`MessageStream::run`]); `printer` exposes the visitor's JSON buffer (if it prints) so that
/// output can be flushed and a failed message's partial output dropped.
fn drive<R: Read, V: Visitor, P: Fn(&mut V) -> Option<&mut JsonPrinter>>(
    args: &DecodeArgs,
    decoder: &Decoder,
    template: Option<u64>,
    mut stream: MessageStream<R>,
    visitor: &mut V,
    printer: P,
) -> Result<RunReport, Failure> {
    let mut sink = Printing {
        decoder,
        visitor,
        printer,
        mark: 0,
        out: io::stdout().lock(),
        failure: None,
        closed: false,
        keep_going: args.keep_going,
        framing: args.framing,
    };
    let report = stream
        .run(decoder, template, args.keep_going, &mut sink)
        .map_err(|e| Failure::usage(format_args!("reading {}: {e}", args.inputs[0].display())))?;
    if let Some(f) = sink.failure {
        return Err(f);
    }
    if !sink.closed {
        if let Some(p) = (sink.printer)(sink.visitor) {
            write_or_closed(&mut sink.out, p.output())?;
            p.clear();
        }
    }
    Ok(report)
}

/// `sbekit decode`'s part of the stream loop: messages into the visitor, JSON out in chunks.
struct Printing<'a, V, P> {
    decoder: &'a Decoder,
    visitor: &'a mut V,
    printer: P,
    /// End of the output of the messages that decoded: a bad message's partial output is cut
    /// back to it.
    mark: usize,
    out: io::StdoutLock<'static>,
    /// A write that failed (kept to report once the loop has stopped).
    failure: Option<Failure>,
    /// The reader of stdout went away: end quietly.
    closed: bool,
    keep_going: bool,
    framing: Framing,
}

impl<V: Visitor, P: Fn(&mut V) -> Option<&mut JsonPrinter>> MessageSink for Printing<'_, V, P> {
    fn decode(
        &mut self,
        bytes: &[u8],
        _header: &MessageHeader,
        _offset: u64,
    ) -> Result<usize, DecodeError> {
        self.decoder.decode(bytes, self.visitor)
    }

    fn decoded(&mut self, _info: &MessageInfo) -> ControlFlow<()> {
        let Some(p) = (self.printer)(self.visitor) else {
            return ControlFlow::Continue(());
        };
        if p.len() >= FLUSH_AT {
            match write_or_closed(&mut self.out, p.output()) {
                Ok(true) => p.clear(),
                Ok(false) => {
                    self.closed = true;
                    return ControlFlow::Break(());
                }
                Err(f) => {
                    self.failure = Some(f);
                    return ControlFlow::Break(());
                }
            }
        }
        self.mark = p.len();
        ControlFlow::Continue(())
    }

    fn failed(&mut self, error: &StreamError, resumes: bool) {
        if let Some(p) = (self.printer)(self.visitor) {
            p.truncate(self.mark);
        }
        eprintln!("sbekit decode: {error}");
        if self.keep_going && !resumes && self.framing == Framing::Sbe {
            eprintln!(
                "sbekit decode: back-to-back messages cannot be resynchronised after a bad message; stopping"
            );
        }
    }
}

/// `--to FORMAT DIR`: every message into its template's table (see `sbekit_arrow::sbe`).
fn export(
    args: &DecodeArgs,
    layout: &sbekit_ir::layout::Layout,
    decoder: &Decoder,
    template: Option<u64>,
    to: &[String],
) -> Result<ExitCode, Failure> {
    use sbekit_arrow::sbe::{export_stream, StreamOptions};
    let (mut out, dir) = args.parquet.open(to, super::parquet_args::WRITER_MIB)?;
    let mut cols = sbekit_arrow::SbeColumns::new(
        layout,
        sbekit_arrow::Options {
            batch_rows: args.batch_rows.max(1),
            limits: decoder.limits(),
            ..sbekit_arrow::Options::default()
        },
    );
    let opts = StreamOptions {
        framing: args.framing,
        max_message: args.max_message_size,
        strict_frames: args.strict_frames,
        keep_going: args.keep_going,
        template,
    };
    let total: u64 = args
        .inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok().map(|m| m.len()))
        .sum();
    let pb = super::progress_bar(
        total,
        "decode [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    );
    let clock = super::clock::CommandClock::whole_command();
    let (mut decoded, mut errors, mut done) = (0u64, 0u64, 0u64);
    for path in &args.inputs {
        let input: Box<dyn Read> =
            if path.as_os_str() == "-" {
                Box::new(io::stdin().lock())
            } else {
                Box::new(File::open(path).map_err(|e| {
                    Failure::usage(format_args!("cannot open {}: {e}", path.display()))
                })?)
            };
        let r = export_stream(
            io::BufReader::with_capacity(1 << 20, input),
            decoder,
            &mut cols,
            opts,
            &[],
            &mut out,
            &mut |b| pb.set_position(done + b),
            &mut |e| {
                pb.suspend(|| eprintln!("sbekit decode: {}: {e}", path.display()));
            },
        )
        .map_err(|e| Failure::usage(format_args!("{}: {e}", path.display())))?;
        out.close_all().map_err(Failure::usage)?;
        decoded += r.decoded;
        errors += r.errors;
        done += r.bytes;
    }
    pb.finish_and_clear();
    let (rows, files) = out.finish().map_err(Failure::usage)?;
    summary("decode", &rows, files.len(), dir, &clock);
    report_fallbacks(cols.text_fallbacks());
    if errors > 0 {
        eprintln!("sbekit decode: {decoded} messages decoded, {errors} failed");
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    Ok(ExitCode::SUCCESS)
}

/// Says on stderr how many text values took the Latin-1 fallback of `sbekit_otf::text` (not
/// valid in their declared character encoding, read one byte per code point); nothing if none.
/// Not an error: every byte is kept and the exit status is unchanged.
fn report_fallbacks(n: u64) {
    match n {
        0 => {}
        1 => eprintln!(
            "sbekit decode: 1 text value was not valid in its declared encoding and was read as Latin-1"
        ),
        n => eprintln!(
            "sbekit decode: {n} text values were not valid in their declared encoding and were read as Latin-1"
        ),
    }
}

/// The rows written per table, on stderr.
pub fn summary(
    what: &str,
    rows: &std::collections::BTreeMap<String, u64>,
    files: usize,
    dir: &std::path::Path,
    clock: &super::clock::CommandClock,
) {
    let total: u64 = rows.values().sum();
    eprintln!(
        "sbekit {what}: {total} rows in {} tables, {files} files under {} in {}",
        rows.len(),
        dir.display(),
        clock.report()
    );
    for (table, n) in rows {
        eprintln!("  {table:<32} {n:>12}");
    }
}
