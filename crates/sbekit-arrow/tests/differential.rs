//! The table path against `sbekit decode` (issue 27): for streams of random messages of every
//! schema at every version, as written and then mutated, truncated or given invalid text, the
//! rows the Arrow path produces equal, value for value, the messages the JSON printer prints;
//! the messages each path rejects are the same ones (same lengths, same first failure); cutting
//! batches never fails; both count the same text values read as Latin-1.
//!
//! Runs on the repo's own schemas (`tests/mapping.xml`, `schemas/*.xml`) always, and on the 80
//! reference-accepted schemas when `../shared` is present (skipped loudly otherwise).
//!
//! Arrow rows are turned into JSON values ([`row_value`]) and compared field by field with the
//! schema's layout ([`same_block`]), which knows the documented differences: a null in Arrow
//! is an optional field holding its null value or a field absent at the acting version (JSON
//! prints the null value), constants are schema metadata rather than columns, and an enum value
//! the schema does not list is its number as text.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, TimestampNanosecondType,
    UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use proptest::prelude::*;
use sbekit_arrow::{Options, SbeColumns};
use sbekit_ir::layout::{Block, Field, FieldKind, Layout};
use sbekit_ir::{Ir, PrimitiveType, PrimitiveValue};
use sbekit_otf::random::{random_message, Options as RandomOptions, Rng};
use sbekit_otf::{Decoder, JsonPrinter, MessageHeader};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

struct Schema {
    name: String,
    ir: Ir,
    layout: Layout,
    decoder: Decoder,
}

fn load(path: &Path) -> Option<Schema> {
    let ir = sbekit_schema::compile_file(path, &Default::default()).ir?;
    let layout = Layout::from_ir(&ir).ok()?;
    let decoder = Decoder::from_layout(&layout).ok()?;
    Some(Schema {
        name: path.display().to_string(),
        ir,
        layout,
        decoder,
    })
}

/// The repo's own schemas (no `../shared` needed).
fn own() -> &'static [Schema] {
    static S: OnceLock<Vec<Schema>> = OnceLock::new();
    S.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = vec![root.join("tests/mapping.xml")];
        for name in ["market-data.xml", "shootout-2019.xml", "trades.xml"] {
            paths.push(root.join("../../schemas").join(name));
        }
        paths
            .iter()
            .map(|p| load(p).unwrap_or_else(|| panic!("{} compiles", p.display())))
            .collect()
    })
}

/// The 80 reference-accepted schemas (empty, skipped loudly, when the material is missing).
fn reference() -> &'static [Schema] {
    static S: OnceLock<Vec<Schema>> = OnceLock::new();
    S.get_or_init(|| {
        let Some(table) = sbekit_testdata::require_reference(
            "derived/reference-verdicts-sbe-all-1.38.1.tsv",
            "differential",
        ) else {
            return Vec::new();
        };
        let root = sbekit_testdata::reference_sbe_dir();
        let paths: Vec<PathBuf> = std::fs::read_to_string(table)
            .unwrap()
            .lines()
            .skip(1)
            .filter_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                (cols.get(1) == Some(&"0")).then(|| root.join(cols[0]))
            })
            .collect();
        assert_eq!(paths.len(), 80, "the reference accepts 80 schemas");
        // A few compile here but have no layout the decoders accept (e.g. no header type):
        // both paths are built from the same layout, so there is nothing to compare for them.
        paths.iter().filter_map(|p| load(p)).collect()
    })
}

/// A random message of `message` written by a `version` writer, or `None` for the few schema
/// shapes the test writer cannot write (it panics on them, e.g. a custom header type).
fn random(s: &Schema, message: usize, version: u32, seed: u64) -> Option<Vec<u8>> {
    let opts = RandomOptions {
        writer_version: Some(version),
        max_group: 3,
        max_data: 12,
        ..RandomOptions::default()
    };
    let run = || random_message(&s.ir, &s.ir.messages[message], &mut Rng::new(seed), &opts).bytes;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).ok();
    std::panic::set_hook(hook);
    r
}

/// How a stream is damaged after it is written.
#[derive(Debug, Clone, Copy)]
enum Damage {
    None,
    /// Bytes overwritten at random.
    Mutate,
    /// Cut at a random length.
    Truncate,
    /// Bytes of the second half set to lone or cut UTF-8 sequences (invalid text where they
    /// land in text; other damage elsewhere).
    InvalidText,
}

