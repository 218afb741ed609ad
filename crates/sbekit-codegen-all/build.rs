//! Generates Rust for every schema the reference tool accepts (the `exit_code` 0 rows of
//! `derived/reference-verdicts-sbe-all-1.38.1.tsv`), one module each, into OUT_DIR/all.rs.
//! Generation failing for any of them fails the build.

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(has_reference)");
    println!("cargo:rerun-if-env-changed=SBEKIT_SHARED_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let root = sbekit_testdata::reference_sbe_dir();
    let tsv = root.join("derived/reference-verdicts-sbe-all-1.38.1.tsv");
    let Ok(text) = std::fs::read_to_string(&tsv) else {
        if sbekit_testdata::is_ci() {
            panic!("{} missing", tsv.display());
        }
        println!(
            "cargo:warning={} not found; the compile-all check is skipped",
            tsv.display()
        );
        return;
    };
    println!("cargo:rerun-if-changed={}", tsv.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let opts = sbekit_codegen::Options {
        rustfmt: false,
        ..Default::default()
    };
    let mut all = String::new();
    let mut names = Vec::new();
    let mut arms = String::new();
    let mut failures = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(1) != Some(&"0") {
            continue;
        }
        let rel = cols[0];
        let path = root.join(rel);
        println!("cargo:rerun-if-changed={}", path.display());
        let module = format!(
            "s{:02}_{}",
            names.len(),
            sbekit_codegen::names::snake(
                rel.rsplit('/')
                    .next()
                    .unwrap_or(rel)
                    .trim_end_matches(".xml"),
            )
            .trim_start_matches('_')
        );
        let ir = match sbekit_schema::load_ir(&path) {
            Ok(ir) => ir,
            Err(e) => {
                failures.push(format!("{rel}: compile: {e}"));
                continue;
            }
        };
        match sbekit_codegen::generate(&ir, &opts) {
            Ok(code) => {
                let file = out.join(format!("{module}.rs"));
                sbekit_codegen::write_atomic(&file, &code).expect("write");
                let _ = writeln!(all, "/// Generated from `{rel}`.\n#[deny(clippy::indexing_slicing, clippy::panic, clippy::unwrap_used, clippy::arithmetic_side_effects)]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
                let _ = writeln!(
                    arms,
                    "{:?} => {module}::AnyMessage::decode(bytes).map(|m| format!(\"{{m:?}}\")).map_err(|e| e.to_string()),",
                    rel
                );
                names.push(rel.to_string());
            }
            Err(e) => failures.push(format!("{rel}: generate: {e}")),
        }
    }
    if !failures.is_empty() {
        panic!(
            "code generation failed for {} schemas:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    let _ = writeln!(all, "/// The schemas compiled here, in verdict-file order.\npub const SCHEMAS: &[&str] = &{names:?};");
    let _ = writeln!(all, "/// Decodes one message (header included) with the generated `AnyMessage` of the schema\n/// named by its path in [`SCHEMAS`] and returns its `Debug` text; `None` for an unknown schema.\npub fn debug_decode(schema: &str, bytes: &[u8]) -> Option<Result<String, String>> {{\n    Some(match schema {{\n{arms}        _ => return None,\n    }})\n}}");
    sbekit_codegen::write_atomic(&out.join("all.rs"), &all).expect("write");
    println!("cargo:rustc-cfg=has_reference");
}
