//! C++ code generation for SBE schemas.
//!
//! [`generate`] renders a schema's codec plan ([`sbekit_plan::Plan`]) as a header-only C++17
//! library: `include/<package>/` holds a small runtime (`sbekit_runtime.hpp`), the schema's types
//! (`types.hpp`), the message codecs (`messages.hpp`), a JSON printer and re-encoder
//! (`json.hpp`), an umbrella header (`<package>.hpp`), and owned values (`owned.hpp`: a struct per
//! message, group entry and composite holding its values in `std::string`s and `std::vector`s,
//! which allocates and so is not in the umbrella header); `CMakeLists.txt` defines the INTERFACE
//! target `<package>::sbe`; `examples/sbe_conformance.cpp` is the program `sbekit conformance`
//! builds. The code follows the Rust generator's rules: one check up front (`decode` walks the
//! plan's [`sbekit_plan::Check`]s and returns a `Result` carrying the error kind, byte offset and
//! element path), after which accessors cannot fail; no exceptions, RTTI or heap; loads and
//! stores through `std::memcpy`; both byte orders.
//!
//! Offsets, versions and validation all come from the plan: the generator never reads the
//! layout or IR tokens.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decoders;
mod encoders;
mod fields;
mod json;
mod messages;
mod names;
mod owned;
mod package;
mod prim;
mod types;

use sbekit_plan::Plan;
use std::path::{Path, PathBuf};

pub use names::package_dir;

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The directory under `include/` and the C++ namespace (default: [`package_dir`]).
    pub package: Option<String>,
}

pub use sbekit_plan::package::{GenError, GeneratedFile};

/// The runtime header every generated library carries (identical in every package).
pub const RUNTIME_HPP: &str = include_str!("../runtime/sbekit_runtime.hpp");

/// The header files of a generated library, relative to its `include/<package>/` directory,
/// each of which compiles on its own.
/// (`PACKAGE.hpp` stands for the umbrella header, named after the package.)
pub const HEADERS: [&str; 7] = [
    "sbekit_runtime.hpp",
    "types.hpp",
    "messages.hpp",
    "json.hpp",
    "PACKAGE.hpp",
    "conformance.hpp",
    "owned.hpp",
];

/// Generates the library's files from a codec plan.
pub fn generate(plan: &Plan, opts: &Options) -> Vec<GeneratedFile> {
    let n = sbekit_plan::names::assign(plan, &names::Cpp, opts.package.as_deref());
    let ctx = Ctx { plan, n: &n };
    let inc = format!("include/{}", n.package);
    let file = |p: String, text: String| GeneratedFile {
        path: PathBuf::from(p),
        text,
    };
    vec![
        file(format!("{inc}/sbekit_runtime.hpp"), RUNTIME_HPP.to_string()),
        file(format!("{inc}/types.hpp"), types::types_hpp(&ctx)),
        file(format!("{inc}/messages.hpp"), messages::messages_hpp(&ctx)),
        file(format!("{inc}/json.hpp"), json::json_hpp(&ctx)),
        file(
            format!("{inc}/{}.hpp", n.package),
            package::umbrella_hpp(&ctx),
        ),
        file(
            format!("{inc}/conformance.hpp"),
            package::conformance_hpp(&ctx),
        ),
        file(format!("{inc}/owned.hpp"), owned::owned_hpp(&ctx)),
        file("CMakeLists.txt".into(), package::cmake_lists(&ctx)),
        file("README.md".into(), package::readme(&ctx)),
        file(
            "examples/sbe_conformance.cpp".into(),
            package::conformance_cpp(&ctx),
        ),
    ]
}

/// Generates the library's files from a layout (through its plan).
pub fn generate_layout(
    layout: &sbekit_ir::layout::Layout,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, GenError> {
    sbekit_plan::package::render_layout(layout, |plan| Ok(generate(plan, opts)))
}

/// Writes the library into `dir` (created if needed).
pub fn write_package(
    layout: &sbekit_ir::layout::Layout,
    dir: &Path,
    opts: &Options,
) -> Result<(), GenError> {
    sbekit_plan::package::write_files(dir, &generate_layout(layout, opts)?)
}

/// What the emitters share: the plan and the names chosen for it.
pub(crate) struct Ctx<'a> {
    pub plan: &'a Plan,
    pub n: &'a sbekit_plan::names::PlanNames,
}

impl Ctx<'_> {
    /// `true` when the schema is big-endian (the runtime's `load<T, BIG>` argument).
    pub fn big(&self) -> &'static str {
        if self.plan.byte_order == sbekit_ir::ByteOrder::BigEndian {
            "true"
        } else {
            "false"
        }
    }
}

/// A text buffer with indentation.
#[derive(Default)]
pub(crate) struct Out {
    pub s: String,
    indent: usize,
}

impl Out {
    /// Writes one line; a line ending in `{` indents the next, one starting with `}` outdents.
    pub fn line(&mut self, text: &str) {
        let t = text.trim();
        if t.starts_with('}') {
            self.indent = self.indent.saturating_sub(1);
        }
        if !t.is_empty() {
            for _ in 0..self.indent {
                self.s.push_str("    ");
            }
            self.s.push_str(t);
        }
        self.s.push('\n');
        if t.ends_with('{') {
            self.indent += 1;
        }
    }

    /// Writes a `///` comment (one per line of `text`).
    pub fn doc(&mut self, text: &str) {
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.line(&format!("/// {l}"));
        }
    }
}
