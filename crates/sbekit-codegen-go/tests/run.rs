//! The generated Go run: one module with a package per schema (our own schemas and the
//! reference's car schemas) and the conformance command over all of them.
//!
//! - the reference car vectors decode to the reference's JSON goldens (value for value) and
//!   re-encode byte-identically;
//! - every strict prefix of the car vectors and of random messages (`sbekit_otf::random`, at
//!   every version) is refused with an error, never a panic (a panic exits non-zero);
//! - random messages decode to the JSON `sbekit decode` prints;
//! - `go test` in the car package (`tests/go/car_test.go`): `testing.AllocsPerRun` is 0 for
//!   decoding, encoding, `AnyDecoder` + `AppendJSON` and re-encoding; every prefix is refused
//!   with a `*DecodeError`; every buffer too small is refused; zero-value decoders read as
//!   empty messages without panicking.

mod common;

use common::*;
use sbekit_otf::random::{random_message, Options, Rng};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn own(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// Numbers compared as values; everything else exactly.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(p), Some(q)) = (x.as_i64(), y.as_i64()) {
                return p == q;
            }
            if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
                return p == q;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p == q || p as f32 == q as f32,
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn frames(msgs: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in msgs {
        out.extend_from_slice(&(m.len() as u32).to_le_bytes());
        out.extend_from_slice(m);
    }
    out
}

fn unframe(b: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 4 <= b.len() {
        let n = u32::from_le_bytes([b[p], b[p + 1], b[p + 2], b[p + 3]]) as usize;
        out.push(b[p + 4..p + 4 + n].to_vec());
        p += 4 + n;
    }
    out
}

