//! The README's Java example, compiled (`-Xlint:all -Werror`) against the module generated for
//! the reference's `example-schema.xml` and run: it prints the car's JSON and its truncation is
//! refused.

mod common;

use common::*;
use std::path::Path;

#[test]
fn readme_java_example_runs() {
    let test = "readme_java_example_runs";
    let Some(schema) = sbekit_testdata::require_reference(
        "sbe-samples/src/main/resources/example-schema.xml",
        test,
    ) else {
        return;
    };
    let Some(jar) = toolchain(test) else { return };
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README");
    let section = readme
        .split("## Generated Java codecs")
        .nth(1)
        .expect("the README has a Java section");
    let snippet = section
        .split("```java\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a java block");
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    java_files(&generate(root.path(), "baseline", &schema), &mut srcs);
    let main = format!(
        "import baseline.*;\nimport org.agrona.ExpandableArrayBuffer;\n\npublic final class Readme {{\n    public static void main(final String[] args) {{\n        try {{\n{snippet}\n        }} catch (final SbeDecodeException e) {{\n            System.out.println(\"refused: \" + e.getMessage());\n        }}\n    }}\n}}\n"
    );
    let f = root.path().join("Readme.java");
    std::fs::write(&f, main).expect("Readme.java");
    srcs.push(f);
    let classes = root.path().join("classes");
    javac(&jar, &srcs, &classes);
    let out = String::from_utf8(java(&jar, &classes, "Readme", &[], &[])).expect("utf8");
    assert!(out.contains("\"serialNumber\":1234"), "{out}");
    assert!(out.contains("\"manufacturer\":\"Honda\""), "{out}");
    assert!(
        out.contains("\"usageDescription\":\"Urban Cycle\""),
        "{out}"
    );
    assert!(out.contains("refused: at byte"), "{out}");
}
