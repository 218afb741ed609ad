//! Runs one benchmark codec in a tight loop, for `perf stat` / `perf record`:
//! `codec_loop car-decode-sbekit 100000000` (names: {car,md}-{encode,decode}-{sbekit,hand}).
#[cfg(has_reference)]
fn main() {
    use sbekit_codegen_tests::{bench_codecs as gen, handwritten as hand};
    use std::hint::black_box;
    let which = std::env::args().nth(1).unwrap_or_default();
    let n: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
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
    let t = std::time::Instant::now();
    match which.as_str() {
        "car-decode-sbekit" => run!(gen::decode_car(black_box(&car)).unwrap()),
        "car-decode-hand" => run!(hand::decode_car(black_box(&car)).unwrap()),
        "md-decode-sbekit" => run!(gen::decode_md(black_box(&md)).unwrap()),
        "md-decode-hand" => run!(hand::decode_md(black_box(&md)).unwrap()),
        "car-encode-sbekit" => {
            run!(gen::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap() as u64)
        }
        "car-encode-hand" => {
            run!(hand::encode_car(black_box(&hand::CAR), black_box(&mut buf)).unwrap() as u64)
        }
        "md-encode-sbekit" => {
            run!(gen::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap() as u64)
        }
        "md-encode-hand" => {
            run!(hand::encode_md(black_box(&hand::MD), black_box(&mut buf)).unwrap() as u64)
        }
        other => panic!("unknown codec {other}"),
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!("{which}: {ns:.2} ns/op (checksum {acc})");
}

#[cfg(not(has_reference))]
fn main() {
    eprintln!("reference schemas not found; nothing to run");
}
