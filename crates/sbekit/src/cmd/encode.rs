//! `sbekit encode`: JSON lines to SBE messages, driven by the schema's layout (the inverse of
//! `sbekit decode`).

use super::{write_or_closed, Failure, Output, EXIT_INVALID};
use clap::Args;
use sbekit_encode::{Doc, Encoder};
use sbekit_otf::framing::{Framing, DEFAULT_MAX_MESSAGE};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::ExitCode;

/// Encode JSON lines (one message per line, as `sbekit decode` prints them) to SBE messages.
#[derive(Args)]
#[command(
    disable_version_flag = true,
    after_help = "\
Each input line is one message in the shape `sbekit decode` prints; blank lines are skipped.
Enums take a name or a raw number, sets an object of booleans, a list of choice names or a raw
number, 64-bit integers a number or a string; null or an omitted optional field writes the null
value; constants are checked, not written; groups take arrays. Every rule: docs/guide/encoding.md.

Without --validate, anything the wire can hold is written, so whatever `sbekit decode` printed
goes back; groups and var data must fit their count and length fields' maxValue either way. --validate also refuses, naming the JSON path and the rule:
  - an integer outside the field's minValue..maxValue (by default the type's range without its
    null value), a float outside the minValue/maxValue the schema itself gives, each element of
    an array alike;
  - a required integer or enum field given its null value (or null);
  - an enum raw value the schema does not list.
An optional field may hold its null value or be null; char data, sets, constants and fields
newer than the version written are not checked.

Lines are read and messages written one at a time, so any input size streams in constant
memory. A bad line is reported on stderr with its line number, JSON path and reason, and nothing
is written for it; encoding stops there, or with --keep-going goes on with the next line. Exit
status: 0 if every line encoded, 1 if any failed, 2 on usage, schema or I/O errors.

Examples:
  sbekit decode -s car.xml car.sbe | sbekit encode -s car.xml -o car-again.sbe
  sbekit encode -s market.sbeir --template MarketDataIncrementalRefreshTrades --framing sofh trades.jsonl -o trades.bin
  sbekit encode -s extension.xml --version 0 cars.jsonl -o cars-v0.sbe
  sbekit encode -s car.xml --validate cars.jsonl -o cars.sbe"
)]
pub struct EncodeArgs {
    /// The schema: an XML schema or a reference-format `.sbeir` IR file.
    #[arg(short, long, value_name = "SCHEMA")]
    schema: PathBuf,
    /// The JSON lines; `-` (the default) reads stdin.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Where to write the messages; `-` (the default) writes stdout.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// The message every line holds (name or id); without it, the schema's only message or the
    /// only one whose fields include every member of the line.
    #[arg(long, value_name = "ID|NAME")]
    template: Option<String>,
    /// How messages are delimited (sbe, u16le, u32le or sofh; see `sbekit decode --help`).
    #[arg(long, default_value = "sbe", value_parser = parse_framing)]
    framing: Framing,
    /// Write as this (older) schema version: newer fields left out, that version's block
    /// lengths. Default: the schema's version.
    #[arg(long, value_name = "N")]
    version: Option<u32>,
    /// Also refuse values outside the schema's rules: numbers outside minValue..maxValue, a
    /// required field's null value, enum values the schema does not list (see below).
    #[arg(long)]
    validate: bool,
    /// After a bad line, go on with the next one (bad lines are named on stderr; the exit
    /// status is still 1).
    #[arg(short = 'k', long)]
    keep_going: bool,
    /// Longest input line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE * 8)]
    max_line: usize,
}

fn parse_framing(s: &str) -> Result<Framing, String> {
    s.parse()
}

/// Output is handed to the writer in chunks of about this size.
const FLUSH_AT: usize = 256 << 10;

/// Runs `sbekit encode`.
pub fn run(args: EncodeArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let order = layout.byte_order;
    let encoder = Encoder::new(&layout).with_validation(args.validate);
    if let Some(t) = &args.template {
        let known = encoder.message_names().any(|n| n == t)
            || layout.messages.iter().any(|m| t.parse() == Ok(m.id));
        if !known {
            return Err(Failure::usage(format_args!(
                "the schema has no message '{t}'"
            )));
        }
    }
    let input: Box<dyn Read> = if args.input.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        match File::open(&args.input) {
            Ok(f) => Box::new(f),
            Err(e) => {
                return Err(Failure::usage(format_args!(
                    "cannot open {}: {e}",
                    args.input.display()
                )))
            }
        }
    };
    // A file appears only once the run is over (an I/O error or an interruption leaves none);
    // messages encoded before a bad line are kept, as on stdout.
    let mut out = Output::create(&args.output)?;
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let (mut line, mut doc, mut msg, mut buf) = (Vec::new(), Doc::new(), Vec::new(), Vec::new());
    let (mut number, mut encoded, mut failed) = (0u64, 0u64, 0u64);
    let template = args.template.as_deref();
    loop {
        let more = read_line(&mut reader, &mut line, args.max_line)
            .map_err(|e| Failure::usage(format_args!("reading {}: {e}", args.input.display())))?;
        let Some(fits) = more else { break };
        number += 1;
        let result = if !fits {
            Err(format!("longer than --max-line {} bytes", args.max_line))
        } else if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            msg.clear();
            encoder
                .encode_json(&line, template, args.version, &mut doc, &mut msg)
                .map_err(|e| e.to_string())
                .and_then(|()| {
                    args.framing
                        .write_prefix(&mut buf, msg.len(), order)
                        .map_err(|e| format!("{} bytes: {e}", msg.len()))
                })
        };
        match result {
            Ok(()) => {
                buf.extend_from_slice(&msg);
                encoded += 1;
                if buf.len() >= FLUSH_AT {
                    if !write_or_closed(&mut out, &buf)? {
                        return Ok(ExitCode::SUCCESS);
                    }
                    buf.clear();
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("sbekit encode: line {number}: {e}");
                if !args.keep_going {
                    break;
                }
            }
        }
    }
    if !write_or_closed(&mut out, &buf)? {
        return Ok(ExitCode::SUCCESS);
    }
    out.commit()?;
    if failed > 0 {
        eprintln!(
            "sbekit encode: {encoded} message{} encoded, {failed} line{} failed",
            if encoded == 1 { "" } else { "s" },
            if failed == 1 { "" } else { "s" },
        );
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the next line (without its newline) into `line`, holding at most `max` bytes of it.
/// `None` at the end of input; `Some(false)` when the line was longer than `max` (its rest is
/// skipped, so memory stays bounded).
fn read_line<R: BufRead>(r: &mut R, line: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&c| c == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        let ended = done > part.len();
        if fits && line.len() + part.len() <= max {
            line.extend_from_slice(part);
        } else {
            fits = false;
            line.clear();
        }
        r.consume(done);
        if ended {
            return Ok(Some(fits));
        }
    }
}
