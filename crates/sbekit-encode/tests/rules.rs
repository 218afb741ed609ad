//! The encoding rules and errors on inline schemas, and round trips over the project's own
//! schemas: nothing here needs `../shared`.

mod common;

use common::{canonical, decode, encode, random, random_tree, strip, Schema};
use sbekit_encode::{EncodeError, Encoder};
use sbekit_ir::layout::Layout;
use sbekit_otf::random::{Options, Rng};
use sbekit_otf::Decoder;
use sbekit_testdata::SchemaXml;
use serde_json::{json, Value};

/// The test schema: every kind of field, a group, two var data, two messages.
fn schema_xml() -> String {
    SchemaXml::new("t", 9, 2)
        .byte_order("littleEndian")
        .group_size("groupSizeEncoding", r#"primitiveType="uint8" maxValue="4""#)
        .var_data(
            "varStringEncoding",
            r#"primitiveType="uint16" maxValue="20""#,
            r#"characterEncoding="UTF-8""#,
        )
        .var_data("varDataEncoding", r#"primitiveType="uint16""#, "")
        .types(
            r#"<composite name="Price">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-4</type>
    </composite>
    <enum name="Side" encodingType="char">
      <validValue name="Buy">B</validValue>
      <validValue name="Sell">S</validValue>
    </enum>
    <set name="Flags" encodingType="uint8">
      <choice name="Odd">0</choice>
      <choice name="Last">3</choice>
    </set>
    <type name="Symbol" primitiveType="char" length="6" characterEncoding="US-ASCII"/>
    <type name="Note" primitiveType="char" length="4" characterEncoding="UTF-8"/>
    <type name="Kind" primitiveType="char" presence="constant">K</type>"#,
        )
        .message_with(
            r#"name="Order" id="3""#,
            r#"
    <field name="id" id="1" type="uint64"/>
    <field name="qty" id="2" type="uint16"/>
    <field name="side" id="3" type="Side"/>
    <field name="flags" id="4" type="Flags"/>
    <field name="symbol" id="5" type="Symbol"/>
    <field name="price" id="6" type="Price"/>
    <field name="ratio" id="7" type="float"/>
    <field name="limit" id="8" type="int32" presence="optional"/>
    <field name="kind" id="9" type="Kind" presence="constant"/>
    <field name="note" id="10" type="Note"/>
    <field name="extra" id="11" type="int16" presence="optional" sinceVersion="2"/>
    <group name="fills" id="20" dimensionType="groupSizeEncoding">
      <field name="px" id="21" type="int32"/>
      <field name="size" id="22" type="uint16"/>
      <field name="late" id="23" type="uint8" sinceVersion="1"/>
    </group>
    <data name="text" id="30" type="varStringEncoding"/>
    <data name="blob" id="31" type="varDataEncoding"/>
  "#,
        )
        .message_with(
            r#"name="Ping" id="4""#,
            r#"
    <field name="seq" id="1" type="uint32"/>
  "#,
        )
        .build()
}

fn schema() -> Schema {
    let compiled =
        sbekit_schema::compile_str(&schema_xml(), "t.xml", &sbekit_schema::Options::default());
    let ir = compiled
        .ir
        .unwrap_or_else(|| panic!("{:?}", compiled.diagnostics));
    let layout = Layout::from_ir(&ir).unwrap();
    Schema {
        name: "t.xml".into(),
        encoder: Encoder::new(&layout),
        decoder: Decoder::new(&ir).unwrap(),
        ir,
        layout,
    }
}

fn order() -> Value {
    json!({
        "id": "18446744073709551615",
        "qty": 7,
        "side": "Sell",
        "flags": ["Last"],
        "symbol": "IBM",
        "price": {"mantissa": -12345},
        "ratio": 0.1,
        "note": "né",
        "fills": [{"px": -5, "size": 9, "late": 1}, {"px": 6, "size": 10, "late": 0}],
        "text": "hello",
        "blob": "\u{0}\u{ff}"
    })
}

fn try_encode(s: &Schema, v: &Value, version: Option<u32>) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0xAA]; // something already in the buffer stays, and only it on error
    let r = s.encoder.encode(v, Some("Order"), version, &mut out);
    match r {
        Ok(()) => Ok(out[1..].to_vec()),
        Err(e) => {
            assert_eq!(out, [0xAA], "nothing written for a failed message");
            Err(e)
        }
    }
}

fn err(v: Value) -> String {
    try_encode(&schema(), &v, None).unwrap_err().to_string()
}

