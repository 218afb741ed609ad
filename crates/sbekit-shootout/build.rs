//! Generates the SBE codecs of both shootout schemas with sbekit's own generator.

use std::path::{Path, PathBuf};

fn load(path: &Path) -> Result<sbekit_ir::Ir, String> {
    sbekit_schema::load_ir(path).map_err(|e| e.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let schemas = root.join("../../schemas");
    let mut cfg = sbekit_build::Config::new();
    cfg.loader(load);
    cfg.compile_as(&schemas.join("shootout-2019.xml"), "sbe_2019.rs")
        .expect("SBE code generation failed for shootout-2019.xml");
    cfg.compile_as(&schemas.join("market-data.xml"), "sbe_md.rs")
        .expect("SBE code generation failed for market-data.xml");
}
