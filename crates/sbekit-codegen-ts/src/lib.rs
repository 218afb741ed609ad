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
//! The generator renders the language-neutral codec plan ([`sbekit_plan::Plan`]): the
//! messages' accessors, their groups and var data in wire order (the encoders' section order)
//! and the checks a decoder makes up front, plus every type of the schema
//! ([`sbekit_plan::all_types`]: `types.ts` declares them all). It never re-derives offsets,
//! versions or validation from the layout, and never reads IR tokens.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decoder;
mod encoder;
mod fields;
mod json;
mod names;
mod owned;
mod package;
mod plan;
mod prim;
mod types;

use names::{class_scope, module_scope, pascal, Scope};
use sbekit_ir::layout::Layout;
use sbekit_ir::{ByteOrder, PrimitiveType};
use sbekit_plan::{Kind, TypeTables};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The npm package name (default: [`default_package_name`]).
    pub package_name: Option<String>,
}

pub use sbekit_plan::package::{GenError, GeneratedFile};

/// The runtime module every generated package carries.
pub const RUNTIME_TS: &str = include_str!("../runtime/runtime.ts");

/// The conformance program every generated package carries (`sbekit conformance` runs it).
pub const CONFORMANCE_MJS: &str = include_str!("../runtime/sbe_conformance.mjs");

/// Generates the package's files from a layout (through its codec plan, which fails only for
/// a layout the plan cannot describe).
pub fn generate(layout: &Layout, opts: &Options) -> Result<Vec<GeneratedFile>, GenError> {
    let plan = sbekit_plan::Plan::new(layout).map_err(GenError::Plan)?;
    if let Some(m) = plan.messages.iter().find(|m| plan::header(m).is_none()) {
        return Err(GenError::Unsupported(
            "TypeScript",
            format!("message {} has no header checks in the plan", m.body.name),
        ));
    }
    let ctx = Ctx::new(&plan, sbekit_plan::all_types(layout));
    let file = |p: &str, text: String| GeneratedFile {
        path: PathBuf::from(p),
        text,
    };
    Ok(vec![
        file("package.json", package::package_json(&ctx, opts)),
        file("tsconfig.json", package::TSCONFIG.to_string()),
        file("src/runtime.ts", RUNTIME_TS.to_string()),
        file("src/types.ts", types::types_ts(&ctx)),
        file("src/messages.ts", package::messages_ts(&ctx)),
        file("src/json.ts", json::json_ts(&ctx)),
        file("src/owned.ts", owned::owned_ts(&ctx)),
        file("src/index.ts", package::index_ts(&ctx)),
        file("examples/sbe_conformance.mjs", CONFORMANCE_MJS.to_string()),
    ])
}

