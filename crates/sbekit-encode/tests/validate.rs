//! `Encoder::with_validation`: each rule of the schema refused with validation on (naming the
//! value's path and the rule) and written without it, on the project's `orders-be.xml` and an
//! inline schema with `minValue`/`maxValue`; and, as properties, that validation only refuses:
//! what it accepts is written byte for byte as without it.

mod common;

use common::{canonical, random, Schema};
use proptest::prelude::*;
use sbekit_encode::{Doc, EncodeError, Encoder};
use sbekit_ir::layout::Layout;
use sbekit_otf::random::Options;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;

/// `orders-be.xml` (version 2, big-endian): optional `Qty` uint32 (null 0), `Weights` int16[3],
/// `Price` (int64 mantissa), `Side` char enum, optional `Venue` uint16 enum (1, 2, 300), groups
/// `fills` (uint16 count) and `marks` (uint32 count, maxValue 2147483647), `note` (uint16
/// length, maxValue 1024).
fn orders() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    crate_schema(&S, "sbekit-codegen-tests/schemas/orders-be.xml")
}

/// The schema at `path` (from `crates/`), loaded into `cell` once.
fn crate_schema(cell: &'static OnceLock<Schema>, path: &str) -> &'static Schema {
    cell.get_or_init(|| common::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)))
}

/// The message at the start of `bytes` as `sbekit decode` prints it (`$version` for an older
/// writer's).
fn decode(bytes: &[u8]) -> String {
    let s = orders();
    let (json, len) = sbekit_otf::message_to_decode_json(&s.decoder, bytes, false).unwrap();
    assert_eq!(len, bytes.len());
    json
}

/// A valid `Order`, every member given.
fn order() -> Value {
    json!({
        "orderId": 1,
        "symbol": "IBM",
        "side": "Buy",
        "kind": "Buy",
        "price": {"mantissa": 12345, "exponent": -4},
        "qty": 10,
        "weights": [1, -2, 3],
        "ratio": 0.5,
        "flags": ["Hidden"],
        "venue": "Auction",
        "fills": [{
            "fillQty": 5,
            "fillPrice": {"mantissa": -1},
            "legs": [{"ratio": 1}, {"ratio": null}],
            "fillNote": "x"
        }],
        "marks": [{"mark": 3}],
        "note": "hello",
        "blob": [0, 255]
    })
}

/// `order()` with the member at `path` (dot-separated, numbers index arrays) set to `value`.
fn with(path: &str, value: Value) -> Value {
    let mut v = order();
    let mut at = &mut v;
    for p in path.split('.') {
        at = match p.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[p],
        };
    }
    *at = value;
    v
}

/// Encodes `v` with `encoder` through both front ends (they must agree), at `version`.
fn encode_with(
    encoder: &Encoder,
    template: &str,
    v: &Value,
    version: Option<u32>,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0xAA];
    let r = encoder.encode(v, Some(template), version, &mut out);
    let mut text = vec![0xAA];
    let r2 = encoder.encode_json(
        v.to_string().as_bytes(),
        Some(template),
        version,
        &mut Doc::new(),
        &mut text,
    );
    assert_eq!(r, r2, "both front ends");
    assert_eq!(out, text, "both front ends");
    match r {
        Ok(()) => Ok(out.split_off(1)),
        Err(e) => {
            assert_eq!(out, [0xAA], "nothing written for a refused message");
            Err(e)
        }
    }
}

/// (without validation, with validation) for `v` as an `Order` of `orders-be.xml`.
fn both(
    v: &Value,
    version: Option<u32>,
) -> (Result<Vec<u8>, EncodeError>, Result<Vec<u8>, EncodeError>) {
    let plain = &orders().encoder;
    let checked = plain.clone().with_validation(true);
    assert!(!plain.validates() && checked.validates());
    (
        encode_with(plain, "Order", v, version),
        encode_with(&checked, "Order", v, version),
    )
}

