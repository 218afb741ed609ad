//! The Rust conformance program: the generated crate's own example for one schema, one crate
//! holding every generated module for several.

use crate::program::{check, tool_works, Program};
use crate::{Error, Schema, Tamper};
use std::path::Path;
use std::process::Command;

/// `cargo`: `$CARGO` (set when running under cargo), else `cargo` on the PATH.
fn cargo() -> Option<String> {
    if let Ok(c) = std::env::var("CARGO") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    tool_works("cargo", "--version").then(|| "cargo".to_string())
}

/// Builds the Rust conformance program: for one schema the generated crate's own example (as a
/// user would run it), for several one crate holding every generated module and the same
/// program over all of them. Offline, with its own target directory in the scratch directory.
pub(crate) fn build_rust(dir: &Path, schemas: &[Schema], tamper: Tamper) -> Result<Program, Error> {
    let cargo = cargo().ok_or_else(|| {
        Error::MissingToolchain(
            "cargo".into(),
            "install a Rust toolchain (rustup) or set CARGO".into(),
        )
    })?;
    let target = dir.join("target");
    let (manifest, args, exe) = if schemas.len() == 1 {
        let s = &schemas[0];
        let krate = dir.join("s00");
        sbekit_codegen::write_crate(
            &s.ir,
            &krate,
            "sbe-conformance-s00",
            &sbekit_codegen::RuntimeDep::Bundled,
            &sbekit_codegen::Options::default(),
        )
        .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        (
            krate.join("Cargo.toml"),
            vec!["--example", "sbe_conformance"],
            target.join("debug/examples/sbe_conformance"),
        )
    } else {
        let src = dir.join("src");
        std::fs::create_dir_all(&src)?;
        let mut mods = Vec::new();
        let mut main = String::new();
        for (i, s) in schemas.iter().enumerate() {
            let m = format!("s{i:02}");
            let text = sbekit_codegen::generate_layout(&s.layout, &Default::default())
                .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
            std::fs::write(src.join(format!("{m}.rs")), text)?;
            main.push_str(&format!("#[allow(dead_code)]\nmod {m};\n"));
            mods.push(m);
        }
        let paths: Vec<&str> = mods.iter().map(String::as_str).collect();
        let program = sbekit_codegen::conformance_program(&paths, true);
        std::fs::write(src.join("main.rs"), format!("{program}\n{main}"))?;
        let rt = dir.join("sbekit-runtime");
        std::fs::create_dir_all(rt.join("src"))?;
        std::fs::write(
            rt.join("Cargo.toml"),
            sbekit_codegen::runtime_manifest("0.0.0"),
        )?;
        for (p, text) in sbekit_runtime::SOURCE_FILES {
            let f = rt.join(p);
            if let Some(d) = f.parent() {
                std::fs::create_dir_all(d)?;
            }
            std::fs::write(f, text)?;
        }
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"sbe-conformance\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nsbekit-runtime = { path = \"sbekit-runtime\" }\n\n[[bin]]\nname = \"sbe_conformance\"\npath = \"src/main.rs\"\n",
        )?;
        (
            dir.join("Cargo.toml"),
            vec!["--bin", "sbe_conformance"],
            target.join("debug/sbe_conformance"),
        )
    };
    crate::tamper_with(dir, tamper);
    // Built alone, wherever the scratch directory is (not as part of an enclosing workspace).
    let mut toml = std::fs::read_to_string(&manifest)?;
    if !toml.contains("[workspace]") {
        toml.push_str("\n[workspace]\n");
        std::fs::write(&manifest, toml)?;
    }
    let out = Command::new(&cargo)
        .arg("build")
        .arg("--quiet")
        .arg("--offline")
        .arg("--manifest-path")
        .arg(&manifest)
        .args(&args)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        // Its own jobserver: under `cargo test` the enclosing cargo's (`CARGO_MAKEFLAGS`) names
        // descriptors this independent build has no business sharing.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .output()?;
    check(out, "cargo build (the Rust conformance program)")?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: schemas.len() > 1,
        extra: Vec::new(),
        owned: false,
    })
}
