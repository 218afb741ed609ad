//! `sbekit conformance`: checks the codecs a generator writes against the schema-driven decoder.
//!
//! For each schema the generated codecs go into a scratch directory with the conformance program
//! that ships with every generated package (C++: `examples/sbe_conformance.cpp`; TypeScript:
//! `examples/sbe_conformance.mjs`; Rust: `examples/sbe_conformance.rs`; Java:
//! `src/test/java/<package>/SbeConformance.java`; Go: `cmd/sbe_conformance`; C:
//! `examples/sbe_conformance.c`), which is built once for all the schemas of a run (one C++
//! program, one `tsc` run, one cargo build of one crate holding every generated module, one
//! `javac` batch run in one JVM, one `go build` of one module holding a package per schema, one
//! C program) and fed u32le-framed messages in two modes:
//!
//! - `json`: one JSON line per message, which must equal what `sbekit decode --framing u32le`
//!   prints for it, every member included (numbers compared as values; `"$version"` for a
//!   message of an older writer); a message `sbekit decode` refuses must be refused too;
//! - `reencode`: each message decoded and written again by the generated encoders at its acting
//!   version. A message written at the schema's version must come back byte for byte, or, when
//!   its bytes carry what its values cannot (longer blocks, padding, unknown set bits, bytes past
//!   a NUL), as `sbekit encode` writes its values, differing only in bytes shown to carry no
//!   value ([`verdict`] has the rules; `--keep` names the one each message passed by). A
//!   message of another version must decode to the same values, and one of an older version
//!   must carry that version in its header (a field newer than the acting version prints its
//!   null value whether it is absent or written null).
//!
//! Without a messages file the input is random messages (`sbekit_otf::random`) of every message
//! type, written at the schema's version, at every older version, and by a newer writer with
//! longer blocks.

#![warn(missing_docs)]

mod c;
mod capture;
mod cases;
mod cpp;
mod csharp;
mod frames;
mod go;
mod java;
mod program;
mod rust;
mod ts;
pub mod verdict;

pub use c::cc;
pub use capture::{CaptureCounts, Captures};
pub use cpp::cxx;
pub use frames::read_frames;
pub use program::Outputs;

use cases::{random_cases, Case};
use frames::{frame, header_version};
use std::path::PathBuf;
use std::str::FromStr;

/// A target language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// C++ (`sbekit-codegen-cpp`), built with `$CXX`, `c++`, `g++` or `clang++`.
    Cpp,
    /// TypeScript (`sbekit-codegen-ts`), built with `tsc` and run with `node`.
    TypeScript,
    /// Rust (`sbekit-codegen`), built with `cargo` (offline: the runtime is bundled).
    Rust,
    /// Java (`sbekit-codegen-java`), built with one `javac` run and run in one JVM; needs the
    /// Agrona jar in `~/.m2`.
    Java,
    /// Go (`sbekit-codegen-go`), built with `go` (standard library only).
    Go,
    /// C (`sbekit-codegen-c`), built with `$CC`, `cc`, `gcc` or `clang`.
    C,
    /// C# (`sbekit-codegen-csharp`), built with one Mono `mcs` run and run in one `mono`.
    CSharp,
}

impl Lang {
    /// Every language, in the order the summaries list them.
    pub const ALL: [Lang; 7] = [
        Lang::Cpp,
        Lang::Rust,
        Lang::TypeScript,
        Lang::Java,
        Lang::Go,
        Lang::C,
        Lang::CSharp,
    ];

    /// The name used in the summary line and file names (`cpp`, `ts`, `rust`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Cpp => "cpp",
            Lang::TypeScript => "ts",
            Lang::Rust => "rust",
            Lang::Java => "java",
            Lang::Go => "go",
            Lang::C => "c",
            Lang::CSharp => "csharp",
        }
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s {
            "cpp" | "c++" => Ok(Lang::Cpp),
            "ts" | "typescript" => Ok(Lang::TypeScript),
            "rust" => Ok(Lang::Rust),
            "java" => Ok(Lang::Java),
            "go" => Ok(Lang::Go),
            "c" => Ok(Lang::C),
            "csharp" | "cs" | "c#" => Ok(Lang::CSharp),
            other => Err(format!(
                "unknown language `{other}` (cpp, ts, rust, java, go, c or csharp)"
            )),
        }
    }
}

