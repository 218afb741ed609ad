//! End-to-end tests of `sbekit trades` through the built binary.

use std::path::Path;
use std::process::{Command, Output};

fn sbekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(args)
        .output()
        .expect("run sbekit")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn synth_convert_verify_export_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a.csv"),
        dir.path().join("b.csv"),
        dir.path().join("c.csv"),
    );
    ok(&sbekit(&[
        "trades",
        "synth",
        "--rows",
        "50000",
        "--seed",
        "3",
        "-o",
        s(&a),
    ]));
    ok(&sbekit(&[
        "trades",
        "synth",
        "--rows",
        "50000",
        "--seed",
        "3",
        "-o",
        s(&b),
    ]));
    ok(&sbekit(&[
        "trades",
        "synth",
        "--rows",
        "50000",
        "--seed",
        "4",
        "-o",
        s(&c),
    ]));
    let (ta, tb, tc) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(ta, tb, "same seed, same bytes");
    assert_ne!(ta, tc);
    assert!(ta.starts_with(b"time,amount,exch,price,server_time,side,ticker\n"));
    assert_eq!(ta.iter().filter(|&&c| c == b'\n').count(), 50_001);

    let bin = dir.path().join("a.sbe");
    let out = sbekit(&["trades", "convert", s(&a), "-o", s(&bin)]);
    ok(&out);
    let e = stderr(&out);
    assert!(
        e.contains("50000 rows read, 50000 written, 0 skipped"),
        "{e}"
    );
    assert!(e.contains("rows/s") && e.contains("MB/s"), "{e}");
    let v = ok(&sbekit(&["trades", "verify", s(&bin)]));
    assert!(
        v.contains("ok: format 1, schema 7 v0, lossless layout (40 B/record), 50000 records"),
        "{v}"
    );

    let back = dir.path().join("back.csv");
    ok(&sbekit(&[
        "trades",
        "export",
        "--csv",
        s(&bin),
        "-o",
        s(&back),
    ]));
    assert_eq!(
        std::fs::read(&back).unwrap(),
        ta,
        "lossless round trip is exact"
    );

    let pq = dir.path().join("a.parquet");
    let out = sbekit(&["trades", "export", "--parquet", s(&bin), "-o", s(&pq)]);
    ok(&out);
    assert!(
        stderr(&out).contains("export: 50000 rows to"),
        "{}",
        stderr(&out)
    );
    let bytes = std::fs::read(&pq).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    let out = sbekit(&["trades", "export", s(&bin), "-o", s(&pq)]);
    assert_eq!(out.status.code(), Some(2), "a format is required");

    let compact = dir.path().join("a32.sbe");
    ok(&sbekit(&[
        "trades",
        "convert",
        "--layout",
        "compact",
        s(&a),
        "-o",
        s(&compact),
    ]));
    assert_eq!(std::fs::metadata(&compact).unwrap().len(), 64 + 50_000 * 32);
    let v = ok(&sbekit(&["trades", "verify", s(&compact)]));
    assert!(v.contains("compact layout (32 B/record)"), "{v}");
}

