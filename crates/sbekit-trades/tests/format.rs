//! The file format end to end: round trips, the errors bad input gives, and atomic writes.

mod common;

use common::*;
use sbekit_trades::convert::{convert, ConvertOptions};
use sbekit_trades::export::to_csv;
use sbekit_trades::file::{verify, Header, TradeFile, TradeWriter, DATA_OFFSET, MAGIC};
use sbekit_trades::synth::SynthConfig;
use sbekit_trades::{Error, LayoutKind};
use std::path::Path;

fn opts(layout: LayoutKind) -> ConvertOptions {
    ConvertOptions {
        layout,
        ..Default::default()
    }
}

fn dump(path: &Path) -> String {
    let f = TradeFile::open(path).unwrap();
    let mut out = Vec::new();
    to_csv(&f, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn small_cfg() -> SynthConfig {
    SynthConfig {
        rows: 30_000,
        seed: 11,
        rate: 2.0,
        ..Default::default()
    }
}

#[test]
fn lossless_round_trip_is_byte_exact() {
    let dir = tempfile::tempdir().unwrap();
    let csv = synth_csv(dir.path(), "t.csv", &small_cfg());
    let out = dir.path().join("t.sbe");
    let rep = convert(&csv, &out, &opts(LayoutKind::Lossless), &mut |_, _| {}).unwrap();
    assert_eq!(rep.rows, 30_000);
    assert_eq!(rep.skipped, 0);
    assert_eq!(rep.header.record_count, 30_000);
    assert_eq!(rep.header.record_size, 40);
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        DATA_OFFSET + 30_000 * 40
    );
    let original = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(dump(&out), original);
    let v = verify(&out).unwrap();
    assert_eq!(v.records, 30_000);
}

#[test]
fn compact_round_trip_differs_only_in_sub_millisecond_server_time() {
    let dir = tempfile::tempdir().unwrap();
    let csv = synth_csv(dir.path(), "t.csv", &small_cfg());
    let out = dir.path().join("t.sbe");
    let rep = convert(&csv, &out, &opts(LayoutKind::Compact), &mut |_, _| {}).unwrap();
    assert_eq!(rep.header.record_size, 32);
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        DATA_OFFSET + 30_000 * 32
    );
    verify(&out).unwrap();
    let original = std::fs::read_to_string(&csv).unwrap();
    let back = dump(&out);
    let (mut same, mut moved) = (0, 0);
    for (a, b) in original.lines().zip(back.lines()).skip(1) {
        let fa: Vec<&str> = a.split(',').collect();
        let fb: Vec<&str> = b.split(',').collect();
        // Everything but server_time (column 4) is exact.
        for c in [0, 1, 2, 3, 5, 6] {
            assert_eq!(fa[c], fb[c], "column {c}: {a} vs {b}");
        }
        let time: i128 = fa[0].parse().unwrap();
        let st: i128 = fa[4].parse().unwrap();
        let st_back: i128 = fb[4].parse().unwrap();
        if st == 0 {
            assert_eq!(st_back, 0);
            continue;
        }
        // Documented: time + round((server_time - time) / 1 ms) * 1 ms.
        let d = st - time;
        let q = (d.abs() + 500_000) / 1_000_000 * d.signum();
        assert_eq!(st_back, time + q * 1_000_000, "{a}");
        assert!((st_back - st).abs() <= 500_000);
        if st_back == st {
            same += 1;
        } else {
            moved += 1;
        }
    }
    assert_eq!(original.lines().count(), back.lines().count());
    assert!(
        moved > 0,
        "synthetic server times are ms-precise but times are not"
    );
    let _ = same;
}

#[test]
fn bad_row_stops_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    std::fs::write(
        &csv,
        "time,amount,exch,price,server_time,side,ticker\n\
         100,1,gdax,10,0,na,btc_usd\n\
         200,1,gdax,10,0,bid,btc_usd\n\
         300,1,nyse,10,0,bid,btc_usd\n\
         400,1,gdax,10,0,ask,btc_usd\n",
    )
    .unwrap();
    let out = dir.path().join("bad.sbe");
    let e = convert(&csv, &out, &ConvertOptions::default(), &mut |_, _| {}).unwrap_err();
    match &e {
        Error::BadRow { line, reason, .. } => {
            assert_eq!(*line, 4);
            assert!(reason.contains("unknown exchange 'nyse'"), "{reason}");
        }
        other => panic!("unexpected {other}"),
    }
    assert!(e
        .to_string()
        .contains("bad.csv: line 4: exch: unknown exchange"));
    assert!(!out.exists(), "a failed conversion leaves no output");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temp files left"
    );
}