/// What to check.
#[derive(Debug, Clone)]
pub struct Options {
    /// The schemas (XML or `.sbeir`); one program is built for all of them.
    pub schemas: Vec<PathBuf>,
    /// The language whose codecs are checked.
    pub lang: Lang,
    /// u32le-framed messages files, one per schema in order (or none: random messages; see
    /// [`write_messages`] for files of them).
    pub messages: Vec<PathBuf>,
    /// Captures to take the messages from instead, one entry per schema in order (or none).
    pub captures: Vec<Captures>,
    /// Keep `<lang>.jsonl` and `<lang>.reencoded.u32` (and the scratch build) here.
    pub keep: Option<PathBuf>,
    /// Seed of the random messages.
    pub seed: u64,
    /// Random messages per message type at the schema's version (half as many at each other
    /// version).
    pub per_message: usize,
    /// Test hook: called with the scratch directory once every package is generated and before
    /// anything is built, so that a test can break a generated accessor and see the run fail.
    pub tamper: Tamper,
    /// Check the owned values instead of the flyweights: each message decoded into its owned
    /// value, written again by it, and that printed (decoded again) and framed (every
    /// language has them).
    pub owned: bool,
    /// The TypeScript compiler (default: `$SBEKIT_TSC`, else `tsc` on the PATH). Tests name it
    /// here rather than setting the variable: changing the environment while other threads
    /// start processes once broke a concurrent `cargo build`.
    pub tsc: Option<PathBuf>,
}

/// A function that edits generated code before it is built ([`Options::tamper`]).
pub type Tamper = Option<fn(&std::path::Path)>;

fn tamper_with(dir: &std::path::Path, tamper: Tamper) {
    if let Some(t) = tamper {
        t(dir);
    }
}

impl Options {
    /// Defaults for `schemas` in `lang`: seed 1, 8 messages per type.
    pub fn new(schemas: Vec<PathBuf>, lang: Lang) -> Options {
        Options {
            schemas,
            lang,
            messages: Vec::new(),
            captures: Vec::new(),
            keep: None,
            seed: 1,
            per_message: 8,
            tamper: None,
            owned: false,
            tsc: None,
        }
    }
}

/// Why a run could not complete (disagreements are not errors: see [`Summary`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tool the language needs is not installed (its name, and what to install).
    #[error("{0} not found: {1}")]
    MissingToolchain(String, String),
    /// A schema could not be loaded.
    #[error("{0}: {1}")]
    Schema(PathBuf, String),
    /// The generated code or the conformance program did not build or run.
    #[error("{0}")]
    Build(String),
    /// Bad arguments.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing files.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The result of a run.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Language name.
    pub lang: &'static str,
    /// True when the owned values were checked, not the flyweights.
    pub owned: bool,
    /// Messages checked.
    pub messages: usize,
    /// Messages whose JSON equals `sbekit decode`'s.
    pub json_equal: usize,
    /// Messages of the schema's version re-encoded byte-identically.
    pub reencoded_identical: usize,
    /// Messages of the schema's version whose bytes carry what their values cannot, re-encoded
    /// as `sbekit encode` writes their values, or with their raw text kept (see [`verdict`]).
    pub reencoded_canonical: usize,
    /// Disagreements (JSON or re-encoding).
    pub disagreements: usize,
    /// With captures: what they held beside the schemas' messages.
    pub captures: CaptureCounts,
    /// The first disagreements, described.
    pub examples: Vec<String>,
}

