//! Columnar decode of `schemas/market-data.xml` messages (the shootout's stream) into Arrow
//! RecordBatches, against the generated Rust decoder reading the same fields, in one run.
//!
//! `cargo bench -p sbekit-arrow --bench columnar`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use sbekit_arrow::{Options, SbeColumns};
use sbekit_shootout::sbe_md as md;
use std::hint::black_box;
use std::path::Path;

/// Messages per run: one RecordBatch worth.
const MESSAGES: usize = 8192;

/// `MESSAGES` messages of 1 trade and 3 level updates each (the shootout's mix is ~1 in 4
/// trades), back to back; returns the buffer and each message's (offset, length).
fn stream() -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut out = vec![0u8; MESSAGES * 512];
    let mut spans = Vec::with_capacity(MESSAGES);
    let mut pos = 0;
    let mut rng = rand_xoshiro::SplitMix64::seed_from_u64(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.next_u64();
    for i in 0..MESSAGES {
        let mut m = md::MarketUpdatesEncoder::new(&mut out[pos..]).expect("room");
        m.sequence_number(i as u64);
        let r = next();
        m.trades(|g| {
            g.entry(|t| {
                t.timestamp(r as i64 & 0xffff_ffff_ffff)
                    .symbol(b"AAPL    ")
                    .price((r % 5_000_000) as i64)
                    .size((r % 1000) as u32)
                    .flags(0);
                Ok(())
            })?;
            Ok(())
        })
        .expect("encode");
        let r = next();
        m.level_updates(|g| {
            for k in 0..3u64 {
                g.entry(|q| {
                    q.timestamp((r >> k) as i64 & 0xffff_ffff_ffff)
                        .symbol(b"MSFT    ")
                        .price(((r >> k) % 5_000_000) as i64)
                        .size(((r >> k) % 1000) as u32)
                        .flags(1)
                        .side(if k % 2 == 0 {
                            md::Side::Buy
                        } else {
                            md::Side::Sell
                        });
                    Ok(())
                })?;
            }
            Ok(())
        })
        .expect("encode");
        let len = m.finish().expect("finish");
        spans.push((pos, len));
        pos += len;
    }
    out.truncate(pos);
    (out, spans)
}

/// Text as Arrow holds it: offsets and bytes.
#[derive(Default)]
struct Text {
    offsets: Vec<i32>,
    bytes: Vec<u8>,
}

impl Text {
    /// Appends `value` cut at its first NUL.
    fn push(&mut self, value: &[u8]) {
        let len = value.iter().position(|&c| c == 0).unwrap_or(value.len());
        self.bytes.extend_from_slice(&value[..len]);
        self.offsets.push(self.bytes.len() as i32);
    }
}

/// One group's columns.
#[derive(Default)]
struct Entries {
    list: Vec<i32>,
    timestamp: Vec<i64>,
    symbol: Text,
    price: Vec<i64>,
    size: Vec<u32>,
    flags: Vec<u8>,
    side: Vec<i32>,
}

impl Entries {
    fn end_list(&mut self) {
        self.list.push(self.timestamp.len() as i32);
    }

    fn clear(&mut self) {
        for v in [&mut self.list, &mut self.symbol.offsets] {
            v.clear();
            v.push(0);
        }
        self.symbol.bytes.clear();
        self.timestamp.clear();
        self.price.clear();
        self.size.clear();
        self.flags.clear();
        self.side.clear();
    }
}

/// The columns of `MarketUpdates` as plain vectors.
#[derive(Default)]
struct Plain {
    template_id: Vec<u32>,
    schema_id: Vec<u32>,
    version: Vec<u32>,
    block_length: Vec<u32>,
    offset: Vec<u64>,
    sequence_number: Vec<u64>,
    trades: Entries,
    levels: Entries,
}

