//! Damaged buffers: every format that checks what it reads must report truncated or corrupted
//! messages as errors (or read wrong values), never panic; the unchecked rows must refuse to
//! read what their one-off validation (`prepare_read`) rejected.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use sbekit_shootout::agg::Aggregates;
use sbekit_shootout::codec::{capnp, flatbuffers, protobuf, rkyv, sbe, Codec};
use sbekit_shootout::data::{for_each_chunk, Chunk, Input, InputError};

/// The first chunk of a small synthetic day, written by `c`: (buffer, end).
fn written(c: &mut impl Codec, chunk: &Chunk) -> (Vec<u8>, usize) {
    // A u64-backed buffer keeps the 8-byte alignment Cap'n Proto and rkyv read in place from.
    let words = (chunk.entries.len() * 128 + chunk.batches.len() * 128) / 8;
    let mut backing = vec![0u64; words];
    let out: &mut [u8] = bytemuck::cast_slice_mut(&mut backing);
    let mut pos = 0;
    for b in &chunk.batches {
        pos = c
            .serialize(b.sequence, chunk.entries_of(b), out, pos)
            .unwrap();
    }
    (out.to_vec(), pos)
}

/// Reads `buf[..end]` message by message until the end or the first error.
fn read_all(c: &mut impl Codec, buf: &[u8], end: usize) -> Result<(), String> {
    let mut agg = Aggregates::new();
    let mut pos = 0;
    while pos < end {
        pos = c.deserialize(buf, pos, &mut agg).map_err(|e| e.0)?;
    }
    Ok(())
}

/// An 8-byte aligned copy (Vec<u8> gives no alignment guarantee).
fn aligned(bytes: &[u8]) -> Vec<u64> {
    let mut v = vec![0u64; bytes.len().div_ceil(8)];
    bytemuck::cast_slice_mut::<u64, u8>(&mut v)[..bytes.len()].copy_from_slice(bytes);
    v
}

fn damage<C: Codec>(mut c: C, chunk: &Chunk, name: &str) {
    let (buf, end) = written(&mut c, chunk);
    // Truncation inside the last message: an error, never a panic.
    for cut in [end - 1, end - 3, end - 9] {
        let a = aligned(&buf[..cut]);
        let b: &[u8] = &bytemuck::cast_slice(&a)[..cut];
        assert!(
            read_all(&mut c, b, cut).is_err(),
            "{name}: truncated at {cut} of {end} read without error"
        );
    }
    // Byte flips anywhere: errors or wrong values are fine, panics are not.
    let mut a = aligned(&buf[..end]);
    let mut rng = rand_xoshiro::SplitMix64::seed_from_u64(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let x = rng.next_u64();
        let at = (x % end as u64) as usize;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut a);
        let old = bytes[at];
        bytes[at] ^= (x >> 32) as u8 | 1;
        let _ = read_all(&mut c, &bytes[..end], end);
        bytemuck::cast_slice_mut::<u64, u8>(&mut a)[at] = old;
    }
}

fn chunk() -> Chunk {
    let mut first = None;
    for_each_chunk(&Input::synthetic(3_000), None, 1 << 20, |c| {
        if first.is_none() {
            first = Some(Chunk {
                batches: c.batches.clone(),
                entries: c.entries.clone(),
                expected: c.expected.clone(),
            });
        }
        Ok::<(), InputError>(())
    })
    .unwrap();
    first.unwrap()
}

#[test]
fn checked_formats_report_damage_without_panicking() {
    let c = chunk();
    damage(sbe::SbeMarketData, &c, "sbe");
    damage(sbe::Sbe2019, &c, "sbe-2019");
    damage(capnp::Capnp::default(), &c, "capnp");
    damage(capnp::CapnpPacked::default(), &c, "capnp-packed");
    damage(flatbuffers::FlatBuffers::default(), &c, "flatbuffers");
    damage(protobuf::Protobuf::default(), &c, "protobuf");
    damage(rkyv::Rkyv::default(), &c, "rkyv");
}

/// The unchecked rows read nothing their validation rejected, nor anything it did not cover.
fn unchecked_refuses<C: Codec>(mut c: C, chunk: &Chunk, name: &str) {
    let (buf, end) = written(&mut c, chunk);
    let mut a = aligned(&buf[..end]);
    // Not validated yet: refused.
    assert!(
        read_all(&mut c, bytemuck::cast_slice(&a), end).is_err(),
        "{name}"
    );
    // Validated: reads.
    c.prepare_read(bytemuck::cast_slice(&a), end).unwrap();
    read_all(&mut c, bytemuck::cast_slice(&a), end).unwrap();
    // Damaged in a length field: validation fails and reading stays refused.
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut a);
    bytes[0] ^= 0x55;
    let _ = c.serialize(0, &[], &mut [0u8; 64], 0); // clears the validated mark
    assert!(
        c.prepare_read(bytemuck::cast_slice(&a), end).is_err(),
        "{name}"
    );
    assert!(
        read_all(&mut c, bytemuck::cast_slice(&a), end).is_err(),
        "{name}"
    );
}

#[test]
fn unchecked_formats_read_only_what_was_validated() {
    let c = chunk();
    unchecked_refuses(
        flatbuffers::FlatBuffersUnchecked::default(),
        &c,
        "flatbuffers-unchecked",
    );
    unchecked_refuses(rkyv::RkyvUnchecked::default(), &c, "rkyv-unchecked");
}
