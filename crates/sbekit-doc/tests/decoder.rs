//! The in-page decoder (`assets/decoder.js`, run in Node) prints exactly what `sbekit decode`
//! prints (`sbekit_otf::message_to_decode_json`) for random messages of every type, at every
//! version, padded, from a newer writer, and damaged, and refuses exactly what it refuses: the
//! repository's schemas always, the 80 reference schemas and the venue schemas with
//! `../shared`. Skips loudly without `node`; a failure under CI.

use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{message_to_decode_json, Decoder};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const TEST: &str = "in_page_decoder_prints_what_sbekit_decode_prints";

/// Reads the model and a u32le-framed messages file; prints `ok <json>` or `err` per message.
const HARNESS: &str = r#"
const fs = require("fs");
const vm = require("vm");
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
const model = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const all = fs.readFileSync(process.argv[4]);
const out = [];
for (let at = 0; at + 4 <= all.length; ) {
  const n = all.readUInt32LE(at);
  const msg = new Uint8Array(all.buffer, all.byteOffset + at + 4, n);
  at += 4 + n;
  try {
    out.push("ok " + globalThis.SbekitDecode.decode(model, msg).json);
  } catch (e) {
    if (!(e instanceof globalThis.SbekitDecode.DecodeError)) throw e;
    out.push("err");
  }
}
process.stdout.write(out.join("\n") + "\n");
"#;

fn schemas() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let own = root.join("crates/sbekit-codegen-tests/schemas");
    let mut out: Vec<PathBuf> = [
        "schemas/market-data.xml",
        "schemas/trades.xml",
        "schemas/shootout-2019.xml",
    ]
    .iter()
    .map(|s| root.join(s))
    .collect();
    for s in [
        "orders-be.xml",
        "keywords.xml",
        "hostile-names.xml",
        "versioned-v1.xml",
    ] {
        out.push(own.join(s));
    }
    out.extend(sbekit_testdata::reference_accepted_schemas(TEST).unwrap_or_default());
    if let Some(venue) = sbekit_testdata::venue_schemas(TEST) {
        out.extend(venue);
    }
    out
}

/// Messages of every type: at the schema's version, padded, at each older version, from a
/// newer writer, and damaged copies (bytes set at random, or cut short).
fn messages(ir: &sbekit_ir::Ir, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let version = u32::try_from(ir.version).unwrap_or(0);
    let mut out = Vec::new();
    for msg in &ir.messages {
        let mut opts = vec![Options::default(); 6];
        opts.push(Options {
            writer_version: Some(version),
            extra_block: 3,
            ..Options::default()
        });
        opts.extend((0..version).map(|v| Options {
            writer_version: Some(v),
            ..Options::default()
        }));
        opts.push(Options {
            writer_version: Some(version + 1),
            extra_block: 5,
            ..Options::default()
        });
        let first = out.len();
        for o in &opts {
            out.push(random_message(ir, msg, &mut rng, o).bytes);
        }
        for i in first..out.len() {
            let mut m = out[i].clone();
            if m.is_empty() {
                continue;
            }
            if rng.next_u64() % 3 == 0 {
                m.truncate(rng.below_or(m.len() as u64 - 1) as usize);
            } else {
                for _ in 0..=rng.below_or(2) {
                    let at = rng.below_or(m.len() as u64 - 1) as usize;
                    m[at] = rng.next_u64() as u8;
                }
            }
            out.push(m);
        }
    }
    out
}

#[test]
fn in_page_decoder_prints_what_sbekit_decode_prints() {
    if Command::new("node").arg("--version").output().is_err() {
        sbekit_testdata::skip(TEST, "node not found");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let decoder_js = dir.path().join("decoder.js");
    std::fs::write(&decoder_js, sbekit_doc::DECODER_JS).expect("write");
    let harness = dir.path().join("harness.cjs");
    std::fs::write(&harness, HARNESS).expect("write");
    let (mut total, mut refused) = (0, 0);
    for (i, path) in schemas().iter().enumerate() {
        let schema = sbekit_compat::load_file(path, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let decoder = Decoder::from_layout(&schema.layout).expect("decoder");
        let model = dir.path().join(format!("model{i}.json"));
        std::fs::write(&model, decoder.model_json()).expect("write");
        let msgs = messages(&schema.ir, 0xd0c + i as u64);
        let mut framed = Vec::new();
        let mut expected = Vec::new();
        for m in &msgs {
            framed.extend_from_slice(&(m.len() as u32).to_le_bytes());
            framed.extend_from_slice(m);
            expected.push(match message_to_decode_json(&decoder, m, false) {
                Ok((json, _)) => format!("ok {}", json.trim_end()),
                Err(_) => "err".to_string(),
            });
        }
        let file = dir.path().join(format!("messages{i}.u32"));
        std::fs::File::create(&file)
            .and_then(|mut f| f.write_all(&framed))
            .expect("write");
        let out = Command::new("node")
            .arg(&harness)
            .arg(&decoder_js)
            .arg(&model)
            .arg(&file)
            .output()
            .expect("node");
        assert!(
            out.status.success(),
            "{}: node failed: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let got = String::from_utf8(out.stdout).expect("utf8");
        let got: Vec<&str> = got.lines().collect();
        assert_eq!(got.len(), expected.len(), "{}", path.display());
        for (n, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(
                g,
                e,
                "{} message {n} ({} bytes): {:02x?}",
                path.display(),
                msgs[n].len(),
                msgs[n]
            );
        }
        total += expected.len();
        refused += expected.iter().filter(|e| *e == "err").count();
    }
    // The repository's schemas alone give about 300 messages; `../shared` adds 10,000.
    assert!(
        total > 250 && refused > 50,
        "{total} messages, {refused} refused"
    );
    eprintln!("{TEST}: {total} messages, {refused} refused by both, the rest printed alike");
}
