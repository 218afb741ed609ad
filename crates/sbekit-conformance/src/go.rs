//! The Go conformance program: one Go module holding a package per schema (`s00`, `s01`, ...)
//! and one command dispatching on the package index, built by one `go build`.

use crate::program::{check, tool_works, Program};
use crate::{Error, Schema, Tamper};
use std::path::Path;
use std::process::Command;

/// `go`: `$SBEKIT_GO`, else `go` on the PATH.
pub fn go() -> Option<String> {
    if let Ok(c) = std::env::var("SBEKIT_GO") {
        if !c.is_empty() && tool_works(&c, "version") {
            return Some(c);
        }
    }
    tool_works("go", "version").then(|| "go".to_string())
}

/// Generates every schema's package into `dir`, writes the command and builds it.
pub(crate) fn build_go(dir: &Path, schemas: &[Schema], tamper: Tamper) -> Result<Program, Error> {
    let go = go().ok_or_else(|| {
        Error::MissingToolchain(
            "go".into(),
            "install Go 1.21 or later (https://go.dev/dl/ or `apt-get install golang-go`), or set SBEKIT_GO"
                .into(),
        )
    })?;
    let module = "sbeconformance";
    let mut pkgs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let opts = sbekit_codegen_go::Options {
            package: Some(pkg.clone()),
            module: Some(module.into()),
        };
        let plan = sbekit_plan_of(s)?;
        let files = sbekit_codegen_go::package_files(&plan, &opts);
        sbekit_codegen_go::write_files(&dir.join(&pkg), &files)
            .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        pkgs.push((format!("{module}/{pkg}"), pkg));
    }
    crate::tamper_with(dir, tamper);
    std::fs::write(dir.join("go.mod"), sbekit_codegen_go::go_mod(module))?;
    let cmd = dir.join("cmd/sbe_conformance");
    std::fs::create_dir_all(&cmd)?;
    std::fs::write(
        cmd.join("main.go"),
        sbekit_codegen_go::conformance_main(&pkgs),
    )?;
    let exe = dir.join("sbe_conformance");
    // Offline and self-contained: the module needs nothing beyond the standard library.
    let out = Command::new(&go)
        .current_dir(dir)
        .args(["build", "-o"])
        .arg(&exe)
        .arg("./cmd/sbe_conformance")
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output()?;
    check(out, "go build (the Go conformance program)")?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: true,
        extra: Vec::new(),
        owned: false,
    })
}

fn sbekit_plan_of(s: &Schema) -> Result<sbekit_plan::Plan, Error> {
    sbekit_plan::Plan::new(&s.layout)
        .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))
}
