//! Exact round trips over the reference material: `encode(decode(bytes)) == bytes` for every
//! reference vector and for random messages of all 80 reference-accepted schemas (bytes made
//! canonical first, see `common::canonical`; with validation on, each is refused or the same
//! bytes), plus `decode(encode(tree)) == tree` for random value trees, across versions.

mod common;

use common::{
    canonical, decode, encode, load, random, random_tree, reference_schemas, strip, try_decode,
    Schema,
};
use sbekit_otf::random::{Options, Rng};
use serde_json::Value;

#[test]
fn reference_vectors_round_trip_exactly() {
    let test = "reference_vectors_round_trip_exactly";
    let base = "sbe-samples/src/main/resources/example-schema.xml";
    let ext = "sbe-samples/src/main/resources/example-extension-schema.xml";
    let big = "sbe-tool/src/test/resources/example-bigendian-test-schema.xml";
    // (vector, schema, version to write as)
    let cases = [
        ("rust/car_example_baseline_data.sbe", base, None),
        ("rust/car_example_extension_data.sbe", base, None),
        // A v0 writer read by the v1 schema: write it again as version 0.
        ("rust/car_example_extension_data.sbe", ext, Some(0)),
        (
            "derived/vectors/car_example_extension_v1_data.sbe",
            ext,
            None,
        ),
        ("derived/vectors/car_example_bigendian_data.sbe", big, None),
    ];
    for (vector, schema, version) in cases {
        let Some(v) = sbekit_testdata::require_reference(vector, test) else {
            return;
        };
        let bytes = std::fs::read(v).unwrap();
        let s = load(&sbekit_testdata::reference_sbe_dir().join(schema));
        let json = decode(&s, &bytes);
        let again = encode(&s, &json, "Car", version);
        assert_eq!(again, bytes, "{vector} with {schema}: {json}");
        // The serde_json front end gives the same bytes.
        let mut out = Vec::new();
        let value: Value = serde_json::from_str(&json).unwrap();
        s.encoder.encode(&value, None, version, &mut out).unwrap();
        assert_eq!(out, bytes, "{vector} via serde_json::Value");
    }
}

/// `encode(decode(canonical(random))) == canonical(random)` and the JSON reads back the same,
/// for `seeds` messages of every message of `s`, written as `writer_version`. An error names
/// the message the decoder refuses.
fn random_round_trips(
    s: &Schema,
    seeds: u64,
    writer_version: Option<u32>,
) -> Result<usize, String> {
    let mut n = 0;
    let checked_encoder = s.encoder.clone().with_validation(true);
    for m in 0..s.ir.messages.len() {
        let msg = &s.layout.messages[m];
        if writer_version.is_some_and(|v| msg.since_version > v) {
            continue;
        }
        for seed in 0..seeds {
            let opts = Options {
                writer_version,
                max_group: 3,
                max_data: 12,
                ..Options::default()
            };
            let raw = random(s, m, seed, &opts);
            if let Err(e) = try_decode(s, &raw) {
                return Err(format!(
                    "{} {} written as {writer_version:?} seed {seed}: not decodable: {e}",
                    s.name, msg.name
                ));
            }
            let canon = canonical(&s.layout, &raw);
            let json = decode(s, &canon);
            // Canonicalizing does not change what the message says.
            assert_eq!(json, decode(s, &raw), "{} {}", s.name, msg.name);
            let again = encode(s, &json, &msg.name, writer_version);
            // Whatever the bytes, they say the same thing.
            assert_eq!(decode(s, &again), json, "{} {}", s.name, msg.name);
            assert_eq!(again, canon, "{} {} seed {seed}: {json}", s.name, msg.name);
            // Validation only refuses (naming a path): what it accepts is the same bytes.
            let mut checked = Vec::new();
            match checked_encoder.encode_json(
                json.as_bytes(),
                Some(&msg.name),
                writer_version,
                &mut sbekit_encode::Doc::new(),
                &mut checked,
            ) {
                Ok(()) => assert_eq!(checked, canon, "{} {} seed {seed}", s.name, msg.name),
                Err(e) => assert!(!e.path.is_empty(), "{} {}: {e}", s.name, msg.name),
            }
            n += 1;
        }
    }
    Ok(n)
}

