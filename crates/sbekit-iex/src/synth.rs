//! Deterministic synthetic DEEP 1.0 capture generator.
//!
//! [`generate`] writes a valid pcap-ng file (one section, one Ethernet interface with
//! `if_tsresol` = 6 like the IEX HIST files) whose IEX-TP DEEP stream resembles a trading day:
//! a system-event timeline, an administrative spin over the whole symbol universe (short sale
//! test, operational halt, trading status and retail liquidity messages), security events at
//! the open and close, auctions and official prices for the IEX-listed test symbols, and
//! continuous trading (price level updates and trades) over a Zipf-skewed symbol universe with
//! an intraday U-shaped activity curve, price random walks, realistic sizes and sale conditions,
//! and heartbeats during idle seconds. The numbers it is calibrated from are in
//! `CALIBRATION.md` beside this crate's manifest.
//!
//! Output depends only on the [`SynthConfig`]: the generator is `rand_xoshiro`'s xoshiro256**
//! (pinned to one version; `prng_known_answers` checks its published outputs) and only
//! IEEE-exact float operations (no platform `libm`), so the bytes are identical across runs and
//! platforms. The message count is exact.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;
use std::io::{self, Write};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthConfig {
    /// PRNG seed; equal configs give byte-identical output.
    pub seed: u64,
    /// Exact number of messages (heartbeats carry none).
    pub messages: u64,
    /// Size of the symbol universe (the administrative spin covers all of them); reduced for
    /// small message counts so that administrative traffic stays under 20% of the messages.
    pub symbols: u32,
    /// Zipf exponent of symbol popularity in trading messages.
    pub zipf_exponent: f64,
    /// Share of trade reports among the trading messages (trades + price level updates).
    pub trade_share: f64,
    /// Share of price level updates that delete a level (size 0).
    pub plu_delete_share: f64,
    /// Trading date (year, month, day); session times are US Eastern (EDT or EST by the US
    /// daylight-saving rules).
    pub date: (i32, u32, u32),
    /// Emit a heartbeat segment for every idle second, as IEX does.
    pub heartbeats: bool,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            seed: 1,
            messages: 1_000_000,
            symbols: 11_300,
            zipf_exponent: 0.95,
            trade_share: 0.025,
            plu_delete_share: 0.25,
            date: (2023, 10, 2),
            heartbeats: true,
        }
    }
}

/// What [`generate`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthSummary {
    /// Messages by type byte.
    pub by_type: [u64; 256],
    /// Messages written (equals the configured count).
    pub messages: u64,
    /// IEX-TP segments (packets), heartbeats included.
    pub packets: u64,
    /// Heartbeat segments.
    pub heartbeats: u64,
    /// Symbols in the universe actually used.
    pub symbols: u32,
    /// Bytes written.
    pub bytes: u64,
    /// First and last segment send time (ns since the epoch).
    pub time_span: (i64, i64),
}

/// Writes a synthetic DEEP capture to `out` (wrap files in a `BufWriter`; this function writes
/// whole blocks, so an unbuffered writer also works but makes one call per packet).
pub fn generate(cfg: &SynthConfig, out: impl Write) -> io::Result<SynthSummary> {
    if !(0.0..=1.0).contains(&cfg.trade_share) || !(0.0..=1.0).contains(&cfg.plu_delete_share) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "trade_share and plu_delete_share must be within 0..=1",
        ));
    }
    let mut g = Gen::new(cfg, out);
    g.run()?;
    g.w.flush()?;
    Ok(g.summary)
}

// ---------------------------------------------------------------------------------------------
// PRNG and deterministic math

/// xoshiro256** (Blackman and Vigna) from the pinned `rand_xoshiro`, its state expanded from
/// the seed by SplitMix64.
struct Rng(Xoshiro256StarStar);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(Xoshiro256StarStar::seed_from_u64(seed))
    }

    #[inline]
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift (bias below 2^-32 for our n).
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `p` (given as a threshold from [`prob`]).
    #[inline]
    fn chance(&mut self, threshold: u64) -> bool {
        self.next() < threshold
    }

    /// Uniform float in [0, 1).
    #[inline]
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Geometric number of failures before a success of probability `p` (threshold), capped.
    #[inline]
    fn geometric(&mut self, threshold: u64, cap: u32) -> u32 {
        let mut k = 0;
        while k < cap && !self.chance(threshold) {
            k += 1;
        }
        k
    }
}

