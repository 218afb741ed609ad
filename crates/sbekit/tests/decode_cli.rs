//! End-to-end tests of `sbekit decode` and `sbekit ir` through the built binary: a generated
//! multi-megabyte stream of mixed messages in every framing, filters, counts, stdin, error
//! reporting and resynchronisation.

use sbekit_ir::{sbeir, Ir};
use sbekit_otf::framing::Framing;
use sbekit_otf::random::{random_message, Expected, Options, Rng};
use sbekit_otf::{message_to_json, Decoder};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");
const MESSAGES: usize = 24_000;

/// A message's bytes and what decoding it must report.
type Sample = (Vec<u8>, Vec<(String, Expected)>);

struct Stream {
    ir: Ir,
    schema: PathBuf,
    /// Each message's bytes and expected values.
    messages: Vec<Sample>,
}

fn stream(test: &str) -> Option<Stream> {
    let schema =
        sbekit_testdata::require_reference("derived/sbeir/fix-message-samples.sbeir", test)?;
    let ir = sbeir::decode(&std::fs::read(&schema).unwrap()).unwrap();
    let mut rng = Rng::new(0x5BE0_EB50);
    let opts = Options {
        max_group: 4,
        max_data: 24,
        ..Options::default()
    };
    let messages = (0..MESSAGES)
        .map(|_| {
            let m = (rng.next_u64() % ir.messages.len() as u64) as usize;
            let msg = random_message(&ir, &ir.messages[m], &mut rng, &opts);
            (msg.bytes, msg.expected)
        })
        .collect();
    Some(Stream {
        ir,
        schema,
        messages,
    })
}

