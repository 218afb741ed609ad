//! TypeScript code generation for SBE schemas.
//!
//! [`generate`] turns a schema's [`Layout`] into a ready npm package: `package.json`,
//! `tsconfig.json` and ES modules under `src/` (a small runtime, the schema's types, the message
//! codecs, a JSON printer and `index.ts`). Decoders and encoders are flyweights over a
//! `Uint8Array` and a `DataView` of it: they wrap a buffer at an offset and never copy it.
//! Decoding checks the header, block lengths, every group count and var-data length once and
//! throws a typed `SbeDecodeError` (offset and element path) for malformed input; the bytes
//! written are the bytes the Rust codecs write (tests in this crate check both directions).
//!
//! The generator reads only the layout model, never IR tokens.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decoder;
mod encoder;
mod fields;
mod json;
mod names;
mod package;
mod prim;
mod types;

use names::{pascal, Scope};
use sbekit_ir::layout::{Block, Field, FieldKind, Layout};
use sbekit_ir::{ByteOrder, PrimitiveType};
use std::path::{Path, PathBuf};

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The npm package name (default: [`default_package_name`]).
    pub package_name: Option<String>,
}

/// One generated file: a path relative to the package directory and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path inside the package (`src/messages.ts`).
    pub path: PathBuf,
    /// File contents.
    pub text: String,
}

/// The runtime module every generated package carries.
pub const RUNTIME_TS: &str = include_str!("../runtime/runtime.ts");

/// The conformance program every generated package carries (`sbekit conformance` runs it).
pub const CONFORMANCE_MJS: &str = include_str!("../runtime/sbe_conformance.mjs");

/// Generates the package's files from a layout.
pub fn generate(layout: &Layout, opts: &Options) -> Vec<GeneratedFile> {
    let ctx = Ctx::new(layout);
    let file = |p: &str, text: String| GeneratedFile {
        path: PathBuf::from(p),
        text,
    };
    vec![
        file("package.json", package::package_json(&ctx, opts)),
        file("tsconfig.json", package::TSCONFIG.to_string()),
        file("src/runtime.ts", RUNTIME_TS.to_string()),
        file("src/types.ts", types::types_ts(&ctx)),
        file("src/messages.ts", package::messages_ts(&ctx)),
        file("src/json.ts", json::json_ts(&ctx)),
        file("src/index.ts", package::index_ts(&ctx)),
        file("examples/sbe_conformance.mjs", CONFORMANCE_MJS.to_string()),
    ]
}

/// Writes the package into `dir` (created if needed).
pub fn write_package(layout: &Layout, dir: &Path, opts: &Options) -> std::io::Result<()> {
    for f in generate(layout, opts) {
        let path = dir.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, f.text)?;
    }
    Ok(())
}

/// The npm package name for a layout, named as the Rust crate is
/// ([`sbekit_plan::names::package_name`]): lower-case words joined by dashes, with an `-sbe`
/// suffix unless it already ends in `sbe` (`spot_sbe` -> `spot-sbe`, `baseline` ->
/// `baseline-sbe`).
pub fn default_package_name(layout: &Layout) -> String {
    sbekit_plan::names::package_name(&layout.package)
}

/// Accessor names of one field in a generated class.
#[derive(Debug, Clone)]
pub(crate) struct FieldNames {
    /// The getter / setter.
    pub name: String,
    /// The text getter (char fields).
    pub string: Option<String>,
    /// The element getter (numeric arrays).
    pub at: Option<String>,
}

/// Names of a block's class members: fields, groups, var data (with text getters).
#[derive(Debug, Clone)]
pub(crate) struct Members {
    pub fields: Vec<FieldNames>,
    pub groups: Vec<String>,
    /// Var data: accessor, text getter, length getter.
    pub vars: Vec<(String, String, String)>,
}

impl Members {
    fn new(fields: &[Field], groups: &[String], vars: &[String]) -> Members {
        let mut s = Scope::class();
        let fields = fields
            .iter()
            .map(|f| {
                let name = s.take(&f.name);
                let (string, at) = match &f.kind {
                    FieldKind::Primitive(p) if p.ty == PrimitiveType::Char => {
                        (Some(s.take(&format!("{name}String"))), None)
                    }
                    FieldKind::Primitive(p) if p.length != 1 && !f.is_constant() => {
                        (None, Some(s.take(&format!("{name}At"))))
                    }
                    _ => (None, None),
                };
                FieldNames { name, string, at }
            })
            .collect();
        let groups = groups.iter().map(|g| s.take(g)).collect();
        let vars = vars
            .iter()
            .map(|v| {
                let n = s.take(v);
                let t = s.take(&format!("{n}String"));
                let l = s.take(&format!("{n}Length"));
                (n, t, l)
            })
            .collect();
        Members {
            fields,
            groups,
            vars,
        }
    }
}

