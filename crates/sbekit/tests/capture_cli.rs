//! End-to-end tests of `sbekit capture synth | stats | decode` through the built binary, on
//! synthetic captures of the committed CME schema copy, and on the real captures of
//! `../shared/data/omi` when present.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sbekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(args)
        .output()
        .expect("run sbekit")
}

fn cme_schema() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-feed/tests/schemas/Cme.Futures.Mdp3.Sbe.v1.12.xml")
        .display()
        .to_string()
}

fn ok(out: &Output) -> &Output {
    assert!(
        out.status.success(),
        "status {:?}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// `capture export -p cme-mdp3 ... --to parquet out_dir capture` with `extra` flags.
fn export_cme(capture: &Path, out_dir: &Path, extra: &[&str]) -> Output {
    let schema = cme_schema();
    let mut args = vec![
        "capture",
        "export",
        "-p",
        "cme-mdp3",
        "-s",
        &schema,
        "--to",
        "parquet",
        out_dir.to_str().unwrap(),
        capture.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    sbekit(&args)
}

fn synth(dir: &Path, name: &str, profile: &str, extra: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let schema = cme_schema();
    let mut args = vec![
        "capture",
        "synth",
        "-p",
        profile,
        "-s",
        &schema,
        "-o",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&sbekit(&args));
    path
}

/// The TCP payloads of a pcap-ng capture as `sbekit capture synth` writes it (one section, one
/// interface, enhanced packet blocks of Ethernet + IPv4 + TCP without options), concatenated:
/// parsed here by hand, independently of the readers under test.
fn tcp_payloads(capture: &[u8]) -> Vec<u8> {
    let le = |at: usize| u32::from_le_bytes(capture[at..at + 4].try_into().unwrap()) as usize;
    let mut pos = le(4); // after the section header
    pos += le(pos + 4); // after the interface description
    let mut out = Vec::new();
    while pos < capture.len() {
        let len = le(pos + 4);
        let cap = le(pos + 20);
        let frame = &capture[pos + 28..pos + 28 + cap];
        out.extend_from_slice(&frame[14 + 20 + 20..]);
        pos += len;
    }
    out
}

#[test]
fn decode_prints_what_sbekit_decode_prints_plus_the_packet_columns() {
    let dir = tempfile::tempdir().unwrap();
    // A SOFH stream over TCP: its bytes are exactly what `sbekit decode --framing sofh` reads.
    let cap = synth(
        dir.path(),
        "s.pcapng",
        "sofh",
        &["--messages", "300", "--seed", "5"],
    );
    let schema = cme_schema();
    let out = sbekit(&[
        "capture",
        "decode",
        "-p",
        "sofh",
        "-s",
        &schema,
        cap.to_str().unwrap(),
    ]);
    ok(&out);
    let stream = dir.path().join("stream.sofh");
    std::fs::write(&stream, tcp_payloads(&std::fs::read(&cap).unwrap())).unwrap();
    let plain = sbekit(&[
        "decode",
        "-s",
        &schema,
        "--framing",
        "sofh",
        stream.to_str().unwrap(),
    ]);
    ok(&plain);
    let ours: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let theirs: Vec<Value> = String::from_utf8(plain.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ours.len(), 300);
    assert_eq!(ours.len(), theirs.len());
    for (i, (mut o, t)) in ours.into_iter().zip(theirs).enumerate() {
        let obj = o.as_object_mut().unwrap();
        for col in [
            "_capture_time",
            "_channel",
            "_seq",
            "_sending_time",
            "_msg_index",
        ] {
            assert!(obj.remove(col).is_some(), "message {i}: no {col}");
        }
        assert_eq!(o, t, "message {i}");
    }
}

#[test]
fn packet_columns_and_stats_of_a_udp_capture_with_gaps_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let cap = synth(
        dir.path(),
        "a.pcapng",
        "cme-mdp3",
        &["--messages", "500", "--drop", "4,10,11", "--duplicate", "7"],
    );
    let schema = cme_schema();
    let cap_s = cap.to_str().unwrap();
    let out = sbekit(&[
        "capture", "stats", "--json", "-p", "cme-mdp3", "-s", &schema, cap_s,
    ]);
    let s = json(ok(&out));
    assert_eq!(s["gaps"], 2);
    assert_eq!(s["missing"], 3);
    assert_eq!(s["duplicates"], 1);
    assert_eq!(s["bad_count"], 0);
    let out = sbekit(&["capture", "decode", "-p", "cme-mdp3", "-s", &schema, cap_s]);
    let lines: Vec<Value> = String::from_utf8(ok(&out).stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, s["messages"].as_u64().unwrap());
    // Sequence numbers are the packets', in order, with the dropped ones absent.
    let seqs: Vec<u64> = lines.iter().map(|l| l["_seq"].as_u64().unwrap()).collect();
    assert!(seqs.iter().all(|q| ![4, 10, 11].contains(q)));
    assert_eq!(lines[0]["_channel"], "239.1.1.1:20001");
    assert_eq!(lines[0]["_msg_index"], 0);
    assert!(
        lines[0]["_sending_time"].as_i64().unwrap() < lines[0]["_capture_time"].as_i64().unwrap()
    );
}

#[test]
fn arbitrate_merges_two_sides_and_names_what_neither_had() {
    let dir = tempfile::tempdir().unwrap();
    let a = synth(
        dir.path(),
        "a.pcapng",
        "b3-umdf",
        &["--messages", "400", "--drop", "3,5,6"],
    );
    let b = synth(
        dir.path(),
        "b.pcapng",
        "b3-umdf",
        &[
            "--messages",
            "400",
            "--drop",
            "5,9",
            "--channel",
            "239.1.2.1:20001",
        ],
    );
    let schema = cme_schema();
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = sbekit(&[
        "capture",
        "stats",
        "--json",
        "--arbitrate",
        "-p",
        "b3-umdf",
        "-s",
        &schema,
        a_s,
        b_s,
    ]);
    let s = json(ok(&out));
    assert_eq!(s["arbitration"]["unfilled"], serde_json::json!([[5, 5]]));
    assert_eq!(s["arbitration"]["unfilled_count"], 1);
    // B filled 3 and 6 (A had everything else first).
    assert_eq!(s["arbitration"]["from_side"][1], 2);
    let all = synth(
        dir.path(),
        "c.pcapng",
        "b3-umdf",
        &["--messages", "400", "--drop", "5"],
    );
    let out = sbekit(&[
        "capture",
        "stats",
        "--json",
        "-p",
        "b3-umdf",
        "-s",
        &schema,
        all.to_str().unwrap(),
    ]);
    assert_eq!(s["messages"], json(ok(&out))["messages"]);
}

#[test]
fn bad_packets_are_located_and_strict_fails() {
    let dir = tempfile::tempdir().unwrap();
    let cap = synth(dir.path(), "a.pcapng", "cme-mdp3", &["--messages", "200"]);
    let mut bytes = std::fs::read(&cap).unwrap();
    // Cut the last packet block short: the container error is located, what precedes is kept.
    bytes.truncate(bytes.len() - 10);
    let schema = cme_schema();
    let bad = dir.path().join("bad.pcapng");
    std::fs::write(&bad, &bytes).unwrap();
    let args = [
        "capture",
        "stats",
        "--json",
        "-p",
        "cme-mdp3",
        "-s",
        &schema,
        bad.to_str().unwrap(),
    ];
    let out = sbekit(&args);
    let s = json(ok(&out));
    assert!(s["bad_count"].as_u64().unwrap() >= 1);
    assert!(
        s["messages"].as_u64().unwrap() > 100,
        "nothing before the bad packet is lost"
    );
    let first = &s["bad"][0];
    assert!(first["packet"].as_u64().is_some() && first["offset"].as_u64().unwrap() > 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("packet ") && stderr.contains("(byte "),
        "{stderr}"
    );
    let mut strict: Vec<&str> = args.to_vec();
    strict.push("--strict");
    assert_eq!(sbekit(&strict).status.code(), Some(1));
}

#[test]
fn custom_profile_from_flags_and_toml() {
    let dir = tempfile::tempdir().unwrap();
    let cap = synth(dir.path(), "a.pcapng", "b3-umdf", &["--messages", "100"]);
    let schema = cme_schema();
    let cap_s = cap.to_str().unwrap();
    let flags = [
        "capture",
        "stats",
        "--json",
        "-p",
        "custom",
        "--define",
        "header_size=16",
        "--define",
        "seq=4:4",
        "--define",
        "time=8:8",
        "--define",
        "before_sbe=4",
        "-s",
        &schema,
        cap_s,
    ];
    let s = json(ok(&sbekit(&flags)));
    assert_eq!(s["messages"], 100);
    assert_eq!(s["bad_count"], 0);
    let toml = dir.path().join("b3.toml");
    std::fs::write(
        &toml,
        "header_size = 16\nseq = { offset = 4, width = 4 }\ntime = { offset = 8, width = 8 }\nbefore_sbe = 4\n",
    )
    .unwrap();
    let s2 = json(ok(&sbekit(&[
        "capture",
        "stats",
        "--json",
        "-p",
        toml.to_str().unwrap(),
        "-s",
        &schema,
        cap_s,
    ])));
    assert_eq!(s2["messages"], 100);
    assert_eq!(s2["channels"], s["channels"]);
    let out = sbekit(&["capture", "stats", "-p", "nope", "-s", &schema, cap_s]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn real_cme_tcp_recovery_reports_the_other_schema_and_goes_on() {
    let test = "real_cme_tcp_recovery_reports_the_other_schema_and_goes_on";
    let Some(cap) =
        sbekit_testdata::require("data/omi/Cme/Mdp3.Sbe.v1.12/RequestAck.Tcp.pcap", test)
    else {
        return;
    };
    let Some(schema) = sbekit_testdata::require("schemas/omi/Cme.Futures.Mdp3.Sbe.v1.12.xml", test)
    else {
        return;
    };
    let args = [
        "capture",
        "stats",
        "--json",
        "-p",
        "cme-mdp3",
        "-s",
        schema.to_str().unwrap(),
        cap.to_str().unwrap(),
    ];
    let s = json(ok(&sbekit(&args)));
    assert_eq!(
        s["unknown"],
        serde_json::json!([{"schema_id": 2, "template_id": 206, "version": 0, "messages": 1}])
    );
    let mut strict = args.to_vec();
    strict.push("--strict");
    assert_eq!(sbekit(&strict).status.code(), Some(1));
}

/// The Python with DuckDB: `$SBEKIT_PYTHON`, else `.venv-ci/bin/python` at the repository root
/// (as `crates/sbekit-arrow/tests/engines.rs` finds it). Without it: skipped loudly, or a
/// failure under `CI=true`.
fn duckdb_python(test: &str) -> Option<PathBuf> {
    let p = std::env::var_os("SBEKIT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv-ci/bin/python"));
    let ok = Command::new(&p)
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(p);
    }
    sbekit_testdata::skip(
        test,
        format_args!(
            "no Python with duckdb at {} (run .ci/run's venv step or set SBEKIT_PYTHON)",
            p.display()
        ),
    );
    None
}

/// Tables (`type` partitions) whose rows DuckDB reads differently under `a` and `b`, every
/// column and value compared (`EXCEPT ALL` both ways).
fn duckdb_differing(py: &Path, a: &Path, b: &Path) -> u64 {
    let script = "import duckdb, sys, glob, os\n\
        def types(d):\n\
        \x20   return {os.path.basename(os.path.dirname(p)) for p in glob.glob(d + '/**/*.parquet', recursive=True)}\n\
        a, b = sys.argv[1], sys.argv[2]\n\
        ts = types(a)\n\
        bad = len(ts ^ types(b))\n\
        for t in ts:\n\
        \x20   x, y = (f\"read_parquet('{d}/**/{t}/*.parquet')\" for d in (a, b))\n\
        \x20   q = lambda x, y: duckdb.sql(f'SELECT count(*) FROM (SELECT * FROM {x} EXCEPT ALL SELECT * FROM {y})').fetchall()[0][0]\n\
        \x20   bad += (q(x, y) + q(y, x)) > 0\n\
        print(bad)";
    let out = run_python(py, script, &[a, b]);
    String::from_utf8_lossy(&out).trim().parse().unwrap()
}

/// What `script` prints, given `args`; it must succeed.
fn run_python(py: &Path, script: &str, args: &[&Path]) -> Vec<u8> {
    let out = Command::new(py)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Rows per `type` partition under `dir`, as DuckDB reads them.
fn duckdb_counts(py: &Path, dir: &Path) -> Value {
    let script = "import duckdb, json, sys\n\
        rows = duckdb.sql(\"SELECT type, count(*) FROM read_parquet(\" + repr(sys.argv[1] + '/**/*.parquet') + \", hive_partitioning=true, union_by_name=true) GROUP BY type\").fetchall()\n\
        print(json.dumps({t: n for t, n in rows}))";
    serde_json::from_slice(&run_python(py, script, &[dir])).unwrap()
}

/// Messages per template name, as `capture stats --json` counts them.
fn stats_counts(s: &Value) -> Value {
    let t = s["templates"].as_object().unwrap();
    Value::Object(
        t.iter()
            .map(|(k, v)| (k.clone(), v["messages"].clone()))
            .collect(),
    )
}

#[test]
fn export_writes_partitioned_parquet_with_decimals_that_duckdb_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let cap = synth(
        dir.path(),
        "a.pcapng",
        "cme-mdp3",
        &["--messages", "3000", "--seed", "3"],
    );
    let schema = cme_schema();
    let cap_s = cap.to_str().unwrap();
    let out_dir = dir.path().join("out");
    ok(&export_cme(&cap, &out_dir, &[]));
    let s = json(ok(&sbekit(&[
        "capture", "stats", "--json", "-p", "cme-mdp3", "-s", &schema, cap_s,
    ])));
    // Hive partitions by date and channel.
    let part = out_dir.join("date=2026-01-02/channel=239.1.1.1_20001");
    assert!(part.is_dir(), "{}", part.display());
    // Every table's rows, read back with the parquet crate, equal the stats' counts; the
    // price composites are decimals.
    let mut total = 0;
    let mut decimals = 0;
    for entry in std::fs::read_dir(&part).unwrap() {
        let entry = entry.unwrap();
        let name = entry
            .file_name()
            .to_string_lossy()
            .trim_start_matches("type=")
            .to_string();
        let file = std::fs::File::open(entry.path().join("part-00000.parquet")).unwrap();
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        use parquet::file::reader::FileReader;
        let rows = reader.metadata().file_metadata().num_rows() as u64;
        assert_eq!(
            rows,
            s["templates"][&name]["messages"].as_u64().unwrap(),
            "{name}"
        );
        total += rows;
        let schema = reader.metadata().file_metadata().schema_descr();
        decimals += schema
            .columns()
            .iter()
            .filter(|c| {
                c.converted_type() == parquet::basic::ConvertedType::DECIMAL && c.type_scale() == 9
            })
            .count();
        let cols: Vec<String> = schema
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        for col in [
            "_capture_time",
            "_channel",
            "_seq",
            "_sending_time",
            "_msg_index",
        ] {
            assert!(cols.iter().any(|c| c == col), "{name}: no {col}");
        }
    }
    assert_eq!(total, 3000);
    assert!(
        decimals > 10,
        "PRICE9 / PRICENULL9 composites as Decimal128(38, 9)"
    );
    if let Some(py) =
        duckdb_python("export_writes_partitioned_parquet_with_decimals_that_duckdb_reads_back")
    {
        assert_eq!(duckdb_counts(&py, &out_dir), stats_counts(&s));
    }
}

#[test]
fn real_captures_export_and_duckdb_reads_back_the_same_counts() {
    let test = "real_captures_export_and_duckdb_reads_back_the_same_counts";
    let files = [
        (
            "Cme/Mdp3.Sbe.v1.5/MdIncrementalRefreshSessionStatistics.pcap",
            "cme-mdp3",
            "Cme.Futures.Mdp3.Sbe.v1.5.xml",
        ),
        (
            "Cme/Mdp3.Sbe.v1.5/MdInstrumentDefinitionSpread.pcap",
            "cme-mdp3",
            "Cme.Futures.Mdp3.Sbe.v1.5.xml",
        ),
        (
            "Cme/Mdp3.Sbe.v1.12/SnapshotFullRefreshTcpLongQty.Tcp.pcap",
            "cme-mdp3",
            "Cme.Futures.Mdp3.Sbe.v1.12.xml",
        ),
        (
            "Cme/iLink3.Sbe.8.5/QuoteCancel.pcap",
            "sofh-le",
            "Cme.Futures.iLink3.Sbe.v8.5.xml",
        ),
        (
            "B3/BinaryUmdf.v1.5/PriceBand.pcap",
            "b3-umdf",
            "B3.Equities.BinaryUmdf.Sbe.v1.6.xml",
        ),
        (
            "B3/BinaryEntryPoint.v8.1/ExecutionReportTradeMessage.pcap",
            "sofh-le",
            "B3.Equities.BinaryEntryPoint.Sbe.v8.1.xml",
        ),
        (
            "Coinbase/MarketDataApi.v1.2/OrderSnapshotMessage.pcap",
            "coinbase-derivatives",
            "Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml",
        ),
    ];
    let Some(py) = duckdb_python(test) else {
        return;
    };
    for (file, profile, schema) in files {
        let Some(cap) = sbekit_testdata::require(&format!("data/omi/{file}"), test) else {
            return;
        };
        let Some(schema) = sbekit_testdata::require(&format!("schemas/omi/{schema}"), test) else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let (cap_s, schema_s) = (cap.to_str().unwrap(), schema.to_str().unwrap());
        let s = json(ok(&sbekit(&[
            "capture", "stats", "--json", "-p", profile, "-s", schema_s, cap_s,
        ])));
        assert!(s["messages"].as_u64().unwrap() > 0, "{file}");
        ok(&sbekit(&[
            "capture",
            "export",
            "-p",
            profile,
            "-s",
            schema_s,
            "--to",
            "parquet",
            dir.path().to_str().unwrap(),
            cap_s,
        ]));
        assert_eq!(duckdb_counts(&py, dir.path()), stats_counts(&s), "{file}");
    }
}

/// Every table under `dir` read back with the parquet crate, by its `type=` partition: one
/// Arrow batch per file, in file order (the settings cut row groups and files differently).
fn parquet_tables(dir: &Path) -> std::collections::BTreeMap<String, Vec<arrow_array::RecordBatch>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let part = dir.join("date=2026-01-02/channel=239.1.1.1_20001");
    let mut out = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&part).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().to_string();
        let mut files: Vec<PathBuf> = std::fs::read_dir(entry.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let mut batches = Vec::new();
        for f in files {
            let file = std::fs::File::open(&f).unwrap();
            let mut b: Vec<_> = ParquetRecordBatchReaderBuilder::try_new(file)
                .unwrap()
                .with_batch_size(1 << 30)
                .build()
                .unwrap()
                .map(|b| b.unwrap())
                .collect();
            assert_eq!(b.len(), 1, "{}", f.display());
            batches.push(b.remove(0));
        }
        out.insert(name, batches);
    }
    out
}