fn damage(mut b: Vec<u8>, d: Damage, rng: &mut Rng) -> Vec<u8> {
    if b.is_empty() {
        return b;
    }
    let n = b.len() as u64;
    match d {
        Damage::None => {}
        Damage::Mutate => {
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (rng.next_u64() % n) as usize;
                b[at] = rng.next_u64() as u8;
            }
        }
        Damage::Truncate => b.truncate((rng.next_u64() % n) as usize),
        Damage::InvalidText => {
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (n / 2 + rng.next_u64() % (n - n / 2)) as usize;
                b[at] = [0xC3, 0xE2, 0x80, 0xFF, 0xA9][(rng.next_u64() % 5) as usize];
            }
        }
    }
    b
}

/// An Arrow value (row `i` of `a`) as the JSON value it stands for; header columns aside.
fn value(a: &ArrayRef, i: usize) -> Value {
    if a.is_null(i) {
        return Value::Null;
    }
    // NaN and infinities: JSON prints null; kept apart from a null here (a required float can
    // hold them).
    let num = |x: f64| {
        serde_json::Number::from_f64(x).map_or(Value::String(NON_FINITE.into()), Value::Number)
    };
    match a.data_type() {
        DataType::Int8 => a.as_primitive::<Int8Type>().value(i).into(),
        DataType::Int16 => a.as_primitive::<Int16Type>().value(i).into(),
        DataType::Int32 => a.as_primitive::<Int32Type>().value(i).into(),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(i).into(),
        DataType::UInt8 => a.as_primitive::<UInt8Type>().value(i).into(),
        DataType::UInt16 => a.as_primitive::<UInt16Type>().value(i).into(),
        DataType::UInt32 => a.as_primitive::<UInt32Type>().value(i).into(),
        DataType::UInt64 => a.as_primitive::<UInt64Type>().value(i).into(),
        DataType::Float32 => num(f64::from(a.as_primitive::<Float32Type>().value(i))),
        DataType::Float64 => num(a.as_primitive::<Float64Type>().value(i)),
        DataType::Boolean => a.as_boolean().value(i).into(),
        DataType::Utf8 => a.as_string::<i32>().value(i).into(),
        // Raw var data: JSON prints one code point per byte.
        DataType::Binary => sbekit_otf::text::latin1(a.as_binary::<i32>().value(i)).into(),
        DataType::Dictionary(..) => {
            let d = a.as_dictionary::<Int32Type>();
            let k = d.keys().value(i) as usize;
            d.values().as_string::<i32>().value(k).into()
        }
        DataType::Struct(fields) => {
            let s = a.as_struct();
            let mut m = Map::new();
            for (f, c) in fields.iter().zip(s.columns()) {
                m.insert(f.name().clone(), value(c, i));
            }
            Value::Object(m)
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>();
            let items = l.value(i);
            Value::Array((0..items.len()).map(|k| value(&items, k)).collect())
        }
        DataType::FixedSizeList(..) => {
            let l = a.as_fixed_size_list();
            let items = l.value(i);
            Value::Array((0..items.len()).map(|k| value(&items, k)).collect())
        }
        t => panic!("unexpected Arrow type {t}"),
    }
}

/// Row `i` of `b` as a JSON object of its non-header columns.
fn row_value(b: &RecordBatch, i: usize) -> Value {
    let mut m = Map::new();
    for (f, c) in b.schema().fields().iter().zip(b.columns()) {
        if !sbekit_arrow::sbe::HEADER_COLUMNS.contains(&f.name().as_str()) {
            m.insert(f.name().clone(), value(c, i));
        }
    }
    Value::Object(m)
}

const NON_FINITE: &str = "<non-finite>";

/// JSON's value against Arrow's for a primitive of type `ty`: floats as `float`s or `double`s
/// (the JSON text is the shortest that reads back to the same value), NaN and infinities as
/// JSON's null.
fn number_eq(j: &Value, a: &Value, ty: PrimitiveType) -> bool {
    match (j, a) {
        (Value::Null, Value::String(s)) => ty.is_float() && s == NON_FINITE,
        (Value::Number(x), Value::Number(y)) if ty == PrimitiveType::Float => {
            x.as_f64().map(|v| v as f32) == y.as_f64().map(|v| v as f32)
        }
        (Value::Number(x), Value::Number(y)) if ty == PrimitiveType::Double => {
            x.as_f64() == y.as_f64()
        }
        _ => j == a,
    }
}

