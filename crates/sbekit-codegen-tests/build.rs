//! Generates codecs for the reference schemas into OUT_DIR (four from the reference `.sbeir`
//! files, the big-endian Car from its XML). When the shared material is missing, nothing is
//! generated and `cfg(has_reference)` stays off (tests then skip loudly, or fail under CI=true).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(has_reference)");
    println!("cargo:rerun-if-env-changed=SBEKIT_SHARED_DIR");
    println!("cargo:rerun-if-changed=build.rs");
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
    ];
    let paths: Vec<_> = schemas.iter().map(|(p, _)| root.join(p)).collect();
    if !paths.iter().all(|p| p.exists()) {
        if sbekit_testdata::is_ci() {
            panic!("reference schemas missing under {}", root.display());
        }
        println!(
            "cargo:warning=reference schemas not found under {}; generated-code tests will skip",
            root.display()
        );
        return;
    }
    // Schemas of this crate: evolution across versions, and Rust keywords in every position.
    let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let own_schemas = [
        ("versioned-v0.xml", "versioned_v0.rs"),
        ("versioned-v1.xml", "versioned_v1.rs"),
        ("keywords.xml", "keywords.rs"),
    ];
    let mut cfg = sbekit_build::Config::new();
    cfg.loader(|p| sbekit_schema::load_ir(p).map_err(|e| e.to_string()));
    for (path, (_, file)) in paths.iter().zip(schemas) {
        cfg.compile_as(path, file)
            .expect("SBE code generation failed");
    }
    for (f, out) in own_schemas {
        cfg.compile_as(&own.join(f), out)
            .expect("SBE code generation failed");
    }
    cfg.keywords(sbekit_build::KeywordStyle::Suffix);
    cfg.compile_as(&own.join("keywords.xml"), "keywords_suffix.rs")
        .expect("SBE code generation failed");
    cfg.keywords(sbekit_build::KeywordStyle::Raw);
    let custom = root.join("sbe-tool/src/test/resources/custom-header-type.xml");
    cfg.compile_as(&custom, "custom_header.rs")
        .expect("SBE code generation failed");
    println!("cargo:rustc-cfg=has_reference");
}
