//! C++ identifiers for a plan: the plan's C++ case and keyword policy ([`Language::Cpp`]), made
//! unique per scope, and kept clear of the macros the C and C++ standard headers define.

use crate::Options;
use sbekit_plan::{Body, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

/// Macros the standard headers may define that a cased schema name could spell.
const MACROS: &[&str] = &[
    "NULL",
    "EOF",
    "EDOM",
    "ERANGE",
    "EILSEQ",
    "BUFSIZ",
    "CHAR_BIT",
    "INFINITY",
    "NAN",
    "HUGE_VAL",
    "HUGE_VALF",
    "FP_NAN",
    "FP_INFINITE",
    "FP_ZERO",
    "FP_NORMAL",
    "FP_SUBNORMAL",
    "MATH_ERRNO",
    "MATH_ERREXCEPT",
    "INT_MAX",
    "INT_MIN",
    "UINT_MAX",
    "LONG_MAX",
    "LONG_MIN",
    "SIZE_MAX",
    "errno",
    "assert",
    "stdin",
    "stdout",
    "stderr",
    "offsetof",
    "unix",
    "linux",
    "major",
    "minor",
    "DOMAIN",
    "OVERFLOW",
    "UNDERFLOW",
    "TRUE",
    "FALSE",
    "SEEK_SET",
    "SEEK_CUR",
    "SEEK_END",
    "EXIT_SUCCESS",
    "EXIT_FAILURE",
    "RAND_MAX",
    "MB_LEN_MAX",
    "CLOCKS_PER_SEC",
    "TIME_UTC",
    "WEOF",
    "SIG_DFL",
    "SIG_IGN",
    "SIG_ERR",
    "SIGABRT",
    "SIGFPE",
    "SIGILL",
    "SIGINT",
    "SIGSEGV",
    "SIGTERM",
    "I",
    "BIG_ENDIAN",
    "LITTLE_ENDIAN",
    "BYTE_ORDER",
    "PDP_ENDIAN",
];

/// Public member names of generated classes that fields must not take.
const MEMBERS: &[&str] = &[
    "decode",
    "finish",
    "count",
    "begin",
    "end",
    "entry",
    "raw",
    "sbeActingVersion",
    "sbeBlockLength",
    "sbeEncodedLength",
    "sbeBuffer",
    "sbeOk",
    "sbeError",
    "operator",
];

/// The include directory and namespace of a schema package: its words in snake case
/// (`b3.umdf.mbo.sbe` -> `b3_umdf_mbo_sbe`), escaped if it is a keyword.
pub fn package_dir(package: &str) -> String {
    let s = sbekit_plan::names::snake(&package.replace('.', "_"));
    let s = s.trim_start_matches('_').to_string();
    let s = if s.is_empty() {
        "schema".to_string()
    } else {
        s
    };
    let s = if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("sbe_{s}")
    } else {
        s
    };
    escape(&s)
}

fn escape(s: &str) -> String {
    let e = Language::Cpp.escape(s);
    if MACROS.contains(&e.as_str()) || e == "sbekit" || e == "std" {
        format!("{e}_")
    } else {
        e
    }
}

/// A scope of identifiers: each name handed out is unique and not reserved.
#[derive(Default)]
pub struct Scope {
    used: HashSet<String>,
}

