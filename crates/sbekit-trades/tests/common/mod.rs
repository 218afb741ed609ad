//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code)]

use sbekit_trades::codec::{Currency, Exchange, Side};
use sbekit_trades::synth::{self, SynthConfig};
use sbekit_trades::Trade;
use std::path::{Path, PathBuf};

/// Writes `cfg`'s synthetic CSV into `dir/name`; returns its path.
pub fn synth_csv(dir: &Path, name: &str, cfg: &SynthConfig) -> PathBuf {
    let p = dir.join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    synth::write_csv(cfg, &mut f, &mut |_| {}).unwrap();
    p
}

/// Writes trades as CSV.
pub fn write_trades(path: &Path, trades: &[Trade]) {
    let mut buf = format!("{}\n", sbekit_trades::csvio::HEADER).into_bytes();
    for t in trades {
        sbekit_trades::csvio::write_row(&mut buf, t).unwrap();
    }
    std::fs::write(path, buf).unwrap();
}

/// A trade with the fields the queries read; everything else fixed.
pub fn trade(
    time: u64,
    ex: Exchange,
    base: Currency,
    quote: Currency,
    price: f64,
    amount: f64,
) -> Trade {
    Trade {
        time,
        amount,
        exchange: ex,
        price,
        server_time: Some(time - 7_000_000),
        side: Side::Bid,
        base,
        quote,
    }
}
