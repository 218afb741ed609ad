//! Hostile counts: groups whose entries take no bytes cannot make the walker loop for long.

use sbekit_ir::layout::Layout;
use sbekit_otf::{Decoder, ErrorKind, JsonPrinter, Limits, NoopVisitor};
use sbekit_schema::{compile_str, Options};
use sbekit_testdata::SchemaXml;

/// A message whose groups' entries hold only a constant: zero bytes per entry.
fn schema_xml() -> String {
    SchemaXml::new("z", 1, 0)
        .group_size(
            "bigGroupSize",
            r#"primitiveType="uint32" maxValue="2147483647""#,
        )
        .types(r#"<type name="Seven" primitiveType="uint8" presence="constant">7</type>"#)
        .message_with(
            r#"name="Empty" id="1""#,
            r#"
    <group name="outer" id="2" dimensionType="bigGroupSize">
      <field name="c" id="3" type="Seven"/>
      <group name="inner" id="4" dimensionType="bigGroupSize">
        <field name="d" id="5" type="Seven"/>
      </group>
    </group>
    <group name="flat" id="6" dimensionType="bigGroupSize">
      <field name="e" id="7" type="Seven"/>
    </group>
  "#,
        )
        .build()
}

fn decoder() -> Decoder {
    let ir = compile_str(&schema_xml(), "empty.xml", &Options::default())
        .ir
        .expect("valid schema");
    Decoder::from_layout(&Layout::from_ir(&ir).unwrap()).unwrap()
}

fn header(block_length: u16) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [block_length, 1, 1, 0] {
        m.extend_from_slice(&v.to_le_bytes());
    }
    m
}

fn dimension(m: &mut Vec<u8>, count: u32) {
    m.extend_from_slice(&0u16.to_le_bytes());
    m.extend_from_slice(&count.to_le_bytes());
}

#[test]
fn two_billion_empty_entries_are_refused_at_once() {
    // 8-byte header, outer group of 0 entries, flat group of two billion empty entries: 20
    // bytes that would otherwise take billions of visits (and gigabytes of JSON).
    let mut m = header(0);
    dimension(&mut m, 0);
    dimension(&mut m, 2_000_000_000);
    let d = decoder();
    let e = d.decode(&m, &mut NoopVisitor).unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::TooManyEntries {
            limit: Limits::DEFAULT_MAX_EMPTY_ENTRIES
        }
    );
    assert_eq!(e.offset, 20);
    assert!(e.path.ends_with("flat"), "{}", e.path);
    let mut printer = JsonPrinter::new(false);
    assert!(d.decode(&m, &mut printer).is_err());
}

#[test]
fn maximum_counts_everywhere_are_refused() {
    // Every count at its maximum: the outer count alone exceeds the budget.
    let mut m = header(0);
    dimension(&mut m, 2_147_483_647);
    dimension(&mut m, 2_147_483_647);
    let e = decoder().decode(&m, &mut NoopVisitor).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooManyEntries { .. }), "{e}");
}

#[test]
fn the_budget_counts_every_group_of_the_message() {
    // Outer: 2 entries, each with an inner group of 3 entries; flat: 4 entries. 12 in all.
    let mut m = header(0);
    dimension(&mut m, 2);
    for _ in 0..2 {
        dimension(&mut m, 3);
    }
    dimension(&mut m, 4);
    let exact = decoder().with_limits(Limits {
        max_empty_entries: 12,
    });
    assert_eq!(exact.decode(&m, &mut NoopVisitor).unwrap(), m.len());
    let short = decoder().with_limits(Limits {
        max_empty_entries: 11,
    });
    let e = short.decode(&m, &mut NoopVisitor).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooManyEntries { limit: 11 });
    assert!(e.path.ends_with("flat"), "{}", e.path);
}
