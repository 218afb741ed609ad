//! Rust code generation for SBE schemas.
//!
//! [`generate`] turns IR (from `sbekit_schema::load_ir` or a `.sbeir` file) into the source of
//! one Rust module: for every message a checked decoder (`CarDecoder::decode`), group
//! iterators, an encoder with ordered sections (`CarEncoder::new` ... `finish`), plus enums,
//! bit sets, composites, a dispatcher over all messages (`AnyMessage::decode`), and for
//! `sbekit conformance` a JSON printer (`to_json`, the JSON `sbekit decode` prints) and a
//! re-encoder (`reencode`, at the message's acting version). The output uses the small
//! `sbekit-runtime` crate, contains no `unsafe`, and cannot panic on any input.
//!
//! The output is laid out by `prettyplease`, so it reads like code and is the same on every
//! machine whatever its rustfmt; [`Options::rustfmt`] additionally runs the machine's `rustfmt`
//! for projects that want its layout. [`write_module`] and [`write_crate`] put the output on disk
//! atomically; [`format()`] runs `rustfmt` over any source.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod emit;
pub mod names;

use sbekit_ir::layout::Layout;
use sbekit_ir::Ir;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Settings for the generated code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Path by which generated code names the runtime crate (default `::sbekit_runtime`).
    pub runtime_path: String,
    /// Also run the machine's `rustfmt` over the output, when it is available (default false).
    /// The output is always laid out by `prettyplease` and needs no rustfmt; this only trades
    /// that machine-independent layout for rustfmt's.
    pub rustfmt: bool,
    /// How schema names that are Rust keywords become identifiers.
    pub keywords: KeywordStyle,
    /// Also generate owned values (`CarOwned`, `AnyOwned`: plain structs with `Vec`s for
    /// groups and var data, `from_decoder` and `encode_into`; default true). They need the
    /// runtime's `alloc` feature (on by default); turn them off for a `no_std` target without
    /// an allocator.
    pub owned: bool,
    /// Also derive `serde::Serialize` and `serde::Deserialize` for the owned values, enums and
    /// bit sets, each behind `#[cfg_attr(feature = "serde", ...)]` (default false). A crate that
    /// [`write_crate`] writes then has a `serde` feature enabling an optional `serde`
    /// dependency; a crate that includes the module must declare a `serde` feature itself (else
    /// rustc warns of an unexpected `cfg`). Off by default because an optional dependency is
    /// still resolved: a crate with it no longer builds offline without a registry cache.
    pub serde: bool,
}

pub use sbekit_plan::names::rust::KeywordStyle;
pub use sbekit_plan::Plan;

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime_path: "::sbekit_runtime".to_string(),
            rustfmt: false,
            keywords: KeywordStyle::Raw,
            owned: true,
            serde: false,
        }
    }
}

pub use sbekit_plan::package::GenError;

/// Why [`try_format`] could not format.
#[derive(Debug)]
pub enum FormatError {
    /// `rustfmt` (or `$RUSTFMT`) could not be started.
    NotFound(std::io::Error),
    /// rustfmt ran and failed; its standard error.
    Failed(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NotFound(e) => write!(f, "cannot run rustfmt (set RUSTFMT or install it with `rustup component add rustfmt`): {e}"),
            FormatError::Failed(m) => write!(f, "rustfmt failed: {m}"),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::NotFound(e) => Some(e),
            FormatError::Failed(_) => None,
        }
    }
}

/// Generates the Rust module for `ir`. Identical input gives identical output.
pub fn generate(ir: &Ir, opts: &Options) -> Result<String, GenError> {
    generate_plan(&Plan::from_ir(ir).map_err(GenError::Plan)?, opts)
}

/// Generates the Rust module for a schema's layout. Identical input gives identical output.
pub fn generate_layout(layout: &Layout, opts: &Options) -> Result<String, GenError> {
    generate_plan(&Plan::new(layout).map_err(GenError::Plan)?, opts)
}

/// Generates the Rust module for a schema's codec plan: what [`generate`] and
/// [`generate_layout`] do after building the plan. Identical input gives identical output.
pub fn generate_plan(plan: &Plan, opts: &Options) -> Result<String, GenError> {
    let text = pretty(&emit::emit(plan, opts))?;
    Ok(if opts.rustfmt {
        format(&text).unwrap_or(text)
    } else {
        text
    })
}

/// Lays out generated source with `prettyplease`. Leading `//` comment lines (the `@generated`
/// line), which a syntax tree does not keep, are carried over as they are.
fn pretty(source: &str) -> Result<String, GenError> {
    let split = source
        .lines()
        .take_while(|l| l.starts_with("//") && !l.starts_with("///") && !l.starts_with("//!"))
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(source.len());
    let (head, body) = source.split_at(split);
    let file = syn::parse_file(body).map_err(|e| GenError::Malformed("Rust", e.to_string()))?;
    let mut out = head.to_string();
    if !head.is_empty() {
        out.push('\n');
    }
    out.push_str(&prettyplease::unparse(&file));
    Ok(out)
}

