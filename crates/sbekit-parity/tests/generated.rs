//! Generated-code parity with the reference tool (issue 10), for `car.xml`,
//! `fix-message-samples.xml` and CME's `FixBinary.xml`:
//!
//! 1. the reference's generated **Java** encoders write random messages (`java/GenParity.java`
//!    fills them by reflection, driven by the schema's IR) that sbekit's OTF decoder and sbekit's
//!    **generated Rust** decoders (crate `sbekit-codegen-all`) read to the values the reference's
//!    generated Java decoders read;
//! 2. sbekit's encoders write messages that the reference's generated Java decoders read to the
//!    values sbekit's OTF and generated Rust decoders read: its IR-driven random writer
//!    (`sbekit_otf::random`, at the schema's version, at every older version and as a newer
//!    writer with longer blocks) for all three schemas, and its generated Rust encoders for
//!    `car.xml` (`sbekit_codegen_all::encoder_samples`, written by hand against the generated
//!    API);
//! 3. sbekit's generated **Java** (`sbekit-codegen-java`, compiled against the reference jar's
//!    Agrona): its encoders re-write sbekit's random messages (each decoded and written again
//!    at its acting version), which the reference's Java decoders read to the values sbekit's
//!    OTF decoder reads; and its decoders read the messages the reference's Java encoders wrote
//!    to the JSON `sbekit decode` prints for them (whose values equal the reference decoders',
//!    by 1).
//!
//! Values are compared in the canonical form of `sbekit_parity::canonical`: exactly between the
//! Java decoders and OTF, and between the Java decoders and the generated Rust's `Debug` text
//! with only the counted normalizations of `canonical::NORMALIZATIONS`.
//!
//! Needs `../shared`, Java 17 and the reference jar: skipped loudly without them, a failure
//! under `CI=true`.

use sbekit_otf::framing::Framing;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::Decoder;
use sbekit_parity::canonical::{self, Counts};
use sbekit_parity::java;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

const SCHEMAS: &[&str] = &[
    "sbe-benchmarks/src/main/resources/car.xml",
    "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
    "sbe-tool/src/test/resources/FixBinary.xml",
];

/// Random messages per message written by the Java encoders.
const JAVA_PER_MESSAGE: usize = 25;
/// Random messages per message and writer version written by sbekit.
const KIT_PER_VERSION: usize = 3;
/// Messages written by sbekit's generated Rust encoders (car.xml only).
const GEN_SAMPLES: usize = 40;
/// Extra block bytes of sbekit's simulated newer writer.
const NEWER_EXTRA: usize = 5;

fn frames(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(len) = bytes.get(at..at + 4) {
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        out.push(bytes[at + 4..at + 4 + len].to_vec());
        at += 4 + len;
    }
    out
}

