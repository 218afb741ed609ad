//! The generated TypeScript against the Rust codecs, in Node.
//!
//! Each test generates packages into a temporary directory, compiles them with the pinned `tsc`
//! (`tests/node`, installed by `npm ci`), and drives `tests/node/harness.mjs`:
//! - Rust to TypeScript: random messages (`sbekit_otf::random`) decode in TypeScript to the JSON
//!   `sbekit decode` prints for them, value for value, at the schema's version, from an older
//!   writer and from a newer one;
//! - TypeScript to Rust: the TypeScript encoders write each decoded message again, and
//!   `sbekit decode` prints the same JSON for those bytes;
//! - every truncated prefix gives `SbeDecodeError`; random byte flips never give another
//!   exception (and when both sides decode a corrupted message, they agree).
//!
//! Tests skip loudly without Node or `npm ci` (or without `../shared` for the reference schemas),
//! and fail instead under `CI=true`.

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn own_schema(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// What one input message is, and so what its harness line must be.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Case {
    /// Written at the schema's version: decode, compare, re-encode, compare again.
    Current,
    /// Written by an older or newer writer: decode and compare.
    Evolved,
    /// A strict prefix of a message: must be an `SbeDecodeError`.
    Truncated,
    /// Random bytes flipped: anything but another exception.
    Flipped,
}

struct Counts {
    compared: usize,
    reencoded: usize,
    truncated: usize,
    flipped: usize,
}

/// Random messages for every template of `schema`, with truncations and flips.
fn inputs(schema: &Path, seed: u64, per_template: usize) -> (sbekit_ir::Ir, Vec<(Case, Vec<u8>)>) {
    let ir = sbekit_schema::load_ir(schema).expect("schema");
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for msg in &ir.messages {
        for k in 0..per_template {
            let (case, opts) = match k % 4 {
                0 | 1 => (Case::Current, Options::default()),
                2 => (
                    Case::Evolved,
                    Options {
                        writer_version: Some(0),
                        ..Options::default()
                    },
                ),
                _ => (
                    Case::Evolved,
                    Options {
                        writer_version: Some(u32::try_from(ir.version).unwrap_or(0) + 1),
                        extra_block: 1 + (k % 7),
                        ..Options::default()
                    },
                ),
            };
            let m = random_message(&ir, msg, &mut rng, &opts);
            if k < 2 {
                for n in 0..m.bytes.len() {
                    out.push((Case::Truncated, m.bytes[..n].to_vec()));
                }
            }
            for _ in 0..3 {
                let mut b = m.bytes.clone();
                let flips = 1 + rng.below_or(3);
                for _ in 0..flips {
                    let i = rng.below_or(b.len() as u64 - 1) as usize;
                    b[i] ^= 1 << rng.below_or(7);
                }
                out.push((Case::Flipped, b));
            }
            out.push((case, m.bytes));
        }
    }
    (ir, out)
}

fn check(ir: &sbekit_ir::Ir, cases: &[(Case, Vec<u8>)], lines: &[Value], what: &str) -> Counts {
    let dec = sbekit_otf::Decoder::new(ir).expect("otf plan");
    let mut c = Counts {
        compared: 0,
        reencoded: 0,
        truncated: 0,
        flipped: 0,
    };
    for ((case, bytes), line) in cases.iter().zip(lines) {
        let ctx = || format!("{what}: {case:?} message {}: {line}", hex(bytes));
        assert!(line.get("bad").is_none(), "another exception: {}", ctx());
        match case {
            Case::Current | Case::Evolved => {
                let ts = line
                    .get("ok")
                    .unwrap_or_else(|| panic!("no decode: {}", ctx()));
                let rust = otf_json(&dec, bytes);
                assert!(same(ts, &rust), "values differ: {}\nrust: {rust}", ctx());
                assert_eq!(line["len"].as_u64(), Some(bytes.len() as u64), "{}", ctx());
                c.compared += 1;
                if *case == Case::Current {
                    let re = unhex(
                        line["re"]
                            .as_str()
                            .unwrap_or_else(|| panic!("no re-encoding: {}", ctx())),
                    );
                    let again = otf_json(&dec, &re);
                    assert!(
                        same(&again, &rust),
                        "re-encoded differs: {}\nrust: {again}",
                        ctx()
                    );
                    c.reencoded += 1;
                }
            }
            Case::Truncated => {
                assert!(
                    line.get("err").is_some(),
                    "truncation not reported: {}",
                    ctx()
                );
                c.truncated += 1;
            }
            Case::Flipped => {
                if let Some(ts) = line.get("ok") {
                    if let Ok((text, _)) = sbekit_otf::message_to_decode_json(&dec, bytes, false) {
                        let rust: Value = serde_json::from_str(&text).expect("json");
                        assert!(
                            same(ts, &rust),
                            "corrupted values differ: {}\nrust: {rust}",
                            ctx()
                        );
                    }
                }
                c.flipped += 1;
            }
        }
    }
    c
}