/// The JSON the printer writes for `p`'s null value (what an absent or null field prints).
fn null_json(v: &PrimitiveValue, ty: PrimitiveType) -> Value {
    match v {
        PrimitiveValue::Int(i) if ty != PrimitiveType::Char => (*i).into(),
        PrimitiveValue::UInt(u) => (*u).into(),
        _ => Value::Null,
    }
}

fn same_field(f: &Field, j: &Value, a: Option<&Value>, version: u32, path: &str) {
    if f.is_constant() {
        assert!(a.is_none(), "{path}: a constant is metadata, not a column");
        return;
    }
    let absent = f.since_version > version;
    match &f.kind {
        FieldKind::Composite { members, .. } => {
            let Some(a) = a else {
                assert!(members.iter().all(|m| m.is_constant()), "{path}: no column");
                return;
            };
            for m in members {
                let p = format!("{path}.{}", m.name);
                same_field(m, &j[&m.name], a.get(&m.name), version, &p);
            }
        }
        FieldKind::Primitive(p) => {
            let a = a.unwrap_or_else(|| panic!("{path}: no column"));
            if a.is_null() {
                assert!(
                    absent || f.is_optional(),
                    "{path}: null in a required field"
                );
                // JSON prints the null value: check the integers' (floats print null).
                if p.length == 1 && p.ty != PrimitiveType::Char && !p.ty.is_float() {
                    assert_eq!(j, &null_json(&p.null_value, p.ty), "{path}: null value");
                }
                return;
            }
            match (j, a) {
                (Value::Array(x), Value::Array(y)) => {
                    assert_eq!(x.len(), y.len(), "{path}");
                    for (u, v) in x.iter().zip(y) {
                        assert!(number_eq(u, v, p.ty), "{path}: {u} != {v}");
                    }
                }
                _ => assert!(number_eq(j, a, p.ty), "{path}: JSON {j} != Arrow {a}"),
            }
        }
        FieldKind::Enum { .. } => {
            let a = a.unwrap_or_else(|| panic!("{path}: no column"));
            match (j, a) {
                // An unknown value: JSON's number, Arrow's text of it.
                (Value::Number(n), Value::String(s)) => assert_eq!(&n.to_string(), s, "{path}"),
                _ => assert_eq!(j, a, "{path}"),
            }
        }
        FieldKind::Set { .. } => {
            let a = a.unwrap_or_else(|| panic!("{path}: no column"));
            if !(absent && a.is_null()) {
                assert_eq!(j, a, "{path}");
            }
        }
    }
}

fn same_block(b: &Block, j: &Value, a: &Value, version: u32, path: &str) {
    for f in &b.fields {
        let p = format!("{path}.{}", f.name);
        same_field(f, &j[&f.name], a.get(&f.name), version, &p);
    }
    for g in &b.groups {
        let p = format!("{path}.{}", g.name);
        let (je, ae) = (
            j[&g.name]
                .as_array()
                .unwrap_or_else(|| panic!("{p}: JSON array")),
            a[&g.name]
                .as_array()
                .unwrap_or_else(|| panic!("{p}: Arrow list")),
        );
        assert_eq!(je.len(), ae.len(), "{p}: entries");
        for (k, (x, y)) in je.iter().zip(ae).enumerate() {
            same_block(&g.block, x, y, version, &format!("{p}[{k}]"));
        }
    }
    for d in &b.var_data {
        let p = format!("{path}.{}", d.name);
        assert_eq!(j[&d.name], a[&d.name], "{p}");
    }
}

/// What one stream did on both paths: messages compared, and messages rejected.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    compared: u64,
    rejected: u64,
    fallbacks: u64,
    /// Messages compared in streams that mix writers of every version.
    mixed: u64,
}

/// Decodes `stream` (back-to-back messages) on both paths and compares them.
fn check(s: &Schema, stream: &[u8], batch_rows: usize) -> Tally {
    check_spans(s, stream, &BTreeMap::new(), batch_rows)
}

