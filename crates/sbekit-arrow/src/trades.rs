//! The trade store's records to Arrow and Parquet (`sbekit trades export --parquet`).
//!
//! The columns are the CSV's, under the same names, so the same SQL runs over both: `time`
//! (`Int64` ns since the epoch), `amount` and `price` (`Float64`, as the CSV and the record
//! hold them), `exch`, `side` (`na`/`bid`/`ask`) and `ticker` (`btc_usd`) as `Utf8`
//! (dictionary-encoded in the file), `server_time` (`Int64`, null where the CSV has 0).

use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use sbekit_fs::AtomicFile;
use sbekit_trades::csvio;
use sbekit_trades::error::{Error, Result};
use sbekit_trades::file::{records, TradeFile};
use sbekit_trades::trade::{Compact, LayoutKind, Lossless, RecordLayout, RecordView, Trade};
use std::path::Path;
use std::sync::Arc;

/// Rows per Arrow batch handed to the Parquet writer.
pub const BATCH_ROWS: usize = 65_536;
/// Rows per Parquet row group.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The Parquet schema: the CSV's columns and names, so the same SQL runs over both.
/// `time` is Int64 nanoseconds since the epoch; `server_time` is null where the CSV has 0;
/// `exch`, `side` (`na`/`bid`/`ask`) and `ticker` (`btc_usd`) are strings (dictionary-encoded
/// in the file).
pub fn parquet_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("time", DataType::Int64, false),
        Field::new("amount", DataType::Float64, false),
        Field::new("exch", DataType::Utf8, false),
        Field::new("price", DataType::Float64, false),
        Field::new("server_time", DataType::Int64, true),
        Field::new("side", DataType::Utf8, false),
        Field::new("ticker", DataType::Utf8, false),
    ]))
}

struct Columns {
    time: Int64Builder,
    amount: Float64Builder,
    exch: StringBuilder,
    price: Float64Builder,
    server_time: Int64Builder,
    side: StringBuilder,
    ticker: StringBuilder,
    rows: usize,
}

impl Columns {
    fn new() -> Self {
        Columns {
            time: Int64Builder::with_capacity(BATCH_ROWS),
            amount: Float64Builder::with_capacity(BATCH_ROWS),
            exch: StringBuilder::with_capacity(BATCH_ROWS, BATCH_ROWS * 4),
            price: Float64Builder::with_capacity(BATCH_ROWS),
            server_time: Int64Builder::with_capacity(BATCH_ROWS),
            side: StringBuilder::with_capacity(BATCH_ROWS, BATCH_ROWS * 3),
            ticker: StringBuilder::with_capacity(BATCH_ROWS, BATCH_ROWS * 7),
            rows: 0,
        }
    }

    fn push(&mut self, t: &Trade, tickers: &mut TickerNames) -> std::result::Result<(), String> {
        let ns = |v: u64, what: &str| {
            i64::try_from(v).map_err(|_| format!("{what} {v} does not fit Parquet's Int64"))
        };
        self.time.append_value(ns(t.time, "time")?);
        self.amount.append_value(t.amount);
        self.exch.append_value(
            t.exchange
                .name()
                .ok_or_else(|| format!("unknown exchange code {}", t.exchange.to_raw()))?,
        );
        self.price.append_value(t.price);
        match t.server_time {
            Some(s) => self.server_time.append_value(ns(s, "server_time")?),
            None => self.server_time.append_null(),
        }
        self.side.append_value(
            csvio::side_name(t.side)
                .ok_or_else(|| format!("unknown side code {}", t.side.to_raw()))?,
        );
        self.ticker.append_value(tickers.name(t)?);
        self.rows += 1;
        Ok(())
    }

    fn finish(&mut self, schema: &SchemaRef) -> std::result::Result<RecordBatch, String> {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.time.finish()),
            Arc::new(self.amount.finish()),
            Arc::new(self.exch.finish()),
            Arc::new(self.price.finish()),
            Arc::new(self.server_time.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.ticker.finish()),
        ];
        self.rows = 0;
        RecordBatch::try_new(schema.clone(), cols).map_err(|e| e.to_string())
    }
}

/// `base_quote` strings, built once per (base, quote) pair.
#[derive(Default)]
struct TickerNames(std::collections::HashMap<(u8, u8), String>);

