//! Java identifiers for a plan: the plan's Java case and keyword policy ([`Language::Java`]),
//! made unique per scope and kept clear of the `java.lang` and Agrona names generated code
//! uses unqualified, and of the generated classes' own members.

use crate::Options;
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::{Body, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

/// Class names generated code refers to unqualified (`java.lang`, the Agrona imports, the
/// module's own support classes).
const TYPES: &[&str] = &[
    "String",
    "StringBuilder",
    "Math",
    "Long",
    "Integer",
    "Short",
    "Byte",
    "Float",
    "Double",
    "Boolean",
    "Character",
    "Object",
    "Override",
    "System",
    "Iterable",
    "Class",
    "Exception",
    "RuntimeException",
    "IllegalArgumentException",
    "IllegalStateException",
    "Number",
    "Void",
    "Enum",
    "Record",
    "Runtime",
    "Thread",
    "Error",
    "CharSequence",
    "Comparable",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
    "Process",
    "Module",
    "Package",
    "DirectBuffer",
    "MutableDirectBuffer",
    "UnsafeBuffer",
    "SbeDecodeException",
    "SbeEncodeException",
    "SbeMessageDecoder",
    "SbeJson",
    "SbeSchema",
    "SbeDispatcher",
    "SbeConformance",
];

/// Public member names of generated classes (and of `Object`, `Iterator`, `Iterable`) that
/// accessors must not take.
const MEMBERS: &[&str] = &[
    "wrap",
    "buffer",
    "offset",
    "limit",
    "encodedLength",
    "actingVersion",
    "blockLength",
    "appendJson",
    "toString",
    "hashCode",
    "equals",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "hasNext",
    "next",
    "iterator",
    "count",
    "remove",
    "forEachRemaining",
    "forEach",
    "spliterator",
    "raw",
    "clear",
    "sbeTemplateId",
    "sbeCopyTo",
    "sbeBlockLength",
    "version",
];

/// The Java package of a schema package: each dot-separated part made an identifier
/// (lower-case words joined by `_`), keywords escaped (`b3.umdf.mbo.sbe` stays, `my-schema`
/// becomes `my_schema`, `int` becomes `int_`).
pub fn java_package(package: &str) -> String {
    let parts: Vec<String> = package
        .split('.')
        .map(|p| {
            let s = sbekit_plan::names::snake(p);
            let s = s.trim_start_matches('_').to_string();
            let s = if s.is_empty() {
                "sbe".to_string()
            } else if s.starts_with(|c: char| c.is_ascii_digit()) {
                format!("sbe{s}")
            } else {
                s
            };
            let e = Language::Java.escape(&s);
            if matches!(e.as_str(), "true" | "false" | "null") {
                format!("{e}_")
            } else {
                e
            }
        })
        .collect();
    parts.join(".")
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
        let mut s = Language::Java.escape(want);
        if matches!(s.as_str(), "true" | "false" | "null" | "_") || s.starts_with("sbe_") {
            s.push('_');
        }
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }
}

