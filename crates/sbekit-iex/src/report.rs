//! A whole capture's statistics in one call: what `sbekit iex stats` and the Python package's
//! `sbekit.iex.stats` report.
//!
//! [`stats_file`] picks the reader (regular files are memory-mapped unless gzip-compressed;
//! gzip and pipes are streamed with bounded memory), runs the keep-going policy of
//! [`ReadOptions`], and names the container format.

use crate::capture::{sniff, Sniffed};
use crate::stats::{format_utc, Stats};
use crate::tp::Segment;
use crate::{Capture, Error, ErrorKind, ReadOptions};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A capture's statistics and how reading it went.
#[derive(Debug, Clone)]
pub struct StatsReport {
    /// Counts by message type, sessions, gaps, time span.
    pub stats: Stats,
    /// The error that ended reading early, if any; the statistics cover everything before it.
    pub error: Option<Error>,
    /// The container format (`"gzip / pcap-ng"`, `"pcap (little-endian, µs)"`, ...).
    pub format: &'static str,
    /// Capture bytes read (after decompression).
    pub bytes_read: u64,
    /// Size of the file (0 for a pipe).
    pub file_bytes: u64,
    /// Wall-clock seconds spent reading.
    pub seconds: f64,
}

/// Reads the capture at `path` and gathers its statistics. `progress(done, total)` is called
/// now and then with input bytes consumed (compressed bytes for gzip) and the file's size.
///
/// An `Err` means the file could not be opened; an error inside the capture is reported in
/// [`StatsReport::error`] with the statistics of everything before it (with
/// [`ReadOptions::keep_going`], bad segments are skipped and only a final error remains).
pub fn stats_file(
    path: &Path,
    opts: ReadOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StatsReport, Error> {
    let meta = std::fs::metadata(path).map_err(io_error)?;
    if !meta.is_file() {
        // Pipes and devices are read once, as a stream (which detects gzip itself).
        return stats_streaming(path, opts, 0, progress);
    }
    let mut head = [0u8; 2];
    let n = File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(io_error)?;
    if sniff(&head[..n]) == Sniffed::Gzip {
        stats_streaming(path, opts, meta.len(), progress)
    } else {
        stats_mapped(path, opts, meta.len(), progress)
    }
}

fn io_error(e: io::Error) -> Error {
    Error::new(0, ErrorKind::Io(e.to_string()))
}

/// Adds one segment (or records its error). Returns false when reading should stop.
fn step(
    stats: &mut Stats,
    error: &mut Option<Error>,
    seg: Result<Segment<'_>, Error>,
    keep_going: bool,
) -> bool {
    match seg {
        Ok(s) => {
            // A later good segment means the earlier error was skipped, not final.
            *error = None;
            if let Err(e) = stats.add_segment(&s, keep_going) {
                *error = Some(e);
                return false;
            }
            true
        }
        Err(e) => {
            *error = Some(e);
            keep_going
        }
    }
}

/// How often (in segments) progress is reported.
const PROGRESS_EVERY: u64 = 65_536;

fn stats_mapped(
    path: &Path,
    opts: ReadOptions,
    file_bytes: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StatsReport, Error> {
    let cap = Capture::open(path).map_err(io_error)?;
    let total = cap.bytes().len() as u64;
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut error = None;
    let mut segs = cap.segments(opts)?;
    let mut n = 0u64;
    for s in segs.by_ref() {
        n += 1;
        if n % PROGRESS_EVERY == 0 {
            if let Ok(s) = &s {
                progress(s.offset(), total);
            }
        }
        if !step(&mut stats, &mut error, s, opts.keep_going) {
            break;
        }
    }
    stats.frames = *segs.counters();
    Ok(StatsReport {
        stats,
        error,
        format: sniff(cap.bytes()).name(),
        bytes_read: total,
        file_bytes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Counts bytes read from the underlying file, for progress over compressed input.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

fn stats_streaming(
    path: &Path,
    opts: ReadOptions,
    file_bytes: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StatsReport, Error> {
    let file = File::open(path).map_err(io_error)?;
    let count = Arc::new(AtomicU64::new(0));
    let counting = Counting {
        inner: file,
        count: count.clone(),
    };
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut error = None;
    let mut format = "unknown";
    let mut bytes_read = 0;
    match crate::stream_from_reader(counting, opts) {
        Err(e) => error = Some(e),
        Ok((mut segs, gzip)) => {
            let mut n = 0u64;
            while let Some(s) = segs.next_segment() {
                n += 1;
                if n % PROGRESS_EVERY == 0 {
                    progress(count.load(Ordering::Relaxed), file_bytes);
                }
                if !step(&mut stats, &mut error, s, opts.keep_going) {
                    break;
                }
            }
            stats.frames = *segs.counters();
            bytes_read = segs.position();
            format = if gzip {
                segs.capture_format().gzip_name()
            } else {
                segs.capture_format().name()
            };
        }
    }
    Ok(StatsReport {
        stats,
        error,
        format,
        bytes_read,
        file_bytes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The key of a message type in the JSON counts: the type byte as a character when it is
/// printable (`"Q"`), else in hex (`"0x8b"`).
pub fn type_key(t: u8) -> String {
    if t.is_ascii_graphic() {
        (t as char).to_string()
    } else {
        format!("0x{t:02x}")
    }
}

/// The statistics as JSON: what `sbekit iex stats --json` prints (without the `file` member)
/// and what the Python package's `sbekit.iex.stats` returns as a dict.
pub fn stats_json(o: &StatsReport) -> Value {
    let s = &o.stats;
    let mut by_type = serde_json::Map::new();
    for t in 0..=255u8 {
        let c = s.by_type[t as usize];
        if c > 0 {
            by_type.insert(type_key(t), json!(c));
        }
    }
    let span = |sp: Option<(i64, i64)>| match sp {
        None => Value::Null,
        Some((lo, hi)) => json!({
            "first_ns": lo, "last_ns": hi,
            "first": format_utc(lo), "last": format_utc(hi),
            "seconds": (hi - lo) as f64 / 1e9,
        }),
    };
    let sessions: Vec<Value> = s
        .sessions
        .iter()
        .map(|(&(proto, channel, session), x)| {
            json!({
                "protocol_id": format!("0x{proto:04x}"),
                "protocol": crate::Protocol::from_id(proto).name(),
                "channel_id": channel,
                "session_id": session,
                "segments": x.segments,
                "heartbeats": x.heartbeats,
                "messages": x.messages,
                "gaps": x.gaps,
                "missing_messages": x.missing_messages,
                "resets": x.resets,
                "backwards": x.backwards,
            })
        })
        .collect();
    let (gaps, missing) = s.total_gaps();
    json!({
        "format": o.format,
        "file_bytes": o.file_bytes,
        "bytes_read": o.bytes_read,
        "frames": {
            "total": s.frames.frames,
            "non_udp": s.frames.non_udp,
            "fragments": s.frames.fragments,
            "malformed": s.frames.malformed,
            "non_iextp": s.frames.non_iextp,
        },
        "segments": s.segments,
        "heartbeats": s.heartbeats,
        "messages": s.messages,
        "by_type": by_type,
        "unknown_messages": s.unknown_messages(),
        "skipped_errors": s.frames.skipped_errors + s.message_errors,
        "count_mismatches": s.count_mismatches,
        "symbols": s.symbols.len(),
        "send_time": span(s.send_time),
        "event_time": span(s.event_time),
        "capture_time": span(s.capture_time),
        "sequence_gaps": gaps,
        "missing_messages": missing,
        "sessions": sessions,
        "throughput": {
            "seconds": o.seconds,
            "bytes_per_second": o.bytes_read as f64 / o.seconds.max(1e-9),
            "messages_per_second": s.messages as f64 / o.seconds.max(1e-9),
        },
        "error": o.error.as_ref().map(|e| json!({"offset": e.offset, "message": e.kind.to_string()})),
    })
}
