//! Iterate every message of a capture held in memory: type dispatch plus field reads.
//!
//! Input: a synthetic DEEP capture (runs anywhere), and DEEP10 from `shared/` when present.
//! Run: `cargo bench -p sbekit-iex --bench iterate`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sbekit_iex::synth::{generate, SynthConfig};
use sbekit_iex::{Message, ReadOptions, Segments};

/// Reads the fields a consumer would read; returns a checksum so nothing is optimised away.
#[inline]
fn visit(data: &[u8]) -> (u64, i64) {
    let mut n = 0u64;
    let mut acc = 0i64;
    let segs = Segments::new(data, ReadOptions::default()).unwrap();
    for seg in segs {
        let Ok(seg) = seg else { break };
        for m in seg.messages() {
            let Ok(m) = m else { break };
            n += 1;
            acc = acc.wrapping_add(match m {
                Message::PriceLevelUpdate(u) => {
                    u.price().raw() ^ u.size() as i64 ^ u.timestamp() ^ u.symbol().bytes()[0] as i64
                }
                Message::TradeReport(t) => t.price().raw() ^ t.size() as i64 ^ t.trade_id(),
                Message::QuoteUpdate(q) => q.bid_price().raw() ^ q.ask_price().raw(),
                Message::AddOrder(a) => a.order_id() ^ a.price().raw(),
                Message::OrderExecuted(e) => e.order_id() ^ e.size() as i64,
                Message::TradingStatus(h) => h.status() as i64,
                Message::SecurityEvent(e) => e.event() as i64,
                other => other.msg_type() as i64,
            });
        }
    }
    (n, acc)
}

/// Reference: just reading every 8 bytes of the buffer (the memory-bandwidth ceiling).
fn read_all(data: &[u8]) -> u64 {
    data.chunks_exact(8)
        .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .fold(0u64, |a, b| a.wrapping_add(b))
}

/// Segment-level walk without touching messages (packet + frame + IEX-TP header cost).
fn segments_only(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    for seg in Segments::new(data, ReadOptions::default()).unwrap() {
        let Ok(seg) = seg else { break };
        acc = acc.wrapping_add(seg.first_seq() as u64 ^ seg.message_count() as u64);
    }
    acc
}

fn bench(c: &mut Criterion) {
    let mut data = Vec::new();
    let cfg = SynthConfig {
        seed: 1,
        messages: 2_000_000,
        ..SynthConfig::default()
    };
    generate(&cfg, &mut data).unwrap();
    let (n, _) = visit(&data);
    let mut g = c.benchmark_group("iterate");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("synth_2M_bytes", |b| {
        b.iter(|| black_box(visit(black_box(&data))))
    });
    g.bench_function("synth_2M_segments_only", |b| {
        b.iter(|| black_box(segments_only(black_box(&data))))
    });
    g.bench_function("synth_2M_memory_read_ceiling", |b| {
        b.iter(|| black_box(read_all(black_box(&data))))
    });
    g.throughput(Throughput::Elements(n));
    g.bench_function("synth_2M_messages", |b| {
        b.iter(|| black_box(visit(black_box(&data))))
    });
    if let Some(p) = sbekit_testdata::require("data/iex/go-iex/DEEP10.pcap.gz", "bench iterate") {
        let cap = sbekit_iex::Capture::open(p).unwrap();
        let bytes = cap.bytes().to_vec();
        let (n, _) = visit(&bytes);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("deep10_bytes", |b| {
            b.iter(|| black_box(visit(black_box(&bytes))))
        });
        g.throughput(Throughput::Elements(n));
        g.bench_function("deep10_messages", |b| {
            b.iter(|| black_box(visit(black_box(&bytes))))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
