//! sbekit's own Parquet writer (`sbekit_arrow::parquet_writer`): every column type the
//! exports produce comes back from arrow-rs's reader equal to what was written (nulls, lists
//! of structs with empty and null lists, nested structs, decimals of the three physical
//! types, strings, binary, enums, plain, delta and dictionary encodings, several row groups
//! and pages), in a fixed test and for random batches; DuckDB reads the same values.

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use proptest::prelude::*;
use sbekit_arrow::parquet_writer::{ColumnEncoding, FileWriter, Options};
use sbekit_arrow::sink::Codec;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A splitmix64 stream: the values of a test batch, fixed by seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// Validity: one null in `one_in` (none when 0).
    fn nulls(&mut self, n: usize, one_in: u64) -> Option<NullBuffer> {
        (one_in > 0).then(|| NullBuffer::from_iter((0..n).map(|_| self.below(one_in) != 0)))
    }
}

const WORDS: [&str; 6] = ["ES", "NQ", "CLZ6", "", "ZN long symbol name", "6E"];

/// A batch of `n` rows with every handled type; `distinct` makes values mostly distinct
/// (plain and delta territory) instead of repeating (dictionary territory); `one_in`: nulls.
fn batch(n: usize, seed: u64, distinct: bool, one_in: u64) -> RecordBatch {
    let mut r = Rng(seed);
    let ints = |r: &mut Rng, bits: u32| -> i64 {
        if distinct {
            r.next() as i64 >> (64 - bits)
        } else {
            (r.below(5) as i64 - 2) << (bits - 8)
        }
    };
    let mut cols: Vec<(Field, ArrayRef)> = Vec::new();
    let mut add = |name: &str, a: ArrayRef, nullable: bool| {
        cols.push((Field::new(name, a.data_type().clone(), nullable), a));
    };
    let nb = r.nulls(n, one_in);
    add(
        "b",
        Arc::new(BooleanArray::new(
            (0..n).map(|_| r.below(2) == 0).collect(),
            nb,
        )),
        true,
    );
    macro_rules! prim {
        ($name:expr, $arr:ty, $bits:expr, $conv:ty) => {{
            let v: Vec<$conv> = (0..n).map(|_| ints(&mut r, $bits) as $conv).collect();
            let nulls = r.nulls(n, one_in);
            add($name, Arc::new(<$arr>::new(v.into(), nulls)), true);
        }};
    }
    prim!("i8", Int8Array, 8, i8);
    prim!("i16", Int16Array, 16, i16);
    prim!("i32", Int32Array, 32, i32);
    prim!("i64", Int64Array, 64, i64);
    prim!("u8", UInt8Array, 8, u8);
    prim!("u16", UInt16Array, 16, u16);
    prim!("u32", UInt32Array, 32, u32);
    prim!("u64", UInt64Array, 64, u64);
    // Required (non-null) columns: no definition levels.
    let seq: Vec<u64> = (0..n as u64).map(|i| i * 3 + (seed & 7)).collect();
    add("seq", Arc::new(UInt64Array::from(seq)), false);
    let f32s: Vec<f32> = (0..n).map(|_| ints(&mut r, 16) as f32 / 7.0).collect();
    let nulls = r.nulls(n, one_in);
    add("f32", Arc::new(Float32Array::new(f32s.into(), nulls)), true);
    let f64s: Vec<f64> = (0..n).map(|_| ints(&mut r, 40) as f64 / 3.0).collect();
    add("f64", Arc::new(Float64Array::from(f64s)), false);
    let ts: Vec<i64> = (0..n as i64)
        .map(|i| 1_700_000_000_000_000_000 + i * 1_000 + ints(&mut r, 10))
        .collect();
    let nulls = r.nulls(n, one_in);
    add(
        "ts_ns",
        Arc::new(TimestampNanosecondArray::new(ts.into(), nulls).with_timezone("UTC")),
        true,
    );
    let ts: Vec<i64> = (0..n as i64).map(|i| 1_700_000_000 + i / 100).collect();
    add(
        "ts_s",
        Arc::new(TimestampSecondArray::from(ts).with_timezone("UTC")),
        false,
    );
    // dec25: FIXED_LEN_BYTE_ARRAY(11), a length below the 16 bytes of the whole value.
    for (name, p, s) in [
        ("dec5", 5u8, 2i8),
        ("dec18", 18, 4),
        ("dec25", 25, 6),
        ("dec38", 38, 9),
    ] {
        let v: Vec<i128> = (0..n)
            .map(|_| i128::from(ints(&mut r, if p == 5 { 16 } else { 56 })))
            .collect();
        let nulls = r.nulls(n, one_in);
        let a = Decimal128Array::new(v.into(), nulls)
            .with_precision_and_scale(p, s)
            .unwrap();
        add(name, Arc::new(a), true);
    }
    let strs: Vec<Option<String>> = (0..n)
        .map(|_| {
            if one_in > 0 && r.below(one_in) == 0 {
                None
            } else if distinct {
                Some(format!("id-{:x}", r.next()))
            } else {
                Some(WORDS[r.below(WORDS.len() as u64) as usize].to_string())
            }
        })
        .collect();
    add("s", Arc::new(StringArray::from(strs.clone())), true);
    let bins: Vec<Option<&[u8]>> = strs
        .iter()
        .map(|s| s.as_deref().map(str::as_bytes))
        .collect();
    add("bin", Arc::new(BinaryArray::from(bins)), true);
    let mut e = StringDictionaryBuilder::<Int32Type>::new();
    for _ in 0..n {
        if one_in > 0 && r.below(one_in) == 0 {
            e.append_null();
        } else {
            e.append_value(["Bid", "Offer", "Trade"][r.below(3) as usize]);
        }
    }
    add("side", Arc::new(e.finish()), true);
    // A nested struct: a set of flags and a composite with a struct inside.
    let flags = StructArray::new(
        Fields::from(vec![
            Field::new("a", DataType::Boolean, true),
            Field::new("b", DataType::Boolean, true),
        ]),
        vec![
            Arc::new(BooleanArray::from(
                (0..n).map(|i| i % 3 == 0).collect::<Vec<_>>(),
            )),
            Arc::new(BooleanArray::from(
                (0..n).map(|i| i % 5 == 0).collect::<Vec<_>>(),
            )),
        ],
        r.nulls(n, one_in),
    );
    let inner = StructArray::new(
        Fields::from(vec![Field::new("m", DataType::Int64, true)]),
        vec![Arc::new(Int64Array::new(
            (0..n).map(|_| ints(&mut r, 30)).collect::<Vec<_>>().into(),
            r.nulls(n, one_in),
        ))],
        r.nulls(n, one_in),
    );
    let outer = StructArray::new(
        Fields::from(vec![
            Field::new("flags", flags.data_type().clone(), true),
            Field::new("inner", inner.data_type().clone(), true),
        ]),
        vec![Arc::new(flags), Arc::new(inner)],
        r.nulls(n, one_in),
    );
    add("composite", Arc::new(outer), true);
    // A repeating group: a list of structs, with empty and null lists.
    let mut offsets = vec![0i32];
    for _ in 0..n {
        let len = [0, 1, 1, 2, 3, 8][r.below(6) as usize];
        offsets.push(offsets.last().unwrap() + len);
    }
    let m = *offsets.last().unwrap() as usize;
    let px = Decimal128Array::new(
        (0..m)
            .map(|_| i128::from(ints(&mut r, 40)))
            .collect::<Vec<_>>()
            .into(),
        r.nulls(m, one_in),
    )
    .with_precision_and_scale(38, 9)
    .unwrap();
    let qty = Int32Array::new(
        (0..m)
            .map(|_| ints(&mut r, 20) as i32)
            .collect::<Vec<_>>()
            .into(),
        r.nulls(m, one_in),
    );
    let sym = StringArray::from(
        (0..m)
            .map(|_| WORDS[r.below(3) as usize])
            .collect::<Vec<_>>(),
    );
    let entry_fields = Fields::from(vec![
        Field::new("px", px.data_type().clone(), true),
        Field::new("qty", DataType::Int32, true),
        Field::new("sym", DataType::Utf8, false),
    ]);
    let entries = StructArray::new(
        entry_fields.clone(),
        vec![Arc::new(px), Arc::new(qty), Arc::new(sym)],
        r.nulls(m, one_in),
    );
    let item = Arc::new(Field::new("item", DataType::Struct(entry_fields), true));
    let list_nulls = r.nulls(n, one_in);
    // Null lists keep entries under them (Arrow allows it); they are not written.
    let list = ListArray::new(
        item,
        OffsetBuffer::new(offsets.into()),
        Arc::new(entries),
        list_nulls,
    );
    add("entries", Arc::new(list), true);
    // A fixed-size list (SBE arrays).
    let fsl_values = UInt8Array::from((0..n * 3).map(|i| (i % 251) as u8).collect::<Vec<_>>());
    let fsl = FixedSizeListArray::new(
        Arc::new(Field::new("item", DataType::UInt8, true)),
        3,
        Arc::new(fsl_values),
        r.nulls(n, one_in),
    );
    add("arr", Arc::new(fsl), true);
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = cols.into_iter().unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// Writes `batches` with sbekit's writer, each leaf encoded as `encoding` picks.
fn write(
    path: &Path,
    batches: &[RecordBatch],
    encoding: impl Fn(usize) -> ColumnEncoding,
    row_group_rows: usize,
    codec: Codec,
) {
    let file = std::fs::File::create(path).unwrap();
    let options = Options {
        codec,
        row_group_rows,
        row_group_bytes: 128 << 20,
        created_by: "test".into(),
    };
    let mut w = FileWriter::new(file, batches[0].schema(), |i, _| encoding(i), options).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.into_inner().unwrap();
}

/// The file's rows as one batch, by arrow-rs's reader; and its row group count.
fn read(path: &Path) -> (RecordBatch, usize) {
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let groups = b.metadata().num_row_groups();
    let rows = b.metadata().file_metadata().num_rows() as usize;
    let mut r = b.with_batch_size(rows.max(1)).build().unwrap();
    let got = r.next().map(|b| b.unwrap());
    assert!(r.next().is_none());
    (got.unwrap(), groups)
}

fn concat(batches: &[RecordBatch]) -> RecordBatch {
    // Written and read back through arrow-rs's own writer: the reference of a concatenation.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("ref.parquet");
    let mut w = parquet::arrow::ArrowWriter::try_new(
        std::fs::File::create(&p).unwrap(),
        batches[0].schema(),
        None,
    )
    .unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    read(&p).0
}

fn assert_same(got: &RecordBatch, want: &RecordBatch) {
    assert_eq!(got.schema().fields(), want.schema().fields());
    assert_eq!(got.num_rows(), want.num_rows());
    for (i, (g, w)) in got.columns().iter().zip(want.columns()).enumerate() {
        assert_eq!(
            g.as_ref(),
            w.as_ref(),
            "column {}",
            want.schema().field(i).name()
        );
    }
}

/// Each leaf's encoding, by its index.
type Pick = fn(usize) -> ColumnEncoding;

fn encodings() -> [(&'static str, Pick); 4] {
    [
        ("plain", |_| ColumnEncoding::Plain),
        ("delta", |_| ColumnEncoding::Delta),
        ("dictionary", |_| ColumnEncoding::Dictionary),
        ("mixed", |i| match i % 3 {
            0 => ColumnEncoding::Plain,
            1 => ColumnEncoding::Delta,
            _ => ColumnEncoding::Dictionary,
        }),
    ]
}

#[test]
fn every_type_round_trips_through_arrow_rs_reader() {
    let dir = tempfile::tempdir().unwrap();
    for (distinct, one_in) in [(false, 0), (false, 4), (true, 3)] {
        let b = batch(5_000, 7, distinct, one_in);
        for (name, enc) in encodings() {
            for codec in [Codec::Snappy, Codec::None] {
                let p = dir
                    .path()
                    .join(format!("{name}-{distinct}-{one_in}-{codec:?}.parquet"));
                write(&p, std::slice::from_ref(&b), enc, 1 << 20, codec);
                let (got, groups) = read(&p);
                assert_eq!(groups, 1);
                assert_same(&got, &b);
            }
        }
    }
}

#[test]
fn sliced_batches_row_groups_and_pages_round_trip() {
    // Slices (arrays with offsets), several row groups, and columns large enough for many
    // pages (more than 2^17 levels, or 1 MiB of values, a page).
    let dir = tempfile::tempdir().unwrap();
    let big = batch(160_000, 11, true, 5);
    let parts: Vec<RecordBatch> = [(0, 1), (1, 50_000), (50_001, 0), (50_001, 109_999)]
        .iter()
        .map(|&(at, n)| big.slice(at, n))
        .collect();
    for (name, enc) in encodings() {
        let p = dir.path().join(format!("{name}.parquet"));
        write(&p, &parts, enc, 60_000, Codec::Snappy);
        let (got, groups) = read(&p);
        assert_eq!(groups, 3, "{name}");
        assert_same(&got, &concat(&parts));
    }
}

#[test]
fn pages_mixing_constant_and_varying_levels_round_trip() {
    // One page gathers writes whose levels are all the same (no nulls, no empty lists: kept
    // as a count), vary (materialized), or are all null, in every order.
    let dir = tempfile::tempdir().unwrap();
    let parts: Vec<RecordBatch> = [
        (0, false),
        (3, false),
        (0, true),
        (0, false),
        (1, false),
        (2, true),
        (0, false),
    ]
    .iter()
    .enumerate()
    .map(|(k, &(one_in, distinct))| batch(300 + k, 20 + k as u64, distinct, one_in))
    .collect();
    for (name, enc) in encodings() {
        for rows in [1 << 20, 500] {
            let p = dir.path().join(format!("{name}-{rows}.parquet"));
            write(&p, &parts, enc, rows, Codec::Snappy);
            assert_same(&read(&p).0, &concat(&parts));
        }
    }
}

/// Each column chunk's (min, max) statistics as written, by row group then leaf (`None`
/// where the chunk has none).
#[allow(clippy::type_complexity)]
fn chunk_stats(path: &Path) -> Vec<Vec<Option<(Vec<u8>, Vec<u8>)>>> {
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    b.metadata()
        .row_groups()
        .iter()
        .map(|g| {
            g.columns()
                .iter()
                .map(|c| {
                    let s = c.statistics()?;
                    Some((s.min_bytes_opt()?.to_vec(), s.max_bytes_opt()?.to_vec()))
                })
                .collect()
        })
        .collect()
}

#[test]
fn integer_statistics_match_arrow_rs_in_every_encoding() {
    // Min and max of the integer leaves (signed, unsigned, decimals, timestamps, nested),
    // as arrow-rs's own writer states them for the same row groups: in dictionary chunks
    // (taken over the dictionary's entries), chunks whose dictionary outgrew its limit and
    // went on plain (200,000 distinct 64-bit values pass 1 MiB), plain and delta chunks.
    let dir = tempfile::tempdir().unwrap();
    for (distinct, one_in, n) in [(true, 5, 200_000), (false, 3, 20_000), (true, 0, 3_000)] {
        let b = batch(n, 31, distinct, one_in);
        for rows in [1 << 20, 70_000] {
            let reference = dir.path().join("arrow-rs.parquet");
            let props = parquet::file::properties::WriterProperties::builder()
                .set_max_row_group_row_count(Some(rows))
                .build();
            let mut w = parquet::arrow::ArrowWriter::try_new(
                std::fs::File::create(&reference).unwrap(),
                b.schema(),
                Some(props),
            )
            .unwrap();
            w.write(&b).unwrap();
            w.close().unwrap();
            let want = chunk_stats(&reference);
            for (name, enc) in encodings() {
                let p = dir.path().join(format!("{name}-{distinct}-{rows}.parquet"));
                write(&p, std::slice::from_ref(&b), enc, rows, Codec::Snappy);
                let got = chunk_stats(&p);
                assert_eq!(got.len(), want.len(), "{name}: row groups");
                let mut compared = 0;
                for (g, (ours, theirs)) in got.iter().zip(&want).enumerate() {
                    for (leaf, (o, t)) in ours.iter().zip(theirs).enumerate() {
                        if let Some(o) = o {
                            assert_eq!(Some(o), t.as_ref(), "{name}: group {g}, leaf {leaf}");
                            compared += 1;
                        }
                    }
                }
                assert!(compared >= 10, "{name}: {compared} chunks with statistics");
            }
        }
    }
}

/// The Python with DuckDB: `$SBEKIT_PYTHON`, else `.venv-ci/bin/python` at the repository
/// root; `None` (the test skipped loudly) without one.
fn duckdb_python(test: &str) -> Option<PathBuf> {
    let p = std::env::var_os("SBEKIT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv-ci/bin/python"));
    let ok = std::process::Command::new(&p)
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        sbekit_testdata::skip(
            test,
            format_args!("no Python with duckdb at {}", p.display()),
        );
        return None;
    }
    Some(p)
}

