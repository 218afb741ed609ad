//! Owned values in Go (`owned.go`), by `go test` in a generated module:
//!
//! - `tests/go/owned_versioned_test.go` in the package of the crate's own versioned schema
//!   (`versioned-v1.xml`, read also by `versioned-v0.xml`'s package): random `EvolvingOwned`
//!   values at either version (`testing/quick`) decode back to equal values, through
//!   `DecodeOwned` too, and are the bytes the flyweights' `Reencode` writes; an older writer's
//!   message keeps its version; a newer group is left out at an older version;
//! - `tests/go/owned_random_test.go` in the packages of `orders-be.xml`, `market-data.xml` and
//!   `versioned-v1.xml`: random values of every owned message type (`testing/quick.Value`, by
//!   reflection) read back equal (an optional field given its null value reads back nil, rarely)
//!   and write what the flyweights write; `Validate` takes any of them, returning nil or a
//!   `*ValidationError`, and accepts what it accepted once read back;
//! - `tests/go/owned_validate_test.go` in the package of `orders-be.xml`: each rule `Validate`
//!   checks fires with its path and kind, random values built within the rules validate and
//!   round-trip, and `EncodeOwned` writes values out of range as they are;
//! - `tests/go/owned_validate_edges_test.go` in the package of `validate-edges.xml`: float
//!   bounds and NaN, a pointer to an array, optional composites and composite members.

mod common;

use common::*;
use sbekit_testdata::{run_ok, workspace_file};

/// The owned message types of a generated package: `&XOwned{}` for each `DecodeXOwned`.
fn samples(owned_go: &str) -> String {
    let types: Vec<String> = owned_go
        .lines()
        .filter_map(|l| l.strip_prefix("func Decode")?.split_once("Owned(b []byte)"))
        .filter(|(t, _)| !t.is_empty())
        .map(|(t, _)| format!("\t&{t}Owned{{}},\n"))
        .collect();
    assert!(!types.is_empty(), "no owned messages");
    format!(
        "\n// ownedSamples holds one value of each owned message type.\nvar ownedSamples = []AnyOwned{{\n{}}}\n",
        types.concat()
    )
}

#[test]
fn go_owned_values_round_trip() {
    let test = "go_owned_values_round_trip";
    let Some(go) = go(test) else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let module = "sbetest";
    std::fs::write(root.join("go.mod"), sbekit_codegen_go::go_mod(module)).expect("go.mod");
    let schemas = [
        (
            "vers0",
            "crates/sbekit-codegen-tests/schemas/versioned-v0.xml",
        ),
        (
            "vers1",
            "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
        ),
        (
            "orders",
            "crates/sbekit-codegen-tests/schemas/orders-be.xml",
        ),
        ("md", "schemas/market-data.xml"),
        (
            "edges",
            "crates/sbekit-codegen-go/tests/schemas/validate-edges.xml",
        ),
    ];
    for (pkg, path) in schemas {
        package(root, module, pkg, &workspace_file(path));
    }
    for (file, text) in [
        (
            "vers1/owned_versioned_test.go",
            include_str!("go/owned_versioned_test.go"),
        ),
        (
            "orders/owned_validate_test.go",
            include_str!("go/owned_validate_test.go"),
        ),
        (
            "edges/owned_validate_edges_test.go",
            include_str!("go/owned_validate_edges_test.go"),
        ),
    ] {
        std::fs::write(root.join(file), text).expect("write test");
    }
    let random = ["vers1", "orders", "md"];
    for pkg in random {
        let owned = std::fs::read_to_string(root.join(pkg).join("owned.go")).expect("owned.go");
        let text = include_str!("go/owned_random_test.go")
            .replace("package PKG", &format!("package {pkg}"))
            + &samples(&owned);
        std::fs::write(root.join(pkg).join("owned_random_test.go"), text).expect("write test");
    }
    // `go test` reports failures on stdout: show both.
    let out = go_cmd(&go, root)
        .args([
            "test",
            "-count=1",
            "-v",
            "./vers1/",
            "./orders/",
            "./md/",
            "./edges/",
        ])
        .output()
        .expect("go test runs");
    assert!(
        out.status.success(),
        "go test (owned values) failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = out.stdout;
    let out = String::from_utf8_lossy(&out);
    for t in [
        "TestOwnedValuesRoundTripAsTheFlyweightsWriteThem",
        "TestAnOlderWritersMessageKeepsItsVersion",
        "TestANewerGroupIsLeftOutAtAnOlderVersion",
        "TestRandomOwnedValuesRoundTrip",
        "TestValidValuesValidateAndRoundTrip",
        "TestValidateNamesEachBrokenRule",
        "TestEncodeOwnedWritesWhatAValueHolds",
        "TestValidateAtTheEdges",
    ] {
        assert!(
            out.contains(&format!("--- PASS: {t}")),
            "{t} did not run:\n{out}"
        );
    }
    assert_eq!(
        out.matches("--- PASS: TestRandomOwnedValuesRoundTrip")
            .count(),
        random.len(),
        "one random test per package:\n{out}"
    );
    run_ok(go_cmd(&go, root).args(["vet", "./..."]), "go vet ./...");
    eprintln!(
        "{test}: {}",
        out.lines()
            .filter(|l| l.contains("pointers set"))
            .collect::<Vec<_>>()
            .join("; ")
    );
}
