//! The query side's baseline: per-symbol aggregates computed by sbekit straight from a raw IEX
//! capture (memory-mapped, every segment parsed), to compare with DuckDB and Polars over the
//! Parquet that `sbekit iex export` wrote (docs/BENCHMARKS.md, issue 14).
//!
//! Q1: trades per symbol: count, total size, min and max price.
//! Q2: price level updates per (symbol, side): count, total size, min and max price.
//!
//! `cargo run --release -p sbekit-arrow --example iex_aggregate -- CAPTURE [RUNS]`

use sbekit_iex::{Capture, Message, ReadOptions};
use std::collections::HashMap;
use std::time::Instant;

/// count, total size, min and max raw price (4 decimals).
type Agg = (u64, u64, i64, i64);

fn add(a: &mut Agg, size: u32, price: i64) {
    a.0 += 1;
    a.1 += u64::from(size);
    a.2 = a.2.min(price);
    a.3 = a.3.max(price);
}

const EMPTY: Agg = (0, 0, i64::MAX, i64::MIN);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: iex_aggregate CAPTURE [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    let (mut q1_times, mut q2_times) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        for q in [1, 2] {
            let start = Instant::now();
            let cap = Capture::open(path).expect("open capture");
            let mut trades: HashMap<&[u8], Agg> = HashMap::new();
            let mut levels: HashMap<(&[u8], bool), Agg> = HashMap::new();
            for m in cap.messages(ReadOptions::default()).expect("capture") {
                match m.expect("message") {
                    Message::TradeReport(t) if q == 1 => add(
                        trades.entry(&t.symbol().bytes()[..]).or_insert(EMPTY),
                        t.size(),
                        t.price().raw(),
                    ),
                    Message::PriceLevelUpdate(u) if q == 2 => add(
                        levels
                            .entry((&u.symbol().bytes()[..], u.is_buy()))
                            .or_insert(EMPTY),
                        u.size(),
                        u.price().raw(),
                    ),
                    _ => {}
                }
            }
            let secs = start.elapsed().as_secs_f64();
            let (groups, rows, volume) = if q == 1 {
                let v: Vec<&Agg> = trades.values().collect();
                (
                    v.len(),
                    v.iter().map(|a| a.0).sum::<u64>(),
                    v.iter().map(|a| a.1).sum::<u64>(),
                )
            } else {
                let v: Vec<&Agg> = levels.values().collect();
                (
                    v.len(),
                    v.iter().map(|a| a.0).sum::<u64>(),
                    v.iter().map(|a| a.1).sum::<u64>(),
                )
            };
            println!("Q{q}: {groups} groups, {rows} rows, total size {volume}, {secs:.3} s");
            if q == 1 {
                q1_times.push(secs);
            } else {
                q2_times.push(secs);
            }
        }
    }
    for (q, mut t) in [(1, q1_times), (2, q2_times)] {
        t.sort_by(f64::total_cmp);
        println!("Q{q} median {:.3} s over {runs} runs", t[t.len() / 2]);
    }
}