#[test]
fn duckdb_reads_the_same_values_as_from_arrow_rs_files() {
    // The same rows through both writers: DuckDB finds no row of one file missing from the
    // other (compared inside DuckDB, so that no value needs a Python type: timestamps with a
    // time zone would need pytz).
    let Some(py) = duckdb_python("duckdb_reads_the_same_values_as_from_arrow_rs_files") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let b = batch(20_000, 3, false, 4);
    let c = batch(20_000, 5, true, 3);
    let ours = dir.path().join("ours.parquet");
    write(
        &ours,
        &[b.clone(), c.clone()],
        encodings()[3].1,
        15_000,
        Codec::Snappy,
    );
    let theirs = dir.path().join("theirs.parquet");
    let mut w = parquet::arrow::ArrowWriter::try_new(
        std::fs::File::create(&theirs).unwrap(),
        b.schema(),
        None,
    )
    .unwrap();
    w.write(&b).unwrap();
    w.write(&c).unwrap();
    w.close().unwrap();
    let script = "import duckdb, sys\n\
        a, b = (f\"read_parquet('{p}')\" for p in sys.argv[1:3])\n\
        one = lambda sql: duckdb.sql(sql).fetchall()[0][0]\n\
        gone = lambda x, y: one(f'SELECT count(*) FROM (SELECT * FROM {x} EXCEPT ALL SELECT * FROM {y})')\n\
        print(gone(a, b) == 0 and gone(b, a) == 0 and one(f'SELECT count(*) FROM {b}') == one(f'SELECT count(*) FROM {a}'), one(f'SELECT count(*) FROM {a}'))";
    let out = std::process::Command::new(py)
        .args([
            "-c",
            script,
            ours.to_str().unwrap(),
            theirs.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "True 40000");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_batches_round_trip(
        seed in any::<u64>(),
        sizes in proptest::collection::vec(0usize..700, 1..4),
        distinct in any::<bool>(),
        one_in in 0u64..6,
        rows_per_group in 1usize..900,
        enc in 0usize..4,
    ) {
        let batches: Vec<RecordBatch> = sizes
            .iter()
            .enumerate()
            .map(|(k, &n)| batch(n, seed.wrapping_add(k as u64), distinct, one_in))
            .collect();
        let total: usize = sizes.iter().sum();
        prop_assume!(total > 0);
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.parquet");
        write(&p, &batches, encodings()[enc].1, rows_per_group, Codec::Snappy);
        let (got, groups) = read(&p);
        prop_assert_eq!(groups, total.div_ceil(rows_per_group));
        assert_same(&got, &concat(&batches));
    }
}
