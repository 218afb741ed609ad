//! All 80 schemas the reference tool accepts generate C# projects that compile together, in one
//! `mcs -warnaserror+ -warn:4` run (each project in its own namespace, its conformance program
//! included), and a generated project's own `build.sh` builds.

mod common;

use common::*;

#[test]
fn all_reference_accepted_schemas_compile() {
    let test = "all_reference_accepted_schemas_compile";
    let Some(schemas) = sbekit_testdata::reference_accepted_schemas(test) else {
        return;
    };
    if !toolchain(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let dir = generate(root.path(), &format!("S{i:02}"), s);
        cs_files(&dir, &mut srcs);
    }
    let start = std::time::Instant::now();
    mcs(&srcs, &root.path().join("all.dll"), "library");
    eprintln!(
        "{test}: {} C# files of {} projects compile with mcs -warnaserror+ -warn:4 in {:.1} s",
        srcs.len(),
        schemas.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn build_script_builds_our_schema() {
    let test = "build_script_builds_our_schema";
    if !toolchain(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let schema =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let layout = sbekit_schema::load_layout(&schema).expect("schema");
    let dir = root.path().join("md");
    sbekit_codegen_csharp::write_package(&layout, &dir, &Default::default()).expect("write");
    let out = std::process::Command::new("sh")
        .arg(dir.join("build.sh"))
        .output()
        .expect("sh build.sh");
    assert!(
        out.status.success(),
        "build.sh failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("bin/SbeConformance.exe").is_file());
}
