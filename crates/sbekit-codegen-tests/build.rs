//! Generates codecs for the reference `.sbeir` files into OUT_DIR. When the shared material is
//! missing, nothing is generated and `cfg(has_reference)` stays off (tests then skip loudly,
//! or fail under CI=true).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(has_reference)");
    println!("cargo:rerun-if-env-changed=SBEKIT_SHARED_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let dir = sbekit_testdata::reference_sbe_dir().join("derived/sbeir");
    let schemas = [
        ("example-schema", "baseline.rs"),
        ("example-extension-schema", "extension.rs"),
        ("car", "car_bench.rs"),
        ("fix-message-samples", "fix_samples.rs"),
    ];
    let paths: Vec<_> = schemas
        .iter()
        .map(|(n, _)| dir.join(format!("{n}.sbeir")))
        .collect();
    if !paths.iter().all(|p| p.exists()) {
        println!(
            "cargo:warning=reference .sbeir files not found under {}; generated-code tests will skip",
            dir.display()
        );
        return;
    }
    let cfg = sbekit_build::Config::new();
    for (path, (_, file)) in paths.iter().zip(schemas) {
        cfg.compile_as(path, file)
            .expect("SBE code generation failed");
    }
    println!("cargo:rustc-cfg=has_reference");
}
