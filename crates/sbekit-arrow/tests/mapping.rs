//! Every row of the crate's mapping table (`src/lib.rs`), on one schema of our own
//! (`tests/mapping.xml`) holding every SBE construct: messages encoded from JSON by
//! `sbekit_encode`, decoded into RecordBatches, and both the Arrow data type and the value of
//! every column checked.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, TimestampNanosecondType,
    UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Fields, TimeUnit};
use sbekit_arrow::{Options, SbeColumns};
use sbekit_encode::Encoder;
use sbekit_ir::layout::Layout;
use serde_json::json;
use std::sync::Arc;

fn layout() -> Layout {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mapping.xml");
    sbekit_schema::load_layout(path.as_ref()).expect("mapping.xml compiles")
}

/// Three messages: everything set (v2), unknown enum values and nulls (v2), and a v1 writer
/// (the field and group newer than v1 absent).
fn messages(layout: &Layout) -> Vec<Vec<u8>> {
    let enc = Encoder::new(layout);
    let full = json!({
        "i8": -128, "i16": -32768, "i32": -2147483648i64, "i64": i64::MIN,
        "u8": 254, "u16": 65534, "u32": 4294967294u64, "u64": "18446744073709551614",
        "f32": 1.5, "f64": -2.25, "c": "Z", "sym": "AB", "raw": "\u{e9}t\u{e9}",
        "quad": [1, 2, 254, 255], "side": "Sell", "level": "High", "delta": "Down",
        "flags": ["Odd", "Last"],
        "outer": {"id": 42, "inner": {"x": -7, "code": "XYZ"}},
        "optI32": 5, "optF64": 0.5, "newer": -9,
        "legs": [
            {"px": 100, "subs": [{"q": 1}, {"q": 2}]},
            {"px": -100, "subs": []}
        ],
        "marks": [{}, {}, {}],
        "late": [{"v": 3}],
        "text": "h\u{e9}llo", "blob": [0, 255, 10]
    });
    let odd = json!({
        "i8": 127, "i16": 32767, "i32": 2147483647, "i64": i64::MAX,
        "u8": 0, "u16": 0, "u32": 0, "u64": 0,
        "f32": -0.0, "f64": 1e300, "c": "", "sym": "ABCD", "raw": "",
        "quad": [0, 0, 0, 0], "side": 88, "level": "NullVal", "delta": 7,
        "flags": [],
        "outer": {"id": 0, "inner": {"x": 32767, "code": ""}},
        "optI32": null, "optF64": null, "newer": 0,
        "legs": [], "marks": [], "late": [],
        "text": "", "blob": []
    });
    let v1 = json!({
        "i8": 1, "i16": 2, "i32": 3, "i64": 4, "u8": 5, "u16": 6, "u32": 7, "u64": 8,
        "f32": 0.25, "f64": 0.125, "c": "a", "sym": "Q", "raw": "r",
        "quad": [9, 8, 7, 6], "side": null, "level": "Low", "delta": -1,
        "flags": ["Last"],
        "outer": {"id": 1, "inner": {"x": 1, "code": "A"}},
        "optI32": -1, "optF64": "NaN",
        "legs": [{"px": 5, "subs": [{"q": 9}]}],
        "marks": [{}],
        "text": "v1", "blob": [1]
    });
    [(full, None), (odd, None), (v1, Some(1))]
        .iter()
        .map(|(v, version)| {
            let mut out = Vec::new();
            enc.encode(v, Some("All"), *version, &mut out)
                .unwrap_or_else(|e| panic!("{e}"));
            out
        })
        .collect()
}

