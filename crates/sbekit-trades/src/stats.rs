//! Rows per exchange and ticker.

use crate::codec::{Currency, Exchange};
use crate::error::Result;
use crate::file::{records, TradeFile};
use crate::trade::{Compact, LayoutKind, Lossless, RecordLayout, RecordView};
use std::collections::BTreeMap;

/// Counts per (exchange, base, quote) raw code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rows per (exchange, base, quote) codes.
    pub counts: BTreeMap<(u8, u8, u8), u64>,
    /// Total rows.
    pub rows: u64,
}

impl Stats {
    /// The rows as (exchange name, ticker, count), codes without a name shown as numbers.
    pub fn named(&self) -> Vec<(String, String, u64)> {
        let cur = |c: u8| {
            Currency::from_raw(c)
                .name()
                .map_or_else(|| format!("#{c}"), str::to_string)
        };
        self.counts
            .iter()
            .map(|(&(e, b, q), &n)| {
                let ex = Exchange::from_raw(e)
                    .name()
                    .map_or_else(|| format!("#{e}"), str::to_string);
                (ex, format!("{}_{}", cur(b), cur(q)), n)
            })
            .collect()
    }
}

/// Small codes are counted in a dense table; anything else goes to a map.
const DENSE: usize = 16;

fn stats_range<L: RecordLayout>(f: &TradeFile, range: std::ops::Range<u64>) -> Result<Stats> {
    let mut dense = vec![0u64; DENSE * DENSE * DENSE];
    let mut st = Stats::default();
    f.scan(range, |bytes, n| -> Result<()> {
        for v in records::<L>(bytes, n) {
            let (e, b, q) = (v.exchange().to_raw(), v.base().to_raw(), v.quote().to_raw());
            let (ue, ub, uq) = (usize::from(e), usize::from(b), usize::from(q));
            match dense.get_mut((ue * DENSE + ub) * DENSE + uq) {
                Some(c) if ue < DENSE && ub < DENSE && uq < DENSE => *c += 1,
                _ => *st.counts.entry((e, b, q)).or_default() += 1,
            }
            st.rows += 1;
        }
        Ok(())
    })?;
    for (i, &c) in dense.iter().enumerate().filter(|(_, &c)| c > 0) {
        let key = (
            (i / DENSE / DENSE) as u8,
            (i / DENSE % DENSE) as u8,
            (i % DENSE) as u8,
        );
        *st.counts.entry(key).or_default() += c;
    }
    Ok(st)
}

/// Counts the rows of a trade file per exchange and ticker.
pub fn stats(f: &TradeFile) -> Result<Stats> {
    match f.header().layout {
        LayoutKind::Lossless => stats_range::<Lossless>(f, 0..f.len()),
        LayoutKind::Compact => stats_range::<Compact>(f, 0..f.len()),
    }
}
