//! The reference tool's `.sbeir` files decode and re-encode byte for byte.

use sbekit_ir::{sbeir, split_components, Signal};

const FILES: [&str; 4] = [
    "car.sbeir",
    "example-schema.sbeir",
    "example-extension-schema.sbeir",
    "fix-message-samples.sbeir",
];

#[test]
fn reference_sbeir_files_round_trip_byte_for_byte() {
    for name in FILES {
        let Some(path) = sbekit_testdata::require_reference(
            &format!("derived/sbeir/{name}"),
            "reference_sbeir_files_round_trip_byte_for_byte",
        ) else {
            return;
        };
        let bytes = std::fs::read(&path).unwrap();
        let ir = sbeir::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!ir.messages.is_empty(), "{name}: no messages");
        assert_eq!(sbeir::encode(&ir), bytes, "{name}: re-encoding differs");
        for m in &ir.messages {
            assert_eq!(m.last().unwrap().signal, Signal::EndMessage);
            split_components(&m[1..m.len() - 1]).unwrap();
        }
    }
}

#[test]
fn example_schema_ir_has_the_reference_layout() {
    let Some(path) = sbekit_testdata::require_reference(
        "derived/sbeir/example-schema.sbeir",
        "example_schema_ir_has_the_reference_layout",
    ) else {
        return;
    };
    let ir = sbeir::decode(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(ir.package_name, "baseline");
    assert_eq!(ir.semantic_version.as_deref(), Some("5.2"));
    let header = ir.header_structure().unwrap();
    assert_eq!(header.encoded_length, 8);
    assert_eq!(header.template_id.offset, 2);
    let car = ir.message_by_name("Car").unwrap();
    assert_eq!(car[0].encoded_length, 45);
    let parts = split_components(&car[1..car.len() - 1]).unwrap();
    let group_names: Vec<_> = parts
        .groups
        .iter()
        .filter(|t| t.signal == Signal::BeginGroup)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        group_names,
        ["fuelFigures", "performanceFigures", "acceleration"]
    );
}
