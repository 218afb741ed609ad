//! End-to-end tests of the table exports through the built binary: `sbekit decode --to
//! parquet|arrow DIR` on random messages of `schemas/trades.xml` (three templates), and `sbekit iex export`
//! on a synthetic capture (`sbekit iex synth`). Files land under the documented partition
//! paths, no temporary file stays behind, the row summary is on stderr, row counts match the
//! input, and exit statuses follow the CLI policy (0 ok, 1 invalid input, 2 usage/I/O).

use sbekit_otf::random::{random_message, Options, Rng};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sbekit");

fn sbekit(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run sbekit")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/trades.xml")
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// No temporary (`.part-NNNNN.ext.tmp`) or hidden file is left.
fn assert_no_temporaries(dir: &Path) {
    for f in files(dir) {
        let name = f.rsplit('/').next().unwrap();
        assert!(
            !name.starts_with('.') && !name.ends_with(".tmp") && !name.contains("partial"),
            "temporary file left: {f}"
        );
    }
}

fn parquet_rows(path: &Path) -> u64 {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let r = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    r.metadata().file_metadata().num_rows() as u64
}

fn ipc_rows(path: &Path) -> u64 {
    let r = arrow_ipc::reader::StreamReader::try_new(File::open(path).unwrap(), None).unwrap();
    r.map(|b| b.unwrap().num_rows() as u64).sum()
}

/// The per-table lines of the summary on stderr (`  <table> <rows>`), after its header line.
fn summary(err: &str, what: &str) -> BTreeMap<String, u64> {
    let head = format!("sbekit {what}: ");
    let mut lines = err
        .lines()
        .skip_while(|l| !(l.starts_with(&head) && l.contains(" rows in ")));
    lines
        .next()
        .unwrap_or_else(|| panic!("no summary in {err}"));
    lines
        .map_while(|l| {
            let mut w = l.split_whitespace();
            match (w.next(), w.next().and_then(|n| n.parse().ok()), w.next()) {
                (Some(t), Some(n), None) if l.starts_with("  ") => Some((t.to_string(), n)),
                _ => None,
            }
        })
        .collect()
}

/// Two files of random market-data messages back to back; messages per template name.
fn inputs(dir: &Path) -> (Vec<PathBuf>, BTreeMap<String, u64>, BTreeMap<String, u64>) {
    let ir = sbekit_schema::load_ir(&schema()).unwrap();
    let mut rng = Rng::new(0xA77_0014);
    let opts = Options {
        max_group: 3,
        max_data: 16,
        ..Options::default()
    };
    let mut counts = [BTreeMap::new(), BTreeMap::new()];
    let mut paths = Vec::new();
    for (i, n) in [1500usize, 700].into_iter().enumerate() {
        let mut bytes = Vec::new();
        for _ in 0..n {
            let m = &ir.messages[(rng.next_u64() % ir.messages.len() as u64) as usize];
            bytes.extend(random_message(&ir, m, &mut rng, &opts).bytes);
            *counts[i].entry(m[0].name.clone()).or_insert(0u64) += 1;
        }
        let p = dir.join(format!("in{i}.bin"));
        std::fs::write(&p, bytes).unwrap();
        paths.push(p);
    }
    let [a, b] = counts;
    (paths, a, b)
}