/// Generates, compiles and checks `schemas` (name, path) in one tsc run.
fn parity(test: &str, schemas: &[(&str, PathBuf)], per_template: usize) {
    let Some(node) = tools(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    for (name, path) in schemas {
        generate(root.path(), name, path);
    }
    compile(&node, root.path(), true, &[]);
    for (i, (name, path)) in schemas.iter().enumerate() {
        let (ir, cases) = inputs(path, 0x5be + i as u64, per_template);
        let bytes: Vec<Vec<u8>> = cases.iter().map(|c| c.1.clone()).collect();
        let lines = harness(&node, root.path(), name, &bytes, false);
        let c = check(&ir, &cases, &lines, name);
        eprintln!(
            "{test}: {name}: {} messages equal in TypeScript and Rust, {} re-encoded by TypeScript and equal in Rust, {} truncations reported, {} corrupted messages without another exception",
            c.compared, c.reencoded, c.truncated, c.flipped
        );
        assert!(c.compared > 0 && c.reencoded > 0 && c.truncated > 0);
    }
}

#[test]
fn own_schemas_rust_and_typescript_agree() {
    parity(
        "own_schemas_rust_and_typescript_agree",
        &[
            ("market_data", own_schema("../../schemas/market-data.xml")),
            (
                "shootout_2019",
                own_schema("../../schemas/shootout-2019.xml"),
            ),
            ("kinds", own_schema("tests/schemas/kinds.xml")),
            (
                "versioned_v1",
                own_schema("../sbekit-codegen-tests/schemas/versioned-v1.xml"),
            ),
        ],
        40,
    );
}

#[test]
fn reference_schemas_rust_and_typescript_agree() {
    let test = "reference_schemas_rust_and_typescript_agree";
    let rels = [
        ("car", "sbe-benchmarks/src/main/resources/car.xml"),
        (
            "fix",
            "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
        ),
        (
            "baseline",
            "sbe-samples/src/main/resources/example-schema.xml",
        ),
        (
            "extension",
            "sbe-samples/src/main/resources/example-extension-schema.xml",
        ),
        (
            "bigendian",
            "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
        ),
    ];
    let mut schemas = Vec::new();
    for (name, rel) in rels {
        let Some(p) = sbekit_testdata::require_reference(rel, test) else {
            return;
        };
        schemas.push((name, p));
    }
    parity(test, &schemas, 40);
}

/// Zero-size group entries with a huge count: decoding is bounded. Up to the message's budget
/// of empty entries (`rt.MAX_EMPTY_ENTRIES`, 2^20, as `sbekit decode`) they are read; beyond it
/// the message is refused, as `sbekit decode` refuses it.
#[test]
fn hostile_counts_are_bounded() {
    let test = "hostile_counts_are_bounded";
    let Some(node) = tools(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    let schema = own_schema("tests/schemas/hostile.xml");
    generate(root.path(), "hostile", &schema);
    compile(&node, root.path(), true, &[]);
    // Empties v2: header, tag, `nothing` with `n` entries of 0 bytes, `later` empty, text "".
    let empties = |n: u32| {
        let mut m = Vec::new();
        for v in [4u16, 1, 7, 2] {
            m.extend_from_slice(&v.to_le_bytes());
        }
        m.extend_from_slice(&9u32.to_le_bytes());
        m.extend_from_slice(&0u16.to_le_bytes());
        m.extend_from_slice(&n.to_le_bytes());
        m.extend_from_slice(&16u16.to_le_bytes());
        m.extend_from_slice(&0u32.to_le_bytes());
        m.extend_from_slice(&0u16.to_le_bytes());
        m
    };
    let budget = 1u32 << 20;
    let (at_budget, over_budget) = (empties(budget), empties(2_147_483_647));
    // Within the budget, with a `later` count of 2^31-1 entries of 16 bytes: truncated, found
    // at once.
    let mut big = empties(budget);
    let at = 8 + 4 + 6 + 2;
    big[at..at + 4].copy_from_slice(&2_147_483_647u32.to_le_bytes());
    let start = std::time::Instant::now();
    let lines = harness(
        &node,
        root.path(),
        "hostile",
        &[at_budget.clone(), over_budget.clone(), big],
        true,
    );
    assert_eq!(lines[0]["decoded"], "Empties", "{}", lines[0]);
    assert_eq!(lines[0]["len"].as_u64(), Some(at_budget.len() as u64));
    assert_eq!(lines[1]["err"], "tooManyEntries", "{}", lines[1]);
    assert_eq!(lines[1]["path"], "Empties.nothing", "{}", lines[1]);
    assert_eq!(lines[2]["err"], "truncated", "{}", lines[2]);
    assert!(
        lines[2]["path"]
            .as_str()
            .unwrap_or("")
            .starts_with("Empties.later["),
        "{}",
        lines[2]
    );
    assert!(
        start.elapsed().as_secs() < 20,
        "hostile counts took {:?}",
        start.elapsed()
    );
    // `sbekit decode` draws the same line.
    let ir = sbekit_schema::load_ir(&schema).expect("schema");
    let otf = sbekit_otf::Decoder::new(&ir).expect("otf");
    assert!(sbekit_otf::message_to_json(&otf, &at_budget, false).is_ok());
    assert!(sbekit_otf::message_to_json(&otf, &over_budget, false).is_err());
}

/// The reference car vectors: JSON goldens value for value, byte-identical re-encoding, every
/// truncated prefix an `SbeDecodeError`, random flips nothing else.
#[test]
fn car_vectors_match_goldens_and_reencode_identically() {
    let test = "car_vectors_match_goldens_and_reencode_identically";
    let Some(node) = tools(test) else { return };
    let res = "sbe-samples/src/main/resources";
    // (vector, schema package, schema, golden, byte-identical re-encoding expected)
    let cases = [
        (
            "rust/car_example_baseline_data.sbe",
            "baseline",
            format!("{res}/example-schema.xml"),
            "car_example_baseline_data.example-schema.json",
            true,
        ),
        (
            "rust/car_example_extension_data.sbe",
            "extension",
            format!("{res}/example-extension-schema.xml"),
            "car_example_extension_data.example-extension-schema.json",
            false,
        ),
        (
            "rust/car_example_extension_data.sbe",
            "baseline",
            format!("{res}/example-schema.xml"),
            "",
            true,
        ),
        (
            "derived/vectors/car_example_extension_v1_data.sbe",
            "extension",
            format!("{res}/example-extension-schema.xml"),
            "car_example_extension_v1_data.example-extension-schema.json",
            true,
        ),
        (
            "derived/vectors/car_example_extension_v1_data.sbe",
            "baseline",
            format!("{res}/example-schema.xml"),
            "car_example_extension_v1_data.example-schema.json",
            false,
        ),
        (
            "derived/vectors/car_example_bigendian_data.sbe",
            "bigendian",
            "sbe-tool/src/test/resources/example-bigendian-test-schema.xml".to_string(),
            "car_example_bigendian_data.example-bigendian-test-schema.json",
            true,
        ),
    ];
    let root = tempfile::tempdir().expect("tempdir");
    let mut generated = Vec::new();
    for (vector, pkg, schema, golden, _) in &cases {
        for rel in [vector.to_string(), schema.clone()] {
            if sbekit_testdata::require_reference(&rel, test).is_none() {
                return;
            }
        }
        if !golden.is_empty()
            && sbekit_testdata::require_reference(&format!("derived/json/{golden}"), test).is_none()
        {
            return;
        }
        if !generated.contains(pkg) {
            let p = sbekit_testdata::reference_sbe_dir().join(schema);
            generate(root.path(), pkg, &p);
            generated.push(*pkg);
        }
    }
    compile(&node, root.path(), true, &[]);
    let mut rng = Rng::new(13);
    for (vector, pkg, _, golden, identical) in &cases {
        let bytes =
            std::fs::read(sbekit_testdata::reference_sbe_dir().join(vector)).expect("vector");
        let mut inputs = vec![bytes.clone()];
        inputs.extend((0..bytes.len()).map(|n| bytes[..n].to_vec()));
        for _ in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below_or(3) {
                let i = rng.below_or(b.len() as u64 - 1) as usize;
                b[i] ^= 1 << rng.below_or(7);
            }
            inputs.push(b);
        }
        let lines = harness(&node, root.path(), pkg, &inputs, false);
        let ok = &lines[0];
        let ts = ok
            .get("ok")
            .unwrap_or_else(|| panic!("{vector} with {pkg}: {ok}"));
        if !golden.is_empty() {
            let text = std::fs::read_to_string(
                sbekit_testdata::reference_sbe_dir()
                    .join("derived/json")
                    .join(golden),
            )
            .expect("golden");
            let want: Value = serde_json::from_str(&text).expect("golden json");
            // `sbekit decode` (and `toJson`) mark an older writer's message with
            // `"$version"`; the reference's goldens do not. Only the car written at version 0
            // is older than its schema.
            let mut ts = ts.clone();
            if let Value::Object(o) = &mut ts {
                if let Some(v) = o.remove("$version") {
                    assert_eq!(v, 0, "{vector}: $version");
                }
            }
            assert!(
                same(&ts, &want),
                "{vector} with {pkg}: {ts}\ngolden: {want}"
            );
        }
        if *identical {
            let re = unhex(ok["re"].as_str().expect("re-encoded"));
            assert_eq!(
                hex(&re),
                hex(&bytes),
                "{vector} with {pkg}: re-encoding differs"
            );
        }
        for (n, line) in lines[1..=bytes.len()].iter().enumerate() {
            assert!(
                line.get("err").is_some(),
                "{vector} with {pkg}: prefix of {n} bytes: {line}"
            );
        }
        for line in &lines[bytes.len() + 1..] {
            assert!(
                line.get("bad").is_none(),
                "{vector} with {pkg}: flip: {line}"
            );
        }
        eprintln!(
            "{test}: {vector} with {pkg}: golden ok, {} prefixes and 300 flips ok",
            bytes.len()
        );
    }
}

/// The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
/// when `../shared` is there) generate TypeScript that `tsc --strict` accepts.
#[test]
fn all_reference_accepted_schemas_pass_tsc_strict() {
    let test = "all_reference_accepted_schemas_pass_tsc_strict";
    let Some(node) = tools(test) else { return };
    let schemas = sbekit_testdata::strict_build_schemas(test);
    let root = tempfile::tempdir().expect("tempdir");
    let mut n = 0;
    for path in &schemas {
        generate(root.path(), &format!("s{n:02}"), path);
        n += 1;
    }
    assert_eq!(n, schemas.len());
    compile(&node, root.path(), false, &[]);
    eprintln!("{test}: {n} packages pass tsc --strict --noEmit");
}

/// The README's TypeScript example, taken from README.md, compiled with `--strict` and run.
#[test]
fn readme_example_compiles_and_runs() {
    let test = "readme_example_compiles_and_runs";
    let Some(schema) = sbekit_testdata::require_reference(
        "sbe-samples/src/main/resources/example-schema.xml",
        test,
    ) else {
        return;
    };
    let Some(node) = tools(test) else { return };
    let readme = std::fs::read_to_string(own_schema("../../README.md")).expect("README.md");
    let section = readme
        .split("## Generated TypeScript codecs")
        .nth(1)
        .expect("README has a TypeScript section");
    let code = section
        .split("```ts\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a ts code block");
    let root = tempfile::tempdir().expect("tempdir");
    generate(root.path(), "baseline", &schema);
    let code = code.replace("from \"baseline-sbe\"", "from \"./baseline/src/index.js\"");
    std::fs::write(root.path().join("readme.ts"), code).expect("write example");
    compile(&node, root.path(), true, &["readme.ts"]);
    let stdout = run_node(root.path(), "dist/readme.js");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "30 35.900001525878906 Urban Cycle", "{stdout}");
    assert_eq!(lines[1], "Honda true", "{stdout}");
    let json: Value = serde_json::from_str(lines[2]).expect("json line");
    assert_eq!(json["serialNumber"], 1234);
    assert_eq!(json["fuelFigures"][0]["usageDescription"], "Urban Cycle");
    assert!(
        lines[3].starts_with("at byte 95 (Car.activationCode): truncated"),
        "{stdout}"
    );
}