impl Plain {
    fn header(&mut self, block_length: u16, version: u32, offset: u64) {
        self.template_id
            .push(u32::from(md::MarketUpdatesDecoder::TEMPLATE_ID));
        self.schema_id.push(u32::from(md::SCHEMA_ID));
        self.version.push(version);
        self.block_length.push(u32::from(block_length));
        self.offset.push(offset);
    }

    fn clear(&mut self) {
        for v in [
            &mut self.template_id,
            &mut self.schema_id,
            &mut self.version,
            &mut self.block_length,
        ] {
            v.clear();
        }
        self.offset.clear();
        self.sequence_number.clear();
        self.trades.clear();
        self.levels.clear();
    }
}

fn bench(c: &mut Criterion) {
    let (buf, spans) = stream();
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let layout = sbekit_schema::load_layout(&schema).expect("schema");
    let mut g = c.benchmark_group("market_data");
    g.throughput(Throughput::Elements(MESSAGES as u64));
    g.bench_function(
        BenchmarkId::new("generated_read_all_fields", MESSAGES),
        |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for &(at, len) in &spans {
                    let d = md::MarketUpdatesDecoder::decode(&buf[at..at + len]).expect("decode");
                    sum = sum.wrapping_add(d.sequence_number());
                    for t in d.trades() {
                        sum = sum
                            .wrapping_add(t.timestamp() as u64)
                            .wrapping_add(u64::from(t.symbol()[0]))
                            .wrapping_add(t.price() as u64)
                            .wrapping_add(u64::from(t.size()))
                            .wrapping_add(u64::from(t.flags()));
                    }
                    for q in d.level_updates() {
                        sum = sum
                            .wrapping_add(q.timestamp() as u64)
                            .wrapping_add(u64::from(q.symbol()[0]))
                            .wrapping_add(q.price() as u64)
                            .wrapping_add(u64::from(q.size()))
                            .wrapping_add(u64::from(q.flags()))
                            .wrapping_add(u64::from(q.side() == md::Side::Buy));
                    }
                }
                black_box(sum)
            })
        },
    );
    // Like for like: the generated decoder writing the columns the columnar decode produces
    // (the five header columns, every field, list offsets per group, each symbol cut at its
    // NUL into offsets and bytes, the side as its dictionary key) into plain vectors, whose
    // memory is kept from one run to the next as the columnar side's pool keeps its own.
    let mut out = Plain::default();
    g.bench_function(BenchmarkId::new("generated_into_vecs", MESSAGES), |b| {
        b.iter(|| {
            out.clear();
            for &(at, len) in &spans {
                let d = md::MarketUpdatesDecoder::decode(&buf[at..at + len]).expect("decode");
                // The header's blockLength, which the decoder checked but does not keep.
                let block_length = u16::from_le_bytes([buf[at], buf[at + 1]]);
                out.header(block_length, d.acting_version() as u32, at as u64);
                out.sequence_number.push(d.sequence_number());
                for t in d.trades() {
                    let e = &mut out.trades;
                    e.timestamp.push(t.timestamp());
                    e.symbol.push(t.symbol());
                    e.price.push(t.price());
                    e.size.push(t.size());
                    e.flags.push(t.flags());
                }
                out.trades.end_list();
                for q in d.level_updates() {
                    let e = &mut out.levels;
                    e.timestamp.push(q.timestamp());
                    e.symbol.push(q.symbol());
                    e.price.push(q.price());
                    e.size.push(q.size());
                    e.flags.push(q.flags());
                    e.side.push(i32::from(q.side() != md::Side::Buy));
                }
                out.levels.end_list();
            }
            black_box(&out);
        })
    });
    let mut cols = SbeColumns::new(
        &layout,
        Options {
            batch_rows: MESSAGES * 2,
            ..Options::default()
        },
    );
    g.bench_function(BenchmarkId::new("columnar_append", MESSAGES), |b| {
        b.iter(|| {
            for &(at, len) in &spans {
                cols.append(&buf[at..at + len], at as u64, None)
                    .expect("append");
            }
            cols.flush().expect("flush");
            black_box(cols.drain().expect("drain"))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
