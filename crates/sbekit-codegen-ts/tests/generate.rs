//! The generator without Node: the package's files, determinism, and the shape of the API for
//! our own schemas (the Node tests in `typescript.rs` check that it compiles and runs).

use sbekit_codegen_ts::{default_package_name, generate, Options};
use std::path::Path;

fn layout(rel: &str) -> sbekit_ir::layout::Layout {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    sbekit_schema::load_layout(&p).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn file<'a>(files: &'a [sbekit_codegen_ts::GeneratedFile], path: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("no {path}"))
        .text
}

#[test]
fn package_files_are_complete_and_deterministic() {
    let l = layout("../../schemas/market-data.xml");
    let a = generate(&l, &Options::default()).expect("generate");
    let b = generate(&l, &Options::default()).expect("generate");
    assert_eq!(a, b, "generation is deterministic");
    let paths: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    for p in [
        "package.json",
        "tsconfig.json",
        "src/runtime.ts",
        "src/types.ts",
        "src/messages.ts",
        "src/json.ts",
        "src/index.ts",
    ] {
        assert!(paths.contains(&p.to_string()), "{p} in {paths:?}");
    }
    let pkg: serde_json::Value = serde_json::from_str(file(&a, "package.json")).expect("json");
    assert_eq!(pkg["name"], default_package_name(&l));
    assert_eq!(pkg["type"], "module");
    assert!(pkg.get("dependencies").is_none(), "no runtime dependencies");
    let named = generate(
        &l,
        &Options {
            package_name: Some("@acme/md".into()),
        },
    )
    .expect("generate");
    assert!(file(&named, "package.json").contains("\"@acme/md\""));
}

#[test]
fn api_follows_the_schema() {
    let l = layout("tests/schemas/kinds.xml");
    let files = generate(&l, &Options::default()).expect("generate");
    let types = file(&files, "src/types.ts");
    let msgs = file(&files, "src/messages.ts");
    // Enums: a const object and a union type; signed values kept signed.
    assert!(types.contains("export const Colour = {"), "{types}");
    assert!(types.contains("\"Red\": -1,"));
    assert!(types.contains("export type Colour = (typeof Colour)[keyof typeof Colour];"));
    // A 64-bit set holds a bigint, with a getter per choice.
    assert!(types.contains("readonly raw: bigint;"));
    assert!(
        types.contains("get high(): boolean { return (this.raw & 0x8000000000000000n) !== 0n; }")
    );
    // Optional and versioned fields are nullable; uint64 is a bigint.
    assert!(msgs.contains("u(): bigint | null {"), "{msgs}");
    assert!(msgs.contains("v2(): number | null {"));
    assert!(msgs.contains("if (this.$av < 2) return null;"));
    // Groups newer than the acting version are skipped when checking and read as empty.
    assert!(msgs.contains("if (av >= 1) p = VersionsLaterGroup.$skip(v, b, p, av, lim);"));
    // Dispatch by template id.
    assert!(msgs.contains("case 2: return { name: \"Kinds\", templateId: 2"));
}

#[test]
fn hostile_group_counts_are_checked_in_constant_time() {
    // A group of fixed-size entries is checked with one multiplication, not a loop.
    let l = layout("tests/schemas/hostile.xml");
    let msgs = file(
        &generate(&l, &Options::default()).expect("generate"),
        "src/messages.ts",
    )
    .to_string();
    let skip = msgs
        .split("static $skip")
        .nth(1)
        .expect("a group check")
        .split("$reset")
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(skip.contains("if (bl * n > lim - p) {"), "{skip}");
    assert!(!skip.contains("for (let i = 0; i < n; i++)"), "{skip}");
}

/// Issue 19: the npm package is named as the Rust crate is: no second `sbe` suffix.
#[test]
fn package_name_does_not_double_the_sbe_suffix() {
    let mut l = layout("../../schemas/market-data.xml");
    for (package, want) in [
        ("spot_sbe", "spot-sbe"),
        ("b3.umdf.mbo.sbe", "b3-umdf-mbo-sbe"),
        ("baseline", "baseline-sbe"),
    ] {
        l.package = package.into();
        assert_eq!(default_package_name(&l), want, "{package}");
    }
}
