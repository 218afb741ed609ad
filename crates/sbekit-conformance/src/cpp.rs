//! The C++ conformance program: the generated package's own example for one schema, one
//! program over every package for several.

use crate::program::{check, tool_works, Program};
use crate::{Error, Schema, Tamper};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The C++ compiler: `$CXX`, else the first of `c++`, `g++`, `clang++` that runs.
pub fn cxx() -> Option<String> {
    if let Ok(c) = std::env::var("CXX") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    ["c++", "g++", "clang++"]
        .into_iter()
        .find(|c| tool_works(c, "--version"))
        .map(str::to_string)
}

pub(crate) fn build_cpp(dir: &Path, schemas: &[Schema], tamper: Tamper) -> Result<Program, Error> {
    let cxx = cxx().ok_or_else(|| {
        Error::MissingToolchain(
            "a C++17 compiler".into(),
            "install g++ or clang++, or set CXX".into(),
        )
    })?;
    let mut incs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let out = dir.join(&pkg);
        let opts = sbekit_codegen_cpp::Options {
            package: Some(pkg.clone()),
        };
        sbekit_codegen_cpp::write_package(&s.layout, &out, &opts)
            .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        incs.push(format!("-I{}", out.join("include").display()));
    }
    crate::tamper_with(dir, tamper);
    let exe = dir.join("sbe_conformance");
    let flags = ["-std=c++17", "-O1", "-fno-exceptions", "-fno-rtti"];
    if schemas.len() == 1 {
        // One schema: the package's own example, as a user would build it.
        let src = dir.join("s00/examples/sbe_conformance.cpp");
        let out = Command::new(&cxx)
            .args(flags)
            .args(&incs)
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()?;
        check(out, &format!("{cxx} {}", src.display()))?;
        return Ok(Program {
            cmd: vec![exe.display().to_string()],
            multi: false,
            extra: Vec::new(),
            owned: false,
        });
    }
    // Several schemas: one driver per package (each calls its package's conformance function),
    // compiled in two halves in parallel, and one main.
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj)?;
    let mut srcs = Vec::new();
    let mut main = String::from("#include <cstdio>\n#include <cstdlib>\n");
    for i in 0..schemas.len() {
        let p = format!("s{i:02}");
        let f = obj.join(format!("driver_{p}.cpp"));
        std::fs::write(
            &f,
            format!(
                "#include \"{p}/conformance.hpp\"\nint sbe_run_{p}(const char* m) {{ return {p}::sbe_conformance(m, stdin, stdout); }}\n"
            ),
        )?;
        srcs.push(f);
        main.push_str(&format!("int sbe_run_{p}(const char* m);\n"));
    }
    main.push_str("int main(int argc, char** argv) {\n    if (argc != 3) return 2;\n    switch (std::atoi(argv[2])) {\n");
    for i in 0..schemas.len() {
        main.push_str(&format!(
            "        case {i}: return sbe_run_s{i:02}(argv[1]);\n"
        ));
    }
    main.push_str("        default: return 2;\n    }\n}\n");
    let mf = obj.join("main.cpp");
    std::fs::write(&mf, main)?;
    srcs.push(mf);
    let half = srcs.len().div_ceil(2);
    let mut kids = Vec::new();
    for part in srcs.chunks(half.max(1)) {
        let child = Command::new(&cxx)
            .current_dir(&obj)
            .args(flags)
            .arg("-c")
            .args(&incs)
            .args(part)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        kids.push(child);
    }
    for k in kids {
        check(k.wait_with_output()?, &format!("{cxx} -c"))?;
    }
    let objs: Vec<PathBuf> = srcs
        .iter()
        .map(|s| obj.join(s.with_extension("o").file_name().unwrap_or_default()))
        .collect();
    let out = Command::new(&cxx)
        .args(&objs)
        .arg("-o")
        .arg(&exe)
        .output()?;
    check(out, &format!("{cxx} (link)"))?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: true,
        extra: Vec::new(),
        owned: false,
    })
}
