//! Generates codecs into OUT_DIR: always from this crate's own schemas (`schemas/`), and from
//! the reference schemas when the shared material is present (four from the reference `.sbeir`
//! files, the big-endian Car and a custom header from XML). Without the shared material
//! `cfg(has_reference)` stays off (those tests then skip loudly, or fail under CI=true).

use std::path::Path;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(has_reference)");
    println!("cargo:rerun-if-env-changed=SBEKIT_SHARED_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let mut cfg = sbekit_build::Config::new();
    // Schemas of this crate: evolution across versions, Rust keywords in every position, and a
    // big-endian schema with nested groups, var data and versions.
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let own_schemas = [
        ("versioned-v0.xml", "versioned_v0.rs"),
        ("versioned-v1.xml", "versioned_v1.rs"),
        ("keywords.xml", "keywords.rs"),
        ("orders-be.xml", "orders_be.rs"),
        ("hostile-names.xml", "hostile_names.rs"),
    ];
    for (f, out) in own_schemas {
        cfg.compile_as(&own.join(f), out)
            .unwrap_or_else(|e| panic!("SBE code generation failed: {e}"));
    }
    cfg.keywords(sbekit_build::KeywordStyle::Suffix);
    cfg.compile_as(&own.join("keywords.xml"), "keywords_suffix.rs")
        .unwrap_or_else(|e| panic!("SBE code generation failed: {e}"));
    cfg.keywords(sbekit_build::KeywordStyle::Raw);

    let root = sbekit_testdata::reference_sbe_dir();
    let schemas = [
        ("derived/sbeir/example-schema.sbeir", "baseline.rs"),
        (
            "derived/sbeir/example-extension-schema.sbeir",
            "extension.rs",
        ),
        ("derived/sbeir/car.sbeir", "car_bench.rs"),
        ("derived/sbeir/fix-message-samples.sbeir", "fix_samples.rs"),
        (
            "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
            "bigendian.rs",
        ),
        (
            "sbe-tool/src/test/resources/custom-header-type.xml",
            "custom_header.rs",
        ),
    ];
    let paths: Vec<_> = schemas.iter().map(|(p, _)| root.join(p)).collect();
    if !paths.iter().all(|p| p.exists()) {
        if sbekit_testdata::is_ci() {
            panic!("reference schemas missing under {}", root.display());
        }
        println!(
            "cargo:warning=reference schemas not found under {}; the tests that use them will skip",
            root.display()
        );
        return;
    }
    for (path, (_, file)) in paths.iter().zip(schemas) {
        cfg.compile_as(path, file)
            .unwrap_or_else(|e| panic!("SBE code generation failed: {e}"));
    }
    println!("cargo:rustc-cfg=has_reference");
}