/// Writes the package into `dir` (created if needed). Each file is written atomically
/// ([`sbekit_fs::write`]): a failed run leaves no temporary file, and every file present is
/// either its old content or the whole new one.
pub fn write_package(layout: &Layout, dir: &Path, opts: &Options) -> Result<(), GenError> {
    sbekit_plan::package::write_files(dir, &generate(layout, opts)?)
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
    fn new(fields: &[sbekit_plan::Field], groups: &[String], vars: &[String]) -> Members {
        let mut s = class_scope();
        let fields = fields
            .iter()
            .map(|f| {
                let name = s.take(&f.name);
                let (string, at) = match &f.kind {
                    Kind::Prim(p) if p.ty == PrimitiveType::Char => {
                        (Some(s.take(&format!("{name}String"))), None)
                    }
                    Kind::Prim(p) if p.len != 1 && !f.is_constant() => {
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
    /// The owned value's interface (`CarObject`), named after every other name.
    pub obj: String,
    /// The name the others are made from (`Car`, `CarFuelFigures`).
    base: String,
    /// Member names.
    pub members: Members,
    /// Nested groups' names, in order.
    pub children: Vec<BlockNames>,
}

/// Everything the emitters share: the plan, the schema's type tables and the names chosen.
pub(crate) struct Ctx<'a> {
    /// The codec plan of the layout: what the emitters render.
    pub plan: &'a sbekit_plan::Plan,
    /// Every enum, set and composite of the schema, in the layout's order: `types.ts`
    /// emits them all, and the name vectors below are indexed alike.
    pub types: TypeTables,
    /// `true` for little-endian (the DataView flag).
    pub le: &'static str,
    pub enums: Vec<String>,
    pub sets: Vec<String>,
    pub comp_dec: Vec<String>,
    pub comp_enc: Vec<String>,
    pub comp_members: Vec<Members>,
    pub msgs: Vec<BlockNames>,
    /// The composites' owned value interfaces (`EngineObject`).
    pub comp_obj: Vec<String>,
    /// The union of the messages' owned values.
    pub any_obj: String,
    /// Index of each enum, set and composite by schema name (plan fields name their types).
    enum_ix: HashMap<String, usize>,
    set_ix: HashMap<String, usize>,
    comp_ix: HashMap<String, usize>,
}

impl<'a> Ctx<'a> {
    fn new(plan: &'a sbekit_plan::Plan, mut types: TypeTables) -> Ctx<'a> {
        // A composite member is absent at older acting versions only when it is newer than
        // every field holding the composite (`sbekit decode`'s reading); otherwise it is as
        // old as its holder, which the holder's own version check covers.
        for (name, c) in &mut types.composites {
            let holders = plan.composite_holder_since(name);
            for m in &mut c.members {
                if m.since <= holders {
                    m.since = 0;
                }
            }
        }
        let mut s = module_scope();
        let enums = types
            .enums
            .iter()
            .map(|(n, _)| s.take(&pascal(n)))
            .collect();
        let sets = types.sets.iter().map(|(n, _)| s.take(&pascal(n))).collect();
        let comp_dec = types
            .composites
            .iter()
            .map(|(n, _)| s.take(&format!("{}Decoder", pascal(n))))
            .collect();
        let comp_enc = types
            .composites
            .iter()
            .map(|(n, _)| s.take(&format!("{}Encoder", pascal(n))))
            .collect();
        let comp_members = types
            .composites
            .iter()
            .map(|(_, c)| Members::new(&c.members, &[], &[]))
            .collect();
        let mut msgs: Vec<BlockNames> = plan
            .messages
            .iter()
            .map(|m| {
                let name = &m.body.name;
                block_names(&mut s, &m.body, name, &pascal(name))
            })
            .collect();
        // The owned values' names come last, so that adding them renamed nothing else.
        fn obj_names(s: &mut Scope, n: &mut BlockNames) {
            n.obj = s.take(&format!("{}Object", n.base));
            for c in &mut n.children {
                obj_names(s, c);
            }
        }
        for n in &mut msgs {
            obj_names(&mut s, n);
        }
        let comp_obj = types
            .composites
            .iter()
            .map(|(n, _)| s.take(&format!("{}Object", pascal(n))))
            .collect();
        let any_obj = s.take("AnyObject");
        // The first of a name wins, as in the plan's tables (the schema compiler refuses
        // duplicate type names).
        fn index<'n>(names: impl Iterator<Item = &'n String>) -> HashMap<String, usize> {
            let mut m = HashMap::new();
            for (i, n) in names.enumerate() {
                m.entry(n.clone()).or_insert(i);
            }
            m
        }
        Ctx {
            plan,
            le: if plan.byte_order == ByteOrder::LittleEndian {
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
            comp_obj,
            any_obj,
            enum_ix: index(types.enums.iter().map(|(n, _)| n)),
            set_ix: index(types.sets.iter().map(|(n, _)| n)),
            comp_ix: index(types.composites.iter().map(|(n, _)| n)),
            types,
        }
    }

    /// The index of the enum named `ty` (in `enums` and the layout's table).
    pub fn enum_index(&self, ty: &str) -> Option<usize> {
        self.enum_ix.get(ty).copied()
    }

    /// The index of the set named `ty`.
    pub fn set_index(&self, ty: &str) -> Option<usize> {
        self.set_ix.get(ty).copied()
    }

    /// The index of the composite named `ty`.
    pub fn composite_index(&self, ty: &str) -> Option<usize> {
        self.comp_ix.get(ty).copied()
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

fn block_names(s: &mut Scope, b: &sbekit_plan::Body, path: &str, base: &str) -> BlockNames {
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
    let children = plan::groups(b)
        .map(|g| {
            block_names(
                s,
                g.body,
                &format!("{path}.{}", g.name),
                &format!("{base}{}", pascal(g.name)),
            )
        })
        .collect();
    let gnames: Vec<String> = plan::groups(b).map(|g| g.name.to_string()).collect();
    let vnames: Vec<String> = plan::vars(b).map(|v| v.name.to_string()).collect();
    BlockNames {
        path: path.to_string(),
        dec,
        enc,
        group,
        writer,
        obj: String::new(),
        base: base.to_string(),
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
