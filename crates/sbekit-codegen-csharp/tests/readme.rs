//! The README's C# example and the C# guide's owned-values example, compiled (`mcs
//! -warnaserror+ -warn:4`) against the project generated for the reference's
//! `example-schema.xml` and run in Mono: the first prints the car's JSON and its truncation is
//! refused; the second round-trips a `CarDto` and its setter refuses an unlisted enum value.

mod common;

use common::*;
use std::path::Path;

/// The first `csharp` block after `heading` in `doc` (a path from the workspace root), run as the
/// body of `Main` against the car project, `catching` exceptions printed as `refused: ...`; its
/// output, or `None` (skipped) without the reference schema or Mono.
fn run_snippet(test: &str, doc: &str, heading: &str, catching: &str) -> Option<String> {
    let schema = sbekit_testdata::require_reference(
        "sbe-samples/src/main/resources/example-schema.xml",
        test,
    )?;
    if !toolchain(test) {
        return None;
    }
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(doc),
    )
    .expect("doc");
    let section = text
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("{doc} has a `{heading}` section"));
    let snippet = section
        .split("```csharp\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a csharp block");
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    cs_files(&generate(root.path(), "Baseline", &schema), &mut srcs);
    let main = format!(
        "using System;\nusing Baseline;\n\npublic static class Readme\n{{\n    public static void Main()\n    {{\n        try\n        {{\n{snippet}\n        }}\n        catch ({catching} e)\n        {{\n            Console.WriteLine(\"refused: \" + e.Message);\n        }}\n    }}\n}}\n"
    );
    let f = root.path().join("Readme.cs");
    std::fs::write(&f, main).expect("Readme.cs");
    srcs.push(f);
    let exe = root.path().join("Readme.exe");
    mcs(&srcs, &exe, "exe");
    Some(String::from_utf8(mono(&exe, &[], &[])).expect("utf8"))
}

#[test]
fn guide_csharp_owned_example_runs() {
    let Some(out) = run_snippet(
        "guide_csharp_owned_example_runs",
        "docs/guide/csharp.md",
        "## Owned values (DTOs)",
        "ArgumentException",
    ) else {
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"True"), "{out}");
    assert!(out.contains("\"serialNumber\":1234"), "{out}");
    assert!(
        out.contains("\"usageDescription\":\"Urban Cycle\""),
        "{out}"
    );
    assert!(
        out.contains("refused: Car.code: 90 is not a value of the enum"),
        "{out}"
    );
}

#[test]
fn readme_csharp_example_runs() {
    let Some(out) = run_snippet(
        "readme_csharp_example_runs",
        "README.md",
        "## Generated C# codecs",
        "SbeDecodeException",
    ) else {
        return;
    };
    assert!(out.contains("\"serialNumber\":1234"), "{out}");
    assert!(out.contains("\"manufacturer\":\"Honda\""), "{out}");
    assert!(
        out.contains("\"usageDescription\":\"Urban Cycle\""),
        "{out}"
    );
    assert!(out.contains("\"mpg\":35.9"), "{out}");
    assert!(out.contains("refused: at byte"), "{out}");
}
