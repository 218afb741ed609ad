//! The synthetic generator: determinism, exact counts, and parse-back statistics.

use sbekit_iex::stats::Stats;
use sbekit_iex::synth::{generate, SynthConfig};
use sbekit_iex::{Capture, ReadOptions};

fn synth(cfg: &SynthConfig) -> (Vec<u8>, sbekit_iex::synth::SynthSummary) {
    let mut out = Vec::new();
    let summary = generate(cfg, &mut out).unwrap();
    (out, summary)
}

fn parse(bytes: Vec<u8>) -> Stats {
    let cap = Capture::from_vec(bytes);
    let mut stats = Stats::default();
    let mut segs = cap.segments(ReadOptions::default()).unwrap();
    for s in segs.by_ref() {
        stats.add_segment(&s.unwrap(), false).unwrap();
    }
    stats.frames = *segs.counters();
    stats
}

#[test]
fn same_seed_same_bytes_different_seed_different_bytes() {
    let cfg = SynthConfig {
        seed: 42,
        messages: 50_000,
        ..SynthConfig::default()
    };
    let (a, sa) = synth(&cfg);
    let (b, sb) = synth(&cfg);
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    let (c, _) = synth(&SynthConfig { seed: 43, ..cfg });
    assert_ne!(a, c);
}

#[test]
fn parses_back_with_requested_statistics() {
    let cfg = SynthConfig {
        seed: 7,
        messages: 2_000_000,
        ..SynthConfig::default()
    };
    let (bytes, summary) = synth(&cfg);
    assert_eq!(summary.bytes, bytes.len() as u64);
    let s = parse(bytes);
    // Exact message count, and the reader agrees with the generator on every type.
    assert_eq!(s.messages, cfg.messages);
    assert_eq!(summary.messages, cfg.messages);
    assert_eq!(s.by_type, summary.by_type);
    assert_eq!(s.segments, summary.packets);
    assert_eq!(s.heartbeats, summary.heartbeats);
    assert_eq!(s.count_mismatches, 0);
    assert_eq!(s.unknown_messages(), 0);
    // One contiguous session: no gaps, no resets.
    assert_eq!(s.sessions.len(), 1);
    let sess = s.sessions.values().next().unwrap();
    assert_eq!((sess.gaps, sess.resets, sess.backwards), (0, 0, 0));
    // Mix: trade share of trading messages as configured (binomial sd ~0.0001 here).
    let n = |t: u8| s.by_type[t as usize] as f64;
    let trading = n(b'T') + n(b'8') + n(b'5') + n(b'B');
    let trade_share = (n(b'T') + n(b'B')) / trading;
    assert!(
        (trade_share - cfg.trade_share).abs() < 0.002,
        "{trade_share}"
    );
    // Buy and sell updates are balanced.
    assert!((n(b'8') / n(b'5') - 1.0).abs() < 0.02);
    // The whole universe went through the administrative spin.
    assert_eq!(s.by_type[b'H' as usize], cfg.symbols as u64);
    assert_eq!(s.by_type[b'I' as usize], cfg.symbols as u64);
    assert_eq!(s.by_type[b'E' as usize], 2 * cfg.symbols as u64);
    assert_eq!(s.by_type[b'S' as usize], 6);
    assert_eq!(s.symbols.len(), cfg.symbols as usize + 3);
    // Messages per packet near the calibrated 1.24 (trading) with single-message packets
    // dominating, as in the samples.
    let data_segments = s.segments - s.heartbeats;
    let per = s.messages as f64 / data_segments as f64;
    assert!((1.15..1.45).contains(&per), "{per}");
    // The session spans the trading day (07:30 to 17:05 ET is 11:30 to 21:05 UTC).
    let (lo, hi) = s.send_time.unwrap();
    assert!(sbekit_iex::stats::format_utc(lo).starts_with("2023-10-02T11:30"));
    assert!(sbekit_iex::stats::format_utc(hi).starts_with("2023-10-02T21:05"));
}

#[test]
fn small_counts_are_exact_and_valid() {
    for messages in [0u64, 1, 2, 5, 17, 100, 1_000] {
        let cfg = SynthConfig {
            seed: messages,
            messages,
            heartbeats: false,
            ..SynthConfig::default()
        };
        let (bytes, summary) = synth(&cfg);
        let s = parse(bytes);
        assert_eq!(s.messages, messages);
        assert_eq!(summary.messages, messages);
    }
}

#[test]
fn skew_concentrates_trading_on_popular_symbols() {
    let cfg = SynthConfig {
        seed: 3,
        messages: 300_000,
        ..SynthConfig::default()
    };
    let (bytes, _) = synth(&cfg);
    let cap = Capture::from_vec(bytes);
    let mut per_sym = std::collections::HashMap::<[u8; 8], u64>::new();
    let (mut plus, mut deletes, mut trades) = (0u64, 0u64, 0u64);
    for m in cap.messages(ReadOptions::default()).unwrap() {
        match m.unwrap() {
            sbekit_iex::Message::PriceLevelUpdate(u) => {
                *per_sym.entry(*u.symbol().bytes()).or_default() += 1;
                plus += 1;
                deletes += (u.size() == 0) as u64;
                assert!(u.price().raw() > 0);
                assert!(u.event_flags() <= 1);
            }
            sbekit_iex::Message::TradeReport(t) => {
                trades += 1;
                assert!(t.price().raw() > 0 && t.size() > 0);
                // The odd-lot bit is set exactly for trades under a round lot.
                assert_eq!(t.sale_condition() & 0x20 != 0, t.size() < 100);
            }
            _ => {}
        }
    }
    let delete_share = deletes as f64 / plus as f64;
    assert!(
        (delete_share - cfg.plu_delete_share).abs() < 0.01,
        "{delete_share}"
    );
    assert!(trades > 0);
    let mut v: Vec<u64> = per_sym.into_values().collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    let total: u64 = v.iter().sum();
    let top10 = v.iter().take(10).sum::<u64>() as f64 / total as f64;
    // Zipf 0.95 over the universe used: the top 10 carry roughly a quarter.
    assert!((0.15..0.40).contains(&top10), "{top10}");
}

#[test]
fn winter_dates_use_eastern_standard_time() {
    let cfg = SynthConfig {
        seed: 1,
        messages: 20_000,
        date: (2024, 1, 16),
        ..SynthConfig::default()
    };
    let (bytes, summary) = synth(&cfg);
    // 07:30 EST is 12:30 UTC; 17:05 EST is 22:05 UTC.
    assert!(sbekit_iex::stats::format_utc(summary.time_span.0).starts_with("2024-01-16T12:30"));
    assert!(sbekit_iex::stats::format_utc(summary.time_span.1).starts_with("2024-01-16T22:05"));
    assert_eq!(parse(bytes).messages, 20_000);
}
