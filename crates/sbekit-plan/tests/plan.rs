//! The plan of our own big-endian, versioned schema, checked against facts worked out by hand
//! from `crates/sbekit-codegen-tests/schemas/orders-be.xml`, and the plan of every schema the
//! reference tool accepts.

use sbekit_ir::{ByteOrder, Presence, PrimitiveType};
use sbekit_plan::{Check, CheckError, Empty, Kind, Language, Plan, Section};
use std::path::Path;

fn orders() -> Plan {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-codegen-tests/schemas/orders-be.xml");
    let layout = sbekit_schema::load_layout(&p).expect("orders-be.xml compiles");
    Plan::new(&layout).expect("plan")
}

#[test]
fn orders_root_block_and_accessors() {
    let plan = orders();
    assert_eq!(plan.byte_order, ByteOrder::BigEndian);
    assert_eq!((plan.id, plan.version), (42, 2));
    let order = &plan.messages.iter().find(|m| m.id == 1).unwrap().body;
    // orderId 8 + symbol 8 + side 1 + price 8 + qty 4 + weights 6 + ratio 8 = 43 (version 0),
    // + flags 4 (version 1) = 47, + venue 2 (version 2) = 49.
    assert_eq!(order.block_length, 49);
    assert_eq!(order.min_block, 43);
    assert_eq!(order.required.last(), Some(&(2, 49)));
    let f = |n: &str| order.fields.iter().find(|f| f.name == n).unwrap();
    assert_eq!((f("symbol").offset, f("symbol").size), (8, 8));
    assert_eq!((f("price").offset, f("qty").offset), (17, 25));
    assert_eq!((f("weights").offset, f("weights").size), (29, 6));
    assert_eq!((f("flags").offset, f("flags").since), (43, 1));
    assert_eq!((f("venue").offset, f("venue").since), (47, 2));
    assert!(f("kind").is_constant());
    assert_eq!(f("kind").size, 0);
    match &f("kind").kind {
        Kind::Enum { ty, constant, .. } => {
            assert_eq!(ty, "Side");
            assert_eq!(constant.as_deref(), Some("Buy"));
        }
        k => panic!("kind: {k:?}"),
    }
    match &f("qty").kind {
        Kind::Prim(p) => {
            assert_eq!(p.presence, Presence::Optional);
            assert_eq!(p.null.as_i128(), Some(0));
            assert_eq!(p.order, ByteOrder::BigEndian);
        }
        k => panic!("qty: {k:?}"),
    }
    match &f("weights").kind {
        Kind::Prim(p) => assert_eq!((p.ty, p.len), (PrimitiveType::Int16, 3)),
        k => panic!("weights: {k:?}"),
    }
    match &f("venue").kind {
        Kind::Enum { optional, .. } => assert!(*optional),
        k => panic!("venue: {k:?}"),
    }
    // Only used types are listed; the dimension and var-data composites are slots instead.
    assert!(plan.composites.contains_key("Price"));
    assert!(!plan.composites.contains_key("varString"));
    assert!(plan.enums.contains_key("Venue") && plan.sets.contains_key("Flags"));
}

