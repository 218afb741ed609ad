//! The README's C# example, compiled (`mcs -warnaserror+ -warn:4`) against the project
//! generated for the reference's `example-schema.xml` and run in Mono: it prints the car's
//! JSON and its truncation is refused.

mod common;

use common::*;
use std::path::Path;

#[test]
fn readme_csharp_example_runs() {
    let test = "readme_csharp_example_runs";
    let Some(schema) = sbekit_testdata::require_reference(
        "sbe-samples/src/main/resources/example-schema.xml",
        test,
    ) else {
        return;
    };
    if !toolchain(test) {
        return;
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README");
    let section = readme
        .split("## Generated C# codecs")
        .nth(1)
        .expect("the README has a C# section");
    let snippet = section
        .split("```csharp\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a csharp block");
    let root = tempfile::tempdir().expect("tempdir");
    let mut srcs = Vec::new();
    cs_files(&generate(root.path(), "Baseline", &schema), &mut srcs);
    let main = format!(
        "using System;\nusing Baseline;\n\npublic static class Readme\n{{\n    public static void Main()\n    {{\n        try\n        {{\n{snippet}\n        }}\n        catch (SbeDecodeException e)\n        {{\n            Console.WriteLine(\"refused: \" + e.Message);\n        }}\n    }}\n}}\n"
    );
    let f = root.path().join("Readme.cs");
    std::fs::write(&f, main).expect("Readme.cs");
    srcs.push(f);
    let exe = root.path().join("Readme.exe");
    mcs(&srcs, &exe, "exe");
    let out = String::from_utf8(mono(&exe, &[], &[])).expect("utf8");
    assert!(out.contains("\"serialNumber\":1234"), "{out}");
    assert!(out.contains("\"manufacturer\":\"Honda\""), "{out}");
    assert!(
        out.contains("\"usageDescription\":\"Urban Cycle\""),
        "{out}"
    );
    assert!(out.contains("\"mpg\":35.9"), "{out}");
    assert!(out.contains("refused: at byte"), "{out}");
}
