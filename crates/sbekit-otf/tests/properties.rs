//! Property tests: random messages encoded from the IR decode to the values encoded, across
//! writer versions and unknown trailing block bytes; truncated and corrupted messages fail
//! cleanly (no panics) and whatever decodes prints as valid JSON.

mod common;

use common::{load_ir, Collector, SBEIR};
use proptest::prelude::*;
use sbekit_ir::Ir;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{Decoder, JsonPrinter, NoopVisitor};
use std::sync::OnceLock;

/// All reference IR files with their decoders (empty when the material is missing).
fn schemas() -> &'static [(Ir, Decoder)] {
    static S: OnceLock<Vec<(Ir, Decoder)>> = OnceLock::new();
    S.get_or_init(|| {
        SBEIR
            .iter()
            .filter_map(|n| load_ir(n, "properties"))
            .map(|ir| {
                let d = Decoder::new(&ir).unwrap();
                (ir, d)
            })
            .collect()
    })
}

/// Every (schema, message) pair, to pick from by index.
fn pick(i: usize) -> Option<(&'static Ir, &'static Decoder, usize)> {
    let all: Vec<(usize, usize)> = schemas()
        .iter()
        .enumerate()
        .flat_map(|(s, (ir, _))| (0..ir.messages.len()).map(move |m| (s, m)))
        .collect();
    let &(s, m) = all.get(i % all.len().max(1))?;
    let (ir, d) = &schemas()[s];
    Some((ir, d, m))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_messages_decode_to_the_encoded_values(
        which in 0usize..64,
        seed in any::<u64>(),
        old_writer in any::<bool>(),
        extra_block in prop_oneof![Just(0usize), 1usize..24],
        max_group in 0u64..5,
    ) {
        let Some((ir, decoder, m)) = pick(which) else { return Ok(()) };
        let opts = Options {
            writer_version: old_writer.then_some(0),
            extra_block,
            max_group,
            max_data: 40,
        };
        let msg = random_message(ir, &ir.messages[m], &mut Rng::new(seed), &opts);
        let mut c = Collector::default();
        let len = decoder.decode(&msg.bytes, &mut c);
        prop_assert_eq!(len, Ok(msg.bytes.len()));
        prop_assert_eq!(c.events.len(), msg.expected.len());
        for (got, want) in c.events.iter().zip(&msg.expected) {
            prop_assert_eq!(got, want);
        }
        // Bytes after the message are not part of it.
        let mut longer = msg.bytes.clone();
        longer.extend_from_slice(&[0xAB; 7]);
        prop_assert_eq!(decoder.decode(&longer, &mut NoopVisitor), Ok(msg.bytes.len()));
    }

    #[test]
    fn every_truncation_is_a_truncation_error(which in 0usize..64, seed in any::<u64>()) {
        let Some((ir, decoder, m)) = pick(which) else { return Ok(()) };
        let msg = random_message(ir, &ir.messages[m], &mut Rng::new(seed), &Options::default());
        for cut in 0..msg.bytes.len() {
            let r = decoder.decode(&msg.bytes[..cut], &mut JsonPrinter::new(false));
            let e = r.expect_err("a truncated message must not decode");
            prop_assert!(e.is_truncation(), "cut {}: {}", cut, e);
            prop_assert!(e.offset <= cut, "cut {}: offset {} past the end", cut, e.offset);
        }
    }

    #[test]
    fn corruptions_never_panic_and_print_valid_json(
        which in 0usize..64,
        seed in any::<u64>(),
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
    ) {
        let Some((ir, decoder, m)) = pick(which) else { return Ok(()) };
        let mut bytes = random_message(ir, &ir.messages[m], &mut Rng::new(seed), &Options::default()).bytes;
        for (at, x) in flips {
            let i = at % bytes.len();
            bytes[i] ^= x;
        }
        let mut p = JsonPrinter::new(false);
        match decoder.decode(&bytes, &mut p) {
            Ok(len) => {
                prop_assert!(len <= bytes.len());
                let v: Result<serde_json::Value, _> = serde_json::from_slice(p.output());
                prop_assert!(v.is_ok(), "invalid JSON: {}", String::from_utf8_lossy(p.output()));
            }
            Err(e) => prop_assert!(e.offset <= bytes.len(), "{}", e),
        }
    }
}

#[test]
fn error_paths_name_group_entries_and_var_data() {
    let Some(ir) = load_ir(
        "example-schema",
        "error_paths_name_group_entries_and_var_data",
    ) else {
        return;
    };
    let Some(path) = sbekit_testdata::require_reference(
        "rust/car_example_baseline_data.sbe",
        "error_paths_name_group_entries_and_var_data",
    ) else {
        return;
    };
    let decoder = Decoder::new(&ir).unwrap();
    let bytes = std::fs::read(path).unwrap();
    // Header 8 + block 45 + dimensions 4 = 57; each fuelFigures entry is a 6-byte block, a
    // 4-byte length and the text, so entry 2's "Highway Cycle" occupies bytes 112..125.
    let e = decoder.decode(&bytes[..120], &mut NoopVisitor).unwrap_err();
    assert_eq!(e.path, "Car.fuelFigures[2].usageDescription");
    assert_eq!(e.offset, 112, "{e}");
    assert_eq!(
        e.kind,
        sbekit_otf::ErrorKind::Truncated {
            needed: 13,
            available: 8
        }
    );
    assert!(e
        .to_string()
        .contains("Car.fuelFigures[2].usageDescription"));
    // A group count that cannot fit in the buffer is rejected before walking it.
    let mut big = bytes.clone();
    let count_at = 8 + 45 + 2; // header, root block, then numInGroup after blockLength
    big[count_at..count_at + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    let e = decoder.decode(&big, &mut NoopVisitor).unwrap_err();
    assert_eq!(e.path, "Car.fuelFigures", "{e}");
    assert!(e.is_truncation());
    // A root block shorter than the fields need.
    let mut short = bytes.clone();
    short[0..2].copy_from_slice(&40u16.to_le_bytes());
    let e = decoder.decode(&short, &mut NoopVisitor).unwrap_err();
    assert_eq!(e.path, "Car");
    assert!(
        matches!(
            e.kind,
            sbekit_otf::ErrorKind::BlockTooShort {
                block_length: 40,
                required: 45
            }
        ),
        "{e}"
    );
    // Unknown template.
    let mut other = bytes;
    other[2] = 99;
    let e = decoder.decode(&other, &mut NoopVisitor).unwrap_err();
    assert_eq!(e.kind, sbekit_otf::ErrorKind::UnknownTemplate(99));
}

#[test]
fn property_tests_cover_every_reference_message() {
    if sbekit_testdata::require_reference(
        "derived/sbeir",
        "property_tests_cover_every_reference_message",
    )
    .is_none()
    {
        return;
    }
    assert_eq!(schemas().len(), SBEIR.len());
    let messages: usize = schemas().iter().map(|(ir, _)| ir.messages.len()).sum();
    // `which` ranges over 0..64, so every message is picked.
    assert!((4..=64).contains(&messages), "{messages} messages");
    // The generator really exercises groups, var data and old writers.
    let (ir, decoder) = &schemas()[2];
    let car = &ir.messages[0];
    let opts = Options {
        writer_version: Some(0),
        extra_block: 3,
        max_group: 3,
        max_data: 8,
    };
    let msg = random_message(ir, car, &mut Rng::new(7), &opts);
    assert!(msg.expected.iter().any(|(p, _)| p.contains("acceleration")));
    let mut c = Collector::default();
    decoder.decode(&msg.bytes, &mut c).unwrap();
    assert_eq!(c.events, msg.expected);
}
