//! Deterministic synthetic trades: 8 exchanges, 6 tickers, prices that walk.
//!
//! The same [`SynthConfig`] always gives the same rows, on any platform: the generator is
//! `rand_xoshiro`'s xoshiro256** (pinned) seeded by SplitMix64, and besides IEEE-754
//! arithmetic only `libm`'s `log`/`exp`/`sin`/`cos` are used (pure Rust, the same bits
//! everywhere; the platform's `ln`/`exp`/`cos` may differ in the last place). The model:
//!
//! * Arrivals are a Poisson stream with a daily cycle (busiest mid-day UTC), times ascending
//!   in nanoseconds.
//! * Exchange and ticker come from a fixed joint mix (bmex is mostly btc/usd, gdax trades
//!   btc/usd, eth/usd, ltc/usd, bch/usd and eth/btc, ...). Each exchange has outages (mean
//!   one every 2 days, 10 minutes to 3 hours long) during which it has no trades, so the
//!   queries meet empty periods.
//! * Each ticker's log price is a random walk in time (about 65% a year); an exchange adds a
//!   small fixed premium and per-trade noise; prices are rounded to the venue's tick.
//! * Amounts are log-normal, rounded to 1e-8. Sides are bid or ask, with some `na`.
//! * Server times lag time by a log-normal latency (median 40 ms; a few are ahead), at
//!   millisecond precision as exchanges stamp them; some exchanges send none (0).

use crate::codec::{Currency, Exchange, Side};
use crate::csvio;
use crate::trade::Trade;
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;
use std::io::{self, Write};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SynthConfig {
    /// Number of rows.
    pub rows: u64,
    /// Random seed.
    pub seed: u64,
    /// Time of the first trade (ns since the epoch) before the first gap.
    pub start_ns: u64,
    /// Mean trades per second over a day.
    pub rate: f64,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            rows: 1_000_000,
            seed: 1,
            start_ns: 1_514_764_800_000_000_000, // 2018-01-01T00:00:00Z
            rate: 20.0,
        }
    }
}

/// xoshiro256** (Blackman and Vigna) seeded with SplitMix64, and a spare normal deviate.
#[derive(Debug, Clone)]
struct Rng {
    x: Xoshiro256StarStar,
    spare: Option<f64>,
}

impl Rng {
    fn new(seed: u64) -> Self {
        Rng {
            x: Xoshiro256StarStar::seed_from_u64(seed),
            spare: None,
        }
    }

    #[inline]
    fn u64(&mut self) -> u64 {
        self.x.next_u64()
    }

