//! C code generation for SBE schemas.
//!
//! [`generate`] renders a schema's codec plan ([`sbekit_plan::Plan`]) as a header-only C11
//! library of `static inline` functions: `include/<prefix>/` holds a small runtime
//! (`sbekit_rt.h`, identical in every package), the schema's types (`types.h`), the message
//! codecs (`messages.h`), a JSON printer and re-encoder (`json.h`), owned values (`owned.h`: a
//! plain struct per message, group entry and composite, groups and var data copied into a
//! caller-supplied arena, and a `validate` against the schema), an umbrella header (`<prefix>.h`)
//! and the conformance program's logic (`conformance.h`);
//! `examples/sbe_conformance.c` is the program `sbekit conformance` builds. Every identifier
//! starts with the prefix (the schema package in snake case, C has no namespaces).
//!
//! The code follows the C++ generator's rules: one check up front (`<msg>_dec_decode` walks the
//! plan's [`sbekit_plan::Check`]s and returns 0 or an error kind, with the byte offset and
//! element path in a caller-provided `sbekit_error`), after which accessors cannot fail; no
//! `malloc` and nothing beyond libc; loads and stores through `memcpy`; both byte orders. JSON
//! goes into a caller-provided buffer, snprintf-style (the length needed is returned).
//!
//! Offsets, versions and validation all come from the plan: the generator never reads the
//! layout or IR tokens.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

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

pub use names::package_prefix;

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The identifier prefix and the directory under `include/` (default: [`package_prefix`]).
    /// Must be a valid C identifier in lower case.
    pub package: Option<String>,
}

pub use sbekit_plan::package::{GenError, GeneratedFile};

/// The runtime header every generated library carries (identical in every package).
pub const RUNTIME_H: &str = include_str!("../runtime/sbekit_rt.h");

/// The header files of a generated library, relative to its `include/<prefix>/` directory, each
/// of which compiles on its own. (`PACKAGE.h` stands for the umbrella header, named after the
/// prefix.)
pub const HEADERS: [&str; 7] = [
    "sbekit_rt.h",
    "types.h",
    "messages.h",
    "json.h",
    "owned.h",
    "PACKAGE.h",
    "conformance.h",
];

/// Generates the library's files from a codec plan.
pub fn generate(plan: &Plan, opts: &Options) -> Vec<GeneratedFile> {
    let (n, mut top) = sbekit_plan::names::assign_scoped(plan, &names::C, opts.package.as_deref());
    let owned = names::owned(plan, &n, &mut top);
    let ctx = Ctx::new(plan, &n, &owned);
    let inc = format!("include/{}", n.package);
    let file = |p: String, text: String| GeneratedFile {
        path: PathBuf::from(p),
        text,
    };
    vec![
        file(format!("{inc}/sbekit_rt.h"), RUNTIME_H.to_string()),
        file(format!("{inc}/types.h"), types::types_h(&ctx)),
        file(format!("{inc}/messages.h"), messages::messages_h(&ctx)),
        file(format!("{inc}/json.h"), json::json_h(&ctx)),
        file(format!("{inc}/owned.h"), owned::owned_h(&ctx)),
        file(format!("{inc}/{}.h", n.package), package::umbrella_h(&ctx)),
        file(format!("{inc}/conformance.h"), package::conformance_h(&ctx)),
        file("README.md".into(), package::readme(&ctx)),
        file(
            "examples/sbe_conformance.c".into(),
            package::conformance_c(&ctx),
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
    /// The owned values' names.
    pub owned: &'a names::OwnedNames,
    /// The package prefix in upper case (for macros).
    pub up: String,
}

impl<'a> Ctx<'a> {
    fn new(
        plan: &'a Plan,
        n: &'a sbekit_plan::names::PlanNames,
        owned: &'a names::OwnedNames,
    ) -> Ctx<'a> {
        Ctx {
            plan,
            n,
            owned,
            up: n.package.to_ascii_uppercase(),
        }
    }

    /// `le` or `be`: the runtime's load and store suffix for the schema's byte order.
    pub fn order(&self) -> &'static str {
        if self.plan.byte_order == sbekit_ir::ByteOrder::BigEndian {
            "be"
        } else {
            "le"
        }
    }

    /// The include guard of a header.
    pub fn guard(&self, file: &str) -> String {
        format!("{}_{}_H", self.up, file.to_ascii_uppercase())
    }

    /// A header's first lines: the notice, the guard of `file` (returned, for its last line)
    /// and the headers it includes.
    pub fn open_header(&self, o: &mut Out, file: &str, includes: &[&str]) -> String {
        let g = self.guard(file);
        o.line("// Generated by sbekit. Do not edit.");
        o.line(&format!("#ifndef {g}"));
        o.line(&format!("#define {g}"));
        o.line("");
        for h in includes {
            o.line(&format!("#include \"{h}.h\""));
        }
        o.line("");
        g
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

    /// Writes a `//` comment (one per line of `text`).
    pub fn doc(&mut self, text: &str) {
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.line(&format!("// {l}"));
        }
    }
}
