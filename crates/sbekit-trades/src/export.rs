//! Trade files back out to CSV (exactly what `synth` writes for lossless files). Parquet
//! export lives in `sbekit-arrow` (`sbekit_arrow::trades`), the one Arrow mapping.

use crate::csvio;
use crate::error::{Error, Result};
use crate::file::{records, TradeFile};
use crate::trade::{Compact, LayoutKind, Lossless, RecordLayout, RecordView};
use std::io::Write;

fn csv_range<L: RecordLayout>(f: &TradeFile, out: &mut dyn Write) -> Result<u64> {
    let mut buf = Vec::with_capacity(1 << 20);
    let mut idx = 0u64;
    let werr = |e: std::io::Error| Error::Io {
        path: "output".into(),
        source: e,
    };
    f.scan(0..f.len(), |bytes, n| -> Result<()> {
        for v in records::<L>(bytes, n) {
            csvio::write_row(&mut buf, &v.trade())
                .map_err(|r| Error::bad_file(f.path(), format!("record {idx}: {r}")))?;
            idx += 1;
            if buf.len() >= 1 << 20 {
                out.write_all(&buf).map_err(werr)?;
                buf.clear();
            }
        }
        Ok(())
    })?;
    out.write_all(&buf).map_err(werr)?;
    Ok(idx)
}

/// Writes every record as a CSV row (with the header line) to `out`; returns the rows
/// written. For the compact layout, server times come back at millisecond precision.
pub fn to_csv(f: &TradeFile, out: &mut dyn Write) -> Result<u64> {
    let werr = |e: std::io::Error| Error::Io {
        path: "output".into(),
        source: e,
    };
    out.write_all(csvio::HEADER.as_bytes()).map_err(werr)?;
    out.write_all(b"\n").map_err(werr)?;
    let n = match f.header().layout {
        LayoutKind::Lossless => csv_range::<Lossless>(f, out)?,
        LayoutKind::Compact => csv_range::<Compact>(f, out)?,
    };
    out.flush().map_err(werr)?;
    Ok(n)
}
