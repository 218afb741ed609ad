//! Whole-capture statistics: message counts by type, symbols, time span, heartbeats and
//! sequence continuity per session.

use crate::error::{Error, IexErrorKind};
use crate::msg::Message;
use crate::tp::{FrameCounters, Segment};
use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for 8-byte symbols packed into a `u64` (a multiply and a fold). Symbols are
/// not attacker-chosen keys here, so SipHash's flood resistance is not needed.
#[derive(Default, Clone, Copy)]
pub struct SymbolHasher(u64);

impl Hasher for SymbolHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // Fold the high bits down: the table indexes by the low bits, and a product's low bits
        // only depend on the key's low bytes (the first characters of the symbol).
        let h = self.0;
        h ^ (h >> 29) ^ (h >> 47)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The set of symbols seen, each packed little-endian into a `u64`.
pub type SymbolSet = HashSet<u64, BuildHasherDefault<SymbolHasher>>;

/// Identifies an IEX-TP stream: protocol id, channel id and session id.
pub type SessionKey = (u16, u32, u32);

/// Continuity of one session's sequence numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStats {
    /// Segments seen (heartbeats included).
    pub segments: u64,
    /// Heartbeat segments.
    pub heartbeats: u64,
    /// Messages announced by the segment headers.
    pub messages: u64,
    /// Times a segment started past the expected sequence number (dropped packets).
    pub gaps: u64,
    /// Messages missing in those gaps.
    pub missing_messages: u64,
    /// Times the sequence restarted (first sequence number 1 or stream offset 0).
    pub resets: u64,
    /// Segments that started before the expected number otherwise (duplicates, reordering).
    pub backwards: u64,
    /// Sequence number expected next.
    pub next_seq: Option<i64>,
}

/// Statistics over the segments fed to [`Stats::add_segment`].
#[derive(Debug, Clone)]
pub struct Stats {
    /// Messages by type byte.
    pub by_type: [u64; 256],
    /// All messages.
    pub messages: u64,
    /// IEX-TP segments, heartbeats included.
    pub segments: u64,
    /// Heartbeat segments.
    pub heartbeats: u64,
    /// Segments whose header message count differs from the blocks found.
    pub count_mismatches: u64,
    /// Message errors skipped (only with `keep_going`).
    pub message_errors: u64,
    /// Bytes of IEX-TP payload (message blocks).
    pub payload_bytes: u64,
    /// Distinct symbols seen in any message, packed with `u64::from_le_bytes`.
    pub symbols: SymbolSet,
    last_symbol: u64,
    /// Earliest and latest segment send time (ns since the epoch).
    pub send_time: Option<(i64, i64)>,
    /// Earliest and latest message timestamp.
    pub event_time: Option<(i64, i64)>,
    /// Earliest and latest packet capture time.
    pub capture_time: Option<(i64, i64)>,
    /// Per-session sequence continuity.
    pub sessions: BTreeMap<SessionKey, SessionStats>,
    /// Segments by message protocol id.
    pub protocols: BTreeMap<u16, u64>,
    /// Frames without IEX-TP (filled in by the caller from the reader's counters).
    pub frames: FrameCounters,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            by_type: [0; 256],
            messages: 0,
            segments: 0,
            heartbeats: 0,
            count_mismatches: 0,
            message_errors: 0,
            payload_bytes: 0,
            symbols: SymbolSet::default(),
            last_symbol: u64::MAX,
            send_time: None,
            event_time: None,
            capture_time: None,
            sessions: BTreeMap::new(),
            protocols: BTreeMap::new(),
            frames: FrameCounters::default(),
        }
    }
}

fn widen(span: &mut Option<(i64, i64)>, t: i64) {
    *span = Some(match *span {
        None => (t, t),
        Some((lo, hi)) => (lo.min(t), hi.max(t)),
    });
}

impl Stats {
    /// Adds one segment and its messages. Stops at the first bad message and returns its error
    /// (after counting the messages before it) unless `keep_going`, which counts and skips it.
    pub fn add_segment(&mut self, seg: &Segment<'_>, keep_going: bool) -> Result<(), Error> {
        self.segments += 1;
        self.payload_bytes += seg.payload().len() as u64;
        *self.protocols.entry(seg.protocol_id()).or_default() += 1;
        widen(&mut self.send_time, seg.send_time());
        if let Some(t) = seg.capture_time() {
            widen(&mut self.capture_time, t);
        }
        let heartbeat = seg.is_heartbeat();
        if heartbeat {
            self.heartbeats += 1;
        }
        let count = seg.message_count() as i64;
        let s = self
            .sessions
            .entry((seg.protocol_id(), seg.channel_id(), seg.session_id()))
            .or_default();
        s.segments += 1;
        s.heartbeats += heartbeat as u64;
        s.messages += count as u64;
        let first = seg.first_seq();
        if let Some(expected) = s.next_seq {
            if first > expected {
                s.gaps += 1;
                // i128: corrupt or hostile sequence numbers must not overflow.
                let missing = (first as i128 - expected as i128).min(u64::MAX as i128) as u64;
                s.missing_messages = s.missing_messages.saturating_add(missing);
            } else if first < expected {
                if first <= 1 || seg.stream_offset() == 0 {
                    s.resets += 1;
                } else {
                    s.backwards += 1;
                }
            }
        }
        s.next_seq = Some(first.saturating_add(count));

        let mut found = 0u64;
        for m in seg.messages() {
            let m = match m {
                Ok(m) => m,
                Err(e) => {
                    if keep_going && matches!(e.kind, IexErrorKind::MessageTooShort { .. }) {
                        self.message_errors += 1;
                        continue;
                    }
                    if keep_going {
                        self.message_errors += 1;
                        break;
                    }
                    return Err(e);
                }
            };
            found += 1;
            self.add_message(&m);
        }
        if found != count as u64 {
            self.count_mismatches += 1;
        }
        Ok(())
    }

    #[inline]
    fn add_message(&mut self, m: &Message<'_>) {
        self.messages += 1;
        self.by_type[m.msg_type() as usize] += 1;
        if let Some(t) = m.timestamp() {
            widen(&mut self.event_time, t);
        }
        if let Some(sym) = m.symbol() {
            let key = u64::from_le_bytes(*sym.bytes());
            // Bursts often repeat a symbol: skip the set lookup then.
            if key != self.last_symbol {
                self.last_symbol = key;
                self.symbols.insert(key);
            }
        }
    }

    /// Messages of types this crate does not decode.
    pub fn unknown_messages(&self) -> u64 {
        (0..=255u8)
            .filter(|t| crate::msg::spec_len(*t).is_none())
            .map(|t| self.by_type[t as usize])
            .sum()
    }

    /// Sum of gaps over all sessions.
    pub fn total_gaps(&self) -> (u64, u64) {
        self.sessions
            .values()
            .fold((0, 0), |(g, m), s| (g + s.gaps, m + s.missing_messages))
    }
}

/// Formats ns since the epoch as `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (UTC).
pub fn format_utc(ns: i64) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let frac = ns.rem_euclid(1_000_000_000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:09}Z",
        sod / 3600,
        sod % 3600 / 60,
        sod % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    // Shift to an era starting on 0000-03-01 so leap days fall at the end of a year.
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m, d)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (inverse of [`civil_from_days`]).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}