impl Summary {
    /// `conformance <lang>: N messages, J json equal, R reencoded identical, D disagreements`
    /// (`<lang> owned` for the owned values; with `, K reencoded as sbekit encode writes them`
    /// before the disagreements when a message's bytes carried what its values cannot).
    pub fn line(&self) -> String {
        let canonical = if self.reencoded_canonical > 0 {
            format!(
                ", {} reencoded as sbekit encode writes them",
                self.reencoded_canonical
            )
        } else {
            String::new()
        };
        let c = self.captures;
        let other = if c.other_schema + c.bad > 0 {
            format!(
                " ({} messages of other schemas and {} bad packets in the captures, counted)",
                c.other_schema, c.bad
            )
        } else {
            String::new()
        };
        let view = if self.owned { " owned" } else { "" };
        format!(
            "conformance {}{view}: {} messages, {} json equal, {} reencoded identical{canonical}, {} disagreements{other}",
            self.lang, self.messages, self.json_equal, self.reencoded_identical, self.disagreements
        )
    }

    fn disagree(&mut self, what: String) {
        self.disagreements += 1;
        if self.examples.len() < 20 {
            self.examples.push(what);
        }
    }
}

/// Writes the random messages a run without `--messages` would check, one u32le-framed file
/// per schema in `dir` (`NN-<schema file stem>.u32`, in the schemas' order), and returns their
/// paths: each mixes messages at the schema's version (plain and padded), at every older
/// version and from a newer writer with longer blocks, with random set bits (named or not),
/// char arrays with bytes past a NUL, and damaged copies. Nothing is built.
pub fn write_messages(opts: &Options, dir: &std::path::Path) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (i, p) in opts.schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(p).map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let bytes: Vec<u8> = random_cases(&ir, opts.seed.wrapping_add(i as u64), opts.per_message)
            .iter()
            .flat_map(|c| frame(&c.bytes))
            .collect();
        let stem = p.file_stem().unwrap_or_default().to_string_lossy();
        let file = dir.join(format!("{i:02}-{stem}.u32"));
        std::fs::write(&file, bytes)?;
        out.push(file);
    }
    Ok(out)
}

/// One schema of a run, with everything the judge needs.
struct Schema {
    path: PathBuf,
    ir: sbekit_ir::Ir,
    layout: sbekit_ir::layout::Layout,
    decoder: sbekit_otf::Decoder,
    encoder: sbekit_encode::Encoder,
    cases: Vec<Case>,
}

/// Runs the check of the view `opts.owned` names.
pub fn run(opts: &Options) -> Result<Summary, Error> {
    let mut sums = run_views(opts, &[opts.owned])?;
    Ok(sums.remove(0))
}

