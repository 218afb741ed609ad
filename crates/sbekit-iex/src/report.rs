//! A whole capture's statistics in one call, and the two ways they are shown: the text table
//! ([`stats_text`]) and the JSON ([`stats_json`]) that `sbekit iex stats` prints and the Python
//! package's `sbekit.iex.stats` returns.
//!
//! [`stats_file`] picks the reader (regular files are memory-mapped unless gzip-compressed;
//! gzip and pipes are streamed with bounded memory), runs the keep-going policy of
//! [`ReadOptions`], and names the container format.

use crate::capture::{sniff, Sniffed};
use crate::stats::{format_utc, Stats};
use crate::tp::Segment;
use crate::{Capture, Error, IexErrorKind, ReadOptions};
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
    Error::new(0, IexErrorKind::Io(e.to_string()))
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

/// 1234567 -> "1,234,567".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Seconds as `1h 02m 03.456s`.
fn duration(secs: f64) -> String {
    let s = secs.max(0.0);
    let whole = s as u64;
    format!(
        "{}h {:02}m {:06.3}s",
        whole / 3600,
        whole % 3600 / 60,
        s - (whole / 60 * 60) as f64
    )
}

/// The statistics as the text table `sbekit iex stats` prints, for the capture named `file`.
pub fn stats_text(file: &str, o: &StatsReport) -> String {
    use std::fmt::Write as _;
    let s = &o.stats;
    let mut t = String::new();
    let _ = writeln!(t, "file        {file}");
    let _ = writeln!(
        t,
        "format      {} ({} bytes in file, {} bytes read)",
        o.format,
        thousands(o.file_bytes),
        thousands(o.bytes_read)
    );
    let f = &s.frames;
    let _ = writeln!(
        t,
        "packets     {} frames, {} IEX-TP segments, {} heartbeats ({:.1}%)",
        thousands(f.frames),
        thousands(s.segments),
        thousands(s.heartbeats),
        100.0 * s.heartbeats as f64 / s.segments.max(1) as f64
    );
    if f.non_udp + f.fragments + f.malformed + f.non_iextp > 0 {
        let _ = writeln!(
            t,
            "skipped     {} non-UDP, {} fragments, {} malformed, {} non-IEX-TP frames",
            thousands(f.non_udp),
            thousands(f.fragments),
            thousands(f.malformed),
            thousands(f.non_iextp)
        );
    }
    for (proto, n) in &s.protocols {
        let _ = writeln!(
            t,
            "protocol    {} (0x{proto:04x}): {} segments",
            crate::Protocol::from_id(*proto).name(),
            thousands(*n)
        );
    }
    let _ = writeln!(
        t,
        "messages    {} ({} of unknown types)",
        thousands(s.messages),
        thousands(s.unknown_messages())
    );
    let _ = writeln!(t, "symbols     {}", thousands(s.symbols.len() as u64));
    if let Some((lo, hi)) = s.send_time {
        let _ = writeln!(
            t,
            "send time   {} .. {} ({})",
            format_utc(lo),
            format_utc(hi),
            duration((hi - lo) as f64 / 1e9)
        );
    }
    let (gaps, missing) = s.total_gaps();
    let resets: u64 = s.sessions.values().map(|x| x.resets).sum();
    let _ = writeln!(
        t,
        "sequence    {} sessions, {} gaps ({} messages missing), {} resets",
        s.sessions.len(),
        thousands(gaps),
        thousands(missing),
        thousands(resets)
    );
    for ((proto, ch, sess), x) in &s.sessions {
        let _ = writeln!(
            t,
            "  session 0x{sess:08x} channel {ch} {}: {} segments, {} gaps, {} missing, {} resets",
            crate::Protocol::from_id(*proto).name(),
            thousands(x.segments),
            thousands(x.gaps),
            thousands(x.missing_messages),
            thousands(x.resets)
        );
    }
    if s.count_mismatches + s.message_errors + f.skipped_errors > 0 {
        let _ = writeln!(
            t,
            "problems    {} header/message count mismatches, {} skipped errors",
            thousands(s.count_mismatches),
            thousands(s.message_errors + f.skipped_errors)
        );
    }
    let _ = writeln!(
        t,
        "throughput  {:.1} MB/s, {:.2} M messages/s ({:.3} s)",
        o.bytes_read as f64 / o.seconds.max(1e-9) / 1e6,
        s.messages as f64 / o.seconds.max(1e-9) / 1e6,
        o.seconds
    );
    if let Some(e) = &o.error {
        let _ = writeln!(t, "stopped     {e}");
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "type  name                           messages    share");
    let mut rows: Vec<(u8, u64)> = (0..=255u8)
        .map(|x| (x, s.by_type[x as usize]))
        .filter(|r| r.1 > 0)
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (ty, n) in rows {
        let _ = writeln!(
            t,
            "{:<5} {:<28} {:>12} {:>7.2}%",
            type_key(ty),
            crate::msg::type_name(ty),
            thousands(n),
            100.0 * n as f64 / s.messages.max(1) as f64
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_durations_read_as_text() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(duration(3_723.5), "1h 02m 03.500s");
        assert_eq!(duration(-1.0), "0h 00m 00.000s");
    }
}