/// The messages decoded into one batch, each at a distinct `_offset` and `_timestamp`.
fn batch(timestamp: bool) -> (RecordBatch, Vec<Vec<u8>>) {
    let layout = layout();
    let msgs = messages(&layout);
    let mut cols = SbeColumns::new(
        &layout,
        Options {
            timestamp,
            ..Options::default()
        },
    );
    let mut offset = 0u64;
    for (i, m) in msgs.iter().enumerate() {
        let ts = (i != 1).then_some(1_000 + i as i64);
        let n = cols.append(m, offset, ts).unwrap();
        assert_eq!(n, m.len(), "append consumes the whole message");
        offset += m.len() as u64;
    }
    cols.flush().unwrap();
    let mut batches = cols.drain().unwrap();
    assert_eq!(batches.len(), 1);
    let (name, b) = batches.pop().unwrap();
    assert_eq!(name, "All");
    assert_eq!(b.num_rows(), 3);
    (b, msgs)
}

fn col<'a>(b: &'a RecordBatch, name: &str) -> &'a ArrayRef {
    b.column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn member<'a>(s: &'a StructArray, name: &str) -> &'a ArrayRef {
    s.column_by_name(name)
        .unwrap_or_else(|| panic!("no member {name}"))
}

/// A nullable column's values as options.
fn opt<T: arrow_array::ArrowPrimitiveType>(a: &ArrayRef) -> Vec<Option<T::Native>> {
    a.as_primitive::<T>().iter().collect()
}

fn strs(a: &ArrayRef) -> Vec<Option<String>> {
    a.as_string::<i32>()
        .iter()
        .map(|s| s.map(str::to_string))
        .collect()
}

/// An enum column's names (nulls as None), through its dictionary.
fn enum_names(a: &ArrayRef) -> Vec<Option<String>> {
    let d = a.as_dictionary::<Int32Type>();
    let values = d.values().as_string::<i32>();
    d.keys()
        .iter()
        .map(|k| k.map(|k| values.value(k as usize).to_string()))
        .collect()
}

fn nf(name: &str, t: DataType) -> Field {
    Field::new(name, t, true)
}

fn list_of(fields: Vec<Field>) -> DataType {
    DataType::List(Arc::new(Field::new(
        "item",
        DataType::Struct(Fields::from(fields)),
        true,
    )))
}

#[test]
fn every_column_has_the_documented_type() {
    let (b, _) = batch(true);
    let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let expected: Vec<(&str, DataType)> = vec![
        ("_template_id", DataType::UInt32),
        ("_schema_id", DataType::UInt32),
        ("_acting_version", DataType::UInt32),
        ("_block_length", DataType::UInt32),
        ("_offset", DataType::UInt64),
        (
            "_timestamp",
            DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        ),
        ("i8", DataType::Int8),
        ("i16", DataType::Int16),
        ("i32", DataType::Int32),
        ("i64", DataType::Int64),
        ("u8", DataType::UInt8),
        ("u16", DataType::UInt16),
        ("u32", DataType::UInt32),
        ("u64", DataType::UInt64),
        ("f32", DataType::Float32),
        ("f64", DataType::Float64),
        ("c", DataType::Utf8),
        ("sym", DataType::Utf8),
        ("raw", DataType::Utf8),
        (
            "quad",
            DataType::FixedSizeList(Arc::new(nf("item", DataType::UInt8)), 4),
        ),
        ("side", dict.clone()),
        ("level", dict.clone()),
        ("delta", dict),
        (
            "flags",
            DataType::Struct(Fields::from(vec![
                nf("Odd", DataType::Boolean),
                nf("Last", DataType::Boolean),
            ])),
        ),
        (
            "outer",
            DataType::Struct(Fields::from(vec![
                nf("id", DataType::UInt32),
                nf(
                    "inner",
                    DataType::Struct(Fields::from(vec![
                        nf("x", DataType::Int16),
                        nf("code", DataType::Utf8),
                    ])),
                ),
            ])),
        ),
        ("optI32", DataType::Int32),
        ("optF64", DataType::Float64),
        ("newer", DataType::Int32),
        (
            "legs",
            list_of(vec![
                nf("px", DataType::Int32),
                nf("subs", list_of(vec![nf("q", DataType::UInt16)])),
            ]),
        ),
        (
            "marks",
            list_of(vec![Field::new("_present", DataType::Boolean, false)]),
        ),
        ("late", list_of(vec![nf("v", DataType::UInt8)])),
        ("text", DataType::Utf8),
        ("blob", DataType::Binary),
    ];
    let schema = b.schema();
    let got: Vec<(&str, &DataType)> = schema
        .fields()
        .iter()
        .map(|f| (f.name().as_str(), f.data_type()))
        .collect();
    let want: Vec<(&str, &DataType)> = expected.iter().map(|(n, t)| (*n, t)).collect();
    // Column order: header, root fields in schema order (constants left out), groups, var data.
    assert_eq!(got, want);
    // Header columns are never null; everything else may be.
    for f in schema.fields() {
        let header = f.name().starts_with('_') && f.name() != "_timestamp";
        assert_eq!(f.is_nullable(), !header, "{}", f.name());
    }
}