/// Issue 27: text that is not valid in its declared encoding prints in TypeScript as
/// `sbekit decode` prints it (`sbekit_otf::text`): UTF-8 only where the field declares UTF-8,
/// Latin-1 otherwise. Random messages of `kinds.xml` (UTF-8 var data, US-ASCII char arrays)
/// get lone or cut UTF-8 sequences and valid multi-byte UTF-8 written over their text; whenever
/// Rust decodes one, TypeScript decodes it to the same JSON.
#[test]
fn invalid_text_prints_as_sbekit_decode_prints_it() {
    let test = "invalid_text_prints_as_sbekit_decode_prints_it";
    let Some(node) = tools(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    let schema = own_schema("tests/schemas/kinds.xml");
    generate(root.path(), "kinds", &schema);
    compile(&node, root.path(), true, &[]);
    let ir = sbekit_schema::load_ir(&schema).expect("schema");
    let dec = sbekit_otf::Decoder::new(&ir).expect("otf plan");
    let mut rng = Rng::new(27);
    let patterns: [&[u8]; 5] = [
        b"\xC3",
        b"\xE2\x82",
        b"\xA9",
        "é".as_bytes(),
        "€".as_bytes(),
    ];
    let mut cases = Vec::new();
    for msg in &ir.messages {
        for _ in 0..60 {
            let opts = Options {
                max_data: 24,
                ..Options::default()
            };
            let mut b = random_message(&ir, msg, &mut rng, &opts).bytes;
            for _ in 0..1 + rng.below_or(2) {
                let p = patterns[rng.below_or(patterns.len() as u64 - 1) as usize];
                let at = (b.len() / 3 + rng.below_or((b.len() - b.len() / 3) as u64) as usize)
                    .min(b.len().saturating_sub(p.len()));
                b[at..at + p.len()].copy_from_slice(p);
            }
            cases.push(b);
        }
    }
    let lines = harness(&node, root.path(), "kinds", &cases, false);
    let (mut compared, mut fallbacks) = (0, 0);
    for (bytes, line) in cases.iter().zip(&lines) {
        assert!(line.get("bad").is_none(), "another exception: {line}");
        let mut p = sbekit_otf::JsonPrinter::new(false);
        if dec.decode(bytes, &mut p).is_err() {
            continue;
        }
        let rust: Value = serde_json::from_slice(p.output()).expect("json");
        let ts = line
            .get("ok")
            .unwrap_or_else(|| panic!("Rust decodes {} but TypeScript: {line}", hex(bytes)));
        assert!(
            same(ts, &rust),
            "text differs: {}\nts: {ts}\nrust: {rust}",
            hex(bytes)
        );
        compared += 1;
        fallbacks += p.text_fallbacks();
    }
    eprintln!("{test}: {compared} messages equal, {fallbacks} text values read as Latin-1");
    assert!(
        compared > 30 && fallbacks > 10,
        "{compared} compared, {fallbacks} fallbacks"
    );
}
