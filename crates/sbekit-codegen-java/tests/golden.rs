//! Golden files: the generated module for our own schemas, checked in so that every change to
//! the generator shows up as a diff. `UPDATE_GOLDEN=1 cargo test -p sbekit-codegen-java --test
//! golden` rewrites them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files every module carries unchanged (but for the package line).
const RUNTIME: [&str; 4] = [
    "SbeDecodeException.java",
    "SbeEncodeException.java",
    "SbeMessageDecoder.java",
    "SbeJson.java",
];

fn check(schema: &str, golden: &str) {
    let layout = sbekit_schema::load_layout(&root().join(schema)).expect("schema compiles");
    let files = sbekit_codegen_java::generate_layout(&layout, &Default::default()).expect("plan");
    let mut text = String::new();
    for f in files
        .iter()
        .filter(|f| !RUNTIME.iter().any(|r| f.path.ends_with(r)))
    {
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
    let a = sbekit_codegen_java::generate_layout(&layout, &Default::default()).expect("plan");
    let b = sbekit_codegen_java::generate_layout(&layout, &Default::default()).expect("plan");
    assert_eq!(a, b);
    let pkg = sbekit_codegen_java::java_package(&layout.package);
    let dir = pkg.replace('.', "/");
    let paths: Vec<String> = a.iter().map(|f| f.path.display().to_string()).collect();
    for f in RUNTIME.iter().chain(&[
        "SbeSchema.java",
        "SbeDispatcher.java",
        "MarketUpdatesDecoder.java",
        "MarketUpdatesEncoder.java",
    ]) {
        let p = format!("src/main/java/{dir}/{f}");
        assert!(paths.contains(&p), "{p} missing from {paths:?}");
    }
    for f in [
        "pom.xml".to_string(),
        "README.md".to_string(),
        format!("src/test/java/{dir}/SbeConformance.java"),
    ] {
        assert!(paths.contains(&f), "{f} missing");
    }
    let pom = &a
        .iter()
        .find(|f| f.path.ends_with("pom.xml"))
        .expect("pom")
        .text;
    assert!(pom.contains(&format!(
        "<agrona.version>{}</agrona.version>",
        sbekit_codegen_java::AGRONA_VERSION
    )));
    assert!(pom.contains("<release>17</release>"));
    for f in &a {
        if f.path.extension().is_some_and(|e| e == "java") {
            assert!(
                f.text.contains(&format!("package {pkg};")),
                "{}",
                f.path.display()
            );
        }
    }
}

#[test]
fn java_package_option_and_names() {
    let layout =
        sbekit_schema::load_layout(&root().join("schemas/market-data.xml")).expect("schema");
    let opts = sbekit_codegen_java::Options {
        package: Some("com.example.md".into()),
    };
    let files = sbekit_codegen_java::generate_layout(&layout, &opts).expect("plan");
    assert!(files
        .iter()
        .any(|f| f.path == Path::new("src/main/java/com/example/md/SbeDispatcher.java")));
    let bad = sbekit_codegen_java::Options {
        package: Some("com.class.x".into()),
    };
    assert!(sbekit_codegen_java::generate_layout(&layout, &bad).is_err());
    assert_eq!(
        sbekit_codegen_java::java_package("b3.umdf.mbo.sbe"),
        "b3.umdf.mbo.sbe"
    );
    assert_eq!(
        sbekit_codegen_java::java_package("my-schema.int"),
        "my_schema.int_"
    );
    assert_eq!(sbekit_codegen_java::java_package("9lives"), "sbe9lives");
}

#[test]
fn agrona_is_pinned_alike_everywhere() {
    let v = sbekit_codegen_java::AGRONA_VERSION;
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(
        ci.contains(&format!("AGRONA_VERSION={v}\n")),
        ".ci/run fetches another Agrona than {v}"
    );
    let pom = std::fs::read_to_string(root().join("examples/maven/pom.xml")).expect("example pom");
    assert!(
        pom.contains(&format!(
            "<artifactId>agrona</artifactId>\n      <version>{v}</version>"
        )),
        "examples/maven/pom.xml depends on another Agrona than {v}"
    );
}