#[test]
fn constants_and_schema_identity_are_schema_metadata() {
    let (b, _) = batch(false);
    let schema = b.schema();
    let meta = schema.metadata();
    let get = |k: &str| meta.get(k).map(String::as_str);
    assert_eq!(get("sbe.constant.konst"), Some("7"));
    assert_eq!(get("sbe.constant.outer.k"), Some("5"));
    assert_eq!(get("sbe.constant.marks.tag"), Some("T"));
    assert_eq!(get("sbe.schema.id"), Some("77"));
    assert_eq!(get("sbe.schema.version"), Some("2"));
    assert_eq!(get("sbe.package"), Some("mapping"));
    assert_eq!(get("sbe.message"), Some("All"));
    assert_eq!(get("sbe.template_id"), Some("1"));
    // Constants are not columns.
    for c in ["konst", "k", "tag"] {
        assert!(schema.field_with_name(c).is_err(), "{c} is a column");
    }
    assert!(schema.field_with_name("_timestamp").is_err());
}

#[test]
fn header_columns() {
    let (b, msgs) = batch(true);
    let l = layout();
    let root_len = u32::from(u16::from_le_bytes([msgs[0][0], msgs[0][1]]));
    let v1_len = u32::from(u16::from_le_bytes([msgs[2][0], msgs[2][1]]));
    assert!(v1_len < root_len, "a v1 writer's block is shorter");
    assert_eq!(opt::<UInt32Type>(col(&b, "_template_id")), [Some(1); 3]);
    assert_eq!(opt::<UInt32Type>(col(&b, "_schema_id")), [Some(l.id); 3]);
    assert_eq!(
        opt::<UInt32Type>(col(&b, "_acting_version")),
        [Some(2), Some(2), Some(1)]
    );
    assert_eq!(
        opt::<UInt32Type>(col(&b, "_block_length")),
        [Some(root_len), Some(root_len), Some(v1_len)]
    );
    let o0 = msgs[0].len() as u64;
    let o1 = o0 + msgs[1].len() as u64;
    assert_eq!(
        opt::<UInt64Type>(col(&b, "_offset")),
        [Some(0), Some(o0), Some(o1)]
    );
    // The framing's timestamp, null where none was given.
    let ts = col(&b, "_timestamp");
    assert_eq!(
        ts.as_primitive::<TimestampNanosecondType>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(1000), None, Some(1002)]
    );
}

