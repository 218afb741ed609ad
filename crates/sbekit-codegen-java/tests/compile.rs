//! All 80 schemas the reference tool accepts generate Java modules that compile together, in
//! one `javac -Xlint:all -Werror --release 17` batch (each module in its own package, its
//! conformance program included).

mod common;

use common::*;
use std::path::PathBuf;

#[test]
fn all_reference_accepted_schemas_compile() {
    let test = "all_reference_accepted_schemas_compile";
    let Some(tsv) =
        sbekit_testdata::require_reference("derived/reference-verdicts-sbe-all-1.38.1.tsv", test)
    else {
        return;
    };
    let Some(jar) = toolchain(test) else { return };
    let text = std::fs::read_to_string(tsv).expect("tsv");
    let schemas: Vec<PathBuf> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c.len() >= 2 && c[1] == "0").then(|| sbekit_testdata::reference_sbe_dir().join(c[0]))
        })
        .collect();
    assert_eq!(schemas.len(), 80, "accepted schemas in the verdicts file");
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let dir = generate(root.path(), &format!("s{i:02}"), s);
        java_files(&dir, &mut srcs);
    }
    let start = std::time::Instant::now();
    javac(&jar, &srcs, &root.path().join("classes"));
    eprintln!(
        "{test}: {} Java files of 80 modules compile with -Xlint:all -Werror in {:.1} s",
        srcs.len(),
        start.elapsed().as_secs_f64()
    );
}