/// Asserts that `a` and `b` hold the same rows in the same order, however cut into batches.
fn assert_same_rows(a: &[arrow_array::RecordBatch], b: &[arrow_array::RecordBatch], what: &str) {
    let (mut i, mut at_a, mut j, mut at_b) = (0, 0, 0, 0);
    loop {
        while i < a.len() && at_a == a[i].num_rows() {
            (i, at_a) = (i + 1, 0);
        }
        while j < b.len() && at_b == b[j].num_rows() {
            (j, at_b) = (j + 1, 0);
        }
        if i == a.len() || j == b.len() {
            assert!(i == a.len() && j == b.len(), "{what}: row counts differ");
            return;
        }
        let n = (a[i].num_rows() - at_a).min(b[j].num_rows() - at_b);
        assert_eq!(a[i].slice(at_a, n), b[j].slice(at_b, n), "{what}");
        at_a += n;
        at_b += n;
    }
}

#[test]
fn writer_settings_change_the_files_not_the_values() {
    // Random and realistic captures; every setting must read back the same rows, value for
    // value, as the default (and DuckDB must count what `capture stats` counts).
    let dir = tempfile::tempdir().unwrap();
    let schema = cme_schema();
    for (name, extra) in [
        ("random.pcapng", vec!["--messages", "4000", "--seed", "5"]),
        (
            "market.pcapng",
            vec!["--messages", "6000", "--seed", "6", "--realistic"],
        ),
    ] {
        let cap = synth(dir.path(), name, "cme-mdp3", &extra);
        let cap_s = cap.to_str().unwrap();
        let s = json(ok(&sbekit(&[
            "capture", "stats", "--json", "-p", "cme-mdp3", "-s", &schema, cap_s,
        ])));
        let mut reference = None;
        for (k, settings) in [
            vec![],
            vec!["--dictionary", "on", "--threads", "1"],
            vec!["--dictionary", "off", "--compression", "none"],
            // A budget this small flushes row groups after nearly every batch.
            vec!["--writer-memory", "1", "--batch-rows", "256"],
            // And this one also completes files early (several files per table).
            vec!["--memory", "8", "--batch-rows", "256", "--threads", "1"],
            vec!["--row-group-rows", "100", "--threads", "2"],
            // arrow-rs's writer instead of sbekit's.
            vec!["--parquet-writer", "arrow", "--threads", "1"],
            vec!["--parquet-writer", "arrow", "--dictionary", "off"],
        ]
        .into_iter()
        .enumerate()
        {
            let out_dir = dir.path().join(format!("{name}.{k}"));
            ok(&export_cme(&cap, &out_dir, &settings));
            let tables = parquet_tables(&out_dir);
            let rows: u64 = tables.values().flatten().map(|b| b.num_rows() as u64).sum();
            assert_eq!(rows, s["messages"].as_u64().unwrap(), "{name} {settings:?}");
            match &reference {
                None => reference = Some(tables),
                Some(want) => {
                    assert_eq!(
                        want.keys().collect::<Vec<_>>(),
                        tables.keys().collect::<Vec<_>>()
                    );
                    for (t, b) in &tables {
                        assert_same_rows(&want[t], b, &format!("{name} {settings:?}: {t}"));
                    }
                }
            }
            if let Some(py) = duckdb_python("writer_settings_change_the_files_not_the_values") {
                assert_eq!(
                    duckdb_counts(&py, &out_dir),
                    stats_counts(&s),
                    "{settings:?}"
                );
                if k > 0 {
                    let first = dir.path().join(format!("{name}.0"));
                    assert_eq!(duckdb_differing(&py, &first, &out_dir), 0, "{settings:?}");
                }
            }
        }
    }
}

