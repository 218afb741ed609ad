//! Generate SBE codecs from a build script, like `prost-build`.
//!
//! ```no_run
//! // build.rs: XML schemas and `.sbeir` files alike
//! sbekit_build::Config::new()
//!     .compile(&["schemas/car.xml"])
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
//! The crate needs `sbekit-runtime` as a dependency. Files start with an `@generated` comment,
//! are written atomically and only when their contents change, and `cargo:rerun-if-changed` is
//! printed for every input. The output is laid out by `prettyplease` and needs no rustfmt;
//! [`Config::rustfmt`] opts into the machine's rustfmt layout instead, and when rustfmt cannot
//! run a `cargo:warning` says so (the output then keeps prettyplease's layout).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use sbekit_codegen::KeywordStyle;
use sbekit_codegen::{GenError, Options};
use sbekit_ir::layout::Layout;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a schema could not be turned into code.
#[derive(Debug)]
pub enum Error {
    /// The schema could not be read or has errors.
    Load(sbekit_schema::LoadError),
    /// Generating or writing the code failed.
    Generate {
        /// The schema.
        schema: PathBuf,
        /// The cause.
        source: GenError,
    },
    /// `OUT_DIR` is not set and no output directory was given.
    NoOutDir,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Load(e) => write!(f, "cannot load SBE schema: {e}"),
            Error::Generate { schema, source } => write!(f, "{}: {source}", schema.display()),
            Error::NoOutDir => {
                f.write_str("OUT_DIR is not set (not in a build script?); set Config::out_dir")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Load(e) => Some(e),
            Error::Generate { source, .. } => Some(source),
            Error::NoOutDir => None,
        }
    }
}

/// Code generation settings for a build script.
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    options: Options,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// Default settings: output to `OUT_DIR`, runtime at `::sbekit_runtime`, prettyplease's
    /// layout (no rustfmt).
    pub fn new() -> Self {
        Config {
            out_dir: None,
            options: Options::default(),
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

    /// Whether to run rustfmt over the output (default off: the output is already formatted,
    /// by prettyplease, the same on every machine).
    pub fn rustfmt(&mut self, on: bool) -> &mut Self {
        self.options.rustfmt = on;
        self
    }

    /// Whether the owned values also derive serde's `Serialize` and `Deserialize`, behind
    /// `#[cfg_attr(feature = "serde", ...)]` (default off): the crate that includes the modules
    /// then declares a `serde` feature enabling its `serde` dependency.
    pub fn serde(&mut self, on: bool) -> &mut Self {
        self.options.serde = on;
        self
    }

    /// How schema names that are Rust keywords become identifiers (default: raw identifiers).
    pub fn keywords(&mut self, style: KeywordStyle) -> &mut Self {
        self.options.keywords = style;
        self
    }

    /// Generates one module per schema (XML or `.sbeir`), each named after its package;
    /// returns the paths written.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, Error> {
        let mut written = Vec::new();
        for s in schemas {
            let path = s.as_ref();
            let layout = self.load(path)?;
            let file = format!("{}.rs", sbekit_codegen::module_name_of(&layout.package));
            written.push(self.write(path, &layout, &file)?);
        }
        Ok(written)
    }

    /// Generates the module for one schema into `file_name` (e.g. `car.rs`) under the output
    /// directory, for when two schemas share a package name; returns the path written.
    pub fn compile_as(&self, schema: &Path, file_name: &str) -> Result<PathBuf, Error> {
        let layout = self.load(schema)?;
        self.write(schema, &layout, file_name)
    }

    /// Reads one schema (XML or `.sbeir`, told apart by content) into its layout.
    pub fn load(&self, path: &Path) -> Result<Layout, Error> {
        println!("cargo:rerun-if-changed={}", path.display());
        sbekit_schema::load_layout(path).map_err(Error::Load)
    }

    fn write(&self, schema: &Path, layout: &Layout, file_name: &str) -> Result<PathBuf, Error> {
        let gen = |source| Error::Generate {
            schema: schema.to_path_buf(),
            source,
        };
        let mut opts = self.options.clone();
        opts.rustfmt = false;
        let mut text = sbekit_codegen::generate_layout(layout, &opts).map_err(gen)?;
        if self.options.rustfmt {
            match sbekit_codegen::try_format(&text) {
                Ok(formatted) => text = formatted,
                Err(e) => println!(
                    "cargo:warning=sbekit-build: {file_name} keeps prettyplease's layout: {e} (Config::rustfmt(false) silences this)"
                ),
            }
        }
        let out = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let path = out.join(file_name);
        sbekit_codegen::write_atomic(&path, &text).map_err(gen)?;
        Ok(path)
    }
}

/// Generates modules for `schemas` into `OUT_DIR` with default settings.
pub fn compile(schemas: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, Error> {
    Config::new().compile(schemas)
}
