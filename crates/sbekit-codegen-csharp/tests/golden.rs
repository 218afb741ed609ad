//! Golden files: the generated project for our own schemas, checked in so that every change to
//! the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-csharp
//! --test golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(schema: &str, golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let files = sbekit_codegen_csharp::generate_layout(&layout, &Default::default()).expect("plan");
    let mut text = String::new();
    for f in files.iter().filter(|f| {
        !sbekit_codegen_csharp::RUNTIME_FILES
            .iter()
            .any(|r| f.path.ends_with(r))
    }) {
        text.push_str(&format!("==> {} <==\n", f.path.display()));
        text.push_str(&f.text);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    sbekit_testdata::check_golden(&path, &text, schema);
}

#[test]
fn orders_be_matches_golden() {
    check(
        "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        "orders_be.txt",
    );
}

#[test]
fn market_data_matches_golden() {
    check("schemas/market-data.xml", "market_data.txt");
}

#[test]
fn output_is_deterministic_and_complete() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let a = sbekit_codegen_csharp::generate_layout(&layout, &Default::default()).expect("plan");
    let b = sbekit_codegen_csharp::generate_layout(&layout, &Default::default()).expect("plan");
    assert_eq!(a, b);
    let ns = sbekit_codegen_csharp::csharp_namespace(&layout.package);
    let paths: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    for f in sbekit_codegen_csharp::RUNTIME_FILES.iter().chain(&[
        "SbeSchema.cs",
        "SbeDispatcher.cs",
        "SbeConformance.cs",
        "MarketUpdatesDecoder.cs",
        "MarketUpdatesEncoder.cs",
    ]) {
        let p = format!("src/{f}");
        assert!(paths.contains(&p), "{p} missing from {paths:?}");
    }
    for f in [
        format!("{ns}.csproj"),
        "README.md".to_string(),
        "build.sh".to_string(),
        "conformance/SbeConformanceMain.cs".to_string(),
    ] {
        assert!(paths.contains(&f), "{f} missing");
    }
    let proj = &a
        .iter()
        .find(|f| f.path.extension().is_some_and(|e| e == "csproj"))
        .expect("csproj")
        .text;
    assert!(proj.contains("<Project Sdk=\"Microsoft.NET.Sdk\">"));
    assert!(proj.contains("<TargetFramework>netstandard2.0</TargetFramework>"));
    let build = &a
        .iter()
        .find(|f| f.path.ends_with("build.sh"))
        .expect("build.sh")
        .text;
    assert!(build.contains("-warnaserror+ -warn:4"));
    for f in &a {
        if f.path.extension().is_some_and(|e| e == "cs") {
            assert!(
                f.text.contains(&format!("namespace {ns}")),
                "{}",
                f.path.display()
            );
        }
    }
}

#[test]
fn namespace_option_and_names() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let opts = sbekit_codegen_csharp::Options {
        namespace: Some("Example.Md".into()),
    };
    let files = sbekit_codegen_csharp::generate_layout(&layout, &opts).expect("plan");
    assert!(files
        .iter()
        .any(|f| f.path == Path::new("Example.Md.csproj")));
    let bad = sbekit_codegen_csharp::Options {
        namespace: Some("Example.class.X".into()),
    };
    assert!(sbekit_codegen_csharp::generate_layout(&layout, &bad).is_err());
    assert_eq!(
        sbekit_codegen_csharp::csharp_namespace("b3.umdf.mbo.sbe"),
        "B3.Umdf.Mbo.Sbe"
    );
    assert_eq!(
        sbekit_codegen_csharp::csharp_namespace("my-schema.int"),
        "MySchema.Int"
    );
    assert_eq!(sbekit_codegen_csharp::csharp_namespace("9lives"), "N9lives");
    assert_eq!(
        sbekit_codegen_csharp::csharp_namespace("my.system"),
        "My.System_"
    );
    assert!(!sbekit_codegen_csharp::valid_namespace("My.System"));
    assert!(sbekit_codegen_csharp::valid_namespace("My.Systems"));
}