fn with(path: &str, value: Value) -> Value {
    let mut v = order();
    let mut at = &mut v;
    let parts: Vec<&str> = path.split('.').collect();
    for p in &parts[..parts.len() - 1] {
        at = match p.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*p],
        };
    }
    let last = parts[parts.len() - 1];
    if value.is_null() && last.starts_with('-') {
        at.as_object_mut().unwrap().remove(&last[1..]);
    } else if let Ok(i) = last.parse::<usize>() {
        at[i] = value;
    } else {
        at[last] = value;
    }
    v
}

#[test]
fn encodes_every_kind_of_value_and_reads_back() {
    let s = schema();
    let bytes = try_encode(&s, &order(), None).unwrap();
    let back: Value = serde_json::from_str(&decode(&s, &bytes)).unwrap();
    assert_eq!(back["id"], json!(18446744073709551615u64));
    assert_eq!(back["side"], "Sell");
    assert_eq!(back["flags"], json!({"Odd": false, "Last": true}));
    assert_eq!(back["symbol"], "IBM");
    assert_eq!(back["price"], json!({"mantissa": -12345, "exponent": -4}));
    assert_eq!(
        back["ratio"],
        json!(0.1f32 as f64)
            .as_f64()
            .map(|_| back["ratio"].clone())
            .unwrap()
    );
    assert_eq!(
        back["limit"],
        json!(i32::MIN),
        "omitted optional field is null"
    );
    assert_eq!(back["kind"], "K");
    assert_eq!(back["note"], "né");
    assert_eq!(back["fills"][1]["px"], 6);
    assert_eq!(back["text"], "hello");
    assert_eq!(back["blob"], "\u{0}\u{ff}");
    // The decoder's JSON encodes to the same bytes, through both front ends.
    assert_eq!(encode(&s, &back.to_string(), "Order", None), bytes);
    // Enums by raw value, sets as raw integers or objects, 64-bit as numbers.
    let alt = with("side", json!(83));
    let alt = {
        let mut a = alt;
        a["flags"] = json!(8);
        a["id"] = json!(18446744073709551615u64);
        a
    };
    assert_eq!(try_encode(&s, &alt, None).unwrap(), bytes);
    // The template is inferred from the members when not given.
    let mut out = Vec::new();
    s.encoder
        .encode(&json!({"seq": 5}), None, None, &mut out)
        .unwrap();
    assert_eq!(decode(&s, &out), r#"{"seq":5}"#);
}

#[test]
fn float_text_is_exact() {
    let s = schema();
    for text in ["0.1", "3.4028235e38", "1e-45", "-0.0", "16777217"] {
        let v: f32 = text.parse().unwrap();
        let line = order()
            .to_string()
            .replace("\"ratio\":0.1", &format!("\"ratio\":{text}"));
        let bytes = encode(&s, &line, "Order", None);
        let back: Value = serde_json::from_str(&decode(&s, &bytes)).unwrap();
        let got: f32 = back["ratio"].to_string().parse().unwrap();
        assert_eq!(got.to_bits(), v.to_bits(), "{text}");
    }
}

#[test]
fn values_that_do_not_fit_are_named_by_path() {
    let cases = [
        (
            with("fills.1.size", json!(70000)),
            "Order.fills[1].size: 70000 does not fit uint16",
        ),
        (with("qty", json!(-1)), "Order.qty: -1 does not fit uint16"),
        (
            with("qty", json!(1.5)),
            "Order.qty: \"1.5\" is not an integer",
        ),
        (
            with("qty", json!("x")),
            "Order.qty: \"x\" is not an integer",
        ),
        (
            with("side", json!("Hold")),
            "Order.side: unknown value \"Hold\" of enum Side (one of Buy, Sell)",
        ),
        (
            with("flags", json!(["Odd", "Even"])),
            "Order.flags[1]: unknown choice \"Even\" of set Flags (one of Odd, Last)",
        ),
        (
            // Found by the `encode` fuzz target: bytes after a NUL were written, never read.
            with("symbol", json!("AB\u{0}CD")),
            "Order.symbol: \"AB\\0CD\" contains NUL (U+0000): a character array's text ends at its first NUL",
        ),
        (
            with("symbol", json!("TOOLONG")),
            "Order.symbol: \"TOOLONG\" is 7 bytes, longer than the field's 6",
        ),
        (
            with("note", json!("€€")),
            "Order.note: \"€€\" is 6 bytes, longer than the field's 4",
        ),
        (
            with("-qty", Value::Null),
            "Order.qty: missing (the field is required)",
        ),
        (
            with("price.-mantissa", Value::Null),
            "Order.price.mantissa: missing (the field is required)",
        ),
        (with("bogus", json!(1)), "Order.bogus: unknown field"),
        (
            with("kind", json!("Q")),
            "Order.kind: \"Q\" is not the constant \"K\"",
        ),
        (
            with("price.exponent", json!(-2)),
            "Order.price.exponent: -2 is not the constant -4",
        ),
        (
            with("fills", json!([{}, {}, {}, {}, {}])),
            "Order.fills: 5 entries do not fit the group's count (uint8, at most 4)",
        ),
        (
            with("text", json!("x".repeat(21))),
            "Order.text: 21 bytes do not fit the length (uint16, at most 20)",
        ),
        (
            with("blob", json!("€")),
            "Order.blob: raw data takes one byte per character",
        ),
        (
            with("ratio", json!(1e39)),
            "Order.ratio: 1e+39 does not fit float",
        ),
        (
            with("fills.0", json!(3)),
            "Order.fills[0]: expected an object, got 3",
        ),
        (
            with("price", json!([1])),
            "Order.price: expected an object, got an array of 1",
        ),
        (
            with("id", json!("18446744073709551616")),
            "Order.id: 18446744073709551616 does not fit uint64",
        ),
    ];
    for (v, want) in cases {
        let got = err(v);
        assert!(got.starts_with(want), "got {got:?}, want {want:?}");
    }
    assert!(err(json!([1])).contains("expected an object"));
}

#[test]
fn older_versions_leave_newer_fields_out() {
    let s = schema();
    let mut v0 = order();
    for g in v0["fills"].as_array_mut().unwrap() {
        g.as_object_mut().unwrap().remove("late");
    }
    let old = try_encode(&s, &v0, Some(0)).unwrap();
    let new = try_encode(&s, &order(), None).unwrap();
    let root_len = |b: &[u8]| u16::from_le_bytes([b[0], b[1]]);
    assert_eq!(u16::from_le_bytes([old[6], old[7]]), 0, "header version");
    assert_eq!(root_len(&new) - root_len(&old), 2, "extra (int16) left out");
    assert!(old.len() < new.len());
    // The new reader sees the absent fields as nulls; writing that again as v0 is the same.
    let seen = decode(&s, &old);
    assert!(
        seen.contains("\"extra\":-32768") && seen.contains("\"late\":255"),
        "{seen}"
    );
    assert_eq!(encode(&s, &seen, "Order", Some(0)), old);
    // A value for a field the version does not have is an error, not silently dropped.
    let e = try_encode(&s, &order(), Some(0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Order.fills[0].late: 1 is not null, but the field is newer (sinceVersion 1) than version 0"
    );
    assert!(try_encode(&s, &v0, Some(3)).is_err());
}

/// Random messages of the project's own schemas round trip exactly, and random trees read back.
#[test]
fn own_schemas_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
    let mut n = 0;
    for name in ["market-data.xml", "shootout-2019.xml", "trades.xml"] {
        let s = common::load(&root.join(name));
        for m in 0..s.layout.messages.len() {
            let msg = s.layout.messages[m].name.clone();
            for seed in 0..50 {
                let opts = Options {
                    max_group: 4,
                    ..Options::default()
                };
                let raw = random(&s, m, seed, &opts);
                let canon = canonical(&s.layout, &raw);
                let json = decode(&s, &canon);
                assert_eq!(encode(&s, &json, &msg, None), canon, "{name} {msg} {seed}");
                let tree = random_tree(&s.layout, m, &mut Rng::new(seed), 0);
                let mut out = Vec::new();
                s.encoder.encode(&tree, Some(&msg), None, &mut out).unwrap();
                let back: Value = serde_json::from_str(&decode(&s, &out)).unwrap();
                assert_eq!(strip(&s.layout, m, &back, 0), tree);
                n += 1;
            }
        }
    }
    assert!(n >= 250);
}

#[test]
fn malformed_json_is_an_error_not_a_panic() {
    let s = schema();
    let mut doc = sbekit_encode::Doc::new();
    let mut out = Vec::new();
    let good = order().to_string();
    for cut in 0..good.len() {
        let r = s.encoder.encode_json(
            &good.as_bytes()[..cut],
            Some("Order"),
            None,
            &mut doc,
            &mut out,
        );
        assert!(r.is_err());
        assert!(out.is_empty());
    }
}
