//! The engines agree: DuckDB and Polars (from PyPI, in the virtualenv `.ci/run` creates) read
//! the Parquet sbekit writes, and their counts, sums, min/max and group sizes equal sbekit's own
//! figures for the same input.
//!
//! The Python interpreter is `$SBEKIT_PYTHON`, else `.venv-ci/bin/python` at the
//! repository root. Without it the tests are skipped loudly; under `CI=true` they fail.

use sbekit_arrow::sbe::{export_stream, StreamOptions};
use sbekit_arrow::sink::{PartitionedWriter, SinkOptions};
use sbekit_arrow::{Options, SbeColumns};
use sbekit_iex::synth::{generate, SynthConfig};
use sbekit_iex::{Capture, Message, ReadOptions};
use sbekit_otf::framing::Framing;
use sbekit_otf::random::{random_message, Options as RandomOptions, Rng};
use sbekit_otf::{message_to_json, Decoder};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Per symbol: trades, volume, min and max raw price.
type SymbolAgg = BTreeMap<String, (u64, u64, i64, i64)>;
/// Per message: rows, integer field sums, group entry totals.
type Figures = BTreeMap<String, (u64, BTreeMap<String, i128>, BTreeMap<String, u64>)>;

fn python(test: &str) -> Option<PathBuf> {
    let p = std::env::var_os("SBEKIT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv-ci/bin/python"));
    let ok = Command::new(&p)
        .args(["-c", "import duckdb, polars"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(p);
    }
    sbekit_testdata::skip(
        test,
        format_args!(
            "no Python with duckdb and polars at {} (run .ci/run's venv step, which installs \
             them, or set SBEKIT_PYTHON)",
            p.display()
        ),
    );
    None
}

/// Runs `script` with `arg` (JSON) as `ARG`; the script sets `OUT`, returned as JSON.
fn run_py(py: &Path, script: &str, arg: &Value) -> Value {
    let full = format!(
        "import json, sys, duckdb, polars as pl\nARG = json.loads(sys.argv[1])\n{script}\nprint(json.dumps(OUT, default=str))\n"
    );
    let out = Command::new(py)
        .args(["-c", &full, &arg.to_string()])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("python prints JSON")
}

fn export_iex(files: &[&Path], dir: &Path) -> BTreeMap<String, u64> {
    let mut out = PartitionedWriter::new(dir, SinkOptions::default()).unwrap();
    for f in files {
        let r = sbekit_arrow::iex::export_capture(
            f,
            ReadOptions::default(),
            10_000,
            &mut out,
            &mut |_| {},
        )
        .unwrap();
        assert!(
            r.error.is_none() || f.to_string_lossy().contains("DEEP10"),
            "{:?}",
            r.error
        );
        out.close_all().unwrap();
    }
    out.finish().unwrap().0
}

const COUNT_BY_TYPE: &str = r#"
glob = ARG["dir"] + "/**/*.parquet"
d = duckdb.sql(f"SELECT type, count(*) AS n, min(timestamp)::VARCHAR, epoch_ns(min(timestamp)), epoch_ns(max(timestamp)) FROM read_parquet('{glob}', hive_partitioning=true, union_by_name=true) GROUP BY type ORDER BY type").fetchall()
import glob as g
pc = {}
for f in g.glob(ARG["dir"] + "/*/type=*"):
    t = f.rsplit("type=", 1)[1]
    pc[t] = pc.get(t, 0) + pl.scan_parquet(f + "/*.parquet").select(pl.len()).collect().item()
OUT = {"duckdb": {r[0]: r[1] for r in d}, "polars": pc,
       "min_ts": min(r[3] for r in d), "max_ts": max(r[4] for r in d)}
"#;

