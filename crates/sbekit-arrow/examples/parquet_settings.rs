//! What the Parquet writer costs, setting by setting: reads every Arrow IPC stream (`.arrows`)
//! under a directory (e.g. `sbekit capture export --to arrow DIR`) into memory, then writes
//! each table to Parquet in memory (no disk) once per writer configuration, and prints the
//! rows, the CPU seconds, the rows per CPU-second and the bytes written.
//!
//! `cargo run --release -p sbekit-arrow --example parquet_settings -- DIR`

use arrow_array::RecordBatch;
use arrow_ipc::reader::StreamReader;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use std::path::{Path, PathBuf};

/// CPU time of this process so far, in seconds (Linux: `/proc/self/schedstat`).
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 / 1e9)
}

fn streams(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            streams(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "arrows") {
            out.push(p);
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: parquet_settings DIR")?;
    let mut files = Vec::new();
    streams(Path::new(&dir), &mut files)?;
    files.sort();
    let mut tables: Vec<Vec<RecordBatch>> = Vec::new();
    for f in &files {
        let r = StreamReader::try_new(std::fs::File::open(f)?, None)?;
        tables.push(r.collect::<Result<_, _>>()?);
    }
    let rows: usize = tables.iter().flatten().map(RecordBatch::num_rows).sum();
    println!("{} streams, {rows} rows", files.len());
    let base = || {
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(1 << 20))
    };
    let configs: Vec<(&str, WriterProperties)> = vec![
        (
            "snappy, dictionary, page statistics (sbekit today)",
            base().build(),
        ),
        (
            "uncompressed",
            base().set_compression(Compression::UNCOMPRESSED).build(),
        ),
        (
            "no dictionary",
            base().set_dictionary_enabled(false).build(),
        ),
        (
            "chunk statistics only",
            base()
                .set_statistics_enabled(EnabledStatistics::Chunk)
                .build(),
        ),
        (
            "uncompressed, no dictionary, chunk statistics",
            base()
                .set_compression(Compression::UNCOMPRESSED)
                .set_dictionary_enabled(false)
                .set_statistics_enabled(EnabledStatistics::Chunk)
                .build(),
        ),
        (
            "row groups of 128 Ki rows",
            base().set_max_row_group_row_count(Some(1 << 17)).build(),
        ),
    ];
    for (name, props) in configs {
        let start = cpu_seconds();
        let mut bytes = 0usize;
        for batches in &tables {
            let Some(first) = batches.first() else {
                continue;
            };
            let mut w = ArrowWriter::try_new(Vec::new(), first.schema(), Some(props.clone()))?;
            for b in batches {
                w.write(b)?;
            }
            bytes += w.into_inner()?.len();
        }
        let cpu = cpu_seconds() - start;
        println!(
            "{name}: {cpu:.2} CPU-s, {:.2} M rows per CPU-second, {:.1} MB",
            rows as f64 / cpu / 1e6,
            bytes as f64 / 1e6
        );
    }
    Ok(())
}
