//! The sbekit schema compiler: SBE 1.0 and 2.0 (RC3) XML schemas to validated IR.
//!
//! ```no_run
//! let compiled = sbekit_schema::compile_file("car.xml".as_ref(), &Default::default());
//! for d in &compiled.diagnostics {
//!     eprintln!("{d}"); // car.xml:41:9: error[field-offset]: field 'modelYear' offset 2 ...
//! }
//! let ir = compiled.ir.expect("valid schema");
//! ```
//!
//! Parsing accepts the 2016, 2017 and legacy SBE namespaces, qualified or not (elements are
//! matched by local name), resolves XInclude relative to the including file, and trims
//! whitespace around constant values (the FIX specification's own examples need both).
//! Validation follows the reference tool's rules; each diagnostic names its file, line, column
//! and rule (see [`rules`]). Hostile input yields diagnostics, never a panic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod diag;
mod irgen;
mod keywords;
pub mod outline;
mod parse;
pub mod rules;
mod xml;

pub use diag::{Diagnostic, Location, Severity};
use sbekit_ir::Ir;
use std::path::Path;

/// How to compile.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Treat warnings as errors: no IR is produced if there are any.
    pub warnings_as_errors: bool,
}

/// The result of compiling a schema: the IR if it is valid, and every diagnostic.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The IR; `None` if there were errors (or warnings, with `warnings_as_errors`).
    pub ir: Option<Ir>,
    /// Errors and warnings in document order of discovery.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// The warnings only.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }
}

/// Compiles the schema file at `path` (and the files it XIncludes).
pub fn compile_file(path: &Path, options: &Options) -> Compiled {
    compile(xml::Source::File(path), options)
}

/// Compiles an XML schema, or reads a reference-format `.sbeir` file, told apart by content
/// (see [`looks_like_xml`]). A malformed `.sbeir` is reported as an error diagnostic of rule
/// `sbeir`, so callers report both kinds of input the same way.
pub fn compile_any_file(path: &Path, options: &Options) -> Compiled {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        // The compiler produces its usual located I/O diagnostic.
        Err(_) => return compile_file(path, options),
    };
    if looks_like_xml(&bytes) {
        return compile_file(path, options);
    }
    match sbekit_ir::sbeir::decode(&bytes) {
        Ok(ir) => Compiled {
            ir: Some(ir),
            diagnostics: Vec::new(),
        },
        Err(e) => Compiled {
            ir: None,
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                rule: "sbeir",
                message: e.to_string(),
                location: Some(Location {
                    file: path.display().to_string().into(),
                    line: 1,
                    column: 1,
                }),
            }],
        },
    }
}

/// Compiles schema text; `name` is used in diagnostics and XIncludes resolve relative to it.
pub fn compile_str(text: &str, name: &str, options: &Options) -> Compiled {
    compile(xml::Source::Text { name, text }, options)
}

fn compile(source: xml::Source<'_>, options: &Options) -> Compiled {
    let mut sink = diag::Sink::default();
    let ir = xml::load(source, &mut sink)
        .and_then(|root| parse::parse_schema(&root, &mut sink))
        .and_then(|schema| irgen::generate(&schema, &mut sink));
    let fatal = sink.has_errors() || (options.warnings_as_errors && !sink.items.is_empty());
    Compiled {
        ir: if fatal { None } else { ir },
        diagnostics: sink.items,
    }
}

/// Why [`load_ir`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The `.sbeir` file is malformed.
    #[error("{path}: {source}")]
    Ir {
        /// The file.
        path: String,
        /// The cause.
        source: sbekit_ir::IrError,
    },
    /// The XML schema has errors (each diagnostic is listed).
    #[error("{} has errors:\n{}", path, diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Schema {
        /// The file.
        path: String,
        /// Every diagnostic, errors and warnings.
        diagnostics: Vec<Diagnostic>,
    },
}

/// Loads IR from an XML schema or a reference-format `.sbeir` file, told apart by content.
///
/// XML starts with `<` (after optional whitespace or a byte-order mark); anything else is read
/// as `.sbeir`. Warnings of an otherwise valid schema are dropped here; use [`compile_file`]
/// to see them.
pub fn load_ir(path: &Path) -> Result<Ir, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.display().to_string(),
        source,
    })?;
    if looks_like_xml(&bytes) {
        let compiled = compile_file(path, &Options::default());
        return compiled.ir.ok_or_else(|| LoadError::Schema {
            path: path.display().to_string(),
            diagnostics: compiled.diagnostics,
        });
    }
    sbekit_ir::sbeir::decode(&bytes).map_err(|source| LoadError::Ir {
        path: path.display().to_string(),
        source,
    })
}

/// Loads a schema (XML or `.sbeir`, as [`load_ir`]) and builds its checked layout model.
pub fn load_layout(path: &Path) -> Result<sbekit_ir::layout::Layout, LoadError> {
    let ir = load_ir(path)?;
    sbekit_ir::layout::Layout::from_ir(&ir).map_err(|source| LoadError::Ir {
        path: path.display().to_string(),
        source,
    })
}

/// True if `bytes` start like an XML document.
pub fn looks_like_xml(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'<')
}
