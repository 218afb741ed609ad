//! End-to-end tests of `sbekit encode` through the built binary, on the project's own schema
//! (no `../shared`): decode → encode gives the library's bytes in every framing, stdin/stdout,
//! `--version`, and `--keep-going` naming bad lines.

use sbekit_otf::framing::Framing;
use sbekit_otf::random::{random_message, Options, Rng};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/shootout-2019.xml")
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    sbekit_testdata::output_with_stdin(Command::new(BIN).args(args), stdin)
}

/// Random messages, their JSON lines (via `sbekit decode`) and the library's encoding of them.
fn sample() -> (String, Vec<Vec<u8>>) {
    let ir = sbekit_schema::load_ir(&schema()).unwrap();
    let layout = sbekit_ir::layout::Layout::from_ir(&ir).unwrap();
    let encoder = sbekit_encode::Encoder::new(&layout);
    let mut rng = Rng::new(12);
    let opts = Options {
        max_group: 5,
        ..Options::default()
    };
    let mut stream = Vec::new();
    for _ in 0..2000 {
        stream.extend(random_message(&ir, &ir.messages[0], &mut rng, &opts).bytes);
    }
    let s = schema();
    let out = run(&["decode", "-s", s.to_str().unwrap()], &stream);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jsonl = String::from_utf8(out.stdout).unwrap();
    let mut doc = sbekit_encode::Doc::new();
    let expected = jsonl
        .lines()
        .map(|l| {
            let mut b = Vec::new();
            encoder
                .encode_json(l.as_bytes(), None, None, &mut doc, &mut b)
                .unwrap();
            b
        })
        .collect();
    (jsonl, expected)
}

#[test]
fn encodes_in_every_framing_from_a_file_and_stdin() {
    let (jsonl, expected) = sample();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, &jsonl).unwrap();
    let s = schema();
    for (name, framing) in [
        ("sbe", Framing::Sbe),
        ("u16le", Framing::U16Le),
        ("u32le", Framing::U32Le),
        ("sofh", Framing::Sofh),
    ] {
        let mut want = Vec::new();
        for m in &expected {
            framing
                .write_prefix(&mut want, m.len(), sbekit_ir::ByteOrder::LittleEndian)
                .unwrap();
            want.extend_from_slice(m);
        }
        let output = dir.path().join(format!("out.{name}"));
        let out = run(
            &[
                "encode",
                "-s",
                s.to_str().unwrap(),
                "--framing",
                name,
                input.to_str().unwrap(),
                "-o",
                output.to_str().unwrap(),
            ],
            b"",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&output).unwrap(), want, "{name}");
        // stdin to stdout, and the decoder reads it back to the same lines.
        let piped = run(
            &[
                "encode",
                "-s",
                s.to_str().unwrap(),
                "--framing",
                name,
                "--template",
                "MultiMessage",
            ],
            jsonl.as_bytes(),
        );
        assert!(piped.status.success());
        assert_eq!(piped.stdout, want, "{name} via stdin");
        let back = run(
            &["decode", "-s", s.to_str().unwrap(), "--framing", name],
            &piped.stdout,
        );
        assert_eq!(String::from_utf8(back.stdout).unwrap(), jsonl, "{name}");
    }
}

#[test]
fn keep_going_names_bad_lines_and_fails_at_the_end() {
    let (jsonl, expected) = sample();
    let lines: Vec<&str> = jsonl.lines().take(4).collect();
    let mut bad: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    bad["messages"][0] = serde_json::json!(7);
    let bad_count = bad.to_string();
    let input = format!(
        "{}\n{}\n\n{}\nnot json\n{}\n",
        lines[0], bad_count, lines[2], lines[3]
    );
    let s = schema();
    let s = s.to_str().unwrap();
    let out = run(&["encode", "-s", s, "-k"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let want: Vec<u8> = [&expected[0][..], &expected[2], &expected[3]].concat();
    assert_eq!(out.stdout, want);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("line 2: MultiMessage.messages[0]: expected an object, got 7"),
        "{err}"
    );
    assert!(err.contains("line 5: invalid JSON at byte 0"), "{err}");
    assert!(err.contains("3 messages encoded, 2 lines failed"), "{err}");
    // Without --keep-going it stops at the first bad line, after writing the good ones.
    let out = run(&["encode", "-s", s], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, expected[0]);
    // Usage errors are status 2.
    let out = run(&["encode", "-s", s, "--template", "Nope"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["encode", "-s", s, "--version", "3"], lines[0].as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("version 3 is newer than the schema's 0"));
}

#[test]
fn validate_refuses_lines_outside_the_schemas_rules() {
    let s = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-tests/schemas/orders-be.xml")
        .display()
        .to_string();
    let good = r#"{"orderId":1,"symbol":"IBM","side":"Buy","price":{"mantissa":5},"weights":[1,2,3],"flags":[],"venue":"Lit","fills":[{"fillQty":3,"fillPrice":{"mantissa":1}}],"marks":[]}"#;
    let plain = run(&["encode", "-s", &s], good.as_bytes());
    assert!(
        plain.status.success(),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
    let checked = run(&["encode", "-s", &s, "--validate"], good.as_bytes());
    assert!(checked.status.success());
    assert_eq!(checked.stdout, plain.stdout, "validation changes no bytes");
    // An enum value the schema does not list, and a required field's null value: written
    // without --validate (and decoded back as they were), refused with it.
    for (bad, why) in [
        (
            good.replace(r#""venue":"Lit""#, r#""venue":7"#),
            "line 1: Order.venue: 7 is not a value of enum Venue (one of Lit, Dark, Auction)",
        ),
        (
            good.replace(r#""fillQty":3"#, r#""fillQty":4294967295"#),
            "line 1: Order.fills[0].fillQty: 4294967295 is the null value of uint32, but the field is required",
        ),
    ] {
        let out = run(&["encode", "-s", &s], bad.as_bytes());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let back = run(&["decode", "-s", &s], &out.stdout);
        let back: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
        let bad_value: serde_json::Value = serde_json::from_str(&bad).unwrap();
        assert_eq!(back["venue"], bad_value["venue"]);
        assert_eq!(back["fills"][0]["fillQty"], bad_value["fills"][0]["fillQty"]);
        let out = run(&["encode", "-s", &s, "--validate"], bad.as_bytes());
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(why), "{err}");
    }
    // The help says what it checks.
    let help = run(&["encode", "--help"], b"");
    let help = String::from_utf8(help.stdout).unwrap();
    for rule in [
        "--validate",
        "minValue..maxValue",
        "a required integer or enum field given its null value",
        "an enum raw value the schema does not list",
        "char data, sets, constants",
    ] {
        assert!(help.contains(rule), "{rule}: {help}");
    }
}