/// As [`both`] for JSON text (what `decode` prints), through the text front end only: it reads
/// floats exactly, where serde_json's parse may be an ulp off.
fn both_text(json: &str) -> (Result<Vec<u8>, EncodeError>, Result<Vec<u8>, EncodeError>) {
    let plain = &orders().encoder;
    let checked = plain.clone().with_validation(true);
    let run = |e: &Encoder| {
        let mut out = Vec::new();
        e.encode_json(
            json.as_bytes(),
            Some("Order"),
            None,
            &mut Doc::new(),
            &mut out,
        )
        .map(|()| out)
    };
    (run(plain), run(&checked))
}

/// Accepted either way, to the same bytes.
#[track_caller]
fn accepted(v: &Value, version: Option<u32>) {
    match both(v, version) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "validation changed the bytes of {v}"),
        (a, b) => panic!("{v}: without validation {a:?}, with {b:?}"),
    }
}

/// Written without validation, refused with it: the error, as displayed.
#[track_caller]
fn refused(v: &Value, version: Option<u32>) -> String {
    let (plain, checked) = both(v, version);
    plain.unwrap_or_else(|e| panic!("{v}: refused without validation: {e}"));
    let e = checked.expect_err("accepted with validation");
    assert!(!e.path.is_empty(), "{e}");
    e.to_string()
}

#[test]
fn a_valid_message_and_null_optional_fields_pass() {
    accepted(&order(), None);
    // Optional fields may be null, omitted, or hold their null value.
    accepted(&with("qty", Value::Null), None);
    accepted(&with("qty", json!(0)), None); // Qty's nullValue
    accepted(&with("ratio", Value::Null), None);
    accepted(&with("ratio", json!("NaN")), None);
    accepted(&with("venue", Value::Null), None);
    accepted(&with("venue", json!(65535)), None); // Venue's null value
    accepted(&with("venue", json!(300)), None); // Auction, raw
    accepted(&with("fills.0.legs.0.ratio", json!(-32768)), None); // int16's null value
    let mut v = order();
    v.as_object_mut().unwrap().remove("qty");
    v.as_object_mut().unwrap().remove("venue");
    accepted(&v, None);
    // The edges of the ranges.
    accepted(&with("qty", json!(4_294_967_294u64)), None);
    accepted(&with("weights", json!([-32767, 32767, 0])), None);
    accepted(&with("price.mantissa", json!(i64::MIN + 1)), None);
    accepted(&with("orderId", json!(u64::MAX - 1)), None);
    accepted(&with("fills.0.fillQty", json!(0)), None);
}

#[test]
fn numbers_outside_the_range_are_refused() {
    // Qty's null value is 0, so 4294967295 is no null value, just above the type's maxValue.
    assert_eq!(
        refused(&with("qty", json!(4_294_967_295u64)), None),
        "Order.qty: 4294967295 is above the field's maximum, 4294967294"
    );
}

#[test]
fn required_fields_given_their_null_value_are_refused() {
    assert_eq!(
        refused(&with("fills.0.fillQty", json!(4_294_967_295u64)), None),
        "Order.fills[0].fillQty: 4294967295 is the null value of uint32, but the field is required"
    );
    assert_eq!(
        refused(&with("weights.1", json!(-32768)), None),
        "Order.weights[1]: -32768 is the null value of int16, but the field is required"
    );
    assert_eq!(
        refused(&with("weights.2", Value::Null), None),
        "Order.weights[2]: null (the null value of int16), but the field is required"
    );
    assert_eq!(
        refused(&with("price.mantissa", json!(i64::MIN)), None),
        "Order.price.mantissa: -9223372036854775808 is the null value of int64, but the field is required"
    );
    assert_eq!(
        refused(&with("orderId", json!("18446744073709551615")), None),
        "Order.orderId: \"18446744073709551615\" is the null value of uint64, but the field is required"
    );
    // A composite given null passes it to its members.
    assert_eq!(
        refused(&with("fills.0.fillPrice", Value::Null), None),
        "Order.fills[0].fillPrice.mantissa: null (the null value of int64), but the field is required"
    );
    assert_eq!(
        refused(&with("side", Value::Null), None),
        "Order.side: null (the null value of enum Side), but the field is required"
    );
}