    /// Uniform in (0, 1].
    #[inline]
    fn unit(&mut self) -> f64 {
        ((self.u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box-Muller, the second value kept for the next call).
    fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let r = (-2.0 * libm::log(self.unit())).sqrt();
        let a = std::f64::consts::TAU * self.unit();
        self.spare = Some(r * libm::sin(a));
        r * libm::cos(a)
    }
}

struct TickerDef {
    base: Currency,
    quote: Currency,
    start: f64,
    /// 1 / tick size.
    dec: f64,
    /// Median amount.
    amount: f64,
}

const TICKERS: [TickerDef; 6] = [
    TickerDef {
        base: Currency::Btc,
        quote: Currency::Usd,
        start: 13_500.0,
        dec: 100.0,
        amount: 0.05,
    },
    TickerDef {
        base: Currency::Eth,
        quote: Currency::Usd,
        start: 750.0,
        dec: 100.0,
        amount: 0.5,
    },
    TickerDef {
        base: Currency::Ltc,
        quote: Currency::Usd,
        start: 230.0,
        dec: 100.0,
        amount: 1.0,
    },
    TickerDef {
        base: Currency::Bch,
        quote: Currency::Usd,
        start: 2_400.0,
        dec: 100.0,
        amount: 0.2,
    },
    TickerDef {
        base: Currency::Xrp,
        quote: Currency::Usd,
        start: 2.0,
        dec: 10_000.0,
        amount: 300.0,
    },
    TickerDef {
        base: Currency::Eth,
        quote: Currency::Btc,
        start: 0.055,
        dec: 100_000.0,
        amount: 0.5,
    },
];

struct ExchDef {
    ex: Exchange,
    /// Fixed relative price premium.
    premium: f64,
    /// Share of trades with side `na`.
    side_na: f64,
    /// Share of trades without a server time.
    no_server_time: f64,
}

const EXCHANGES: [ExchDef; 8] = [
    ExchDef {
        ex: Exchange::Gdax,
        premium: 0.0,
        side_na: 0.0,
        no_server_time: 0.0,
    },
    ExchDef {
        ex: Exchange::Bmex,
        premium: 0.0015,
        side_na: 0.0,
        no_server_time: 0.0,
    },
    ExchDef {
        ex: Exchange::Btfx,
        premium: 0.0008,
        side_na: 0.02,
        no_server_time: 0.5,
    },
    ExchDef {
        ex: Exchange::Bnce,
        premium: -0.0005,
        side_na: 0.0,
        no_server_time: 0.0,
    },
    ExchDef {
        ex: Exchange::Okex,
        premium: -0.001,
        side_na: 0.05,
        no_server_time: 0.1,
    },
    ExchDef {
        ex: Exchange::Bits,
        premium: 0.0003,
        side_na: 0.3,
        no_server_time: 0.0,
    },
    ExchDef {
        ex: Exchange::Plnx,
        premium: 0.002,
        side_na: 0.0,
        no_server_time: 1.0,
    },
    ExchDef {
        ex: Exchange::Krkn,
        premium: -0.0002,
        side_na: 0.1,
        no_server_time: 1.0,
    },
];

/// (exchange index, ticker index, weight): the joint mix of venues and tickers.
const MIX: [(usize, usize, f64); 31] = [
    (0, 0, 8.0),
    (0, 1, 4.0),
    (0, 2, 2.0),
    (0, 3, 1.0),
    (0, 5, 1.5),
    (1, 0, 18.0),
    (1, 1, 3.0),
    (1, 4, 1.0),
    (2, 0, 7.0),
    (2, 1, 3.0),
    (2, 2, 1.0),
    (2, 3, 1.0),
    (2, 4, 2.0),
    (2, 5, 1.0),
    (3, 0, 6.0),
    (3, 1, 3.0),
    (3, 5, 5.0),
    (3, 4, 1.0),
    (4, 0, 5.0),
    (4, 1, 3.0),
    (4, 2, 1.0),
    (4, 3, 1.0),
    (4, 5, 1.0),
    (5, 0, 4.0),
    (5, 1, 1.0),
    (5, 4, 2.0),
    (6, 5, 2.0),
    (6, 0, 1.0),
    (6, 4, 1.0),
    (7, 0, 3.0),
    (7, 1, 1.5),
];

const NS: f64 = 1e9;
const DAY_NS: u64 = 86_400_000_000_000;
/// Log-price volatility per square-root second (about 65% a year).
const VOL: f64 = 1.15e-4;

/// An endless-until-`rows` iterator of synthetic trades.
pub struct Synth {
    rng: Rng,
    left: u64,
    rate: f64,
    time: u64,
    log_price: [f64; 6],
    last_move: [u64; 6],
    cumulative: [f64; MIX.len()],
    outage: [(u64, u64); 8],
}

impl Synth {
    /// A generator for `cfg`.
    pub fn new(cfg: &SynthConfig) -> Self {
        let mut rng = Rng::new(cfg.seed);
        let mut cumulative = [0.0; MIX.len()];
        let mut acc = 0.0;
        for (c, m) in cumulative.iter_mut().zip(MIX) {
            acc += m.2;
            *c = acc;
        }
        let mut s = Synth {
            left: cfg.rows,
            rate: if cfg.rate.is_finite() && cfg.rate > 0.0 {
                cfg.rate
            } else {
                20.0
            },
            time: cfg.start_ns,
            log_price: TICKERS.map(|t| libm::log(t.start)),
            last_move: [cfg.start_ns; 6],
            cumulative,
            outage: [(0, 0); 8],
            rng: Rng::new(0),
        };
        for i in 0..8 {
            s.outage[i] = next_outage(&mut rng, cfg.start_ns);
        }
        s.rng = rng;
        s
    }
}

/// The next outage after `t`: (start, end).
fn next_outage(rng: &mut Rng, t: u64) -> (u64, u64) {
    let gap = -libm::log(rng.unit()) * 2.0 * 86_400.0 * NS;
    let len = (600.0 + rng.unit() * (3.0 * 3600.0 - 600.0)) * NS;
    let start = t.saturating_add(gap as u64);
    (start, start.saturating_add(len as u64))
}

impl Iterator for Synth {
    type Item = Trade;

