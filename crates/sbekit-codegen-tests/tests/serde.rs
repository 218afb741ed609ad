//! `Options::serde`: a crate `write_crate` writes with it builds with and without its `serde`
//! feature (warnings denied), and with it every owned message goes through `serde_json` and
//! comes back equal, re-encoding to the bytes it was decoded from. Random messages at every
//! writer version of this crate's big-endian schema (enums, a set, a composite, optional values,
//! nested groups, var data), of its schemas of hostile names and keywords, and of a schema of
//! arrays longer than serde's own impls take (32 elements), one of them absent at the older
//! version.
//!
//! Each generated crate runs a small example of its own (`examples/serde_round_trip.rs`) over a
//! file of u32le-framed messages, built offline with the workspace's `Cargo.lock`, so the same
//! `serde` and `serde_json` the workspace uses.

use sbekit_ir::Ir;
use sbekit_otf::random::{random_message, Expected, Options, Rng};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arrays of 33 to 40 elements: characters, integers and doubles, in the block, a group and a
/// field newer than version 0 (`Option<[u8; 40]>` in the owned value).
const ARRAYS_SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="serde.arrays" id="7" version="1">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="groupSizeEncoding">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint16"/>
        </composite>
        <type name="Text" primitiveType="char" length="40"/>
        <type name="Samples" primitiveType="int32" length="33"/>
        <type name="Curve" primitiveType="double" length="34"/>
    </types>
    <sbe:message name="Report" id="1">
        <field name="text" id="1" type="Text"/>
        <field name="samples" id="2" type="Samples"/>
        <field name="later" id="3" type="Text" sinceVersion="1"/>
        <group name="rows" id="4" dimensionType="groupSizeEncoding">
            <field name="curve" id="5" type="Curve"/>
        </group>
    </sbe:message>
</sbe:messageSchema>
"#;

/// Decodes each message into `AnyOwned`, through `serde_json` and back: equal, and writing the
/// bytes it came from. Prints each message's JSON on a line.
const ROUND_TRIP: &str = r#"use CRATE as codecs;

fn main() {
    let path = std::env::args_os().nth(1).expect("a messages file");
    let data = std::fs::read(path).expect("the messages file");
    let mut rest = data.as_slice();
    while let Some((len, tail)) = rest.split_first_chunk::<4>() {
        let (msg, tail) = tail.split_at(u32::from_le_bytes(*len) as usize);
        rest = tail;
        let o = codecs::AnyOwned::decode(msg).expect("decodes");
        let json = serde_json::to_string(&o).expect("serializes");
        let back: codecs::AnyOwned = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, o, "{json}");
        let mut buf = vec![0u8; msg.len() + 1024];
        let n = back.encode_into(&mut buf).expect("encodes");
        assert_eq!(&buf[..n], msg, "{json}");
        println!("{json}");
    }
}
"#;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// True if every float the message holds is finite: JSON has no NaN or infinity (`serde_json`
/// writes `null`), so those values cannot come back.
fn finite(e: &Expected) -> bool {
    match e {
        Expected::Float(bits) => f64::from_bits(*bits).is_finite(),
        Expected::Array(a) => a.iter().all(finite),
        _ => true,
    }
}

/// Random messages of every type of `ir` at every writer version, u32le-framed; how many.
fn messages(ir: &Ir, per_type: u64) -> (Vec<u8>, usize) {
    let (mut out, mut n) = (Vec::new(), 0);
    for v in 0..=ir.version {
        let opts = Options {
            writer_version: Some(u32::try_from(v).unwrap()),
            ..Options::default()
        };
        for tokens in &ir.messages {
            for seed in 0..per_type {
                let m = random_message(ir, tokens, &mut Rng::new(seed), &opts);
                if m.expected.iter().all(|(_, e)| finite(e)) {
                    out.extend_from_slice(&u32::try_from(m.bytes.len()).unwrap().to_le_bytes());
                    out.extend_from_slice(&m.bytes);
                    n += 1;
                }
            }
        }
    }
    (out, n)
}

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> std::process::Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .env("RUSTFLAGS", "-D warnings")
        .env("CARGO_TARGET_DIR", target)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Writes `ir`'s crate with serde into `tmp/name`, checks that it builds without the feature,
