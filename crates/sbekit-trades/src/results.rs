//! Query and stats results as CSV (through the `csv` crate): what `sbekit trades query` and
//! `sbekit trades stats` print.
//!
//! Floats are written in Rust's shortest round-trip form (`NaN` for a ratio with an empty side).

use crate::query::{EasyRow, HardRow};
use crate::stats::Stats;
use std::io::{self, Write};

fn writer<W: Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(1 << 16)
        .from_writer(out)
}

/// Writes the easy query's rows (`hour,ratio`, with the header line).
pub fn write_easy<W: Write>(rows: &[EasyRow], out: W) -> io::Result<()> {
    let mut w = writer(out);
    w.write_record(["hour", "ratio"])?;
    for r in rows {
        w.write_record([r.hour.to_string(), r.ratio.to_string()])?;
    }
    w.flush()
}

/// Writes the hard query's rows as they come (`time,ratio_5m,ratio_15m,ratio_60m`).
pub struct HardWriter<W: Write> {
    w: csv::Writer<W>,
    rows: u64,
}

impl<W: Write> HardWriter<W> {
    /// Starts the output with its header line.
    pub fn new(out: W) -> io::Result<Self> {
        let mut w = writer(out);
        w.write_record(["time", "ratio_5m", "ratio_15m", "ratio_60m"])?;
        Ok(HardWriter { w, rows: 0 })
    }

    /// Writes a batch of rows.
    pub fn write(&mut self, rows: &[HardRow]) -> io::Result<()> {
        for r in rows {
            let [a, b, c] = r.ratio;
            self.w.write_record([
                r.time.to_string(),
                a.to_string(),
                b.to_string(),
                c.to_string(),
            ])?;
        }
        self.rows += rows.len() as u64;
        Ok(())
    }

    /// Flushes the output; returns the rows written.
    pub fn finish(mut self) -> io::Result<u64> {
        self.w.flush()?;
        Ok(self.rows)
    }
}

/// Writes the counts per exchange and ticker (`exch,ticker,rows`).
pub fn write_stats<W: Write>(st: &Stats, out: W) -> io::Result<()> {
    let mut w = writer(out);
    w.write_record(["exch", "ticker", "rows"])?;
    for (ex, ticker, n) in st.named() {
        w.write_record([ex, ticker, n.to_string()])?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easy_and_hard_text() {
        let mut out = Vec::new();
        let rows = [
            EasyRow {
                hour: 3_600_000_000_000,
                ratio: 1.25,
            },
            EasyRow {
                hour: 7_200_000_000_000,
                ratio: f64::NAN,
            },
        ];
        write_easy(&rows, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "hour,ratio\n3600000000000,1.25\n7200000000000,NaN\n"
        );
        let mut out = Vec::new();
        let mut w = HardWriter::new(&mut out).unwrap();
        w.write(&[HardRow {
            time: 10,
            ratio: [0.1, 1.0, f64::NAN],
        }])
        .unwrap();
        assert_eq!(w.finish().unwrap(), 1);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "time,ratio_5m,ratio_15m,ratio_60m\n10,0.1,1,NaN\n"
        );
    }
}
