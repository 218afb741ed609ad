//! Golden files: the generated dissectors of our own schemas, checked in so that every change
//! to the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p
//! sbekit-codegen-wireshark --test golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, profile: &str, udp: &[u16], tcp: &[u16], golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let p = sbekit_codegen_wireshark::framing(profile).expect("framing");
    let opts = sbekit_codegen_wireshark::Options {
        proto: None,
        udp_ports: udp.to_vec(),
        tcp_ports: tcp.to_vec(),
    };
    let files = sbekit_codegen_wireshark::generate_layout(&layout, &p, &opts).expect("plan");
    let mut text = String::new();
    for f in &files {
        text.push_str(&format!("==> {} <==\n", f.path.display()));
        text.push_str(&f.text);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    sbekit_testdata::check_golden(&path, &text, schema);
}

#[test]
fn market_data_matches_golden() {
    check(
        "schemas/market-data.xml",
        "cme-mdp3",
        &[20001],
        &[],
        "market_data.txt",
    );
}

#[test]
fn orders_be_matches_golden() {
    check(
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "sofh",
        &[],
        &[9000],
        "orders_be.txt",
    );
}

#[test]
fn output_is_deterministic_and_named_by_the_protocol() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let p = sbekit_codegen_wireshark::framing("b3-umdf").expect("framing");
    let opts = sbekit_codegen_wireshark::Options {
        proto: Some("My-Feed".into()),
        ..Default::default()
    };
    let a = sbekit_codegen_wireshark::generate_layout(&layout, &p, &opts).expect("plan");
    let b = sbekit_codegen_wireshark::generate_layout(&layout, &p, &opts).expect("plan");
    assert_eq!(a, b);
    let names: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    assert_eq!(names, ["my_feed.lua", "README.md"]);
    assert!(a[0].text.contains("\"my_feed.MarketUpdates.trades\""));
}

#[test]
fn unusable_protocol_names_and_unknown_framings_are_errors() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let p = sbekit_codegen_wireshark::framing("sofh").expect("framing");
    for bad in ["", "9lives"] {
        let opts = sbekit_codegen_wireshark::Options {
            proto: Some(bad.into()),
            ..Default::default()
        };
        assert!(sbekit_codegen_wireshark::generate_layout(&layout, &p, &opts).is_err());
    }
    assert!(sbekit_codegen_wireshark::framing("nope").is_none());
    for f in sbekit_codegen_wireshark::framings() {
        let p = sbekit_codegen_wireshark::framing(f).expect("every listed framing exists");
        p.check().expect("consistent");
    }
}
