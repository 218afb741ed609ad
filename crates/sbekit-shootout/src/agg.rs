//! Per-symbol aggregates: the output of the system under test, and the correctness gate.
//!
//! Every format's reader feeds an [`Aggregates`]; the gate compares each of them with the
//! aggregates computed directly from the IEX messages. The table is a small open-addressing hash
//! map keyed by the 8 symbol bytes read as a little-endian `u64`, so its cost is the same for
//! every format and small next to decoding.

use std::fmt;

/// What the system under test computes for one symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymbolStats {
    /// Total traded volume (sum of trade sizes).
    pub volume: u64,
    /// Trades seen.
    pub trades: u32,
    /// Price level updates seen.
    pub quotes: u32,
    /// Lowest bid price (buy side price level updates), `i64::MAX` when none.
    pub bid_low: i64,
    /// Highest bid price, `i64::MIN` when none.
    pub bid_high: i64,
    /// Lowest ask price (sell side price level updates), `i64::MAX` when none.
    pub ask_low: i64,
    /// Highest ask price, `i64::MIN` when none.
    pub ask_high: i64,
}

impl Default for SymbolStats {
    fn default() -> Self {
        SymbolStats {
            volume: 0,
            trades: 0,
            quotes: 0,
            bid_low: i64::MAX,
            bid_high: i64::MIN,
            ask_low: i64::MAX,
            ask_high: i64::MIN,
        }
    }
}

/// One cache line per symbol, so an update costs at most one miss.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Slot {
    key: u64,
    used: bool,
    stats: SymbolStats,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 64);

const EMPTY: Slot = Slot {
    key: 0,
    used: false,
    stats: SymbolStats {
        volume: 0,
        trades: 0,
        quotes: 0,
        bid_low: i64::MAX,
        bid_high: i64::MIN,
        ask_low: i64::MAX,
        ask_high: i64::MIN,
    },
};

/// Per-symbol aggregates, plus message counts.
#[derive(Clone)]
pub struct Aggregates {
    slots: Vec<Slot>,
    shift: u32,
    len: usize,
    /// Format messages read (one per IEX-TP segment with trades or price level updates).
    pub batches: u64,
    /// Trades read.
    pub trades: u64,
    /// Price level updates read.
    pub quotes: u64,
}

impl Default for Aggregates {
    fn default() -> Self {
        Self::new()
    }
}

/// A symbol as the 8 space-padded bytes IEX sends, read as a little-endian `u64`.
#[inline]
pub fn symbol_key(symbol: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*symbol)
}

/// The key of a symbol given as text without padding (at most 8 bytes; longer text gets a key
/// no IEX symbol has, so the gate reports it).
#[inline]
pub fn text_key(text: &[u8]) -> u64 {
    let mut b = [b' '; 8];
    match b.get_mut(..text.len()) {
        Some(dst) => dst.copy_from_slice(text),
        None => return u64::MAX,
    }
    u64::from_le_bytes(b)
}

impl Aggregates {
    /// An empty table with room for 16k symbols before it grows.
    pub fn new() -> Self {
        Self::with_bits(15)
    }

    fn with_bits(bits: u32) -> Self {
        Aggregates {
            slots: vec![EMPTY; 1 << bits],
            shift: 64 - bits,
            len: 0,
            batches: 0,
            trades: 0,
            quotes: 0,
        }
    }

