//! The differential parity suite against the reference tool (sbe-all 1.38.1), over every
//! schema the reference accepts (`derived/reference-verdicts-sbe-all-1.38.1.tsv`):
//!
//! 1. IR: the reference's `.sbeir` (its IrGenerator + IrEncoder) equals sbekit's byte for byte,
//!    after the allow-list [`IR_ALLOW_LIST`].
//! 2. Values: random messages for every message, written at the schema's version, at every
//!    older version and by a newer writer with longer blocks, decoded by the reference's
//!    `OtfMessageDecoder` + `JsonTokenListener` and by sbekit's OTF decoder + `JsonPrinter`,
//!    agree value for value after the named, counted normalizations of
//!    [`sbekit_parity::values::NORMALIZATIONS`].
//! 3. The reference decoder reading sbekit's `.sbeir` prints exactly what it prints reading
//!    its own.
//!
//! Needs `../shared`, Java 17 and the reference jar: skipped loudly without them, a failure
//! under `CI=true`. `scripts/parity.sh` fetches the jar and runs it.

use sbekit_ir::{sbeir, Ir, Signal};
use sbekit_otf::framing::Framing;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{message_to_json, Decoder};
use sbekit_parity::values::{self, Counts, Fields};
use sbekit_parity::{irdiff, java};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// Metadata-only `.sbeir` differences allowed, with the reason.
const IR_ALLOW_LIST: &[(&str, &str)] = &[(
    "message-order",
    "the reference writes messages in its HashMap's iteration order; sbekit in template-id order",
)];

/// Random messages per message and writer version.
const PER_VERSION: usize = 3;
/// Extra block bytes of the simulated newer writer.
const NEWER_EXTRA: usize = 7;

struct Sample {
    schema: usize,
    message: String,
    version: i32,
    ours: String,
}