impl TickerNames {
    fn name(&mut self, t: &Trade) -> std::result::Result<&str, String> {
        use std::collections::hash_map::Entry;
        let key = (t.base.to_raw(), t.quote.to_raw());
        match self.0.entry(key) {
            Entry::Occupied(e) => Ok(e.into_mut()),
            Entry::Vacant(e) => {
                let b = t
                    .base
                    .name()
                    .ok_or_else(|| format!("unknown currency code {}", key.0))?;
                let q = t
                    .quote
                    .name()
                    .ok_or_else(|| format!("unknown currency code {}", key.1))?;
                Ok(e.insert(format!("{b}_{q}")))
            }
        }
    }
}

fn parquet_range<L: RecordLayout>(
    f: &TradeFile,
    w: &mut ArrowWriter<AtomicFile>,
    out: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    let schema = parquet_schema();
    let mut cols = Columns::new();
    let mut tickers = TickerNames::default();
    let mut idx = 0u64;
    let perr = |e| parquet_error(out, e);
    f.scan(0..f.len(), |bytes, n| -> Result<()> {
        for v in records::<L>(bytes, n) {
            cols.push(&v.trade(), &mut tickers)
                .map_err(|r| Error::bad_file(f.path(), format!("record {idx}: {r}")))?;
            idx += 1;
            if cols.rows == BATCH_ROWS {
                let batch = cols.finish(&schema).map_err(Error::Invalid)?;
                w.write(&batch).map_err(perr)?;
                progress(idx);
            }
        }
        Ok(())
    })?;
    if cols.rows > 0 {
        let batch = cols.finish(&schema).map_err(Error::Invalid)?;
        w.write(&batch).map_err(perr)?;
    }
    progress(idx);
    Ok(idx)
}

/// Writes every record to a Parquet file at `out` (snappy-compressed, row groups of
/// [`ROW_GROUP_ROWS`]), atomically through [`sbekit_fs::AtomicFile`]: nothing appears at `out`
/// unless the whole file was written. `progress(rows)` is called after each batch. Returns the
/// rows written.
pub fn to_parquet(f: &TradeFile, out: &Path, progress: &mut dyn FnMut(u64)) -> Result<u64> {
    // On any error below, dropping the writer removes the temporary file.
    let file = AtomicFile::create(out).map_err(|e| Error::io(out, e))?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("sbekit {}", env!("CARGO_PKG_VERSION")))
        .build();
    let perr = |e| parquet_error(out, e);
    let mut w = ArrowWriter::try_new(file, parquet_schema(), Some(props)).map_err(perr)?;
    let n = match f.header().layout {
        LayoutKind::Lossless => parquet_range::<Lossless>(f, &mut w, out, progress)?,
        LayoutKind::Compact => parquet_range::<Compact>(f, &mut w, out, progress)?,
    };
    let file = w.into_inner().map_err(perr)?;
    file.commit().map_err(|e| Error::io(out, e))?;
    Ok(n)
}

/// A Parquet writer's error: an I/O error underneath stays an I/O error (the CLI's exit 2).
fn parquet_error(out: &Path, e: parquet::errors::ParquetError) -> Error {
    match e {
        parquet::errors::ParquetError::External(b) => match b.downcast::<std::io::Error>() {
            Ok(io) => Error::io(out, *io),
            Err(b) => Error::Invalid(format!("{}: {b}", out.display())),
        },
        e => Error::Invalid(format!("{}: {e}", out.display())),
    }
}

fn batches_range<L: RecordLayout>(f: &TradeFile, out: &mut Vec<RecordBatch>) -> Result<()> {
    let schema = parquet_schema();
    let mut cols = Columns::new();
    let mut tickers = TickerNames::default();
    let mut idx = 0u64;
    f.scan(0..f.len(), |bytes, n| -> Result<()> {
        for v in records::<L>(bytes, n) {
            cols.push(&v.trade(), &mut tickers)
                .map_err(|r| Error::bad_file(f.path(), format!("record {idx}: {r}")))?;
            idx += 1;
            if cols.rows == BATCH_ROWS {
                out.push(cols.finish(&schema).map_err(Error::Invalid)?);
            }
        }
        Ok(())
    })?;
    if cols.rows > 0 {
        out.push(cols.finish(&schema).map_err(Error::Invalid)?);
    }
    Ok(())
}

/// Every record as RecordBatches of [`BATCH_ROWS`] rows, with the [`parquet_schema`] columns
/// (what the Python package's `TradeFile.table()` returns).
pub fn to_batches(f: &TradeFile) -> Result<Vec<RecordBatch>> {
    let mut out = Vec::new();
    match f.header().layout {
        LayoutKind::Lossless => batches_range::<Lossless>(f, &mut out)?,
        LayoutKind::Compact => batches_range::<Compact>(f, &mut out)?,
    }
    Ok(out)
}
