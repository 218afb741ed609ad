//! The CLI policy every subcommand follows (docs/guide/exit-status.md): 0 on success,
//! 1 when the input is invalid or has findings, 2 for usage and I/O errors; fatal errors as
//! one `sbekit: error: ...` line; a closed stdout pipe ends output quietly.

use sbekit_testdata::SchemaXml;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn sbekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(args)
        .output()
        .expect("run sbekit")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A valid schema: `Tick` with an `int64` price and a group of `legs`.
fn good_xml() -> String {
    SchemaXml::new("p", 1, 0)
        .group_size("groupSizeEncoding", r#"primitiveType="uint16""#)
        .message_with(
            r#"name="Tick" id="1""#,
            r#"
    <field name="price" id="1" type="int64"/>
    <group name="legs" id="2" dimensionType="groupSizeEncoding">
      <field name="qty" id="3" type="uint32"/>
    </group>
  "#,
        )
        .build()
}

/// A `Tick` with `legs` entries, each 4 bytes.
fn tick(legs: u16) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [8u16, 1, 1, 0] {
        m.extend_from_slice(&v.to_le_bytes());
    }
    m.extend_from_slice(&42i64.to_le_bytes());
    m.extend_from_slice(&4u16.to_le_bytes());
    m.extend_from_slice(&legs.to_le_bytes());
    for i in 0..u32::from(legs) {
        m.extend_from_slice(&i.to_le_bytes());
    }
    m
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

#[test]
fn exit_status_tells_invalid_input_from_usage_and_io_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.xml", good_xml().as_bytes());
    let bad = write(
        dir.path(),
        "bad.xml",
        good_xml()
            .replace("type=\"int64\"", "type=\"Missing\"")
            .as_bytes(),
    );
    let junk_ir = write(dir.path(), "junk.sbeir", b"\x01\x02\x03");
    let data = write(dir.path(), "ticks.sbe", &[tick(2), tick(0)].concat());
    let truncated = write(dir.path(), "short.sbe", &tick(2)[..20]);
    let missing = dir.path().join("missing.xml").display().to_string();
    let ws = dir.path().join("ws").display().to_string();

    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["check", &good], 0),
        (
            vec![
                "generate",
                "--lang",
                "wireshark",
                "--profile",
                "sofh",
                &good,
                "-o",
                &ws,
            ],
            0,
        ),
        (vec!["inspect", &good], 0),
        (vec!["decode", "-s", &good, &data], 0),
        // Invalid input or findings: 1.
        (vec!["check", &bad], 1),
        (vec!["inspect", &bad], 1),
        (vec!["inspect", &junk_ir], 1),
        (vec!["ir", &bad, "-o", "-"], 1),
        (vec!["generate", "--lang", "rust", &bad, "-o", &missing], 1),
        (
            vec![
                "generate",
                "--lang",
                "wireshark",
                "--profile",
                "sofh",
                &bad,
                "-o",
                &ws,
            ],
            1,
        ),
        (vec!["decode", "-s", &good, &truncated], 1),
        (vec!["decode", "-s", &bad, &data], 1),
        (vec!["compat", &good, &bad], 1),
        (vec!["compat", &bad, &good], 1),
        (vec!["compat", &junk_ir, &good], 1),
        // Usage and I/O errors: 2.
        (vec!["inspect", &missing], 2),
        (vec!["decode", "-s", &missing, &data], 2),
        (vec!["decode", "-s", &good, &missing], 2),
        (vec!["decode", "-s", &good, "--template", "Nope", &data], 2),
        (vec!["ir", &missing, "-o", "-"], 2),
        (
            vec!["generate", "--lang", "cobol", &good, "-o", &missing],
            2,
        ),
        (vec!["generate", "--lang", "wireshark", &good, "-o", &ws], 2),
        (
            vec![
                "generate",
                "--lang",
                "wireshark",
                "--profile",
                "nope",
                &good,
                "-o",
                &ws,
            ],
            2,
        ),
        (vec!["generate", "--profile", "sofh", &good, "-o", &ws], 2),
        (
            vec![
                "generate",
                "--lang",
                "csharp",
                "--namespace",
                "My.System",
                &good,
                "-o",
                &ws,
            ],
            2,
        ),
        (vec!["generate", "--namespace", "My", &good, "-o", &ws], 2),
        (vec!["iex", "stats", &missing], 2),
        (vec!["compat", &good, &missing], 2),
        (vec!["compat", &missing, &good], 2),
        (vec!["compat", "git:no-such-rev:x.xml", &good], 2),
        (vec!["compat", "git:nocolon", &good], 2),
        (vec!["trades", "verify", &missing], 1),
        (vec!["decode", "--no-such-flag"], 2),
        (vec!["no-such-command"], 2),
    ];
    for (args, code) in cases {
        let out = sbekit(&args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if code == 2 && !args.contains(&"--no-such-flag") && args[0] != "no-such-command" {
            assert!(err.starts_with("sbekit: error: "), "{args:?}: {err}");
        }
    }
}