/// [`check`], going on past a message both decoders reject when `spans` (start → length)
/// knows where it ends; it stops at the first rejected message otherwise.
fn check_spans(
    s: &Schema,
    stream: &[u8],
    spans: &BTreeMap<usize, usize>,
    batch_rows: usize,
) -> Tally {
    let mut cols = SbeColumns::new(
        &s.layout,
        Options {
            batch_rows,
            ..Options::default()
        },
    );
    let mut printer = JsonPrinter::new(false);
    let mut json: BTreeMap<u64, (Value, MessageHeader)> = BTreeMap::new();
    let mut batches: Vec<RecordBatch> = Vec::new();
    let mut tally = Tally::default();
    let mut pos = 0usize;
    while pos < stream.len() {
        let buf = &stream[pos..];
        printer.clear();
        let j = s.decoder.decode(buf, &mut printer);
        let a = cols.append(buf, pos as u64, None);
        match (j, a) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x, y, "{}: message lengths at {pos}", s.name);
                let text = std::str::from_utf8(printer.output()).expect("UTF-8 JSON");
                let v: Value = serde_json::from_str(text).expect("valid JSON");
                let header = s.decoder.read_header(buf).expect("decoded, so a header");
                json.insert(pos as u64, (v, header));
                pos += x;
            }
            (Err(x), Err(y)) => {
                assert_eq!(
                    x.offset, y.offset,
                    "{}: where the message fails: {x} / {y}",
                    s.name
                );
                tally.rejected += 1;
                match spans.get(&pos) {
                    Some(len) => {
                        pos += len;
                        continue;
                    }
                    None => break,
                }
            }
            (x, y) => panic!("{}: JSON {x:?} but Arrow {y:?} at {pos}", s.name),
        }
        if cols.has_full() {
            batches.extend(
                cols.drain()
                    .expect("a batch never fails")
                    .into_iter()
                    .map(|b| b.1),
            );
        }
    }
    cols.flush().expect("a batch never fails");
    batches.extend(cols.drain().expect("batches").into_iter().map(|b| b.1));
    let mut rows = 0;
    for b in &batches {
        let offsets = b
            .column_by_name("_offset")
            .unwrap()
            .as_primitive::<UInt64Type>()
            .clone();
        let name = b.schema().metadata()["sbe.message"].clone();
        let m = s.layout.messages.iter().find(|m| m.name == name).unwrap();
        let header = |c: &str| {
            b.column_by_name(c)
                .unwrap()
                .as_primitive::<UInt32Type>()
                .clone()
        };
        let (template, schema, version, block_length) = (
            header("_template_id"),
            header("_schema_id"),
            header("_acting_version"),
            header("_block_length"),
        );
        for i in 0..b.num_rows() {
            let (j, h) = &json[&offsets.value(i)];
            // The header columns, which the rows are not compared on below.
            let got = (
                template.value(i),
                schema.value(i),
                version.value(i),
                block_length.value(i),
            );
            let want = (h.template_id, h.schema_id, h.version, h.block_length);
            let want = (want.0 as u32, want.1 as u32, want.2 as u32, want.3 as u32);
            assert_eq!(
                got,
                want,
                "{}: header of the message at {}",
                s.name,
                offsets.value(i)
            );
            same_block(&m.block, j, &row_value(b, i), h.version as u32, &name);
            rows += 1;
        }
    }
    assert_eq!(rows, json.len(), "{}: one row per message", s.name);
    assert_eq!(
        cols.text_fallbacks(),
        printer.text_fallbacks(),
        "{}: text read as Latin-1",
        s.name
    );
    tally.compared = rows as u64;
    tally.fallbacks = cols.text_fallbacks();
    tally
}

/// A stream of 1..=3 random messages of `s` by a `version` writer, damaged by `d`.
fn stream(s: &Schema, version: u32, seed: u64, d: Damage) -> Option<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..1 + rng.next_u64() % 3 {
        let m = (rng.next_u64() % s.ir.messages.len() as u64) as usize;
        if s.layout.messages[m].since_version > version {
            continue;
        }
        out.extend(random(s, m, version, rng.next_u64())?);
    }
    Some(damage(out, d, &mut rng))
}

const DAMAGE: [Damage; 4] = [
    Damage::None,
    Damage::Mutate,
    Damage::Truncate,
    Damage::InvalidText,
];