#[test]
fn orders_sections_and_checks_in_wire_order() {
    let plan = orders();
    let order = plan.messages.iter().find(|m| m.id == 1).unwrap();
    let names: Vec<&str> = order.body.sections.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["fills", "marks", "note", "blob"]);
    let Section::Group {
        body: fills,
        dim_size,
        count,
        ..
    } = &order.body.sections[0]
    else {
        panic!("fills is a group")
    };
    assert_eq!(*dim_size, 4);
    assert_eq!((count.offset, count.ty), (2, PrimitiveType::Uint16));
    // fillQty 4 (version 0) + fillPrice 8 (version 1).
    assert_eq!((fills.block_length, fills.min_block), (12, 4));
    assert_eq!(fills.path, ["Order", "fills"]);
    let Section::Group {
        count: marks_count,
        since,
        ..
    } = &order.body.sections[1]
    else {
        panic!("marks is a group")
    };
    assert_eq!(
        (marks_count.ty, marks_count.max, *since),
        (PrimitiveType::Uint32, 2_147_483_647, 1)
    );
    let Section::Var { len, text, .. } = &order.body.sections[2] else {
        panic!("note is var data")
    };
    assert_eq!((len.max, len.width(), *text), (1024, 2, true));

    let c = &order.checks;
    assert_eq!(c[0], Check::Header { size: 8 });
    match (&c[1], &c[2]) {
        (
            Check::SchemaId {
                slot: s,
                expected: 42,
            },
            Check::TemplateId {
                slot: t,
                expected: 1,
            },
        ) => {
            assert_eq!((s.offset, t.offset), (4, 2));
            assert_eq!(s.order, ByteOrder::BigEndian);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&c[3], Check::RootBlock { required, .. } if required.first() == Some(&(0, 43)))
    );
    let paths: Vec<&str> = c[4..]
        .iter()
        .map(|s| match s {
            Check::Group { path, .. } | Check::VarData { path, .. } => path.as_str(),
            _ => "?",
        })
        .collect();
    assert_eq!(
        paths,
        ["Order.fills", "Order.marks", "Order.note", "Order.blob"]
    );
    match &c[4] {
        Check::Group {
            entry,
            empty_entries,
            ..
        } => {
            assert!(!empty_entries, "a fills entry takes at least 4 bytes");
            assert!(matches!(&entry[0], Check::Group { path, .. } if path == "Order.fills.legs"));
            assert!(
                matches!(&entry[1], Check::VarData { path, .. } if path == "Order.fills.fillNote")
            );
        }
        other => panic!("{other:?}"),
    }
    // A marks entry's only field is newer than version 0: entries may take no bytes.
    assert!(matches!(
        &c[5],
        Check::Group {
            empty_entries: true,
            since: 1,
            ..
        }
    ));
    assert!(c[5].errors().contains(&CheckError::EmptyEntryBudget));
    assert!(!c[4].errors().contains(&CheckError::EmptyEntryBudget));
}

#[test]
fn encoder_order_is_wire_order_with_each_sections_empty_form() {
    let plan = orders();
    let order = &plan.messages.iter().find(|m| m.id == 1).unwrap().body;
    let steps: Vec<String> = order
        .encode_order()
        .iter()
        .map(|s| match s.empty {
            Empty::Group { child, group } => format!(
                "{} {}: group {child}, {} dimension bytes",
                s.index,
                s.section.name(),
                group.dim_size
            ),
            Empty::Var { prefix, .. } => {
                format!("{} {}: {prefix} length bytes", s.index, s.section.name())
            }
        })
        .collect();
    assert_eq!(
        steps,
        [
            "0 fills: group 0, 4 dimension bytes",
            "1 marks: group 1, 6 dimension bytes",
            "2 note: 2 length bytes",
            "3 blob: 4 length bytes",
        ]
    );
    let fills = order.sections[0].as_group().unwrap().body;
    let inner: Vec<usize> = fills.encode_order().iter().map(|s| s.index).collect();
    assert_eq!(inner, [0, 1]);
}

#[test]
fn type_names_per_language() {
    let plan = orders();
    let path = ["Order".to_string(), "fills".to_string(), "legs".to_string()];
    assert_eq!(plan.type_name(Language::Rust, &path), "OrderFillsLegs");
    assert_eq!(
        plan.type_name(Language::TypeScript, &path),
        "OrderFillsLegs"
    );
    assert_eq!(plan.type_name(Language::C, &path), "order_fills_legs");
    // A message named like a composite gets a suffix: types share one namespace.
    assert_eq!(
        plan.type_name(Language::Rust, &["Price".to_string()]),
        "PriceMessage"
    );
}

/// Every schema the reference tool accepts (80) has a plan whose checks and sections agree.
#[test]
fn plan_of_every_reference_accepted_schema_builds() {
    let Some(schemas) = sbekit_testdata::reference_accepted_schemas(
        "plan_of_every_reference_accepted_schema_builds",
    ) else {
        return;
    };
    let mut n = 0;
    for path in &schemas {
        let name = path.display().to_string();
        let layout = sbekit_schema::load_layout(path).unwrap_or_else(|e| panic!("{}: {e}", name));
        let plan = Plan::new(&layout).unwrap_or_else(|e| panic!("{}: {e}", name));
        assert_eq!(plan.messages.len(), layout.messages.len(), "{}", name);
        for m in &plan.messages {
            // Header, ids and root block, then one step per top-level section.
            assert_eq!(m.checks.len(), 4 + m.body.sections.len(), "{}", name);
            assert!(m.body.min_block <= m.body.block_length, "{}", name);
            match &m.checks[3] {
                Check::RootBlock {
                    block_length,
                    version,
                    ..
                } => {
                    let h = &layout.header;
                    assert_eq!(block_length.offset, h.block_length.offset, "{}", name);
                    assert_eq!(version.constant, h.version.constant, "{}", name);
                }
                other => panic!("{}: {other:?}", name),
            }
        }
        n += 1;
    }
    assert_eq!(n, 80, "reference-accepted schemas");
}