    fn next(&mut self) -> Option<Trade> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let rng = &mut self.rng;
        // Arrival: Poisson with a daily cycle.
        let day_phase = (self.time % DAY_NS) as f64 / DAY_NS as f64;
        let rate = self.rate * (1.0 + 0.6 * libm::sin(std::f64::consts::TAU * (day_phase - 0.25)));
        self.time = self
            .time
            .saturating_add((-libm::log(rng.unit()) / rate * NS) as u64);
        let time = self.time;
        // Venue and ticker; venues in an outage are skipped.
        let total = self.cumulative[MIX.len() - 1];
        let (mut ei, mut ti) = (0, 0);
        for _ in 0..64 {
            let u = rng.unit() * total;
            let k = self
                .cumulative
                .iter()
                .position(|&c| u <= c)
                .unwrap_or(MIX.len() - 1);
            (ei, ti) = (MIX[k].0, MIX[k].1);
            let o = &mut self.outage[ei];
            while time >= o.1 {
                *o = next_outage(rng, o.1);
            }
            if time < o.0 {
                break;
            }
        }
        let ex = &EXCHANGES[ei];
        let tk = &TICKERS[ti];
        // Price: the ticker's walk, the venue's premium, per-trade noise, the tick.
        let dt = (time - self.last_move[ti]) as f64 / NS;
        self.last_move[ti] = time;
        self.log_price[ti] += VOL * dt.sqrt() * rng.normal();
        let raw = libm::exp(self.log_price[ti]) * (1.0 + ex.premium) * (1.0 + 2e-4 * rng.normal());
        let dec = if ex.ex == Exchange::Bmex && ti == 0 {
            2.0
        } else {
            tk.dec
        };
        let price = ((raw * dec).round()).max(1.0) / dec;
        let amount = ((tk.amount * libm::exp(1.4 * rng.normal()) * 1e8).round()).max(1.0) / 1e8;
        let side = if rng.unit() <= ex.side_na {
            Side::None
        } else if rng.u64() & 1 == 0 {
            Side::Bid
        } else {
            Side::Ask
        };
        let server_time = if rng.unit() <= ex.no_server_time {
            None
        } else {
            let ahead = rng.unit() < 0.03;
            let st = if ahead {
                time.saturating_add((rng.unit() * 20e6) as u64)
            } else {
                let lat_ms = libm::exp(libm::log(40.0) + 0.8 * rng.normal());
                time.saturating_sub((lat_ms * 1e6) as u64)
            };
            Some(st / 1_000_000 * 1_000_000).filter(|&s| s > 0)
        };
        Some(Trade {
            time,
            amount,
            exchange: ex.ex,
            price,
            server_time,
            side,
            base: tk.base,
            quote: tk.quote,
        })
    }
}

/// Writes `cfg.rows` synthetic trades as CSV (header first) to `out`; `progress(rows)` is
/// called every 65536 rows. Returns the bytes written.
pub fn write_csv(
    cfg: &SynthConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64),
) -> io::Result<u64> {
    let mut buf = Vec::with_capacity(1 << 20);
    buf.extend_from_slice(csvio::HEADER.as_bytes());
    buf.push(b'\n');
    let mut bytes = 0u64;
    for (i, t) in Synth::new(cfg).enumerate() {
        csvio::write_row(&mut buf, &t).map_err(io::Error::other)?;
        if buf.len() >= 1 << 20 {
            out.write_all(&buf)?;
            bytes += buf.len() as u64;
            buf.clear();
        }
        if (i as u64 + 1) % (1 << 16) == 0 {
            progress(i as u64 + 1);
        }
    }
    out.write_all(&buf)?;
    bytes += buf.len() as u64;
    out.flush()?;
    progress(cfg.rows);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_ordered() {
        let cfg = SynthConfig {
            rows: 20_000,
            seed: 7,
            ..Default::default()
        };
        let a: Vec<Trade> = Synth::new(&cfg).collect();
        let b: Vec<Trade> = Synth::new(&cfg).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 20_000);
        assert!(a.windows(2).all(|w| w[0].time <= w[1].time));
        let c: Vec<Trade> = Synth::new(&SynthConfig { seed: 8, ..cfg }).collect();
        assert_ne!(a, c);
    }

    #[test]
    fn realistic_mix() {
        let cfg = SynthConfig {
            rows: 200_000,
            seed: 3,
            ..Default::default()
        };
        let trades: Vec<Trade> = Synth::new(&cfg).collect();
        for ex in Exchange::ALL {
            let n = trades.iter().filter(|t| t.exchange == ex).count();
            assert!(n > 2_000, "{ex}: {n}");
        }
        let btc: Vec<f64> = trades
            .iter()
            .filter(|t| {
                t.exchange == Exchange::Gdax && t.base == Currency::Btc && t.quote == Currency::Usd
            })
            .map(|t| t.price)
            .collect();
        assert!(btc.len() > 10_000);
        let (lo, hi) = btc
            .iter()
            .fold((f64::MAX, 0f64), |(l, h), &p| (l.min(p), h.max(p)));
        assert!(lo > 5_000.0 && hi < 30_000.0 && hi > lo, "{lo}..{hi}");
        assert!(trades.iter().all(|t| t.price > 0.0 && t.amount > 0.0));
        assert!(trades.iter().any(|t| t.server_time.is_none()));
        assert!(trades.iter().any(|t| t.side == Side::None));
        assert!(trades
            .iter()
            .any(|t| t.server_time.is_some_and(|s| s > t.time)));
    }
}
