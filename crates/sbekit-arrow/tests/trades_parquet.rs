//! Parquet export: every value comes back, with the CSV's column names.

use arrow_array::{Array, Float64Array, Int64Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sbekit_arrow::trades::{to_parquet, BATCH_ROWS};
use sbekit_trades::convert::{convert, ConvertOptions};
use sbekit_trades::file::TradeFile;
use sbekit_trades::synth::{Synth, SynthConfig};
use sbekit_trades::{csvio, Trade};

#[test]
fn parquet_holds_every_value() {
    let cfg = SynthConfig {
        rows: BATCH_ROWS as u64 * 2 + 123,
        seed: 21,
        ..Default::default()
    };
    let trades: Vec<Trade> = Synth::new(&cfg).collect();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    write_trades(&csv, &trades);
    let bin = dir.path().join("t.sbe");
    convert(&csv, &bin, &ConvertOptions::default(), &mut |_, _| {}).unwrap();
    let out = dir.path().join("t.parquet");
    let mut calls = 0;
    let n = to_parquet(&TradeFile::open(&bin).unwrap(), &out, &mut |_| calls += 1).unwrap();
    assert_eq!(n, trades.len() as u64);
    assert!(calls >= 3);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        3,
        "no temp file left"
    );

    let file = std::fs::File::open(&out).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let names: Vec<String> = reader
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, csvio::COLUMNS);
    let mut i = 0;
    for batch in reader.build().unwrap() {
        let b = batch.unwrap();
        let col = |k: usize| b.column(k).clone();
        let time = col(0);
        let time = time.as_any().downcast_ref::<Int64Array>().unwrap();
        let amount = col(1);
        let amount = amount.as_any().downcast_ref::<Float64Array>().unwrap();
        let exch = col(2);
        let exch = exch.as_any().downcast_ref::<StringArray>().unwrap();
        let price = col(3);
        let price = price.as_any().downcast_ref::<Float64Array>().unwrap();
        let st = col(4);
        let st = st.as_any().downcast_ref::<Int64Array>().unwrap();
        let side = col(5);
        let side = side.as_any().downcast_ref::<StringArray>().unwrap();
        let ticker = col(6);
        let ticker = ticker.as_any().downcast_ref::<StringArray>().unwrap();
        for r in 0..b.num_rows() {
            let t = &trades[i];
            assert_eq!(time.value(r) as u64, t.time);
            assert_eq!(amount.value(r).to_bits(), t.amount.to_bits());
            assert_eq!(exch.value(r), t.exchange.name().unwrap());
            assert_eq!(price.value(r).to_bits(), t.price.to_bits());
            match t.server_time {
                Some(s) => assert_eq!(st.value(r) as u64, s),
                None => assert!(st.is_null(r)),
            }
            assert_eq!(side.value(r), csvio::side_name(t.side).unwrap());
            assert_eq!(
                ticker.value(r),
                format!("{}_{}", t.base.name().unwrap(), t.quote.name().unwrap())
            );
            i += 1;
        }
    }
    assert_eq!(i, trades.len());
}

/// Writes trades as CSV.
fn write_trades(path: &std::path::Path, trades: &[Trade]) {
    let mut buf = format!("{}\n", csvio::HEADER).into_bytes();
    for t in trades {
        csvio::write_row(&mut buf, t).unwrap();
    }
    std::fs::write(path, buf).unwrap();
}