fn framed(s: &Stream, framing: Framing) -> Vec<u8> {
    let mut out = Vec::new();
    for (bytes, _) in &s.messages {
        framing
            .write_prefix(&mut out, bytes.len(), s.ir.byte_order())
            .unwrap();
        out.extend_from_slice(bytes);
    }
    out
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        if let Some(d) = data {
            input.write_all(&d).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

fn lines(out: &Output) -> Vec<&str> {
    std::str::from_utf8(&out.stdout).unwrap().lines().collect()
}

/// Checks a decoded line against the library's JSON and the generator's top-level values.
fn check_sample(s: &Stream, decoder: &Decoder, i: usize, line: &str) {
    let (bytes, expected) = &s.messages[i];
    let got: Value = serde_json::from_str(line).unwrap();
    let (lib, _) = message_to_json(decoder, bytes, false).unwrap();
    assert_eq!(
        got,
        serde_json::from_str::<Value>(&lib).unwrap(),
        "message {i}"
    );
    let mut checked = 0;
    for (path, want) in expected {
        let mut parts = path.split('.');
        let (Some(_msg), Some(field), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if field.contains('[') {
            continue;
        }
        let v = &got[field];
        match want {
            Expected::Int(n) => {
                let as_int = v.as_i64().map(i128::from).or(v.as_u64().map(i128::from));
                assert_eq!(as_int, Some(*n), "message {i} {path}: {v}");
                checked += 1;
            }
            Expected::Enum(_, Some(name)) => {
                assert_eq!(v.as_str(), Some(name.as_str()), "message {i} {path}");
                checked += 1;
            }
            Expected::Count(n) => {
                assert_eq!(
                    v.as_array().map(Vec::len),
                    Some(*n as usize),
                    "message {i} {path}"
                );
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(checked > 0, "message {i}: nothing checked");
}

#[test]
fn decodes_a_multi_megabyte_mixed_stream_in_every_framing() {
    let Some(s) = stream("decodes_a_multi_megabyte_mixed_stream_in_every_framing") else {
        return;
    };
    let decoder = Decoder::new(&s.ir).unwrap();
    let templates: std::collections::BTreeSet<u16> = s
        .messages
        .iter()
        .map(|(b, _)| u16::from_le_bytes([b[2], b[3]]))
        .collect();
    assert_eq!(
        templates.len(),
        s.ir.messages.len(),
        "every template is in the mix"
    );
    let dir = tempfile::tempdir().unwrap();
    let schema = s.schema.to_str().unwrap();
    for (framing, name) in [
        (Framing::Sbe, "sbe"),
        (Framing::U16Le, "u16le"),
        (Framing::U32Le, "u32le"),
        (Framing::Sofh, "sofh"),
    ] {
        let bytes = framed(&s, framing);
        assert!(bytes.len() > 3 << 20, "{name}: only {} bytes", bytes.len());
        let file = write_file(dir.path(), &format!("{name}.bin"), &bytes);
        let out = run(&["decode", "-s", schema, "--framing", name, &file], None);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = lines(&out);
        assert_eq!(lines.len(), MESSAGES, "{name}: one line per message");
        for (i, line) in lines.iter().enumerate() {
            if i % 997 == 0 || i == MESSAGES - 1 {
                check_sample(&s, &decoder, i, line);
            } else {
                assert!(
                    line.starts_with('{') && line.ends_with('}'),
                    "{name} line {i}"
                );
            }
        }
    }
}

#[test]
fn count_template_filter_pretty_and_stdin() {
    let Some(s) = stream("count_template_filter_pretty_and_stdin") else {
        return;
    };
    let schema = s.schema.to_str().unwrap();
    let bytes = framed(&s, Framing::Sofh);
    let new_orders = s
        .messages
        .iter()
        .filter(|(b, _)| u16::from_le_bytes([b[2], b[3]]) == 68)
        .count();
    assert!(new_orders > 0);

    let out = run(
        &["decode", "-s", schema, "--framing", "sofh", "--count", "-"],
        Some(&bytes),
    );
    assert!(out.status.success());
    assert_eq!(lines(&out), [MESSAGES.to_string()]);

    for t in ["NewOrder", "68"] {
        let args = [
            "decode",
            "-s",
            schema,
            "--framing",
            "sofh",
            "--template",
            t,
            "--count",
        ];
        let out = run(&args, Some(&bytes));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(lines(&out), [new_orders.to_string()], "--template {t}");
    }
    let args = [
        "decode",
        "-s",
        schema,
        "--framing",
        "sofh",
        "--template",
        "NewOrder",
    ];
    let out = run(&args, Some(&bytes));
    let lines = lines(&out);
    assert_eq!(lines.len(), new_orders);
    assert!(lines.iter().all(|l| l.contains("\"ClOrdID\"")));

    let out = run(
        &["decode", "-s", schema, "--framing", "sofh", "--pretty"],
        Some(&bytes[..200_000]),
    );
    // The slice cuts the last frame: an error, but every whole message before it is printed.
    assert_eq!(out.status.code(), Some(1));
    let values: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(values.len() > 100);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\n  \""),
        "indented"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("message {}", values.len())),
        "{stderr}"
    );

    let out = run(
        &["decode", "-s", schema, "--template", "NoSuchMessage", "-"],
        Some(b""),
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_messages_are_reported_and_skipped_with_keep_going() {
    let Some(mut s) = stream("bad_messages_are_reported_and_skipped_with_keep_going") else {
        return;
    };
    s.messages.truncate(2_000);
    let n = s.messages.len();
    let bad = 1_234;
    // An unknown template id in message `bad`.
    s.messages[bad].0[2..4].copy_from_slice(&999u16.to_le_bytes());
    let schema = s.schema.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (framing, name) in [
        (Framing::U32Le, "u32le"),
        (Framing::U16Le, "u16le"),
        (Framing::Sofh, "sofh"),
    ] {
        let bytes = framed(&s, framing);
        let offset: usize = s.messages[..bad]
            .iter()
            .map(|(b, _)| b.len() + framing.prefix_length())
            .sum();
        let file = write_file(dir.path(), &format!("bad.{name}"), &bytes);
        let out = run(&["decode", "-s", schema, "--framing", name, &file], None);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(lines(&out).len(), bad, "{name}: stops at the bad message");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("message {bad} (frame at byte {offset})")),
            "{name}: {stderr}"
        );
        assert!(stderr.contains("unknown template id 999"), "{stderr}");

        let out = run(
            &[
                "decode",
                "-s",
                schema,
                "--framing",
                name,
                "--keep-going",
                &file,
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(1), "{name}: non-zero after errors");
        assert_eq!(
            lines(&out).len(),
            n - 1,
            "{name}: resynchronised after the bad frame"
        );
    }
    // Back-to-back messages cannot be resynchronised: decoding stops at the bad one.
    let bytes = framed(&s, Framing::Sbe);
    let file = write_file(dir.path(), "bad.sbe", &bytes);
    let out = run(&["decode", "-s", schema, "--keep-going", &file], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines(&out).len(), bad);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be resynchronised"));

    // A SOFH frame of the wrong encoding type is skipped by its length.
    let mut sofh = framed(&s, Framing::Sofh);
    sofh[4..6].copy_from_slice(&0x5BE0u16.to_be_bytes());
    let file = write_file(dir.path(), "badtype.sofh", &sofh);
    let out = run(
        &["decode", "-s", schema, "--framing", "sofh", "-k", &file],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out).len(),
        n - 2,
        "frame 0 skipped, message {bad} bad"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("encoding type 0x5be0"));
}

#[test]
fn ir_command_writes_reference_compatible_sbeir() {
    let test = "ir_command_writes_reference_compatible_sbeir";
    let dir = tempfile::tempdir().unwrap();
    for (xml, name) in [
        (
            "sbe-samples/src/main/resources/example-schema.xml",
            "example-schema",
        ),
        (
            "sbe-samples/src/main/resources/example-extension-schema.xml",
            "example-extension-schema",
        ),
        ("sbe-benchmarks/src/main/resources/car.xml", "car"),
        (
            "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
            "fix-message-samples",
        ),
    ] {
        let (Some(xml), Some(reference)) = (
            sbekit_testdata::require_reference(xml, test),
            sbekit_testdata::require_reference(&format!("derived/sbeir/{name}.sbeir"), test),
        ) else {
            return;
        };
        let out_path = dir.path().join(format!("{name}.sbeir"));
        let out = run(
            &[
                "ir",
                xml.to_str().unwrap(),
                "-o",
                out_path.to_str().unwrap(),
            ],
            None,
        );
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = sbeir::decode(&std::fs::read(&out_path).unwrap()).unwrap();
        let theirs = sbeir::decode(&std::fs::read(&reference).unwrap()).unwrap();
        assert_eq!(
            ours, theirs,
            "{name}: IR written from the XML differs from the reference"
        );
    }
    // The written IR drives the decoder like the XML does.
    let (Some(xml), Some(vector)) = (
        sbekit_testdata::require_reference(
            "sbe-samples/src/main/resources/example-schema.xml",
            test,
        ),
        sbekit_testdata::require_reference("rust/car_example_baseline_data.sbe", test),
    ) else {
        return;
    };
    let ir_path = dir.path().join("example-schema.sbeir");
    let via_ir = run(
        &[
            "decode",
            "-s",
            ir_path.to_str().unwrap(),
            vector.to_str().unwrap(),
        ],
        None,
    );
    let via_xml = run(
        &[
            "decode",
            "-s",
            xml.to_str().unwrap(),
            vector.to_str().unwrap(),
        ],
        None,
    );
    assert!(via_ir.status.success() && via_xml.status.success());
    assert_eq!(via_ir.stdout, via_xml.stdout);
    assert!(String::from_utf8_lossy(&via_ir.stdout).contains("\"model\":\"Civic VTi\""));
    // `-o -` writes to stdout.
    let out = run(&["ir", xml.to_str().unwrap(), "-o", "-"], None);
    assert_eq!(out.stdout, std::fs::read(&ir_path).unwrap());
}

/// Issue 10: a venue pads each message to 8 bytes inside its length-prefixed frame. The padding
/// is accepted and counted by default, and an error with `--strict-frames`.
#[test]
fn padding_inside_a_frame_is_accepted_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let schema = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="0">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <sbe:message name="M" id="1"><field name="a" id="1" type="uint32"/></sbe:message>
</sbe:messageSchema>"#;
    let schema = write_file(dir.path(), "s.xml", schema.as_bytes());
    // 8-byte header + 4-byte block = 12 bytes, padded to 16.
    let mut message = vec![4, 0, 1, 0, 1, 0, 0, 0, 42, 0, 0, 0];
    message.resize(16, 0);
    let mut stream = Vec::new();
    for _ in 0..2 {
        stream.extend_from_slice(&(message.len() as u32).to_le_bytes());
        stream.extend_from_slice(&message);
    }
    let input = write_file(dir.path(), "in.bin", &stream);
    let out = run(
        &["decode", "-s", &schema, "--framing", "u32le", &input],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(lines(&out), vec![r#"{"a":42}"#; 2]);
    assert!(
        stderr.contains("2 frames held trailing padding (8 bytes in all)"),
        "{stderr}"
    );
    let out = run(
        &[
            "decode",
            "-s",
            &schema,
            "--framing",
            "u32le",
            "--strict-frames",
            &input,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("frame holds 16 bytes but its message has 12"));
}
