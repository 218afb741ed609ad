//! The two benchmark queries, over a memory-mapped trade file or (as a yardstick) over CSV.
//!
//! * **easy**: for every hour, the ratio of bmex's to gdax's volume-weighted average btc/usd
//!   price: `(Σ price·amount / Σ amount)[bmex] / (same)[gdax]`.
//! * **hard**: every 10 seconds, the same ratio over the trailing 5, 15 and 60 minutes.
//!
//! Both cover every hour (every 10-second step) from the first trade's to the last trade's,
//! with no gaps; a ratio is NaN when either exchange has no btc/usd trade in the period.
//! Hours start on multiples of 3600 s since the epoch. Hard-query rows are labelled with the
//! end `T` of a 10-second step (a multiple of 10 s) and cover trades with
//! `T - window <= time < T`; the first row is the step holding the first trade, the last the
//! step holding the last trade.
//!
//! The hard query's windows are kept online: per-step sums go through a sliding-window sum
//! ([`SlidingSum`]) that never subtracts, so results do not drift however long the file.
//! Records are never read twice (with `--threads`, each part re-reads only the hour before it
//! to warm its windows up).

use crate::codec::{Currency, Exchange};
use crate::csvio;
use crate::error::{Error, Result};
use crate::file::TradeFile;
use crate::reader::TradeReader;
use crate::trade::{
    Compact, KeyMask, LayoutKind, Lossless, RecordLayout, RecordView, HEADER_LENGTH,
};
use std::fs::File;
use std::ops::Range;
use std::path::Path;

/// Nanoseconds per hour.
pub const HOUR_NS: u64 = 3_600_000_000_000;
/// The hard query's step: 10 seconds in nanoseconds.
pub const STEP_NS: u64 = 10_000_000_000;
/// The hard query's trailing windows in steps: 5, 15 and 60 minutes.
pub const WINDOW_STEPS: [usize; 3] = [30, 90, 360];

/// How the easy query's inner loop tells bmex and gdax btc/usd trades from the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kernel {
    /// Compare exchange, base and quote as one masked integer and multiply the accumulators'
    /// increments by a 0/1 mask: no data-dependent branch.
    #[default]
    Branchless,
    /// `match` on the decoded (exchange, base, quote) enums.
    Branchy,
}

/// Volume sums of bmex (index 0) and gdax (index 1) btc/usd trades over some period.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sums {
    /// Σ price·amount.
    pub pv: [f64; 2],
    /// Σ amount.
    pub v: [f64; 2],
    /// Number of trades.
    pub n: [u64; 2],
}

impl Sums {
    /// Adds another period's sums.
    #[inline]
    pub fn add(&mut self, o: &Sums) {
        for i in 0..2 {
            self.pv[i] += o.pv[i];
            self.v[i] += o.v[i];
            self.n[i] += o.n[i];
        }
    }

    /// `vwap(bmex) / vwap(gdax)`, NaN if either side has no trade.
    pub fn ratio(&self) -> f64 {
        if self.n[0] == 0 || self.n[1] == 0 {
            return f64::NAN;
        }
        (self.pv[0] / self.v[0]) / (self.pv[1] / self.v[1])
    }

    /// Adds one trade, `b`/`g` being 1 if it is a bmex/gdax btc/usd trade and 0 otherwise.
    ///
    /// Branch-free: each increment is ANDed with an all-ones or all-zeros bit mask (the
    /// bitwise form of multiplying by 1 or 0, which compilers tend to turn back into a
    /// branch). A masked increment is +0.0, and adding +0.0 leaves a sum bit-for-bit
    /// unchanged, so this equals adding only the matching trades.
    #[inline(always)]
    fn trade(&mut self, price: f64, amount: f64, b: u32, g: u32) {
        let pv = price * amount;
        let mb = 0u64.wrapping_sub(u64::from(b));
        let mg = 0u64.wrapping_sub(u64::from(g));
        let and = |x: f64, m: u64| f64::from_bits(x.to_bits() & m);
        self.pv[0] += and(pv, mb);
        self.v[0] += and(amount, mb);
        self.pv[1] += and(pv, mg);
        self.v[1] += and(amount, mg);
        self.n[0] += u64::from(b);
        self.n[1] += u64::from(g);
    }
}

