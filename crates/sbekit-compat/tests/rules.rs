//! One test per rule: a small change to `data/base.xml` must report the rule, and the
//! checker's verdict must agree with the execution oracle.

mod common;

use common::{edit, run, schema, MESSAGES};

const BASE: &str = include_str!("data/base.xml");
const V2: (&str, &str) = (r#"id="1" version="1""#, r#"id="1" version="2""#);
const NOTE: &str = r#"<field name="note" id="6" type="Note"/>"#;
const FILLS_END: &str = r#"<field name="sz" id="12" type="uint32"/>"#;
const TEXT: &str = r#"<data name="text" id="20" type="varStringEncoding"/>"#;
const TEXT2: &str = r#"<data name="text2" id="21" type="varStringEncoding"/>"#;
const LEGS: &str = r#"<group name="legs" id="15" dimensionType="groupSizeEncoding">
      <field name="leg" id="16" type="uint32"/>
    </group>"#;
const CANCEL_ID: &str = r#"<field name="id" id="1" type="uint64"/>
    <field name="venue""#;
const TAIL: &str = r#"<field name="tail" id="4" type="Tail"/>"#;

/// Applies the edits, checks that `rule` is reported and that checker and oracle agree.
fn case(rule: &str, edits: &[(&str, &str)]) -> common::Outcome {
    assert!(
        sbekit_compat::rules::by_name(rule).is_some(),
        "unknown rule {rule}"
    );
    let old = schema("old.xml", BASE);
    let new = schema("new.xml", &edit(BASE, edits));
    let out = run(&old, &new, MESSAGES);
    assert!(out.has(rule), "{rule} not reported:\n{}", out.describe());
    assert!(
        out.agrees(),
        "{rule}: checker and oracle disagree:\n{}",
        out.describe()
    );
    out
}

fn with(s: &str, extra: &str) -> String {
    format!("{s}\n    {extra}")
}

#[test]
fn unchanged_is_compatible_and_quiet() {
    let old = schema("old.xml", BASE);
    let out = run(&old, &old, MESSAGES);
    assert!(out.report.diagnostics.is_empty(), "{}", out.describe());
    assert!(out.agrees(), "{}", out.describe());
}

#[test]
fn field_appended() {
    let n = with(
        NOTE,
        r#"<field name="extra" id="7" type="uint32" sinceVersion="2"/>"#,
    );
    let out = case("field-appended", &[V2, (NOTE, &n)]);
    assert!(out.has("field-added-required"));
    assert_eq!(out.report.verdict, sbekit_compat::Verdict::Warnings);
}

#[test]
fn group_appended() {
    let t = with(
        TAIL,
        r#"<group name="extra" id="9" dimensionType="groupSizeEncoding" sinceVersion="2"><field name="x" id="1" type="uint32"/></group>"#,
    );
    let out = case("group-appended", &[V2, (TAIL, &t)]);
    assert_eq!(out.report.verdict, sbekit_compat::Verdict::Compatible);
}

#[test]
fn var_data_appended() {
    let t = with(
        TEXT2,
        r#"<data name="text3" id="22" type="varStringEncoding" sinceVersion="2"/>"#,
    );
    case("var-data-appended", &[V2, (TEXT2, &t)]);
}

#[test]
fn message_added() {
    let m = r#"</sbe:message>
  <sbe:message name="Extra" id="9"><field name="x" id="1" type="uint32"/></sbe:message>
</sbe:messageSchema>"#;
    case(
        "message-added",
        &[("</sbe:message>\n</sbe:messageSchema>", m)],
    );
}

#[test]
fn block_length_padded() {
    case(
        "block-length-padded",
        &[(r#"blockLength="32""#, r#"blockLength="40""#)],
    );
}

#[test]
fn composite_member_appended() {
    // In the gap between `a` and `z`: the composite keeps its size. The compiler stamps a
    // composite member with its field's version, as the reference tool does, so the
    // member's own sinceVersion does not reach the IR: the member is unversioned, new readers
    // read it from old writers' gap bytes, and the oracle proves that breaking.
    // `composite-member-appended` can only come from IR whose member tokens carry versions.
    let m = r#"<type name="a" primitiveType="uint32"/>
      <type name="b" primitiveType="uint32" offset="4" sinceVersion="2"/>"#;
    let out = case(
        "composite-extended",
        &[V2, (r#"<type name="a" primitiveType="uint32"/>"#, m)],
    );
    assert!(!out.has("composite-member-appended"));
}

#[test]
fn composite_grown_by_versioned_member_breaks() {
    // Versioned or not, a member that grows the composite breaks old writers' short blocks:
    // the oracle proves it (decoders require the whole composite of a present field).
    let m = r#"<type name="z" primitiveType="uint32" offset="8"/>
      <type name="b" primitiveType="uint32" sinceVersion="2"/>"#;
    case(
        "composite-extended",
        &[
            V2,
            (r#"<type name="z" primitiveType="uint32" offset="8"/>"#, m),
        ],
    );
}

#[test]
fn description_changed() {
    case(
        "description-changed",
        &[(
            r#"name="Cancel" id="2""#,
            r#"name="Cancel" id="2" description="cancel an order""#,
        )],
    );
}

#[test]
fn constant_added() {
    let t = with(TAIL, r#"<field name="venue2" id="5" type="Venue"/>"#);
    case("constant-added", &[(TAIL, &t)]);
}

#[test]
fn field_inserted_and_moved() {
    let i = format!("<field name=\"ins\" id=\"9\" type=\"uint32\"/>\n    {CANCEL_ID}");
    let out = case("field-inserted", &[(CANCEL_ID, &i)]);
    assert!(out.has("field-moved"), "{}", out.describe());
}

#[test]
fn field_moved() {
    case(
        "field-moved",
        &[(
            r#"<field name="id" id="1" type="uint64"/>
    <field name="qty" id="2" type="int32"/>"#,
            r#"<field name="qty" id="2" type="int32"/>
    <field name="id" id="1" type="uint64"/>"#,
        )],
    );
}

#[test]
fn field_removed() {
    let out = case("field-removed", &[(NOTE, "")]);
    assert!(out.has("block-length-lowered"), "{}", out.describe());
    // Safe backward (new readers ignore the bytes), breaking forward.
    let f = out
        .report
        .comparison
        .findings
        .iter()
        .find(|f| f.rule.name == "field-removed")
        .unwrap();
    assert_eq!(f.backward, sbekit_compat::Effect::Ok);
    assert_eq!(
        out.oracle.backward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn field_type_changed() {
    case(
        "field-type-changed",
        &[(
            r#"name="qty" id="2" type="int32""#,
            r#"name="qty" id="2" type="Tail""#,
        )],
    );
}

#[test]
fn field_primitive_changed() {
    case(
        "field-primitive-changed",
        &[(
            r#"name="qty" id="2" type="int32""#,
            r#"name="qty" id="2" type="uint32""#,
        )],
    );
}

#[test]
fn field_length_changed() {
    case(
        "field-length-changed",
        &[(
            r#"primitiveType="char" length="8""#,
            r#"primitiveType="char" length="6""#,
        )],
    );
}

#[test]
fn presence_relaxed() {
    let out = case(
        "presence-relaxed",
        &[(
            r#"name="qty" id="2" type="int32""#,
            r#"name="qty" id="2" type="int32" presence="optional""#,
        )],
    );
    assert_eq!(
        out.oracle.backward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn presence_tightened() {
    let out = case(
        "presence-tightened",
        &[(
            r#"primitiveType="uint16" presence="optional""#,
            r#"primitiveType="uint16""#,
        )],
    );
    assert_eq!(
        out.oracle.forward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn presence_constant_changed() {
    case(
        "presence-constant-changed",
        &[(
            r#"<type name="Venue" primitiveType="char" presence="constant">X</type>"#,
            r#"<type name="Venue" primitiveType="char"/>"#,
        )],
    );
}

#[test]
fn constant_changed() {
    case(
        "constant-changed",
        &[(r#"presence="constant">X<"#, r#"presence="constant">Y<"#)],
    );
}

#[test]
fn null_value_changed() {
    case(
        "null-value-changed",
        &[(
            r#"primitiveType="uint16" presence="optional""#,
            r#"primitiveType="uint16" presence="optional" nullValue="0""#,
        )],
    );
}

#[test]
fn group_inserted() {
    let g = format!(
        "<group name=\"pre\" id=\"9\" dimensionType=\"groupSizeEncoding\" sinceVersion=\"2\"><field name=\"x\" id=\"1\" type=\"uint32\"/></group>\n    {}",
        r#"<group name="fills""#
    );
    case("group-inserted", &[V2, (r#"<group name="fills""#, &g)]);
}

#[test]
fn group_appended_unskippable() {
    let g = format!("{LEGS}\n    <group name=\"post\" id=\"9\" dimensionType=\"groupSizeEncoding\" sinceVersion=\"2\"><field name=\"x\" id=\"1\" type=\"uint32\"/></group>");
    let out = case("group-appended-unskippable", &[V2, (LEGS, &g)]);
    assert_eq!(
        out.oracle.backward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn group_reordered() {
    let fills = r#"<group name="fills" id="10" dimensionType="groupSizeEncoding">
      <field name="px" id="11" type="int64"/>
      <field name="sz" id="12" type="uint32"/>
    </group>"#;
    case(
        "group-reordered",
        &[(fills, ""), (LEGS, &format!("{LEGS}\n    {fills}"))],
    );
}

#[test]
fn group_removed() {
    case("group-removed", &[(LEGS, "")]);
}

#[test]
fn var_data_inserted() {
    let d = format!(
        "<data name=\"pre\" id=\"22\" type=\"varStringEncoding\" sinceVersion=\"2\"/>\n    {TEXT}"
    );
    case("var-data-inserted", &[V2, (TEXT, &d)]);
}

#[test]
fn var_data_appended_unskippable() {
    let d = with(
        FILLS_END,
        r#"<data name="memo" id="13" type="varStringEncoding" sinceVersion="2"/>"#,
    );
    case("var-data-appended-unskippable", &[V2, (FILLS_END, &d)]);
}

#[test]
fn var_data_reordered() {
    case(
        "var-data-reordered",
        &[(TEXT, ""), (TEXT2, &format!("{TEXT2}\n    {TEXT}"))],
    );
}

#[test]
fn var_data_removed() {
    let out = case("var-data-removed", &[(TEXT2, "")]);
    // The last root element: new readers simply stop before it.
    assert_eq!(
        out.oracle.backward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn group_dimension_changed() {
    case(
        "group-dimension-changed",
        &[(
            r#"name="legs" id="15" dimensionType="groupSizeEncoding""#,
            r#"name="legs" id="15" dimensionType="groupSize8""#,
        )],
    );
}

#[test]
fn var_data_length_changed() {
    case(
        "var-data-length-changed",
        &[(TEXT, r#"<data name="text" id="20" type="varString8"/>"#)],
    );
}

#[test]
fn composite_extended() {
    let m = r#"<type name="exponent" primitiveType="int8"/>
      <type name="extra" primitiveType="int8"/>"#;
    case(
        "composite-extended",
        &[V2, (r#"<type name="exponent" primitiveType="int8"/>"#, m)],
    );
}

#[test]
fn block_length_lowered() {
    case(
        "block-length-lowered",
        &[(TAIL, ""), (r#"blockLength="32""#, r#"blockLength="16""#)],
    );
}

#[test]
fn byte_order_changed() {
    case(
        "byte-order-changed",
        &[(r#"byteOrder="littleEndian""#, r#"byteOrder="bigEndian""#)],
    );
}

#[test]
fn header_changed() {
    case(
        "header-changed",
        &[(
            r#"<type name="version" primitiveType="uint16"/>
    </composite>"#,
            r#"<type name="version" primitiveType="uint16"/>
      <type name="extra" primitiveType="uint16"/>
    </composite>"#,
        )],
    );
}

#[test]
fn schema_id_changed() {
    case(
        "schema-id-changed",
        &[(r#"id="1" version="1""#, r#"id="7" version="1""#)],
    );
}

#[test]
fn template_id_changed() {
    case(
        "template-id-changed",
        &[(r#"name="Cancel" id="2""#, r#"name="Cancel" id="5""#)],
    );
}

#[test]
fn message_removed() {
    let out = case(
        "message-removed",
        &[
            (
                r#"<sbe:message name="Cancel""#,
                r#"<sbe:message name="Gone""#,
            ),
            (r#"name="Gone" id="2""#, r#"name="Gone" id="8""#),
        ],
    );
    assert_eq!(
        out.oracle.forward.effect,
        sbekit_compat::Effect::Ok,
        "{}",
        out.describe()
    );
}

#[test]
fn enum_value_changed() {
    case(
        "enum-value-changed",
        &[(r#"name="Sell">2<"#, r#"name="Sell">3<"#)],
    );
}

#[test]
fn enum_value_removed() {
    case(
        "enum-value-removed",
        &[(r#"<validValue name="Sell">2</validValue>"#, "")],
    );
}

#[test]
fn enum_encoding_changed() {
    case(
        "enum-encoding-changed",
        &[(
            r#"name="Side" encodingType="uint8""#,
            r#"name="Side" encodingType="uint16""#,
        )],
    );
}

#[test]
fn set_choice_moved() {
    case(
        "set-choice-moved",
        &[(
            r#"<choice name="B">1</choice>"#,
            r#"<choice name="B">2</choice>"#,
        )],
    );
}

#[test]
fn set_choice_removed() {
    case(
        "set-choice-removed",
        &[(r#"<choice name="B">1</choice>"#, "")],
    );
}

#[test]
fn set_encoding_changed() {
    case(
        "set-encoding-changed",
        &[(
            r#"name="Flags" encodingType="uint8""#,
            r#"name="Flags" encodingType="uint16""#,
        )],
    );
}

#[test]
fn alignment_changed() {
    case(
        "alignment-changed",
        &[(
            r#"<field name="id" id="1" type="uint64"/>
    <field name="qty""#,
            r#"<field name="id" id="1" type="uint64" alignment="8"/>
    <field name="qty""#,
        )],
    );
}

#[test]
fn since_version_missing() {
    let t = with(TAIL, r#"<field name="late" id="5" type="uint32"/>"#);
    case("since-version-missing", &[V2, (TAIL, &t)]);
}

#[test]
fn since_version_changed() {
    case(
        "since-version-changed",
        &[(
            NOTE,
            r#"<field name="note" id="6" type="Note" sinceVersion="1"/>"#,
        )],
    );
}

#[test]
fn enum_value_added() {
    let v = r#"<validValue name="Sell">2</validValue>
      <validValue name="Cross" sinceVersion="2">3</validValue>"#;
    let out = case(
        "enum-value-added",
        &[V2, (r#"<validValue name="Sell">2</validValue>"#, v)],
    );
    assert_eq!(
        out.oracle.forward.effect,
        sbekit_compat::Effect::Warn,
        "{}",
        out.describe()
    );
}

#[test]
fn set_choice_added() {
    let v = r#"<choice name="B">1</choice>
      <choice name="C" sinceVersion="2">2</choice>"#;
    case(
        "set-choice-added",
        &[V2, (r#"<choice name="B">1</choice>"#, v)],
    );
}

#[test]
fn field_added_required() {
    let t = with(
        TAIL,
        r#"<field name="late" id="5" type="uint32" sinceVersion="2"/>"#,
    );
    case("field-added-required", &[V2, (TAIL, &t)]);
}

#[test]
fn deprecated() {
    case(
        "deprecated",
        &[
            V2,
            (
                NOTE,
                r#"<field name="note" id="6" type="Note" deprecated="2"/>"#,
            ),
        ],
    );
}

#[test]
fn renamed_is_api_only() {
    let out = case(
        "renamed",
        &[(r#"name="qty" id="2""#, r#"name="quantity" id="2""#)],
    );
    assert_eq!(out.report.verdict, sbekit_compat::Verdict::Compatible);
    let api = sbekit_compat::check(
        &schema("old.xml", BASE),
        &schema(
            "new.xml",
            &edit(
                BASE,
                &[(r#"name="qty" id="2""#, r#"name="quantity" id="2""#)],
            ),
        ),
        &sbekit_compat::Options {
            tier: sbekit_compat::Tier::Api,
            ..Default::default()
        },
    );
    assert_eq!(api.verdict, sbekit_compat::Verdict::Breaking);
}

#[test]
fn type_renamed() {
    case(
        "type-renamed",
        &[(
            r#"name="side" id="4" type="Side""#,
            r#"name="side" id="4" type="Flags""#,
        )],
    );
}

#[test]
fn id_changed() {
    case(
        "id-changed",
        &[(r#"name="qty" id="2""#, r#"name="qty" id="22""#)],
    );
}

#[test]
fn constant_removed() {
    case(
        "constant-removed",
        &[(r#"<field name="venue" id="2" type="Venue"/>"#, "")],
    );
}

#[test]
fn every_rule_has_a_test() {
    let src = include_str!("rules.rs");
    for r in sbekit_compat::rules::ALL {
        assert!(
            src.contains(&format!("\"{}\"", r.name)),
            "rule {} has no test here",
            r.name
        );
    }
}

#[test]
fn diagnostics_point_into_both_files() {
    let old = schema("old.xml", BASE);
    let new = schema(
        "new.xml",
        &edit(BASE, &[(r#"name="Sell">2<"#, r#"name="Sell">3<"#)]),
    );
    let r = sbekit_compat::check(&old, &new, &Default::default());
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.rule == "enum-value-changed")
        .unwrap();
    let text = d.to_string();
    assert!(text.starts_with("new.xml:"), "{text}");
    assert!(text.contains("(old: old.xml:"), "{text}");
    let line = d.new.as_ref().unwrap().line as usize;
    assert!(
        BASE.lines().nth(line - 1).unwrap().contains("Sell"),
        "{text}"
    );
}
