//! The TypeScript conformance program: every package compiled by one `tsc` run, run in Node.

use crate::program::{tool_works, Program};
use crate::{Error, Schema, Tamper};
use std::path::Path;
use std::process::Command;

/// `tsc`: `given`, else `$SBEKIT_TSC`, else `tsc` on the PATH.
fn tsc(given: Option<&Path>) -> Option<String> {
    if let Some(c) = given {
        let c = c.display().to_string();
        return tool_works(&c, "--version").then_some(c);
    }
    if let Ok(c) = std::env::var("SBEKIT_TSC") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    tool_works("tsc", "--version").then(|| "tsc".to_string())
}

pub(crate) fn build_ts(
    dir: &Path,
    schemas: &[Schema],
    tamper: Tamper,
    given: Option<&Path>,
) -> Result<Program, Error> {
    if !tool_works("node", "--version") {
        return Err(Error::MissingToolchain(
            "node".into(),
            "install Node 20 or later".into(),
        ));
    }
    let tsc = tsc(given).ok_or_else(|| {
        Error::MissingToolchain(
            "tsc".into(),
            "install TypeScript (`npm install -g typescript`) or set SBEKIT_TSC".into(),
        )
    })?;
    for (i, s) in schemas.iter().enumerate() {
        sbekit_codegen_ts::write_package(
            &s.layout,
            &dir.join(format!("s{i:02}")),
            &Default::default(),
        )
        .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
    }
    crate::tamper_with(dir, tamper);
    // One tsc run for every package.
    let cfg = serde_json::json!({
        "compilerOptions": {
            "target": "ES2022",
            "module": "ES2022",
            "moduleResolution": "bundler",
            "strict": true,
            "skipLibCheck": true,
            "rootDir": ".",
            "outDir": "dist",
            "lib": ["ES2022", "DOM"],
        },
        "include": ["*/src/*.ts"],
    });
    std::fs::write(dir.join("tsconfig.json"), cfg.to_string())?;
    let out = Command::new(&tsc).arg("-p").arg(dir).output()?;
    if !out.status.success() {
        return Err(Error::Build(format!(
            "tsc failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        )));
    }
    let script = dir.join("s00/examples/sbe_conformance.mjs");
    let extra = (0..schemas.len())
        .map(|i| {
            vec![dir
                .join(format!("dist/s{i:02}/src/index.js"))
                .display()
                .to_string()]
        })
        .collect();
    Ok(Program {
        cmd: vec!["node".into(), script.display().to_string()],
        multi: false,
        extra,
        owned: false,
    })
}