#[test]
fn skip_invalid_counts_and_reports_every_skip() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    std::fs::write(
        &csv,
        "time,amount,exch,price,server_time,side,ticker\n\
         100,1,gdax,10,0,na,btc_usd\n\
         oops\n\
         200,1,gdax,10,0,bid,btc_usd\n\
         150,1,gdax,10,0,bid,btc_usd\n\
         300,1,gdax,-1,0,bid,btc_usd\n\
         400,1,bmex,10,0,ask,xrp_usd\n",
    )
    .unwrap();
    let out = dir.path().join("bad.sbe");
    let o = ConvertOptions {
        skip_invalid: true,
        keep_reasons: 2,
        ..Default::default()
    };
    let rep = convert(&csv, &out, &o, &mut |_, _| {}).unwrap();
    assert_eq!(rep.rows, 6);
    assert_eq!(rep.skipped, 3);
    assert_eq!(rep.header.record_count, rep.rows - rep.skipped);
    assert_eq!(rep.first_skipped.len(), 2);
    assert_eq!(rep.first_skipped[0].line, 3);
    assert!(rep.first_skipped[0]
        .reason
        .contains("expected 7 fields, found 1"));
    assert_eq!(rep.first_skipped[1].line, 5);
    assert!(rep.first_skipped[1]
        .reason
        .contains("before the previous row"));
    let v = verify(&out).unwrap();
    assert_eq!(v.records, 3);
    assert_eq!((v.header.time_min, v.header.time_max), (100, 400));
}

#[test]
fn header_problems_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("h.csv");
    std::fs::write(
        &csv,
        "time,amount,exch,price,side,ticker\n1,1,gdax,1,na,btc_usd\n",
    )
    .unwrap();
    let e = convert(
        &csv,
        &dir.path().join("h.sbe"),
        &ConvertOptions::default(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("line 1: header lacks column(s) server_time"),
        "{e}"
    );
    std::fs::write(&csv, "").unwrap();
    let e = convert(
        &csv,
        &dir.path().join("h.sbe"),
        &ConvertOptions::default(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("empty input"), "{e}");
}

fn good_file(dir: &Path) -> std::path::PathBuf {
    let csv = synth_csv(
        dir,
        "g.csv",
        &SynthConfig {
            rows: 5_000,
            ..small_cfg()
        },
    );
    let out = dir.join("g.sbe");
    convert(&csv, &out, &ConvertOptions::default(), &mut |_, _| {}).unwrap();
    out
}

fn err_text(p: &Path) -> String {
    verify(p).unwrap_err().to_string()
}

#[test]
fn truncated_file_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let p = good_file(dir.path());
    let orig = std::fs::read(&p).unwrap();
    std::fs::write(&p, &orig[..orig.len() - 13]).unwrap();
    let e = err_text(&p);
    assert!(
        e.contains("truncated: the header promises 5000 records"),
        "{e}"
    );
    assert!(e.contains("4999 whole records"), "{e}");
    assert!(TradeFile::open(&p).is_err(), "queries refuse it too");
    std::fs::write(&p, &orig[..40]).unwrap();
    assert!(err_text(&p).contains("too short to be a trade file (40 bytes"));
    let mut longer = orig.clone();
    longer.extend_from_slice(&[0, 0, 0]);
    std::fs::write(&p, &longer).unwrap();
    assert!(err_text(&p).contains("3 unexpected bytes"));
}

#[test]
fn wrong_magic_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let p = good_file(dir.path());
    let mut b = std::fs::read(&p).unwrap();
    b[..8].copy_from_slice(b"PAR1\0\0\0\0");
    std::fs::write(&p, &b).unwrap();
    let e = err_text(&p);
    assert!(e.contains("not an sbekit trade file"), "{e}");
    // A CSV is not a trade file either.
    let csv = dir.path().join("g.csv");
    assert!(err_text(&csv).contains("not an sbekit trade file"));
}