/// Generated names of a message root block or a group entry block.
#[derive(Debug, Clone)]
pub(crate) struct BlockNames {
    /// Schema path (`Car`, `Car.fuelFigures`), for error paths and docs.
    pub path: String,
    /// Decoder class (the message decoder or a group entry's).
    pub dec: String,
    /// Encoder class.
    pub enc: String,
    /// Group iterable class (groups only).
    pub group: String,
    /// Group writer class (groups only).
    pub writer: String,
    /// Member names.
    pub members: Members,
    /// Nested groups' names, in order.
    pub children: Vec<BlockNames>,
}

/// Everything the emitters share: the layout and the names chosen for it.
pub(crate) struct Ctx<'a> {
    pub l: &'a Layout,
    /// `true` for little-endian (the DataView flag).
    pub le: &'static str,
    pub enums: Vec<String>,
    pub sets: Vec<String>,
    pub comp_dec: Vec<String>,
    pub comp_enc: Vec<String>,
    pub comp_members: Vec<Members>,
    pub msgs: Vec<BlockNames>,
}

impl<'a> Ctx<'a> {
    fn new(l: &'a Layout) -> Ctx<'a> {
        let mut s = Scope::module();
        let enums = l.enums.iter().map(|e| s.take(&pascal(&e.name))).collect();
        let sets = l.sets.iter().map(|e| s.take(&pascal(&e.name))).collect();
        let comp_dec = l
            .composites
            .iter()
            .map(|c| s.take(&format!("{}Decoder", pascal(&c.name))))
            .collect();
        let comp_enc = l
            .composites
            .iter()
            .map(|c| s.take(&format!("{}Encoder", pascal(&c.name))))
            .collect();
        let comp_members = l
            .composites
            .iter()
            .map(|c| Members::new(&c.members, &[], &[]))
            .collect();
        let msgs = l
            .messages
            .iter()
            .map(|m| block_names(&mut s, &m.block, &m.name, &pascal(&m.name)))
            .collect();
        Ctx {
            l,
            le: if l.byte_order == ByteOrder::LittleEndian {
                "true"
            } else {
                "false"
            },
            enums,
            sets,
            comp_dec,
            comp_enc,
            comp_members,
            msgs,
        }
    }

    /// Every exported name of `types.ts`.
    pub fn type_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.enums.clone();
        v.extend(self.sets.iter().cloned());
        v.extend(self.comp_dec.iter().cloned());
        v.extend(self.comp_enc.iter().cloned());
        v
    }
}

fn block_names(s: &mut Scope, b: &Block, path: &str, base: &str) -> BlockNames {
    let dec = s.take(&format!("{base}Decoder"));
    let enc = s.take(&format!("{base}Encoder"));
    let (group, writer) = if path.contains('.') {
        (
            s.take(&format!("{base}Group")),
            s.take(&format!("{base}Writer")),
        )
    } else {
        (String::new(), String::new())
    };
    let children = b
        .groups
        .iter()
        .map(|g| {
            block_names(
                s,
                &g.block,
                &format!("{path}.{}", g.name),
                &format!("{base}{}", pascal(&g.name)),
            )
        })
        .collect();
    let gnames: Vec<String> = b.groups.iter().map(|g| g.name.clone()).collect();
    let vnames: Vec<String> = b.var_data.iter().map(|v| v.name.clone()).collect();
    BlockNames {
        path: path.to_string(),
        dec,
        enc,
        group,
        writer,
        members: Members::new(&b.fields, &gnames, &vnames),
        children,
    }
}

/// A text buffer with indentation.
#[derive(Default)]
pub(crate) struct Out {
    pub s: String,
    indent: usize,
}

impl Out {
    /// Writes one line at the current indentation; `{` at the end indents, `}` at the start
    /// outdents.
    pub fn line(&mut self, text: &str) {
        let t = text.trim();
        if t.starts_with('}') || t.starts_with(')') {
            self.indent = self.indent.saturating_sub(1);
        }
        if !t.is_empty() {
            for _ in 0..self.indent {
                self.s.push_str("  ");
            }
            self.s.push_str(t);
        }
        self.s.push('\n');
        if t.ends_with('{') || t.ends_with('(') {
            self.indent += 1;
        }
    }

    /// Writes a `/** ... */` comment (one line per line of `text`).
    pub fn doc(&mut self, text: &str) {
        let clean = text.replace("*/", "* /");
        let lines: Vec<&str> = clean
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        match lines.as_slice() {
            [] => {}
            [one] => self.line(&format!("/** {one} */")),
            many => {
                self.line("/**");
                for l in many {
                    self.line(&format!(" * {l}"));
                }
                self.line(" */");
            }
        }
    }
}