/// Which side of the ratio a trade is on: (1, 0) bmex btc/usd, (0, 1) gdax btc/usd, else (0, 0).
#[inline(always)]
fn sides(e: Exchange, base: Currency, quote: Currency) -> (u32, u32) {
    match (e, base, quote) {
        (Exchange::Bmex, Currency::Btc, Currency::Usd) => (1, 0),
        (Exchange::Gdax, Currency::Btc, Currency::Usd) => (0, 1),
        _ => (0, 0),
    }
}

// ---------------------------------------------------------------------------------------
// Easy query

/// One row of the easy query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EasyRow {
    /// Start of the hour, ns since the epoch.
    pub hour: u64,
    /// bmex/gdax btc/usd VWAP ratio (NaN when a side has no trade).
    pub ratio: f64,
}

/// Per-hour sums over a run of trades, from the first trade's hour to the last one's.
#[derive(Debug, Clone, Default)]
struct HourAcc {
    started: bool,
    base: u64,
    hours: Vec<Sums>,
    cur: Sums,
    cur_hour: u64,
    hour_end: u64,
}

impl HourAcc {
    #[cold]
    #[inline(never)]
    fn roll(&mut self, t: u64) {
        let h = t / HOUR_NS;
        if self.started {
            if h == self.cur_hour {
                return; // only at the end of the u64 range, where hour_end saturates
            }
            self.hours.push(std::mem::take(&mut self.cur));
            for _ in self.cur_hour + 1..h {
                self.hours.push(Sums::default());
            }
        } else {
            self.started = true;
            self.base = h;
        }
        self.cur_hour = h;
        self.hour_end = (h + 1).saturating_mul(HOUR_NS);
    }

    fn finish(mut self) -> Self {
        if self.started {
            self.hours.push(std::mem::take(&mut self.cur));
        }
        self
    }
}

#[inline(always)]
fn easy_window<L: RecordLayout, const BRANCHLESS: bool>(
    bytes: &[u8],
    n: usize,
    acc: &mut HourAcc,
    km: (KeyMask, KeyMask),
) {
    let mut cur = acc.cur;
    let mut end = if acc.started { acc.hour_end } else { 0 };
    for i in 0..n {
        let at = i * L::SIZE;
        let Some(rec) = bytes.get(at..at + HEADER_LENGTH + L::SIZE) else {
            break;
        };
        let Some(v) = L::view(rec) else { break };
        let t = v.time();
        if t >= end {
            acc.cur = cur;
            acc.roll(t);
            cur = acc.cur;
            end = acc.hour_end;
        }
        let (b, g) = if BRANCHLESS {
            let word = match rec.get(HEADER_LENGTH..).and_then(|r| r.first_chunk::<8>()) {
                Some(w) => u64::from_le_bytes(*w),
                None => 0,
            };
            (
                u32::from(word & km.0.mask == km.0.key),
                u32::from(word & km.1.mask == km.1.key),
            )
        } else {
            sides(v.exchange(), v.base(), v.quote())
        };
        cur.trade(v.price(), v.amount(), b, g);
    }
    acc.cur = cur;
}

fn key_masks<L: RecordLayout>() -> Result<(KeyMask, KeyMask)> {
    let k = |e| KeyMask::new::<L>(e, Currency::Btc, Currency::Usd);
    match (k(Exchange::Bmex), k(Exchange::Gdax)) {
        (Some(b), Some(g)) => Ok((b, g)),
        _ => Err(Error::Invalid(
            "this record layout does not keep exchange and ticker in its first 8 bytes".into(),
        )),
    }
}

fn easy_range<L: RecordLayout>(
    f: &TradeFile,
    range: Range<u64>,
    kernel: Kernel,
) -> Result<HourAcc> {
    let km = key_masks::<L>()?;
    let mut acc = HourAcc::default();
    f.scan(range, |bytes, n| -> Result<()> {
        match kernel {
            Kernel::Branchless => easy_window::<L, true>(bytes, n, &mut acc, km),
            Kernel::Branchy => easy_window::<L, false>(bytes, n, &mut acc, km),
        }
        Ok(())
    })?;
    Ok(acc.finish())
}

/// Splits `0..n` into `parts` contiguous ranges of nearly equal length.
fn split(n: u64, parts: usize) -> Vec<Range<u64>> {
    let p = parts.max(1) as u64;
    (0..p)
        .map(|i| (i * n / p)..((i + 1) * n / p))
        .filter(|r| !r.is_empty())
        .collect()
}

