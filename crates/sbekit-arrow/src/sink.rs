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
//! [`SinkOptions::row_group_rows`] rows or [`SinkOptions::row_group_bytes`] buffered bytes,
//! and, across all the files open at once (an export writes one per table and partition),
//! the largest open row groups are flushed whenever their buffers together pass
//! [`SinkOptions::memory_budget`] bytes, so the writer's memory does not grow with the number
//! of tables or with the input. What a file keeps for its footer (every written column
//! chunk's metadata and page index) grows with its row groups: past an eighth of the budget
//! across the open files, the files with the most chunks are completed and the partition goes
//! on in a new one (`part-00001`...). Decimal columns are written without statistics (see
//! `decimal_columns`).
//!
//! Parquet pages are encoded by sbekit's own writer ([`crate::parquet_writer`],
//! [`ParquetWriter::Own`], the default) for files whose schema it handles (every schema the
//! SBE, capture and IEX exports produce); a file with another type (maps, large lists,
//! views, dates...) is written by arrow-rs's `ArrowWriter`, as is every file under
//! [`ParquetWriter::Arrow`]. The same options apply to both.
//!
//! Encoding: Parquet's dictionary encoding pays on columns that repeat (symbols, codes, price
//! levels) and costs CPU and bytes on those that do not (timestamps, sequence numbers, order
//! ids, random text). With [`Dictionary::Auto`] (the default) each file decides per leaf
//! column from its first batch: a column whose first [`SAMPLE`] values hold more than one
//! distinct value in [`DISTINCT_RATIO`] is written plain.

use crate::parquet_writer::{ColumnEncoding, FileWriter};
use crate::Error;
use arrow_array::RecordBatch;
use arrow_array::{Array, ArrayRef};
use arrow_ipc::writer::StreamWriter;
use arrow_schema::DataType;
use parquet::arrow::ArrowSchemaConverter;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Type as PhysicalType};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
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

/// The compression of Parquet pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// No compression: the fastest to write, the largest files.
    None,
    /// Snappy (the default): fast, and what every engine reads.
    Snappy,
}

impl std::str::FromStr for Codec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" | "uncompressed" => Ok(Codec::None),
            "snappy" => Ok(Codec::Snappy),
            o => Err(format!(
                "unknown compression '{o}' (expected snappy or none; zstd and lz4 are not built in)"
            )),
        }
    }
}

/// When Parquet columns are dictionary-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dictionary {
    /// Per column, from the first batch written to each file (see the module docs).
    Auto,
    /// Every column (Parquet's default; still falls back to plain when a column's dictionary
    /// page outgrows 1 MB).
    On,
    /// No column (enum columns, which are Arrow dictionaries, included).
    Off,
}

impl std::str::FromStr for Dictionary {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Dictionary::Auto),
            "on" | "always" => Ok(Dictionary::On),
            "off" | "never" => Ok(Dictionary::Off),
            o => Err(format!(
                "unknown dictionary setting '{o}' (expected auto, on or off)"
            )),
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
    /// Parquet page compression.
    pub compression: Codec,
    /// Parquet dictionary encoding.
    pub dictionary: Dictionary,
    /// The most bytes the open Parquet row groups of all files may hold together before the
    /// largest are flushed (see the module docs).
    pub memory_budget: usize,
    /// Which Parquet writer encodes the pages.
    pub writer: ParquetWriter,
}

/// The Parquet writer that encodes pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParquetWriter {
    /// sbekit's own ([`crate::parquet_writer`], the default): the whole CME export takes about
    /// a fifth less CPU with it (docs/BENCHMARKS.md, issue 36's third session). A file whose
    /// schema it does not handle is written by arrow-rs's.
    Own,
    /// arrow-rs's `ArrowWriter` for every file.
    Arrow,
}

impl std::str::FromStr for ParquetWriter {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sbekit" | "own" => Ok(ParquetWriter::Own),
            "arrow" | "arrow-rs" => Ok(ParquetWriter::Arrow),
            o => Err(format!(
                "unknown Parquet writer '{o}' (expected sbekit or arrow)"
            )),
        }
    }
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            format: Format::Parquet,
            row_group_rows: 1 << 20,
            row_group_bytes: 128 << 20,
            compression: Codec::Snappy,
            dictionary: Dictionary::Auto,
            memory_budget: 96 << 20,
            writer: ParquetWriter::Own,
        }
    }
}