#[test]
fn var_data_header_slots_and_every_type() {
    let plan = orders();
    let order = &plan.messages.iter().find(|m| m.id == 1).unwrap().body;
    // note (varString: uint16 length, UTF-8) then blob (varBytes: uint32 length, no encoding),
    // after the two groups.
    let vars: Vec<_> = order
        .vars()
        .filter_map(|(k, s)| match s {
            Section::Var {
                name,
                data_offset,
                char_encoding,
                ..
            } => Some((k, name.clone(), *data_offset, char_encoding.clone())),
            Section::Group { .. } => None,
        })
        .collect();
    assert_eq!(
        vars,
        [
            (2, "note".into(), 2, Some("UTF-8".into())),
            (3, "blob".into(), 4, None)
        ]
    );
    // The header's four uint16 slots, in the order the schema lists them.
    let h = &plan.header.slots;
    let slots = [h.block_length, h.template_id, h.schema_id, h.version];
    assert_eq!(
        slots.map(|s| (s.offset, s.ty)),
        [0, 2, 4, 6].map(|o| (o, PrimitiveType::Uint16))
    );
    // Every type, including the dimension and var-data composites the plan's own tables omit.
    let all = sbekit_plan::all_types(
        &sbekit_schema::load_layout(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../sbekit-codegen-tests/schemas/orders-be.xml"),
        )
        .unwrap(),
    );
    fn names<T>(v: &[(String, T)]) -> Vec<String> {
        v.iter().map(|(n, _)| n.clone()).collect()
    }
    // (Var-data composites are not types of the layout: their slots are in `Section::Var`.)
    assert_eq!(
        names(&all.composites),
        [
            "messageHeader",
            "Price",
            "groupSizeEncoding",
            "wideGroupSize"
        ]
    );
    assert!(!plan.composites.contains_key("groupSizeEncoding"));
    assert_eq!(names(&all.enums), ["Side", "Venue"]);
    assert_eq!(names(&all.sets), ["Flags"]);
    let (_, price) = all.composites.iter().find(|(n, _)| n == "Price").unwrap();
    assert_eq!(
        price, &plan.composites["Price"],
        "the same definition as the plan's"
    );
}

#[test]
fn absence_and_section_helpers() {
    let plan = orders();
    let order = &plan.messages.iter().find(|m| m.id == 1).unwrap().body;
    let f = |n: &str| order.fields.iter().find(|f| f.name == n).unwrap();
    // qty: optional scalar; venue: optional enum, since 2; flags: a set, since 1; orderId,
    // weights (an array), kind (a constant): always there.
    assert!(f("qty").is_nullable() && f("qty").may_be_absent());
    assert!(f("venue").is_nullable() && f("venue").may_be_absent());
    assert!(!f("flags").is_nullable() && f("flags").may_be_absent());
    for n in ["orderId", "weights", "kind", "symbol"] {
        assert!(!f(n).is_nullable() && !f(n).may_be_absent(), "{n}");
    }
    let groups: Vec<(usize, &str)> = order.groups().map(|(i, s, _)| (i, s.name())).collect();
    assert_eq!(groups, vec![(0, "fills"), (1, "marks")]);
    let offsets: Vec<usize> = order.sections.iter().map(Section::data_offset).collect();
    // groupSizeEncoding 4, wideGroupSize 6, varString (uint16 length) 2, varBytes (uint32) 4.
    assert_eq!(offsets, vec![4, 6, 2, 4]);
}

/// A composite member is gated by its own `sinceVersion` only when that is newer than every
/// field holding the composite (the member versions of `Price` are set here by hand).
#[test]
fn composite_members_gated_only_when_newer_than_their_holders() {
    let mut plan = orders();
    let h = plan.composite_holder_since("Price");
    let price = plan.composites.get_mut("Price").expect("Price");
    assert!(price.members.len() >= 2);
    price.members[0].since = h + 1;
    price.members[1].since = h;
    let since = |plan: &Plan| -> Vec<u32> {
        plan.gated_members("Price")
            .iter()
            .take(2)
            .map(|m| m.since)
            .collect()
    };
    assert_eq!(since(&plan), [h + 1, 0]);
    // A holder as new as the member: the member is as old as the holder (not gated).
    for m in &mut plan.messages {
        for f in &mut m.body.fields {
            if matches!(&f.kind, Kind::Composite { ty } if ty == "Price") {
                f.since = h + 1;
            }
        }
    }
    assert_eq!(plan.composite_holder_since("Price"), h + 1);
    assert_eq!(since(&plan), [0, 0]);
    assert!(plan.gated_members("Nope").is_empty());
}

