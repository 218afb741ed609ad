//! Runs the whole shootout (every format, latency and throughput passes, correctness gate) on a
//! small synthetic day and on the go-iex DEEP10 sample. These tests exercise the code; they do
//! not judge its speed.

use sbekit_shootout::bench::{run, NoProgress, Options};
use sbekit_shootout::codec::Format;
use sbekit_shootout::data::Input;

fn check(input: &Input, chunk_entries: usize, runs: usize) {
    let opts = Options {
        formats: Format::ALL.to_vec(),
        runs,
        chunk_entries,
        ..Options::default()
    };
    let out = run(input, &opts, &mut NoProgress).expect("shootout passes the gate");
    assert!(
        out.input.batches > 0,
        "no segment with trades or price level updates"
    );
    assert!(out.input.trades > 0 && out.input.quotes > 0);
    assert_eq!(out.formats.len(), Format::ALL.len());
    for f in &out.formats {
        assert_eq!(f.runs.len(), runs);
        for r in &f.runs {
            assert_eq!(r.messages, out.input.batches, "{}", f.format);
            assert_eq!(
                r.entries,
                out.input.trades + out.input.quotes,
                "{}",
                f.format
            );
            assert_eq!(r.serialize.len(), out.input.batches, "{}", f.format);
            assert_eq!(r.deserialize.len(), out.input.batches, "{}", f.format);
            assert!(r.bytes > 0);
        }
        // Every run writes the same bytes.
        assert!(
            f.runs.iter().all(|r| r.bytes == f.runs[0].bytes),
            "{}",
            f.format
        );
    }
}

#[test]
fn synthetic_day_every_format_passes_the_gate() {
    check(&Input::synthetic(60_000), 1 << 20, 2);
}

#[test]
fn synthetic_day_in_small_chunks() {
    // Many chunks: aggregates are gated per chunk and figures summed over chunks.
    check(&Input::synthetic(30_000), 2_000, 1);
}

#[test]
fn deep10_every_format_passes_the_gate() {
    let Some(path) = sbekit_testdata::require(
        "data/iex/go-iex/DEEP10.pcap.gz",
        "deep10_every_format_passes_the_gate",
    ) else {
        return;
    };
    check(&Input::File(path), 1 << 20, 1);
}

/// With the reference tool's codecs built in, both SBE generators must write the same bytes for
/// the same schema and values.
#[cfg(feature = "reference-sbe")]
#[test]
fn reference_codecs_write_the_same_bytes_as_sbekit() {
    use sbekit_shootout::codec::reference::{RefSbe2019, RefSbeMarketData};
    use sbekit_shootout::codec::sbe::{Sbe2019, SbeMarketData};
    use sbekit_shootout::codec::Codec;
    use sbekit_shootout::data::for_each_chunk;

    fn write(c: &mut impl Codec, chunk: &sbekit_shootout::data::Chunk) -> Vec<u8> {
        let mut out = vec![0u8; chunk.entries.len() * 64 + chunk.batches.len() * 64];
        let mut pos = 0;
        for b in &chunk.batches {
            pos = c
                .serialize(b.sequence, chunk.entries_of(b), &mut out, pos)
                .unwrap();
        }
        out.truncate(pos);
        out
    }
    for_each_chunk(&Input::synthetic(20_000), None, 1 << 20, |chunk| {
        assert_eq!(
            write(&mut SbeMarketData, chunk),
            write(&mut RefSbeMarketData, chunk)
        );
        assert_eq!(write(&mut Sbe2019, chunk), write(&mut RefSbe2019, chunk));
        Ok::<(), sbekit_shootout::data::InputError>(())
    })
    .unwrap();
}
