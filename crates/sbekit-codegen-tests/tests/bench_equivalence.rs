//! The benchmark's hand-written codecs and the generated ones write identical bytes and read
//! the same values, so the benchmark compares like with like.
#![cfg(has_reference)]

use sbekit_codegen_tests::{bench_codecs as gen, handwritten as hand};

#[test]
fn car_bytes_and_checksums_match() {
    let (mut a, mut b) = ([0u8; 256], [0u8; 256]);
    let n = hand::encode_car(&hand::CAR, &mut a).unwrap();
    let m = gen::encode_car(&hand::CAR, &mut b).unwrap();
    assert_eq!(n, 143);
    assert_eq!(a[..n], b[..m]);
    assert_eq!(hand::decode_car(&a[..n]), gen::decode_car(&a[..n]));
    assert!(hand::decode_car(&a[..n]).is_some());
}

#[test]
fn md_bytes_and_checksums_match() {
    let (mut a, mut b) = ([0u8; 256], [0u8; 256]);
    let n = hand::encode_md(&hand::MD, &mut a).unwrap();
    let m = gen::encode_md(&hand::MD, &mut b).unwrap();
    assert_eq!(n, 89);
    assert_eq!(a[..n], b[..m]);
    assert_eq!(hand::decode_md(&a[..n]), gen::decode_md(&a[..n]));
    assert!(hand::decode_md(&a[..n]).is_some());
}