impl Scope {
    fn with(reserved: &[&str]) -> Scope {
        Scope {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `want` (escaped), with `_` appended until it is free; the result is taken.
    pub fn take(&mut self, want: &str) -> String {
        let mut s = escape(want);
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }
}

/// Accessor names of one field.
#[derive(Debug, Clone)]
pub struct FieldNames {
    /// Getter and setter.
    pub name: String,
    /// The raw getter of a char array (all its bytes).
    pub raw: Option<String>,
}

/// Names of an enum.
#[derive(Debug, Clone)]
pub struct EnumNames {
    /// The `enum class`.
    pub ty: String,
    /// Enumerators, in schema order.
    pub variants: Vec<String>,
}

/// Names of a set.
#[derive(Debug, Clone)]
pub struct SetNames {
    /// The class.
    pub ty: String,
    /// Getter/setter per choice.
    pub choices: Vec<String>,
    /// Mask constant per choice.
    pub masks: Vec<String>,
}

/// Names of a composite.
#[derive(Debug, Clone)]
pub struct CompNames {
    /// The decoder view.
    pub dec: String,
    /// The encoder view.
    pub enc: String,
    /// Members.
    pub members: Vec<FieldNames>,
}

/// Names of a message body or group entry.
#[derive(Debug, Clone)]
pub struct BodyNames {
    /// Dotted schema path (`Car.fuelFigures`).
    pub path: String,
    /// Decoder class.
    pub dec: String,
    /// Encoder class.
    pub enc: String,
    /// Group iterator class (groups only).
    pub iter: String,
    /// Group writer class (groups only).
    pub writer: String,
    /// Field accessors.
    pub fields: Vec<FieldNames>,
    /// Section accessors (groups and var data, in wire order).
    pub sections: Vec<String>,
    /// Names of the groups' bodies, in section order (one per group).
    pub children: Vec<BodyNames>,
}

/// Every name of a generated library.
pub struct Names {
    /// Include directory and namespace.
    pub dir: String,
    /// Enums by schema name.
    pub enums: BTreeMap<String, EnumNames>,
    /// Sets by schema name.
    pub sets: BTreeMap<String, SetNames>,
    /// Composites by schema name.
    pub comps: BTreeMap<String, CompNames>,
    /// Messages, in plan order.
    pub msgs: Vec<BodyNames>,
}

fn fields(s: &mut Scope, fs: &[sbekit_plan::Field]) -> Vec<FieldNames> {
    fs.iter()
        .map(|f| {
            let name = s.take(&Language::Cpp.case(NameKind::Field).apply(&f.name));
            let raw = match &f.kind {
                Kind::Prim(p) if p.ty == sbekit_ir::PrimitiveType::Char && p.len != 1 => {
                    Some(s.take(&format!("{name}Raw")))
                }
                _ => None,
            };
            FieldNames { name, raw }
        })
        .collect()
}

fn body(top: &mut Scope, plan: &Plan, b: &Body) -> BodyNames {
    let base = plan.type_name(Language::Cpp, &b.path);
    let dec = top.take(&format!("{base}Decoder"));
    let enc = top.take(&format!("{base}Encoder"));
    let (iter, writer) = if b.path.len() > 1 {
        (
            top.take(&format!("{base}Iter")),
            top.take(&format!("{base}Writer")),
        )
    } else {
        (String::new(), String::new())
    };
    let mut s = Scope::with(MEMBERS);
    let fields = fields(&mut s, &b.fields);
    let sections = b
        .sections
        .iter()
        .map(|x| s.take(&Language::Cpp.case(NameKind::Field).apply(x.name())))
        .collect();
    let children = b
        .sections
        .iter()
        .filter_map(|x| match x {
            Section::Group { body: gb, .. } => Some(body(top, plan, gb)),
            Section::Var { .. } => None,
        })
        .collect();
    BodyNames {
        path: b.path.join("."),
        dec,
        enc,
        iter,
        writer,
        fields,
        sections,
        children,
    }
}

impl Names {
    /// Names for `plan`.
    pub fn new(plan: &Plan, opts: &Options) -> Names {
        let dir = opts
            .package
            .clone()
            .unwrap_or_else(|| package_dir(&plan.package));
        let mut top = Scope::with(&[
            "AnyMessage",
            "decode_any",
            "to_json",
            "reencode",
            "SCHEMA_ID",
            "SCHEMA_VERSION",
            "HEADER_LENGTH",
            "detail",
            "std",
            "sbekit",
        ]);
        top.used.insert(dir.clone());
        let ty = |n: &str| Language::Cpp.case(NameKind::Type).apply(n);
        let enums = plan
            .enums
            .iter()
            .map(|(k, e)| {
                let mut s = Scope::default();
                let variants = e
                    .values
                    .iter()
                    .map(|v| s.take(&Language::Cpp.case(NameKind::EnumVariant).apply(&v.0)))
                    .collect();
                (
                    k.clone(),
                    EnumNames {
                        ty: top.take(&ty(k)),
                        variants,
                    },
                )
            })
            .collect();
        let sets = plan
            .sets
            .iter()
            .map(|(k, d)| {
                let mut s = Scope::with(&["raw", "RAW", "Raw"]);
                let choices: Vec<String> = d
                    .choices
                    .iter()
                    .map(|c| s.take(&Language::Cpp.case(NameKind::Field).apply(&c.0)))
                    .collect();
                let masks = d
                    .choices
                    .iter()
                    .map(|c| {
                        s.take(&format!(
                            "{}_MASK",
                            Language::Cpp.case(NameKind::Constant).apply(&c.0)
                        ))
                    })
                    .collect();
                (
                    k.clone(),
                    SetNames {
                        ty: top.take(&ty(k)),
                        choices,
                        masks,
                    },
                )
            })
            .collect();
        let comps = plan
            .composites
            .iter()
            .map(|(k, c)| {
                let mut s = Scope::with(MEMBERS);
                s.used.insert("SIZE".into());
                (
                    k.clone(),
                    CompNames {
                        dec: top.take(&format!("{}Decoder", ty(k))),
                        enc: top.take(&format!("{}Encoder", ty(k))),
                        members: fields(&mut s, &c.members),
                    },
                )
            })
            .collect();
        let msgs = plan
            .messages
            .iter()
            .map(|m| body(&mut top, plan, &m.body))
            .collect();
        Names {
            dir,
            enums,
            sets,
            comps,
            msgs,
        }
    }
}
