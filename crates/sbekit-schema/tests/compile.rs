//! Behaviour of the schema compiler on schemas written for these tests.

use proptest::prelude::*;
use sbekit_ir::{sbeir, split_components, PrimitiveValue, Signal, Token};
use sbekit_schema::{compile_file, compile_str, Compiled, Options};
use sbekit_testdata::SchemaXml;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn find<'a>(tokens: &'a [Token], signal: Signal, name: &str) -> &'a Token {
    tokens
        .iter()
        .find(|t| t.signal == signal && t.name == name)
        .unwrap_or_else(|| panic!("no {signal:?} '{name}'"))
}

fn rules_of(c: &Compiled) -> Vec<&'static str> {
    c.errors().map(|d| d.rule).collect()
}

#[test]
fn v1_standard_style_constants_are_trimmed() {
    let c = compile_file(&fixture("v1-standard-style.xml"), &Options::default());
    let ir = c.ir.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    let m = ir.message_by_name("Execution").unwrap();
    assert_eq!(
        find(m, Signal::Encoding, "exponent").encoding.const_value,
        Some(PrimitiveValue::Int(-3))
    );
    assert_eq!(
        find(m, Signal::Encoding, "Currency").encoding.const_value,
        Some(PrimitiveValue::Bytes(b"USD".to_vec()))
    );
    assert_eq!(
        find(m, Signal::ValidValue, "Buy").encoding.const_value,
        Some(PrimitiveValue::Int(i64::from(b'1')))
    );
    // price (4, the constant exponent takes no space) + currency (constant: 0) + side (1).
    assert_eq!(m[0].encoded_length, 5);
    assert_eq!(find(m, Signal::BeginField, "side").offset, 4);
}

#[test]
fn v2_rc3_style_qualified_2017_namespace_with_xinclude() {
    let c = compile_file(&fixture("v2rc3/schema.xml"), &Options::default());
    let ir = c.ir.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    assert_eq!((ir.id, ir.version), (92, 1));
    let m = ir.message_by_name("Order").unwrap();
    let fields: Vec<(&str, i32)> = split_components(&m[1..m.len() - 1])
        .unwrap()
        .fields
        .iter()
        .filter(|t| t.signal == Signal::BeginField)
        .map(|t| (t.name.as_str(), t.offset))
        .collect();
    // `limit` is aligned to 8 after qty (4 bytes) and flags (1 byte).
    assert_eq!(fields, [("qty", 0), ("flags", 4), ("limit", 8)]);
    assert_eq!(m[0].encoded_length, 16);
    let limit = find(m, Signal::Encoding, "OptionalPrice");
    assert_eq!(limit.version, 1);
    assert_eq!(limit.encoding.null_value, Some(PrimitiveValue::Int(-1)));
    assert_eq!(find(m, Signal::BeginVarData, "text").offset, -1);
}

#[test]
fn diagnostics_name_file_line_column_and_rule() {
    let xml = r#"<messageSchema package="p" id="1">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <message name="Car" id="1">
    <field name="serialNumber" id="1" type="uint64"/>
        <field name="modelYear" id="2" type="uint16" offset="2"/>
  </message>
</messageSchema>"#;
    let c = compile_str(xml, "car.xml", &Options::default());
    assert!(c.ir.is_none());
    let text: Vec<String> = c.errors().map(ToString::to_string).collect();
    assert_eq!(
        text,
        ["car.xml:12:9: error[field-offset]: field 'modelYear' offset 2 overlaps the previous field (next free offset is 8)"]
    );
    let json = serde_json::to_value(&c.diagnostics).unwrap();
    assert_eq!(json[0]["rule"], "field-offset");
    assert_eq!(json[0]["location"]["line"], 12);
    assert_eq!(json[0]["severity"], "error");
}

