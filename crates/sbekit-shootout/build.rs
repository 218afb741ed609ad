//! Generates the SBE codecs of both shootout schemas with sbekit's own generator.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The compiler's version, for the machine description of reports.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_RUSTC={version}");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let schemas = root.join("../../schemas");
    let cfg = sbekit_build::Config::new();
    cfg.compile_as(&schemas.join("shootout-2019.xml"), "sbe_2019.rs")
        .expect("SBE code generation failed for shootout-2019.xml");
    cfg.compile_as(&schemas.join("market-data.xml"), "sbe_md.rs")
        .expect("SBE code generation failed for market-data.xml");
    if std::env::var_os("CARGO_FEATURE_REFERENCE_SBE").is_some() {
        reference::generate(&schemas);
    }
}

/// The `reference-sbe` feature: the reference tool's Rust codecs for the same two schemas
/// (jar `uk.co.real-logic:sbe-all:1.38.1`, Java 17), turned from two crates into two modules.
mod reference {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const JAR_REL: &str = ".m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar";

    fn jar() -> PathBuf {
        println!("cargo:rerun-if-env-changed=SBE_ALL_JAR");
        if let Some(j) = std::env::var_os("SBE_ALL_JAR") {
            return PathBuf::from(j);
        }
        let home = PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
        let jar = home.join(JAR_REL);
        if !jar.exists() {
            // Fetch it into the local Maven repository (Maven Central).
            let ok = Command::new("mvn")
                .args([
                    "-q",
                    "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get",
                    "-Dartifact=uk.co.real-logic:sbe-all:1.38.1",
                ])
                .status()
                .is_ok_and(|s| s.success());
            assert!(
                ok && jar.exists(),
                "feature reference-sbe: {} is missing and `mvn dependency:get` could not fetch \
                 it (set SBE_ALL_JAR to the jar of uk.co.real-logic:sbe-all:1.38.1)",
                jar.display()
            );
        }
        jar
    }

    /// The crate's `lib.rs` with every `pub mod x;` replaced by the module's text and
    /// `crate::` paths made relative, so that it can be `include!`d as a module.
    fn flatten(src: &Path) -> String {
        let lib = std::fs::read_to_string(src.join("lib.rs")).expect("reference lib.rs");
        let mut out = String::new();
        for line in lib.lines() {
            let t = line.trim();
            if t.starts_with("#![") {
                continue;
            }
            if let Some(name) = t.strip_prefix("pub mod ").and_then(|r| r.strip_suffix(';')) {
                let text = std::fs::read_to_string(src.join(format!("{name}.rs")))
                    .expect("reference module");
                out.push_str(&format!(
                    "pub mod {name} {{\n{}\n}}\n",
                    text.replace("crate::", "super::")
                ));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    pub fn generate(schemas: &Path) {
        let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
        let gen = out.join("reference-gen");
        let _ = std::fs::remove_dir_all(&gen);
        std::fs::create_dir_all(&gen).expect("reference output dir");
        let status = Command::new("java")
            .arg("--add-opens")
            .arg("java.base/jdk.internal.misc=ALL-UNNAMED")
            .arg("-Dsbe.target.language=Rust")
            .arg(format!("-Dsbe.output.dir={}", gen.display()))
            .arg("-jar")
            .arg(jar())
            .arg(schemas.join("shootout-2019.xml"))
            .arg(schemas.join("market-data.xml"))
            .status()
            .expect("feature reference-sbe needs `java` (17+) on PATH");
        assert!(status.success(), "the reference SBE tool failed: {status}");
        for (pkg, file) in [
            ("shootout2019", "ref_sbe_2019.rs"),
            ("sbekit_md", "ref_sbe_md.rs"),
        ] {
            let text = flatten(&gen.join(pkg).join("src"));
            std::fs::write(out.join(file), text).expect("write reference module");
        }
    }
}
