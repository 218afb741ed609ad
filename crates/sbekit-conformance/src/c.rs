//! The C builder: every schema's package (prefix `sNN`) and one `main.c` that includes all their
//! conformance headers, compiled by one compiler process (C has no namespaces, but the prefixes
//! keep the packages apart, and the shared runtime has an include guard).

use crate::program::{check, tool_works, Program};
use crate::{Error, Schema, Tamper};
use std::path::Path;
use std::process::Command;

/// The C compiler: `$CC`, else the first of `cc`, `gcc`, `clang` that runs.
pub fn cc() -> Option<String> {
    if let Ok(c) = std::env::var("CC") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    ["cc", "gcc", "clang"]
        .into_iter()
        .find(|c| tool_works(c, "--version"))
        .map(str::to_string)
}

pub(crate) fn build_c(dir: &Path, schemas: &[Schema], tamper: Tamper) -> Result<Program, Error> {
    let cc = cc().ok_or_else(|| {
        Error::MissingToolchain(
            "a C11 compiler".into(),
            "install gcc or clang, or set CC".into(),
        )
    })?;
    let mut incs = Vec::new();
    let mut main = String::from("#include <stdio.h>\n#include <stdlib.h>\n");
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let out = dir.join(&pkg);
        let opts = sbekit_codegen_c::Options {
            package: Some(pkg.clone()),
        };
        sbekit_codegen_c::write_package(&s.layout, &out, &opts)
            .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        incs.push(format!("-I{}", out.join("include").display()));
        main.push_str(&format!("#include \"{pkg}/conformance.h\"\n"));
    }
    crate::tamper_with(dir, tamper);
    main.push_str("int main(int argc, char** argv) {\n    if (argc != 3) return 2;\n    switch (atoi(argv[2])) {\n");
    for i in 0..schemas.len() {
        main.push_str(&format!(
            "        case {i}: return s{i:02}_sbe_conformance(argv[1], stdin, stdout);\n"
        ));
    }
    main.push_str("        default: return 2;\n    }\n}\n");
    let src = dir.join("main.c");
    std::fs::write(&src, main)?;
    let exe = dir.join("sbe_conformance");
    let out = Command::new(&cc)
        .args(["-std=c11", "-O1"])
        .args(&incs)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()?;
    check(out, &format!("{cc} {}", src.display()))?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: true,
        extra: Vec::new(),
        owned: false,
    })
}
