//! Generates the SBE codecs of both shootout schemas with sbekit's own generator.

use std::path::{Path, PathBuf};

fn load(path: &Path) -> Result<sbekit_ir::Ir, String> {
    sbekit_schema::load_ir(path).map_err(|e| e.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The compiler's version, for the machine description of reports.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_RUSTC={version}");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let schemas = root.join("../../schemas");
    let mut cfg = sbekit_build::Config::new();
    cfg.loader(load);
    cfg.compile_as(&schemas.join("shootout-2019.xml"), "sbe_2019.rs")
        .expect("SBE code generation failed for shootout-2019.xml");
    cfg.compile_as(&schemas.join("market-data.xml"), "sbe_md.rs")
        .expect("SBE code generation failed for market-data.xml");
}