/// Merges per-part hour sums into one row per hour from the first part's first hour to the
/// last part's last hour (parts cover disjoint, ascending record ranges).
fn easy_rows(parts: Vec<HourAcc>) -> Vec<EasyRow> {
    let started: Vec<&HourAcc> = parts.iter().filter(|p| p.started).collect();
    let (Some(first), Some(last)) = (
        started.iter().map(|p| p.base).min(),
        started
            .iter()
            .map(|p| p.base + p.hours.len().saturating_sub(1) as u64)
            .max(),
    ) else {
        return Vec::new();
    };
    let mut hours = vec![Sums::default(); (last - first + 1) as usize];
    for p in started {
        for (i, s) in p.hours.iter().enumerate() {
            if let Some(slot) = hours.get_mut((p.base - first) as usize + i) {
                slot.add(s);
            }
        }
    }
    hours
        .iter()
        .enumerate()
        .map(|(i, s)| EasyRow {
            hour: (first + i as u64) * HOUR_NS,
            ratio: s.ratio(),
        })
        .collect()
}

fn run_parts<T: Send>(
    ranges: Vec<Range<u64>>,
    work: impl Fn(Range<u64>) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    if ranges.len() <= 1 {
        return ranges.into_iter().map(&work).collect();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = ranges
            .into_iter()
            .map(|r| {
                let work = &work;
                s.spawn(move || work(r))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Invalid("a query thread panicked".into())))
            })
            .collect()
    })
}

/// The easy query over a trade file, on `threads` threads (each scans a contiguous part).
pub fn easy(f: &TradeFile, threads: usize, kernel: Kernel) -> Result<Vec<EasyRow>> {
    if f.is_empty() {
        return Ok(Vec::new());
    }
    let ranges = split(f.len(), threads);
    let parts = match f.header().layout {
        LayoutKind::Lossless => run_parts(ranges, |r| easy_range::<Lossless>(f, r, kernel))?,
        LayoutKind::Compact => run_parts(ranges, |r| easy_range::<Compact>(f, r, kernel))?,
    };
    Ok(easy_rows(parts))
}

// ---------------------------------------------------------------------------------------
// Hard query

/// A sum over the last `w` values pushed (values before the first push count as zero),
/// without subtraction: values are grouped in blocks of `w`; the window is a suffix of the
/// previous block (whose suffix sums are computed once, when it completes) plus a prefix of
/// the current one. Each result is the sum of two runs of at most `w` additions, so there is
/// no drift, and each push costs O(1) amortized.
#[derive(Debug, Clone)]
pub struct SlidingSum {
    w: usize,
    block: Vec<Sums>,
    prefix: Sums,
    suffix: Vec<Sums>,
}

impl SlidingSum {
    /// A window over the last `w` values (`w >= 1`).
    pub fn new(w: usize) -> Self {
        let w = w.max(1);
        SlidingSum {
            w,
            block: Vec::with_capacity(w),
            prefix: Sums::default(),
            suffix: vec![Sums::default(); w + 1],
        }
    }

    /// Pushes a value; returns the sum of the last `w` values.
    pub fn push(&mut self, x: Sums) -> Sums {
        self.block.push(x);
        self.prefix.add(&x);
        let j = self.block.len();
        let mut out = self.suffix[j];
        out.add(&self.prefix);
        if j == self.w {
            let mut acc = Sums::default();
            self.suffix[self.w] = acc;
            for k in (0..self.w).rev() {
                acc.add(&self.block[k]);
                self.suffix[k] = acc;
            }
            self.block.clear();
            self.prefix = Sums::default();
            out = self.suffix[0];
        }
        out
    }
}

/// One row of the hard query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HardRow {
    /// End of the 10-second step (exclusive), ns since the epoch.
    pub time: u64,
    /// The ratio over the trailing 5, 15 and 60 minutes.
    pub ratio: [f64; 3],
}

/// The hard query's state: the current step's sums and the three windows.
#[derive(Debug, Clone)]
struct HardState {
    cur_step: u64,
    step_end: u64,
    cur: Sums,
    windows: [SlidingSum; 3],
    emit_from: u64,
    out: Vec<HardRow>,
}

impl HardState {
    fn new(start_step: u64, emit_from: u64) -> Self {
        HardState {
            cur_step: start_step,
            step_end: (start_step + 1).saturating_mul(STEP_NS),
            cur: Sums::default(),
            windows: WINDOW_STEPS.map(SlidingSum::new),
            emit_from,
            out: Vec::new(),
        }
    }

    fn close_step(&mut self) {
        let x = std::mem::take(&mut self.cur);
        let r = [
            self.windows[0].push(x).ratio(),
            self.windows[1].push(x).ratio(),
            self.windows[2].push(x).ratio(),
        ];
        if self.cur_step >= self.emit_from {
            self.out.push(HardRow {
                time: (self.cur_step + 1).saturating_mul(STEP_NS),
                ratio: r,
            });
        }
        self.cur_step += 1;
    }

