//! Writing RecordBatches to a Hive-style partitioned directory of Parquet or Arrow IPC files.
//!
//! `ROOT/date=2017-04-25/type=trade/part-00000.parquet`: every engine that reads Hive
//! partitions (DuckDB `hive_partitioning`, Polars `scan_parquet`, Spark, Trino) sees one table
//! with `date` and `type` columns. Files are written through [`sbekit_fs::AtomicFile`], under a
//! hidden temporary name (`.part-00000.parquet.XXXXXX.tmp`, which the engines skip), and renamed
//! into place only when complete, so no half-written file ever carries a final name; files left
//! open when the writer is dropped without [`PartitionedWriter::finish`] are removed.
//!
//! Memory is bounded: a Parquet file's open row group is flushed when it reaches
//! [`SinkOptions::row_group_rows`] rows or [`SinkOptions::row_group_bytes`] buffered bytes.

use crate::Error;
use arrow_array::RecordBatch;
use arrow_ipc::writer::StreamWriter;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use sbekit_fs::AtomicFile;
use std::collections::BTreeMap;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The file format written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Apache Parquet, snappy-compressed (`.parquet`).
    Parquet,
    /// The Arrow IPC streaming format (`.arrows`), which allows each batch its own enum
    /// dictionary.
    ArrowIpc,
}

impl Format {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::ArrowIpc => "arrows",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "parquet" => Ok(Format::Parquet),
            "arrow" | "ipc" => Ok(Format::ArrowIpc),
            o => Err(format!("unknown format '{o}' (expected parquet or arrow)")),
        }
    }
}

/// How files are written.
#[derive(Debug, Clone, Copy)]
pub struct SinkOptions {
    /// The file format.
    pub format: Format,
    /// Rows per Parquet row group (at most).
    pub row_group_rows: usize,
    /// A row group is also closed when its buffered, encoded data reaches this many bytes.
    pub row_group_bytes: usize,
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            format: Format::Parquet,
            row_group_rows: 1 << 20,
            row_group_bytes: 128 << 20,
        }
    }
}

/// The open file's writer; dropping it removes the temporary file.
enum Writer {
    Parquet(ArrowWriter<AtomicFile>),
    Ipc(StreamWriter<BufWriter<AtomicFile>>),
}

struct OpenFile {
    path: PathBuf,
    writer: Writer,
}

/// Writes batches into `ROOT/k1=v1/k2=v2/part-NNNNN.ext`, one open file per partition.
pub struct PartitionedWriter {
    root: PathBuf,
    options: SinkOptions,
    open: BTreeMap<PathBuf, OpenFile>,
    rows: BTreeMap<String, u64>,
    files: Vec<PathBuf>,
}

impl PartitionedWriter {
    /// A writer under `root` (created if missing).
    pub fn new(root: &Path, options: SinkOptions) -> Result<Self, Error> {
        std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Ok(PartitionedWriter {
            root: root.to_path_buf(),
            options,
            open: BTreeMap::new(),
            rows: BTreeMap::new(),
            files: Vec::new(),
        })
    }

    /// Appends `batch` to the partition `partition` (`[("date", "2017-04-25"), ("type",
    /// "trade")]`), counting its rows under `table` in the summary.
    pub fn write(
        &mut self,
        partition: &[(&str, &str)],
        table: &str,
        batch: &RecordBatch,
    ) -> Result<(), Error> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let mut dir = self.root.clone();
        for (k, v) in partition {
            dir.push(format!("{k}={}", escape(v)));
        }
        if !self.open.contains_key(&dir) {
            let f = self.create(&dir, batch)?;
            self.open.insert(dir.clone(), f);
        }
        let f = self
            .open
            .get_mut(&dir)
            .ok_or_else(|| Error::Arrow("partition vanished".into()))?;
        let werr = |e: String| Error::Write {
            path: f.path.display().to_string(),
            message: e,
        };
        match &mut f.writer {
            Writer::Parquet(w) => {
                w.write(batch).map_err(|e| werr(e.to_string()))?;
                if w.in_progress_size() >= self.options.row_group_bytes {
                    w.flush().map_err(|e| werr(e.to_string()))?;
                }
            }
            Writer::Ipc(w) => w.write(batch).map_err(|e| werr(e.to_string()))?,
        }
        *self.rows.entry(table.to_string()).or_default() += batch.num_rows() as u64;
        Ok(())
    }

    fn create(&self, dir: &Path, batch: &RecordBatch) -> Result<OpenFile, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let ext = self.options.format.extension();
        let mut n = 0u32;
        let path = loop {
            let path = dir.join(format!("part-{n:05}.{ext}"));
            if !path.exists() {
                break path;
            }
            n += 1;
        };
        let file = AtomicFile::create(&path).map_err(|e| Error::io(&path, e))?;
        let werr = |e: String| Error::Write {
            path: path.display().to_string(),
            message: e,
        };
        let writer = match self.options.format {
            Format::Parquet => {
                let props = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(self.options.row_group_rows.max(1)))
                    .set_created_by(format!("sbekit {}", env!("CARGO_PKG_VERSION")))
                    .build();
                Writer::Parquet(
                    ArrowWriter::try_new(file, batch.schema(), Some(props))
                        .map_err(|e| werr(e.to_string()))?,
                )
            }
            Format::ArrowIpc => Writer::Ipc(
                StreamWriter::try_new(BufWriter::with_capacity(1 << 20, file), &batch.schema())
                    .map_err(|e| werr(e.to_string()))?,
            ),
        };
        Ok(OpenFile { path, writer })
    }

    /// Completes every open file and renames it into place (call between inputs to give each
    /// input its own files, and at the end).
    pub fn close_all(&mut self) -> Result<(), Error> {
        while let Some((_, f)) = self.open.pop_first() {
            self.files.push(close(f)?);
        }
        Ok(())
    }

    /// Completes all files; returns the rows written per table and the files written.
    pub fn finish(mut self) -> Result<(BTreeMap<String, u64>, Vec<PathBuf>), Error> {
        self.close_all()?;
        Ok((
            std::mem::take(&mut self.rows),
            std::mem::take(&mut self.files),
        ))
    }

    /// Rows written so far, per table.
    pub fn rows(&self) -> &BTreeMap<String, u64> {
        &self.rows
    }
}

fn close(f: OpenFile) -> Result<PathBuf, Error> {
    let werr = |e: String| Error::Write {
        path: f.path.display().to_string(),
        message: e,
    };
    let file = match f.writer {
        Writer::Parquet(w) => w.into_inner().map_err(|e| werr(e.to_string()))?,
        Writer::Ipc(mut w) => {
            w.finish().map_err(|e| werr(e.to_string()))?;
            w.into_inner()
                .map_err(|e| werr(e.to_string()))?
                .into_inner()
                .map_err(|e| werr(e.to_string()))?
        }
    };
    file.commit().map_err(|e| Error::io(&f.path, e))?;
    Ok(f.path)
}

/// Hive partition values: `/`, `=` and `%` are percent-escaped so a value stays one directory.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '/' | '\\' | '=' | '%' | '\0' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_partition_values() {
        assert_eq!(escape("a/b=c"), "a%2Fb%3Dc");
        assert_eq!(escape("trade"), "trade");
    }
}
