//! Query results against hand-checked numbers on a tiny file, and against a brute-force
//! reference on a synthetic one (every layout, thread count and the CSV path).

mod common;

use common::*;
use sbekit_trades::codec::{Currency as C, Exchange as E};
use sbekit_trades::convert::{convert, ConvertOptions};
use sbekit_trades::file::TradeFile;
use sbekit_trades::query::{
    easy, easy_csv, hard, hard_csv, EasyRow, HardRow, Kernel, HOUR_NS, STEP_NS,
};
use sbekit_trades::synth::{Synth, SynthConfig};
use sbekit_trades::{LayoutKind, Trade};
use std::path::{Path, PathBuf};

const S: u64 = 1_000_000_000;
/// 2018-06-01T00:00:00Z, a whole hour.
const T0: u64 = 1_527_811_200 * S;

fn hand_trades() -> Vec<Trade> {
    vec![
        // Hour 0.
        trade(T0 + 5 * S, E::Bmex, C::Btc, C::Usd, 100.0, 1.0),
        trade(T0 + 6 * S, E::Bmex, C::Eth, C::Usd, 500.0, 9.0), // other ticker
        trade(T0 + 7 * S, E::Gdax, C::Eth, C::Btc, 0.07, 9.0),  // other ticker
        trade(T0 + 12 * S, E::Gdax, C::Btc, C::Usd, 100.0, 2.0),
        trade(T0 + 30 * S, E::Btfx, C::Btc, C::Usd, 999.0, 9.0), // other venue
        trade(T0 + 65 * S, E::Bmex, C::Btc, C::Usd, 110.0, 3.0),
        // Hour 1: bmex only.
        trade(T0 + HOUR_NS + 1, E::Bmex, C::Btc, C::Usd, 120.0, 1.0),
        // Hour 2: nothing. Hour 3:
        trade(T0 + 3 * HOUR_NS, E::Gdax, C::Btc, C::Usd, 100.0, 1.0),
        trade(T0 + 3 * HOUR_NS + 1, E::Gdax, C::Btc, C::Usd, 300.0, 1.0),
        trade(T0 + 4 * HOUR_NS - 1, E::Bmex, C::Btc, C::Usd, 210.0, 2.0),
    ]
}

fn build(dir: &Path, trades: &[Trade], layout: LayoutKind) -> (PathBuf, PathBuf) {
    let csv = dir.join(format!("{layout}.csv"));
    write_trades(&csv, trades);
    let bin = dir.join(format!("{layout}.sbe"));
    let o = ConvertOptions {
        layout,
        ..Default::default()
    };
    convert(&csv, &bin, &o, &mut |_, _| {}).unwrap();
    (csv, bin)
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= rel * a.abs().max(b.abs())
}

fn hard_rows(f: &TradeFile, threads: usize) -> Vec<HardRow> {
    let mut rows = Vec::new();
    hard(f, threads, &mut |b| {
        rows.extend_from_slice(b);
        Ok(())
    })
    .unwrap();
    rows
}

#[test]
fn easy_query_hand_checked() {
    let dir = tempfile::tempdir().unwrap();
    for layout in [LayoutKind::Lossless, LayoutKind::Compact] {
        let (csv, bin) = build(dir.path(), &hand_trades(), layout);
        let f = TradeFile::open(&bin).unwrap();
        for kernel in [Kernel::Branchless, Kernel::Branchy] {
            for threads in [1, 2, 3, 8] {
                let rows = easy(&f, threads, kernel).unwrap();
                let hours: Vec<u64> = rows.iter().map(|r| r.hour).collect();
                assert_eq!(
                    hours,
                    [T0, T0 + HOUR_NS, T0 + 2 * HOUR_NS, T0 + 3 * HOUR_NS]
                );
                // Hour 0: bmex (100*1 + 110*3) / 4 = 107.5; gdax 100.
                assert_eq!(rows[0].ratio, 1.075, "{layout} {kernel:?} {threads}");
                assert!(rows[1].ratio.is_nan(), "no gdax trade");
                assert!(rows[2].ratio.is_nan(), "no trade at all");
                // Hour 3: bmex 210; gdax (100 + 300) / 2 = 200.
                assert_eq!(rows[3].ratio, 1.05);
            }
        }
        let (rows, n) = easy_csv(&csv).unwrap();
        assert_eq!(n, 10);
        assert_eq!(rows.len(), 4);
        assert_eq!((rows[0].ratio, rows[3].ratio), (1.075, 1.05));
    }
}