    /// Closes steps up to and including `last`.
    fn close_through(&mut self, last: u64) {
        while self.cur_step <= last {
            self.close_step();
        }
        self.step_end = (self.cur_step + 1).saturating_mul(STEP_NS);
    }

    #[cold]
    #[inline(never)]
    fn roll(&mut self, t: u64) {
        let s = t / STEP_NS;
        if s > self.cur_step {
            self.close_through(s - 1);
        }
    }
}

#[inline(always)]
fn hard_window<L: RecordLayout>(
    bytes: &[u8],
    n: usize,
    st: &mut HardState,
    km: (KeyMask, KeyMask),
) {
    let mut cur = st.cur;
    let mut end = st.step_end;
    for i in 0..n {
        let at = i * L::SIZE;
        let Some(rec) = bytes.get(at..at + HEADER_LENGTH + L::SIZE) else {
            break;
        };
        let Some(v) = L::view(rec) else { break };
        let t = v.time();
        if t >= end {
            st.cur = cur;
            st.roll(t);
            cur = st.cur;
            end = st.step_end;
        }
        let word = match rec.get(HEADER_LENGTH..).and_then(|r| r.first_chunk::<8>()) {
            Some(w) => u64::from_le_bytes(*w),
            None => 0,
        };
        cur.trade(
            v.price(),
            v.amount(),
            u32::from(word & km.0.mask == km.0.key),
            u32::from(word & km.1.mask == km.1.key),
        );
    }
    st.cur = cur;
}

/// A part of the hard query: steps `emit.start..=emit.end` from records `records`, starting
/// the windows at step `start`.
#[derive(Debug, Clone)]
struct HardPart {
    start: u64,
    emit: Range<u64>,
    records: Range<u64>,
}

fn hard_part<L: RecordLayout>(
    f: &TradeFile,
    p: &HardPart,
    sink: &mut dyn FnMut(&[HardRow]) -> Result<()>,
) -> Result<()> {
    let km = key_masks::<L>()?;
    let mut st = HardState::new(p.start, p.emit.start);
    f.scan(p.records.clone(), |bytes, n| -> Result<()> {
        hard_window::<L>(bytes, n, &mut st, km);
        sink(&st.out)?;
        st.out.clear();
        Ok(())
    })?;
    st.close_through(p.emit.end);
    sink(&st.out)
}

fn hard_parts(f: &TradeFile, threads: usize) -> Result<Vec<HardPart>> {
    let h = f.header();
    let (first, last) = (h.time_min / STEP_NS, h.time_max / STEP_NS);
    let warm = *WINDOW_STEPS.iter().max().unwrap_or(&0) as u64;
    // Part boundaries: steps near equal record counts, strictly increasing.
    let mut bounds = vec![first];
    for r in split(f.len(), threads).iter().skip(1) {
        let s = f.trade_at(r.start)?.time / STEP_NS;
        if s > *bounds.last().unwrap_or(&first) && s <= last {
            bounds.push(s);
        }
    }
    bounds.push(last + 1);
    let mut parts = Vec::new();
    for w in bounds.windows(2) {
        let (from, to) = (w[0], w[1]);
        let start = from.saturating_sub(warm).max(first);
        let lo = f.lower_bound(start.saturating_mul(STEP_NS))?;
        let hi = if to > last {
            f.len()
        } else {
            f.lower_bound(to.saturating_mul(STEP_NS))?
        };
        parts.push(HardPart {
            start,
            emit: from..to - 1,
            records: lo..hi,
        });
    }
    Ok(parts)
}

