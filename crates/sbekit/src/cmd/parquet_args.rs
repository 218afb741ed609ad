//! The Parquet writer's flags, shared by `decode --to`, `capture export` and `iex export`
//! (one writer, `sbekit_arrow::sink`, so one set of flags and one help text).

use clap::Args;
use sbekit_arrow::sink::{Codec, Dictionary, ParquetWriter, PartitionedWriter, SinkOptions};

/// How Parquet files are written.
#[derive(Args, Debug, Clone)]
pub struct ParquetArgs {
    /// Rows per Parquet row group, at most.
    #[arg(long, value_name = "N", default_value_t = 1 << 20)]
    row_group_rows: usize,
    /// Parquet page compression: `snappy` (default; fast, read everywhere) or `none` (about
    /// 15% less CPU, larger files).
    #[arg(long, value_name = "CODEC", default_value = "snappy")]
    compression: Codec,
    /// Parquet dictionary encoding: `auto` (default: each file decides per column from its
    /// first batch, plain where the values are mostly distinct, such as timestamps, sequence
    /// numbers and ids, and delta-encoded where those are integers; smaller files, less CPU),
    /// `on` (every column, Parquet's own default) or `off`.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    dictionary: Dictionary,
    /// Memory for open Parquet row groups, in MiB, across all files open at once (one per
    /// table and partition): past it, the largest row groups are written out early (smaller
    /// row groups; the decoder's batches are not counted). Default 96; `capture export` a
    /// quarter of its --memory.
    #[arg(long, value_name = "MIB")]
    writer_memory: Option<usize>,
    /// Threads: 2 (default) encodes and writes the files on a second thread while the input
    /// is decoded (10-35% shorter wall time on two cores, up to 20% more CPU time); 1 does
    /// everything on one (the least CPU).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    threads: u8,
    /// The Parquet page encoder: `sbekit` (default; its own, for the types decoding produces,
    /// falling back to arrow-rs's for a file with other types) or `arrow` (arrow-rs's
    /// `ArrowWriter` for every file). Both write the same values.
    #[arg(long, value_name = "WRITER", default_value = "sbekit")]
    parquet_writer: ParquetWriter,
}

impl ParquetArgs {
    /// The writer a command's `--to FORMAT DIR` asks for, and the directory; `memory_mib`
    /// is the open row groups' budget when --writer-memory is not given.
    pub fn open<'a>(
        &self,
        to: &'a [String],
        memory_mib: usize,
    ) -> Result<(PartitionedWriter, &'a std::path::Path), super::Failure> {
        let [format, dir] = to else {
            return Err(super::Failure::usage("--to takes a format and a directory"));
        };
        let format = format.parse().map_err(super::Failure::usage)?;
        let dir = std::path::Path::new(dir);
        let options = SinkOptions {
            format,
            memory_budget: mib(memory_mib),
            ..SinkOptions::default()
        };
        let out = self.writer(dir, options).map_err(super::Failure::usage)?;
        Ok((out, dir))
    }

    /// The writer under `root` for `options` (see [`ParquetArgs::apply`]), threaded as asked.
    pub fn writer(
        &self,
        root: &std::path::Path,
        options: SinkOptions,
    ) -> Result<PartitionedWriter, sbekit_arrow::Error> {
        let options = self.apply(options);
        if self.threads > 1 {
            PartitionedWriter::threaded(root, options)
        } else {
            PartitionedWriter::new(root, options)
        }
    }

    /// `base` with these settings (all but the threads).
    pub fn apply(&self, base: SinkOptions) -> SinkOptions {
        SinkOptions {
            row_group_rows: self.row_group_rows.max(1),
            compression: self.compression,
            dictionary: self.dictionary,
            memory_budget: self.writer_memory.map_or(base.memory_budget, mib),
            writer: self.parquet_writer,
            ..base
        }
    }
}

/// The open row groups' budget of `decode --to` and `iex export`, in MiB.
pub const WRITER_MIB: usize = 96;

/// `n` MiB in bytes (at least one MiB).
pub fn mib(n: usize) -> usize {
    n.max(1).saturating_mul(1 << 20)
}