#[test]
fn random_messages_of_every_reference_schema_round_trip_exactly() {
    let Some(paths) = reference_schemas("random_messages_of_every_reference_schema_round_trip")
    else {
        return;
    };
    assert_eq!(paths.len(), 80);
    let (mut messages, mut skipped) = (0, Vec::new());
    for p in &paths {
        let s = load(p);
        // At the schema's version, then written by every older version (old writer, new
        // reader); a run the decoder refuses is counted by name, never dropped.
        let runs = std::iter::once((12, None)).chain((0..s.layout.version).map(|v| (4, Some(v))));
        for (seeds, version) in runs {
            match random_round_trips(&s, seeds, version) {
                Ok(n) => messages += n,
                Err(why) => skipped.push(why),
            }
        }
    }
    assert!(messages > 1000, "only {messages} messages");
    // Every schema at every writer version is covered: none the decoder refuses.
    assert!(
        skipped.is_empty(),
        "{} runs refused: {skipped:#?}",
        skipped.len()
    );
}

#[test]
fn random_value_trees_read_back_equal() {
    let Some(paths) = reference_schemas("random_value_trees_read_back_equal") else {
        return;
    };
    for p in &paths {
        let s = load(p);
        for m in 0..s.layout.messages.len() {
            let name = s.layout.messages[m].name.clone();
            for seed in 0..8 {
                for version in 0..=s.layout.version {
                    if s.layout.messages[m].since_version > version {
                        continue;
                    }
                    let tree = random_tree(&s.layout, m, &mut Rng::new(seed), version);
                    let mut out = Vec::new();
                    s.encoder
                        .encode(&tree, Some(&name), Some(version), &mut out)
                        .unwrap_or_else(|e| panic!("{} {name}: {e}\n{tree}", s.name));
                    let json = decode(&s, &out);
                    let json: Value = serde_json::from_str(&json).unwrap();
                    // Read by the newest reader: what an old writer left out reads as absent.
                    assert_eq!(
                        strip(&s.layout, m, &json, version),
                        tree,
                        "{} {name} v{version}",
                        s.name
                    );
                    // And writing the decoded tree again as that version gives the same bytes.
                    let again = encode(&s, &json.to_string(), &name, Some(version));
                    assert_eq!(again, out, "{} {name} v{version}", s.name);
                }
            }
        }
    }
}

/// A newer writer read by an older reader: the old schema's view of a v1 Car is the v1 tree
/// without the v1 fields, and the old encoder writes it as a v0 writer would.
#[test]
fn new_writer_old_reader() {
    let test = "new_writer_old_reader";
    let root = sbekit_testdata::reference_sbe_dir();
    let pairs = [(
        "sbe-samples/src/main/resources/example-schema.xml",
        "sbe-samples/src/main/resources/example-extension-schema.xml",
    )];
    for (old, new) in pairs {
        if sbekit_testdata::require_reference(old, test).is_none() {
            return;
        }
        let (old, new) = (load(&root.join(old)), load(&root.join(new)));
        for (m, msg) in new.layout.messages.iter().enumerate() {
            let Some(om) = old.layout.messages.iter().position(|x| x.id == msg.id) else {
                continue;
            };
            for seed in 0..16 {
                let tree = random_tree(&new.layout, m, &mut Rng::new(seed), new.layout.version);
                let mut bytes = Vec::new();
                new.encoder
                    .encode(&tree, Some(&msg.name), None, &mut bytes)
                    .unwrap();
                let seen: Value = serde_json::from_str(&decode(&old, &bytes)).unwrap();
                let old_v = old.layout.version;
                assert_eq!(
                    strip(&old.layout, om, &seen, old_v),
                    strip(&new.layout, m, &tree, old_v),
                    "{} {}",
                    new.name,
                    msg.name
                );
                // The old encoder writes what the old reader saw; the new reader reads it as
                // the same tree with the newer fields absent.
                let mut v0 = Vec::new();
                old.encoder
                    .encode(&seen, Some(&msg.name), None, &mut v0)
                    .unwrap();
                let back: Value = serde_json::from_str(&decode(&new, &v0)).unwrap();
                assert_eq!(
                    strip(&new.layout, m, &back, old_v),
                    strip(&new.layout, m, &tree, old_v)
                );
                // ... which is also exactly what the new encoder writes as that old version.
                let as_old = encode(&new, &back.to_string(), &msg.name, Some(old_v));
                assert_eq!(as_old, v0, "{} {}", new.name, msg.name);
            }
        }
    }
}