/// Every schema, every message, every version, every kind of damage, a few seeds each.
fn sweep(schemas: &[Schema], seeds: u64) -> Tally {
    let mut total = Tally::default();
    for s in schemas {
        for version in 0..=s.layout.version {
            for seed in 0..seeds {
                for (k, d) in DAMAGE.iter().enumerate() {
                    let Some(b) = stream(s, version, seed * 7 + k as u64, *d) else {
                        continue;
                    };
                    let t = check(s, &b, 2);
                    total.compared += t.compared;
                    total.rejected += t.rejected;
                    total.fallbacks += t.fallbacks;
                }
            }
        }
        // Writers of every version in one stream, in batches large enough to mix them: the
        // runs of acting versions and block lengths a batch keeps.
        for seed in 0..seeds {
            let mut mixed = Vec::new();
            for version in (0..=s.layout.version).chain((0..=s.layout.version).rev()) {
                if let Some(b) = stream(
                    s,
                    version,
                    1000 + seed * 31 + u64::from(version),
                    Damage::None,
                ) {
                    mixed.extend(b);
                }
            }
            let t = check(s, &mixed, 64);
            total.compared += t.compared;
            total.mixed += t.compared;
        }
    }
    total
}

#[test]
fn own_schemas_agree_at_every_version() {
    let t = sweep(own(), 24);
    // The damage reaches both outcomes and invalid text, so the comparison means something.
    assert!(
        t.compared > 300 && t.rejected > 50 && t.fallbacks > 0 && t.mixed > 100,
        "{t:?}"
    );
}

/// Long streams (hundreds of messages per table, writers of every version, invalid text now
/// and then) in large batches: each batch's rows are gathered out of the staging many times
/// (every few hundred messages), and a char-array column that was ASCII text up to some
/// message turns back to raw values there.
#[test]
fn long_streams_agree() {
    let mut total = Tally::default();
    for s in own() {
        let mut long = Vec::new();
        // Text made invalid only after a few hundred whole messages per table, so that it
        // turns columns that were ASCII text for several gathers.
        for seed in 0..1000u64 {
            let version = (seed % u64::from(s.layout.version + 1)) as u32;
            let d = if seed >= 600 && seed % 5 == 4 {
                Damage::InvalidText
            } else {
                Damage::None
            };
            let Some(b) = stream(s, version, 7000 + seed, d) else {
                continue;
            };
            // Only damage that leaves every message whole (the text made invalid).
            if check(s, &b, 2).rejected == 0 {
                long.extend(b);
            }
        }
        for batch_rows in [100_000, 300] {
            let t = check(s, &long, batch_rows);
            assert_eq!(t.rejected, 0, "{}", s.name);
            total.compared += t.compared;
            total.fallbacks += t.fallbacks;
        }
    }
    assert!(total.compared > 3000 && total.fallbacks > 0, "{total:?}");
}

/// Runs of one message template by one writer (the same header bytes message after
/// message, which `SbeColumns` decides by one compare), with messages damaged in between:
/// a group count made too large for the bytes left (the message fails after the header has
/// been taken as a repeat) and bytes overwritten at random; the decode goes on at the next
/// message after each rejection, in small batches (each cut forgets the repeat).
#[test]
fn repeated_headers_agree() {
    let mut total = Tally::default();
    for s in own() {
        let version = s.layout.version;
        for (m, lm) in s.layout.messages.iter().enumerate() {
            if lm.since_version > version {
                continue;
            }
            let mut rng = Rng::new(0x5eed + m as u64);
            let (mut stream, mut spans) = (Vec::new(), BTreeMap::new());
            for i in 0..300u64 {
                let Some(mut b) = random(s, m, version, 9000 + i) else {
                    break;
                };
                let h = s.layout.header.size;
                let root = lm.block.block_length;
                match i % 7 {
                    // The first group's count: its two low bytes at most, all ones.
                    3 => {
                        if let Some(g) = lm.block.groups.first() {
                            let c = &g.dimension.num_in_group;
                            let at = h + root + c.offset;
                            let width = c.ty.size().min(2);
                            // A count of at least 2^16 - 1: more entries than the stream holds.
                            if c.constant.is_none() && width == 2 && at + width <= b.len() {
                                b[at..at + width].fill(0xff);
                            }
                        }
                    }
                    5 if b.len() > h => {
                        let at = h + (rng.next_u64() % (b.len() - h) as u64) as usize;
                        b[at] = rng.next_u64() as u8;
                    }
                    _ => {}
                }
                spans.insert(stream.len(), b.len());
                stream.extend(b);
            }
            for batch_rows in [100_000, 16] {
                let t = check_spans(s, &stream, &spans, batch_rows);
                total.compared += t.compared;
                total.rejected += t.rejected;
            }
        }
    }
    assert!(total.compared > 2000 && total.rejected > 100, "{total:?}");
}

