//! Conformance with the reference SBE tool (sbe-all 1.38.1), read from `../shared`.

use sbekit_ir::{sbeir, Ir, Token};
use sbekit_schema::{compile_file, Options};
use std::path::Path;

/// Compiles `rel` (under the conformance directory) and returns the IR or panics with diagnostics.
fn compile_ok(path: &Path) -> Ir {
    let compiled = compile_file(path, &Options::default());
    let Some(ir) = compiled.ir else {
        let all: Vec<String> = compiled
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect();
        panic!("{} rejected:\n{}", path.display(), all.join("\n"));
    };
    ir
}

fn describe(t: &Token) -> String {
    format!("{t:?}")
}

/// Compares two token lists and reports the first difference readably.
fn assert_same_tokens(what: &str, ours: &[Token], theirs: &[Token]) {
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            a == b,
            "{what}: token {i} differs\n ours:   {}\n theirs: {}",
            describe(a),
            describe(b)
        );
    }
    assert_eq!(ours.len(), theirs.len(), "{what}: token counts differ");
}

#[test]
fn compiled_ir_equals_reference_sbeir() {
    let pairs = [
        ("sbe-benchmarks/src/main/resources/car.xml", "car.sbeir"),
        (
            "sbe-samples/src/main/resources/example-schema.xml",
            "example-schema.sbeir",
        ),
        (
            "sbe-samples/src/main/resources/example-extension-schema.xml",
            "example-extension-schema.sbeir",
        ),
        (
            "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
            "fix-message-samples.sbeir",
        ),
    ];
    for (xml, ir_file) in pairs {
        let test = "compiled_ir_equals_reference_sbeir";
        let Some(xml_path) = sbekit_testdata::require_reference(xml, test) else {
            return;
        };
        let Some(ir_path) =
            sbekit_testdata::require_reference(&format!("derived/sbeir/{ir_file}"), test)
        else {
            return;
        };
        let ours = compile_ok(&xml_path);
        let theirs = sbeir::decode(&std::fs::read(ir_path).unwrap()).unwrap();
        assert_same_tokens(&format!("{xml} header"), &ours.header, &theirs.header);
        assert_eq!(
            ours.messages.len(),
            theirs.messages.len(),
            "{xml}: message count"
        );
        for (a, b) in ours.messages.iter().zip(&theirs.messages) {
            assert_same_tokens(&format!("{xml} message {}", b[0].name), a, b);
        }
        assert_eq!(
            (
                &ours.package_name,
                ours.id,
                ours.version,
                &ours.semantic_version
            ),
            (
                &theirs.package_name,
                theirs.id,
                theirs.version,
                &theirs.semantic_version
            ),
            "{xml}: schema attributes"
        );
        // And the whole file, byte for byte.
        assert_eq!(
            sbeir::encode(&ours),
            sbeir::encode(&theirs),
            "{xml}: .sbeir bytes differ"
        );
    }
}

/// The rule we must cite for each schema the reference rejects, with a phrase of the
/// reference's first diagnostic that shows it is the same complaint.
const NEGATIVE: &[(&str, &str, &str)] = &[
    ("cyclic-refs-schema.xml", "circular-ref", "circular"),
    (
        "error-handler-dup-message-schema.xml",
        "duplicate-message-id",
        "template id already exists",
    ),
    (
        "error-handler-enum-violates-min-max-value-range.xml",
        "enum-value-range",
        "outside of range",
    ),
    (
        "error-handler-group-dimensions-schema.xml",
        "group-dimensions",
        "dimensionType should be a composite",
    ),
    (
        "error-handler-invalid-composite-offsets-schema.xml",
        "composite-offset",
        "incorrect offset",
    ),
    (
        "error-handler-invalid-composite.xml",
        "invalid-composite",
        "group not valid within composite",
    ),
    (
        "error-handler-message-schema.xml",
        "semantic-type",
        "Mismatched semanticType",
    ),
    (
        "error-handler-since-version.xml",
        "since-version",
        "sinceVersion=1 > messageSchema.version=0",
    ),
    (
        "error-handler-types-dup-schema.xml",
        "duplicate-type",
        "type already exists",
    ),
    (
        "error-handler-types-schema.xml",
        "constant-without-value",
        "no data",
    ),
    ("issue567-invalid.xml", "group-dimensions", "numInGroup"),
    ("common-types.xml", "no-messages", "no messages found"),
    ("common.xml", "no-messages", "no messages found"),
];

#[test]
fn verdicts_match_the_reference_for_all_93_schemas() {
    let test = "verdicts_match_the_reference_for_all_93_schemas";
    let Some(table) =
        sbekit_testdata::require_reference("derived/reference-verdicts-sbe-all-1.38.1.tsv", test)
    else {
        return;
    };
    let table = std::fs::read_to_string(table).unwrap();
    let root = sbekit_testdata::reference_sbe_dir();
    let (mut accepted, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (schema, exit_code, first) = (cols[0], cols[1], cols.get(4).copied().unwrap_or(""));
        let compiled = compile_file(&root.join(schema), &Options::default());
        if exit_code == "0" {
            accepted += 1;
            if compiled.ir.is_none() {
                let errs: Vec<String> = compiled.errors().map(ToString::to_string).collect();
                failures.push(format!(
                    "{schema}: reference accepts, we reject:\n  {}",
                    errs.join("\n  ")
                ));
            }
            continue;
        }
        rejected += 1;
        let file = Path::new(schema).file_name().unwrap().to_str().unwrap();
        let (_, rule, phrase) = NEGATIVE
            .iter()
            .find(|(f, _, _)| *f == file)
            .unwrap_or_else(|| panic!("{schema}: rejected by the reference but not in NEGATIVE"));
        assert!(
            first.contains(phrase),
            "{schema}: reference diagnostic '{first}' lacks '{phrase}'"
        );
        if compiled.ir.is_some() {
            failures.push(format!("{schema}: reference rejects ({first}), we accept"));
        } else if !compiled.errors().any(|d| d.rule == *rule) {
            let errs: Vec<String> = compiled.errors().map(ToString::to_string).collect();
            failures.push(format!(
                "{schema}: expected rule {rule}, got:\n  {}",
                errs.join("\n  ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((accepted, rejected), (80, 13), "the verdict table changed");
}
