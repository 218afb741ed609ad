//! Go code generation for SBE schemas.
//!
//! [`generate`] renders a schema's codec plan ([`sbekit_plan::Plan`]) as a Go module: `go.mod`
//! (module path from [`Options::module`]), one package per schema (`<package>/`: `types.go` with
//! the enums, sets and composites, `messages.go` with the flyweight decoders and fluent
//! encoders, `json.go` with `AppendJSON` and the re-encoder, `owned.go` with the owned values
//! (`CarOwned`: plain structs, `DecodeCarOwned`, `EncodeOwned`, `DecodeOwned`, `Validate`),
//! `runtime.go` with the error types, `conformance.go` with the logic of the conformance
//! program) and `cmd/sbe_conformance/main.go`, the program `sbekit conformance` builds. The
//! generated code uses the standard library only and is `gofmt`-clean.
//!
//! The code follows the other generators' rules: one check up front (`Wrap` walks the plan's
//! [`sbekit_plan::Check`]s and returns a `*DecodeError` with the error kind, byte offset and
//! element path), after which accessors read at fixed offsets; neither decoding nor encoding
//! allocates (the owned values do, off the hot path). Offsets, versions and validation all
//! come from the plan.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod json;
mod messages;
mod names;
mod owned;
mod package;
mod prim;
mod types;
mod validate;

use sbekit_plan::Plan;
use std::path::{Path, PathBuf};

pub use names::package_name;

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The Go package name and directory (default: [`package_name`] of the schema package).
    pub package: Option<String>,
    /// The module path written to `go.mod` (default: the package name).
    pub module: Option<String>,
}

pub use sbekit_plan::package::{write_files, GenError, GeneratedFile};

/// The files of one Go package (paths relative to the package directory): the codecs and the
/// conformance function, without `go.mod` or the conformance command.
pub fn package_files(plan: &Plan, opts: &Options) -> Vec<GeneratedFile> {
    let n = sbekit_plan::names::assign(plan, &names::Go, opts.package.as_deref());
    let ctx = Ctx { plan, n: &n };
    let file = |p: &str, text: String| GeneratedFile {
        path: PathBuf::from(p),
        text,
    };
    vec![
        file("runtime.go", package::runtime_go(&ctx)),
        file("types.go", types::types_go(&ctx)),
        file("messages.go", messages::messages_go(&ctx)),
        file("json.go", json::json_go(&ctx)),
        file("owned.go", owned::owned_go(&ctx)),
        file("conformance.go", package::conformance_go(&ctx)),
    ]
}

/// Generates the module's files from a codec plan: `go.mod`, `README.md`, the package in
/// `<package>/` and the conformance command in `cmd/sbe_conformance/`.
pub fn generate(plan: &Plan, opts: &Options) -> Vec<GeneratedFile> {
    let pkg = opts
        .package
        .clone()
        .unwrap_or_else(|| package_name(&plan.package));
    let module = opts.module.clone().unwrap_or_else(|| pkg.clone());
    let opts = Options {
        package: Some(pkg.clone()),
        module: Some(module.clone()),
    };
    let mut out = vec![
        GeneratedFile {
            path: PathBuf::from("go.mod"),
            text: package::go_mod(&module),
        },
        GeneratedFile {
            path: PathBuf::from("README.md"),
            text: package::readme(plan, &pkg, &module),
        },
    ];
    for f in package_files(plan, &opts) {
        out.push(GeneratedFile {
            path: Path::new(&pkg).join(f.path),
            text: f.text,
        });
    }
    out.push(GeneratedFile {
        path: PathBuf::from("cmd/sbe_conformance/main.go"),
        text: package::conformance_main(&[(format!("{module}/{pkg}"), pkg.clone())]),
    });
    out
}