/// A repeat (the same header bytes as the last message) that fails half-way leaves nothing
/// behind: with `_timestamp` on, the rows, offsets and timestamps of the messages around it
/// are those of the good messages only.
#[test]
fn failed_repeats_leave_no_offset_or_timestamp() {
    let mut checked = 0;
    for s in own() {
        for (m, lm) in s.layout.messages.iter().enumerate() {
            if lm.block.groups.is_empty() || lm.since_version > s.layout.version {
                continue;
            }
            let Some(good) = random(s, m, s.layout.version, 77) else {
                continue;
            };
            let options = Options {
                timestamp: true,
                ..Options::default()
            };
            let mut cols = SbeColumns::new(&s.layout, options);
            let mut want = Vec::new();
            for (k, cut) in [0, 1, 0, 1, 1, 0].into_iter().enumerate() {
                let bytes = &good[..good.len() - cut];
                let got = cols.append(bytes, 10 * k as u64, Some(k as i64));
                assert_eq!(got.is_ok(), cut == 0, "{}.{}: message {k}", s.name, lm.name);
                if cut == 0 {
                    want.push((10 * k as u64, k as i64));
                }
            }
            cols.flush().expect("a batch never fails");
            let batches = cols.drain().expect("batches");
            let [(name, b)] = &batches[..] else {
                panic!("{}.{}: {} batches", s.name, lm.name, batches.len());
            };
            assert_eq!(name, &lm.name);
            let offsets = b
                .column_by_name("_offset")
                .unwrap()
                .as_primitive::<UInt64Type>();
            let times = b
                .column_by_name("_timestamp")
                .unwrap()
                .as_primitive::<TimestampNanosecondType>();
            let got: Vec<(u64, i64)> = (0..b.num_rows())
                .map(|i| (offsets.value(i), times.value(i)))
                .collect();
            assert_eq!(got, want, "{}.{}", s.name, lm.name);
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} messages with groups checked");
}

/// Batches are cut at the message that reaches a limit, not later: every batch of a table
/// but its last holds exactly `batch_rows` rows, or 1024 when the bytes limit is below any
/// batch (tested every 1024 rows).
#[test]
fn batches_are_cut_at_their_limits() {
    let s = &own()[1];
    let n = s.layout.messages.len() as u64;
    let mut stream = Vec::new();
    for seed in 0..8000u64 {
        if let Some(b) = random(s, (seed % n) as usize, s.layout.version, 500 + seed) {
            stream.extend(b);
        }
    }
    for (batch_rows, batch_bytes, want) in [
        (3, usize::MAX, 3),
        (128, usize::MAX, 128),
        (1000, usize::MAX, 1000),
        (1_000_000, 1, 1024),
    ] {
        let options = Options {
            batch_rows,
            batch_bytes,
            ..Options::default()
        };
        let mut cols = SbeColumns::new(&s.layout, options);
        let mut sizes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut pos = 0;
        let mut keep = |batches: Vec<(String, RecordBatch)>| {
            for (name, b) in batches {
                sizes.entry(name).or_default().push(b.num_rows());
            }
        };
        while pos < stream.len() {
            pos += cols
                .append(&stream[pos..], pos as u64, None)
                .expect("whole messages");
            if cols.has_full() {
                keep(cols.drain().expect("batches"));
            }
        }
        cols.flush().expect("a batch never fails");
        keep(cols.drain().expect("batches"));
        let mut cut = 0;
        for (name, v) in &sizes {
            let (last, full) = v.split_last().expect("a batch");
            assert!(full.iter().all(|&r| r == want), "{name}: {v:?}");
            assert!((1..=want).contains(last), "{name}: {v:?}");
            cut += full.len();
        }
        assert!(cut >= 2, "{sizes:?}");
    }
}

#[test]
fn reference_schemas_agree_at_every_version() {
    let schemas = reference();
    if schemas.is_empty() {
        return;
    }
    assert!(schemas.len() >= 70, "{} schemas loaded", schemas.len());
    let t = sweep(schemas, 3);
    assert!(
        t.compared > 1000 && t.rejected > 100 && t.fallbacks > 0,
        "{t:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random picks over every schema (own, and reference when present), version and damage.
    #[test]
    fn random_streams_agree(which in any::<usize>(), version in any::<u32>(), seed in any::<u64>(),
                            d in 0usize..4) {
        let all: Vec<&Schema> = own().iter().chain(reference()).collect();
        let s = all[which % all.len()];
        let version = version % (s.layout.version + 1);
        if let Some(b) = stream(s, version, seed, DAMAGE[d]) {
            check(s, &b, 2);
        }
    }
}