#[test]
fn enum_values_the_schema_does_not_list_are_refused() {
    assert_eq!(
        refused(&with("venue", json!(7)), None),
        "Order.venue: 7 is not a value of enum Venue (one of Lit, Dark, Auction)"
    );
    assert_eq!(
        refused(&with("venue", json!("7")), None),
        "Order.venue: \"7\" is not a value of enum Venue (one of Lit, Dark, Auction)"
    );
    assert_eq!(
        refused(&with("side", json!(67)), None), // 'C'
        "Order.side: 67 is not a value of enum Side (one of Buy, Sell)"
    );
    accepted(&with("side", json!(83)), None); // 'S', Sell, raw
                                              // Names are always listed; an unknown name is refused either way.
    let (plain, checked) = both(&with("side", json!("Hold")), None);
    assert!(plain.is_err() && checked.is_err());
}

#[test]
fn groups_and_var_data_longer_than_their_max_value_are_refused_either_way() {
    // `fills` counts in a uint16 without maxValue: at most 65534 (65535 is its null value).
    // Written as version 0 so that an entry needs only its fillQty.
    let entry = json!({"fillQty": 1});
    let mut v = order();
    for k in ["flags", "venue", "marks", "blob"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v["fills"] = Value::Array(vec![entry.clone(); 65534]);
    accepted(&v, Some(0));
    v["fills"] = Value::Array(vec![entry; 65535]);
    let (plain, checked) = both(&v, Some(0));
    let want = "Order.fills: 65535 entries do not fit the group's count (uint16, at most 65534)";
    assert_eq!(plain.unwrap_err().to_string(), want);
    assert_eq!(checked.unwrap_err().to_string(), want);
    // `note`'s length is a uint16 with maxValue 1024.
    accepted(&with("note", json!("n".repeat(1024))), None);
    let (plain, checked) = both(&with("note", json!("n".repeat(1025))), None);
    let want = "Order.note: 1025 bytes do not fit the length (uint16, at most 1024)";
    assert_eq!(plain.unwrap_err().to_string(), want);
    assert_eq!(checked.unwrap_err().to_string(), want);
    // And in a group entry.
    let (plain, checked) = both(&with("fills.0.fillNote", json!("é".repeat(513))), None);
    let want = "Order.fills[0].fillNote: 1026 bytes do not fit the length (uint16, at most 1024)";
    assert_eq!(plain.unwrap_err().to_string(), want);
    assert_eq!(checked.unwrap_err().to_string(), want);
}

#[test]
fn chars_sets_constants_and_fields_left_out_are_not_checked() {
    // Sets: bits without a choice.
    accepted(&with("flags", json!(u32::MAX)), None);
    // Char data: any text that fits.
    accepted(&with("symbol", json!("\u{7f}\u{1}")), None);
    // Constants: checked as always, not validated.
    accepted(&with("kind", Value::Null), None);
    // Written as version 0, fillPrice (sinceVersion 1) is left out: its null value is what
    // `decode` prints for it there, required mantissa or not.
    let mut v = order();
    for k in ["flags", "venue", "marks", "blob"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v["fills"][0]["fillPrice"] = json!({"mantissa": null});
    accepted(&v, Some(0));
    v["$version"] = json!(0);
    accepted(&v, None);
    // At the schema's version it is written, and refused.
    assert_eq!(
        refused(&with("fills.0.fillPrice", json!({"mantissa": null})), None),
        "Order.fills[0].fillPrice.mantissa: null (the null value of int64), but the field is required"
    );
}

/// `owned-checks.xml` (the schema of the C++ owned values' validation tests): `Percent` uint8
/// 1..100, `Ratio` double 0.0..1.0, `Levels` uint16[2] at most 1000, `Band.low` int16
/// -100..100, an optional uint32 `quantity`, enum `Kind` (1, 2), char[4] `code`, group `items`
/// counted in a uint8 at most 3 and `note` at most 5 bytes long.
fn checks() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    crate_schema(&S, "sbekit-codegen-cpp/tests/schemas/owned-checks.xml")
}

/// A valid `Checked` with the members of `changes` replaced.
fn checked_msg(changes: Value) -> Value {
    let mut v = json!({
        "percent": 50, "ratio": 0.5, "plain": 7, "quantity": 3, "kind": "Small", "code": "AB",
        "levels": [0, 1000], "band": {"low": -100, "high": 5}, "items": [{"share": 100}],
        "note": "hi"
    });
    for (k, x) in changes.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[test]
fn the_schemas_own_bounds_are_checked() {
    let s = checks();
    let checked = s.encoder.clone().with_validation(true);
    let run = |v: &Value| {
        (
            encode_with(&s.encoder, "Checked", v, None),
            encode_with(&checked, "Checked", v, None),
        )
    };
    for change in [
        json!({}),
        json!({"percent": 1, "ratio": 0, "band": {"low": 100, "high": -32767}}),
        json!({"percent": 100, "ratio": 1, "levels": [1000, 0]}),
        // An optional field's null: null, or its null value.
        json!({"quantity": null}),
        json!({"quantity": 4_294_967_295u64}),
        // Char data is not checked.
        json!({"code": "\u{1}"}),
    ] {
        let v = checked_msg(change);
        match run(&v) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{v}"),
            (a, b) => panic!("{v}: {a:?} {b:?}"),
        }
    }
    for (change, error) in [
        (
            json!({"percent": 0}),
            "Checked.percent: 0 is below the field's minimum, 1",
        ),
        (
            json!({"percent": 101}),
            "Checked.percent: 101 is above the field's maximum, 100",
        ),
        (
            json!({"ratio": -0.5}),
            "Checked.ratio: -0.5 is below the field's minimum, 0",
        ),
        (
            json!({"ratio": 1.5}),
            "Checked.ratio: 1.5 is above the field's maximum, 1",
        ),
        (
            json!({"ratio": null}),
            "Checked.ratio: null (NaN) is outside the field's range, 0 to 1",
        ),
        (
            json!({"levels": [0, 1001]}),
            "Checked.levels[1]: 1001 is above the field's maximum, 1000",
        ),
        (
            json!({"band": {"low": -101, "high": 0}}),
            "Checked.band.low: -101 is below the field's minimum, -100",
        ),
        (
            json!({"items": [{"share": 1}, {"share": 0}]}),
            "Checked.items[1].share: 0 is below the field's minimum, 1",
        ),
        (
            json!({"plain": 255}),
            "Checked.plain: 255 is the null value of uint8, but the field is required",
        ),
        (
            json!({"kind": 3}),
            "Checked.kind: 3 is not a value of enum Kind (one of Small, Large)",
        ),
    ] {
        let v = checked_msg(change);
        let (plain, checked) = run(&v);
        plain.unwrap_or_else(|e| panic!("{v}: refused without validation: {e}"));
        assert_eq!(checked.unwrap_err().to_string(), error);
    }
    // Small count and length maxValues: refused either way.
    for (change, error) in [
        (
            json!({"items": [{"share": 1}, {"share": 1}, {"share": 1}, {"share": 1}]}),
            "Checked.items: 4 entries do not fit the group's count (uint8, at most 3)",
        ),
        (
            json!({"note": "abcdef"}),
            "Checked.note: 6 bytes do not fit the length (uint8, at most 5)",
        ),
    ] {
        let (plain, checked) = run(&checked_msg(change));
        assert_eq!(plain.unwrap_err().to_string(), error);
        assert_eq!(checked.unwrap_err().to_string(), error);
    }
}

/// A `float` field's bounds are compared as `float`s: 0.1 as a `float` is within a maxValue of
/// 0.1, as the generated code's `0.1f32` comparison has it.
#[test]
fn float_bounds_are_floats() {
    let xml = sbekit_testdata::SchemaXml::new("f", 7, 0)
        .types(r#"<type name="Rate" primitiveType="float" minValue="-1" maxValue="0.1"/>"#)
        .message("M", 1, r#"<field name="rate" id="1" type="Rate"/>"#)
        .build();
    let compiled = sbekit_schema::compile_str(&xml, "f.xml", &sbekit_schema::Options::default());
    let layout = Layout::from_ir(compiled.ir.as_ref().unwrap()).unwrap();
    let checked = Encoder::new(&layout).with_validation(true);
    let encode = |rate: f64| encode_with(&checked, "M", &json!({ "rate": rate }), None);
    assert!(encode(0.1).is_ok());
    assert!(encode(-1.0).is_ok());
    assert_eq!(
        encode(0.11).unwrap_err().to_string(),
        "M.rate: 0.11 is above the field's maximum, 0.1"
    );
}

/// A random valid `Order` (version 2): every number within its range, enums by name (or
/// null where optional), finite floats (`decode` prints NaN and infinities as `null`).
fn valid_order() -> impl Strategy<Value = Value> {
    let price = (i64::MIN + 1..=i64::MAX).prop_map(|m| json!({"mantissa": m}));
    let opt = |s: BoxedStrategy<Value>| prop_oneof![1 => Just(Value::Null), 4 => s];
    let leg =
        opt((-32767i16..=32767).prop_map(|r| json!(r)).boxed()).prop_map(|r| json!({"ratio": r}));
    let fill = (
        0..=u32::MAX - 1,
        price.clone(),
        proptest::collection::vec(leg, 0..3),
        "[a-z é€]{0,12}",
    )
        .prop_map(|(q, p, legs, note)| {
            json!({"fillQty": q, "fillPrice": p, "legs": legs, "fillNote": note})
        });
    let head = (
        0..=u64::MAX - 1,
        "[!-~]{0,8}",
        prop_oneof![Just("Buy"), Just("Sell")],
        price,
        opt((0..=u32::MAX - 1).prop_map(|q| json!(q)).boxed()),
        proptest::array::uniform3(-32767i16..=32767),
        opt(proptest::num::f64::NORMAL.prop_map(|r| json!(r)).boxed()),
        proptest::sample::subsequence(vec!["Hidden", "PostOnly", "Iceberg"], 0..=3),
        opt(prop_oneof![
            Just(json!("Lit")),
            Just(json!("Dark")),
            Just(json!("Auction"))
        ]
        .boxed()),
    );
    let tail = (
        proptest::collection::vec(fill, 0..3),
        proptest::collection::vec((0u8..=254).prop_map(|m| json!({"mark": m})), 0..3),
        "\\PC{0,40}",
        proptest::collection::vec(any::<u8>(), 0..8),
    );
    (head, tail).prop_map(
        |(
            (id, symbol, side, price, qty, weights, ratio, flags, venue),
            (fills, marks, note, blob),
        )| {
            json!({
                "orderId": id, "symbol": symbol, "side": side, "price": price, "qty": qty,
                "weights": weights, "ratio": ratio, "flags": flags, "venue": venue,
                "fills": fills, "marks": marks, "note": note, "blob": blob
            })
        },
    )
}

proptest! {
    /// A random valid `Order`, and what `decode` prints for it, pass validation and encode
    /// to the same bytes with validation on and off (and the decoded one to the bytes it came
    /// from).
    #[test]
    fn valid_messages_pass_and_encode_alike(v in valid_order()) {
        let (plain, checked) = both(&v, None);
        let bytes = plain.unwrap_or_else(|e| panic!("{v}: {e}"));
        prop_assert_eq!(checked.unwrap_or_else(|e| panic!("{v}: {e}")), bytes.clone());
        let decoded = decode(&bytes);
        let (plain, checked) = both_text(&decoded);
        prop_assert_eq!(plain.unwrap_or_else(|e| panic!("{decoded}: {e}")), bytes.clone());
        prop_assert_eq!(checked.unwrap_or_else(|e| panic!("{decoded}: {e}")), bytes);
    }

    /// Random messages, values anywhere in the wire's range (null values, unlisted enum
    /// values and all; most are refused, a random `Side` byte being rarely `B` or `S`),
    /// written as every version and decoded: without validation each goes back to its own
    /// canonical bytes, with it each is refused naming a path or written to those same bytes.
    #[test]
    fn validation_only_refuses(seed in any::<u64>(), version in 0u32..=2) {
        let s = orders();
        let opts = Options { writer_version: Some(version), max_group: 3, ..Options::default() };
        let canon = canonical(&s.layout, &random(s, 0, seed, &opts));
        let (plain, checked) = both_text(&decode(&canon));
        prop_assert_eq!(plain.as_ref().ok(), Some(&canon));
        match checked {
            Ok(b) => prop_assert_eq!(b, canon),
            Err(e) => prop_assert!(e.path.starts_with("Order"), "{}", e),
        }
    }
}
