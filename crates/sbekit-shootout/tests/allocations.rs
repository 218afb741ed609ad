//! Counts the heap allocations of each format in the steady state (after one warm-up pass),
//! to back the claims of `Format::notes`: none for SBE, FlatBuffers and rkyv; one per message
//! written for Cap'n Proto (the builder's segment list); one per IEX message read for Protocol
//! Buffers (prost's owned `String`s). One test only: the counter is process-wide.

use sbekit_shootout::agg::Aggregates;
use sbekit_shootout::codec::{capnp, flatbuffers, protobuf, rkyv, sbe, Codec};
use sbekit_shootout::data::{for_each_chunk, Input, InputError};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// (allocations while serializing, allocations while deserializing) of the second pass.
fn count<C: Codec>(mut c: C, input: &Input) -> (usize, usize, u64, u64) {
    let mut result = (0, 0, 0, 0);
    for_each_chunk(input, None, 1 << 20, |chunk| {
        let mut backing = vec![0u64; (chunk.entries.len() * 128 + chunk.batches.len() * 128) / 8];
        let out: &mut [u8] = bytemuck::cast_slice_mut(&mut backing);
        let mut agg = Aggregates::new();
        let pass = |c: &mut C, agg: &mut Aggregates, out: &mut [u8]| {
            let region = Region::new(GLOBAL);
            let mut pos = 0;
            for b in &chunk.batches {
                pos = c
                    .serialize(b.sequence, chunk.entries_of(b), out, pos)
                    .unwrap();
            }
            let ser = region.change().allocations;
            c.prepare_read(out, pos).unwrap();
            agg.clear();
            let region = Region::new(GLOBAL);
            let mut at = 0;
            while at < pos {
                at = c.deserialize(out, at, agg).unwrap();
            }
            (ser, region.change().allocations)
        };
        pass(&mut c, &mut agg, out); // warm-up: buffers and pools grow here
        let (ser, de) = pass(&mut c, &mut agg, out);
        assert!(agg.diff(&chunk.expected).is_none());
        result = (
            ser,
            de,
            chunk.batches.len() as u64,
            chunk.entries.len() as u64,
        );
        Ok::<(), InputError>(())
    })
    .unwrap();
    result
}

#[test]
fn steady_state_allocations_per_format() {
    let input = Input::synthetic(20_000);
    #[allow(unused_mut)]
    let mut rows = vec![
        ("sbe", count(sbe::SbeMarketData, &input)),
        ("sbe-2019", count(sbe::Sbe2019, &input)),
        ("capnp", count(capnp::Capnp::default(), &input)),
        ("capnp-packed", count(capnp::CapnpPacked::default(), &input)),
        (
            "flatbuffers",
            count(flatbuffers::FlatBuffers::default(), &input),
        ),
        (
            "flatbuffers-unchecked",
            count(flatbuffers::FlatBuffersUnchecked::default(), &input),
        ),
        ("protobuf", count(protobuf::Protobuf::default(), &input)),
        ("rkyv", count(rkyv::Rkyv::default(), &input)),
        (
            "rkyv-unchecked",
            count(rkyv::RkyvUnchecked::default(), &input),
        ),
    ];
    #[cfg(feature = "reference-sbe")]
    {
        use sbekit_shootout::codec::reference::{RefSbe2019, RefSbeMarketData};
        rows.push(("ref-sbe", count(RefSbeMarketData, &input)));
        rows.push(("ref-sbe-2019", count(RefSbe2019, &input)));
    }
    for (name, (ser, de, messages, entries)) in rows {
        println!("{name:<22} serialize {ser:>6} allocations, deserialize {de:>6} ({messages} messages, {entries} IEX messages)");
        let (want_ser, want_de) = match name {
            "capnp" | "capnp-packed" => (messages as usize, 0),
            "protobuf" => (0, entries as usize),
            _ => (0, 0),
        };
        assert_eq!((ser, de), (want_ser, want_de), "{name}");
    }
}
