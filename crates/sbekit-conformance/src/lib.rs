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
//!   prints for it (numbers compared as values; a top-level `"$version"` member, which `sbekit
//!   decode` prints for messages of another version than the schema's, is ignored; a message
//!   `sbekit decode` refuses must be refused too);
//! - `reencode`: each message decoded and written again by the generated encoders at its acting
//!   version. A message written at the schema's version must come back byte-identical with its
//!   padding zeroed: each byte equal to the input's or to what `sbekit encode` writes for its
//!   JSON (padding zeroed, but unknown set bits dropped, which generated encoders keep); a
//!   message of another version must decode to the same JSON, and one of an older version must
//!   carry that version in its header (the JSON alone cannot tell: a field newer than the
//!   acting version prints its null value whether it is absent or written null).
//!
//! Without a messages file the input is random messages (`sbekit_otf::random`) of every message
//! type, written at the schema's version, at every older version, and by a newer writer with
//! longer blocks.

#![warn(missing_docs)]

mod c;
mod cases;
mod go;
pub use c::cc;

use cases::{random_cases, Case};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;

mod csharp;
mod java;

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
    /// A u32le-framed messages file (only with one schema); default: random messages.
    pub messages: Option<PathBuf>,
    /// Keep `<lang>.jsonl` and `<lang>.reencoded.u32` (and the scratch build) here.
    pub keep: Option<PathBuf>,
    /// Seed of the random messages.
    pub seed: u64,
    /// Random messages per message type at the schema's version (half as many at each other
    /// version).
    pub per_message: usize,
}