#[test]
fn generated_codecs_agree_with_the_reference_generated_java() {
    let test = "generated_codecs_agree_with_the_reference_generated_java";
    let started = Instant::now();
    if sbekit_testdata::require_reference(SCHEMAS[2], test).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let Some(java) = java::require(test, work) else {
        return;
    };
    let base = sbekit_testdata::reference_sbe_dir();

    // sbekit's random messages, before the JVM runs, so that one JVM reads them too.
    let mut pairs: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut decoders = Vec::new();
    let mut rng = Rng::new(0x5BE_C0DE);
    for (i, schema) in SCHEMAS.iter().enumerate() {
        let path = base.join(schema);
        let ir = sbekit_schema::load_ir(&path).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let out = work.join(format!("s{i}"));
        std::fs::create_dir_all(&out).unwrap();
        let mut kit = Vec::new();
        for message in &ir.messages {
            let mut writers: Vec<Options> = (0..=ir.version.max(0))
                .map(|v| Options {
                    writer_version: Some(v as u32),
                    ..Options::default()
                })
                .collect();
            writers.push(Options {
                extra_block: NEWER_EXTRA,
                ..Options::default()
            });
            for (k, opts) in writers.iter().enumerate() {
                // Every writer version once, the schema's own version and the newer writer more.
                let n = if k + 2 >= writers.len() {
                    KIT_PER_VERSION
                } else {
                    1
                };
                for _ in 0..n {
                    let m = random_message(&ir, message, &mut rng, opts);
                    Framing::U32Le
                        .write_prefix(&mut kit, m.bytes.len(), sbekit_ir::ByteOrder::LittleEndian)
                        .unwrap();
                    kit.extend_from_slice(&m.bytes);
                }
            }
        }
        std::fs::write(out.join("kit.bin"), kit).unwrap();
        if let Some(samples) = sbekit_codegen_all::encoder_samples(schema, 0x5BE_CA7, GEN_SAMPLES) {
            let mut gen = Vec::new();
            for m in samples {
                Framing::U32Le
                    .write_prefix(&mut gen, m.len(), sbekit_ir::ByteOrder::LittleEndian)
                    .unwrap();
                gen.extend_from_slice(&m);
            }
            std::fs::write(out.join("gen.bin"), gen).unwrap();
        }
        decoders.push(Decoder::new(&ir).unwrap());
        pairs.push((path, out));
    }
    // sbekit's generated Java encoders re-write sbekit's random messages, for the reference's
    // decoders to read in the same JVM run as the rest.
    let paths: Vec<PathBuf> = pairs.iter().map(|p| p.0.clone()).collect();
    let sbj = sbekit_java::build(work, &paths);
    for (i, (_, out)) in pairs.iter().enumerate() {
        let re = sbekit_java::run(&sbj, i, "reencode", &out.join("kit.bin"));
        std::fs::write(out.join("sbj.bin"), re).unwrap();
    }
    let sbekit_done = started.elapsed();
    let java_counts = java.generated(0x5BE_2026, JAVA_PER_MESSAGE, &pairs);
    let java_done = started.elapsed();

    let mut failures = Vec::new();
    let mut counts = Counts::new();
    let mut figures = Vec::new();
    let mut no_rust = 0usize;
    for (i, schema) in SCHEMAS.iter().enumerate() {
        let out = &pairs[i].1;
        for (writer, name) in [
            ("the Java encoders", "java"),
            ("sbekit's random writer", "kit"),
            ("sbekit's generated Rust encoders", "gen"),
            ("sbekit's generated Java encoders", "sbj"),
        ] {
            if !out.join(format!("{name}.bin")).exists() {
                continue;
            }
            let messages = frames(&out.join(format!("{name}.bin")));
            let lines: Vec<String> = std::fs::read_to_string(out.join(format!("{name}.jsonl")))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect();
            assert_eq!(messages.len(), lines.len(), "{schema} {name}: line count");
            let mut rust_checked = 0usize;
            for (k, (bytes, line)) in messages.iter().zip(&lines).enumerate() {
                let what = format!("{schema}, written by {writer}, #{k}");
                let java_value: Value = match serde_json::from_str(line) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{what}: the Java helper's output ({e}): {line}"));
                        continue;
                    }
                };
                if let Some(e) = java_value.get("error") {
                    failures.push(format!("{what}: the Java decoders fail: {e}"));
                    continue;
                }
                match canonical::otf(&decoders[i], bytes) {
                    Ok(v) if v == java_value => {}
                    Ok(v) => failures.push(format!(
                        "{what}: sbekit OTF reads differently:\n  Java decoders: {java_value}\n  sbekit OTF:    {v}"
                    )),
                    Err(e) => failures.push(format!("{what}: sbekit OTF fails: {e}")),
                }
                match sbekit_codegen_all::debug_decode(schema, bytes) {
                    None => no_rust += 1,
                    Some(Err(e)) => {
                        failures.push(format!("{what}: the generated Rust decoder fails: {e}"))
                    }
                    Some(Ok(debug)) => {
                        rust_checked += 1;
                        if let Err(e) = canonical::compare_message(&java_value, &debug, &mut counts)
                        {
                            failures.push(format!(
                                "{what}: the generated Rust reads differently: {e}\n  Java decoders:  {java_value}\n  generated Rust: {debug}"
                            ));
                        }
                    }
                }
            }
            figures.push(format!(
                "{schema}: {} messages written by {writer} (generated Rust read {rust_checked})",
                messages.len()
            ));
        }
    }

    // sbekit's generated Java decoders read what the reference's Java encoders wrote.
    for (i, schema) in SCHEMAS.iter().enumerate() {
        let java_bin = pairs[i].1.join("java.bin");
        let messages = frames(&java_bin);
        let text = String::from_utf8(sbekit_java::run(&sbj, i, "json", &java_bin)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            messages.len(),
            lines.len(),
            "{schema}: sbekit Java line count"
        );
        for (k, (bytes, line)) in messages.iter().zip(&lines).enumerate() {
            let what = format!("{schema}, written by the Java encoders, #{k}");
            let want = sbekit_otf::message_to_json(&decoders[i], bytes, false)
                .ok()
                .and_then(|(t, _)| serde_json::from_str::<Value>(&t).ok());
            match (want, serde_json::from_str::<Value>(line)) {
                (Some(w), Ok(g)) if sbekit_testdata::same_json(&w, &g) => {}
                (w, g) => failures.push(format!(
                    "{what}: sbekit's generated Java reads differently:\n  sbekit decode:  {w:?}\n  generated Java: {g:?}"
                )),
            }
        }
        figures.push(format!(
            "{schema}: {} messages written by the Java encoders read by sbekit's generated Java",
            messages.len()
        ));
    }
    for f in &figures {
        eprintln!("generated parity: {f}");
    }
    eprintln!(
        "generated parity: {:.1} s (sbekit's messages {:.1} s, the JVM: Java codegen, javac, encode, decode {:.1} s)",
        started.elapsed().as_secs_f64(),
        sbekit_done.as_secs_f64(),
        (java_done - sbekit_done).as_secs_f64()
    );
    for (name, what) in canonical::NORMALIZATIONS {
        eprintln!(
            "generated parity: normalization {name}: {} ({what})",
            counts.get(name).copied().unwrap_or(0)
        );
    }
    for line in java_counts.lines() {
        eprintln!("generated parity: Java helper: {line} (a composite field newer than the acting version: the Java decoders' composite accessors have no version check, so the helper reports null without calling them)");
    }
    if no_rust > 0 {
        let why = format!(
            "{no_rust} messages not read by generated Rust: sbekit-codegen-all was built without the reference schemas"
        );
        if sbekit_testdata::is_ci() {
            failures.push(why);
        } else {
            eprintln!("\n*** {why} ***\n");
        }
    }
    eprintln!("generated parity: {} disagreements", failures.len());
    if let Some(dump) = std::env::var_os("SBEKIT_PARITY_DUMP") {
        std::fs::write(dump, failures.join("\n")).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} disagreements; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

mod sbekit_java;
