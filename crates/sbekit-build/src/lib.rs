//! Generate SBE codecs from a build script, like `prost-build`.
//!
//! ```no_run
//! // build.rs
//! sbekit_build::Config::new()
//!     .compile(&["schemas/car.sbeir"])
//!     .expect("SBE code generation failed");
//! ```
//!
//! ```ignore
//! // src/lib.rs: one module per schema, named after the schema's package.
//! pub mod car {
//!     include!(concat!(env!("OUT_DIR"), "/baseline.rs"));
//! }
//! ```
//!
//! The crate needs `sbekit-runtime` as a dependency. Files are written atomically and only
//! when their contents change, and `cargo:rerun-if-changed` is printed for every input.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use sbekit_codegen::KeywordStyle;
use sbekit_codegen::{GenError, Options};
use sbekit_ir::Ir;
use std::path::{Path, PathBuf};

/// A loader turning a schema file into IR (for XML schemas, pass `sbekit_schema::load_ir`).
pub type Loader = fn(&Path) -> Result<Ir, String>;

/// Code generation settings for a build script.
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    options: Options,
    loader: Option<Loader>,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// Default settings: output to `OUT_DIR`, runtime at `::sbekit_runtime`, rustfmt on.
    pub fn new() -> Self {
        Config {
            out_dir: None,
            options: Options::default(),
            loader: None,
        }
    }

    /// Writes into `dir` instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The path generated code uses for the runtime crate (e.g. a re-export).
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.runtime_path = path.into();
        self
    }

    /// Whether to run rustfmt over the output.
    pub fn rustfmt(&mut self, on: bool) -> &mut Self {
        self.options.rustfmt = on;
        self
    }

    /// How schema names that are Rust keywords become identifiers (default: raw identifiers).
    pub fn keywords(&mut self, style: KeywordStyle) -> &mut Self {
        self.options.keywords = style;
        self
    }

    /// How to read schema files that are not `.sbeir` (e.g. `sbekit_schema::load_ir` for XML).
    pub fn loader(&mut self, loader: Loader) -> &mut Self {
        self.loader = Some(loader);
        self
    }

    /// Generates one module per schema; returns the paths written.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, GenError> {
        let out = self.out()?;
        let mut written = Vec::new();
        for s in schemas {
            let path = s.as_ref();
            println!("cargo:rerun-if-changed={}", path.display());
            let ir = self.load(path)?;
            written.push(sbekit_codegen::write_module(&ir, &out, &self.options)?);
        }
        Ok(written)
    }

    /// Generates the module for one schema into `file_name` (e.g. `car.rs`) under the output
    /// directory, for when two schemas share a package name; returns the path written.
    pub fn compile_as(&self, schema: &Path, file_name: &str) -> Result<PathBuf, GenError> {
        println!("cargo:rerun-if-changed={}", schema.display());
        let ir = self.load(schema)?;
        let text = sbekit_codegen::generate(&ir, &self.options)?;
        let path = self.out()?.join(file_name);
        sbekit_codegen::write_atomic(&path, &text)?;
        Ok(path)
    }

    fn out(&self) -> Result<PathBuf, GenError> {
        match &self.out_dir {
            Some(d) => Ok(d.clone()),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    GenError::Unsupported("OUT_DIR is not set (not in a build script?)".into())
                }),
        }
    }

    /// Reads one schema file into IR.
    pub fn load(&self, path: &Path) -> Result<Ir, GenError> {
        let err = |m: String| GenError::Unsupported(format!("{}: {m}", path.display()));
        if path.extension().is_some_and(|e| e == "sbeir") {
            let bytes = std::fs::read(path).map_err(|e| GenError::Io(path.to_path_buf(), e))?;
            return sbekit_ir::sbeir::decode(&bytes).map_err(|e| err(e.to_string()));
        }
        match self.loader {
            Some(load) => load(path).map_err(err),
            None => Err(err(
                "no loader for this kind of schema file; set Config::loader".into(),
            )),
        }
    }
}

/// Generates modules for `schemas` into `OUT_DIR` with default settings.
pub fn compile(schemas: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, GenError> {
    Config::new().compile(schemas)
}
