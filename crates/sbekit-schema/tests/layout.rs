//! The layout model (`sbekit_ir::layout`) built from compiled schemas: facts checked by hand on
//! the project's own schemas, every reference-accepted schema, and hostile IR.

use proptest::prelude::*;
use sbekit_ir::layout::{FieldKind, Layout};
use sbekit_ir::{sbeir, Ir, IrError, Presence, PrimitiveType, Signal};
use sbekit_schema::{compile_file, compile_str, Options};
use sbekit_testdata::SchemaXml;
use std::path::{Path, PathBuf};

fn workspace_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn compile(path: &Path) -> Ir {
    let compiled = compile_file(path, &Options::default());
    compiled
        .ir
        .unwrap_or_else(|| panic!("{} rejected: {:?}", path.display(), compiled.diagnostics))
}

/// A versioned big-endian schema with every kind of element.
fn versioned_xml() -> String {
    SchemaXml::new("v", 7, 2)
        .byte_order("bigEndian")
        .group_size(
            "groupSizeEncoding",
            r#"primitiveType="uint8" maxValue="10""#,
        )
        .var_data(
            "varAsciiEncoding",
            r#"primitiveType="uint32" maxValue="1000""#,
            r#"characterEncoding="US-ASCII""#,
        )
        .types(
            r#"<composite name="Price">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-4</type>
    </composite>
    <enum name="Side" encodingType="char">
      <validValue name="Buy">B</validValue>
      <validValue name="Sell">S</validValue>
    </enum>
    <enum name="Flag" encodingType="uint8">
      <validValue name="No">0</validValue>
      <validValue name="Yes">1</validValue>
      <validValue name="Unknown" sinceVersion="1">2</validValue>
    </enum>
    <set name="Caps" encodingType="uint16">
      <choice name="A">0</choice>
      <choice name="B">15</choice>
    </set>
    <type name="Symbol" primitiveType="char" length="8" characterEncoding="US-ASCII"/>"#,
        )
        .message_with(
            r#"name="Order" id="3" blockLength="40""#,
            r#"
    <field name="id" id="1" type="uint64"/>
    <field name="symbol" id="2" type="Symbol"/>
    <field name="side" id="3" type="Side"/>
    <field name="kind" id="4" type="Side" presence="constant" valueRef="Side.Sell"/>
    <field name="price" id="5" type="Price"/>
    <field name="caps" id="6" type="Caps" sinceVersion="1"/>
    <field name="flag" id="7" type="Flag" presence="optional" sinceVersion="2"/>
    <group name="fills" id="10" dimensionType="groupSizeEncoding">
      <field name="qty" id="11" type="uint32"/>
      <group name="legs" id="12" dimensionType="groupSizeEncoding">
        <field name="ratio" id="13" type="int16" presence="optional"/>
      </group>
    </group>
    <data name="note" id="20" type="varAsciiEncoding" sinceVersion="2"/>
  "#,
        )
        .build()
}

fn versioned() -> Layout {
    let compiled = compile_str(&versioned_xml(), "versioned.xml", &Options::default());
    let ir = compiled.ir.expect("valid schema");
    Layout::from_ir(&ir).expect("layout")
}