/// The module file name for a schema: its package in snake case (`baseline.rs`).
pub fn module_name(ir: &Ir) -> String {
    module_name_of(&ir.package_name)
}

/// The module file name (without `.rs`) for a schema package name.
pub fn module_name_of(package: &str) -> String {
    let n = names::snake(&package.replace('.', "_"));
    let n = n.trim_start_matches('_');
    if n.is_empty() {
        "schema".into()
    } else {
        // A file name usable in `mod name;`: keywords get a suffix.
        names::escape_with(KeywordStyle::Suffix, n)
    }
}

/// The default name of a generated crate: the package, dashed, with an `-sbe` suffix unless
/// it already ends in `sbe` (`b3.umdf.mbo.sbe` -> `b3-umdf-mbo-sbe`, `baseline` -> `baseline-sbe`).
pub fn crate_name(ir: &Ir) -> String {
    sbekit_plan::names::package_name(&ir.package_name)
}

/// Formats Rust source with `rustfmt` (edition 2021). `None` if rustfmt is missing or fails.
pub fn format(source: &str) -> Option<String> {
    try_format(source).ok()
}

/// Formats Rust source with `rustfmt` (edition 2021; `$RUSTFMT` if set), saying why it could not.
pub fn try_format(source: &str) -> Result<String, FormatError> {
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let mut child = Command::new(rustfmt)
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(FormatError::NotFound)?;
    let failed = |m: &str| FormatError::Failed(m.to_string());
    let mut stdin = child.stdin.take().ok_or_else(|| failed("no stdin"))?;
    let input = source.to_owned();
    // Feed stdin from a thread so a large output cannot dead-lock on a full pipe.
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| FormatError::Failed(e.to_string()))?;
    let fed = feeder.join().map_err(|_| failed("stdin writer panicked"))?;
    if !out.status.success() {
        return Err(FormatError::Failed(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    fed.map_err(|e| FormatError::Failed(e.to_string()))?;
    String::from_utf8(out.stdout).map_err(|_| failed("output is not UTF-8"))
}

/// Writes `contents` to `path` atomically ([`sbekit_fs::write`]: a temporary file in the same
/// directory, synced, then a rename), creating the directory if needed, and only if the
/// contents differ, so unchanged output keeps its timestamp.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), GenError> {
    let io = |e| GenError::Io(path.to_path_buf(), e);
    if std::fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    sbekit_fs::write(path, contents.as_bytes()).map_err(io)
}

/// Writes the module for `ir` as `dir/<module_name>.rs`; returns the file's path.
pub fn write_module(ir: &Ir, dir: &Path, opts: &Options) -> Result<PathBuf, GenError> {
    let text = generate(ir, opts)?;
    let path = dir.join(format!("{}.rs", module_name(ir)));
    write_atomic(&path, &text)?;
    Ok(path)
}

/// The source of the conformance program `sbekit conformance` runs, over generated modules at
/// `paths` (crate or module paths, such as `baseline_sbe`): reads u32le-framed messages on stdin
/// and writes, in mode `json`, one JSON line per message (the module's `to_json`), or in mode
/// `reencode`, each message re-encoded at its acting version (the module's `reencode`),
/// u32le-framed. With several paths it takes the schema's index after the mode. Every crate
/// [`write_crate`] writes ships it as `examples/sbe_conformance.rs`. With `owned` (modules
/// generated with [`Options::owned`]) it also has modes `json-owned` and `reencode-owned`, the
/// same through the owned values.
pub fn conformance_program(paths: &[&str], owned: bool) -> String {
    emit::conformance::conformance_program(paths, owned)
}

/// The `Cargo.toml` of a copy of the runtime's `SOURCE_FILES` at `version`, as [`write_crate`]
/// bundles it: the runtime's own features (`std`, on by default, and `alloc`).
pub fn runtime_manifest(version: &str) -> String {
    emit::crate_files::runtime_manifest(version)
}

/// How a standalone crate refers to the runtime in its `Cargo.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RuntimeDep {
    /// A copy of the runtime written beside the code (`<dir>/sbekit-runtime/`), so the crate
    /// builds offline with nothing but the Rust toolchain.
    #[default]
    Bundled,
    /// A version requirement on a registry (`"0.1"`).
    Version(String),
    /// A path to a checkout of `sbekit-runtime`.
    Path(PathBuf),
}

/// Writes a standalone crate `name` into `dir` (`Cargo.toml`, `src/lib.rs`, and for
/// [`RuntimeDep::Bundled`] the runtime in `sbekit-runtime/`). With [`Options::serde`] its
/// `Cargo.toml` has a `serde` feature (an optional `serde` dependency, `no_std` with `alloc`).
pub fn write_crate(
    ir: &Ir,
    dir: &Path,
    name: &str,
    runtime: &RuntimeDep,
    opts: &Options,
) -> Result<(), GenError> {
    let mut opts = opts.clone();
    opts.runtime_path = "::sbekit_runtime".into();
    let body = generate(ir, &opts)?;
    for (path, text) in emit::crate_files::files(ir, name, runtime, &body, &opts) {
        write_atomic(&dir.join(path), &text)?;
    }
    Ok(())
}
