//! Runs one codec in a tight loop so `perf stat` can count its cycles and instructions, which
//! stay meaningful on a loaded machine where wall-clock medians do not:
//! `cycles <car|md>-<encode|decode>-<sbekit|hand|reference> N`.
use sbekit_codegen_tests::{bench_codecs as gen, handwritten as hand};
use std::hint::black_box;

#[path = "ref_codecs.rs"]
mod reference;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(10_000_000);
    let mut buf = [0u8; 256];
    let len = hand::encode_car(&hand::CAR, &mut buf).unwrap();
    let car = buf[..len].to_vec();
    let len = hand::encode_md(&hand::MD, &mut buf).unwrap();
    let md = buf[..len].to_vec();
    let mut acc = 0u64;
    // One loop per codec, so each is compiled (and inlined) on its own.
    macro_rules! run {
        ($e:expr) => {
            for _ in 0..n {
                acc = acc.wrapping_add($e);
            }
        };
    }
    match which.as_str() {
        "car-encode-sbekit" => run!(gen::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap() as u64),
        "car-encode-hand" => run!(hand::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap() as u64),
        "car-encode-reference" => run!(reference::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap() as u64),
        "car-decode-sbekit" => run!(gen::decode_car(black_box(&car)).unwrap()),
        "car-decode-hand" => run!(hand::decode_car(black_box(&car)).unwrap()),
        "car-decode-reference" => run!(reference::decode_car(black_box(&car)).unwrap()),
        "md-encode-sbekit" => run!(gen::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap() as u64),
        "md-encode-hand" => run!(hand::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap() as u64),
        "md-encode-reference" => run!(reference::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap() as u64),
        "md-decode-sbekit" => run!(gen::decode_md(black_box(&md)).unwrap()),
        "md-decode-hand" => run!(hand::decode_md(black_box(&md)).unwrap()),
        "md-decode-reference" => run!(reference::decode_md(black_box(&md)).unwrap()),
        other => panic!("unknown codec {other}"),
    }
    println!("{which}: checksum {acc}");
}