/// A minimal valid schema with `types` and `body` spliced in.
fn schema(types: &str, body: &str) -> String {
    SchemaXml::new("p", 1, 1)
        .group_size("groupSizeEncoding", r#"primitiveType="uint16""#)
        .var_data("varData", r#"primitiveType="uint32""#, "")
        .types(types)
        .message("M", 1, body)
        .build()
}

#[test]
fn the_template_schema_is_valid() {
    let c = compile_str(
        &schema("", r#"<field name="a" id="1" type="uint8"/>"#),
        "t.xml",
        &Options::default(),
    );
    assert!(c.ir.is_some(), "{:?}", c.diagnostics);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
}

#[test]
fn each_rule_fires_on_its_violation() {
    let f = r#"<field name="a" id="1" type="uint8"/>"#;
    let cases: &[(&str, &str, &str)] = &[
        (
            "duplicate-type",
            r#"<type name="T" primitiveType="uint8"/><type name="T" primitiveType="uint16"/>"#,
            f,
        ),
        (
            "unknown-type",
            "",
            r#"<field name="a" id="1" type="Nope"/>"#,
        ),
        (
            "constant-without-value",
            r#"<type name="C" primitiveType="int8" presence="constant"> </type>"#,
            f,
        ),
        (
            "null-value-on-required",
            r#"<type name="R" primitiveType="int8" nullValue="0"/>"#,
            f,
        ),
        (
            "invalid-value",
            r#"<type name="R" primitiveType="uint8" maxValue="300"/>"#,
            f,
        ),
        (
            "enum-value-range",
            r#"<enum name="E" encodingType="uint8" nullValue="0"><validValue name="A">255</validValue></enum>"#,
            f,
        ),
        (
            "enum-value-range",
            r#"<type name="N" primitiveType="int8" minValue="0" maxValue="9"/><enum name="E" encodingType="N"><validValue name="A">10</validValue></enum>"#,
            f,
        ),
        (
            "duplicate-value",
            r#"<enum name="E" encodingType="uint8"><validValue name="A">1</validValue><validValue name="B">1</validValue></enum>"#,
            f,
        ),
        (
            "invalid-value",
            r#"<set name="S" encodingType="uint8"><choice name="A">8</choice></set>"#,
            f,
        ),
        (
            "since-version",
            r#"<type name="T" primitiveType="uint8" sinceVersion="2"/>"#,
            f,
        ),
        (
            "field-offset",
            "",
            r#"<field name="a" id="1" type="uint32"/><field name="b" id="2" type="uint8" offset="3"/>"#,
        ),
        (
            "composite-offset",
            r#"<composite name="X"><type name="a" primitiveType="uint32"/><type name="b" primitiveType="uint8" offset="1"/></composite>"#,
            f,
        ),
        (
            "field-order",
            "",
            r#"<data name="d" id="2" type="varData"/><field name="a" id="1" type="uint8"/>"#,
        ),
        (
            "field-order",
            "",
            r#"<data name="d" id="2" type="varData"/><group name="g" id="3"><field name="a" id="1" type="uint8"/></group>"#,
        ),
        (
            "circular-ref",
            r#"<composite name="A"><ref name="b" type="B"/></composite><composite name="B"><ref name="a" type="A"/></composite>"#,
            f,
        ),
        (
            "group-dimensions",
            r#"<type name="D" primitiveType="uint8"/>"#,
            r#"<group name="g" id="3" dimensionType="D"><field name="a" id="1" type="uint8"/></group>"#,
        ),
        (
            "var-data-encoding",
            "",
            r#"<data name="d" id="2" type="uint8"/>"#,
        ),
        (
            "block-length",
            "",
            r#"<group name="g" id="3" blockLength="1"><field name="a" id="1" type="uint32"/></group>"#,
        ),
        (
            "duplicate-field-name",
            "",
            r#"<field name="a" id="1" type="uint8"/><field name="a" id="2" type="uint8"/>"#,
        ),
        (
            "value-ref",
            r#"<enum name="E" encodingType="uint8"><validValue name="A">1</validValue></enum>"#,
            r#"<field name="a" id="1" type="E" presence="constant" valueRef="E.Z"/>"#,
        ),
        (
            "invalid-composite",
            r#"<composite name="X"><group name="g" id="1"/></composite>"#,
            f,
        ),
        (
            "semantic-type",
            r#"<type name="T" primitiveType="uint8" semanticType="int"/>"#,
            r#"<field name="a" id="1" type="T" semanticType="char"/>"#,
        ),
        (
            "invalid-attribute",
            r#"<type name="Big" primitiveType="uint64" length="100000"/>"#,
            f,
        ),
        ("missing-attribute", "", r#"<field name="a" type="uint8"/>"#),
    ];
    for (rule, types, body) in cases {
        let c = compile_str(&schema(types, body), "t.xml", &Options::default());
        assert!(c.ir.is_none(), "{rule}: accepted {types} {body}");
        assert!(
            rules_of(&c).contains(rule),
            "{rule}: got {:?} for {types} {body}",
            c.diagnostics
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn duplicate_message_ids_and_missing_header_are_errors() {
    let two = schema("", "").replace(
        "</sbe:messageSchema>",
        r#"<sbe:message name="N" id="1"/></sbe:messageSchema>"#,
    );
    assert!(rules_of(&compile_str(&two, "t.xml", &Options::default()))
        .contains(&"duplicate-message-id"));
    let no_header = schema("", "").replace("name=\"messageHeader\"", "name=\"other\"");
    assert!(
        rules_of(&compile_str(&no_header, "t.xml", &Options::default()))
            .contains(&"message-header")
    );
}

#[test]
fn keyword_names_warn_and_warnings_can_be_fatal() {
    let xml = schema("", r#"<field name="type" id="1" type="uint8"/>"#);
    let c = compile_str(&xml, "t.xml", &Options::default());
    assert!(c.ir.is_some());
    assert!(c
        .warnings()
        .any(|d| d.rule == "keyword" && d.message.contains("Rust")));
    let strict = compile_str(
        &xml,
        "t.xml",
        &Options {
            warnings_as_errors: true,
        },
    );
    assert!(strict.ir.is_none());
}

#[test]
fn hostile_inputs_give_diagnostics_not_panics() {
    let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
    let huge_id =
        schema("", "").replace(r#"id="1" version"#, r#"id="99999999999999999999" version"#);
    let mut laughs = String::from(r#"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a0 "aaaaaaaaaa">"#);
    for i in 1..10 {
        let p = format!("&a{};", i - 1);
        laughs += &format!(r#"<!ENTITY a{i} "{}">"#, p.repeat(10));
    }
    laughs += "]><messageSchema>&a9;</messageSchema>";
    let external = r#"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY x SYSTEM "file:///etc/passwd">]><messageSchema>&x;</messageSchema>"#;
    let cases: [(&str, String, &str); 8] = [
        ("empty", String::new(), "xml"),
        (
            "malformed",
            "<messageSchema><types></messageSchema>".into(),
            "xml",
        ),
        ("deep nesting", deep, "xml"),
        ("huge number", huge_id, "invalid-attribute"),
        ("entity expansion", laughs, "xml"),
        ("external entity", external.into(), "xml"),
        ("not a schema", "<html/>".into(), "schema"),
        (
            "huge offset",
            schema(
                "",
                r#"<field name="a" id="1" type="uint64" offset="2147483647"/>"#,
            ),
            "block-length",
        ),
    ];
    for (what, text, rule) in cases {
        let c = compile_str(&text, "h.xml", &Options::default());
        assert!(c.ir.is_none(), "{what}: accepted");
        assert!(rules_of(&c).contains(&rule), "{what}: {:?}", c.diagnostics);
    }
}

#[test]
fn include_cycles_and_missing_includes_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let inc = |href: &str| {
        format!(
            r#"<types xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="{href}"/></types>"#
        )
    };
    std::fs::write(dir.path().join("a.xml"), inc("b.xml")).unwrap();
    std::fs::write(dir.path().join("b.xml"), inc("a.xml")).unwrap();
    let c = compile_file(&dir.path().join("a.xml"), &Options::default());
    assert!(rules_of(&c).contains(&"xinclude"), "{:?}", c.diagnostics);
    std::fs::write(dir.path().join("c.xml"), inc("missing.xml")).unwrap();
    let c = compile_file(&dir.path().join("c.xml"), &Options::default());
    assert!(rules_of(&c).contains(&"io"), "{:?}", c.diagnostics);
    let c = compile_file(&dir.path().join("nope.xml"), &Options::default());
    assert!(rules_of(&c).contains(&"io"));
}

#[test]
fn load_ir_reads_xml_and_sbeir_alike() {
    let path = fixture("v1-standard-style.xml");
    let from_xml = sbekit_schema::load_ir(&path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ir_path = dir.path().join("x.sbeir");
    std::fs::write(&ir_path, sbeir::encode(&from_xml)).unwrap();
    assert_eq!(sbekit_schema::load_ir(&ir_path).unwrap(), from_xml);
    std::fs::write(&ir_path, b"\x01\x02").unwrap();
    assert!(sbekit_schema::load_ir(&ir_path).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random edits of a valid schema compile or fail with diagnostics; whatever compiles
    /// survives a `.sbeir` round trip.
    #[test]
    fn edited_schemas_never_panic(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<char>()), 1..8)) {
        let mut text = schema(
            r#"<enum name="E" encodingType="char"><validValue name="A">A</validValue></enum><type name="T" primitiveType="int32" presence="optional" nullValue="0" length="2"/><composite name="C"><type name="x" primitiveType="uint8"/><ref name="e" type="E"/></composite>"#,
            r#"<field name="a" id="1" type="T"/><field name="c" id="2" type="C"/><group name="g" id="3"><field name="e" id="4" type="E"/><data name="d" id="5" type="varData"/></group>"#,
        );
        for (at, op, ch) in edits {
            let mut chars: Vec<char> = text.chars().collect();
            let i = at.index(chars.len());
            match op {
                0 => { chars.remove(i); }
                1 => chars.insert(i, ch),
                2 => chars[i] = ch,
                _ => { let d = chars[i]; if d.is_ascii_digit() { chars[i] = '9'; chars.insert(i, '9'); } }
            }
            text = chars.into_iter().collect();
        }
        let c = compile_str(&text, "p.xml", &Options::default());
        if let Some(ir) = c.ir {
            let bytes = sbeir::encode(&ir);
            prop_assert_eq!(sbeir::decode(&bytes).unwrap(), ir);
        } else {
            prop_assert!(c.errors().count() > 0);
        }
    }

    /// Arbitrary text never panics the compiler.
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        let c = compile_str(&text, "p.xml", &Options::default());
        prop_assert!(c.ir.is_some() || c.errors().count() > 0);
    }
}

fn compiled_ir(text: &str) -> sbekit_ir::Ir {
    let c = compile_str(text, "t.xml", &Options::default());
    c.ir.unwrap_or_else(|| panic!("{:?}", c.diagnostics))
}

/// Issue 10, defect 1: a constant defined by valueRef is the enum value's encoding, and the
/// field token carries the valueRef text typed char (as the reference's IR).
#[test]
fn value_ref_constants_take_the_enum_values_encoding() {
    let ir = compiled_ir(&schema(
        r#"<enum name="constval" encodingType="uint8"><validValue name="one">1</validValue><validValue name="two">2</validValue></enum>
           <enum name="Side" encodingType="char"><validValue name="Buy">1</validValue><validValue name="TwO">T</validValue></enum>
           <type name="unit" primitiveType="uint8" presence="constant" valueRef="constval.two"/>"#,
        r#"<field name="constant" id="1" type="uint8" presence="constant" valueRef="constval.one"/>
           <field name="side" id="2" type="Side" presence="constant" valueRef="Side.TwO"/>
           <field name="u" id="3" type="unit"/>"#,
    ));
    let m = ir.message_by_name("M").unwrap();
    let uint8 = m
        .iter()
        .find(|t| t.signal == Signal::Encoding && t.name == "uint8")
        .unwrap();
    let value = |t: &Token| {
        t.encoding
            .const_value
            .as_ref()
            .and_then(PrimitiveValue::as_i128)
    };
    assert_eq!(value(uint8), Some(1));
    assert_eq!(value(find(m, Signal::Encoding, "unit")), Some(2));
    for field in ["constant", "side"] {
        let f = find(m, Signal::BeginField, field);
        assert_eq!(
            f.encoding.primitive_type,
            Some(sbekit_ir::PrimitiveType::Char)
        );
    }
    assert_eq!(
        find(m, Signal::BeginField, "side").encoding.const_value,
        Some(PrimitiveValue::Bytes(b"Side.TwO".to_vec()))
    );
    // The .sbeir round trip keeps the values.
    let back = sbeir::decode(&sbeir::encode(&ir)).unwrap();
    let m = back.message_by_name("M").unwrap();
    assert_eq!(value(find(m, Signal::Encoding, "unit")), Some(2));
}

/// Issue 10, defect 2: a field's version is max(field sinceVersion, type sinceVersion), so an
/// older writer's shorter block is valid.
#[test]
fn a_types_since_version_reaches_the_fields_that_use_it() {
    let text = schema(
        r#"<type name="intArray" primitiveType="int32" length="5" sinceVersion="1"/>
           <enum name="E" encodingType="uint8" sinceVersion="1"><validValue name="A">0</validValue></enum>
           <composite name="C" sinceVersion="1"><type name="x" primitiveType="uint8"/></composite>"#,
        r#"<field name="a" id="1" type="uint32"/>
           <field name="arr" id="2" type="intArray"/>
           <field name="e" id="3" type="E"/>
           <field name="c" id="4" type="C"/>"#,
    );
    let ir = compiled_ir(&text);
    let m = ir.message_by_name("M").unwrap();
    assert_eq!(find(m, Signal::BeginField, "a").version, 0);
    for (field, inner_signal, inner) in [
        ("arr", Signal::Encoding, "intArray"),
        ("e", Signal::BeginEnum, "E"),
        ("c", Signal::BeginComposite, "C"),
    ] {
        assert_eq!(find(m, Signal::BeginField, field).version, 1, "{field}");
        assert_eq!(find(m, Signal::EndField, field).version, 1, "{field}");
        assert_eq!(find(m, inner_signal, inner).version, 1, "{field}");
    }
}

/// Issue 10, defect 3: inside a field, a composite's primitive members are stamped with
/// max(field, composite) sinceVersion, not their own (enum, set and composite members:
/// max(field, member)); in the header, with their own.
#[test]
fn composite_members_are_stamped_with_the_fields_version() {
    let text = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="3">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16" sinceVersion="1"/>
    </composite>
    <composite name="Opt" sinceVersion="1">
      <type name="a" primitiveType="int32" presence="optional"/>
      <type name="b" primitiveType="int32" presence="optional" sinceVersion="3"/>
      <enum name="k" encodingType="uint8"><validValue name="A">0</validValue></enum>
    </composite>
  </types>
  <sbe:message name="M" id="1">
    <field name="early" id="1" type="Opt"/>
    <field name="late" id="2" type="Opt" sinceVersion="2"/>
  </sbe:message>
</sbe:messageSchema>"#;
    let ir = compiled_ir(text);
    assert_eq!(find(&ir.header, Signal::Encoding, "version").version, 1);
    assert_eq!(find(&ir.header, Signal::Encoding, "templateId").version, 0);
    let m = ir.message_by_name("M").unwrap();
    let versions = |field: &str| -> Vec<(String, i32)> {
        let at = m
            .iter()
            .position(|t| t.signal == Signal::BeginField && t.name == field)
            .unwrap();
        let n = m[at].component_token_count as usize;
        m[at..at + n]
            .iter()
            .filter(|t| t.signal != Signal::ValidValue)
            .map(|t| (t.name.clone(), t.version))
            .collect()
    };
    let v = |pairs: &[(&str, i32)]| -> Vec<(String, i32)> {
        pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
    };
    assert_eq!(
        versions("early"),
        v(&[
            ("early", 1),
            ("Opt", 1),
            ("a", 1),
            ("b", 1),
            ("k", 0),
            ("k", 0),
            ("Opt", 1),
            ("early", 1)
        ])
    );
    assert_eq!(
        versions("late"),
        v(&[
            ("late", 2),
            ("Opt", 2),
            ("a", 2),
            ("b", 2),
            ("k", 2),
            ("k", 2),
            ("Opt", 2),
            ("late", 2)
        ])
    );
}

/// Issue 10: a validValue without sinceVersion inherits its enum's; only an explicit lower
/// one is worth a warning.
#[test]
fn since_version_warns_only_for_an_explicit_lower_value_version() {
    let c = compile_str(
        &schema(
            r#"<enum name="E" encodingType="uint8" sinceVersion="1">
                 <validValue name="A">0</validValue>
                 <validValue name="B" sinceVersion="1">1</validValue>
                 <validValue name="C" sinceVersion="0">2</validValue>
               </enum>"#,
            r#"<field name="e" id="1" type="E"/>"#,
        ),
        "t.xml",
        &Options::default(),
    );
    let warnings: Vec<String> = c.warnings().map(|d| d.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("'C'"), "{warnings:?}");
}

/// Issue 10: a DTD declaration (`<!DOCTYPE xml>`, as real exchange schemas have) is accepted,
/// and so are small internal entities; large expansions and external entities are not (see
/// `hostile_inputs_give_diagnostics_not_panics`).
#[test]
fn doctype_declarations_are_accepted() {
    let plain = schema("", r#"<field name="a" id="1" type="uint8"/>"#);
    let with_doctype = format!("<?xml version=\"1.0\"?>\n<!DOCTYPE xml>\n{plain}");
    let c = compile_str(&with_doctype, "t.xml", &Options::default());
    assert!(c.ir.is_some(), "{:?}", c.diagnostics);
    let with_entity = format!(
        "<!DOCTYPE x [<!ENTITY d \"a description\">]>\n{}",
        plain.replace(
            r#"id="1" type="uint8""#,
            r#"id="1" type="uint8" description="&d;""#
        )
    );
    let c = compile_str(&with_entity, "t.xml", &Options::default());
    let ir = c.ir.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    let m = ir.message_by_name("M").unwrap();
    assert_eq!(
        find(m, Signal::BeginField, "a").description.as_deref(),
        Some("a description")
    );
}

/// Issue 10: an enum listing its null value as a validValue (SBE 1.0's optional Boolean) is
/// valid with a warning; the null stays BEGIN_ENUM's nullValue.
#[test]
fn an_enum_may_list_its_null_value() {
    let c = compile_str(
        &schema(
            r#"<enum name="Bool" encodingType="uint8"><validValue name="False">0</validValue><validValue name="True">1</validValue><validValue name="NullValue">255</validValue></enum>"#,
            r#"<field name="b" id="1" type="Bool"/>"#,
        ),
        "t.xml",
        &Options::default(),
    );
    let ir =
        c.ir.as_ref()
            .unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    let warnings: Vec<String> = c.warnings().map(|d| d.to_string()).collect();
    assert!(
        warnings.len() == 1 && warnings[0].contains("null value"),
        "{warnings:?}"
    );
    let m = ir.message_by_name("M").unwrap();
    let begin = find(m, Signal::BeginEnum, "Bool");
    assert_eq!(
        begin
            .encoding
            .null_value
            .as_ref()
            .and_then(PrimitiveValue::as_i128),
        Some(255)
    );
}