fn decode_to(format: &str, ext: &str, rows: fn(&Path) -> u64) {
    let tmp = tempfile::tempdir().unwrap();
    let (paths, a, b) = inputs(tmp.path());
    let out = tmp.path().join("out");
    let o = sbekit(&[
        "decode",
        "-s",
        schema().to_str().unwrap(),
        "--to",
        format,
        out.to_str().unwrap(),
        paths[0].to_str().unwrap(),
        paths[1].to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "tables go to DIR, nothing to stdout");
    assert_no_temporaries(&out);
    // DIR/type=<Message>/part-0000N.<ext>: one part per input that has the message.
    let mut want_files = Vec::new();
    let mut total: BTreeMap<String, u64> = a.clone();
    for (k, v) in &b {
        *total.entry(k.clone()).or_insert(0) += v;
    }
    for name in total.keys() {
        let parts = usize::from(a.contains_key(name)) + usize::from(b.contains_key(name));
        for p in 0..parts {
            want_files.push(format!("type={name}/part-{p:05}.{ext}"));
        }
    }
    want_files.sort();
    assert_eq!(files(&out), want_files);
    // Rows per table, in the files and in the summary.
    for (name, n) in &total {
        let dir = out.join(format!("type={name}"));
        let got: u64 = files(&dir).iter().map(|f| rows(&dir.join(f))).sum();
        assert_eq!(got, *n, "{name}");
    }
    assert_eq!(summary(&stderr(&o), "decode"), total);
    assert!(total.len() >= 2, "the random stream mixes templates");
}

#[test]
fn decode_to_parquet() {
    decode_to("parquet", "parquet", parquet_rows);
}

#[test]
fn decode_to_arrow() {
    decode_to("arrow", "arrows", ipc_rows);
}

#[test]
fn decode_to_exit_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let (paths, a, _) = inputs(tmp.path());
    let s = schema();
    let (schema, input) = (s.to_str().unwrap(), paths[0].to_str().unwrap());
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap();
    // A cut message: exit 1, with the messages before it written and no temporary left.
    let bytes = std::fs::read(&paths[0]).unwrap();
    let cut = tmp.path().join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let o = sbekit(&[
        "decode",
        "-s",
        schema,
        "--to",
        "parquet",
        out_s,
        cut.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 failed"), "{}", stderr(&o));
    assert_no_temporaries(&out);
    let written: u64 = summary(&stderr(&o), "decode").values().sum();
    assert_eq!(written, a.values().sum::<u64>() - 1);
    // Usage errors: exit 2.
    for args in [
        vec!["decode", "-s", schema, "--to", "csv", out_s, input],
        vec![
            "decode",
            "-s",
            schema,
            "--to",
            "parquet",
            out_s,
            "/nonexistent/x.bin",
        ],
        vec!["decode", "-s", schema, input, input],
    ] {
        let o = sbekit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("sbekit"), "{args:?}: {}", stderr(&o));
    }
}

/// A synthetic capture and `iex stats --json`'s message counts per table.
fn synth(dir: &Path, name: &str, seed: &str) -> (PathBuf, BTreeMap<String, u64>) {
    let p = dir.join(name);
    let o = sbekit(&[
        "iex",
        "synth",
        "--seed",
        seed,
        "--messages",
        "20000",
        "-o",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sbekit(&["iex", "stats", "--json", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut by_table = BTreeMap::new();
    for (k, n) in v["by_type"].as_object().unwrap() {
        let t = if k.len() == 1 {
            k.as_bytes()[0]
        } else {
            u8::from_str_radix(k.trim_start_matches("0x"), 16).unwrap()
        };
        *by_table
            .entry(sbekit_arrow::iex::table_of(t).to_string())
            .or_insert(0u64) += n.as_u64().unwrap();
    }
    assert_eq!(by_table.values().sum::<u64>(), 20_000);
    (p, by_table)
}

#[test]
fn iex_export_parquet_and_arrow() {
    let tmp = tempfile::tempdir().unwrap();
    let (cap, want) = synth(tmp.path(), "day.pcapng", "14");
    assert!(want.contains_key("trade") && want.contains_key("price_level_update"));
    for (format, ext, rows) in [
        ("parquet", "parquet", parquet_rows as fn(&Path) -> u64),
        ("arrow", "arrows", ipc_rows),
    ] {
        let out = tmp.path().join(format);
        let o = sbekit(&[
            "iex",
            "export",
            cap.to_str().unwrap(),
            "--to",
            format,
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_no_temporaries(&out);
        // DIR/date=YYYY-MM-DD/type=TABLE/part-00000.<ext>, one date (the synthetic day).
        let all = files(&out);
        let dates: std::collections::BTreeSet<&str> =
            all.iter().map(|f| f.split('/').next().unwrap()).collect();
        assert_eq!(dates.len(), 1, "{all:?}");
        let date = dates.into_iter().next().unwrap();
        assert!(
            date.len() == "date=2017-04-25".len() && date.starts_with("date=20"),
            "{date}"
        );
        let want_files: Vec<String> = want
            .keys()
            .map(|t| format!("{date}/type={t}/part-00000.{ext}"))
            .collect();
        assert_eq!(all, want_files);
        let got: BTreeMap<String, u64> = want
            .keys()
            .map(|t| {
                let f = out.join(format!("{date}/type={t}/part-00000.{ext}"));
                (t.clone(), rows(&f))
            })
            .collect();
        assert_eq!(got, want, "{format}: rows per table equal iex stats");
        assert_eq!(summary(&stderr(&o), "iex export"), want);
    }
}

#[test]
fn iex_export_exit_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let (cap, want) = synth(tmp.path(), "day.pcapng", "15");
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap();
    // A capture cut mid-block: exit 1, what came before is written, no temporary left.
    let bytes = std::fs::read(&cap).unwrap();
    let cut = tmp.path().join("cut.pcapng");
    std::fs::write(&cut, &bytes[..bytes.len() / 2 + 7]).unwrap();
    let o = sbekit(&[
        "iex",
        "export",
        cut.to_str().unwrap(),
        "--to",
        "parquet",
        out_s,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_no_temporaries(&out);
    let written: u64 = summary(&stderr(&o), "iex export").values().sum();
    let total: u64 = want.values().sum();
    assert!(written > 0 && written < total, "{written} of {total}");
    // Usage and I/O errors: exit 2.
    let c = cap.to_str().unwrap();
    for args in [
        vec!["iex", "export", c, "--to", "csv", out_s],
        vec![
            "iex",
            "export",
            "/nonexistent.pcap",
            "--to",
            "parquet",
            out_s,
        ],
        vec!["iex", "export", c],
    ] {
        let o = sbekit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

/// A schema of our own with a UTF-8 var data (issue 27's Car stand-in).
const TEXT_SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="27" version="0"
                   byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
  </types>
  <sbe:message name="Car" id="1">
    <field name="serial" id="1" type="uint32"/>
    <data name="usageDescription" id="2" type="varStringEncoding"/>
  </sbe:message>
</sbe:messageSchema>"#;

fn car(serial: u32, text: &[u8]) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [4u16, 1, 27, 0] {
        m.extend(v.to_le_bytes());
    }
    m.extend(serial.to_le_bytes());
    m.extend((text.len() as u16).to_le_bytes());
    m.extend(text);
    m
}

/// Issue 27: 2,001 messages whose middle text ends inside a UTF-8 sequence that the next
/// message's text completes (the concatenation is valid UTF-8, the values are not). Every row
/// is exported, exit 0, the fallbacks are counted on stderr, and Parquet holds the strings JSON
/// prints.
#[test]
fn a_split_utf8_sequence_loses_no_row() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("car.xml");
    std::fs::write(&schema, TEXT_SCHEMA).unwrap();
    let mut bytes = Vec::new();
    for i in 0..2001u32 {
        let text: &[u8] = match i {
            1000 => b"half \xE2\x82",
            1001 => b"\xAC rest",
            _ => "valid \u{20ac}".as_bytes(),
        };
        bytes.extend(car(i, text));
    }
    let input = tmp.path().join("mix.sbe");
    std::fs::write(&input, &bytes).unwrap();
    let (s, i) = (schema.to_str().unwrap(), input.to_str().unwrap());

    let out = tmp.path().join("out");
    let o = sbekit(&[
        "decode",
        "-s",
        s,
        i,
        "--to",
        "parquet",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(summary(&err, "decode")["Car"], 2001, "{err}");
    assert!(
        err.contains(
            "2 text values were not valid in their declared encoding and were read as Latin-1"
        ),
        "{err}"
    );

    let o = sbekit(&["decode", "-s", s, i]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 text values were not valid"),
        "{}",
        stderr(&o)
    );
    let json: Vec<String> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["usageDescription"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(json.len(), 2001);
    assert_eq!(json[1000], "half \u{e2}\u{82}");
    assert_eq!(json[1001], "\u{ac} rest");

    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;
    let f = out.join("type=Car/part-00000.parquet");
    let r = SerializedFileReader::new(File::open(&f).unwrap()).unwrap();
    let col = r
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "usageDescription")
        .unwrap();
    let parquet: Vec<String> = r
        .get_row_iter(None)
        .unwrap()
        .map(|row| row.unwrap().get_string(col).unwrap().clone())
        .collect();
    assert_eq!(parquet, json, "Parquet and JSON give the same strings");
}

/// The seconds an export prints after ` in ` (its whole command's time, issue 36).
fn printed_seconds(err: &str, head: &str) -> f64 {
    let line = err
        .lines()
        .find(|l| l.starts_with(head) && l.contains(" files under "))
        .unwrap_or_else(|| panic!("no `{head}` line in {err}"));
    let after = line.rsplit_once(" in ").map(|(_, t)| t).unwrap_or_default();
    let secs = after.split(" s").next().unwrap_or_default();
    assert!(
        line.contains(" s CPU, peak RSS ") || !cfg!(target_os = "linux"),
        "no CPU time and peak RSS in: {line}"
    );
    secs.parse()
        .unwrap_or_else(|e| panic!("seconds in `{line}`: {e}"))
}

/// Each export prints the command's whole time: no more than the process's wall time seen from
/// outside, and most of it (starting the process and exiting are all that is left out).
#[test]
fn exports_print_the_whole_commands_time() {
    let dir = tempfile::tempdir().unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let day = dir.path().join("day.pcapng");
    let o = sbekit(&["iex", "synth", "--messages", "150000", "-o", &s(&day)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cme = dir.path().join("cme.pcapng");
    let o = sbekit(&[
        "capture",
        "synth",
        "-p",
        "cme-mdp3",
        "-s",
        &s(&schema()),
        "-o",
        &s(&cme),
        "--messages",
        "150000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let runs: [(Vec<String>, &str); 2] = [
        (
            vec![
                "iex",
                "export",
                "--to",
                "parquet",
                &s(&dir.path().join("iex")),
                &s(&day),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "sbekit iex export: ",
        ),
        (
            vec![
                "capture",
                "export",
                "-p",
                "cme-mdp3",
                "-s",
                &s(&schema()),
                "--to",
                "parquet",
                &s(&dir.path().join("cme")),
                &s(&cme),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "sbekit capture export: ",
        ),
    ];
    for (args, head) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let t = std::time::Instant::now();
        let o = sbekit(&args);
        let wall = t.elapsed().as_secs_f64();
        assert!(o.status.success(), "{}", stderr(&o));
        let printed = printed_seconds(&stderr(&o), head);
        assert!(
            printed <= wall,
            "{head}printed {printed} s, the process took {wall} s"
        );
        assert!(
            printed >= 0.7 * wall,
            "{head}printed {printed} s of the process's {wall} s: not the whole command"
        );
    }
}
