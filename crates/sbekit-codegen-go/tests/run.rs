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
use sbekit_testdata::{frames, pipe, run_ok, same_json, unframe, workspace_file};
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn generated_go_decodes_reencodes_and_refuses_truncations() {
    let test = "generated_go_decodes_reencodes_and_refuses_truncations";
    let Some(go) = go(test) else { return };
    let refs = sbekit_testdata::CAR_SCHEMAS;
    let mut schemas: Vec<(String, PathBuf)> = vec![
        (
            "orders".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/orders-be.xml"),
        ),
        ("md".into(), workspace_file("schemas/market-data.xml")),
        (
            "vers".into(),
            workspace_file("crates/sbekit-codegen-tests/schemas/versioned-v1.xml"),
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
                same_json(&strip(&want), &strip(&got)),
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
        // The car schemas follow the program's own three, in `CAR_SCHEMAS` order.
        for car in sbekit_testdata::CAR_VECTORS {
            let Some((bytes, want)) = car.load(test) else {
                return;
            };
            let (vector, schema) = (car.vector, 3 + car.schema);
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
                same_json(&want, &got),
                "{vector}: golden differs\n  want: {want}\n  Go:   {got}"
            );
            let re = unframe(&pipe(&prog, &["reencode", &idx], &one));
            if car.same_bytes {
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
    // 16 random messages per message of every schema that ran (the reference's car schemas
    // only when `../shared` is there): the count covers what ran, never a part skipped above.
    let messages_in_run: usize = schemas
        .iter()
        .map(|(_, path)| sbekit_schema::load_ir(path).expect("schema").messages.len())
        .sum();
    assert_eq!(checked, 16 * messages_in_run, "messages checked");
    eprintln!(
        "{test}: {checked} random messages equal to sbekit decode, {prefixes} truncations refused"
    );
}