#[test]
fn integers_keep_width_and_signedness() {
    let (b, _) = batch(false);
    assert_eq!(
        opt::<Int8Type>(col(&b, "i8")),
        [Some(-128), Some(127), Some(1)]
    );
    assert_eq!(
        opt::<Int16Type>(col(&b, "i16")),
        [Some(-32768), Some(32767), Some(2)]
    );
    assert_eq!(
        opt::<Int32Type>(col(&b, "i32")),
        [Some(i32::MIN), Some(i32::MAX), Some(3)]
    );
    assert_eq!(
        opt::<Int64Type>(col(&b, "i64")),
        [Some(i64::MIN), Some(i64::MAX), Some(4)]
    );
    assert_eq!(
        opt::<UInt8Type>(col(&b, "u8")),
        [Some(254), Some(0), Some(5)]
    );
    assert_eq!(
        opt::<UInt16Type>(col(&b, "u16")),
        [Some(65534), Some(0), Some(6)]
    );
    assert_eq!(
        opt::<UInt32Type>(col(&b, "u32")),
        [Some(u32::MAX - 1), Some(0), Some(7)]
    );
    assert_eq!(
        opt::<UInt64Type>(col(&b, "u64")),
        [Some(u64::MAX - 1), Some(0), Some(8)]
    );
}

#[test]
fn floats() {
    let (b, _) = batch(false);
    let f32s = opt::<Float32Type>(col(&b, "f32"));
    assert_eq!(f32s, [Some(1.5), Some(-0.0), Some(0.25)]);
    assert!(f32s[1].unwrap().is_sign_negative(), "-0.0 kept");
    assert_eq!(
        opt::<Float64Type>(col(&b, "f64")),
        [Some(-2.25), Some(1e300), Some(0.125)]
    );
}

#[test]
fn chars_and_char_arrays() {
    let (b, _) = batch(false);
    // A single char is always a one-character string, NUL included (as `sbekit decode`
    // prints it, "\u0000"); only char arrays stop at their first NUL.
    assert_eq!(
        strs(col(&b, "c")),
        [Some("Z".into()), Some("\0".into()), Some("a".into())]
    );
    // A text char array (US-ASCII), cut at the first NUL.
    assert_eq!(
        strs(col(&b, "sym")),
        [Some("AB".into()), Some("ABCD".into()), Some("Q".into())]
    );
    // ISO-8859-1 bytes that are not UTF-8 (0xE9) read one code point per byte.
    assert_eq!(
        strs(col(&b, "raw")),
        [
            Some("\u{e9}t\u{e9}".into()),
            Some("".into()),
            Some("r".into())
        ]
    );
}

#[test]
fn numeric_fixed_array() {
    let (b, _) = batch(false);
    let q = col(&b, "quad").as_fixed_size_list();
    let rows: Vec<Vec<u8>> = (0..3)
        .map(|i| q.value(i).as_primitive::<UInt8Type>().values().to_vec())
        .collect();
    assert_eq!(
        rows,
        [vec![1, 2, 254, 255], vec![0, 0, 0, 0], vec![9, 8, 7, 6]]
    );
    assert_eq!(q.null_count(), 0);
}

#[test]
fn enums_unknown_values_and_nulls() {
    let (b, _) = batch(false);
    // char enum: a valid name; 'X' (88) is not listed and is kept as its number; the null
    // value (NUL) is null.
    assert_eq!(
        enum_names(col(&b, "side")),
        [Some("Sell".into()), Some("88".into()), None]
    );
    // uint8 enum that lists its null value (255) as a valid value: null, as the reference
    // decoder reports it.
    assert_eq!(
        enum_names(col(&b, "level")),
        [Some("High".into()), None, Some("Low".into())]
    );
    // Signed enum: an unknown value is its signed number.
    assert_eq!(
        enum_names(col(&b, "delta")),
        [Some("Down".into()), Some("7".into()), Some("Down".into())]
    );
}

#[test]
fn sets_are_structs_of_booleans() {
    let (b, _) = batch(false);
    let s = col(&b, "flags").as_struct();
    let bits = |n: &str| -> Vec<Option<bool>> { member(s, n).as_boolean().iter().collect() };
    assert_eq!(bits("Odd"), [Some(true), Some(false), Some(false)]);
    assert_eq!(bits("Last"), [Some(true), Some(false), Some(true)]);
}