#[test]
fn checksum_mismatches_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let p = good_file(dir.path());
    let orig = std::fs::read(&p).unwrap();
    // One bit in the last record's amount.
    let mut b = orig.clone();
    let last = b.len() - 1;
    b[last] ^= 0x10;
    std::fs::write(&p, &b).unwrap();
    let e = err_text(&p);
    assert!(e.contains("checksum mismatch: records hash to"), "{e}");
    // One bit in the header's record count.
    let mut b = orig.clone();
    b[16 + 8] ^= 0x01;
    std::fs::write(&p, &b).unwrap();
    let e = err_text(&p);
    assert!(e.contains("header checksum mismatch"), "{e}");
    std::fs::write(&p, &orig).unwrap();
    verify(&p).unwrap();
}

#[test]
fn header_encodes_and_decodes() {
    let h = Header::new(LayoutKind::Compact, 12, 5, 9, 0xDEAD_BEEF);
    let b = h.encode();
    assert_eq!(&b[..8], MAGIC);
    assert_eq!(Header::decode(&b).unwrap(), h);
    assert_eq!(h.file_size(), 64 + 12 * 32);
    // A well-checksummed header that cannot be right is refused too.
    let bad = Header::new(LayoutKind::Compact, 2, 9, 5, 0).encode();
    assert!(Header::decode(&bad)
        .unwrap_err()
        .contains("time range 9..5 is impossible"));
}

#[test]
fn interrupted_writes_leave_nothing_verify_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.sbe");
    let trades: Vec<_> = sbekit_trades::synth::Synth::new(&small_cfg()).collect();

    // An error mid-way (the writer is dropped): no output, no temporary file.
    let mut w = TradeWriter::create(&out, LayoutKind::Lossless).unwrap();
    for t in &trades {
        w.push(t).unwrap();
    }
    drop(w);
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // A crash mid-way (no destructor runs): the partial file is left behind, but it is not
    // at the output path and verify rejects it.
    let mut w = TradeWriter::create(&out, LayoutKind::Lossless).unwrap();
    for t in &trades {
        w.push(t).unwrap();
    }
    let tmp = w.temp_path().to_path_buf();
    std::mem::forget(w);
    assert!(!out.exists());
    // Records reach the file from the writing thread: wait for the first megabyte.
    let mut waited = 0;
    while std::fs::metadata(&tmp).unwrap().len() < DATA_OFFSET + (1 << 20) && waited < 100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    assert!(
        std::fs::metadata(&tmp).unwrap().len() >= DATA_OFFSET + (1 << 20),
        "records reached the disk"
    );
    let e = verify(&tmp).unwrap_err().to_string();
    assert!(
        e.contains("incomplete trade file: the header was never written"),
        "{e}"
    );

    // Finishing moves it into place.
    let mut w = TradeWriter::create(&out, LayoutKind::Lossless).unwrap();
    for t in &trades[..10] {
        w.push(t).unwrap();
    }
    let h = w.finish().unwrap();
    assert_eq!(h.record_count, 10);
    assert_eq!(verify(&out).unwrap().records, 10);
}

#[test]
fn empty_file_has_no_records() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("e.csv");
    std::fs::write(&csv, format!("{}\n", sbekit_trades::csvio::HEADER)).unwrap();
    let out = dir.path().join("e.sbe");
    let rep = convert(&csv, &out, &ConvertOptions::default(), &mut |_, _| {}).unwrap();
    assert_eq!(rep.header.record_count, 0);
    assert_eq!(verify(&out).unwrap().records, 0);
    assert_eq!(dump(&out), format!("{}\n", sbekit_trades::csvio::HEADER));
}

/// A record count from a hostile header cannot drive the record iterator past the bytes it has
/// (it used to loop `n` times, overflowing `i * SIZE` on the way).
#[test]
fn record_iteration_is_bounded_by_the_bytes() {
    let bytes = vec![0u8; 1000];
    let n =
        sbekit_trades::file::records::<sbekit_trades::trade::Lossless>(&bytes, usize::MAX).count();
    assert!(n <= 1000 / 40 + 1, "{n}");
}
