//! The input of the system under test: the trades and price level updates of each IEX-TP
//! segment, extracted from a capture into plain structs before anything is timed, together with
//! the aggregates computed directly from the IEX message views (the correctness gate's truth).

use crate::agg::{symbol_key, Aggregates};
use sbekit_iex::{synth, Message, ReadOptions, Segment, Segments};
use std::path::{Path, PathBuf};

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A trade report (`T`).
    Trade,
    /// A price level update on the buy side (`8`).
    Bid,
    /// A price level update on the sell side (`5`).
    Ask,
}

/// One trade or price level update, as every format is given it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Event time, ns since the epoch.
    pub timestamp: i64,
    /// Price, 4 implied decimals.
    pub price: i64,
    /// The symbol's 8 space-padded bytes.
    pub symbol: [u8; 8],
    /// Trade size, or the size at the price level.
    pub size: u32,
    /// Sale condition (trades) or event flags (price level updates).
    pub flags: u8,
    /// Length of the symbol without its padding.
    pub symbol_len: u8,
    /// Trade, bid or ask.
    pub kind: Kind,
}

impl Entry {
    /// The symbol without padding, as the formats with string symbols carry it.
    #[inline]
    pub fn symbol_text(&self) -> &[u8] {
        &self.symbol[..usize::from(self.symbol_len)]
    }

    /// The symbol without padding as `&str` (IEX symbols are ASCII; anything else was replaced
    /// by `?` when the entry was extracted).
    #[inline]
    pub fn symbol_str(&self) -> &str {
        std::str::from_utf8(self.symbol_text()).unwrap_or("?")
    }
}

/// The entries of one IEX-TP segment: one message of each format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    /// Sequence number of the segment's first message.
    pub sequence: u64,
    /// First entry (index into [`Chunk::entries`]).
    pub start: u32,
    /// One past the last entry.
    pub end: u32,
}

/// A run of segments held in memory at once (a whole day when it fits).
#[derive(Default)]
pub struct Chunk {
    /// Segments with at least one trade or price level update.
    pub batches: Vec<Batch>,
    /// Their entries, in capture order.
    pub entries: Vec<Entry>,
    /// Aggregates computed directly from the IEX message views.
    pub expected: Aggregates,
}

impl Chunk {
    /// The entries of a batch.
    #[inline]
    pub fn entries_of(&self, b: &Batch) -> &[Entry] {
        &self.entries[b.start as usize..b.end as usize]
    }

    fn clear(&mut self) {
        self.batches.clear();
        self.entries.clear();
        self.expected.clear();
    }
}

/// Counts over the whole input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct InputStats {
    /// IEX-TP segments read (heartbeats included).
    pub segments: u64,
    /// IEX messages read (all types).
    pub iex_messages: u64,
    /// Segments carrying trades or price level updates (= messages of each format).
    pub batches: u64,
    /// Trade reports.
    pub trades: u64,
    /// Price level updates.
    pub quotes: u64,
    /// Corrupt segments or messages skipped.
    pub skipped_errors: u64,
    /// Chunks the input was processed in.
    pub chunks: u64,
}

/// Where the IEX data comes from.
#[derive(Debug, Clone)]
pub enum Input {
    /// The built-in synthetic DEEP day, generated in memory.
    Synthetic(synth::SynthConfig),
    /// A capture file (pcap or pcap-ng, plain or gzip).
    File(PathBuf),
}

