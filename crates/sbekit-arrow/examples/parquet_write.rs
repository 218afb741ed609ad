//! Times sbekit's Parquet writing alone: reads every Arrow IPC file that `--to arrow` wrote
//! under DIR into memory, then writes the same batches to Parquet through the sink
//! `--to parquet` uses (snappy, row groups of at most 1 Mi rows), and prints the median of
//! RUNS. The counterpart of DuckDB's `COPY (SELECT * FROM t) TO 'x.parquet'` from an Arrow
//! table in memory (docs/BENCHMARKS.md, issue 14).
//!
//! `cargo run --release -p sbekit-arrow --example parquet_write -- DIR OUT [RUNS]`

use arrow_array::RecordBatch;
use sbekit_arrow::sink::{PartitionedWriter, SinkOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn ipc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read DIR") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            ipc_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "arrows") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: parquet_write DIR OUT [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut files = Vec::new();
    ipc_files(Path::new(dir), &mut files);
    files.sort();
    // (table, batches): the table name is the `type=` directory.
    let tables: Vec<(String, Vec<RecordBatch>)> = files
        .iter()
        .map(|f| {
            let t = f
                .parent()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().trim_start_matches("type=").to_string())
                .unwrap_or_default();
            let r = arrow_ipc::reader::StreamReader::try_new(
                std::fs::File::open(f).expect("open"),
                None,
            )
            .expect("IPC stream");
            (t, r.map(|b| b.expect("batch")).collect())
        })
        .collect();
    let rows: usize = tables
        .iter()
        .flat_map(|(_, b)| b.iter().map(RecordBatch::num_rows))
        .sum();
    let mut times = Vec::new();
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(out);
        let start = Instant::now();
        let mut w = PartitionedWriter::new(Path::new(out), SinkOptions::default()).expect("sink");
        for (t, batches) in &tables {
            for b in batches {
                w.write(&[("type", t)], t, b).expect("write");
            }
        }
        w.finish().expect("finish");
        times.push(start.elapsed().as_secs_f64());
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "sbekit Parquet writer: {rows} rows, {} tables, runs {:?} s, median {:.2} s",
        tables.len(),
        times
            .iter()
            .map(|t| (t * 100.0).round() / 100.0)
            .collect::<Vec<_>>(),
        sorted[sorted.len() / 2]
    );
}