#[test]
fn the_empty_entry_limit_is_a_flag_and_an_error_with_the_message_index() {
    let dir = tempfile::tempdir().unwrap();
    // A group of constants: its entries take no bytes.
    let schema = good_xml()
        .replace(
            "</types>",
            r#"<type name="One" primitiveType="uint8" presence="constant">1</type></types>"#,
        )
        .replace(
            r#"<field name="qty" id="3" type="uint32"/>"#,
            r#"<field name="one" id="3" type="One"/>"#,
        );
    let schema = write(dir.path(), "empty.xml", schema.as_bytes());
    let message = |entries: u16| {
        let mut m = tick(0);
        m.truncate(m.len() - 4);
        m.extend_from_slice(&0u16.to_le_bytes());
        m.extend_from_slice(&entries.to_le_bytes());
        m
    };
    let data = write(dir.path(), "e.sbe", &[message(1), message(5)].concat());
    let ok = sbekit(&["decode", "-s", &schema, "--max-empty-entries", "5", &data]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let json = String::from_utf8_lossy(&ok.stdout).into_owned();
    assert_eq!(json.lines().count(), 2, "{json}");
    assert_eq!(
        json.lines().nth(1).unwrap().matches("\"one\"").count(),
        5,
        "{json}"
    );
    let out = sbekit(&["decode", "-s", &schema, "--max-empty-entries", "4", &data]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("message 1"), "{err}");
    assert!(
        err.contains("more than 4 entries of empty-block groups"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.xml", good_xml().as_bytes());
    // Enough output to overflow the pipe buffer, so the write after the reader leaves fails.
    let many: Vec<u8> = (0..50_000).flat_map(|_| tick(8)).collect();
    let data = write(dir.path(), "many.sbe", &many);
    for args in [
        vec!["decode", "-s", good.as_str(), data.as_str()],
        vec!["iex", "synth", "--messages", "200000", "-o", "-"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sbekit"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 64];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The read end is dropped here: the next write gets EPIPE.
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
    let _ = std::io::stderr().flush();
}

/// Generated Rust needs no rustfmt (prettyplease lays it out); `--rustfmt` asks for the
/// machine's and says when it cannot run; the retired `--no-rustfmt` is accepted with a note.
#[test]
fn generate_needs_no_rustfmt_and_says_when_asked_for_one_that_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.xml", good_xml().as_bytes());
    let out_dir = dir.path().join("out");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sbekit"))
            .args(["generate", "--lang", "rust", &good, "--module"])
            .args(extra)
            .arg("-o")
            .arg(&out_dir)
            .env("RUSTFMT", dir.path().join("no-such-rustfmt"))
            .output()
            .unwrap()
    };
    let plain = run(&[]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert!(!stderr(&plain).contains("rustfmt"), "{}", stderr(&plain));
    let asked = run(&["--rustfmt"]);
    assert_eq!(asked.status.code(), Some(0), "{}", stderr(&asked));
    assert!(
        stderr(&asked).contains("keeps prettyplease's layout"),
        "{}",
        stderr(&asked)
    );
    let retired = run(&["--no-rustfmt"]);
    assert_eq!(retired.status.code(), Some(0), "{}", stderr(&retired));
    assert!(
        stderr(&retired).contains("no longer needed"),
        "{}",
        stderr(&retired)
    );
}
