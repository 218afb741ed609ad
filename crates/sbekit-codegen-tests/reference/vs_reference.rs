//! sbekit's generated codecs vs hand-written code vs the reference tool's (sbe-all 1.38.1)
//! generated Rust, in one criterion run. Built only by `scripts/reference-rust.sh`, which
//! generates the reference code at bench time (it is never committed) and writes a throwaway
//! bench crate around this file.

use criterion::{criterion_group, criterion_main, Criterion};
use sbekit_codegen_tests::{bench_codecs as gen, handwritten as hand};
use std::hint::black_box;

#[path = "ref_codecs.rs"]
mod reference;

fn benches(c: &mut Criterion) {
    let mut buf = [0u8; 256];
    let n = hand::encode_car(&hand::CAR, &mut buf).unwrap();
    let car = buf[..n].to_vec();
    let n = hand::encode_md(&hand::MD, &mut buf).unwrap();
    let md = buf[..n].to_vec();
    // All three write the same bytes and read the same checksum.
    let mut r = [0u8; 256];
    let rn = reference::encode_car(&hand::CAR, &mut r).unwrap();
    assert_eq!(&r[..rn], &car[..], "reference Car bytes differ");
    assert_eq!(reference::decode_car(&car).unwrap(), hand::decode_car(&car).unwrap());
    assert_eq!(gen::decode_car(&car), hand::decode_car(&car));
    let rn = reference::encode_md(&hand::MD, &mut r).unwrap();
    assert_eq!(&r[..rn], &md[..], "reference MD bytes differ");
    assert_eq!(reference::decode_md(&md).unwrap(), hand::decode_md(&md).unwrap());

    let mut g = c.benchmark_group("car");
    g.bench_function("encode/sbekit", |b| {
        b.iter(|| gen::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/handwritten", |b| {
        b.iter(|| hand::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/reference", |b| {
        b.iter(|| reference::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap())
    });
    g.bench_function("decode/sbekit", |b| b.iter(|| gen::decode_car(black_box(&car)).unwrap()));
    g.bench_function("decode/handwritten", |b| {
        b.iter(|| hand::decode_car(black_box(&car)).unwrap())
    });
    g.bench_function("decode/reference", |b| {
        b.iter(|| reference::decode_car(black_box(&car)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("md");
    g.bench_function("encode/sbekit", |b| {
        b.iter(|| gen::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/handwritten", |b| {
        b.iter(|| hand::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/reference", |b| {
        b.iter(|| reference::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap())
    });
    g.bench_function("decode/sbekit", |b| b.iter(|| gen::decode_md(black_box(&md)).unwrap()));
    g.bench_function("decode/handwritten", |b| {
        b.iter(|| hand::decode_md(black_box(&md)).unwrap())
    });
    g.bench_function("decode/reference", |b| {
        b.iter(|| reference::decode_md(black_box(&md)).unwrap())
    });
    g.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
