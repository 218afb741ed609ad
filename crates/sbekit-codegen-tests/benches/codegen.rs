//! Encode and decode of the reference benchmark messages (Car from car.xml, 143 bytes;
//! MarketDataIncrementalRefreshTrades from fix-message-samples.xml, 2 entries, 89 bytes):
//! sbekit's generated, fully checked codecs against hand-written fixed-offset safe code.
//! Inputs go through `black_box`; decoders read every field.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[cfg(has_reference)]
fn benches(c: &mut Criterion) {
    use sbekit_codegen_tests::{bench_codecs as gen, handwritten as hand};
    let mut buf = [0u8; 256];
    let n = hand::encode_car(&hand::CAR, &mut buf).unwrap();
    let car = buf[..n].to_vec();
    let n = hand::encode_md(&hand::MD, &mut buf).unwrap();
    let md = buf[..n].to_vec();

    let mut g = c.benchmark_group("car");
    g.bench_function("encode/sbekit", |b| {
        b.iter(|| gen::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/handwritten", |b| {
        b.iter(|| hand::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap())
    });
    g.bench_function("decode/sbekit", |b| {
        b.iter(|| gen::decode_car(black_box(&car)).unwrap())
    });
    g.bench_function("decode/handwritten", |b| {
        b.iter(|| hand::decode_car(black_box(&car)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("md");
    g.bench_function("encode/sbekit", |b| {
        b.iter(|| gen::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/handwritten", |b| {
        b.iter(|| hand::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap())
    });
    g.bench_function("decode/sbekit", |b| {
        b.iter(|| gen::decode_md(black_box(&md)).unwrap())
    });
    g.bench_function("decode/handwritten", |b| {
        b.iter(|| hand::decode_md(black_box(&md)).unwrap())
    });
    g.finish();
}

#[cfg(not(has_reference))]
fn benches(_: &mut Criterion) {
    eprintln!("*** SKIPPED codegen benches: reference schemas not found ***");
}

criterion_group!(all, benches);
criterion_main!(all);