#[test]
fn parity_with_the_reference_tool() {
    let test = "parity_with_the_reference_tool";
    let started = Instant::now();
    let Some(verdicts) =
        sbekit_testdata::require_reference("derived/reference-verdicts-sbe-all-1.38.1.tsv", test)
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let Some(java) = java::require(test, work) else {
        return;
    };
    let base = sbekit_testdata::reference_sbe_dir();
    let schemas: Vec<String> = std::fs::read_to_string(&verdicts)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let (name, code) = (cols.next()?, cols.next()?);
            (code == "0").then(|| name.to_string())
        })
        .collect();
    assert_eq!(schemas.len(), 80, "reference-accepted schemas");

    // 1. IR.
    let reference_ir = |i: usize| work.join(format!("ref-{i}.sbeir"));
    let our_ir = |i: usize| work.join(format!("kit-{i}.sbeir"));
    let pairs: Vec<(PathBuf, PathBuf)> = (0..schemas.len())
        .map(|i| (base.join(&schemas[i]), reference_ir(i)))
        .collect();
    let log = java.ir(&pairs);
    assert!(!log.contains("FAILED"), "reference IR generation:\n{log}");
    let mut failures = Vec::new();
    let mut allowed: BTreeMap<&str, u64> = BTreeMap::new();
    let mut irs = Vec::new();
    for (i, schema) in schemas.iter().enumerate() {
        let compiled = sbekit_schema::compile_file(&base.join(schema), &Default::default());
        let mut ours = compiled
            .ir
            .unwrap_or_else(|| panic!("{schema}: rejected: {:?}", compiled.diagnostics));
        let theirs_bytes = std::fs::read(reference_ir(i)).unwrap();
        let theirs = sbeir::decode(&theirs_bytes).unwrap();
        std::fs::write(our_ir(i), sbeir::encode(&ours)).unwrap();
        // Allow-list: message order.
        let names =
            |ir: &Ir| -> Vec<String> { ir.messages.iter().map(|m| m[0].name.clone()).collect() };
        if names(&ours) != names(&theirs) {
            *allowed.entry("message-order").or_default() += 1;
            let order = names(&theirs);
            ours.messages.sort_by_key(|m| {
                order
                    .iter()
                    .position(|n| *n == m[0].name)
                    .unwrap_or(usize::MAX)
            });
        }
        if sbeir::encode(&ours) != theirs_bytes {
            let diffs = irdiff::diff(&ours, &theirs);
            failures.push(format!(
                "{schema}: .sbeir differs from the reference's:\n  {}",
                diffs
                    .iter()
                    .take(10)
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n  ")
            ));
        }
        irs.push(ours);
    }

    // 2. Random messages, decoded by sbekit now and by the reference in one JVM.
    let mut samples: Vec<Sample> = Vec::new();
    let mut jobs = Vec::new();
    let mut rng = Rng::new(0x5BE_2026);
    for (i, ir) in irs.iter().enumerate() {
        let decoder = Decoder::new(ir).unwrap_or_else(|e| panic!("{}: {e}", schemas[i]));
        let mut frames = Vec::new();
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
            for opts in &writers {
                for _ in 0..PER_VERSION {
                    let m = random_message(ir, message, &mut rng, opts);
                    let (json, _) =
                        message_to_json(&decoder, &m.bytes, false).unwrap_or_else(|e| {
                            panic!(
                                "{} {}: sbekit cannot decode its random message: {e}",
                                schemas[i], message[0].name
                            )
                        });
                    Framing::U32Le
                        .write_prefix(
                            &mut frames,
                            m.bytes.len(),
                            sbekit_ir::ByteOrder::LittleEndian,
                        )
                        .unwrap();
                    frames.extend_from_slice(&m.bytes);
                    samples.push(Sample {
                        schema: i,
                        message: message[0].name.clone(),
                        version: opts.writer_version.map_or(ir.version, |v| v as i32),
                        ours: json.trim_end().to_string(),
                    });
                }
            }
        }
        let frames_path = work.join(format!("msg-{i}.bin"));
        std::fs::write(&frames_path, frames).unwrap();
        jobs.push((
            reference_ir(i),
            frames_path.clone(),
            work.join(format!("ref-{i}.jsonl")),
        ));
        jobs.push((our_ir(i), frames_path, work.join(format!("kit-{i}.jsonl"))));
    }
    java.decode(work, &jobs);

    // 3. Compare.
    let mut counts: Counts = BTreeMap::new();
    let mut by_schema: Vec<(Vec<String>, Vec<String>)> = (0..schemas.len())
        .map(|i| {
            let read = |p: PathBuf| -> Vec<String> {
                std::fs::read_to_string(p)
                    .unwrap()
                    .lines()
                    .map(str::to_string)
                    .collect()
            };
            (
                read(work.join(format!("ref-{i}.jsonl"))),
                read(work.join(format!("kit-{i}.jsonl"))),
            )
        })
        .collect();
    let mut next = vec![0usize; schemas.len()];
    for s in &samples {
        let k = next[s.schema];
        next[s.schema] += 1;
        let (refs, kits) = &mut by_schema[s.schema];
        let (r, rk) = (&refs[k], &kits[k]);
        let what = format!(
            "{} {} (writer v{}) #{k}",
            schemas[s.schema], s.message, s.version
        );
        if r != rk {
            failures.push(format!("{what}: the reference decodes differently with sbekit's .sbeir:\n  own:    {r}\n  sbekit: {rk}"));
        }
        let ir = &irs[s.schema];
        let message = ir.message_by_name(&s.message).unwrap();
        let fields = Fields {
            absent_required: message
                .iter()
                .filter(|t| {
                    matches!(
                        t.signal,
                        Signal::BeginField
                            | Signal::BeginComposite
                            | Signal::BeginEnum
                            | Signal::BeginSet
                            | Signal::Encoding
                    ) && t.version > s.version
                })
                .map(|t| t.name.clone())
                .collect(),
        };
        let r = match r.strip_prefix("!SLACK ") {
            Some(rest) => {
                *counts.entry("constant-enum-read-past-end").or_default() += 1;
                rest
            }
            None => r.as_str(),
        };
        if let Some(e) = r.strip_prefix("!ERROR ") {
            failures.push(format!(
                "{what}: the reference fails: {e}\n  sbekit: {}",
                s.ours
            ));
            continue;
        }
        if let Err(e) = values::compare(r, &s.ours, &fields, &mut counts) {
            failures.push(format!(
                "{what}: {e}\n  reference: {r}\n  sbekit:    {}",
                s.ours
            ));
        }
    }

    eprintln!(
        "parity: {} schemas, {} messages decoded by both tools (x2 IRs for the reference), {:.1} s",
        schemas.len(),
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("parity: .sbeir allow-list applied: {allowed:?} ({IR_ALLOW_LIST:?})");
    for (name, what) in values::NORMALIZATIONS {
        eprintln!(
            "parity: normalization {name}: {} ({what})",
            counts.get(name).copied().unwrap_or(0)
        );
    }
    eprintln!("parity: {} disagreements", failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreements; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
