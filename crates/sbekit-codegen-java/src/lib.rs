//! Java code generation for SBE schemas.
//!
//! [`generate`] renders a schema's codec plan ([`sbekit_plan::Plan`]) as a Maven module
//! (`pom.xml`, Java 17, Agrona [`AGRONA_VERSION`] pinned) with sources under
//! `src/main/java/<package path>/`: flyweights over Agrona's `DirectBuffer` and
//! `MutableDirectBuffer`. A message decoder's `wrap` walks the plan's [`sbekit_plan::Check`]s
//! once (every block length, group count and var-data length) and throws the package's
//! `SbeDecodeException` (kind, byte offset, element path) for malformed input; after it,
//! accessors read fixed offsets without further checks. Encoders are fluent, keep group counts,
//! enforce the section order and write skipped sections empty. `appendJson(StringBuilder)`
//! prints what `sbekit decode` prints. `src/test/java/<package path>/SbeConformance.java` is the
//! program `sbekit conformance --lang java` runs.
//!
//! Offsets, versions and validation all come from the plan: the generator never reads the
//! layout or IR tokens.
//!
//! The flyweights are rendered by `sbekit_codegen_managed`, the renderer Java and C# share,
//! through this crate's Java dialect; the crate adds what only Java has (its names' word lists,
//! `SbeSchema`, enums, the runtime, the build files and the conformance program).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod dialect;
mod names;
mod package;
mod prim;
mod types;

use sbekit_codegen_managed::dotted_identifiers;
use sbekit_codegen_managed::{dispatcher::dispatcher, messages::messages, Ctx};
use sbekit_plan::package::{render_layout, write_files};
use sbekit_plan::Plan;
use std::path::{Path, PathBuf};

pub use names::java_package;

/// The Agrona release generated modules depend on (pinned in their `pom.xml`; Java 17+).
pub const AGRONA_VERSION: &str = "2.6.0";

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The Java package (default: [`java_package`] of the schema's package).
    pub package: Option<String>,
}

pub use sbekit_plan::package::{GenError, GeneratedFile};

/// True if `p` is a valid Java package name: dot-separated identifiers, none a keyword.
pub fn valid_package(p: &str) -> bool {
    dotted_identifiers(p, &['$'], |s| {
        !sbekit_plan::Language::Java.is_reserved(s) && !matches!(s, "true" | "false" | "null" | "_")
    })
}

/// Generates the module's files from a codec plan.
pub fn generate(plan: &Plan, opts: &Options) -> Result<Vec<GeneratedFile>, GenError> {
    if let Some(p) = &opts.package {
        if !valid_package(p) {
            return Err(GenError::Option(format!(
                "`{p}` is not a Java package name (dot-separated identifiers, no keywords)"
            )));
        }
    }
    let n = names::names(plan, opts);
    let ctx = Ctx {
        plan,
        n: &n,
        d: &dialect::Java,
    };
    let dir = n.package.replace('.', "/");
    let main = format!("src/main/java/{dir}");
    let test = format!("src/test/java/{dir}");
    let mut out = Vec::new();
    let mut file = |p: String, text: String| {
        out.push(GeneratedFile {
            path: PathBuf::from(p),
            text,
        })
    };
    file("pom.xml".into(), package::pom(&ctx));
    file("README.md".into(), package::readme(&ctx));
    for (name, text) in RUNTIME {
        file(
            format!("{main}/{name}"),
            text.replace("__PACKAGE__", &n.package),
        );
    }
    file(format!("{main}/SbeSchema.java"), types::schema(&ctx));
    for (name, text) in sbekit_codegen_managed::types::types(&ctx) {
        file(format!("{main}/{name}.java"), text);
    }
    for (name, text) in messages(&ctx) {
        file(format!("{main}/{name}.java"), text);
    }
    let dn = names::dto_names(plan, &n);
    for (name, text) in sbekit_codegen_managed::dto::dtos(&ctx, &dn) {
        file(format!("{main}/{name}.java"), text);
    }
    file(format!("{main}/SbeDispatcher.java"), dispatcher(&ctx));
    file(
        format!("{test}/SbeConformance.java"),
        package::conformance(&ctx, &dn),
    );
    Ok(out)
}

/// The package-independent Java sources every module carries (`__PACKAGE__` is replaced).
const RUNTIME: [(&str, &str); 4] = [
    (
        "SbeDecodeException.java",
        include_str!("../runtime/SbeDecodeException.java"),
    ),
    (
        "SbeEncodeException.java",
        include_str!("../runtime/SbeEncodeException.java"),
    ),
    (
        "SbeMessageDecoder.java",
        include_str!("../runtime/SbeMessageDecoder.java"),
    ),
    ("SbeJson.java", include_str!("../runtime/SbeJson.java")),
];

/// Generates the module's files from a layout (through its plan).
pub fn generate_layout(
    layout: &sbekit_ir::layout::Layout,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, GenError> {
    render_layout(layout, |plan| generate(plan, opts))
}

/// Writes the module into `dir` (created if needed).
pub fn write_package(
    layout: &sbekit_ir::layout::Layout,
    dir: &Path,
    opts: &Options,
) -> Result<(), GenError> {
    write_files(dir, &generate_layout(layout, opts)?)
}

/// The Agrona jar in the local Maven repository (`~/.m2`), if it is there.
pub fn agrona_jar() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let p = Path::new(&home).join(format!(
        ".m2/repository/org/agrona/agrona/{v}/agrona-{v}.jar",
        v = AGRONA_VERSION
    ));
    p.is_file().then_some(p)
}
