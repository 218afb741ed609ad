//! The real packets of `../shared/data/omi` (CME MDP 3.0 and iLink 3, B3 UMDF and EntryPoint,
//! Coinbase Derivatives): the dissectors generated for their schemas and profiles show every
//! message, with every value equal to what `sbekit capture decode` prints. Skips loudly
//! without `../shared` or tshark.

mod common;

use common::*;

/// (file under data/omi, profile, schema under schemas/omi).
const FILES: &[(&str, &str, &str)] = &[
    (
        "B3/BinaryEntryPoint.v8.1/EstablishMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryEntryPoint.v8.1/ExecutionReportNewMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryEntryPoint.v8.1/ExecutionReportTradeMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryEntryPoint.v8.1/NegotiateMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryEntryPoint.v8.1/SimpleModifyOrderMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryEntryPoint.v8.1/SimpleNewOrderMessage.pcap",
        "sofh-le",
        "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
    ),
    (
        "B3/BinaryUmdf.v1.5/PriceBand.pcap",
        "b3-umdf",
        "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
    ),
    (
        "B3/BinaryUmdf.v1.5/SecurityGroupPhase.pcap",
        "b3-umdf",
        "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
    ),
    (
        "B3/BinaryUmdf.v1.5/SecurityStatus.pcap",
        "b3-umdf",
        "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
    ),
    (
        "B3/BinaryUmdf.v1.5/Sequence.pcap",
        "b3-umdf",
        "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
    ),
    (
        "B3/BinaryUmdf.v1.5/SequenceReset.pcap",
        "b3-umdf",
        "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/MdIncrementalRefreshBookLongQty.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/MdIncrementalRefreshTradeSummaryLongQty.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/RequestAck.Tcp.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/SecurityListRequest.Tcp.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/SecurityStatusRequest.Tcp.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/SnapshotFullRefreshTcpLongQty.Tcp.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.12/SubscriberHeartbeat.Tcp.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.12.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.5/MdIncrementalRefreshBook.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.5.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.5/MdIncrementalRefreshSessionStatistics.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.5.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.5/MdIncrementalRefreshTradeSummary.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.5.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.5/MdIncrementalRefreshVolume.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.5.xml",
    ),
    (
        "Cme/Mdp3.Sbe.v1.5/MdInstrumentDefinitionSpread.pcap",
        "cme-mdp3",
        "Cme.Futures.Mdp3.Sbe.v1.5.xml",
    ),
    (
        "Cme/iLink3.Sbe.8.5/QuoteCancel.pcap",
        "sofh-le",
        "Cme.Futures.iLink3.Sbe.v8.5.xml",
    ),
    (
        "Cme/iLink3.Sbe.8.5/Sequence.pcap",
        "sofh-le",
        "Cme.Futures.iLink3.Sbe.v8.5.xml",
    ),
    (
        "Coinbase/MarketDataApi.v1.2/OrderPutMessage.pcap",
        "coinbase-derivatives",
        "Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml",
    ),
    (
        "Coinbase/MarketDataApi.v1.2/OrderSnapshotMessage.pcap",
        "coinbase-derivatives",
        "Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml",
    ),
    (
        "Coinbase/MarketDataApi.v1.2/StartOfOutrightInstrumentSnapshotMessage.pcap",
        "coinbase-derivatives",
        "Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml",
    ),
];

/// The destination port of the capture's first packet, and whether it is TCP.
fn port(capture: &[u8]) -> (u16, bool) {
    let p = sbekit_capture::PacketReader::new(capture)
        .expect("capture")
        .next()
        .expect("a packet")
        .expect("packet");
    if let Ok(u) = sbekit_capture::net::udp_datagram(p.link_type, p.data) {
        return (u.dst_port, false);
    }
    let t = sbekit_capture::net::tcp_segment(p.link_type, p.data).expect("UDP or TCP");
    (t.dst_port, true)
}

#[test]
fn real_packets_equal_capture_decode() {
    let test = "real_packets_equal_capture_decode";
    if !tshark(test) {
        return;
    }
    let Some(data) = sbekit_testdata::require("data/omi", test) else {
        return;
    };
    let Some(schemas) = sbekit_testdata::require("schemas/omi", test) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut msgs, mut values) = (0, 0);
    for (i, (file, profile, schema)) in FILES.iter().enumerate() {
        let pcap = data.join(file);
        let bytes = std::fs::read(&pcap).expect("capture");
        let (p, tcp) = port(&bytes);
        let proto = format!("omi{i:02}");
        let (udp, tcps) = if tcp {
            (vec![], vec![p])
        } else {
            (vec![p], vec![])
        };
        let d = dissector(
            dir.path(),
            &schemas.join(schema),
            profile,
            &proto,
            &udp,
            &tcps,
        );
        let out = run(&[&d.lua], &pcap, &["-T", "pdml"]);
        assert!(!out.stderr.contains("Lua"), "{file}: {}", out.stderr);
        let (m, v) = compare(&d, &bytes, &out.stdout);
        eprintln!("{file}: {m} messages, {v} values equal");
        msgs += m;
        values += v;
    }
    eprintln!(
        "{} real captures: {msgs} messages, {values} values equal to capture decode's",
        FILES.len()
    );
    // The data README's counts: every message of the listed schemas' ids (the 4 of CME's
    // session schema id 2 are shown as another schema, and the decoder skips them).
    assert_eq!(msgs, 40);
}
