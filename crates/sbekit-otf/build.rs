//! Sets `cfg(has_generated_codecs)` when the reference schemas exist, so that the test comparing
//! generated code with OTF decoding compiles only when `sbekit-codegen-tests` generated them.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(has_generated_codecs)");
    println!("cargo:rerun-if-env-changed=SBEKIT_SHARED_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let root = sbekit_testdata::reference_sbe_dir();
    let needed = [
        "derived/sbeir/example-schema.sbeir",
        "derived/sbeir/example-extension-schema.sbeir",
        "derived/sbeir/car.sbeir",
        "derived/sbeir/fix-message-samples.sbeir",
        "sbe-tool/src/test/resources/example-bigendian-test-schema.xml",
    ];
    if needed.iter().all(|p| root.join(p).exists()) {
        println!("cargo:rustc-cfg=has_generated_codecs");
    }
}
