//! Generator output is deterministic and formatted.

fn ir(name: &str) -> Option<sbekit_ir::Ir> {
    let p = sbekit_testdata::require_reference(&format!("derived/sbeir/{name}.sbeir"), name)?;
    Some(sbekit_ir::sbeir::decode(&std::fs::read(p).unwrap()).unwrap())
}

#[test]
fn same_input_gives_identical_output() {
    let Some(ir) = ir("fix-message-samples") else {
        return;
    };
    let a = sbekit_codegen::generate(&ir, &Default::default()).unwrap();
    let b = sbekit_codegen::generate(&ir, &Default::default()).unwrap();
    assert_eq!(a, b);
    assert!(a.contains("pub enum AnyMessage"));
    assert!(!a.contains("unsafe"));
}

/// The output is laid out by prettyplease without rustfmt: formatting it again changes nothing,
/// and it is indented code, not one flush-left item per line.
#[test]
fn output_is_laid_out_by_prettyplease() {
    let Some(ir) = ir("example-schema") else {
        return;
    };
    let text = sbekit_codegen::generate(&ir, &Default::default()).unwrap();
    let (head, body) = text.split_once('\n').unwrap();
    assert!(head.starts_with("// @generated"), "{head}");
    let again = prettyplease::unparse(&syn::parse_file(body).unwrap());
    assert_eq!(again, body.trim_start_matches('\n'));
    assert!(text.lines().any(|l| l.starts_with("        ")));
}

#[test]
fn module_is_written_atomically_and_only_when_changed() {
    let Some(ir) = ir("car") else { return };
    let dir = std::env::temp_dir().join(format!("sbekit-codegen-test-{}", std::process::id()));
    let p = sbekit_codegen::write_module(&ir, &dir, &Default::default()).unwrap();
    let t1 = std::fs::metadata(&p).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    sbekit_codegen::write_module(&ir, &dir, &Default::default()).unwrap();
    assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), t1);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .collect();
    assert!(leftovers.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standalone_crate_builds() {
    let Some(ir) = ir("example-schema") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sbekit-codegen-crate-{}", std::process::id()));
    let runtime = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbekit-runtime");
    sbekit_codegen::write_crate(
        &ir,
        &dir,
        "baseline-sbe",
        &sbekit_codegen::RuntimeDep::Path(runtime),
        &Default::default(),
    )
    .unwrap();
    // An empty [workspace] keeps the temporary crate out of any enclosing workspace.
    let toml = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n[workspace]\n")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args(["check", "--quiet", "--offline"])
        .env("RUSTFLAGS", "-D warnings")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "generated crate in {} does not build",
        dir.display()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 10: a package that already ends in `sbe` does not get the suffix twice.
#[test]
fn crate_name_does_not_double_the_sbe_suffix() {
    let ir = |package: &str| sbekit_ir::Ir {
        package_name: package.into(),
        namespace_name: None,
        id: 1,
        version: 0,
        semantic_version: None,
        header: Vec::new(),
        messages: Vec::new(),
    };
    assert_eq!(
        sbekit_codegen::crate_name(&ir("b3.umdf.mbo.sbe")),
        "b3-umdf-mbo-sbe"
    );
    assert_eq!(sbekit_codegen::crate_name(&ir("baseline")), "baseline-sbe");
}

/// `sbekit generate`'s default: a crate with the runtime bundled builds offline with nothing
/// but the toolchain (an empty `CARGO_HOME`, so no registry cache can help) and no warnings.
#[test]
fn bundled_crate_builds_offline_on_a_fresh_machine() {
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-tests/schemas/orders-be.xml");
    let ir = sbekit_schema::load_ir(&schema).unwrap();
    let tmp = std::env::temp_dir().join(format!("sbekit-bundled-crate-{}", std::process::id()));
    let dir = tmp.join("orders-be-sbe");
    sbekit_codegen::write_crate(
        &ir,
        &dir,
        "orders-be-sbe",
        &sbekit_codegen::RuntimeDep::default(),
        &Default::default(),
    )
    .unwrap();
    assert!(dir.join("sbekit-runtime/src/lib.rs").exists());
    let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(toml.contains("path = \"sbekit-runtime\""), "{toml}");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["build", "--quiet", "--offline"])
        .env("RUSTFLAGS", "-D warnings")
        .env("CARGO_TARGET_DIR", tmp.join("target"))
        .env("CARGO_HOME", tmp.join("cargo-home"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "generated crate in {} does not build offline:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// `Options::serde` is opt-in: without it neither the module nor the crate's manifest names
/// serde (an optional dependency is still resolved, so the crate would not build offline on a
/// fresh machine); with it the owned values, enums and sets derive serde's traits behind the
/// crate's `serde` feature.
#[test]
fn serde_is_opt_in() {
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sbekit-codegen-tests/schemas/orders-be.xml");
    let ir = sbekit_schema::load_ir(&schema).unwrap();
    let plain = sbekit_codegen::generate(&ir, &Default::default()).unwrap();
    assert!(!plain.contains("serde"));
    let opts = sbekit_codegen::Options {
        serde: true,
        ..Default::default()
    };
    let text = sbekit_codegen::generate(&ir, &opts).unwrap();
    let derive = "derive(::serde::Serialize, ::serde::Deserialize)";
    assert!(text.contains(&format!(
        "#[cfg_attr(feature = \"serde\", {derive})]\npub struct OrderOwned"
    )));
    assert!(text.contains("#[cfg_attr(feature = \"serde\", serde(with = \"sbe_serde::array\"))]"));
    // Enums and sets (one attribute over several lines: prettyplease breaks it).
    assert_eq!(
        text.matches("serde(transparent)").count(),
        3,
        "Side, Venue, Flags"
    );
    let dir = std::env::temp_dir().join(format!("sbekit-serde-manifest-{}", std::process::id()));
    for (serde, feature) in [(false, false), (true, true)] {
        let opts = sbekit_codegen::Options {
            serde,
            ..Default::default()
        };
        sbekit_codegen::write_crate(&ir, &dir, "orders-be-sbe", &Default::default(), &opts)
            .unwrap();
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert_eq!(toml.contains("serde = [\"dep:serde\"]"), feature, "{toml}");
        assert_eq!(toml.contains("optional = true"), feature, "{toml}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
