//! Every schema the reference accepts was generated and compiled (with warnings denied).
#![cfg(has_reference)]

#[test]
fn all_80_accepted_schemas_compile() {
    assert_eq!(
        sbekit_codegen_all::SCHEMAS.len(),
        80,
        "{:?}",
        sbekit_codegen_all::SCHEMAS
    );
    for s in [
        "sbe-tool/src/test/resources/custom-header-type.xml",
        "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
        "sbe-tool/src/test/resources/FixBinary.xml",
    ] {
        assert!(sbekit_codegen_all::SCHEMAS.contains(&s), "{s} missing");
    }
}
