//! The real single-packet captures of `../shared/data/omi` (CME MDP 3.0 over UDP and TCP,
//! CME iLink 3, B3 UMDF, B3 EntryPoint, Coinbase Derivatives), read through their profiles:
//! every packet's lengths chain exactly to its end, every message decodes, and the counts per
//! (schema id, template id, version) equal an independent count by `count_frames.py` (plain
//! Python, no sbekit code). Skipped loudly without `../shared`, failed under `CI=true`.

use sbekit_feed::profile::Profile;
use sbekit_feed::read::{ReadOptions, Reader, Validate};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use sbekit_testdata::OMI_CAPTURES;

fn independent_count(profile: &str, capture: &Path) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/count_frames.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(profile)
        .arg(capture)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

#[test]
fn every_real_capture_decodes_and_counts_match_an_independent_count() {
    let mut files = 0;
    // Schemas are large: load each once.
    let mut decoders: BTreeMap<&str, sbekit_otf::Decoder> = BTreeMap::new();
    for &(file, profile, schema) in OMI_CAPTURES {
        let test = "every_real_capture_decodes_and_counts_match_an_independent_count";
        let Some(capture) = sbekit_testdata::require(&format!("data/omi/{file}"), test) else {
            return;
        };
        let Some(schema) = sbekit_testdata::require(&format!("schemas/omi/{schema}"), test) else {
            return;
        };
        let decoder = decoders.entry(file_schema(file)).or_insert_with(|| {
            let layout = sbekit_schema::load_layout(&schema).expect("the schema loads");
            sbekit_otf::Decoder::from_layout(&layout).expect("decoder")
        });
        let bytes = sbekit_capture::load(&capture).expect("readable");
        let mut reader = Reader::new(
            Profile::built_in(profile).expect("built in"),
            decoder,
            ReadOptions {
                keep_bad: 100,
                ..ReadOptions::default()
            },
        );
        reader.read(&[&bytes[..]], &mut Validate(decoder));
        let stats = &reader.stats;

        let expected = independent_count(profile, &capture);
        assert_eq!(
            expected["unchained"],
            serde_json::json!([]),
            "{file}: the script's own chain check"
        );
        assert_eq!(
            stats.packets,
            expected["packets"].as_u64().unwrap(),
            "{file}: packets"
        );
        // Every message sbekit saw, decoded or reported as another schema's.
        let mut ours: BTreeMap<String, u64> = BTreeMap::new();
        for (&(s, t, v), &n) in stats.by_header.iter().chain(stats.unknown.iter()) {
            *ours.entry(format!("{s}/{t}/{v}")).or_default() += n;
        }
        let theirs: BTreeMap<String, u64> = expected["messages"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(ours, theirs, "{file}: messages by schema/template/version");
        // Lengths chain to the end of every packet, and everything of the schema's id decodes:
        // the only problems allowed are messages of another schema id (CME's TCP session
        // schema 2), each counted and reported.
        let other_schema: u64 = stats.unknown.values().sum();
        assert_eq!(
            stats
                .bad_by_kind
                .get("unknown-schema")
                .copied()
                .unwrap_or(0),
            other_schema,
            "{file}"
        );
        assert_eq!(stats.bad_count, other_schema, "{file}: {:?}", stats.bad);
        assert!(
            stats.messages + other_schema > 0,
            "{file}: no message found"
        );
        files += 1;
    }
    assert_eq!(files, OMI_CAPTURES.len());
}

fn file_schema(file: &str) -> &'static str {
    OMI_CAPTURES
        .iter()
        .find(|f| f.0 == file)
        .map(|f| f.2)
        .unwrap_or_default()
}

/// Every truncation and every single-bit flip (of the bytes after the pcap file header) of
/// every real capture: problems counted, never a panic; each read is bounded by the input.
#[test]
fn hostile_real_captures_never_panic() {
    let test = "hostile_real_captures_never_panic";
    let mut decoders: BTreeMap<&str, sbekit_otf::Decoder> = BTreeMap::new();
    let mut cases = 0u64;
    for &(file, profile, schema) in OMI_CAPTURES {
        let Some(capture) = sbekit_testdata::require(&format!("data/omi/{file}"), test) else {
            return;
        };
        let Some(schema_path) = sbekit_testdata::require(&format!("schemas/omi/{schema}"), test)
        else {
            return;
        };
        let decoder = decoders.entry(schema).or_insert_with(|| {
            let layout = sbekit_schema::load_layout(&schema_path).expect("the schema loads");
            sbekit_otf::Decoder::from_layout(&layout).expect("decoder")
        });
        let bytes = sbekit_capture::load(&capture).expect("readable");
        let profile = Profile::built_in(profile).expect("built in");
        let mut run = |b: &[u8]| {
            let mut r = Reader::new(profile.clone(), decoder, ReadOptions::default());
            r.read(&[b], &mut Validate(decoder));
            assert!(r.stats.messages <= b.len() as u64);
            cases += 1;
        };
        for cut in 0..bytes.len() {
            run(&bytes[..cut]);
        }
        let mut flipped = bytes.to_vec();
        for at in 24..bytes.len() {
            for bit in 0..8 {
                flipped[at] ^= 1 << bit;
                run(&flipped);
                flipped[at] ^= 1 << bit;
            }
        }
    }
    assert!(cases > 1000);
}