#[test]
fn hard_query_hand_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, bin) = build(dir.path(), &hand_trades(), LayoutKind::Lossless);
    let f = TradeFile::open(&bin).unwrap();
    let rows = hard_rows(&f, 1);
    // Every 10 s from the step of the first trade to the step of the last, no gaps.
    assert_eq!(rows.len(), (4 * 360) as usize);
    assert!(rows
        .iter()
        .enumerate()
        .all(|(i, r)| r.time == T0 + (i as u64 + 1) * STEP_NS));
    let at = |secs: u64| rows[(secs / 10 - 1) as usize].ratio;
    let nan = f64::NAN;
    let want = |got: [f64; 3], exp: [f64; 3], t: u64| {
        for k in 0..3 {
            assert!(
                same(got[k], exp[k]),
                "T0+{t}s window {k}: {got:?} != {exp:?}"
            );
        }
    };
    // [T-w, T) windows. At T0+10s only bmex@5s has traded.
    want(at(10), [nan; 3], 10);
    // bmex@5 (100x1), gdax@12 (100x2).
    want(at(20), [1.0; 3], 20);
    // + bmex@65 (110x3): bmex 107.5.
    want(at(70), [1.075; 3], 70);
    // T0+310: the 5-minute window [10, 310) has lost bmex@5: bmex 110.
    want(at(310), [1.1, 1.075, 1.075], 310);
    // T0+320: [20, 320) has lost gdax@12 too.
    want(at(320), [nan, 1.075, 1.075], 320);
    // T0+910: the 15-minute window [10, 910) keeps bmex@65 and gdax@12: 110 / 100.
    want(at(910), [nan, 1.1, 1.075], 910);
    // T0+3610: the hour window [10, 3610) still holds bmex@65 and gdax@12, and bmex@3600+1ns.
    // bmex (110*3 + 120*1) / 4 = 112.5.
    want(at(3610), [nan, nan, 1.125], 3610);
    want(at(3620), [nan, nan, nan], 3620);
    // Last step, T = T0+4h: the gdax trades at the start of hour 3 are only in the hour
    // window [T0+3h, T0+4h), with bmex@4h-1ns: 210 / 200.
    let last = rows.last().unwrap();
    assert_eq!(last.time, T0 + 4 * HOUR_NS);
    want(last.ratio, [nan, nan, 1.05], 14400);
    // Threads and CSV agree.
    for threads in [2, 3, 5] {
        assert_eq!(format!("{:?}", hard_rows(&f, threads)), format!("{rows:?}"));
    }
    let mut from_csv = Vec::new();
    hard_csv(&csv, &mut |b| {
        from_csv.extend_from_slice(b);
        Ok(())
    })
    .unwrap();
    assert_eq!(format!("{from_csv:?}"), format!("{rows:?}"));
}

/// The easy query the obvious way: group by hour, two sums per side.
fn reference_easy(trades: &[Trade]) -> Vec<EasyRow> {
    let first = trades[0].time / HOUR_NS;
    let last = trades[trades.len() - 1].time / HOUR_NS;
    (first..=last)
        .map(|h| {
            let vwap = |ex: E| {
                let (mut pv, mut v, mut n) = (0.0, 0.0, 0);
                for t in trades.iter().filter(|t| {
                    t.time / HOUR_NS == h
                        && t.exchange == ex
                        && t.base == C::Btc
                        && t.quote == C::Usd
                }) {
                    pv += t.price * t.amount;
                    v += t.amount;
                    n += 1;
                }
                if n == 0 {
                    f64::NAN
                } else {
                    pv / v
                }
            };
            EasyRow {
                hour: h * HOUR_NS,
                ratio: vwap(E::Bmex) / vwap(E::Gdax),
            }
        })
        .collect()
}

