//! The repository's hostile-name schemas and all 80 schemas the reference tool accepts (those
//! when `../shared` is there) generate Java modules that compile together, in
//! one `javac -Xlint:all -Werror --release 17` batch (each module in its own package, its
//! conformance program included).

mod common;

use common::*;

#[test]
fn all_reference_accepted_schemas_compile() {
    let test = "all_reference_accepted_schemas_compile";
    let Some(jar) = toolchain(test) else { return };
    let schemas = sbekit_testdata::strict_build_schemas(test);
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let dir = generate(root.path(), &format!("s{i:02}"), s);
        java_files(&dir, &mut srcs);
    }
    let start = std::time::Instant::now();
    javac(&jar, &srcs, &root.path().join("classes"));
    eprintln!(
        "{test}: {} Java files of {} modules compile with -Xlint:all -Werror in {:.1} s",
        srcs.len(),
        schemas.len(),
        start.elapsed().as_secs_f64()
    );
}