/// Values of a column's first batch looked at by [`Dictionary::Auto`].
pub const SAMPLE: usize = 4_096;

/// [`Dictionary::Auto`] writes a column plain when its sample holds more than one distinct
/// value in this many.
pub const DISTINCT_RATIO: usize = 4;

/// Rows handed to the Parquet writer per call (see `Files::write`).
const WRITE_ROWS: usize = 8_192;

/// The open file's writer; dropping it removes the temporary file.
enum Writer {
    Parquet(ArrowWriter<AtomicFile>),
    Own(FileWriter<BufWriter<AtomicFile>>),
    Ipc(StreamWriter<BufWriter<AtomicFile>>),
}

struct OpenFile {
    path: PathBuf,
    writer: Writer,
    /// The open row group's memory as last measured (counted in the writer's total).
    buffered: usize,
    /// Column chunks of the row groups written so far, whose metadata the writer keeps for
    /// the footer (counted in the writer's total).
    chunks: usize,
}

/// Memory the Parquet writer keeps per column chunk written, until its file is closed (the
/// chunk's metadata, statistics and page index; measured 1-2 KiB): an eighth of
/// [`SinkOptions::memory_budget`] at this much a chunk bounds the chunks open files may hold.
const CHUNK_BYTES: usize = 2 << 10;

/// The files of a [`PartitionedWriter`], written on the caller's thread or on the writer's.
struct Files {
    options: SinkOptions,
    open: BTreeMap<PathBuf, OpenFile>,
    rows: BTreeMap<String, u64>,
    files: Vec<PathBuf>,
    /// The sum of the open files' `buffered`.
    buffered: usize,
    /// The sum of the open files' `chunks`.
    chunks: usize,
}

impl Files {
    fn new(root: &Path, options: SinkOptions) -> Result<Self, Error> {
        std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Ok(Files {
            options,
            open: BTreeMap::new(),
            rows: BTreeMap::new(),
            files: Vec::new(),
            buffered: 0,
            chunks: 0,
        })
    }

