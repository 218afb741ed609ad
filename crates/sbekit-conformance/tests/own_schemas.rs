//! `sbekit_conformance::run` on our own schemas (no `../shared` needed): the generated C++,
//! TypeScript, Rust and Java agree with `sbekit decode` on random messages at every version, one
//! program per language for all the schemas. Skips loudly without a compiler (or `tsc`,
//! `cargo`, a JDK or Agrona), fails under CI.

mod common;

use common::run_or_skip;
use sbekit_conformance::{run, Lang, Options};
use std::path::{Path, PathBuf};

fn own() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    [
        "schemas/market-data.xml",
        "schemas/shootout-2019.xml",
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
        "crates/sbekit-codegen-tests/schemas/keywords.xml",
        // Messages named `Error`, `DecodeError`, `Message`, ...: runtime identifiers of the
        // generated languages (a message `Error` once broke the Go build).
        "crates/sbekit-codegen-tests/schemas/hostile-names.xml",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect()
}

fn check(lang: Lang, test: &str) {
    let mut opts = Options::new(own(), lang);
    opts.tsc = common::pinned_tsc();
    match run(&opts) {
        Ok(sum) => {
            eprintln!("{test}: {}", sum.line());
            for e in &sum.examples {
                eprintln!("{e}");
            }
            assert_eq!(sum.disagreements, 0, "{}", sum.line());
            assert_eq!(sum.json_equal, sum.messages);
            assert!(
                sum.messages > 100 && sum.reencoded_identical > 50,
                "{}",
                sum.line()
            );
        }
        Err(sbekit_conformance::Error::MissingToolchain(what, how)) => {
            sbekit_testdata::skip(test, format_args!("{what} not found ({how})"));
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

#[test]
fn c_agrees_with_sbekit_decode() {
    check(Lang::C, "c_agrees_with_sbekit_decode");
}

#[test]
fn cpp_agrees_with_sbekit_decode() {
    check(Lang::Cpp, "cpp_agrees_with_sbekit_decode");
}

#[test]
fn typescript_agrees_with_sbekit_decode() {
    check(Lang::TypeScript, "typescript_agrees_with_sbekit_decode");
}

#[test]
fn go_agrees_with_sbekit_decode() {
    check(Lang::Go, "go_agrees_with_sbekit_decode");
}

#[test]
fn rust_agrees_with_sbekit_decode() {
    check(Lang::Rust, "rust_agrees_with_sbekit_decode");
}

#[test]
fn java_agrees_with_sbekit_decode() {
    check(Lang::Java, "java_agrees_with_sbekit_decode");
}

#[test]
fn csharp_agrees_with_sbekit_decode() {
    check(Lang::CSharp, "csharp_agrees_with_sbekit_decode");
}

/// One schema: the generated crate's own `examples/sbe_conformance.rs`, fed messages written at
/// version 0 and 1 of a version-1 schema plus a truncated one. Every message re-encodes at its
/// own version (the header's version and each block's length are the input's), and the
/// truncated one is refused as `sbekit decode` refuses it.
#[test]
fn rust_example_reencodes_older_versions_at_their_version() {
    let schema = own()[3].clone();
    let ir = sbekit_schema::load_ir(&schema).expect("schema");
    assert_eq!(ir.version, 1, "versioned-v1.xml is at version 1");
    let mut rng = sbekit_otf::random::Rng::new(7);
    let mut input = Vec::new();
    let mut cases = Vec::new();
    for msg in &ir.messages {
        for v in [0, 1, 0, 1] {
            let o = sbekit_otf::random::Options {
                writer_version: Some(v),
                ..Default::default()
            };
            cases.push(sbekit_otf::random::random_message(&ir, msg, &mut rng, &o).bytes);
        }
    }
    let mut cut = cases[0].clone();
    cut.truncate(cut.len() - 1);
    cases.push(cut);
    for c in &cases {
        input.extend_from_slice(&(c.len() as u32).to_le_bytes());
        input.extend_from_slice(c);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("in.u32");
    std::fs::write(&file, &input).expect("write");
    let mut opts = Options::new(vec![schema], Lang::Rust);
    opts.messages = vec![file];
    opts.keep = Some(dir.path().join("keep"));
    let sum = match run(&opts) {
        Ok(sum) => sum,
        Err(sbekit_conformance::Error::MissingToolchain(what, how)) => {
            sbekit_testdata::skip(
                "rust_example_reencodes_older_versions_at_their_version",
                format_args!("{what} not found ({how})"),
            );
            return;
        }
        Err(e) => panic!("{e}"),
    };
    for e in &sum.examples {
        eprintln!("{e}");
    }
    assert_eq!(sum.messages, cases.len());
    assert_eq!(sum.disagreements, 0, "{}", sum.line());
    assert_eq!(sum.json_equal, cases.len(), "{}", sum.line());
    let out = std::fs::read(dir.path().join("keep/rust.reencoded.u32")).expect("kept");
    let frames = sbekit_conformance::read_frames(&out).expect("frames");
    assert_eq!(frames.len(), cases.len());
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    for (i, (c, f)) in cases.iter().zip(&frames).enumerate().take(cases.len() - 1) {
        // Header: blockLength at 0, version at 6; the random writer writes each version's
        // own block lengths, so the re-encoding has the input's length too.
        assert_eq!(u16_at(f, 6), u16_at(c, 6), "message {i}: version");
        assert_eq!(u16_at(f, 0), u16_at(c, 0), "message {i}: block length");
        assert_eq!(f.len(), c.len(), "message {i}: length");
    }
    assert!(frames[cases.len() - 1].is_empty(), "the truncated message");
    let jsonl = std::fs::read_to_string(dir.path().join("keep/rust.jsonl")).expect("kept");
    assert!(jsonl
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("{\"error\":")));
}

#[test]
fn frames_round_trip_and_bad_frames_are_errors() {
    let f = sbekit_conformance::read_frames(&[2, 0, 0, 0, 7, 8, 0, 0, 0, 0]).expect("frames");
    assert_eq!(f, vec![vec![7, 8], vec![]]);
    assert!(sbekit_conformance::read_frames(&[5, 0, 0, 0, 1]).is_err());
    assert!(sbekit_conformance::read_frames(&[1, 0]).is_err());
}

#[test]
fn json_is_compared_as_values_and_version_counts() {
    let a: serde_json::Value =
        serde_json::from_str(r#"{"$version":1,"x":1.0,"y":[35.9]}"#).unwrap();
    let b: serde_json::Value =
        serde_json::from_str(r#"{"$version":1,"x":1,"y":[35.900001525878906]}"#).unwrap();
    assert!(sbekit_encode::same_values(&a, &b));
    // A printer that leaves out an older writer's version disagrees (issue 35).
    let no_version: serde_json::Value = serde_json::from_str(r#"{"x":1,"y":[35.9]}"#).unwrap();
    assert!(!sbekit_encode::same_values(&a, &no_version));
    let c: serde_json::Value = serde_json::from_str(r#"{"$version":1,"x":2,"y":[35.9]}"#).unwrap();
    assert!(!sbekit_encode::same_values(&a, &c));
}

/// A schema with what real traffic carries that values cannot: a set with unnamed bits, a
/// char array (bytes after its NUL) and UTF-8 var-data (bytes that are not UTF-8).
const REAL_TRAFFIC_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="real" id="7" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <set name="Flags" encodingType="uint8">
      <choice name="A">0</choice>
      <choice name="B">1</choice>
    </set>
    <type name="Sym" primitiveType="char" length="6"/>
    <composite name="Utf8Text">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
  </types>
  <sbe:message name="Tick" id="1">
    <field name="px" id="1" type="int64"/>
    <field name="flags" id="2" type="Flags"/>
    <field name="sym" id="3" type="Sym"/>
  </sbe:message>
  <sbe:message name="Note" id="2">
    <field name="seq" id="1" type="uint32"/>
    <data name="text" id="2" type="Utf8Text"/>
  </sbe:message>
</sbe:messageSchema>
"#;

/// A `Tick` (block 15 bytes: px, flags, sym) with `pad` extra block bytes.
fn tick(px: i64, flags: u8, sym: [u8; 6], pad: usize) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [15 + pad as u16, 1, 7, 0] {
        m.extend_from_slice(&v.to_le_bytes());
    }
    m.extend_from_slice(&px.to_le_bytes());
    m.push(flags);
    m.extend_from_slice(&sym);
    m.extend(std::iter::repeat_n(0xA5, pad));
    m
}

/// A `Note` (block 4 bytes: seq) with `pad` extra block bytes and `text` as its var-data.
fn note(seq: u32, text: &[u8], pad: usize) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [4 + pad as u16, 2, 7, 0] {
        m.extend_from_slice(&v.to_le_bytes());
    }
    m.extend_from_slice(&seq.to_le_bytes());
    m.extend(std::iter::repeat_n(0x5A, pad));
    m.extend_from_slice(&(text.len() as u16).to_le_bytes());
    m.extend_from_slice(text);
    m
}

/// The messages of the real-traffic test: canonical, padded, unknown set bits, bytes past a
/// NUL, and all three at once; then text that is not UTF-8, plain and padded.
fn real_traffic(dir: &Path) -> (PathBuf, PathBuf) {
    let schema = dir.join("real.xml");
    std::fs::write(&schema, REAL_TRAFFIC_XML).expect("schema");
    let messages = [
        tick(12345, 0b01, *b"AB\0\0\0\0", 0),
        tick(-7, 0b10, *b"XYZ\0\0\0", 4),
        tick(1, 0b1000_0101, *b"Q\0\0\0\0\0", 0),
        tick(2, 0b11, *b"AB\0XY\0", 0),
        tick(3, 0b1111_1111, *b"C\0junk", 9),
        note(4, b"caf\xe9 \xd3", 0),
        note(5, b"\xff\xfe ok", 3),
    ];
    let mut input = Vec::new();
    for m in &messages {
        input.extend_from_slice(&(m.len() as u32).to_le_bytes());
        input.extend_from_slice(m);
    }
    let file = dir.join("real.u32");
    std::fs::write(&file, &input).expect("messages");
    (schema, file)
}

/// Issue 35: padded blocks, unknown set bits and bytes past a NUL are no disagreement; the kept
/// rules file says which rule each message passed by.
#[test]
fn real_traffic_bytes_values_cannot_carry_are_no_false_alarm() {
    let test = "real_traffic_bytes_values_cannot_carry_are_no_false_alarm";
    let dir = tempfile::tempdir().expect("tempdir");
    let (schema, file) = real_traffic(dir.path());
    let mut opts = Options::new(vec![schema], Lang::C);
    opts.messages = vec![file];
    opts.keep = Some(dir.path().join("keep"));
    let Some(sum) = run_or_skip(&opts, test) else {
        return;
    };
    for e in &sum.examples {
        eprintln!("{e}");
    }
    assert_eq!(sum.disagreements, 0, "{}", sum.line());
    assert_eq!(sum.messages, 7);
    let rules = std::fs::read_to_string(dir.path().join("keep/c.rules.tsv")).expect("rules");
    let rule = |i: usize| {
        let line = rules
            .lines()
            .find(|l| l.split('\t').nth(1) == Some(&i.to_string()))
            .unwrap_or_else(|| panic!("no rule for message {i} in\n{rules}"));
        let cols: Vec<&str> = line.split('\t').collect();
        (cols[2].to_string(), cols[3].to_string())
    };
    assert_eq!(rule(0).0, "identical", "{rules}");
    let (padded, why) = rule(1);
    assert_eq!(padded, "canonical", "{rules}");
    assert!(why.contains("4 bytes longer"), "{why}");
    // Unknown set bits and bytes past a NUL: the generated C keeps them (identical), or writes
    // what `sbekit encode` writes; never a disagreement.
    for i in [2, 3] {
        let (r, _) = rule(i);
        assert!(
            ["identical", "canonical", "canonical-keeping"].contains(&r.as_str()),
            "message {i}: {r}\n{rules}"
        );
    }
    let (all, _) = rule(4);
    assert!(all.starts_with("canonical"), "{rules}");
    // Not UTF-8: `sbekit decode` reads it as Latin-1, so `sbekit encode` would write other
    // bytes; the codec keeps the text's bytes (byte for byte when nothing else differs; padded,
    // with the schema's block length).
    assert_eq!(rule(5).0, "identical", "{rules}");
    let (r, why) = rule(6);
    assert_eq!(r, "raw-text", "{rules}");
    assert_eq!(why, "1 text value not valid in its encoding, kept as bytes");
    assert!(sum.reencoded_canonical >= 3, "{}", sum.line());
}

/// Breaks the generated C getter of `px` (it adds one): the run must report disagreements.
fn break_px_getter(dir: &Path) {
    let mut stack = vec![dir.to_path_buf()];
    let mut broken = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "h") {
                let text = std::fs::read_to_string(&p).expect("header");
                let Some(at) = text.find("_tick_dec_px(const") else {
                    continue;
                };
                let (head, tail) = text.split_at(at);
                let tail = tail.replacen("return sbekit_get_", "return 1 + sbekit_get_", 1);
                std::fs::write(&p, format!("{head}{tail}")).expect("write");
                broken += 1;
            }
        }
    }
    assert_eq!(broken, 1, "the px getter was not found to break");
}

/// A deliberately wrong codec still fails (issue 35): the rules do not excuse a wrong value.
#[test]
fn a_wrong_getter_is_still_a_disagreement() {
    let test = "a_wrong_getter_is_still_a_disagreement";
    let dir = tempfile::tempdir().expect("tempdir");
    let (schema, file) = real_traffic(dir.path());
    let mut opts = Options::new(vec![schema], Lang::C);
    opts.messages = vec![file];
    opts.tamper = Some(break_px_getter);
    let Some(sum) = run_or_skip(&opts, test) else {
        return;
    };
    assert_eq!(sum.disagreements, 5, "{}", sum.line());
    assert!(
        sum.examples[0].contains("JSON differs"),
        "{}",
        sum.examples[0]
    );
}

/// Issue 35: the files `write_messages` writes (what `sbekit conformance --write-messages`
/// writes, and CI feeds every language with `--messages`) mix padded messages, messages from a
/// newer writer and unknown set bits (and damaged copies), and a run on them agrees.
#[test]
fn written_messages_mix_what_real_traffic_carries_and_agree() {
    let test = "written_messages_mix_what_real_traffic_carries_and_agree";
    let dir = tempfile::tempdir().expect("tempdir");
    let (schema, _) = real_traffic(dir.path());
    let mut opts = Options::new(vec![schema], Lang::C);
    let files = sbekit_conformance::write_messages(&opts, &dir.path().join("msgs")).expect("write");
    assert_eq!(files.len(), 1);
    assert!(
        files[0].ends_with("msgs/00-real.u32"),
        "{}",
        files[0].display()
    );
    let frames =
        sbekit_conformance::read_frames(&std::fs::read(&files[0]).expect("read")).expect("frames");
    let u16_at = |b: &[u8], at: usize| b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]));
    let (mut padded, mut newer, mut unknown_bits) = (0, 0, 0);
    for f in &frames {
        let (Some(block), Some(template), Some(version)) =
            (u16_at(f, 0), u16_at(f, 2), u16_at(f, 6))
        else {
            continue;
        };
        let schema_block = if template == 1 { 15 } else { 4 };
        match version {
            0 if block > schema_block => padded += 1,
            1.. => newer += 1,
            _ => {}
        }
        // Tick's flags (offset 8 of the block): bits 0 and 1 are named.
        if template == 1 && version == 0 && f.get(16).is_some_and(|b| b & !0b11 != 0) {
            unknown_bits += 1;
        }
    }
    assert!(
        padded > 0 && newer > 0 && unknown_bits > 0,
        "padded {padded}, newer {newer}, unknown bits {unknown_bits}"
    );
    opts.messages = files;
    let Some(sum) = run_or_skip(&opts, test) else {
        return;
    };
    for e in &sum.examples {
        eprintln!("{e}");
    }
    assert_eq!(sum.messages, frames.len());
    assert_eq!(sum.disagreements, 0, "{}", sum.line());
    assert!(sum.reencoded_canonical > 0, "{}", sum.line());
}