impl Input {
    /// The built-in day with `messages` IEX messages (seed 1).
    pub fn synthetic(messages: u64) -> Input {
        Input::Synthetic(synth::SynthConfig {
            messages,
            ..synth::SynthConfig::default()
        })
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match self {
            Input::Synthetic(c) => format!(
                "built-in synthetic DEEP day (seed {}, {} messages, {} symbols)",
                c.seed, c.messages, c.symbols
            ),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// Why the input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The capture could not be opened or generated.
    #[error("{path}: {source}")]
    Io {
        /// The file (or `<synthetic>`).
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The capture is malformed beyond what can be skipped.
    #[error("{path}: {source}")]
    Iex {
        /// The file (or `<synthetic>`).
        path: String,
        /// The reader's error.
        source: sbekit_iex::Error,
    },
}

/// Extracts entries from segments into chunks.
struct Extractor {
    chunk: Chunk,
    stats: InputStats,
}

impl Extractor {
    fn add_segment(&mut self, seg: &Segment<'_>) {
        self.stats.segments += 1;
        let start = self.chunk.entries.len();
        for m in seg.messages() {
            let m = match m {
                Ok(m) => m,
                Err(_) => {
                    self.stats.skipped_errors += 1;
                    continue;
                }
            };
            self.stats.iex_messages += 1;
            // The gate's truth comes straight from the IEX views; the entries are what the
            // formats get.
            let exp = &mut self.chunk.expected;
            let (kind, symbol, price, size, flags) = match m {
                Message::TradeReport(t) => {
                    exp.trade(symbol_key(t.symbol().bytes()), t.size());
                    (
                        Kind::Trade,
                        t.symbol(),
                        t.price().raw(),
                        t.size(),
                        t.sale_condition(),
                    )
                }
                Message::PriceLevelUpdate(p) => {
                    exp.quote(symbol_key(p.symbol().bytes()), p.price().raw(), p.is_buy());
                    let kind = if p.is_buy() { Kind::Bid } else { Kind::Ask };
                    (kind, p.symbol(), p.price().raw(), p.size(), p.event_flags())
                }
                _ => continue,
            };
            let mut sym = *symbol.bytes();
            // Formats with string symbols need UTF-8; IEX symbols are ASCII.
            for b in sym.iter_mut() {
                if !b.is_ascii() {
                    *b = b'?';
                }
            }
            let symbol_len = sym.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1) as u8;
            self.chunk.entries.push(Entry {
                timestamp: m.timestamp().unwrap_or(0),
                price,
                symbol: sym,
                size,
                flags,
                symbol_len,
                kind,
            });
        }
        let end = self.chunk.entries.len();
        if end > start {
            self.chunk.batches.push(Batch {
                sequence: seg.first_seq() as u64,
                start: start as u32,
                end: end as u32,
            });
            self.chunk.expected.batch();
            self.stats.batches += 1;
            for e in &self.chunk.entries[start..end] {
                match e.kind {
                    Kind::Trade => self.stats.trades += 1,
                    _ => self.stats.quotes += 1,
                }
            }
        }
    }

    fn full(&self, chunk_entries: usize) -> bool {
        self.chunk.entries.len() >= chunk_entries
    }

    fn flush<E>(&mut self, f: &mut impl FnMut(&Chunk) -> Result<(), E>) -> Result<(), E> {
        if !self.chunk.batches.is_empty() {
            self.stats.chunks += 1;
            f(&self.chunk)?;
        }
        self.chunk.clear();
        Ok(())
    }
}

/// Reads `input` and calls `f` with each chunk of at most about `chunk_entries` entries (whole
/// segments; the last chunk may be smaller). `limit` stops after that many IEX messages.
/// Corrupt segments and messages are skipped and counted, as IEX files sometimes have them.
pub fn for_each_chunk<E: From<InputError>>(
    input: &Input,
    limit: Option<u64>,
    chunk_entries: usize,
    mut f: impl FnMut(&Chunk) -> Result<(), E>,
) -> Result<InputStats, E> {
    let mut x = Extractor {
        chunk: Chunk::default(),
        stats: InputStats::default(),
    };
    let opts = ReadOptions { keep_going: true };
    let over = |x: &Extractor| limit.is_some_and(|l| x.stats.iex_messages >= l);
    match input {
        Input::Synthetic(cfg) => {
            let mut bytes = Vec::new();
            synth::generate(cfg, &mut bytes).map_err(|source| InputError::Io {
                path: "<synthetic>".into(),
                source,
            })?;
            let segs = Segments::new(&bytes, opts).map_err(|source| InputError::Iex {
                path: "<synthetic>".into(),
                source,
            })?;
            for s in segs {
                match s {
                    Ok(s) => x.add_segment(&s),
                    Err(_) => x.stats.skipped_errors += 1,
                }
                if x.full(chunk_entries) {
                    x.flush(&mut f)?;
                }
                if over(&x) {
                    break;
                }
            }
        }
        Input::File(path) => {
            let err = |source| InputError::Iex {
                path: path.display().to_string(),
                source,
            };
            let mut segs = open(path, opts).map_err(err)?;
            while let Some(s) = segs.next_segment() {
                match s {
                    Ok(s) => x.add_segment(&s),
                    Err(e) if x.stats.segments == 0 => return Err(err(e).into()),
                    Err(_) => x.stats.skipped_errors += 1,
                }
                if x.full(chunk_entries) {
                    x.flush(&mut f)?;
                }
                if over(&x) {
                    break;
                }
            }
        }
    }
    x.flush(&mut f)?;
    Ok(x.stats)
}

fn open(
    path: &Path,
    opts: ReadOptions,
) -> Result<sbekit_iex::StreamSegments<sbekit_iex::DynRead>, sbekit_iex::Error> {
    sbekit_iex::open_stream(path, opts)
}
