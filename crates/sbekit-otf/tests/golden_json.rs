//! The JSON printer agrees, value for value, with the reference `JsonPrinter` goldens.

use sbekit_ir::sbeir;
use sbekit_otf::{message_to_json, Decoder};
use std::path::PathBuf;

/// (vector, schema IR, golden) relative to the reference directory.
const CASES: [(&str, &str, &str); 5] = [
    (
        "rust/car_example_baseline_data.sbe",
        "example-schema",
        "car_example_baseline_data.example-schema.json",
    ),
    (
        "rust/car_example_baseline_data.sbe",
        "example-extension-schema",
        "car_example_baseline_data.example-extension-schema.json",
    ),
    (
        "rust/car_example_extension_data.sbe",
        "example-extension-schema",
        "car_example_extension_data.example-extension-schema.json",
    ),
    (
        "derived/vectors/car_example_extension_v1_data.sbe",
        "example-extension-schema",
        "car_example_extension_v1_data.example-extension-schema.json",
    ),
    (
        "derived/vectors/car_example_extension_v1_data.sbe",
        "example-schema",
        "car_example_extension_v1_data.example-schema.json",
    ),
];

fn require(rel: &str, test: &str) -> Option<PathBuf> {
    sbekit_testdata::require_reference(rel, test)
}

fn check(vector: &str, schema: &str, golden: &str, test: &str) {
    let (Some(v), Some(s), Some(g)) = (
        require(vector, test),
        require(&format!("derived/sbeir/{schema}.sbeir"), test),
        require(&format!("derived/json/{golden}"), test),
    ) else {
        return;
    };
    let ir = sbeir::decode(&std::fs::read(s).unwrap()).unwrap();
    let decoder = Decoder::new(&ir).unwrap();
    let bytes = std::fs::read(v).unwrap();
    for pretty in [false, true] {
        let (json, len) =
            message_to_json(&decoder, &bytes, pretty).unwrap_or_else(|e| panic!("{golden}: {e}"));
        assert_eq!(len, bytes.len(), "{golden}: whole vector is one message");
        if !pretty {
            assert_eq!(json.matches('\n').count(), 1, "{golden}: one line");
        }
        let ours: serde_json::Value = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{golden}: our output is not JSON ({e}): {json}"));
        let theirs: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&g).unwrap()).unwrap();
        assert_eq!(ours, theirs, "{golden} (pretty={pretty})\nours: {json}");
        // Member order is part of the structure too: compare the key sequences.
        let golden_text = std::fs::read_to_string(&g).unwrap();
        assert_eq!(keys(&json), keys(&golden_text), "{golden}: member order");
        assert!(keys(&json).len() > 40, "{golden}: key extraction works");
    }
}

/// Object keys in document order, read from the text (serde_json's map sorts its keys).
fn keys(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let s = &text[start..i.min(b.len())];
            i += 1;
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b.get(j) == Some(&b':') {
                out.push(s.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn baseline_data_with_baseline_schema() {
    let (v, s, g) = CASES[0];
    check(v, s, g, "baseline_data_with_baseline_schema");
}

#[test]
fn v0_data_with_v1_schema_reads_nulls() {
    let (v, s, g) = CASES[1];
    check(v, s, g, "v0_data_with_v1_schema_reads_nulls");
    let (v, s, g) = CASES[2];
    check(v, s, g, "v0_data_with_v1_schema_reads_nulls");
}

#[test]
fn v1_data_with_v1_schema() {
    let (v, s, g) = CASES[3];
    check(v, s, g, "v1_data_with_v1_schema");
}

#[test]
fn v1_data_with_v0_schema_skips_unknown_block_bytes() {
    let (v, s, g) = CASES[4];
    check(v, s, g, "v1_data_with_v0_schema_skips_unknown_block_bytes");
}

/// The same goldens with IR compiled from the XML schemas by `sbekit-schema`, plus the
/// big-endian golden, whose schema has no reference `.sbeir`.
#[test]
fn goldens_with_ir_compiled_from_xml() {
    let test = "goldens_with_ir_compiled_from_xml";
    let xml = |name: &str| match name {
        "example-schema" | "example-extension-schema" => {
            format!("sbe-samples/src/main/resources/{name}.xml")
        }
        other => format!("sbe-tool/src/test/resources/{other}.xml"),
    };
    let mut cases: Vec<(&str, &str, &str)> = CASES.to_vec();
    cases.push((
        "derived/vectors/car_example_bigendian_data.sbe",
        "example-bigendian-test-schema",
        "car_example_bigendian_data.example-bigendian-test-schema.json",
    ));
    for (vector, schema, golden) in cases {
        let (Some(v), Some(s), Some(g)) = (
            require(vector, test),
            require(&xml(schema), test),
            require(&format!("derived/json/{golden}"), test),
        ) else {
            return;
        };
        let ir = sbekit_schema::load_ir(&s).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let decoder = Decoder::new(&ir).unwrap();
        let bytes = std::fs::read(v).unwrap();
        let (json, len) =
            message_to_json(&decoder, &bytes, false).unwrap_or_else(|e| panic!("{golden}: {e}"));
        assert_eq!(len, bytes.len(), "{golden}");
        let ours: serde_json::Value = serde_json::from_str(&json).unwrap();
        let golden_text = std::fs::read_to_string(&g).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(&golden_text).unwrap();
        assert_eq!(ours, theirs, "{golden} from XML\nours: {json}");
        assert_eq!(keys(&json), keys(&golden_text), "{golden}: member order");
    }
}