/// and runs the round trip with it over random messages; returns the JSON lines.
fn round_trip(ir: &Ir, tmp: &Path, name: &str) -> Vec<serde_json::Value> {
    let dir = tmp.join(name);
    let opts = sbekit_codegen::Options {
        serde: true,
        ..Default::default()
    };
    sbekit_codegen::write_crate(ir, &dir, name, &Default::default(), &opts).unwrap();
    let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(toml.contains("serde = [\"dep:serde\"]"), "{toml}");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!("{toml}\n[dev-dependencies]\nserde_json = {{ version = \"1\", features = [\"float_roundtrip\"] }}\n\n[workspace]\n"),
    )
    .unwrap();
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("examples/serde_round_trip.rs"),
        ROUND_TRIP.replace("CRATE", &name.replace('-', "_")),
    )
    .unwrap();
    let target = tmp.join("target");
    // Without the feature: no serde, and no warning about the `cfg` either.
    let out = cargo(&dir, &target, &["build", "--quiet", "--offline", "--lib"]);
    assert!(
        out.status.success(),
        "{name} without `serde` does not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (bytes, n) = messages(ir, 40);
    let file = dir.join("messages.bin");
    std::fs::write(&file, bytes).unwrap();
    let out = cargo(
        &dir,
        &target,
        &[
            "run",
            "--quiet",
            "--offline",
            "--features",
            "serde",
            "--example",
            "serde_round_trip",
            "--",
            file.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{name}: the serde round trip failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), n, "{name}: one JSON line per message");
    lines
}

#[test]
fn owned_values_round_trip_through_serde_json() {
    let tmp = std::env::temp_dir().join(format!("sbekit-serde-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);

    let own = |f: &str| {
        sbekit_schema::load_ir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("schemas")
                .join(f),
        )
        .unwrap()
    };
    // Names that are keywords or runtime identifiers (`Result`, `Decoder`, ...).
    round_trip(&own("hostile-names.xml"), &tmp, "hostile-names-sbe");
    round_trip(&own("keywords.xml"), &tmp, "keywords-sbe");
    let lines = round_trip(&own("orders-be.xml"), &tmp, "orders-be-sbe");
    // Externally tagged by message; enums and sets are their raw values; absent is `null`.
    let order = lines
        .iter()
        .find_map(|l| l.get("Order").filter(|o| o["acting_version"] == 0))
        .expect("an Order at version 0");
    assert!(order["side"].is_u64(), "{order}");
    assert_eq!(order["symbol"].as_array().map(Vec::len), Some(8), "{order}");
    assert!(
        order["flags"].is_null() && order["venue"].is_null(),
        "{order}"
    );
    assert!(lines.iter().any(|l| l["Order"]["flags"].is_u64()));
    assert!(lines.iter().any(|l| l.get("Cancel").is_some()));

    let path = tmp.join("arrays.xml");
    std::fs::write(&path, ARRAYS_SCHEMA).unwrap();
    let arrays = sbekit_schema::load_ir(&path).unwrap();
    let lines = round_trip(&arrays, &tmp, "serde-arrays-sbe");
    let report = |v: u64| {
        lines
            .iter()
            .map(|l| &l["Report"])
            .find(|r| r["acting_version"] == v && !r["rows"].as_array().unwrap().is_empty())
            .unwrap_or_else(|| panic!("a Report with rows at version {v}"))
    };
    let (old, new) = (report(0), report(1));
    assert_eq!(old["text"].as_array().map(Vec::len), Some(40), "{old}");
    assert_eq!(old["samples"].as_array().map(Vec::len), Some(33), "{old}");
    assert!(old["later"].is_null(), "{old}");
    assert_eq!(new["later"].as_array().map(Vec::len), Some(40), "{new}");
    assert_eq!(
        new["rows"][0]["curve"].as_array().map(Vec::len),
        Some(34),
        "{new}"
    );

    std::fs::remove_dir_all(&tmp).unwrap();
}