/// Runs the conformance command; its stdout (panics on a non-zero exit: a Go panic).
fn pipe(prog: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(prog)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = t.join();
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}):\n{}",
        prog.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn generated_go_decodes_reencodes_and_refuses_truncations() {
    let test = "generated_go_decodes_reencodes_and_refuses_truncations";
    let Some(go) = go(test) else { return };
    let refs = [
        "sbe-samples/src/main/resources/example-schema.xml",
        "sbe-samples/src/main/resources/example-extension-schema.xml",
        "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
    ];
    let mut schemas: Vec<(String, PathBuf)> = vec![
        (
            "orders".into(),
            own("crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ),
        ("md".into(), own("schemas/market-data.xml")),
        (
            "vers".into(),
            own("crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
        ),
    ];
    let have_refs = refs
        .iter()
        .all(|r| sbekit_testdata::require_reference(r, test).is_some());
    if have_refs {
        for (name, r) in ["car", "ext", "be"].iter().zip(refs) {
            schemas.push((
                name.to_string(),
                sbekit_testdata::reference_sbe_dir().join(r),
            ));
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let module = "sbetest";
    std::fs::write(root.join("go.mod"), sbekit_codegen_go::go_mod(module)).expect("go.mod");
    let mut pkgs = Vec::new();
    for (pkg, path) in &schemas {
        package(root, module, pkg, path);
        pkgs.push((format!("{module}/{pkg}"), pkg.clone()));
    }
    let cmd = root.join("cmd/sbe_conformance");
    std::fs::create_dir_all(&cmd).expect("cmd dir");
    std::fs::write(
        cmd.join("main.go"),
        sbekit_codegen_go::conformance_main(&pkgs),
    )
    .expect("main.go");
    let prog = root.join("sbe_conformance");
    run_ok(
        go_cmd(&go, root)
            .args(["build", "-o"])
            .arg(&prog)
            .arg("./cmd/sbe_conformance"),
        "go build",
    );

    // Random messages at every version (and by a newer writer), and all their strict prefixes.
    let mut checked = 0;
    let mut prefixes = 0;
    for (i, (pkg, path)) in schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(path).expect("schema");
        let dec = sbekit_otf::Decoder::new(&ir).expect("otf");
        let mut rng = Rng::new(0x90 + i as u64);
        let version = u32::try_from(ir.version).unwrap_or(0);
        let mut msgs = Vec::new();
        for m in &ir.messages {
            for k in 0..16u32 {
                let o = Options {
                    writer_version: Some(k % (version + 2)),
                    extra_block: if k % (version + 2) > version { 3 } else { 0 },
                    ..Options::default()
                };
                msgs.push(random_message(&ir, m, &mut rng, &o).bytes);
            }
        }
        let idx = i.to_string();
        let json = pipe(&prog, &["json", &idx], &frames(&msgs));
        let lines: Vec<&str> = std::str::from_utf8(&json).expect("utf8").lines().collect();
        assert_eq!(lines.len(), msgs.len(), "{pkg}: one line per message");
        for (m, line) in msgs.iter().zip(&lines) {
            let got: Value = serde_json::from_str(line).expect("JSON");
            let (text, _) = sbekit_otf::message_to_json(&dec, m, false).expect("otf decodes");
            let want: Value = serde_json::from_str(&text).expect("otf JSON");
            let strip = |v: &Value| {
                let mut v = v.clone();
                if let Value::Object(o) = &mut v {
                    o.remove("$version");
                }
                v
            };
            assert!(
                same(&strip(&want), &strip(&got)),
                "{pkg}: JSON differs\n  want: {want}\n  Go:   {got}"
            );
            checked += 1;
        }
        let cut: Vec<Vec<u8>> = msgs
            .iter()
            .flat_map(|m| (0..m.len()).map(move |n| m[..n].to_vec()))
            .collect();
        let out = pipe(&prog, &["json", &idx], &frames(&cut));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), cut.len());
        assert!(
            text.lines().all(|l| l.starts_with("{\"error\":")),
            "{pkg}: a prefix was not refused"
        );
        prefixes += cut.len();
    }

    if have_refs {
        // (vector, package index, golden); 3 = example-schema, 4 = the extension schema, 5 =
        // the big-endian schema.
        let vectors = [
            (
                "rust/car_example_baseline_data.sbe",
                3,
                "car_example_baseline_data.example-schema.json",
            ),
            (
                "rust/car_example_baseline_data.sbe",
                4,
                "car_example_baseline_data.example-extension-schema.json",
            ),
            (
                "rust/car_example_extension_data.sbe",
                4,
                "car_example_extension_data.example-extension-schema.json",
            ),
            (
                "derived/vectors/car_example_extension_v1_data.sbe",
                4,
                "car_example_extension_v1_data.example-extension-schema.json",
            ),
            (
                "derived/vectors/car_example_extension_v1_data.sbe",
                3,
                "car_example_extension_v1_data.example-schema.json",
            ),
            (
                "derived/vectors/car_example_bigendian_data.sbe",
                5,
                "car_example_bigendian_data.example-bigendian-test-schema.json",
            ),
        ];
        for (vector, schema, golden) in vectors {
            let (Some(v), Some(g)) = (
                sbekit_testdata::require_reference(vector, test),
                sbekit_testdata::require_reference(&format!("derived/json/{golden}"), test),
            ) else {
                return;
            };
            let bytes = std::fs::read(v).expect("vector");
            let want: Value =
                serde_json::from_str(&std::fs::read_to_string(g).expect("golden")).expect("json");
            let idx = schema.to_string();
            let one = frames(std::slice::from_ref(&bytes));
            let json = pipe(&prog, &["json", &idx], &one);
            let mut got: Value = serde_json::from_slice(&json).expect("Go prints JSON");
            // `sbekit decode` (and AppendJSON) mark an older writer's message with
            // `"$version"`; the reference's goldens do not.
            if let Value::Object(o) = &mut got {
                if let Some(v) = o.remove("$version") {
                    assert!(schema == 4 && v == 0, "{vector}: $version {v}");
                }
            }
            assert!(
                same(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  Go:   {got}"
            );
            let re = unframe(&pipe(&prog, &["reencode", &idx], &one));
            // The v1 vector read with the v0 schema is re-encoded at its acting version (1) with
            // the fields the v0 schema knows: not the same bytes; the others are.
            if !(vector.contains("v1") && schema == 3) {
                assert_eq!(re[0], bytes, "{vector}: re-encoded bytes differ");
            }
            let cut: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
            let out = pipe(&prog, &["json", &idx], &frames(&cut));
            let text = String::from_utf8_lossy(&out);
            assert_eq!(text.lines().count(), cut.len());
            assert!(
                text.lines().all(|l| l.starts_with("{\"error\":")),
                "{vector}: a prefix was not refused"
            );
            prefixes += cut.len();
        }
        // The car package's Go tests: no allocations, round trip, prefixes, short buffers.
        std::fs::write(root.join("car/car_test.go"), include_str!("go/car_test.go"))
            .expect("car_test.go");
        run_ok(
            go_cmd(&go, root).args(["test", "-count=1", "-run", "Test", "./car/"]),
            "go test ./car/",
        );
    }
    assert!(checked > 100, "{checked} messages checked");
    eprintln!(
        "{test}: {checked} random messages equal to sbekit decode, {prefixes} truncations refused"
    );
}
