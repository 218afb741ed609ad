//! Owned values interop with the reference tool (issue 39): the reference's generated Java DTOs
//! (`JavaDtos`, sbe-all 1.38.1) and sbekit's generated Java DTOs (`sbekit-codegen-java`) read
//! what the other writes, on the car, FIX samples and CME MDP3 (v1.12) schemas:
//!
//! 1. the reference's Java encoders write random messages (`java/GenParity.java`, as in
//!    `tests/generated.rs`);
//! 2. reference DTOs → sbekit DTOs: the reference's DTOs read each message (`decodeFrom`) and
//!    write it again (`bytesWithHeader`); sbekit's DTOs read those bytes, write them again and
//!    the result reads back (the conformance program's `json-owned` mode) to exactly the JSON
//!    `sbekit decode` prints for what the reference's DTOs wrote;
//! 3. sbekit DTOs → reference DTOs: sbekit's DTOs read each message and write it again
//!    (`reencode-owned`); the reference's DTOs read those bytes and write them again, and both
//!    hold the values the reference's encoders wrote (the canonical form of
//!    `sbekit_parity::canonical`, read by sbekit's OTF decoder).
//!
//! Needs `../shared` (the reference's schemas), Java 17 and the reference jar: skipped loudly
//! without them, a failure under `CI=true`.

use sbekit_otf::Decoder;
use sbekit_parity::{canonical, java};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod sbekit_java;

/// Random messages per message written by the reference's encoders.
const PER_MESSAGE: usize = 20;

fn frames(path: &Path) -> Vec<Vec<u8>> {
    sbekit_testdata::unframe(&std::fs::read(path).unwrap())
}

fn frame_all(messages: &[Vec<u8>]) -> Vec<u8> {
    sbekit_testdata::frames(messages)
}

#[test]
fn reference_and_sbekit_java_dtos_read_what_the_other_writes() {
    let test = "reference_and_sbekit_java_dtos_read_what_the_other_writes";
    let Some(car) =
        sbekit_testdata::require_reference("sbe-benchmarks/src/main/resources/car.xml", test)
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let Some(java) = java::require(test, work) else {
        return;
    };
    let schemas: Vec<PathBuf> = vec![
        car,
        sbekit_testdata::reference_sbe_dir()
            .join("sbe-benchmarks/src/main/resources/fix-message-samples.xml"),
        sbekit_testdata::workspace_file(
            "crates/sbekit-feed/tests/schemas/Cme.Futures.Mdp3.Sbe.v1.12.xml",
        ),
    ];
    let pairs: Vec<(PathBuf, PathBuf)> = schemas
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let out = work.join(format!("s{i}"));
            std::fs::create_dir_all(&out).unwrap();
            (s.clone(), out)
        })
        .collect();
    // 1. The reference's encoders write `java.bin`.
    java.generated(0x5BE_D70, PER_MESSAGE, &pairs);
    // 3, first half: sbekit's DTOs write what they read (`sbdto.bin`).
    let classes = sbekit_java::build(work, &schemas);
    for (i, (_, out)) in pairs.iter().enumerate() {
        let re = sbekit_java::run(&classes, i, "reencode-owned", &out.join("java.bin"));
        std::fs::write(out.join("sbdto.bin"), re).unwrap();
    }
    // The reference's DTOs read and write `java.bin` and `sbdto.bin`.
    let jobs: Vec<(PathBuf, PathBuf, Vec<String>)> = pairs
        .iter()
        .map(|(s, d)| (s.clone(), d.clone(), vec!["java".into(), "sbdto".into()]))
        .collect();
    let (counts, stderr) = java.dto_interop(&jobs);
    let mut failures = Vec::new();
    let mut figures = Vec::new();
    for (i, (schema, out)) in pairs.iter().enumerate() {
        let name = schema.file_name().unwrap().to_string_lossy().into_owned();
        let ir = sbekit_schema::load_ir(schema).unwrap();
        let decoder = Decoder::new(&ir).unwrap();
        let java_msgs = frames(&out.join("java.bin"));
        let ref_msgs = frames(&out.join("java.refdto.bin"));
        let sb_msgs = frames(&out.join("sbdto.bin"));
        let sb_ref_msgs = frames(&out.join("sbdto.refdto.bin"));
        assert_eq!(java_msgs.len(), ref_msgs.len(), "{name}: refdto frames");
        assert_eq!(java_msgs.len(), sb_msgs.len(), "{name}: sbekit frames");
        assert_eq!(
            java_msgs.len(),
            sb_ref_msgs.len(),
            "{name}: sbdto refdto frames"
        );
        // 2. sbekit's DTOs read what the reference's DTOs wrote.
        std::fs::write(out.join("refdto.bin"), frame_all(&ref_msgs)).unwrap();
        let lines = String::from_utf8(sbekit_java::run(
            &classes,
            i,
            "json-owned",
            &out.join("refdto.bin"),
        ))
        .unwrap();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines.len(), ref_msgs.len(), "{name}: json-owned lines");
        let canon = |b: &[u8]| canonical::otf(&decoder, b);
        for (k, original) in java_msgs.iter().enumerate() {
            let what = format!("{name} #{k}");
            let written = &ref_msgs[k];
            if written.is_empty() {
                failures.push(format!(
                    "{what}: the reference's DTOs fail on the reference encoders' message"
                ));
                continue;
            }
            let want = sbekit_otf::message_to_json(&decoder, written, false)
                .ok()
                .and_then(|(t, _)| serde_json::from_str::<Value>(&t).ok());
            match (want, serde_json::from_str::<Value>(lines[k])) {
                (Some(w), Ok(g)) if sbekit_testdata::same_json(&w, &g) => {}
                (w, g) => failures.push(format!(
                    "{what}: sbekit's DTOs read what the reference's DTOs wrote differently:\n  sbekit decode:    {w:?}\n  sbekit Java DTOs: {g:?}"
                )),
            }
            // 3. The reference's DTOs read what sbekit's DTOs wrote.
            let (sb, back) = (&sb_msgs[k], &sb_ref_msgs[k]);
            if sb.is_empty() {
                failures.push(format!(
                    "{what}: sbekit's DTOs fail on the reference encoders' message"
                ));
                continue;
            }
            if back.is_empty() {
                failures.push(format!(
                    "{what}: the reference's DTOs fail on what sbekit's DTOs wrote"
                ));
                continue;
            }
            let values = canon(original);
            for (who, bytes) in [
                ("sbekit's DTOs", sb),
                (
                    "the reference's DTOs, reading what sbekit's DTOs wrote,",
                    back,
                ),
            ] {
                let v = canon(bytes);
                if v.as_ref().ok() != values.as_ref().ok() {
                    failures.push(format!(
                        "{what}: {who} wrote other values:\n  reference encoders: {values:?}\n  written:            {v:?}"
                    ));
                }
            }
        }
        figures.push(format!(
            "{name}: {} messages of the reference's encoders, through both DTOs both ways",
            java_msgs.len()
        ));
    }
    for f in &figures {
        eprintln!("dto interop: {f}");
    }
    for l in counts.lines() {
        eprintln!("dto interop: reference DTOs (file, messages, failures): {l}");
    }
    if !stderr.trim().is_empty() {
        eprintln!(
            "dto interop: the reference DTO helper said:\n{}",
            stderr.trim()
        );
    }
    eprintln!("dto interop: {} disagreements", failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreements; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