/// The bounds owned values check: the min and max in force, without the ones no value of the
/// type can pass (an unsigned minimum of 0), floats' only when the schema gives them, none for
/// chars and constants.
#[test]
fn ranges_owned_values_check() {
    use sbekit_ir::PrimitiveValue as V;
    use sbekit_plan::Range;
    let plan = orders();
    let order = &plan.messages.iter().find(|m| m.id == 1).unwrap().body;
    let f = |n: &str| order.fields.iter().find(|f| f.name == n).unwrap();
    // uint64: 0 ..= 2^64 - 2 (the null value left out): only the maximum can fail.
    let r = f("orderId").range.clone().expect("orderId");
    assert_eq!((r.min, r.max), (None, Some(V::UInt(u64::MAX - 1))));
    // An optional uint32 whose null value is 0: the defaults, 0 ..= 2^32 - 2.
    assert_eq!(
        f("qty").range.as_ref().unwrap().max,
        Some(V::UInt(4_294_967_294))
    );
    // int16 arrays: -32767 ..= 32767, only the minimum can fail.
    let r = f("weights").range.clone().unwrap();
    assert_eq!((r.min, r.max), (Some(V::Int(-32767)), None));
    // A double with the default bounds, a char array, a constant: nothing to check.
    assert!(f("ratio").range.is_none() && f("symbol").range.is_none());
    assert!(f("kind").range.is_none());
    assert_eq!(
        Range::of(PrimitiveType::Double, &V::Float(0.0), &V::Float(1.0)),
        Some(Range {
            min: Some(V::Float(0.0)),
            max: Some(V::Float(1.0))
        })
    );
    assert_eq!(
        Range::of(PrimitiveType::Uint8, &V::UInt(0), &V::UInt(255)),
        None
    );
    assert_eq!(
        Range::of(PrimitiveType::Char, &V::Int(0x20), &V::Int(0x7e)),
        None
    );
}

/// One store of adjacent parts: each part's shift puts its bytes where its own store would.
#[test]
fn one_store_places_each_part_where_its_own_store_would() {
    // A header: four u16s at 0, 2, 4, 6, written as one u64.
    let header = [(0, 2), (2, 2), (4, 2), (6, 2)];
    let values: [u64; 4] = [0x1122, 0x3344, 0x5566, 0x7788];
    for order in [ByteOrder::LittleEndian, ByteOrder::BigEndian] {
        let (ty, shifts) = sbekit_plan::one_store(&header, order).unwrap();
        assert_eq!(ty, PrimitiveType::Uint64);
        let joined = values
            .iter()
            .zip(&shifts)
            .fold(0u64, |acc, (v, k)| acc | v << k);
        let (bytes, expect): ([u8; 8], Vec<u8>) = match order {
            ByteOrder::LittleEndian => (
                joined.to_le_bytes(),
                values
                    .iter()
                    .flat_map(|v| (*v as u16).to_le_bytes())
                    .collect(),
            ),
            ByteOrder::BigEndian => (
                joined.to_be_bytes(),
                values
                    .iter()
                    .flat_map(|v| (*v as u16).to_be_bytes())
                    .collect(),
            ),
        };
        assert_eq!(bytes.to_vec(), expect, "{order:?}");
    }
    // Mixed widths: u8 then u16 then u8 (4 bytes).
    let (ty, shifts) =
        sbekit_plan::one_store(&[(3, 1), (4, 2), (6, 1)], ByteOrder::BigEndian).unwrap();
    assert_eq!((ty, shifts), (PrimitiveType::Uint32, vec![24, 8, 0]));
    // Not one store: a gap, a width that is not 2, 4 or 8, a single part.
    assert!(sbekit_plan::one_store(&[(0, 2), (3, 2)], ByteOrder::LittleEndian).is_none());
    assert!(sbekit_plan::one_store(&[(0, 2), (2, 1)], ByteOrder::LittleEndian).is_none());
    assert!(sbekit_plan::one_store(&[(0, 4)], ByteOrder::LittleEndian).is_none());
}