    fn write(&mut self, dir: PathBuf, table: &str, batch: &RecordBatch) -> Result<(), Error> {
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
                // In slices: the writer converts a whole call's values of some types at once
                // (decimals to 16-byte arrays, one allocation each), so a large batch written
                // whole would briefly take several times its own memory.
                let rows = batch.num_rows();
                let mut at = 0;
                while at < rows {
                    let n = WRITE_ROWS.min(rows - at);
                    w.write(&batch.slice(at, n))
                        .map_err(|e| werr(e.to_string()))?;
                    at += n;
                }
            }
            Writer::Own(w) => {
                // In slices, like arrow-rs's: pages are cut between writes.
                let rows = batch.num_rows();
                let mut at = 0;
                while at < rows {
                    let n = WRITE_ROWS.min(rows - at);
                    w.write(&batch.slice(at, n))
                        .map_err(|e| werr(e.to_string()))?;
                    at += n;
                }
            }
            Writer::Ipc(w) => w.write(batch).map_err(|e| werr(e.to_string()))?,
        }
        self.measure(&dir);
        *self.rows.entry(table.to_string()).or_default() += batch.num_rows() as u64;
        if self.buffered > self.options.memory_budget {
            self.flush_largest()?;
        }
        if self.chunks > self.max_chunks() {
            self.close_largest()?;
        }
        Ok(())
    }

    /// Updates the file's (and the totals') open row group memory and chunks written.
    fn measure(&mut self, key: &Path) {
        let Some(f) = self.open.get_mut(key) else {
            return;
        };
        let (buffered, chunks) = match &f.writer {
            Writer::Parquet(w) => (
                w.memory_size(),
                w.flushed_row_groups().iter().map(|g| g.num_columns()).sum(),
            ),
            Writer::Own(w) => (w.memory_size(), w.chunks()),
            Writer::Ipc(_) => return,
        };
        self.buffered = self.buffered - f.buffered + buffered;
        self.chunks = self.chunks - f.chunks + chunks;
        f.buffered = buffered;
        f.chunks = chunks;
    }

    /// Column chunks the open files may hold (see [`CHUNK_BYTES`]).
    fn max_chunks(&self) -> usize {
        (self.options.memory_budget / 8 / CHUNK_BYTES).max(64)
    }

    /// Completes the files with the most column chunks until those left hold half
    /// [`Files::max_chunks`] or fewer: the footer metadata a file keeps grows with its row
    /// groups, so a long capture's tables each get several files (`part-00000`,
    /// `part-00001`...) rather than memory that grows with the capture.
    fn close_largest(&mut self) -> Result<(), Error> {
        let mut sizes: Vec<(usize, PathBuf)> = self
            .open
            .iter()
            .map(|(k, f)| (f.chunks, k.clone()))
            .collect();
        sizes.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        for (_, key) in sizes {
            if self.chunks <= self.max_chunks() / 2 {
                break;
            }
            if let Some(f) = self.open.remove(&key) {
                self.buffered -= f.buffered;
                self.chunks -= f.chunks;
                self.files.push(close(f)?);
            }
        }
        Ok(())
    }

    /// Flushes the largest open row groups until those left hold half the budget or less
    /// (half, so that a full budget does not flush a little on every batch).
    fn flush_largest(&mut self) -> Result<(), Error> {
        let mut sizes: Vec<(usize, PathBuf)> = self
            .open
            .iter()
            .filter(|(_, f)| f.buffered > 0)
            .map(|(k, f)| (f.buffered, k.clone()))
            .collect();
        sizes.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        for (_, key) in sizes {
            if self.buffered <= self.options.memory_budget / 2 {
                break;
            }
            let Some(f) = self.open.get_mut(&key) else {
                continue;
            };
            let flushed = match &mut f.writer {
                Writer::Parquet(w) => w.flush().map_err(|e| e.to_string()),
                Writer::Own(w) => w.flush().map_err(|e| e.to_string()),
                Writer::Ipc(_) => continue,
            };
            flushed.map_err(|message| Error::Write {
                path: f.path.display().to_string(),
                message,
            })?;
            self.measure(&key);
        }
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
            Format::Parquet
                if self.options.writer == ParquetWriter::Own
                    && FileWriter::<BufWriter<AtomicFile>>::supports(batch.schema_ref()) =>
            {
                own_writer(file, batch, &self.options).map_err(werr)?
            }
            Format::Parquet => {
                let o = &self.options;
                let mut props = WriterProperties::builder()
                    .set_compression(match o.compression {
                        Codec::None => Compression::UNCOMPRESSED,
                        Codec::Snappy => Compression::SNAPPY,
                    })
                    .set_max_row_group_row_count(Some(o.row_group_rows.max(1)))
                    .set_max_row_group_bytes(Some(o.row_group_bytes.max(1)))
                    .set_created_by(format!("sbekit {}", env!("CARGO_PKG_VERSION")));
                match o.dictionary {
                    Dictionary::On => {}
                    Dictionary::Off => props = props.set_dictionary_enabled(false),
                    Dictionary::Auto => {
                        for c in dictionary_choices(batch) {
                            if c.delta {
                                props = props.set_column_encoding(
                                    c.path.clone(),
                                    parquet::basic::Encoding::DELTA_BINARY_PACKED,
                                );
                            }
                            props = props.set_column_dictionary_enabled(c.path, c.dictionary);
                        }
                    }
                }
                for path in decimal_columns(batch) {
                    props = props.set_column_statistics_enabled(
                        path,
                        parquet::file::properties::EnabledStatistics::None,
                    );
                }
                let props = props.build();
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
        Ok(OpenFile {
            path,
            writer,
            buffered: 0,
            chunks: 0,
        })
    }

    fn close_all(&mut self) -> Result<(), Error> {
        while let Some((_, f)) = self.open.pop_first() {
            self.buffered -= f.buffered;
            self.chunks -= f.chunks;
            self.files.push(close(f)?);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(BTreeMap<String, u64>, Vec<PathBuf>), Error> {
        self.close_all()?;
        Ok((
            std::mem::take(&mut self.rows),
            std::mem::take(&mut self.files),
        ))
    }
}

/// What the caller's thread hands the writer's thread.
enum Job {
    Write(PathBuf, String, RecordBatch),
    CloseAll,
}

/// Batches handed to the writer's thread and not yet written, at most (each holds up to a
/// batch of rows, so this bounds the memory in flight).
const QUEUE: usize = 2;

enum Mode {
    /// Files written on the caller's thread.
    Inline(Files),
    /// Files written on a thread of their own, fed through a bounded channel; the thread
    /// stops at its first error, which the next call reports.
    Thread {
        jobs: Option<std::sync::mpsc::SyncSender<Job>>,
        worker: Option<std::thread::JoinHandle<Result<Files, Error>>>,
    },
}

/// Writes batches into `ROOT/k1=v1/k2=v2/part-NNNNN.ext`, one open file per partition,
/// on the caller's thread or (with [`PartitionedWriter::threaded`]) on a thread of its own,
/// so that encoding Parquet overlaps with decoding.
pub struct PartitionedWriter {
    root: PathBuf,
    mode: Mode,
}

impl PartitionedWriter {
    /// A writer under `root` (created if missing), writing on the caller's thread.
    pub fn new(root: &Path, options: SinkOptions) -> Result<Self, Error> {
        Ok(PartitionedWriter {
            root: root.to_path_buf(),
            mode: Mode::Inline(Files::new(root, options)?),
        })
    }

    /// A writer under `root` whose files are encoded and written on a second thread while the
    /// caller goes on; at most [`QUEUE`] batches wait between the two. The output is the same
    /// as [`PartitionedWriter::new`]'s.
    pub fn threaded(root: &Path, options: SinkOptions) -> Result<Self, Error> {
        let mut files = Files::new(root, options)?;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(QUEUE);
        let worker = std::thread::Builder::new()
            .name("sbekit-writer".into())
            .spawn(move || {
                for job in rx {
                    match job {
                        Job::Write(dir, table, batch) => files.write(dir, &table, &batch)?,
                        Job::CloseAll => files.close_all()?,
                    }
                }
                Ok(files)
            })
            .map_err(|e| Error::io(root, e))?;
        Ok(PartitionedWriter {
            root: root.to_path_buf(),
            mode: Mode::Thread {
                jobs: Some(tx),
                worker: Some(worker),
            },
        })
    }

    /// Appends `batch` to the partition `partition` (`[("date", "2017-04-25"), ("type",
    /// "trade")]`), counting its rows under `table` in the summary. With a writer thread, an
    /// error may surface at a later call (or at [`PartitionedWriter::finish`]).
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
        match &mut self.mode {
            Mode::Inline(f) => f.write(dir, table, batch),
            Mode::Thread { .. } => self.send(Job::Write(dir, table.to_string(), batch.clone())),
        }
    }

    /// Completes every open file and renames it into place (call between inputs to give each
    /// input its own files, and at the end).
    pub fn close_all(&mut self) -> Result<(), Error> {
        match &mut self.mode {
            Mode::Inline(f) => f.close_all(),
            Mode::Thread { .. } => self.send(Job::CloseAll),
        }
    }

    /// Completes all files; returns the rows written per table and the files written.
    pub fn finish(mut self) -> Result<(BTreeMap<String, u64>, Vec<PathBuf>), Error> {
        match std::mem::replace(
            &mut self.mode,
            Mode::Thread {
                jobs: None,
                worker: None,
            },
        ) {
            Mode::Inline(f) => f.finish(),
            Mode::Thread { jobs, worker } => {
                drop(jobs);
                join(worker)?.finish()
            }
        }
    }

    /// Hands `job` to the writer's thread; if the thread has stopped, its error.
    fn send(&mut self, job: Job) -> Result<(), Error> {
        let Mode::Thread { jobs, worker } = &mut self.mode else {
            return Ok(());
        };
        let Some(tx) = jobs else {
            return Err(Error::Arrow("the writer thread has stopped".into()));
        };
        if tx.send(job).is_ok() {
            return Ok(());
        }
        // The thread stopped at an error: report it (once).
        *jobs = None;
        match join(worker.take()) {
            Ok(_) => Err(Error::Arrow("the writer thread stopped".into())),
            Err(e) => Err(e),
        }
    }
}

impl Drop for PartitionedWriter {
    /// Without [`PartitionedWriter::finish`]: the writer thread is stopped and waited for, so
    /// that its unfinished files are removed before the caller goes on.
    fn drop(&mut self) {
        if let Mode::Thread { jobs, worker } = &mut self.mode {
            *jobs = None;
            let _ = join(worker.take());
        }
    }
}

/// The writer thread's files, or its error.
fn join(worker: Option<std::thread::JoinHandle<Result<Files, Error>>>) -> Result<Files, Error> {
    let Some(worker) = worker else {
        return Err(Error::Arrow("the writer thread has stopped".into()));
    };
    match worker.join() {
        Ok(r) => r,
        Err(_) => Err(Error::Arrow("the writer thread panicked".into())),
    }
}

fn close(f: OpenFile) -> Result<PathBuf, Error> {
    let werr = |e: String| Error::Write {
        path: f.path.display().to_string(),
        message: e,
    };
    let file = match f.writer {
        Writer::Parquet(w) => w.into_inner().map_err(|e| werr(e.to_string()))?,
        Writer::Own(w) => w
            .into_inner()
            .map_err(|e| werr(e.to_string()))?
            .into_inner()
            .map_err(|e| werr(e.to_string()))?,
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

/// A file written by [`crate::parquet_writer`], its columns encoded as `options.dictionary`
/// says (under [`Dictionary::Auto`], as [`dictionary_choices`] decides; columns it leaves out
/// get a dictionary, as with arrow-rs's writer).
fn own_writer(
    file: AtomicFile,
    batch: &RecordBatch,
    options: &SinkOptions,
) -> Result<Writer, String> {
    let choices: BTreeMap<String, ColumnChoice> = match options.dictionary {
        Dictionary::Auto => dictionary_choices(batch)
            .into_iter()
            .map(|c| (c.path.string(), c))
            .collect(),
        _ => BTreeMap::new(),
    };
    let encoding = |_: usize, c: &parquet::schema::types::ColumnDescriptor| match options.dictionary
    {
        Dictionary::Off => ColumnEncoding::Plain,
        Dictionary::On => ColumnEncoding::Dictionary,
        Dictionary::Auto => match choices.get(&c.path().string()) {
            Some(c) if c.dictionary => ColumnEncoding::Dictionary,
            Some(c) if c.delta => ColumnEncoding::Delta,
            Some(_) => ColumnEncoding::Plain,
            None => ColumnEncoding::Dictionary,
        },
    };
    let w = FileWriter::new(
        BufWriter::with_capacity(1 << 16, file),
        batch.schema(),
        encoding,
        crate::parquet_writer::Options {
            codec: options.compression,
            row_group_rows: options.row_group_rows.max(1),
            row_group_bytes: options.row_group_bytes.max(1),
            created_by: format!("sbekit {}", env!("CARGO_PKG_VERSION")),
        },
    )?;
    Ok(Writer::Own(w))
}

/// [`Dictionary::Auto`]'s choice for each Parquet leaf column of `batch`'s schema: dictionary
/// off where the column's sample is mostly distinct. Columns it cannot judge (Arrow
/// dictionaries, booleans, types it does not read) are left out, keeping Parquet's default
/// (on); so is every column if the leaves do not line up with Parquet's.
pub fn dictionary_choices(batch: &RecordBatch) -> Vec<ColumnChoice> {
    let Ok(descr) = ArrowSchemaConverter::new().convert(batch.schema_ref()) else {
        return Vec::new();
    };
    let mut leaves = Vec::with_capacity(descr.num_columns());
    for c in batch.columns() {
        push_leaves(c, &mut leaves);
    }
    if leaves.len() != descr.num_columns() {
        return Vec::new();
    }
    descr
        .columns()
        .iter()
        .zip(leaves)
        .filter_map(|(col, leaf)| {
            let d = distinct_in_sample(&leaf)?;
            // Fixed-length byte arrays (decimals) go plain whatever they repeat: arrow-rs
            // converts each write's decimals into one shared allocation, and its dictionary
            // keeps every allocation that a dictionary value points into alive until the row
            // group closes (tens of MB per file on a long capture, unseen by the memory budget).
            let fixed = col.physical_type() == PhysicalType::FIXED_LEN_BYTE_ARRAY;
            let dictionary = !fixed && d.distinct * DISTINCT_RATIO <= d.sampled;
            let int = matches!(
                col.physical_type(),
                PhysicalType::INT32 | PhysicalType::INT64
            );
            Some(ColumnChoice {
                path: col.path().clone(),
                dictionary,
                delta: !dictionary && int,
            })
        })
        .collect()
}

/// The Parquet leaf columns of `batch`'s schema that hold decimals as fixed-length byte
/// arrays. arrow-rs keeps a column chunk's min and max of these as views into the buffer it
/// converted the whole write call's values into, and keeps every closed chunk's statistics
/// until the file closes: statistics on them would hold memory that grows with the file (two
/// such buffers per chunk), so they are written without.
fn decimal_columns(batch: &RecordBatch) -> Vec<ColumnPath> {
    let Ok(descr) = ArrowSchemaConverter::new().convert(batch.schema_ref()) else {
        return Vec::new();
    };
    descr
        .columns()
        .iter()
        .filter(|c| {
            c.physical_type() == PhysicalType::FIXED_LEN_BYTE_ARRAY
                && matches!(
                    c.logical_type_ref(),
                    Some(parquet::basic::LogicalType::Decimal { .. })
                )
        })
        .map(|c| c.path().clone())
        .collect()
}

/// [`Dictionary::Auto`]'s choice for one Parquet leaf column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnChoice {
    /// The column.
    pub path: ColumnPath,
    /// Dictionary-encoded (the sample repeats its values).
    pub dictionary: bool,
    /// An integer column written plain: `DELTA_BINARY_PACKED` instead of `PLAIN`, which
    /// stores timestamps, sequence numbers and ids (mostly increasing) in a few bits a value
    /// and costs no more CPU than compressing the plain bytes would.
    pub delta: bool,
}

/// `array`'s leaf arrays in Parquet's column order (depth first).
fn push_leaves(array: &ArrayRef, out: &mut Vec<ArrayRef>) {
    use arrow_array::cast::AsArray;
    match array.data_type() {
        DataType::Struct(_) => {
            for c in array.as_struct().columns() {
                push_leaves(c, out);
            }
        }
        DataType::List(_) => push_leaves(array.as_list::<i32>().values(), out),
        DataType::LargeList(_) => push_leaves(array.as_list::<i64>().values(), out),
        DataType::FixedSizeList(_, _) => push_leaves(array.as_fixed_size_list().values(), out),
        DataType::Map(_, _) => {
            let m = array.as_map();
            push_leaves(m.keys(), out);
            push_leaves(m.values(), out);
        }
        _ => out.push(array.clone()),
    }
}

struct Sampled {
    sampled: usize,
    distinct: usize,
}

/// Distinct values among the first [`SAMPLE`] non-null values of a leaf, by their bytes;
/// `None` for types not judged.
fn distinct_in_sample(array: &ArrayRef) -> Option<Sampled> {
    use arrow_array::cast::AsArray;
    // Hashes of the values (64-bit: collisions among 4,096 values are negligible), counted
    // distinct in a set (`count_distinct`).
    let mut seen: Vec<u64> = Vec::with_capacity(SAMPLE);
    let mut take = |v: &[u8]| -> bool {
        seen.push(crate::parquet_writer::hash_bytes(v));
        seen.len() < SAMPLE
    };
    match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            for i in 0..a.len() {
                if a.is_valid(i) && !take(a.value(i).as_bytes()) {
                    break;
                }
            }
        }
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            for i in 0..a.len() {
                if a.is_valid(i) && !take(a.value(i)) {
                    break;
                }
            }
        }
        t => {
            let width = t.primitive_width()?;
            let data = array.to_data();
            let bytes = data.buffers().first()?.as_slice();
            let start = data.offset() * width;
            for i in 0..array.len() {
                if array.is_valid(i) {
                    let v = bytes.get(start + i * width..start + (i + 1) * width)?;
                    if !take(v) {
                        break;
                    }
                }
            }
        }
    }
    let sampled = seen.len();
    let distinct = count_distinct(&seen);
    Some(Sampled { sampled, distinct })
}