#[test]
fn layout_of_a_versioned_big_endian_schema() {
    let l = versioned();
    assert_eq!((l.id, l.version), (7, 2));
    assert_eq!(l.byte_order, sbekit_ir::ByteOrder::BigEndian);
    assert_eq!(l.header.size, 8);
    assert_eq!(l.header.template_id.offset, 2);
    assert_eq!(l.header_composite().name, "messageHeader");

    let m = l.message_by_name("Order").unwrap();
    assert_eq!(m.id, 3);
    let b = &m.block;
    assert_eq!(b.block_length, 40);
    let names: Vec<&str> = b.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["id", "symbol", "side", "kind", "price", "caps", "flag"]
    );
    // Offsets follow the fields; the constant takes no room.
    let at: Vec<(usize, usize)> = b.fields.iter().map(|f| (f.offset, f.size)).collect();
    assert_eq!(
        at,
        [(0, 8), (8, 8), (16, 1), (17, 0), (17, 8), (25, 2), (27, 1)]
    );
    // Version 0 needs the first 25 bytes, version 1 adds the set, version 2 the flag.
    assert_eq!(b.required.0, vec![(0, 25), (1, 27), (2, 28)]);
    assert_eq!(b.required_length(0), 25);
    assert_eq!(b.required_length(1), 27);
    assert_eq!(b.required_length(9), 28);
    assert_eq!(b.min_length(), 25);
    assert!(b.has_versioned_fields());

    match &b.fields[1].kind {
        FieldKind::Primitive(p) => {
            assert!(p.is_char_array());
            assert_eq!(p.length, 8);
            assert_eq!(p.character_encoding.as_deref(), Some("US-ASCII"));
        }
        other => panic!("symbol is {other:?}"),
    }
    match &b.fields[3].kind {
        FieldKind::Enum {
            def,
            constant: Some(i),
        } => {
            let e = l.enum_def(*def);
            assert_eq!(e.name, "Side");
            assert_eq!(e.values[*i].name, "Sell");
            assert_eq!(e.values[*i].bits, u64::from(b'S'));
            assert!(b.fields[3].is_constant());
        }
        other => panic!("kind is {other:?}"),
    }
    match &b.fields[4].kind {
        FieldKind::Composite { def, members } => {
            assert_eq!(l.composite_def(*def).size, 8);
            assert_eq!(members.len(), 2);
            assert!(members[1].is_constant());
            assert_eq!(members[1].size, 0);
        }
        other => panic!("price is {other:?}"),
    }
    match &b.fields[5].kind {
        FieldKind::Set { def } => {
            let s = l.set_def(*def);
            assert_eq!(s.encoding, PrimitiveType::Uint16);
            assert_eq!(s.choices[1].bit, 15);
        }
        other => panic!("caps is {other:?}"),
    }
    let flag = &b.fields[6];
    assert_eq!(flag.presence, Presence::Optional);
    assert_eq!(flag.since_version, 2);
    if let FieldKind::Enum { def, .. } = &flag.kind {
        let e = l.enum_def(*def);
        assert_eq!(e.null_bits(), 255);
        assert_eq!(e.values[2].since_version, 1);
        assert_eq!(e.null_listed_as_value(), None);
    } else {
        panic!("flag is not an enum");
    }

    let fills = &b.groups[0];
    assert_eq!(fills.dimension.size, 3);
    assert_eq!(fills.dimension.num_in_group.ty, PrimitiveType::Uint8);
    assert_eq!(fills.dimension.num_in_group.max, 10);
    assert_eq!(fills.dimension.block_length.max, 65534);
    assert_eq!(fills.block.block_length, 4);
    let legs = &fills.block.groups[0];
    assert_eq!(legs.block.fields[0].presence, Presence::Optional);
    assert!(legs.block.is_fixed());
    assert!(!fills.block.is_fixed());

    let note = &b.var_data[0];
    assert_eq!(note.since_version, 2);
    assert_eq!((note.length.offset, note.data_offset), (0, 4));
    assert_eq!(note.length.max, 1000);
    assert!(note.is_text());
}

#[test]
fn layout_survives_an_sbeir_round_trip() {
    let compiled = compile_str(&versioned_xml(), "versioned.xml", &Options::default());
    let ir = compiled.ir.unwrap();
    let again = sbeir::decode(&sbeir::encode(&ir)).unwrap();
    assert_eq!(
        Layout::from_ir(&ir).unwrap(),
        Layout::from_ir(&again).unwrap()
    );
}

#[test]
fn the_projects_own_schemas_have_layouts() {
    for rel in [
        "schemas/market-data.xml",
        "schemas/shootout-2019.xml",
        "schemas/trades.xml",
        "crates/sbekit-codegen-tests/schemas/keywords.xml",
        "crates/sbekit-codegen-tests/schemas/versioned-v0.xml",
        "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
    ] {
        let ir = compile(&workspace_file(rel));
        let l = Layout::from_ir(&ir).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(l.messages.len(), ir.messages.len(), "{rel}");
    }
}

