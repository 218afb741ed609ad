//! All 80 schemas the reference tool accepts generate dissectors that load into one tshark
//! process without a Lua error, and dissect a packet of each schema (the heuristic and the
//! port registration of 80 dissectors side by side).

mod common;

use common::*;
use std::path::PathBuf;

fn accepted(test: &str) -> Option<Vec<PathBuf>> {
    sbekit_testdata::reference_accepted_schemas(test)
}

#[test]
fn all_reference_accepted_schemas_load_in_one_tshark() {
    let test = "all_reference_accepted_schemas_load_in_one_tshark";
    if !tshark(test) {
        return;
    }
    let Some(schemas) = accepted(test) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut luas = Vec::new();
    let mut capture = Vec::new();
    let mut w =
        sbekit_capture::write::PcapNgWriter::new(&mut capture, "sbekit test").expect("writer");
    let mut expected = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let proto = format!("s{i:02}");
        // Each schema on its own UDP port, framed as u16le would not fit UDP: cme-mdp3.
        let port = 21_000 + i as u16;
        let d = dissector(dir.path(), s, "cme-mdp3", &proto, &[port], &[]);
        // One synthetic packet of each schema, on its port.
        let cfg = sbekit_feed::synth::SynthConfig {
            messages: 1,
            max_per_packet: 1,
            seed: i as u64,
            ..Default::default()
        };
        let mut one = Vec::new();
        sbekit_feed::synth::generate(&d.ir, &d.profile, &cfg, &mut one).expect("synth");
        for p in sbekit_capture::PacketReader::new(&one).expect("capture") {
            let p = p.expect("packet");
            let u = sbekit_capture::net::udp_datagram(p.link_type, p.data).expect("UDP");
            w.udp(
                i as i64,
                ([10, 0, 0, 1], 30001),
                ([239, 1, 1, 1], port),
                u.payload,
            )
            .expect("packet");
        }
        expected.push((proto, d));
        luas.push(expected.last().map(|(_, d)| d.lua.clone()).expect("lua"));
    }
    w.into_inner().expect("flush");
    let pcap = dir.path().join("all.pcapng");
    std::fs::write(&pcap, &capture).expect("capture");
    let refs: Vec<&std::path::Path> = luas.iter().map(|p| p.as_path()).collect();
    let t = run(&refs, &pcap, &["-T", "pdml"]);
    assert!(
        !t.stderr.contains("Lua") && !t.stderr.to_lowercase().contains("error"),
        "{}",
        t.stderr
    );
    assert!(!t.stdout.contains("Lua Error"));
    let mut dissected = 0;
    for (i, (proto, d)) in expected.iter().enumerate() {
        let trees = pdml(&t.stdout, proto);
        let names: Vec<String> = d
            .plan
            .messages
            .iter()
            .map(|m| format!("{proto}.{}", m.body.name))
            .collect();
        let mut flat = Vec::new();
        all(&trees[i], &mut flat);
        assert!(
            flat.iter()
                .all(|it| !it.name.starts_with(&format!("{proto}.expert"))),
            "{proto} ({}): expert info on a valid packet",
            schemas[i].display()
        );
        if flat.iter().any(|it| names.contains(&it.name)) {
            dissected += 1;
        }
    }
    eprintln!(
        "{} dissectors loaded in one tshark; {dissected} dissected their packet",
        luas.len()
    );
    assert_eq!(dissected, 80);
}