/// The hard query over a trade file; rows go to `sink` in time order, a batch at a time.
/// With one thread rows stream out as the scan goes (memory stays constant); with more, each
/// thread collects its part's rows and they are written in order at the end.
pub fn hard(
    f: &TradeFile,
    threads: usize,
    sink: &mut dyn FnMut(&[HardRow]) -> Result<()>,
) -> Result<()> {
    if f.is_empty() {
        return Ok(());
    }
    let parts = hard_parts(f, threads)?;
    let layout = f.header().layout;
    let one = |p: &HardPart, sink: &mut dyn FnMut(&[HardRow]) -> Result<()>| match layout {
        LayoutKind::Lossless => hard_part::<Lossless>(f, p, sink),
        LayoutKind::Compact => hard_part::<Compact>(f, p, sink),
    };
    if parts.len() == 1 {
        return one(&parts[0], sink);
    }
    let ranges: Vec<Range<u64>> = (0..parts.len() as u64).map(|i| i..i + 1).collect();
    let results = run_parts(ranges, |r| {
        let mut rows = Vec::new();
        one(&parts[r.start as usize], &mut |b: &[HardRow]| {
            rows.extend_from_slice(b);
            Ok(())
        })?;
        Ok(rows)
    })?;
    for rows in results {
        sink(&rows)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The same queries over CSV

/// Reads trades from a CSV file in order, stopping at the first malformed or out-of-order row.
fn csv_trades(
    path: &Path,
    mut each: impl FnMut(&crate::trade::Trade) -> Result<()>,
) -> Result<u64> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let name = path.display().to_string();
    let mut rdr = TradeReader::new(file, &name)?;
    let bad = |line: u64, reason: String| Error::BadRow {
        path: name.clone(),
        line,
        reason,
    };
    let (mut rows, mut last) = (0u64, 0u64);
    while let Some((line, row)) = rdr.next_row()? {
        let t = row.map_err(|r| bad(line, r))?;
        if rows > 0 && t.time < last {
            return Err(bad(
                line,
                format!("time {} is before the previous row's {last}", t.time),
            ));
        }
        last = t.time;
        rows += 1;
        each(&t)?;
    }
    Ok(rows)
}

/// The easy query straight over a CSV file (parsing every row), for comparison.
pub fn easy_csv(path: &Path) -> Result<(Vec<EasyRow>, u64)> {
    let mut acc = HourAcc::default();
    let rows = csv_trades(path, |t| {
        if t.time >= acc.hour_end {
            acc.roll(t.time);
        }
        let (b, g) = sides(t.exchange, t.base, t.quote);
        acc.cur.trade(t.price, t.amount, b, g);
        Ok(())
    })?;
    Ok((easy_rows(vec![acc.finish()]), rows))
}

/// The hard query straight over a CSV file, for comparison; returns the rows read.
pub fn hard_csv(path: &Path, sink: &mut dyn FnMut(&[HardRow]) -> Result<()>) -> Result<u64> {
    let mut st: Option<HardState> = None;
    let mut last = 0;
    let rows = csv_trades(path, |t| {
        let s = st.get_or_insert_with(|| {
            let first = t.time / STEP_NS;
            HardState::new(first, first)
        });
        last = t.time;
        if t.time >= s.step_end {
            s.roll(t.time);
            sink(&s.out)?;
            s.out.clear();
        }
        let (b, g) = sides(t.exchange, t.base, t.quote);
        s.cur.trade(t.price, t.amount, b, g);
        Ok(())
    })?;
    if let Some(mut s) = st {
        s.close_through(last / STEP_NS);
        sink(&s.out)?;
    }
    Ok(rows)
}

// ---------------------------------------------------------------------------------------
// Baselines

fn baseline_range(f: &TradeFile, range: Range<u64>) -> Result<u64> {
    let size = usize::from(f.header().record_size);
    let mut sum = 0u64;
    f.scan(range, |bytes, _| -> Result<()> {
        let recs = bytes.get(HEADER_LENGTH..).unwrap_or(&[]);
        for r in recs.chunks_exact(size) {
            if let Some(w) = r.first_chunk::<8>() {
                sum = sum.wrapping_add(u64::from_le_bytes(*w));
            }
        }
        Ok(())
    })?;
    Ok(sum)
}

/// The memory-bandwidth baseline: the (wrapping) sum of the first 8 bytes of every record,
/// read through the same windowed memory map as the queries.
pub fn baseline(f: &TradeFile, threads: usize) -> Result<u64> {
    let parts = run_parts(split(f.len(), threads), |r| baseline_range(f, r))?;
    Ok(parts.into_iter().fold(0, u64::wrapping_add))
}

/// A bare scan of a CSV file with the `csv` crate (records split into fields, nothing
/// parsed); returns the number of records, header included.
pub fn baseline_csv(path: &Path) -> Result<u64> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut rdr = csvio::reader(file);
    let mut rec = csv::ByteRecord::new();
    let mut n = 0u64;
    while rdr.read_byte_record(&mut rec).map_err(|e| Error::BadRow {
        path: path.display().to_string(),
        line: e.position().map(|p| p.line()).unwrap_or(0),
        reason: e.to_string(),
    })? {
        n += 1;
    }
    Ok(n)
}