/// Generates the module's files from a layout (through its plan).
pub fn generate_layout(
    layout: &sbekit_ir::layout::Layout,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, GenError> {
    sbekit_plan::package::render_layout(layout, |plan| Ok(generate(plan, opts)))
}

/// Writes the module into `dir` (created if needed).
pub fn write_module(
    layout: &sbekit_ir::layout::Layout,
    dir: &Path,
    opts: &Options,
) -> Result<(), GenError> {
    write_files(dir, &generate_layout(layout, opts)?)
}

/// `go.mod` for module `module`.
pub fn go_mod(module: &str) -> String {
    package::go_mod(module)
}

/// The source of a conformance command over several generated packages: `packages` holds
/// `(import path, package name)`; the program takes the mode (`json` or `reencode`, or
/// `json-owned` or `reencode-owned` through the owned values) and, with
/// more than one package, the package's index.
pub fn conformance_main(packages: &[(String, String)]) -> String {
    package::conformance_main(packages)
}

/// What the emitters share: the plan and the names chosen for it.
pub(crate) struct Ctx<'a> {
    pub plan: &'a Plan,
    pub n: &'a sbekit_plan::names::PlanNames,
}

impl Ctx<'_> {
    /// `binary.LittleEndian` or `binary.BigEndian`.
    pub fn order(&self) -> &'static str {
        if self.plan.byte_order == sbekit_ir::ByteOrder::BigEndian {
            "binary.BigEndian"
        } else {
            "binary.LittleEndian"
        }
    }
}

/// A text buffer with Go's indentation (tabs).
#[derive(Default)]
pub(crate) struct Out {
    pub s: String,
    indent: usize,
}

impl Out {
    /// Writes one line; a line ending in `{` or `(` indents the next, one starting with `}` or
    /// `)` outdents; `case`/`default:` lines and labels (`full:`) sit one level out.
    pub fn line(&mut self, text: &str) {
        let t = text.trim();
        // A one-line function body stays on one line in gofmt only when short: always split.
        if let (true, Some(i)) = (
            t.starts_with("func ") && t.ends_with(" }"),
            t.find("{ return "),
        ) {
            self.line(&t[..=i]);
            self.line(&t[i + 2..t.len() - 2]);
            self.line("}");
            return;
        }
        if t.starts_with('}') || t.starts_with(')') {
            self.indent = self.indent.saturating_sub(1);
        }
        let label = t.strip_suffix(':').is_some_and(|l| {
            !l.is_empty() && l.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
        });
        let out = usize::from(t.starts_with("case ") || label);
        if !t.is_empty() {
            for _ in 0..self.indent.saturating_sub(out) {
                self.s.push('\t');
            }
            self.s.push_str(t);
        }
        self.s.push('\n');
        if t.ends_with('{') || t.ends_with('(') {
            self.indent += 1;
        }
    }

    /// Writes a `//` comment (one per line of `text`).
    pub fn doc(&mut self, text: &str) {
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.line(&format!("// {l}"));
        }
    }

    /// Writes struct fields `(name, type)` aligned as `gofmt` aligns them.
    pub fn fields(&mut self, rows: &[(String, String)]) {
        let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
        for (n, t) in rows {
            self.line(&format!("{n:w$} {t}"));
        }
    }
}

/// A Go file: the header comment, `package`, the imports its text uses, then `body`.
pub(crate) fn go_file(pkg: &str, body: &str) -> String {
    let mut s = String::from("// Code generated by sbekit. DO NOT EDIT.\n\n");
    s.push_str(&format!("package {pkg}\n\n"));
    let mut imports: Vec<&str> = Vec::new();
    for (use_, path) in [
        ("bufio.", "bufio"),
        ("binary.", "encoding/binary"),
        ("io.", "io"),
        ("math.", "math"),
        ("strconv.", "strconv"),
        ("utf8.", "unicode/utf8"),
    ] {
        if uses(body, use_) {
            imports.push(path);
        }
    }
    match imports.len() {
        0 => {}
        1 => s.push_str(&format!("import \"{}\"\n\n", imports[0])),
        _ => {
            s.push_str("import (\n");
            for i in imports {
                s.push_str(&format!("\t\"{i}\"\n"));
            }
            s.push_str(")\n\n");
        }
    }
    s.push_str(body.trim_end());
    s.push('\n');
    s
}

/// True if `body` refers to package `qual` (`binary.`) outside an identifier.
fn uses(body: &str, qual: &str) -> bool {
    body.match_indices(qual).any(|(i, _)| {
        i == 0
            || !body[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    })
}