#[test]
fn nested_composites_are_structs() {
    let (b, _) = batch(false);
    let outer = col(&b, "outer").as_struct();
    assert_eq!(
        opt::<UInt32Type>(member(outer, "id")),
        [Some(42), Some(0), Some(1)]
    );
    let inner = member(outer, "inner").as_struct();
    assert_eq!(
        opt::<Int16Type>(member(inner, "x")),
        [Some(-7), Some(32767), Some(1)]
    );
    assert_eq!(
        strs(member(inner, "code")),
        [Some("XYZ".into()), Some("".into()), Some("A".into())]
    );
}

#[test]
fn optional_fields_and_newer_fields_are_nulls() {
    let (b, _) = batch(false);
    assert_eq!(
        opt::<Int32Type>(col(&b, "optI32")),
        [Some(5), None, Some(-1)]
    );
    // NaN is the null of an optional double.
    assert_eq!(
        opt::<Float64Type>(col(&b, "optF64")),
        [Some(0.5), None, None]
    );
    // `newer` (sinceVersion 2) is null in the v1 message, a value (0 included) otherwise.
    assert_eq!(
        opt::<Int32Type>(col(&b, "newer")),
        [Some(-9), Some(0), None]
    );
}

#[test]
fn groups_nest_and_absent_groups_are_empty() {
    let (b, _) = batch(false);
    let legs = col(&b, "legs").as_list::<i32>();
    assert_eq!(legs.null_count(), 0);
    assert_eq!(legs.value_offsets(), [0, 2, 2, 3]);
    let entries = legs.values().as_struct();
    assert_eq!(
        opt::<Int32Type>(member(entries, "px")),
        [Some(100), Some(-100), Some(5)]
    );
    let subs = member(entries, "subs").as_list::<i32>();
    assert_eq!(subs.value_offsets(), [0, 2, 2, 3]);
    assert_eq!(
        opt::<UInt16Type>(member(subs.values().as_struct(), "q")),
        [Some(1), Some(2), Some(9)]
    );
    // A group of constants only: one `_present = true` per entry.
    let marks = col(&b, "marks").as_list::<i32>();
    assert_eq!(marks.value_offsets(), [0, 3, 3, 4]);
    let present: Vec<Option<bool>> = member(marks.values().as_struct(), "_present")
        .as_boolean()
        .iter()
        .collect();
    assert_eq!(present, [Some(true); 4]);
    // `late` (sinceVersion 2) is absent in the v1 message: an empty list, not null.
    let late = col(&b, "late").as_list::<i32>();
    assert_eq!(late.null_count(), 0);
    assert_eq!(late.value_offsets(), [0, 1, 1, 1]);
    assert_eq!(
        opt::<UInt8Type>(member(late.values().as_struct(), "v")),
        [Some(3)]
    );
}

#[test]
fn var_data_text_and_binary() {
    let (b, _) = batch(false);
    assert_eq!(
        strs(col(&b, "text")),
        [
            Some("h\u{e9}llo".into()),
            Some("".into()),
            Some("v1".into())
        ]
    );
    let blob: Vec<Option<Vec<u8>>> = col(&b, "blob")
        .as_binary::<i32>()
        .iter()
        .map(|v| v.map(<[u8]>::to_vec))
        .collect();
    assert_eq!(blob, [Some(vec![0, 255, 10]), Some(vec![]), Some(vec![1])]);
}

#[test]
fn a_message_that_fails_leaves_no_row() {
    let layout = layout();
    let msgs = messages(&layout);
    let mut cols = SbeColumns::new(&layout, Options::default());
    cols.append(&msgs[0], 0, None).unwrap();
    // Cut inside the last var data (after the block and groups were read): an error, and
    // the table still holds one row.
    cols.append(&msgs[0][..msgs[0].len() - 1], 0, None)
        .unwrap_err();
    cols.flush().unwrap();
    let batches = cols.drain().unwrap();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].1.num_rows(), 1);
    assert_eq!(
        strs(col(&batches[0].1, "text")),
        [Some("h\u{e9}llo".into())]
    );
}