#[test]
fn realistic_synth_repeats_instruments_and_favours_book_updates() {
    let dir = tempfile::tempdir().unwrap();
    let schema = cme_schema();
    let cap = synth(
        dir.path(),
        "m.pcapng",
        "cme-mdp3",
        &["--messages", "5000", "--realistic", "--instruments", "7"],
    );
    let cap_s = cap.to_str().unwrap();
    let s = json(ok(&sbekit(&[
        "capture", "stats", "--json", "-p", "cme-mdp3", "-s", &schema, cap_s,
    ])));
    let n = |t: &str| s["templates"][t]["messages"].as_u64().unwrap_or(0);
    assert!(
        n("MDIncrementalRefreshBook46") > 1500,
        "book updates lead: {}",
        s["templates"]
    );
    assert!(n("MDIncrementalRefreshBook46") > 10 * n("MDInstrumentDefinitionFuture54"));
    // The same seed gives the same bytes.
    let again = synth(
        dir.path(),
        "m2.pcapng",
        "cme-mdp3",
        &["--messages", "5000", "--realistic", "--instruments", "7"],
    );
    assert_eq!(std::fs::read(&cap).unwrap(), std::fs::read(&again).unwrap());
    // Book entries name one of the 7 instruments and are priced on the 0.25 grid.
    let out = sbekit(&["capture", "decode", "-p", "cme-mdp3", "-s", &schema, cap_s]);
    ok(&out);
    let mut ids = std::collections::BTreeSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(entries) = v["NoMDEntries"].as_array() else {
            continue;
        };
        for e in entries {
            if let Some(id) = e["SecurityID"].as_i64() {
                ids.insert(id);
            }
            if let Some(m) = e["MDEntryPx"]["mantissa"].as_i64() {
                assert_eq!(m % 250_000_000, 0, "{line}");
            }
        }
    }
    assert!(!ids.is_empty() && ids.len() <= 7, "{ids:?}");
}