fn upper(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// Accessor names of one field.
#[derive(Debug, Clone, Default)]
pub struct FieldNames {
    /// Getter and setter.
    pub name: String,
    /// Presence test (`hasX`).
    pub has: String,
    /// The null value (`xNullValue`).
    pub null: String,
    /// Raw value of an enum (`xRaw`).
    pub raw: String,
    /// Array length (`xLength`).
    pub length: String,
    /// Copy out of a char array (`getX`).
    pub get: String,
    /// Copy into a char array (`putX`).
    pub put: String,
    /// Text of a char array (`xString`).
    pub string: String,
}

/// Names of an enum.
#[derive(Debug, Clone)]
pub struct EnumNames {
    /// The Java enum.
    pub ty: String,
    /// Constants, in schema order.
    pub variants: Vec<String>,
}

/// Names of a set.
#[derive(Debug, Clone)]
pub struct SetNames {
    /// The decoder flyweight.
    pub dec: String,
    /// The encoder flyweight.
    pub enc: String,
    /// Getter/setter per choice.
    pub choices: Vec<String>,
}

/// Names of a composite.
#[derive(Debug, Clone)]
pub struct CompNames {
    /// The decoder flyweight.
    pub dec: String,
    /// The encoder flyweight.
    pub enc: String,
    /// Members.
    pub members: Vec<FieldNames>,
}

/// Accessor names of a group or var-data section.
#[derive(Debug, Clone, Default)]
pub struct SectionNames {
    /// The accessor (group iterator or encoder; var-data view or setter).
    pub name: String,
    /// Var data: its length (`xLength`).
    pub length: String,
    /// Var data: copy into a caller's buffer (`getX`).
    pub get: String,
    /// Var data: as a `String` (`xString`).
    pub string: String,
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
    /// Field accessors.
    pub fields: Vec<FieldNames>,
    /// Section accessors (groups and var data, in wire order).
    pub sections: Vec<SectionNames>,
    /// Names of the groups' bodies, in section order (one per group).
    pub children: Vec<BodyNames>,
}

/// Every name of a generated module.
pub struct Names {
    /// The Java package.
    pub package: String,
    /// Enums by schema name.
    pub enums: BTreeMap<String, EnumNames>,
    /// Sets by schema name.
    pub sets: BTreeMap<String, SetNames>,
    /// Composites by schema name.
    pub comps: BTreeMap<String, CompNames>,
    /// Messages, in plan order.
    pub msgs: Vec<BodyNames>,
}

fn field_case(n: &str) -> String {
    Language::Java.case(NameKind::Field).apply(n)
}

fn fields(s: &mut Scope, fs: &[sbekit_plan::Field]) -> Vec<FieldNames> {
    fs.iter()
        .map(|f| {
            let name = s.take(&field_case(&f.name));
            let base = field_case(&f.name);
            let mut n = FieldNames {
                name,
                ..FieldNames::default()
            };
            if f.is_constant() {
                return n;
            }
            n.has = s.take(&format!("has{}", upper(&base)));
            match &f.kind {
                Kind::Prim(p) => {
                    n.null = s.take(&format!("{base}NullValue"));
                    if p.len != 1 {
                        n.length = s.take(&format!("{base}Length"));
                    }
                    if p.ty == P::Char && p.len != 1 {
                        n.get = s.take(&format!("get{}", upper(&base)));
                        n.put = s.take(&format!("put{}", upper(&base)));
                        n.string = s.take(&format!("{base}String"));
                    }
                }
                Kind::Enum { .. } => n.raw = s.take(&format!("{base}Raw")),
                _ => {}
            }
            n
        })
        .collect()
}

fn body(top: &mut Scope, plan: &Plan, b: &Body) -> BodyNames {
    let base = plan.type_name(Language::Java, &b.path);
    let dec = top.take(&format!("{base}Decoder"));
    let enc = top.take(&format!("{base}Encoder"));
    let mut s = Scope::with(MEMBERS);
    let fields = fields(&mut s, &b.fields);
    let sections = b
        .sections
        .iter()
        .map(|x| {
            let base = field_case(x.name());
            let name = s.take(&base);
            match x {
                Section::Var { .. } => SectionNames {
                    name,
                    length: s.take(&format!("{base}Length")),
                    get: s.take(&format!("get{}", upper(&base))),
                    string: s.take(&format!("{base}String")),
                },
                Section::Group { .. } => SectionNames {
                    name,
                    ..SectionNames::default()
                },
            }
        })
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
        fields,
        sections,
        children,
    }
}

impl Names {
    /// Names for `plan`.
    pub fn new(plan: &Plan, opts: &Options) -> Names {
        let package = opts
            .package
            .clone()
            .unwrap_or_else(|| java_package(&plan.package));
        let mut top = Scope::with(TYPES);
        let ty = |n: &str| Language::Java.case(NameKind::Type).apply(n);
        let enums = plan
            .enums
            .iter()
            .map(|(k, e)| {
                let mut s = Scope::with(&["NULL_VAL", "SBE_UNKNOWN"]);
                let variants = e
                    .values
                    .iter()
                    .map(|v| s.take(&Language::Java.case(NameKind::EnumVariant).apply(&v.0)))
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
                let mut s = Scope::with(MEMBERS);
                let choices = d
                    .choices
                    .iter()
                    .map(|c| s.take(&field_case(&c.0)))
                    .collect();
                (
                    k.clone(),
                    SetNames {
                        dec: top.take(&format!("{}Decoder", ty(k))),
                        enc: top.take(&format!("{}Encoder", ty(k))),
                        choices,
                    },
                )
            })
            .collect();
        let comps = plan
            .composites
            .iter()
            .map(|(k, c)| {
                let mut s = Scope::with(MEMBERS);
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
            package,
            enums,
            sets,
            comps,
            msgs,
        }
    }
}