/// How many distinct numbers `hashes` holds: an open-addressing set at most half full, by
/// the hashes' low bits (they are hashes already). Sorting the sample to count them cost
/// ~1% of a CME export (a sample of every leaf column of every file).
fn count_distinct(hashes: &[u64]) -> usize {
    let cap = (hashes.len() * 2).next_power_of_two().max(16);
    let mask = cap - 1;
    // 0 marks an empty slot; the hash 0 is counted apart.
    let mut slots = vec![0u64; cap];
    let mut zero = false;
    let mut distinct = 0;
    for &h in hashes {
        if h == 0 {
            zero = true;
            continue;
        }
        let mut s = (h as usize) & mask;
        loop {
            match slots[s] {
                0 => {
                    slots[s] = h;
                    distinct += 1;
                    break;
                }
                x if x == h => break,
                _ => s = (s + 1) & mask,
            }
        }
    }
    distinct + usize::from(zero)
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

    /// The set counts what sorting counted: repeats, the hash 0, hashes equal in their low
    /// bits (one probe chain), an empty sample.
    #[test]
    fn count_distinct_counts_as_sorting_did() {
        let by_sorting = |h: &[u64]| {
            let mut v = h.to_vec();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut cases: Vec<Vec<u64>> = vec![
            vec![],
            vec![0],
            vec![0, 0, 5, 5, 0],
            (0..100).map(|i| i << 20).collect(),
            (0..4096).map(|i| i % 7).collect(),
        ];
        cases.push(
            (0..4096)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x % 3000
                })
                .collect(),
        );
        for c in &cases {
            assert_eq!(count_distinct(c), by_sorting(c), "{c:?}");
        }
    }

    use arrow_array::{Int64Array, StringArray, UInt32Array};
    use arrow_schema::{Field, Schema};
    use std::sync::Arc;

    /// `n` rows from `from`: a distinct `id`, a `sym` of 3 values, a `price` of 5 values.
    fn batch(from: i64, n: usize) -> RecordBatch {
        let ids: Vec<i64> = (from..from + n as i64).collect();
        let syms: Vec<&str> = ids
            .iter()
            .map(|i| ["ES", "NQ", "CL"][(*i % 3) as usize])
            .collect();
        let prices: Vec<u32> = ids.iter().map(|i| 100 + (*i % 5) as u32).collect();
        let schema = Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("sym", DataType::Utf8, false),
            Field::new("price", DataType::UInt32, false),
        ]);
        RecordBatch::try_new(
            Arc::new(schema),
            vec![
                Arc::new(Int64Array::from(ids)),
                Arc::new(StringArray::from(syms)),
                Arc::new(UInt32Array::from(prices)),
            ],
        )
        .unwrap()
    }

    #[test]
    fn auto_dictionary_goes_plain_on_distinct_columns_only() {
        let c = dictionary_choices(&batch(0, 10_000));
        let by: Vec<(String, bool, bool)> = c
            .iter()
            .map(|c| (c.path.string(), c.dictionary, c.delta))
            .collect();
        assert_eq!(
            by,
            [
                ("id".to_string(), false, true),
                ("sym".to_string(), true, false),
                ("price".to_string(), true, false),
            ]
        );
    }

    fn row_groups(path: &Path) -> (usize, i64) {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let r = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
        (r.num_row_groups(), r.metadata().file_metadata().num_rows())
    }

    /// Writes 20 batches of 5,000 rows to two partitions with `options`; the two files.
    fn write_two(root: &Path, options: SinkOptions, threaded: bool) -> Vec<PathBuf> {
        let mut w = if threaded {
            PartitionedWriter::threaded(root, options).unwrap()
        } else {
            PartitionedWriter::new(root, options).unwrap()
        };
        for k in 0..20 {
            let part = if k % 2 == 0 { "a" } else { "b" };
            w.write(&[("type", part)], part, &batch(k * 5_000, 5_000))
                .unwrap();
        }
        let (rows, mut files) = w.finish().unwrap();
        assert_eq!(rows.values().sum::<u64>(), 100_000);
        files.sort();
        files
    }

    #[test]
    fn the_memory_budget_flushes_row_groups_early() {
        let dir = tempfile::tempdir().unwrap();
        let roomy = write_two(&dir.path().join("roomy"), SinkOptions::default(), false);
        for f in &roomy {
            assert_eq!(row_groups(f), (1, 50_000), "{}", f.display());
        }
        let tight = SinkOptions {
            memory_budget: 1,
            ..SinkOptions::default()
        };
        let small = write_two(&dir.path().join("tight"), tight, false);
        for f in &small {
            // Every batch is flushed: 10 row groups of 5,000 rows.
            assert_eq!(row_groups(f), (10, 50_000), "{}", f.display());
        }
    }

    #[test]
    fn files_are_completed_early_when_their_metadata_would_outgrow_the_budget() {
        // A budget this small flushes every batch as a row group and allows
        // `max(64, budget / 8 / CHUNK_BYTES)` = 64 column chunks (3 a row group here) in the
        // open files: each table gets several files, none over the limit, no row lost.
        let dir = tempfile::tempdir().unwrap();
        let tight = SinkOptions {
            memory_budget: 1,
            ..SinkOptions::default()
        };
        let mut w = PartitionedWriter::new(dir.path(), tight).unwrap();
        for k in 0..100 {
            let part = if k % 2 == 0 { "a" } else { "b" };
            w.write(&[("type", part)], part, &batch(k * 100, 100))
                .unwrap();
        }
        let (rows, files) = w.finish().unwrap();
        assert_eq!(rows.values().sum::<u64>(), 10_000);
        assert!(files.len() > 4, "{files:?}");
        let mut read = 0;
        for f in &files {
            let (groups, n) = row_groups(f);
            assert!(groups * 3 <= 64, "{}: {groups} row groups", f.display());
            read += n;
        }
        assert_eq!(read, 10_000);
    }

    #[test]
    fn decimal_columns_are_written_without_statistics_by_arrow_rs() {
        // arrow-rs's min and max of these would hold memory (see `decimal_columns`); sbekit's
        // writer keeps only their null count, and min and max of integer columns.
        use arrow_array::Decimal128Array;
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let dir = tempfile::tempdir().unwrap();
        let schema = Schema::new(vec![
            Field::new("px", DataType::Decimal128(38, 9), true),
            Field::new("qty", DataType::Int64, false),
        ]);
        let px = Decimal128Array::from(vec![Some(1_250_000_000), None, Some(7)])
            .with_precision_and_scale(38, 9)
            .unwrap();
        let b = RecordBatch::try_new(
            Arc::new(schema),
            vec![Arc::new(px), Arc::new(Int64Array::from(vec![1, 2, 3]))],
        )
        .unwrap();
        for writer in [ParquetWriter::Arrow, ParquetWriter::Own] {
            let root = dir.path().join(format!("{writer:?}"));
            let options = SinkOptions {
                writer,
                ..SinkOptions::default()
            };
            let mut w = PartitionedWriter::new(&root, options).unwrap();
            w.write(&[("type", "t")], "t", &b).unwrap();
            let (_, files) = w.finish().unwrap();
            let r = SerializedFileReader::new(std::fs::File::open(&files[0]).unwrap()).unwrap();
            let g = r.metadata().row_group(0);
            let px = g.column(0).statistics();
            assert!(px.is_none_or(|s| s.min_bytes_opt().is_none()), "{writer:?}");
            let qty = g.column(1).statistics().unwrap();
            assert_eq!(qty.null_count_opt(), Some(0));
            assert!(qty.min_bytes_opt().is_some(), "{writer:?}");
        }
    }

    #[test]
    fn the_writer_thread_writes_the_same_files() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_two(&dir.path().join("inline"), SinkOptions::default(), false);
        let b = write_two(&dir.path().join("thread"), SinkOptions::default(), true);
        assert_eq!(a.len(), 2);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(std::fs::read(x).unwrap(), std::fs::read(y).unwrap());
        }
    }

    #[test]
    fn the_writer_threads_error_is_reported_and_no_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = PartitionedWriter::threaded(dir.path(), SinkOptions::default()).unwrap();
        w.write(&[("type", "t")], "t", &batch(0, 10)).unwrap();
        // Another schema in the same file: the Parquet writer refuses it on the thread.
        let other = RecordBatch::try_new(
            Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)])),
            vec![Arc::new(Int64Array::from(vec![1, 2]))],
        )
        .unwrap();
        let mut failed = w.write(&[("type", "t")], "t", &other).is_err();
        for _ in 0..10 {
            failed |= w.write(&[("type", "t")], "t", &batch(0, 10)).is_err();
        }
        failed |= w.finish().is_err();
        assert!(failed);
        let mut left = Vec::new();
        for e in std::fs::read_dir(dir.path().join("type=t")).unwrap() {
            left.push(e.unwrap().file_name());
        }
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn escapes_partition_values() {
        assert_eq!(escape("a/b=c"), "a%2Fb%3Dc");
        assert_eq!(escape("trade"), "trade");
    }
}
