//! The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
//! when `../shared` is there) generate C# projects that compile together, in one
//! `mcs -warnaserror+ -warn:4` run (each project in its own namespace, its conformance program
//! included), and with their default namespaces; a generated project's own `build.sh` builds.

mod common;

use common::*;

#[test]
fn all_reference_accepted_schemas_compile() {
    let test = "all_reference_accepted_schemas_compile";
    if !toolchain(test) {
        return;
    }
    let schemas = sbekit_testdata::strict_build_schemas(test);
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

/// With their default namespaces (from the schema packages; several schemas share one), the 80
/// compile too: in as few `mcs` runs as the most shared namespace needs.
#[test]
fn default_namespaces_compile() {
    let test = "default_namespaces_compile";
    let Some(schemas) = sbekit_testdata::reference_accepted_schemas(test) else {
        return;
    };
    if !toolchain(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    // Each round holds each namespace at most once.
    let mut rounds: Vec<(std::collections::BTreeSet<String>, Vec<std::path::PathBuf>)> = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let layout = sbekit_schema::load_layout(s).expect("schema");
        let ns = sbekit_codegen_csharp::csharp_namespace(&layout.package);
        let dir = root.path().join(format!("p{i:02}"));
        sbekit_codegen_csharp::write_package(&layout, &dir, &Default::default()).expect("write");
        let k = match rounds.iter().position(|r| !r.0.contains(&ns)) {
            Some(k) => k,
            None => {
                rounds.push(Default::default());
                rounds.len() - 1
            }
        };
        rounds[k].0.insert(ns);
        cs_files(&dir, &mut rounds[k].1);
    }
    for (k, (_, srcs)) in rounds.iter().enumerate() {
        mcs(srcs, &root.path().join(format!("round{k}.dll")), "library");
    }
    eprintln!("{test}: 80 projects in {} mcs runs", rounds.len());
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