/// The peak resident set in MiB that `capture export` reports on stderr (`peak RSS N MiB`);
/// `None` where the process cannot read it (not Linux).
fn reported_peak_rss(out: &Output) -> Option<u64> {
    let err = String::from_utf8_lossy(&out.stderr);
    let at = err.rfind("peak RSS ")? + "peak RSS ".len();
    err[at..].split_whitespace().next()?.parse().ok()
}

#[test]
fn export_memory_does_not_grow_with_the_capture() {
    // A small budget and small batches (many row groups, many files, the capture's pages let
    // go a little behind the reader) on a capture and on one four times its size: the peak
    // resident set must stay put. Before the budget covered the staged rows of all tables,
    // the writer's per-chunk metadata and the capture's pages, it rose with the capture
    // (21 to 39 MiB from 25,000 to 100,000 messages).
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in ["20000", "80000"] {
        let cap = synth(
            dir.path(),
            &format!("m{n}.pcapng"),
            "cme-mdp3",
            &["--messages", n, "--max-per-packet", "8", "--realistic"],
        );
        let out_dir = dir.path().join(format!("out{n}"));
        let small = ["--memory", "8", "--batch-rows", "256", "--threads", "1"];
        let out = export_cme(&cap, &out_dir, &small);
        ok(&out);
        let Some(peak) = reported_peak_rss(&out) else {
            eprintln!("skipped: no peak RSS reported on this platform");
            return;
        };
        peaks.push(peak);
    }
    assert!(peaks[1] <= peaks[0] + 8, "peak RSS in MiB: {peaks:?}");
}