impl Options {
    /// Defaults for `schemas` in `lang`: seed 1, 8 messages per type.
    pub fn new(schemas: Vec<PathBuf>, lang: Lang) -> Options {
        Options {
            schemas,
            lang,
            messages: None,
            keep: None,
            seed: 1,
            per_message: 8,
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
    /// Messages checked.
    pub messages: usize,
    /// Messages whose JSON equals `sbekit decode`'s.
    pub json_equal: usize,
    /// Messages of the schema's version re-encoded byte-identically.
    pub reencoded_identical: usize,
    /// Disagreements (JSON or re-encoding).
    pub disagreements: usize,
    /// The first disagreements, described.
    pub examples: Vec<String>,
}

impl Summary {
    /// `conformance <lang>: N messages, J json equal, R reencoded identical, D disagreements`.
    pub fn line(&self) -> String {
        format!(
            "conformance {}: {} messages, {} json equal, {} reencoded identical, {} disagreements",
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

struct Schema {
    path: PathBuf,
    ir: sbekit_ir::Ir,
    layout: sbekit_ir::layout::Layout,
    decoder: sbekit_otf::Decoder,
    encoder: sbekit_encode::Encoder,
    cases: Vec<Case>,
}

/// Runs the check.
pub fn run(opts: &Options) -> Result<Summary, Error> {
    if opts.schemas.is_empty() {
        return Err(Error::Usage("no schema given".into()));
    }
    if opts.messages.is_some() && opts.schemas.len() != 1 {
        return Err(Error::Usage(
            "--messages takes the messages of one schema".into(),
        ));
    }
    let mut schemas = Vec::new();
    for (i, p) in opts.schemas.iter().enumerate() {
        let ir = sbekit_schema::load_ir(p).map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let layout = sbekit_ir::layout::Layout::from_ir(&ir)
            .map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let decoder =
            sbekit_otf::Decoder::new(&ir).map_err(|e| Error::Schema(p.clone(), e.to_string()))?;
        let cases = match &opts.messages {
            Some(f) => read_frames(&std::fs::read(f)?)
                .map_err(|e| Error::Usage(format!("{}: {e}", f.display())))?
                .into_iter()
                .map(|bytes| Case {
                    current: header_version(&layout, &bytes) == Some(u64::from(layout.version)),
                    bytes,
                })
                .collect(),
            None => random_cases(&ir, opts.seed.wrapping_add(i as u64), opts.per_message),
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
    let outputs = match opts.lang {
        Lang::Java => java::run_all(&scratch, &schemas, &inputs)?,
        Lang::Cpp => build_cpp(&scratch, &schemas)?.run_each(&inputs)?,
        Lang::TypeScript => build_ts(&scratch, &schemas)?.run_each(&inputs)?,
        Lang::Rust => build_rust(&scratch, &schemas)?.run_each(&inputs)?,
        Lang::Go => go::build_go(&scratch, &schemas)?.run_each(&inputs)?,
        Lang::C => c::build_c(&scratch, &schemas)?.run_each(&inputs)?,
        Lang::CSharp => csharp::run_all(&scratch, &schemas, &inputs)?,
    };
    let mut sum = Summary {
        lang: opts.lang.name(),
        ..Summary::default()
    };
    let mut jsonl = Vec::new();
    let mut reenc = Vec::new();
    for (s, (json, re)) in schemas.iter().zip(outputs) {
        jsonl.extend_from_slice(&json);
        reenc.extend_from_slice(&re);
        compare(s, &json, &re, &mut sum);
    }
    if let Some(k) = &opts.keep {
        std::fs::write(k.join(format!("{}.jsonl", opts.lang.name())), &jsonl)?;
        std::fs::write(
            k.join(format!("{}.reencoded.u32", opts.lang.name())),
            &reenc,
        )?;
    }
    Ok(sum)
}

fn frame(b: &[u8]) -> Vec<u8> {
    let mut v = (b.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(b);
    v
}

/// Splits a u32le-framed stream.
pub fn read_frames(b: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut p = 0;
    while p < b.len() {
        let Some(h) = b.get(p..p + 4) else {
            return Err(format!("truncated frame length at byte {p}"));
        };
        let n = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
        let Some(m) = b.get(p + 4..p + 4 + n) else {
            return Err(format!("frame at byte {p} declares {n} bytes past the end"));
        };
        out.push(m.to_vec());
        p += 4 + n;
    }
    Ok(out)
}

fn read_slot(
    l: &sbekit_ir::layout::Layout,
    s: &sbekit_ir::layout::IntSlot,
    b: &[u8],
) -> Option<u64> {
    if let Some(c) = s.constant {
        return Some(c);
    }
    let w = s.ty.size();
    let bytes = b.get(s.offset..s.offset + w)?;
    let mut v = 0u64;
    for k in 0..w {
        let byte = if l.byte_order == sbekit_ir::ByteOrder::BigEndian {
            bytes[k]
        } else {
            bytes[w - 1 - k]
        };
        v = (v << 8) | u64::from(byte);
    }
    Some(v)
}

fn header_version(l: &sbekit_ir::layout::Layout, b: &[u8]) -> Option<u64> {
    read_slot(l, &l.header.version, b)
}

/// True when the message's header names a version older than the schema's (a newer writer's
/// version cannot be written by these codecs: they write theirs, or the header's with their
/// block lengths).
fn older(l: &sbekit_ir::layout::Layout, b: &[u8]) -> bool {
    header_version(l, b).is_some_and(|v| v < u64::from(l.version))
}

/// JSON values equal, numbers compared as values (a float printed in another form, or an
/// integer-valued float printed as an integer, is the same number); a top-level `"$version"`
/// member is ignored.
pub fn same_json(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| match v {
        Value::Object(m) => {
            let mut m = m.clone();
            m.remove("$version");
            Value::Object(m)
        }
        other => other.clone(),
    };
    same(&strip(a), &strip(b))
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(p), Some(q)) = (x.as_i64(), y.as_i64()) {
                return p == q;
            }
            if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
                return p == q;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p == q || p as f32 == q as f32,
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// What `sbekit decode` prints for the message at the start of `b`, or `None` if it refuses
/// it. Bytes after the message's end are the frame's, not the message's: `sbekit decode`
/// skips them as padding, and the generated decoders read the message at the start of the
/// buffer they are given, so both judge the message alone.
fn otf(dec: &sbekit_otf::Decoder, b: &[u8]) -> Option<Value> {
    let (text, _len) = sbekit_otf::message_to_json(dec, b, false).ok()?;
    serde_json::from_str(&text).ok()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn compare(s: &Schema, json: &[u8], re: &[u8], sum: &mut Summary) {
    let name = s.path.display().to_string();
    let text = String::from_utf8_lossy(json);
    let lines: Vec<&str> = text.lines().collect();
    let frames = read_frames(re).unwrap_or_default();
    if lines.len() != s.cases.len() || frames.len() != s.cases.len() {
        sum.messages += s.cases.len();
        sum.disagree(format!(
            "{name}: {} messages in, {} JSON lines and {} re-encoded frames out",
            s.cases.len(),
            lines.len(),
            frames.len()
        ));
        return;
    }
    for (i, c) in s.cases.iter().enumerate() {
        sum.messages += 1;
        let want = otf(&s.decoder, &c.bytes);
        let got: Option<Value> = serde_json::from_str(lines[i]).ok();
        let refused = |g: &Option<Value>| {
            g.as_ref()
                .and_then(|v| v.get("error"))
                .is_some_and(Value::is_string)
        };
        match (&want, &got) {
            (Some(w), Some(g)) if same_json(w, g) => sum.json_equal += 1,
            (None, g) if refused(g) => sum.json_equal += 1,
            _ => {
                sum.disagree(format!(
                    "{name}: message {i} ({}): JSON differs\n  sbekit decode: {}\n  generated:    {}",
                    hex(&c.bytes),
                    want.map_or("(refused)".into(), |w| w.to_string()),
                    lines[i]
                ));
                continue;
            }
        }
        let Some(w) = want else { continue };
        let got = &frames[i];
        if c.current {
            let template =
                read_slot(&s.layout, &s.layout.header.template_id, &c.bytes).map(|t| t.to_string());
            let mut canon = Vec::new();
            let expect = match s.encoder.encode(&w, template.as_deref(), None, &mut canon) {
                Ok(()) => canon,
                Err(_) => c.bytes.clone(),
            };
            // Byte for byte, the input or, where the input has padding or bits the decoded
            // values do not carry, what `sbekit encode` writes for its JSON (padding zeroed).
            // Generated encoders zero padding but keep unknown set bits, which `sbekit encode`
            // cannot (its JSON has only the named choices).
            let identical = got.len() == c.bytes.len()
                && got.len() == expect.len()
                && (0..got.len()).all(|k| got[k] == c.bytes[k] || got[k] == expect[k]);
            if identical {
                sum.reencoded_identical += 1;
            } else {
                sum.disagree(format!(
                    "{name}: message {i}: re-encoded bytes differ\n  input:     {}\n  expected:  {}\n  generated: {}",
                    hex(&c.bytes),
                    hex(&expect),
                    hex(got)
                ));
            }
        } else if !otf(&s.decoder, got).is_some_and(|g| same_json(&w, &g)) {
            sum.disagree(format!(
                "{name}: message {i}: re-encoded at its acting version, it decodes differently\n  input:     {}\n  generated: {}",
                hex(&c.bytes),
                hex(got)
            ));
        } else if older(&s.layout, &c.bytes)
            && header_version(&s.layout, got) != header_version(&s.layout, &c.bytes)
        {
            // The same JSON could come from a message written at the schema's version (fields
            // newer than the acting version print their null values either way): the header
            // says which version the encoder wrote.
            sum.disagree(format!(
                "{name}: message {i}: written at version {:?}, re-encoded at version {:?}\n  input:     {}\n  generated: {}",
                header_version(&s.layout, &c.bytes),
                header_version(&s.layout, got),
                hex(&c.bytes),
                hex(got)
            ));
        }
    }
}

/// What a conformance program printed for one schema's messages: the JSON lines, then the
/// re-encoded frames.
pub type Outputs = (Vec<u8>, Vec<u8>);

/// A built conformance program.
struct Program {
    /// Command and leading arguments.
    cmd: Vec<String>,
    /// One program for several schemas: the schema's index follows the mode.
    multi: bool,
    /// Per schema, arguments after the mode (TypeScript: the module path).
    extra: Vec<Vec<String>>,
}

impl Program {
    /// Runs `json` and `reencode` over each schema's framed messages (`inputs[i]` for schema
    /// `i`): per schema, the JSON lines and the re-encoded frames.
    fn run_each(&self, inputs: &[Vec<u8>]) -> Result<Vec<Outputs>, Error> {
        let mut v = Vec::with_capacity(inputs.len());
        for (i, input) in inputs.iter().enumerate() {
            v.push((self.run("json", i, input)?, self.run("reencode", i, input)?));
        }
        Ok(v)
    }

    fn run(&self, mode: &str, schema: usize, input: &[u8]) -> Result<Vec<u8>, Error> {
        use std::io::Write;
        let mut c = Command::new(&self.cmd[0]);
        c.args(&self.cmd[1..]).arg(mode);
        if self.multi {
            c.arg(schema.to_string());
        }
        if let Some(e) = self.extra.get(schema) {
            c.args(e);
        }
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Build(format!("running {}: {e}", self.cmd[0])))?;
        let mut stdin = child.stdin.take();
        let data = input.to_vec();
        let feeder = std::thread::spawn(move || {
            if let Some(s) = stdin.as_mut() {
                let _ = s.write_all(&data);
            }
        });
        let out = child.wait_with_output()?;
        let _ = feeder.join();
        if !out.status.success() {
            return Err(Error::Build(format!(
                "the conformance program failed ({}) in mode {mode}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(out.stdout)
    }
}

fn tool_works(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The C++ compiler: `$CXX`, else the first of `c++`, `g++`, `clang++` that runs.
pub fn cxx() -> Option<String> {
    if let Ok(c) = std::env::var("CXX") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    ["c++", "g++", "clang++"]
        .into_iter()
        .find(|c| tool_works(c, "--version"))
        .map(str::to_string)
}

fn check(out: std::process::Output, what: &str) -> Result<(), Error> {
    if out.status.success() {
        Ok(())
    } else {
        let mut msg = String::from_utf8_lossy(&out.stderr).to_string();
        msg.truncate(8000);
        Err(Error::Build(format!("{what} failed:\n{msg}")))
    }
}

fn build_cpp(dir: &Path, schemas: &[Schema]) -> Result<Program, Error> {
    let cxx = cxx().ok_or_else(|| {
        Error::MissingToolchain(
            "a C++17 compiler".into(),
            "install g++ or clang++, or set CXX".into(),
        )
    })?;
    let mut incs = Vec::new();
    for (i, s) in schemas.iter().enumerate() {
        let pkg = format!("s{i:02}");
        let out = dir.join(&pkg);
        let opts = sbekit_codegen_cpp::Options {
            package: Some(pkg.clone()),
        };
        sbekit_codegen_cpp::write_package(&s.layout, &out, &opts)
            .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        incs.push(format!("-I{}", out.join("include").display()));
    }
    let exe = dir.join("sbe_conformance");
    let flags = ["-std=c++17", "-O1", "-fno-exceptions", "-fno-rtti"];
    if schemas.len() == 1 {
        // One schema: the package's own example, as a user would build it.
        let src = dir.join("s00/examples/sbe_conformance.cpp");
        let out = Command::new(&cxx)
            .args(flags)
            .args(&incs)
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()?;
        check(out, &format!("{cxx} {}", src.display()))?;
        return Ok(Program {
            cmd: vec![exe.display().to_string()],
            multi: false,
            extra: Vec::new(),
        });
    }
    // Several schemas: one driver per package (each calls its package's conformance function),
    // compiled in two halves in parallel, and one main.
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj)?;
    let mut srcs = Vec::new();
    let mut main = String::from("#include <cstdio>\n#include <cstdlib>\n");
    for i in 0..schemas.len() {
        let p = format!("s{i:02}");
        let f = obj.join(format!("driver_{p}.cpp"));
        std::fs::write(
            &f,
            format!(
                "#include \"{p}/conformance.hpp\"\nint sbe_run_{p}(const char* m) {{ return {p}::sbe_conformance(m, stdin, stdout); }}\n"
            ),
        )?;
        srcs.push(f);
        main.push_str(&format!("int sbe_run_{p}(const char* m);\n"));
    }
    main.push_str("int main(int argc, char** argv) {\n    if (argc != 3) return 2;\n    switch (std::atoi(argv[2])) {\n");
    for i in 0..schemas.len() {
        main.push_str(&format!(
            "        case {i}: return sbe_run_s{i:02}(argv[1]);\n"
        ));
    }
    main.push_str("        default: return 2;\n    }\n}\n");
    let mf = obj.join("main.cpp");
    std::fs::write(&mf, main)?;
    srcs.push(mf);
    let half = srcs.len().div_ceil(2);
    let mut kids = Vec::new();
    for part in srcs.chunks(half.max(1)) {
        let child = Command::new(&cxx)
            .current_dir(&obj)
            .args(flags)
            .arg("-c")
            .args(&incs)
            .args(part)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        kids.push(child);
    }
    for k in kids {
        check(k.wait_with_output()?, &format!("{cxx} -c"))?;
    }
    let objs: Vec<PathBuf> = srcs
        .iter()
        .map(|s| obj.join(s.with_extension("o").file_name().unwrap_or_default()))
        .collect();
    let out = Command::new(&cxx)
        .args(&objs)
        .arg("-o")
        .arg(&exe)
        .output()?;
    check(out, &format!("{cxx} (link)"))?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: true,
        extra: Vec::new(),
    })
}

/// `tsc`: `$SBEKIT_TSC`, else `tsc` on the PATH.
fn tsc() -> Option<String> {
    if let Ok(c) = std::env::var("SBEKIT_TSC") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    tool_works("tsc", "--version").then(|| "tsc".to_string())
}

fn build_ts(dir: &Path, schemas: &[Schema]) -> Result<Program, Error> {
    if !tool_works("node", "--version") {
        return Err(Error::MissingToolchain(
            "node".into(),
            "install Node 20 or later".into(),
        ));
    }
    let tsc = tsc().ok_or_else(|| {
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
    })
}

/// `cargo`: `$CARGO` (set when running under cargo), else `cargo` on the PATH.
fn cargo() -> Option<String> {
    if let Ok(c) = std::env::var("CARGO") {
        if !c.is_empty() && tool_works(&c, "--version") {
            return Some(c);
        }
    }
    tool_works("cargo", "--version").then(|| "cargo".to_string())
}

/// Builds the Rust conformance program: for one schema the generated crate's own example (as a
/// user would run it), for several one crate holding every generated module and the same
/// program over all of them. Offline, with its own target directory in the scratch directory.
fn build_rust(dir: &Path, schemas: &[Schema]) -> Result<Program, Error> {
    let cargo = cargo().ok_or_else(|| {
        Error::MissingToolchain(
            "cargo".into(),
            "install a Rust toolchain (rustup) or set CARGO".into(),
        )
    })?;
    let target = dir.join("target");
    let (manifest, args, exe) = if schemas.len() == 1 {
        let s = &schemas[0];
        let krate = dir.join("s00");
        sbekit_codegen::write_crate(
            &s.ir,
            &krate,
            "sbe-conformance-s00",
            &sbekit_codegen::RuntimeDep::Bundled,
            &sbekit_codegen::Options::default(),
        )
        .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
        (
            krate.join("Cargo.toml"),
            vec!["--example", "sbe_conformance"],
            target.join("debug/examples/sbe_conformance"),
        )
    } else {
        let src = dir.join("src");
        std::fs::create_dir_all(&src)?;
        let mut mods = Vec::new();
        let mut main = String::new();
        for (i, s) in schemas.iter().enumerate() {
            let m = format!("s{i:02}");
            let text = sbekit_codegen::generate_layout(&s.layout, &Default::default())
                .map_err(|e| Error::Build(format!("{}: {e}", s.path.display())))?;
            std::fs::write(src.join(format!("{m}.rs")), text)?;
            main.push_str(&format!("#[allow(dead_code)]\nmod {m};\n"));
            mods.push(m);
        }
        let paths: Vec<&str> = mods.iter().map(String::as_str).collect();
        let program = sbekit_codegen::conformance_program(&paths);
        std::fs::write(src.join("main.rs"), format!("{program}\n{main}"))?;
        let rt = dir.join("sbekit-runtime");
        std::fs::create_dir_all(rt.join("src"))?;
        std::fs::write(
            rt.join("Cargo.toml"),
            "[package]\nname = \"sbekit-runtime\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n",
        )?;
        for (p, text) in sbekit_runtime::SOURCE_FILES {
            let f = rt.join(p);
            if let Some(d) = f.parent() {
                std::fs::create_dir_all(d)?;
            }
            std::fs::write(f, text)?;
        }
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"sbe-conformance\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nsbekit-runtime = { path = \"sbekit-runtime\" }\n\n[[bin]]\nname = \"sbe_conformance\"\npath = \"src/main.rs\"\n",
        )?;
        (
            dir.join("Cargo.toml"),
            vec!["--bin", "sbe_conformance"],
            target.join("debug/sbe_conformance"),
        )
    };
    // Built alone, wherever the scratch directory is (not as part of an enclosing workspace).
    let mut toml = std::fs::read_to_string(&manifest)?;
    if !toml.contains("[workspace]") {
        toml.push_str("\n[workspace]\n");
        std::fs::write(&manifest, toml)?;
    }
    let out = Command::new(&cargo)
        .arg("build")
        .arg("--quiet")
        .arg("--offline")
        .arg("--manifest-path")
        .arg(&manifest)
        .args(&args)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()?;
    check(out, "cargo build (the Rust conformance program)")?;
    Ok(Program {
        cmd: vec![exe.display().to_string()],
        multi: schemas.len() > 1,
        extra: Vec::new(),
    })
}
