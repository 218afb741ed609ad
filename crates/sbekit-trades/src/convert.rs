//! CSV to trade file, streaming in constant memory.

use crate::error::{Error, Result};
use crate::file::{Header, PushError, TradeWriter};
use crate::reader::TradeReader;
use crate::trade::LayoutKind;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// How to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConvertOptions {
    /// Record layout to write.
    pub layout: LayoutKind,
    /// Skip malformed rows (counting them) instead of stopping at the first.
    pub skip_invalid: bool,
    /// How many skipped rows to keep the reasons of.
    pub keep_reasons: usize,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            layout: LayoutKind::Lossless,
            skip_invalid: false,
            keep_reasons: 5,
        }
    }
}

/// A row that was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line number.
    pub line: u64,
    /// Why.
    pub reason: String,
}

/// What a conversion did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertReport {
    /// The written file's header (its record count is the number of rows accepted).
    pub header: Header,
    /// Data rows read (header line not counted).
    pub rows: u64,
    /// Rows skipped (`rows - skipped == header.record_count`).
    pub skipped: u64,
    /// The first skipped rows and why.
    pub first_skipped: Vec<Skipped>,
    /// Bytes of CSV read.
    pub bytes_in: u64,
    /// Bytes of trade file written.
    pub bytes_out: u64,
}

/// How often (in rows) the progress callback is called.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// Converts the CSV at `input` (`-` for standard input) to a trade file at `output`.
///
/// `progress(bytes_read, rows_read)` is called every [`PROGRESS_EVERY`] rows. On any error
/// nothing is left at `output` (and the temporary file is removed).
pub fn convert(
    input: &Path,
    output: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<ConvertReport> {
    let reader: Box<dyn Read> = if input == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(File::open(input).map_err(|e| Error::io(input, e))?)
    };
    let mut rdr = TradeReader::new(reader, &input.display().to_string())?;
    let mut w = TradeWriter::create(output, opts.layout)?;
    let (mut rows, mut skipped) = (0u64, 0u64);
    let mut first_skipped = Vec::new();
    while let Some((line, row)) = rdr.next_raw()? {
        rows += 1;
        let reason = match row {
            Ok(t) => match w.push_raw(&t) {
                Ok(()) => None,
                Err(PushError::Reject(r)) => Some(r),
                Err(PushError::Io(e)) => return Err(e),
            },
            Err(r) => Some(r),
        };
        if let Some(reason) = reason {
            if !opts.skip_invalid {
                return Err(Error::BadRow {
                    path: input.display().to_string(),
                    line,
                    reason,
                });
            }
            skipped += 1;
            if first_skipped.len() < opts.keep_reasons {
                first_skipped.push(Skipped { line, reason });
            }
        }
        if rows % PROGRESS_EVERY == 0 {
            progress(rdr.bytes_read(), rows);
        }
    }
    let bytes_in = rdr.bytes_read();
    progress(bytes_in, rows);
    let header = w.finish()?;
    Ok(ConvertReport {
        bytes_out: header.file_size(),
        header,
        rows,
        skipped,
        first_skipped,
        bytes_in,
    })
}