/// Runs the check once per view (`false`: the flyweights, `true`: the owned values; `opts.owned`
/// is not read) from one build of the program: per view, its summary. Checking both views
/// this way builds once where two runs build twice (the C++ program of 80 schemas takes
/// minutes to compile).
pub fn run_views(opts: &Options, views: &[bool]) -> Result<Vec<Summary>, Error> {
    if views.is_empty() {
        return Err(Error::Usage("no view to check".into()));
    }
    if opts.schemas.is_empty() {
        return Err(Error::Usage("no schema given".into()));
    }
    if !opts.messages.is_empty() && opts.messages.len() != opts.schemas.len() {
        return Err(Error::Usage(format!(
            "--messages given {} for {} schemas: give one file per --schema, in the same order",
            match opts.messages.len() {
                1 => "once".to_string(),
                n => format!("{n} times"),
            },
            opts.schemas.len()
        )));
    }
    if !opts.captures.is_empty()
        && (opts.captures.len() != opts.schemas.len() || !opts.messages.is_empty())
    {
        return Err(Error::Usage(
            "captures take the place of --messages, one set of files per schema".into(),
        ));
    }
    let mut counts = CaptureCounts::default();
    let mut schemas = Vec::new();
    for (i, p) in opts.schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(p).map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let layout = sbekit_ir::layout::Layout::from_ir(&ir)
            .map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let decoder =
            sbekit_otf::Decoder::new(&ir).map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let cases = match opts.messages.get(i) {
            Some(f) => {
                let bytes =
                    std::fs::read(f).map_err(|e| Error::Usage(format!("{}: {e}", f.display())))?;
                read_frames(&bytes)
                    .map_err(|e| Error::Usage(format!("{}: {e}", f.display())))?
                    .into_iter()
                    .map(|bytes| Case {
                        current: header_version(&layout, &bytes) == Some(u64::from(layout.version)),
                        bytes,
                    })
                    .collect()
            }
            None => match opts.captures.get(i) {
                Some(c) => {
                    let (cases, n) = capture::capture_cases(&decoder, c)?;
                    counts.other_schema += n.other_schema;
                    counts.bad += n.bad;
                    cases
                }
                None => random_cases(&ir, opts.seed.wrapping_add(i as u64), opts.per_message),
            },
        };
        let encoder = sbekit_encode::Encoder::new(&layout);
        schemas.push(Schema {
            path: p.clone(),
            ir,
            layout,
            decoder,
            encoder,
            cases,
        });
    }
    let tmp;
    let scratch = match &opts.keep {
        Some(k) => {
            std::fs::create_dir_all(k)?;
            k.join(format!("{}-build", opts.lang.name()))
        }
        None => {
            tmp = tempfile::tempdir()?;
            tmp.path().to_path_buf()
        }
    };
    std::fs::create_dir_all(&scratch)?;
    let inputs: Vec<Vec<u8>> = schemas
        .iter()
        .map(|s| s.cases.iter().flat_map(|c| frame(&c.bytes)).collect())
        .collect();
    let per_view = match opts.lang {
        Lang::Java => java::run_all(&scratch, &schemas, &inputs, opts.tamper, views)?,
        Lang::Cpp => cpp::build_cpp(&scratch, &schemas, opts.tamper)?.run_views(views, &inputs)?,
        Lang::TypeScript => ts::build_ts(&scratch, &schemas, opts.tamper, opts.tsc.as_deref())?
            .run_views(views, &inputs)?,
        Lang::Rust => {
            rust::build_rust(&scratch, &schemas, opts.tamper)?.run_views(views, &inputs)?
        }
        Lang::Go => go::build_go(&scratch, &schemas, opts.tamper)?.run_views(views, &inputs)?,
        Lang::C => c::build_c(&scratch, &schemas, opts.tamper)?.run_views(views, &inputs)?,
        Lang::CSharp => csharp::run_all(&scratch, &schemas, &inputs, opts.tamper, views)?,
    };
    let mut sums = Vec::new();
    for (&owned, outputs) in views.iter().zip(per_view) {
        let mut sum = Summary {
            lang: opts.lang.name(),
            owned,
            captures: counts,
            ..Summary::default()
        };
        let (mut jsonl, mut reenc, mut rules) = (Vec::new(), Vec::new(), String::new());
        for (s, (json, re)) in schemas.iter().zip(outputs) {
            jsonl.extend_from_slice(&json);
            reenc.extend_from_slice(&re);
            rules.push_str(&verdict::judge_all(s, &json, &re, &mut sum));
        }
        if let Some(k) = &opts.keep {
            // The owned values' files carry `-owned` when both views are checked.
            let lang = match (owned, views.len()) {
                (true, 2..) => format!("{}-owned", opts.lang.name()),
                _ => opts.lang.name().to_string(),
            };
            std::fs::write(k.join(format!("{lang}.jsonl")), &jsonl)?;
            std::fs::write(k.join(format!("{lang}.reencoded.u32")), &reenc)?;
            // The rule each message passed by (or DISAGREE), one line each.
            std::fs::write(
                k.join(format!("{lang}.rules.tsv")),
                format!("schema\tmessage\trule\tdetail\n{rules}"),
            )?;
        }
        sums.push(sum);
    }
    Ok(sums)
}
