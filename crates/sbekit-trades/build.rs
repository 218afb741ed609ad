//! Generates the record and file-header codecs from `schemas/trades.xml` with sbekit's own
//! Rust generator, into `OUT_DIR/trades_codec.rs`.

use std::path::PathBuf;

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let schema = manifest.join("../../schemas/trades.xml");
    println!("cargo:rerun-if-changed=build.rs");
    if let Err(e) = sbekit_build::Config::new().compile_as(&schema, "trades_codec.rs") {
        panic!("SBE code generation for {} failed: {e}", schema.display());
    }
}