/// The hard query the obvious way: re-scan the trades of every window of every row.
fn reference_hard_row(trades: &[Trade], end: u64) -> [f64; 3] {
    [300, 900, 3600].map(|w| {
        let lo = end.saturating_sub(w * S);
        let i = trades.partition_point(|t| t.time < lo);
        let j = trades.partition_point(|t| t.time < end);
        let vwap = |ex: E| {
            let (mut pv, mut v, mut n) = (0.0, 0.0, 0);
            for t in trades[i..j]
                .iter()
                .filter(|t| t.exchange == ex && t.base == C::Btc && t.quote == C::Usd)
            {
                pv += t.price * t.amount;
                v += t.amount;
                n += 1;
            }
            if n == 0 {
                f64::NAN
            } else {
                pv / v
            }
        };
        vwap(E::Bmex) / vwap(E::Gdax)
    })
}

#[test]
fn queries_match_a_brute_force_reference() {
    let cfg = SynthConfig {
        rows: 120_000,
        seed: 5,
        rate: 0.4, // about 3.5 days, with outages
        ..Default::default()
    };
    let trades: Vec<Trade> = Synth::new(&cfg).collect();
    let dir = tempfile::tempdir().unwrap();
    let want_easy = reference_easy(&trades);
    assert!(
        want_easy.iter().any(|r| r.ratio.is_nan()),
        "outages give NaN hours"
    );
    assert!(want_easy.iter().filter(|r| !r.ratio.is_nan()).count() > 40);
    let mut hard_ref: Option<Vec<HardRow>> = None;
    for layout in [LayoutKind::Lossless, LayoutKind::Compact] {
        let (csv, bin) = build(dir.path(), &trades, layout);
        let f = TradeFile::open(&bin).unwrap();
        let one = easy(&f, 1, Kernel::Branchless).unwrap();
        assert_eq!(one.len(), want_easy.len());
        for (a, b) in one.iter().zip(&want_easy) {
            assert_eq!(a.hour, b.hour);
            // Same additions in the same order: bit-for-bit.
            assert!(same(a.ratio, b.ratio), "{a:?} vs {b:?}");
        }
        assert_eq!(
            format!("{:?}", easy(&f, 1, Kernel::Branchy).unwrap()),
            format!("{one:?}")
        );
        assert_eq!(
            format!("{:?}", easy_csv(&csv).unwrap().0),
            format!("{one:?}")
        );
        for threads in [2, 7] {
            let many = easy(&f, threads, Kernel::Branchless).unwrap();
            assert_eq!(many.len(), one.len());
            for (a, b) in many.iter().zip(&one) {
                assert!(close(a.ratio, b.ratio, 1e-12), "{a:?} vs {b:?}");
            }
        }

        let rows = hard_rows(&f, 1);
        let (first, last) = (
            trades[0].time / STEP_NS,
            trades[trades.len() - 1].time / STEP_NS,
        );
        assert_eq!(rows.len() as u64, last - first + 1);
        let mut nans = [0; 3];
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.time, (first + i as u64 + 1) * STEP_NS);
            // Every 37th row against the brute-force reference.
            if i % 37 == 0 {
                let exp = reference_hard_row(&trades, r.time);
                for k in 0..3 {
                    assert!(
                        close(r.ratio[k], exp[k], 1e-12),
                        "row {i} window {k}: {r:?} vs {exp:?}"
                    );
                    nans[k] += usize::from(exp[k].is_nan());
                }
            }
        }
        assert!(nans[0] > nans[2] && nans[2] > 0, "{nans:?}");
        for threads in [2, 4] {
            let many = hard_rows(&f, threads);
            assert_eq!(many.len(), rows.len());
            for (a, b) in many.iter().zip(&rows) {
                assert_eq!(a.time, b.time);
                for k in 0..3 {
                    assert!(close(a.ratio[k], b.ratio[k], 1e-12), "{a:?} vs {b:?}");
                }
            }
        }
        let mut from_csv = Vec::new();
        hard_csv(&csv, &mut |b| {
            from_csv.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        assert_eq!(format!("{from_csv:?}"), format!("{rows:?}"));
        // Both layouts hold the same time, price and amount: identical results.
        match &hard_ref {
            None => hard_ref = Some(rows),
            Some(prev) => assert_eq!(format!("{prev:?}"), format!("{rows:?}")),
        }
    }
}