/// A probability as a u64 threshold for [`Rng::chance`].
fn prob(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else if p <= 0.0 {
        0
    } else {
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

/// Natural logarithm from basic IEEE operations only (deterministic everywhere), x > 0.
fn ln(x: f64) -> f64 {
    let mut m = x;
    let mut e = 0i32;
    while m > 1.5 {
        m /= 2.0;
        e += 1;
    }
    while m < 0.75 {
        m *= 2.0;
        e -= 1;
    }
    // ln(m) = 2 atanh((m-1)/(m+1)), a fast-converging odd series for m in [0.75, 1.5].
    let y = (m - 1.0) / (m + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 60.0 {
        sum += term / k;
        term *= y2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// e^x from basic IEEE operations only.
fn exp(x: f64) -> f64 {
    // Halve until small, sum the Taylor series, square back.
    let mut r = x;
    let mut halvings = 0;
    while r.abs() > 0.5 {
        r /= 2.0;
        halvings += 1;
    }
    let mut sum = 1.0;
    let mut term = 1.0;
    for k in 1..24 {
        term *= r / k as f64;
        sum += term;
    }
    for _ in 0..halvings {
        sum *= sum;
    }
    sum
}

// ---------------------------------------------------------------------------------------------
// Wire constants

const SESSION_ID: u32 = 0x5359_0001;
const MAX_PAYLOAD: usize = 1_426; // the largest IEX-TP payload seen in the samples (DEEP10: 1,430)
const FRAME_HDR: usize = 14 + 20 + 8;
const NS: i64 = 1_000_000_000;
const MIN: i64 = 60 * NS;
const HOUR: i64 = 60 * MIN;

/// Offset of US Eastern time from UTC on a date (days since the epoch): 4 hours from the second
/// Sunday of March to the first Sunday of November (EDT), 5 hours otherwise (EST).
fn eastern_offset(year: i64, day: i64) -> i64 {
    use crate::stats::days_from_civil;
    // 1970-01-01 was a Thursday: (days + 4) % 7 is 0 on Sundays.
    let first_sunday_on_or_after = |d: i64| d + (7 - (d + 4).rem_euclid(7)) % 7;
    let dst_start = first_sunday_on_or_after(days_from_civil(year, 3, 1)) + 7;
    let dst_end = first_sunday_on_or_after(days_from_civil(year, 11, 1));
    if (dst_start..dst_end).contains(&day) {
        4 * HOUR
    } else {
        5 * HOUR
    }
}
/// The IEX-listed test symbols, which get directory entries, auctions and official prices.
const TEST_SYMBOLS: [&[u8; 8]; 3] = [b"ZIEXT   ", b"ZEXIT   ", b"ZXIET   "];
/// The session is split into minute buckets of trading intensity from 08:00 to 17:00 ET.
const BUCKETS: usize = 9 * 60;

struct Sym {
    name: [u8; 8],
    mid: i64,
    tick: i64,
}

struct Gen<W: Write> {
    w: W,
    rng: Rng,
    cfg: SynthConfig,
    summary: SynthSummary,
    syms: Vec<Sym>,
    /// Cumulative Zipf weights over `syms` (popularity rank order is a shuffle of the index).
    cdf: Vec<u64>,
    /// Cumulative intensity over the minute buckets.
    intensity: Vec<f64>,
    day0: i64,
    et_offset: i64,
    /// Packet under construction: EPB header + frame + IEX-TP header, then message blocks.
    pkt: Vec<u8>,
    pkt_msgs: u16,
    seq: i64,
    stream_offset: i64,
    now: i64,
    last_send: Option<i64>,
    remaining: u64,
    trade_id: i64,
    last_trade: Option<(usize, u32, i64, i64)>,
    thr: Thresholds,
}

struct Thresholds {
    trade: u64,
    brk: u64,
    delete: u64,
    multi_pkt: u64,
    same_sym: u64,
    in_transition: u64,
    walk: u64,
    round_lot_plu: u64,
    odd_trade: u64,
    iso: u64,
    tte: u64,
}

impl<W: Write> Gen<W> {
    fn new(cfg: &SynthConfig, w: W) -> Gen<W> {
        let mut rng = Rng::new(cfg.seed);
        // Administrative messages per symbol: P, O, H, I at the spin and E at open and close.
        let per_sym_admin = 6u64;
        let cap = (cfg.messages / 5 / per_sym_admin).max(1);
        let n = (cfg.symbols as u64).min(cap).max(1) as usize;
        let syms: Vec<Sym> = (0..n).map(|i| make_symbol(i, &mut rng)).collect();
        // Popularity: rank r has weight r^-s; ranks are assigned to symbols by a shuffle.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut weights = vec![0u64; n];
        for (rank, &idx) in order.iter().enumerate() {
            let w = exp(-cfg.zipf_exponent * ln(rank as f64 + 1.0));
            weights[idx] = (w * (1u64 << 40) as f64) as u64 + 1;
        }
        let mut acc = 0u64;
        let cdf = weights
            .iter()
            .map(|w| {
                acc += w;
                acc
            })
            .collect();
        // Intensity per minute from 08:00 ET: pre-market low, a U over regular hours, a small
        // post-market tail.
        let mut acc = 0.0;
        let intensity = (0..BUCKETS)
            .map(|m| {
                let t = m as f64 / 60.0 + 8.0;
                let w = if t < 9.5 {
                    0.08
                } else if t < 16.0 {
                    let x = (t - 9.5) / 6.5;
                    1.0 + 6.0 * (x - 0.5) * (x - 0.5) + if t >= 15.75 { 1.5 } else { 0.0 }
                } else {
                    0.06
                };
                acc += w;
                acc
            })
            .collect();
        let (y, m, d) = cfg.date;
        let days = crate::stats::days_from_civil(y as i64, m, d);
        let day0 = days * 86_400 * NS;
        let et_offset = eastern_offset(y as i64, days);
        Gen {
            w,
            rng,
            cfg: cfg.clone(),
            summary: SynthSummary {
                by_type: [0; 256],
                messages: 0,
                packets: 0,
                heartbeats: 0,
                symbols: n as u32,
                bytes: 0,
                time_span: (0, 0),
            },
            syms,
            cdf,
            intensity,
            day0,
            et_offset,
            pkt: Vec::with_capacity(2048),
            pkt_msgs: 0,
            seq: 1,
            stream_offset: 0,
            now: 0,
            last_send: None,
            // Set by `run` once the administrative traffic is planned.
            remaining: 0,
            trade_id: 1_000_000,
            last_trade: None,
            thr: Thresholds {
                trade: prob(cfg.trade_share),
                brk: prob(0.001),
                delete: prob(cfg.plu_delete_share),
                multi_pkt: prob(0.12),
                same_sym: prob(0.8),
                in_transition: prob(0.04),
                walk: prob(0.15),
                round_lot_plu: prob(0.76),
                odd_trade: prob(0.35),
                iso: prob(0.35),
                tte: prob(0.3),
            },
        }
    }

    /// Time of day in ET as ns since the epoch.
    fn et(&self, h: i64, m: i64) -> i64 {
        self.day0 + self.et_offset + h * HOUR + m * MIN
    }

    fn run(&mut self) -> io::Result<()> {
        self.write_headers()?;
        let n = self.syms.len();
        // Plan the administrative traffic against the exact message budget.
        let budget = self.cfg.messages;
        let mut admin = Vec::new();
        let mut planned = 0u64;
        let mut plan = |t: i64, a: Admin, count: u64, admin: &mut Vec<(i64, Admin)>| {
            if planned + count <= budget {
                planned += count;
                admin.push((t, a));
            }
        };
        plan(self.et(7, 30), Admin::System(b'O'), 1, &mut admin);
        plan(
            self.et(7, 30) + NS / 100,
            Admin::Spin,
            4 * n as u64,
            &mut admin,
        );
        plan(self.et(7, 31), Admin::Directory, 3, &mut admin);
        plan(self.et(8, 0), Admin::System(b'S'), 1, &mut admin);
        if budget >= 1_000_000 {
            // Opening auction information for the test symbols, every second from 09:28.
            for s in 0..120 {
                plan(self.et(9, 28) + s * NS, Admin::Auction(b'O'), 3, &mut admin);
            }
        }
        plan(self.et(9, 30), Admin::System(b'R'), 1, &mut admin);
        plan(
            self.et(9, 30) + NS / 50,
            Admin::Official(b'Q'),
            3,
            &mut admin,
        );
        plan(
            self.et(9, 30) + NS / 20,
            Admin::Events(b'O'),
            n as u64,
            &mut admin,
        );
        if budget >= 1_000_000 {
            for s in 0..600 {
                plan(
                    self.et(15, 50) + s * NS,
                    Admin::Auction(b'C'),
                    3,
                    &mut admin,
                );
            }
        }
        plan(self.et(16, 0), Admin::System(b'M'), 1, &mut admin);
        plan(
            self.et(16, 0) + NS / 50,
            Admin::Official(b'M'),
            3,
            &mut admin,
        );
        plan(
            self.et(16, 0) + NS / 20,
            Admin::Events(b'C'),
            n as u64,
            &mut admin,
        );
        plan(self.et(17, 0), Admin::System(b'E'), 1, &mut admin);
        plan(self.et(17, 5), Admin::System(b'C'), 1, &mut admin);
        self.remaining = budget - planned;

        // Trading packets are spread over 08:00-17:00 by the intensity curve. Estimate their
        // number from the mean messages per packet so the curve spans the whole day.
        let mean_per_pkt = 0.88 + 0.12 * 3.0;
        let packets_est = (self.remaining as f64 / mean_per_pkt).max(1.0);
        let start = self.et(8, 0);
        let total_w = self.intensity[BUCKETS - 1];
        let mut bucket = 0usize;
        let mut ai = 0usize;
        let mut k = 0f64;
        while self.remaining > 0 {
            // Inverse CDF of the intensity at this packet's quantile (monotone, so walk).
            let q = ((k + self.rng.unit()) / packets_est).min(0.999_999) * total_w;
            k += 1.0;
            while bucket + 1 < BUCKETS && self.intensity[bucket] < q {
                bucket += 1;
            }
            let lo = if bucket == 0 {
                0.0
            } else {
                self.intensity[bucket - 1]
            };
            let frac = (q - lo) / (self.intensity[bucket] - lo);
            let t = start + bucket as i64 * MIN + (frac * MIN as f64) as i64;
            while ai < admin.len() && admin[ai].0 <= t {
                let (at, a) = admin[ai];
                self.emit_admin(at, a)?;
                ai += 1;
            }
            self.trading_packet(t)?;
        }
        while ai < admin.len() {
            let (at, a) = admin[ai];
            self.emit_admin(at, a)?;
            ai += 1;
        }
        Ok(())
    }

    // -- packets -------------------------------------------------------------------------------

    fn write_headers(&mut self) -> io::Result<()> {
        let mut b = Vec::with_capacity(128);
        // Section header block with a shb_userappl option.
        let appl = b"sbekit iex synth (synthetic data, not IEX market data)";
        let opt_len = 4 + appl.len().div_ceil(4) * 4 + 4;
        let len = 28 + opt_len as u32;
        b.extend_from_slice(&0x0A0D_0D0Au32.to_le_bytes());
        b.extend_from_slice(&len.to_le_bytes());
        b.extend_from_slice(&0x1A2B_3C4Du32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(-1i64).to_le_bytes());
        push_option(&mut b, 4, appl);
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&len.to_le_bytes());
        // Interface description block: Ethernet, snaplen 65535, if_tsresol = 6 (µs).
        let idb_len = 20 + 8 + 4u32;
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&idb_len.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&65_535u32.to_le_bytes());
        push_option(&mut b, 9, &[6]);
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&idb_len.to_le_bytes());
        self.w.write_all(&b)?;
        self.summary.bytes += b.len() as u64;
        Ok(())
    }

    /// Starts a packet: room for the EPB header, frame headers and IEX-TP header.
    fn begin(&mut self) {
        self.pkt.clear();
        self.pkt.resize(28 + FRAME_HDR + crate::tp::HEADER_LEN, 0);
        self.pkt_msgs = 0;
    }

    fn payload_len(&self) -> usize {
        self.pkt.len() - (28 + FRAME_HDR + crate::tp::HEADER_LEN)
    }

    /// Appends a message block; the caller checks `fits` first.
    #[inline]
    fn push_msg(&mut self, msg: &[u8]) {
        self.pkt
            .extend_from_slice(&(msg.len() as u16).to_le_bytes());
        self.pkt.extend_from_slice(msg);
        self.pkt_msgs += 1;
        self.summary.by_type[msg[0] as usize] += 1;
        self.summary.messages += 1;
    }

    fn fits(&self, len: usize) -> bool {
        self.payload_len() + 2 + len <= MAX_PAYLOAD
    }

    /// Finishes and writes the packet with the given send time (made strictly monotone).
    fn finish(&mut self, send: i64) -> io::Result<()> {
        let send = send.max(self.now + 1_000);
        if self.cfg.heartbeats {
            if let Some(last) = self.last_send {
                // One heartbeat per idle second, as the feed does.
                let mut hb = last + NS;
                while hb + NS / 10 < send {
                    self.write_heartbeat(hb)?;
                    hb += NS;
                }
            }
        }
        self.now = send;
        self.write_segment(send)
    }

    fn write_heartbeat(&mut self, send: i64) -> io::Result<()> {
        // Keep the packet under construction aside; heartbeats are tiny.
        let pending = std::mem::take(&mut self.pkt);
        let pending_msgs = self.pkt_msgs;
        self.begin();
        self.write_segment(send)?;
        self.summary.heartbeats += 1;
        self.pkt = pending;
        self.pkt_msgs = pending_msgs;
        Ok(())
    }

    fn write_segment(&mut self, send: i64) -> io::Result<()> {
        let payload = self.payload_len();
        let frame_len = FRAME_HDR + crate::tp::HEADER_LEN + payload;
        let padded = frame_len.div_ceil(4) * 4;
        let block_len = (28 + padded + 4) as u32;
        let count = self.pkt_msgs;
        // Capture time: the send time plus a small wire delay, in µs.
        let cap_us = ((send + 3_000) / 1_000) as u64;
        {
            let p = &mut self.pkt;
            p[0..4].copy_from_slice(&6u32.to_le_bytes());
            p[4..8].copy_from_slice(&block_len.to_le_bytes());
            p[8..12].copy_from_slice(&0u32.to_le_bytes());
            p[12..16].copy_from_slice(&((cap_us >> 32) as u32).to_le_bytes());
            p[16..20].copy_from_slice(&(cap_us as u32).to_le_bytes());
            p[20..24].copy_from_slice(&(frame_len as u32).to_le_bytes());
            p[24..28].copy_from_slice(&(frame_len as u32).to_le_bytes());
            write_frame_headers(&mut p[28..28 + FRAME_HDR], frame_len);
            let h = &mut p[28 + FRAME_HDR..28 + FRAME_HDR + crate::tp::HEADER_LEN];
            h[0] = 1;
            h[1] = 0;
            h[2..4].copy_from_slice(&0x8004u16.to_le_bytes());
            h[4..8].copy_from_slice(&1u32.to_le_bytes());
            h[8..12].copy_from_slice(&SESSION_ID.to_le_bytes());
            h[12..14].copy_from_slice(&(payload as u16).to_le_bytes());
            h[14..16].copy_from_slice(&count.to_le_bytes());
            h[16..24].copy_from_slice(&self.stream_offset.to_le_bytes());
            h[24..32].copy_from_slice(&self.seq.to_le_bytes());
            h[32..40].copy_from_slice(&send.to_le_bytes());
            p.resize(28 + padded, 0);
            p.extend_from_slice(&block_len.to_le_bytes());
        }
        self.w.write_all(&self.pkt)?;
        self.summary.bytes += self.pkt.len() as u64;
        self.summary.packets += 1;
        self.seq += count as i64;
        self.stream_offset += payload as i64;
        if self.last_send.is_none() {
            self.summary.time_span.0 = send;
        }
        self.summary.time_span.1 = send;
        self.last_send = Some(send);
        self.begin();
        Ok(())
    }

    /// Event time of a message in a packet sent at `send`: 0-40 µs earlier (samples: median
    /// send lag 19 µs in production).
    #[inline]
    fn event_time(&mut self, send: i64) -> i64 {
        send - self.rng.below(40_000) as i64
    }

    // -- administrative traffic --------------------------------------------------------------

    fn emit_admin(&mut self, at: i64, a: Admin) -> io::Result<()> {
        let mut t = at.max(self.now + 1_000);
        let mut m = [0u8; 80];
        match a {
            Admin::System(code) => {
                self.begin();
                let ts = self.event_time(t);
                self.push_msg(admin_msg(&mut m, b'S', code, ts, None, 10));
                self.finish(t)?;
            }
            Admin::Directory => {
                self.begin();
                for s in TEST_SYMBOLS {
                    let ts = self.event_time(t);
                    let msg = admin_msg(&mut m, b'D', 0x80, ts, Some(s), 31);
                    msg[18..22].copy_from_slice(&100u32.to_le_bytes());
                    msg[22..30].copy_from_slice(&100_000i64.to_le_bytes());
                    msg[30] = 1;
                    self.push_msg(&m[..31]);
                }
                self.finish(t)?;
            }
            Admin::Spin => {
                // Per symbol: P, O, H, I, packed as full as the payload limit allows.
                self.begin();
                for i in 0..self.syms.len() {
                    let name = self.syms[i].name;
                    if !self.fits(19 + 2 + 18 + 2 + 22 + 2 + 18) {
                        self.finish(t)?;
                        t += 20_000;
                    }
                    let ts = self.event_time(t);
                    let p = admin_msg(&mut m, b'P', 0, ts, Some(&name), 19);
                    // A few symbols start the day under the short sale restriction.
                    let restricted = self.rng.below(50) == 0;
                    p[1] = restricted as u8;
                    p[18] = if restricted { b'C' } else { b' ' };
                    self.push_msg(&m[..19]);
                    self.push_msg(&admin_msg(&mut m, b'O', b'N', ts, Some(&name), 18)[..18]);
                    let h = admin_msg(&mut m, b'H', b'T', ts, Some(&name), 22);
                    h[18..22].copy_from_slice(b"    ");
                    self.push_msg(&m[..22]);
                    let ind = match self.rng.below(40) {
                        0 => b'A',
                        1 => b'B',
                        2 => b'C',
                        _ => b' ',
                    };
                    self.push_msg(&admin_msg(&mut m, b'I', ind, ts, Some(&name), 18)[..18]);
                }
                self.finish(t)?;
            }
            Admin::Events(code) => {
                self.begin();
                for i in 0..self.syms.len() {
                    if !self.fits(18) {
                        self.finish(t)?;
                        t += 20_000;
                    }
                    let name = self.syms[i].name;
                    let ts = self.event_time(t);
                    self.push_msg(&admin_msg(&mut m, b'E', code, ts, Some(&name), 18)[..18]);
                }
                self.finish(t)?;
            }
            Admin::Official(kind) => {
                self.begin();
                for (k, s) in TEST_SYMBOLS.iter().enumerate() {
                    let ts = self.event_time(t);
                    let msg = admin_msg(&mut m, b'X', kind, ts, Some(s), 26);
                    let px = 100_000 + k as i64 * 100 + self.rng.below(50) as i64 * 100;
                    msg[18..26].copy_from_slice(&px.to_le_bytes());
                    self.push_msg(&m[..26]);
                }
                self.finish(t)?;
            }
            Admin::Auction(kind) => {
                self.begin();
                let sched = if kind == b'O' {
                    self.et(9, 30)
                } else {
                    self.et(16, 0)
                } / NS;
                for (k, s) in TEST_SYMBOLS.iter().enumerate() {
                    let ts = self.event_time(t);
                    let msg = admin_msg(&mut m, b'A', kind, ts, Some(s), 80);
                    let reference = 100_000 + k as i64 * 100;
                    let paired = 100 * (1 + self.rng.below(50)) as u32;
                    let imbalance = 100 * self.rng.below(20) as u32;
                    msg[18..22].copy_from_slice(&paired.to_le_bytes());
                    msg[22..30].copy_from_slice(&reference.to_le_bytes());
                    msg[30..38].copy_from_slice(&(reference + 100).to_le_bytes());
                    msg[38..42].copy_from_slice(&imbalance.to_le_bytes());
                    msg[42] = if imbalance == 0 { b'N' } else { b'B' };
                    msg[43] = 0;
                    msg[44..48].copy_from_slice(&(sched as u32).to_le_bytes());
                    msg[48..56].copy_from_slice(&(reference + 200).to_le_bytes());
                    msg[56..64].copy_from_slice(&reference.to_le_bytes());
                    msg[64..72].copy_from_slice(&(reference * 9 / 10).to_le_bytes());
                    msg[72..80].copy_from_slice(&(reference * 11 / 10).to_le_bytes());
                    self.push_msg(&m[..80]);
                }
                self.finish(t)?;
            }
        }
        Ok(())
    }

    // -- trading -----------------------------------------------------------------------------

    fn pick_symbol(&mut self) -> usize {
        let total = *self.cdf.last().unwrap_or(&1);
        let x = self.rng.below(total);
        self.cdf
            .partition_point(|&c| c <= x)
            .min(self.syms.len() - 1)
    }

    fn trading_packet(&mut self, send: i64) -> io::Result<()> {
        self.begin();
        let mut n = 1u64;
        if self.rng.chance(self.thr.multi_pkt) {
            // Bursts: 2 + geometric, mean 2.5 messages.
            n = 2 + self.rng.geometric(prob(0.5), 10) as u64;
        }
        n = n.min(self.remaining);
        let mut sym = self.pick_symbol();
        let mut m = [0u8; 38];
        for i in 0..n {
            if i > 0 && !self.rng.chance(self.thr.same_sym) {
                sym = self.pick_symbol();
            }
            let ts = self.event_time(send);
            let s = &mut self.syms[sym];
            if self.rng.chance(self.thr.walk) {
                // Random walk of the mid price, one tick, never below one tick.
                let up = self.rng.next() & 1 == 1;
                s.mid = if up {
                    s.mid + s.tick
                } else {
                    (s.mid - s.tick).max(s.tick)
                };
            }
            let last_in_packet = i + 1 == n;
            if self.rng.chance(self.thr.trade) {
                if let (Some(lt), true) = (self.last_trade, self.rng.chance(self.thr.brk)) {
                    // A trade break repeats a previous trade.
                    let (tsym, size, price, id) = lt;
                    let name = self.syms[tsym].name;
                    let msg = admin_msg(&mut m, b'B', 0, ts, Some(&name), 38);
                    msg[18..22].copy_from_slice(&size.to_le_bytes());
                    msg[22..30].copy_from_slice(&price.to_le_bytes());
                    msg[30..38].copy_from_slice(&id.to_le_bytes());
                    self.push_msg(&m);
                    continue;
                }
                let s = &self.syms[sym];
                let (name, mid, tick) = (s.name, s.mid, s.tick);
                let odd = self.rng.chance(self.thr.odd_trade);
                let size = if odd {
                    1 + self.rng.below(99) as u32
                } else if self.rng.next() & 1 == 0 {
                    100 * (1 + self.rng.geometric(prob(0.45), 60))
                } else {
                    100 + self.rng.below(900) as u32
                };
                let at_ask = self.rng.next() & 1 == 1;
                let price = if at_ask {
                    mid + tick
                } else {
                    (mid - tick).max(tick)
                };
                let mut flags = 0u8;
                if self.rng.chance(self.thr.iso) {
                    flags |= 0x80;
                    if self.rng.chance(self.thr.tte) {
                        flags |= 0x10;
                    }
                }
                if size < 100 {
                    flags |= 0x20;
                }
                if !(self.et(9, 30)..self.et(16, 0)).contains(&send) {
                    flags |= 0x40;
                }
                self.trade_id += 1 + self.rng.below(4) as i64;
                let id = self.trade_id;
                let msg = admin_msg(&mut m, b'T', flags, ts, Some(&name), 38);
                msg[18..22].copy_from_slice(&size.to_le_bytes());
                msg[22..30].copy_from_slice(&price.to_le_bytes());
                msg[30..38].copy_from_slice(&id.to_le_bytes());
                self.push_msg(&m);
                self.last_trade = Some((sym, size, price, id));
            } else {
                let s = &self.syms[sym];
                let (name, mid, tick) = (s.name, s.mid, s.tick);
                let buy = self.rng.next() & 1 == 1;
                // Distance from the mid in ticks: 1 + geometric (median 1-2, p90 about 8).
                let away = (1 + self.rng.geometric(prob(0.25), 40)) as i64 * tick;
                let price = if buy {
                    (mid - away).max(tick)
                } else {
                    mid + away
                };
                let size = if self.rng.chance(self.thr.delete) {
                    0
                } else if self.rng.chance(self.thr.round_lot_plu) {
                    100 * (1 + self.rng.geometric(prob(0.35), 200))
                } else {
                    1 + self.rng.below(999) as u32
                };
                // Multi-update events mark all but their last update "in transition".
                let flags = if !last_in_packet && self.rng.chance(self.thr.in_transition) {
                    0
                } else {
                    1
                };
                let msg = admin_msg(
                    &mut m,
                    if buy { b'8' } else { b'5' },
                    flags,
                    ts,
                    Some(&name),
                    30,
                );
                msg[18..22].copy_from_slice(&size.to_le_bytes());
                msg[22..30].copy_from_slice(&price.to_le_bytes());
                self.push_msg(&m[..30]);
            }
        }
        self.remaining -= n;
        self.finish(send)
    }
}

#[derive(Debug, Clone, Copy)]
enum Admin {
    System(u8),
    Directory,
    Spin,
    Events(u8),
    Official(u8),
    Auction(u8),
}

/// Fills the common prefix (type, code, timestamp, symbol) of a message in `m[..len]`, zeroing
/// the rest, and returns that slice.
#[inline]
fn admin_msg<'m>(
    m: &'m mut [u8],
    t: u8,
    code: u8,
    ts: i64,
    sym: Option<&[u8; 8]>,
    len: usize,
) -> &'m mut [u8] {
    let msg = &mut m[..len];
    msg.fill(0);
    msg[0] = t;
    msg[1] = code;
    msg[2..10].copy_from_slice(&ts.to_le_bytes());
    if let Some(s) = sym {
        msg[10..18].copy_from_slice(s);
    }
    msg
}