#[test]
fn every_reference_accepted_schema_has_a_layout() {
    let test = "every_reference_accepted_schema_has_a_layout";
    let Some(schemas) = sbekit_testdata::reference_accepted_schemas(test) else {
        return;
    };
    let root = sbekit_testdata::reference_sbe_dir();
    let mut built = 0;
    for path in &schemas {
        let ir = compile(path);
        let layout = Layout::from_ir(&ir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(layout.messages.len(), ir.messages.len());
        built += 1;
    }
    assert_eq!(built, 80);
    // The reference's own IR files give the same layouts as our compiler's IR.
    for (xml, file) in [
        ("sbe-benchmarks/src/main/resources/car.xml", "car.sbeir"),
        (
            "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
            "fix-message-samples.sbeir",
        ),
    ] {
        let theirs =
            sbeir::decode(&std::fs::read(root.join("derived/sbeir").join(file)).unwrap()).unwrap();
        assert_eq!(
            Layout::from_ir(&compile(&root.join(xml))).unwrap(),
            Layout::from_ir(&theirs).unwrap(),
            "{file}"
        );
    }
}

fn malformed(ir: &Ir) -> String {
    match Layout::from_ir(ir) {
        Err(IrError::Malformed(m)) => m,
        other => panic!("expected a malformed-IR error, got {other:?}"),
    }
}

#[test]
fn malformed_ir_is_an_error() {
    let good = compile_str(&versioned_xml(), "versioned.xml", &Options::default())
        .ir
        .unwrap();
    let field = |ir: &mut Ir, name: &str| {
        ir.messages[0]
            .iter()
            .position(|t| t.signal == Signal::BeginField && t.name == name)
            .unwrap()
    };

    let mut ir = good.clone();
    ir.messages[0][0].encoded_length = 20;
    assert!(malformed(&ir).contains("block length 20"));

    let mut ir = good.clone();
    let i = field(&mut ir, "id");
    ir.messages[0][i + 1].encoded_length = 7;
    ir.messages[0][i].encoded_length = 7;
    let m = malformed(&ir);
    assert!(m.contains("7 bytes"), "{m}");

    let mut ir = good.clone();
    let i = field(&mut ir, "price");
    ir.messages[0][i].component_token_count = 1000;
    malformed(&ir);

    let mut ir = good.clone();
    let bit = ir.messages[0]
        .iter_mut()
        .find(|t| t.signal == Signal::Choice)
        .unwrap();
    bit.encoding.const_value = Some(sbekit_ir::PrimitiveValue::UInt(16));
    assert!(malformed(&ir).contains("16-bit set"));

    let mut ir = good.clone();
    let count = ir.messages[0]
        .iter_mut()
        .find(|t| t.name == "numInGroup")
        .unwrap();
    count.encoding.primitive_type = Some(PrimitiveType::Float);
    malformed(&ir);

    let mut ir = good.clone();
    ir.header.retain(|t| t.name != "templateId");
    ir.header[0].component_token_count -= 1;
    assert!(malformed(&ir).contains("templateId"));

    let mut ir = good.clone();
    ir.messages.push(ir.messages[0].clone());
    assert!(malformed(&ir).contains("template id 3"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Any single-token damage gives a layout or an error, never a panic.
    #[test]
    fn damaged_ir_never_panics(
        token in 0usize..200,
        what in 0u8..6,
        value in any::<i32>(),
    ) {
        let mut ir = compile_str(&versioned_xml(), "versioned.xml", &Options::default()).ir.unwrap();
        let len = ir.messages[0].len();
        let t = &mut ir.messages[0][token % len];
        match what {
            0 => t.offset = value,
            1 => t.encoded_length = value,
            2 => t.component_token_count = value,
            3 => t.version = value,
            4 => t.signal = Signal::from_code((value.unsigned_abs() % 17 + 1) as u8).unwrap(),
            _ => t.encoding.primitive_type = PrimitiveType::from_code((value.unsigned_abs() % 12) as u8),
        }
        let _ = Layout::from_ir(&ir);
    }
}

#[test]
fn outline_of_the_versioned_schema() {
    use sbekit_schema::outline::{Outline, TypeKind};
    let o = Outline::new(&versioned());
    let m = &o.messages[0];
    assert_eq!((m.name.as_str(), m.id, m.block_length), ("Order", 3, 40));
    let kind = m.fields.iter().find(|f| f.name == "kind").unwrap();
    assert_eq!(kind.const_value.as_deref(), Some("Side.Sell"));
    assert_eq!(kind.presence, Presence::Constant);
    let price = m.fields.iter().find(|f| f.name == "price").unwrap();
    assert_eq!(price.kind, TypeKind::Composite);
    assert_eq!(price.type_label, "composite Price");
    let members: Vec<&str> = price.members.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(members, ["mantissa", "exponent"]);
    // The first group follows the block; what comes after it depends on the data.
    assert_eq!(m.groups[0].offset, 40);
    assert_eq!(m.data[0].offset, -1);
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(json["byteOrder"], "bigEndian");
    assert_eq!(json["messages"][0]["fields"][6]["presence"], "optional");
    assert_eq!(json["messages"][0]["fields"][1]["type"], "Symbol (char[8])");
    assert!(json["messages"][0]["fields"][0].get("members").is_none());
    let text = o.to_text();
    assert!(text.starts_with("schema v id=7 version=2 semanticVersion=- byteOrder=bigEndian\n"));
    assert!(text.contains("group fills id=10 blockLength="), "{text}");
    assert!(
        text.contains(
            "   var        data note id=20 type=varAsciiEncoding (length uint32, US-ASCII)"
        ),
        "{text}"
    );
}