#[test]
fn real_iex_captures_match_iex_stats() {
    let Some(py) = python("real_iex_captures_match_iex_stats") else {
        return;
    };
    for rel in [
        "data/iex/go-iex/TOPS16.pcapng.gz",
        "data/iex/deterministic-feed-recovery/20170826-iex-deep.pcap.gz",
        "data/iex/sai271828-iex-parser/test.pcap.gz",
        "data/iex/go-iex/DEEP10.pcap.gz",
    ] {
        let Some(path) = sbekit_testdata::require(rel, "real_iex_captures_match_iex_stats") else {
            return;
        };
        let stats = sbekit_iex::report::stats_file(&path, ReadOptions::default(), &mut |_, _| {})
            .unwrap()
            .stats;
        let mut expected: BTreeMap<String, u64> = BTreeMap::new();
        for (t, &n) in stats.by_type.iter().enumerate() {
            if n > 0 {
                *expected
                    .entry(sbekit_arrow::iex::table_of(t as u8).to_string())
                    .or_default() += n;
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let written = export_iex(&[&path], dir.path());
        assert_eq!(written, expected, "{rel}: rows written");
        let got = run_py(&py, COUNT_BY_TYPE, &json!({"dir": dir.path()}));
        let want = serde_json::to_value(&expected).unwrap();
        assert_eq!(got["duckdb"], want, "{rel}: DuckDB counts");
        assert_eq!(got["polars"], want, "{rel}: Polars counts");
        let (lo, hi) = stats.event_time.unwrap();
        assert_eq!(got["min_ts"], json!(lo), "{rel}: earliest event");
        assert_eq!(got["max_ts"], json!(hi), "{rel}: latest event");
    }
}

/// Per-symbol trade count, volume, min and max price (raw, 4 decimals), from sbekit's reader.
fn trade_aggregates(bytes: Vec<u8>) -> SymbolAgg {
    let mut agg: SymbolAgg = BTreeMap::new();
    for m in Capture::from_vec(bytes)
        .messages(ReadOptions::default())
        .unwrap()
    {
        if let Message::TradeReport(t) = m.unwrap() {
            let e = agg
                .entry(t.symbol().as_str().trim_end().to_string())
                .or_insert((0, 0, i64::MAX, i64::MIN));
            e.0 += 1;
            e.1 += u64::from(t.size());
            e.2 = e.2.min(t.price().raw());
            e.3 = e.3.max(t.price().raw());
        }
    }
    agg
}

#[test]
fn two_synthetic_days_are_one_partitioned_table() {
    let Some(py) = python("two_synthetic_days_are_one_partitioned_table") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    let mut expected: BTreeMap<String, SymbolAgg> = BTreeMap::new();
    for (i, date) in [(2017, 4, 25), (2017, 4, 26)].into_iter().enumerate() {
        let cfg = SynthConfig {
            seed: 11 + i as u64,
            messages: 60_000,
            date,
            ..SynthConfig::default()
        };
        let mut bytes = Vec::new();
        generate(&cfg, &mut bytes).unwrap();
        let p = dir.path().join(format!("day{i}.pcapng"));
        std::fs::write(&p, &bytes).unwrap();
        paths.push(p);
        expected.insert(
            format!("{:04}-{:02}-{:02}", date.0, date.1, date.2),
            trade_aggregates(bytes),
        );
    }
    let out = dir.path().join("out");
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    export_iex(&refs, &out);
    let script = r#"
glob = ARG["dir"] + "/*/type=trade/*.parquet"
q = f"SELECT date::VARCHAR, symbol, count(*), sum(size)::BIGINT, (min(price) * 10000)::BIGINT, (max(price) * 10000)::BIGINT FROM read_parquet('{glob}', hive_partitioning=true) GROUP BY ALL ORDER BY ALL"
d = duckdb.sql(q).fetchall()
p = (pl.scan_parquet(glob, hive_partitioning=True)
     .group_by("date", "symbol")
     .agg(pl.len().alias("n"), pl.col("size").cast(pl.Int64).sum().alias("v"), (pl.col("price").min() * 10000).cast(pl.Int64).alias("lo"), (pl.col("price").max() * 10000).cast(pl.Int64).alias("hi"))
     .collect().sort("date", "symbol"))
OUT = {"duckdb": [list(r) for r in d], "polars": [[str(r[0])] + list(r[1:]) for r in p.rows()]}
"#;
    let got = run_py(&py, script, &json!({"dir": out}));
    let want: Vec<Value> = expected
        .iter()
        .flat_map(|(date, syms)| {
            syms.iter()
                .map(move |(s, (n, v, lo, hi))| json!([date, s, n, v, lo, hi]))
        })
        .collect();
    assert_eq!(expected.len(), 2);
    assert!(want.len() > 20, "enough symbols traded");
    assert_eq!(got["duckdb"], json!(want), "DuckDB per-symbol aggregates");
    assert_eq!(got["polars"], json!(want), "Polars per-symbol aggregates");
}

/// Per message: count, and for each top-level integer field its sum and for each group the
/// total number of entries, from the JSON `sbekit decode` prints.
fn json_figures(lines: &[Value]) -> Figures {
    let mut out: Figures = BTreeMap::new();
    for (name, obj) in lines
        .iter()
        .map(|l| (l["$name"].as_str().unwrap().to_string(), l))
    {
        let e = out.entry(name).or_default();
        e.0 += 1;
        for (k, v) in obj.as_object().unwrap() {
            if let Some(i) = v.as_i64() {
                *e.1.entry(k.clone()).or_default() += i128::from(i);
            } else if let Some(u) = v.as_u64() {
                *e.1.entry(k.clone()).or_default() += i128::from(u);
            } else if let Some(a) = v.as_array() {
                if a.iter().all(Value::is_object) {
                    *e.2.entry(k.clone()).or_default() += a.len() as u64;
                }
            }
        }
    }
    out
}

#[test]
fn random_messages_of_reference_schemas_match_decode() {
    let Some(py) = python("random_messages_of_reference_schemas_match_decode") else {
        return;
    };
    for name in [
        "car",
        "example-schema",
        "example-extension-schema",
        "fix-message-samples",
    ] {
        let Some(path) = sbekit_testdata::require_reference(
            &format!("derived/sbeir/{name}.sbeir"),
            "random_messages_of_reference_schemas_match_decode",
        ) else {
            return;
        };
        let ir = sbekit_ir::sbeir::decode(&std::fs::read(&path).unwrap()).unwrap();
        let layout = sbekit_ir::layout::Layout::from_ir(&ir).unwrap();
        let decoder = Decoder::from_layout(&layout).unwrap();
        let mut rng = Rng::new(99);
        let mut stream = Vec::new();
        let mut lines = Vec::new();
        for _ in 0..150 {
            for m in &ir.messages {
                let msg = random_message(&ir, m, &mut rng, &RandomOptions::default());
                let (text, _) = message_to_json(&decoder, &msg.bytes, false).unwrap();
                let mut v: Value = serde_json::from_str(&text).unwrap();
                let tid = decoder.read_header(&msg.bytes).unwrap().template_id;
                v["$name"] = json!(decoder.message_by_id(tid).unwrap().name);
                lines.push(v);
                Framing::U32Le
                    .write_prefix(&mut stream, msg.bytes.len(), layout.byte_order)
                    .unwrap();
                stream.extend_from_slice(&msg.bytes);
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let mut out = PartitionedWriter::new(dir.path(), SinkOptions::default()).unwrap();
        let mut cols = SbeColumns::new(
            &layout,
            Options {
                batch_rows: 97,
                ..Options::default()
            },
        );
        let opts = StreamOptions {
            framing: Framing::U32Le,
            max_message: 1 << 20,
            strict_frames: false,
            keep_going: false,
            template: None,
        };
        let r = export_stream(
            &stream[..],
            &decoder,
            &mut cols,
            opts,
            &[],
            &mut out,
            &mut |_| {},
            &mut |e| panic!("{e}"),
        )
        .unwrap();
        assert_eq!(r.decoded as usize, lines.len());
        out.finish().unwrap();
        let mut figures = json_figures(&lines);
        // Only required integer fields on the wire: constants are schema metadata, and an
        // optional field's null value is printed as a number but read as null.
        for (msg, (_, sums, _)) in figures.iter_mut() {
            let m = layout.message_by_name(msg).unwrap();
            sums.retain(|k, _| {
                m.block.fields.iter().any(|f| {
                    &f.name == k
                        && !f.is_constant()
                        && !f.is_optional()
                        && matches!(&f.kind, sbekit_ir::layout::FieldKind::Primitive(p)
                            if p.length == 1 && p.ty != sbekit_ir::PrimitiveType::Char)
                })
            });
        }
        let mut tables = Vec::new();
        for (msg, (n, sums, groups)) in &figures {
            tables.push(json!({"type": msg, "n": n, "sums": sums.keys().collect::<Vec<_>>(), "groups": groups.keys().collect::<Vec<_>>()}));
        }
        let script = r#"
OUT = {}
for t in ARG["tables"]:
    glob = ARG["dir"] + "/type=" + t["type"] + "/*.parquet"
    exprs = ["count(*)"] + [f'sum("{c}")::HUGEINT::VARCHAR' for c in t["sums"]] + [f'sum(len("{g}"))::BIGINT' for g in t["groups"]]
    d = duckdb.sql(f"SELECT {', '.join(exprs)} FROM read_parquet('{glob}')").fetchall()[0]
    df = pl.read_parquet(glob)
    p = [df.height] + [str(df[c].cast(pl.Int128).sum()) for c in t["sums"]] + [int(df[g].list.len().sum()) for g in t["groups"]]
    OUT[t["type"]] = {"duckdb": list(d), "polars": p}
"#;
        let got = run_py(&py, script, &json!({"dir": dir.path(), "tables": tables}));
        for (msg, (n, sums, groups)) in &figures {
            let mut want = vec![json!(n)];
            want.extend(sums.values().map(|s| json!(s.to_string())));
            want.extend(groups.values().map(|g| json!(g)));
            assert_eq!(got[msg]["duckdb"], json!(want), "{name} {msg}: DuckDB");
            assert_eq!(got[msg]["polars"], json!(want), "{name} {msg}: Polars");
        }
    }
}