fn push_option(b: &mut Vec<u8>, code: u16, value: &[u8]) {
    b.extend_from_slice(&code.to_le_bytes());
    b.extend_from_slice(&(value.len() as u16).to_le_bytes());
    b.extend_from_slice(value);
    b.resize(b.len() + (4 - value.len() % 4) % 4, 0);
}

/// Ethernet, IPv4 and UDP headers for a frame of `frame_len` bytes. The addresses are
/// administratively scoped (239.x) so synthetic captures are never mistaken for IEX feeds.
fn write_frame_headers(h: &mut [u8], frame_len: usize) {
    let dst_ip = [239, 192, 0, 4];
    h[0..6].copy_from_slice(&[0x01, 0x00, 0x5e, dst_ip[1] & 0x7f, dst_ip[2], dst_ip[3]]);
    h[6..12].copy_from_slice(&[0x02, 0x53, 0x59, 0x4e, 0x54, 0x48]);
    h[12..14].copy_from_slice(&0x0800u16.to_be_bytes());
    let ip = &mut h[14..34];
    let ip_len = (frame_len - 14) as u16;
    ip[0] = 0x45;
    ip[1] = 0;
    ip[2..4].copy_from_slice(&ip_len.to_be_bytes());
    ip[4..6].copy_from_slice(&0u16.to_be_bytes());
    ip[6..8].copy_from_slice(&0x4000u16.to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    ip[10..12].copy_from_slice(&[0, 0]);
    ip[12..16].copy_from_slice(&[10, 83, 89, 1]);
    ip[16..20].copy_from_slice(&dst_ip);
    let mut sum = 0u32;
    for c in ip.chunks(2) {
        sum += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    ip[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    let udp = &mut h[34..42];
    udp[0..2].copy_from_slice(&10_378u16.to_be_bytes());
    udp[2..4].copy_from_slice(&10_378u16.to_be_bytes());
    udp[4..6].copy_from_slice(&((frame_len - 34) as u16).to_be_bytes());
    // UDP checksum 0: "not computed", allowed over IPv4.
    udp[6..8].copy_from_slice(&[0, 0]);
}

/// A deterministic ticker for symbol `i`: 3 or 4 letters, some with a Nasdaq-style class
/// suffix ("-A"), with a starting price log-uniform between $2 and $400.
fn make_symbol(i: usize, rng: &mut Rng) -> Sym {
    let mut name = [b' '; 8];
    let (mut v, len) = if i % 3 == 0 { (i / 3, 3) } else { (i, 4) };
    for k in (0..len).rev() {
        name[k] = b'A' + (v % 26) as u8;
        v /= 26;
    }
    if i % 50 == 7 {
        name[len] = b'-';
        name[len + 1] = b'A';
    }
    let dollars = 2.0 * exp(rng.unit() * ln(200.0));
    let cents = (dollars * 100.0) as i64;
    Sym {
        name,
        mid: cents * 100,
        tick: 100,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_math_is_accurate() {
        for x in [0.001, 0.5, 1.0, 2.0, 10.0, 11_300.0] {
            assert!((ln(x) - x.ln()).abs() < 1e-12, "ln {x}");
        }
        for x in [-8.0, -1.0, 0.0, 0.3, 5.3] {
            assert!((exp(x) / x.exp() - 1.0).abs() < 1e-12, "exp {x}");
        }
    }

    #[test]
    fn eastern_time_follows_us_dst() {
        use crate::stats::days_from_civil;
        let off = |y, m, d| eastern_offset(y, days_from_civil(y, m, d)) / HOUR;
        // 2023: DST from Sunday March 12 to Sunday November 5.
        assert_eq!((off(2023, 3, 11), off(2023, 3, 12)), (5, 4));
        assert_eq!((off(2023, 11, 4), off(2023, 11, 5)), (4, 5));
        assert_eq!((off(2023, 10, 2), off(2024, 1, 15)), (4, 5));
        // 2024: March 10 to November 3.
        assert_eq!(
            (off(2024, 3, 9), off(2024, 3, 10), off(2024, 11, 3)),
            (5, 4, 5)
        );
    }

    #[test]
    fn prng_known_answers() {
        use rand_xoshiro::SplitMix64;
        // Published reference outputs: xoshiro256** from state {1, 2, 3, 4}, and the first
        // splitmix64 output from 0. The synthetic bytes depend on these never changing.
        let state: Vec<u8> = [1u64, 2, 3, 4]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let mut r = Rng(Xoshiro256StarStar::from_seed(state.try_into().unwrap()));
        let got: Vec<u64> = (0..4).map(|_| r.next()).collect();
        assert_eq!(
            got,
            vec![11_520, 0, 1_509_978_240, 1_215_971_899_390_074_240]
        );
        let mut sm = SplitMix64::seed_from_u64(0);
        assert_eq!(sm.next_u64(), 0xe220_a839_7b1d_cdaf);
        // Seeding is four SplitMix64 outputs as the state, as the generator always did.
        let mut sm = SplitMix64::seed_from_u64(7);
        let state: Vec<u8> = (0..4).flat_map(|_| sm.next_u64().to_le_bytes()).collect();
        let mut direct = Rng(Xoshiro256StarStar::from_seed(state.try_into().unwrap()));
        let mut seeded = Rng::new(7);
        for _ in 0..8 {
            assert_eq!(seeded.next(), direct.next());
        }
        let (mut a, mut b) = (Rng::new(1), Rng::new(2));
        assert_ne!(a.next(), b.next());
    }
}