#[test]
fn queries_print_csv_and_agree_across_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    ok(&sbekit(&[
        "trades",
        "synth",
        "--rows",
        "60000",
        "--rate",
        "0.5",
        "-o",
        s(&csv),
    ]));
    let bin = dir.path().join("t.sbe");
    ok(&sbekit(&["trades", "convert", s(&csv), "-o", s(&bin)]));

    let out = sbekit(&["trades", "query", "easy", s(&bin)]);
    let easy = ok(&out);
    let e = stderr(&out);
    assert!(
        e.contains("60000 rows in") && e.contains("M rows/s") && e.contains("peak RSS"),
        "{e}"
    );
    let lines: Vec<&str> = easy.lines().collect();
    assert_eq!(lines[0], "hour,ratio");
    let hours: Vec<u64> = lines[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        hours.windows(2).all(|w| w[1] == w[0] + 3_600_000_000_000),
        "no gaps"
    );
    for l in &lines[1..] {
        let r: f64 = l.split(',').nth(1).unwrap().parse().unwrap();
        assert!(r.is_nan() || (0.99..1.01).contains(&r), "{l}");
    }
    assert_eq!(
        ok(&sbekit(&["trades", "query", "easy", "--csv", s(&csv)])),
        easy
    );
    assert_eq!(
        ok(&sbekit(&[
            "trades",
            "query",
            "easy",
            "--kernel",
            "branchy",
            s(&bin)
        ])),
        easy
    );

    let hard = ok(&sbekit(&["trades", "query", "hard", s(&bin)]));
    assert!(hard.starts_with("time,ratio_5m,ratio_15m,ratio_60m\n"));
    let rows = hard.lines().count() - 1;
    assert!(rows > 10_000, "{rows}");
    assert!(hard.contains("NaN"), "outages give empty windows");
    assert_eq!(
        ok(&sbekit(&["trades", "query", "hard", "--csv", s(&csv)])),
        hard
    );
    let threaded = ok(&sbekit(&[
        "trades",
        "query",
        "hard",
        "--threads",
        "2",
        s(&bin),
    ]));
    assert_eq!(threaded.lines().count(), hard.lines().count());

    let stats = ok(&sbekit(&["trades", "stats", s(&bin)]));
    assert!(stats.starts_with("exch,ticker,rows\n"));
    let total: u64 = stats
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 60_000);
    assert!(stats.contains("bmex,btc_usd,") && stats.contains("gdax,btc_usd,"));

    let base = ok(&sbekit(&["trades", "baseline", s(&bin)]));
    assert!(base.trim().parse::<u64>().is_ok());
}

#[test]
fn bad_input_gives_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    std::fs::write(
        &csv,
        "time,amount,exch,price,server_time,side,ticker\n\
         1,1,gdax,10,0,na,btc_usd\n\
         2,1,gdax,ten,0,na,btc_usd\n\
         3,1,gdax,10,0,na,btc_usd\n",
    )
    .unwrap();
    let out_path = dir.path().join("bad.sbe");
    let out = sbekit(&["trades", "convert", s(&csv), "-o", s(&out_path)]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("bad.csv: line 3: price: 'ten' is not a number"),
        "{e}"
    );
    assert!(!out_path.exists());

    let out = sbekit(&[
        "trades",
        "convert",
        "--skip-invalid",
        s(&csv),
        "-o",
        s(&out_path),
    ]);
    ok(&out);
    let e = stderr(&out);
    assert!(e.contains("3 rows read, 2 written, 1 skipped"), "{e}");
    assert!(
        e.contains("skipped") && e.contains("line 3: price: 'ten' is not a number"),
        "{e}"
    );

    // Wrong magic, truncation, corruption.
    let out = sbekit(&["trades", "verify", s(&csv)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not an sbekit trade file"));
    let mut bytes = std::fs::read(&out_path).unwrap();
    bytes.truncate(bytes.len() - 1);
    std::fs::write(&out_path, &bytes).unwrap();
    let out = sbekit(&["trades", "query", "easy", s(&out_path)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_crashed_conversion_leaves_nothing_verify_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    ok(&sbekit(&[
        "trades",
        "synth",
        "--rows",
        "200000",
        "-o",
        s(&csv),
    ]));
    let out_path = dir.path().join("t.sbe");
    let out = sbekit(&[
        "trades",
        "convert",
        s(&csv),
        "-o",
        s(&out_path),
        "--crash-after-rows",
        "100000",
    ]);
    assert!(!out.status.success(), "the process was aborted");
    assert!(!out_path.exists(), "nothing at the output path");
    let partial: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert_eq!(partial.len(), 1, "the crash left its temporary file");
    assert!(
        std::fs::metadata(&partial[0]).unwrap().len() > 64,
        "with records in it"
    );
    let v = sbekit(&["trades", "verify", s(&partial[0])]);
    assert_eq!(v.status.code(), Some(1));
    assert!(
        stderr(&v).contains("incomplete trade file: the header was never written"),
        "{}",
        stderr(&v)
    );
    let v = sbekit(&["trades", "verify", s(&out_path)]);
    assert_eq!(v.status.code(), Some(1));
    // A rerun succeeds next to the leftover.
    ok(&sbekit(&["trades", "convert", s(&csv), "-o", s(&out_path)]));
    ok(&sbekit(&["trades", "verify", s(&out_path)]));
}