    /// Forgets all symbols and counts, keeping the memory.
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.slots.fill(EMPTY);
        }
        self.len = 0;
        self.batches = 0;
        self.trades = 0;
        self.quotes = 0;
    }

    /// Symbols seen.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no symbol was seen.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn slot(&mut self, key: u64) -> &mut SymbolStats {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if !s.used || s.key == key {
                break;
            }
            i = (i + 1) & mask;
        }
        let s = &mut self.slots[i];
        if !s.used {
            s.used = true;
            s.key = key;
            self.len += 1;
        }
        &mut s.stats
    }

    #[cold]
    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let mut bigger = Self::with_bits(bits);
        for s in self.slots.iter().filter(|s| s.used) {
            *bigger.slot(s.key) = s.stats;
        }
        self.slots = bigger.slots;
        self.shift = bigger.shift;
    }

    /// Adds a trade.
    #[inline]
    pub fn trade(&mut self, key: u64, size: u32) {
        self.trades += 1;
        let s = self.slot(key);
        s.volume += u64::from(size);
        s.trades += 1;
    }

    /// Adds a price level update (`buy` false: the sell side).
    #[inline]
    pub fn quote(&mut self, key: u64, price: i64, buy: bool) {
        self.quotes += 1;
        let s = self.slot(key);
        s.quotes += 1;
        if buy {
            s.bid_low = s.bid_low.min(price);
            s.bid_high = s.bid_high.max(price);
        } else {
            s.ask_low = s.ask_low.min(price);
            s.ask_high = s.ask_high.max(price);
        }
    }

    /// Counts one format message read.
    #[inline]
    pub fn batch(&mut self) {
        self.batches += 1;
    }

    /// The stats of a symbol given by its key.
    pub fn get(&self, key: u64) -> Option<&SymbolStats> {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if !s.used {
                return None;
            }
            if s.key == key {
                return Some(&s.stats);
            }
            i = (i + 1) & mask;
        }
    }

    /// All symbols with their stats, sorted by symbol.
    pub fn sorted(&self) -> Vec<([u8; 8], SymbolStats)> {
        let mut v: Vec<_> = self
            .slots
            .iter()
            .filter(|s| s.used)
            .map(|s| (s.key.to_le_bytes(), s.stats))
            .collect();
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    /// Compares with the expected aggregates; `None` when equal, else the first difference.
    pub fn diff(&self, expected: &Aggregates) -> Option<Mismatch> {
        let counts = |a: &Aggregates| (a.batches, a.trades, a.quotes);
        if counts(self) != counts(expected) {
            return Some(Mismatch::Counts {
                expected: counts(expected),
                found: counts(self),
            });
        }
        for (sym, want) in expected.sorted() {
            let got = self.get(symbol_key(&sym)).copied();
            if got != Some(want) {
                return Some(Mismatch::Symbol {
                    symbol: sym,
                    expected: Some(want),
                    found: got,
                });
            }
        }
        if self.len != expected.len {
            let extra = self
                .sorted()
                .into_iter()
                .find(|(s, _)| expected.get(symbol_key(s)).is_none());
            if let Some((symbol, found)) = extra {
                return Some(Mismatch::Symbol {
                    symbol,
                    expected: None,
                    found: Some(found),
                });
            }
        }
        None
    }
}

/// How a format's aggregates differ from the expected ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Message counts (batches, trades, price level updates) differ.
    Counts {
        /// Counted from the IEX messages.
        expected: (u64, u64, u64),
        /// Counted by the format's reader.
        found: (u64, u64, u64),
    },
    /// One symbol's stats differ (or the symbol is missing on one side).
    Symbol {
        /// The symbol (8 bytes, space padded).
        symbol: [u8; 8],
        /// Computed from the IEX messages.
        expected: Option<SymbolStats>,
        /// Computed by the format's reader.
        found: Option<SymbolStats>,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Counts { expected, found } => write!(
                f,
                "message counts differ: expected {} messages / {} trades / {} price level updates, \
                 read {} / {} / {}",
                expected.0, expected.1, expected.2, found.0, found.1, found.2
            ),
            Mismatch::Symbol {
                symbol,
                expected,
                found,
            } => write!(
                f,
                "symbol {:?}: expected {:?}, read {:?}",
                String::from_utf8_lossy(symbol).trim_end(),
                expected,
                found
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_grows_and_compares() {
        let mut a = Aggregates::new();
        let mut b = Aggregates::new();
        for i in 0..100_000u64 {
            a.trade(i, 1);
            a.quote(i, i as i64, i % 2 == 0);
        }
        for i in (0..100_000u64).rev() {
            b.quote(i, i as i64, i % 2 == 0);
            b.trade(i, 1);
        }
        assert_eq!(a.len(), 100_000);
        assert_eq!(a.diff(&b), None);
        b.trade(7, 1);
        assert!(a.diff(&b).is_some());
        a.clear();
        assert!(a.is_empty());
        assert_eq!(a.get(3), None);
    }

    #[test]
    fn text_keys_pad_with_spaces() {
        assert_eq!(text_key(b"AAPL"), symbol_key(b"AAPL    "));
        assert_eq!(text_key(b"ABCDEFGH"), symbol_key(b"ABCDEFGH"));
        assert_eq!(text_key(b"ABCDEFGHI"), u64::MAX);
    }
}
