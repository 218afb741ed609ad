//! `sbekit decode | sbekit encode` gives back the same bytes at every version, with no flags:
//! decode marks a message that an older writer wrote with `"$version"`, and encode writes it as
//! that version. On the project's own versioned schema (no `../shared`), and on the reference
//! car vectors (one of them written at version 0) when `../shared` is present.

use sbekit_otf::random::{random_message, Options, Rng};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sbekit runs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("sbekit ends");
    writer.join().expect("writer thread");
    out
}

/// `decode | encode` through the binary, both steps asserted successful.
fn decode_then_encode(schema: &Path, bytes: &[u8]) -> (String, Vec<u8>) {
    let s = schema.to_str().expect("utf-8 path");
    let decoded = run(&["decode", "-s", s], bytes);
    assert!(
        decoded.status.success(),
        "decode: {}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    let encoded = run(&["encode", "-s", s], &decoded.stdout);
    assert!(
        encoded.status.success(),
        "encode: {}",
        String::from_utf8_lossy(&encoded.stderr)
    );
    (
        String::from_utf8(decoded.stdout).expect("JSON is UTF-8"),
        encoded.stdout,
    )
}

#[test]
fn a_stream_mixing_versions_round_trips_without_flags() {
    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas/orders-be.xml");
    let ir = sbekit_schema::load_ir(&schema).expect("schema compiles");
    let layout = sbekit_ir::layout::Layout::from_ir(&ir).expect("layout");
    let decoder = sbekit_otf::Decoder::from_layout(&layout).expect("decoder");
    let encoder = sbekit_encode::Encoder::new(&layout);
    assert_eq!(layout.version, 2, "the schema is versioned");
    // Random messages of every template by writers of every version, made canonical (random
    // bytes such as NaN payloads or text after a NUL have no JSON form) by one library round
    // trip at the writer's version, told explicitly.
    let mut rng = Rng::new(7);
    let mut stream = Vec::new();
    let mut versions = [0usize; 3];
    for i in 0..300u32 {
        let writer = i % 3;
        let m = (i as usize / 3) % ir.messages.len();
        if layout.messages[m].since_version > writer {
            continue;
        }
        let opts = Options {
            writer_version: Some(writer),
            ..Options::default()
        };
        let msg = random_message(&ir, &ir.messages[m], &mut rng, &opts);
        let Ok((json, _)) = sbekit_otf::message_to_json(&decoder, &msg.bytes, false) else {
            continue;
        };
        let before = stream.len();
        encoder
            .encode(
                &serde_json::from_str(&json).expect("decode prints JSON"),
                Some(&layout.messages[m].name),
                Some(writer),
                &mut stream,
            )
            .expect("what decodes, encodes");
        assert!(stream.len() > before);
        versions[writer as usize] += 1;
    }
    assert!(versions.iter().all(|&n| n > 20), "{versions:?}");
    let (json, again) = decode_then_encode(&schema, &stream);
    assert_eq!(
        json.matches("\"$version\":0").count(),
        versions[0],
        "every version-0 message says so"
    );
    assert_eq!(json.matches("\"$version\":1").count(), versions[1]);
    assert_eq!(
        json.matches("\"$version\"").count(),
        versions[0] + versions[1],
        "messages of the schema's version print as before"
    );
    assert!(again == stream, "decode | encode changed the bytes");
}

#[test]
fn a_version_member_that_is_not_a_number_is_an_error() {
    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas/orders-be.xml");
    let s = schema.to_str().expect("utf-8 path");
    let out = run(
        &["encode", "-s", s, "--template", "Cancel"],
        b"{\"$version\":\"old\"}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("$version"), "{err}");
    // Newer than the schema is refused, as --version is.
    let out = run(
        &["encode", "-s", s, "--template", "Cancel"],
        b"{\"$version\":9}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("newer than the schema"), "{err}");
}

#[test]
fn reference_car_vectors_round_trip_without_flags() {
    let test = "reference_car_vectors_round_trip_without_flags";
    let base = "sbe-samples/src/main/resources/example-schema.xml";
    let ext = "sbe-samples/src/main/resources/example-extension-schema.xml";
    let big = "sbe-tool/src/test/resources/example-bigendian-test-schema.xml";
    let cases = [
        ("rust/car_example_baseline_data.sbe", base),
        // Version 0, read with the version-1 schema: the case that used to grow by 17 bytes.
        ("rust/car_example_extension_data.sbe", ext),
        ("derived/vectors/car_example_extension_v1_data.sbe", ext),
        ("derived/vectors/car_example_bigendian_data.sbe", big),
    ];
    for (vector, schema) in cases {
        let Some(v) = sbekit_testdata::require_reference(vector, test) else {
            return;
        };
        let bytes = std::fs::read(v).expect("vector");
        let schema: PathBuf = sbekit_testdata::reference_sbe_dir().join(schema);
        let (json, again) = decode_then_encode(&schema, &bytes);
        assert_eq!(again.len(), bytes.len(), "{vector}: {json}");
        assert!(again == bytes, "{vector}: {json}");
    }
    // A newer writer's message read with the older schema prints as the reference prints it
    // (no "$version": this schema cannot write that version), and encodes at the schema's.
    let Some(v1) = sbekit_testdata::require_reference(
        "derived/vectors/car_example_extension_v1_data.sbe",
        test,
    ) else {
        return;
    };
    let bytes = std::fs::read(v1).expect("vector");
    let (json, again) =
        decode_then_encode(&sbekit_testdata::reference_sbe_dir().join(base), &bytes);
    assert!(!json.contains("$version"), "{json}");
    assert!(
        again.len() < bytes.len(),
        "the v1 fields the v0 schema does not know are dropped"
    );
}
