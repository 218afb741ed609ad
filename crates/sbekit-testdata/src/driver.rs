//! What the generated-code test harnesses of every language share: the u32le frames their
//! driver programs read and write, JSON compared as values, running a driver, and the reference
//! car vectors with the JSON goldens they decode to.

use crate::output_with_stdin;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `msgs` as one stream of u32le length-prefixed frames (what every driver reads on stdin).
pub fn frames(msgs: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(msgs.iter().map(|m| m.len() + 4).sum());
    for m in msgs {
        let len = u32::try_from(m.len()).expect("a test message under 4 GiB");
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(m);
    }
    out
}

/// Splits a stream of u32le frames (what the drivers write when they re-encode).
///
/// Panics on a frame cut short: a driver that writes one is broken.
pub fn unframe(b: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = b;
    while !rest.is_empty() {
        let (len, body) = rest
            .split_first_chunk::<4>()
            .unwrap_or_else(|| panic!("a frame header cut short: {} bytes left", rest.len()));
        let n = u32::from_le_bytes(*len) as usize;
        assert!(
            n <= body.len(),
            "a frame of {n} bytes with {} left",
            body.len()
        );
        out.push(body[..n].to_vec());
        rest = &body[n..];
    }
    out
}

/// JSON documents compared as values: `sbekit_encode::same_values`, the one equality the
/// conformance command judges by too.
pub use sbekit_encode::same_values as same_json;

/// Runs `cmd`; its stdout. Panics with its stderr when it cannot start or fails.
pub fn run_ok(cmd: &mut Command, what: &str) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs the driver `prog args` with `input` on stdin; its stdout. Panics when it fails or
/// when a sanitizer reported undefined behaviour on stderr (which UBSan does without failing).
pub fn pipe(prog: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    let out = output_with_stdin(Command::new(prog).args(args), input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}):\n{stderr}",
        prog.display(),
        out.status
    );
    assert!(
        !stderr.contains("runtime error"),
        "undefined behaviour reported:\n{stderr}"
    );
    out.stdout
}

/// A path under the workspace root (the project's own schemas and files).
pub fn workspace_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative)
}

/// The reference tool's car schemas, as paths under `reference-sbe`: the baseline, its
/// extension (version 1) and the big-endian one. Harnesses compile them in this order.
pub const CAR_SCHEMAS: [&str; 3] = [
    "sbe-samples/src/main/resources/example-schema.xml",
    "sbe-samples/src/main/resources/example-extension-schema.xml",
    "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
];

/// One reference car vector read with one of [`CAR_SCHEMAS`], and the JSON it decodes to.
#[derive(Debug, Clone, Copy)]
pub struct CarVector {
    /// The vector, under `reference-sbe`.
    pub vector: &'static str,
    /// Its position in [`CAR_SCHEMAS`].
    pub schema: usize,
    /// The reference tool's JSON of it, under `reference-sbe`.
    pub golden: &'static str,
    /// Whether re-encoding what was decoded gives back the same bytes. Not for the version 1
    /// vector read with the version 0 schema: it is re-encoded at its acting version with only
    /// the fields that schema knows.
    pub same_bytes: bool,
}

/// The six (vector, schema) pairs with a golden: the baseline and extension vectors with both
/// car schemas where the reference made one, and the big-endian vector.
pub const CAR_VECTORS: [CarVector; 6] = [
    CarVector {
        vector: "rust/car_example_baseline_data.sbe",
        schema: 0,
        golden: "derived/json/car_example_baseline_data.example-schema.json",
        same_bytes: true,
    },
    CarVector {
        vector: "rust/car_example_baseline_data.sbe",
        schema: 1,
        golden: "derived/json/car_example_baseline_data.example-extension-schema.json",
        same_bytes: true,
    },
    CarVector {
        vector: "rust/car_example_extension_data.sbe",
        schema: 1,
        golden: "derived/json/car_example_extension_data.example-extension-schema.json",
        same_bytes: true,
    },
    CarVector {
        vector: "derived/vectors/car_example_extension_v1_data.sbe",
        schema: 1,
        golden: "derived/json/car_example_extension_v1_data.example-extension-schema.json",
        same_bytes: true,
    },
    CarVector {
        vector: "derived/vectors/car_example_extension_v1_data.sbe",
        schema: 0,
        golden: "derived/json/car_example_extension_v1_data.example-schema.json",
        same_bytes: false,
    },
    CarVector {
        vector: "derived/vectors/car_example_bigendian_data.sbe",
        schema: 2,
        golden: "derived/json/car_example_bigendian_data.example-bigendian-test-schema.json",
        same_bytes: true,
    },
];

impl CarVector {
    /// The vector's bytes and its golden JSON, or `None` (after a loud skip, or a failure under
    /// CI) when `../shared` lacks either.
    pub fn load(&self, test: &str) -> Option<(Vec<u8>, Value)> {
        let v = crate::require_reference(self.vector, test)?;
        let g = crate::require_reference(self.golden, test)?;
        let bytes = std::fs::read(&v).unwrap_or_else(|e| panic!("{}: {e}", v.display()));
        let text = std::fs::read_to_string(&g).unwrap_or_else(|e| panic!("{}: {e}", g.display()));
        let golden = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", g.display()));
        Some((bytes, golden))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_round_trip_and_cut_frames_are_refused() {
        let msgs = vec![vec![], vec![1, 2, 3], vec![0; 300]];
        let s = frames(&msgs);
        assert_eq!(s.len(), 3 * 4 + 303);
        assert_eq!(unframe(&s), msgs);
        for n in [1, 5, s.len() - 1] {
            assert!(
                std::panic::catch_unwind(|| unframe(&s[..n])).is_err(),
                "cut at {n}"
            );
        }
    }

    #[test]
    fn json_values_compare_numbers_by_value() {
        assert!(same_json(
            &json!({"a": 1, "b": [1.5]}),
            &json!({"b": [1.5], "a": 1})
        ));
        assert!(same_json(&json!(0.1f32 as f64), &json!(0.1)));
        assert!(!same_json(&json!(1), &json!(2)));
        assert!(!same_json(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!same_json(&json!([1]), &json!([1, 1])));
        assert!(!same_json(&json!("1"), &json!(1)));
        assert!(same_json(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!same_json(&json!(-1), &json!(u64::MAX)));
    }

    #[test]
    fn car_vectors_name_existing_schemas_and_golden_pairs() {
        for v in CAR_VECTORS {
            let schema = CAR_SCHEMAS[v.schema];
            let stem = Path::new(schema).file_stem().and_then(|s| s.to_str());
            let vector = Path::new(v.vector).file_stem().and_then(|s| s.to_str());
            // The golden is named `<vector>.<schema>.json`, as the reference material names it.
            assert_eq!(
                Some(v.golden),
                vector
                    .zip(stem)
                    .map(|(a, b)| format!("derived/json/{a}.{b}.json"))
                    .as_deref()
            );
        }
    }
}
