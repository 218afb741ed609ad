//! Issue 10's OTF items, on schemas written for these tests: random messages for var data
//! named `length`/`varData` and for constant header fields, NUL as a single char, and an
//! enum's null value listed as a validValue.

use sbekit_otf::random::{random_message, Expected, Options, Rng};
use sbekit_otf::{message_to_json, Decoder};
use sbekit_schema::{compile_str, Options as SchemaOptions};
use sbekit_testdata::SchemaXml;

fn ir(types: &str, header_extra: &str, body: &str) -> sbekit_ir::Ir {
    let header = format!(
        r#"<type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      {header_extra}"#
    );
    let text = SchemaXml::new("p", 7, 0)
        .header(&header)
        .var_data(
            "varDataEncoding",
            r#"primitiveType="uint8""#,
            r#"characterEncoding="UTF-8""#,
        )
        .types(types)
        .message("M", 1, body)
        .build();
    let c = compile_str(&text, "t.xml", &SchemaOptions::default());
    c.ir.unwrap_or_else(|| panic!("{:?}", c.diagnostics))
}

const HEADER: &str = r#"<type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>"#;

fn json(ir: &sbekit_ir::Ir, bytes: &[u8]) -> serde_json::Value {
    let decoder = Decoder::new(ir).unwrap();
    let (text, used) = message_to_json(&decoder, bytes, false).unwrap();
    assert_eq!(used, bytes.len());
    serde_json::from_str(&text).unwrap()
}

#[test]
fn random_handles_var_data_named_like_its_members() {
    let ir = ir(
        "",
        HEADER,
        r#"<field name="a" id="1" type="uint8"/>
           <data name="varData" id="2" type="varDataEncoding"/>
           <data name="length" id="3" type="varDataEncoding"/>"#,
    );
    let mut rng = Rng::new(1);
    for _ in 0..50 {
        let m = random_message(&ir, &ir.messages[0], &mut rng, &Options::default());
        let v = json(&ir, &m.bytes);
        for (path, want) in &m.expected {
            let key = path.rsplit('.').next().unwrap();
            if let Expected::Data(d) = want {
                assert_eq!(v[key].as_str().unwrap().as_bytes(), &d[..], "{path}");
            }
        }
    }
}

#[test]
fn random_leaves_constant_header_fields_off_the_wire() {
    let ir = ir(
        "",
        r#"<type name="schemaId" primitiveType="uint16" presence="constant">7</type><type name="version" primitiveType="uint16"/>"#,
        r#"<field name="a" id="1" type="uint32"/>"#,
    );
    assert_eq!(ir.header_structure().unwrap().encoded_length, 6);
    let mut rng = Rng::new(2);
    let m = random_message(&ir, &ir.messages[0], &mut rng, &Options::default());
    // blockLength 4, templateId 1, version 0, then the block.
    assert_eq!(&m.bytes[..6], &[4, 0, 1, 0, 0, 0]);
    assert_eq!(m.bytes.len(), 10);
    let Expected::Int(a) = &m.expected[0].1 else {
        panic!("{:?}", m.expected)
    };
    assert_eq!(json(&ir, &m.bytes)["a"].as_i64(), Some(*a as i64));
}

#[test]
fn a_single_nul_char_prints_as_u0000() {
    let ir = ir(
        "",
        HEADER,
        r#"<field name="c" id="1" type="char"/><field name="s" id="2" type="char"/>"#,
    );
    let bytes = [2, 0, 1, 0, 7, 0, 0, 0, 0, b'x'];
    let decoder = Decoder::new(&ir).unwrap();
    let (text, _) = message_to_json(&decoder, &bytes, false).unwrap();
    assert_eq!(text.trim_end(), r#"{"c":"\u0000","s":"x"}"#);
}

#[test]
fn an_enums_null_value_listed_as_a_valid_value_prints_null() {
    let ir = ir(
        r#"<enum name="Bool" encodingType="uint8"><validValue name="False">0</validValue><validValue name="True">1</validValue><validValue name="NullValue">255</validValue></enum>"#,
        HEADER,
        r#"<field name="a" id="1" type="Bool"/><field name="b" id="2" type="Bool"/>"#,
    );
    let bytes = [2, 0, 1, 0, 7, 0, 0, 0, 255, 1];
    let v = json(&ir, &bytes);
    assert_eq!(v["a"], serde_json::Value::Null);
    assert_eq!(v["b"], "True");
}
