//! C# identifiers for a plan: the plan's C# case and keyword policy ([`Language::CSharp`]),
//! made unique per scope and kept clear of the `System` names generated code uses
//! unqualified, of the generated classes' own members, and of the class's own name (a member
//! may not share it).

use crate::Options;
use sbekit_ir::PrimitiveType as P;
use sbekit_plan::{Body, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

/// Type names generated code refers to unqualified (the namespace's support classes and the
/// `System` types it names).
const TYPES: &[&str] = &[
    "System",
    "String",
    "Math",
    "Array",
    "ArraySegment",
    "BitConverter",
    "StringBuilder",
    "Exception",
    "InvalidOperationException",
    "ArgumentOutOfRangeException",
    "Object",
    "SbeDecodeException",
    "SbeDecodeErrorKind",
    "SbeEncodeException",
    "SbeEncodeErrorKind",
    "ISbeMessageDecoder",
    "SbeJson",
    "SbeSchema",
    "SbeWire",
    "SbeDispatcher",
    "SbeConformance",
    "SbeConformanceMain",
    "SbeEnums",
];

/// Public member names of generated classes (and of `object`) that accessors must not take;
/// the [`TYPES`] too, since a member of that name would hide the type inside the class.
const MEMBERS: &[&str] = &[
    "Wrap",
    "Buffer",
    "Offset",
    "Limit",
    "EncodedLength",
    "ActingVersion",
    "BlockLength",
    "AppendJson",
    "ToString",
    "GetHashCode",
    "Equals",
    "GetType",
    "MemberwiseClone",
    "ReferenceEquals",
    "Finalize",
    "MoveNext",
    "Current",
    "GetEnumerator",
    "Next",
    "Count",
    "Raw",
    "Clear",
    "SbeTemplateId",
    "SbeCopyTo",
    "SbeBlockLength",
    "SbeWrap",
    "SbeEnd",
    "Version",
    "TemplateId",
    "System",
    "String",
    "Math",
    "Array",
    "ArraySegment",
    "BitConverter",
    "StringBuilder",
    "SbeDecodeException",
    "SbeDecodeErrorKind",
    "SbeEncodeException",
    "SbeEncodeErrorKind",
    "SbeJson",
    "SbeSchema",
    "SbeWire",
    "SbeEnums",
];

/// The C# namespace of a schema package: each dot-separated part in upper camel case,
/// keywords escaped (`baseline` becomes `Baseline`, `b3.umdf.mbo.sbe` becomes
/// `B3.Umdf.Mbo.Sbe`, `my-schema` becomes `MySchema`).
pub fn csharp_namespace(package: &str) -> String {
    let parts: Vec<String> = package
        .split('.')
        .map(|p| {
            let s = sbekit_plan::names::camel(p);
            // `System` would hide the `System` namespace the generated code names.
            if Language::CSharp.is_reserved(&s) || s == "System" {
                format!("{s}_")
            } else {
                s
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
        // Keywords get a `_` rather than `@`: names are also built from them (`HasClass`).
        let mut s = want.to_string();
        if Language::CSharp.is_reserved(&s) || s.starts_with("sbe_") || s.starts_with("Sbe") {
            s.push('_');
        }
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }
}

/// Accessor names of one field.
#[derive(Debug, Clone, Default)]
pub struct FieldNames {
    /// Getter and setter.
    pub name: String,
    /// Presence test (`HasX`).
    pub has: String,
    /// The null value (`XNullValue`).
    pub null: String,
    /// Raw value of an enum (`XRaw`).
    pub raw: String,
    /// Array length (`XLength`).
    pub length: String,
    /// Copy out of a char array (`GetX`).
    pub get: String,
    /// Copy into a char array (`PutX`).
    pub put: String,
    /// Text of a char array (`XString`).
    pub string: String,
}

/// Names of an enum.
#[derive(Debug, Clone)]
pub struct EnumNames {
    /// The C# enum.
    pub ty: String,
    /// Its JSON printer in `SbeEnums` (`AppendModel`).
    pub json: String,
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
    /// Var data: its length (`XLength`).
    pub length: String,
    /// Var data: copy into a caller's buffer (`GetX`).
    pub get: String,
    /// Var data: as a `String` (`XString`).
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
    /// The C# namespace.
    pub namespace: String,
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
    Language::CSharp.case(NameKind::Field).apply(n)
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
            n.has = s.take(&format!("Has{base}"));
            match &f.kind {
                Kind::Prim(p) => {
                    n.null = s.take(&format!("{base}NullValue"));
                    if p.len != 1 {
                        n.length = s.take(&format!("{base}Length"));
                    }
                    if p.ty == P::Char && p.len != 1 {
                        n.get = s.take(&format!("Get{base}"));
                        n.put = s.take(&format!("Put{base}"));
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
    let base = plan.type_name(Language::CSharp, &b.path);
    let dec = top.take(&format!("{base}Decoder"));
    let enc = top.take(&format!("{base}Encoder"));
    let mut s = Scope::with(MEMBERS);
    s.used.insert(dec.clone());
    s.used.insert(enc.clone());
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
                    get: s.take(&format!("Get{base}")),
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
        let namespace = opts
            .namespace
            .clone()
            .unwrap_or_else(|| csharp_namespace(&plan.package));
        let mut top = Scope::with(TYPES);
        let ty = |n: &str| Language::CSharp.case(NameKind::Type).apply(n);
        let enums = plan
            .enums
            .iter()
            .map(|(k, e)| {
                let mut s = Scope::with(&["NullValue", "value__"]);
                let variants = e
                    .values
                    .iter()
                    .map(|v| s.take(&Language::CSharp.case(NameKind::EnumVariant).apply(&v.0)))
                    .collect();
                (k.clone(), {
                    let t = top.take(&ty(k));
                    EnumNames {
                        json: format!("Append{t}"),
                        ty: t,
                        variants,
                    }
                })
            })
            .collect();
        let sets = plan
            .sets
            .iter()
            .map(|(k, d)| {
                let mut s = Scope::with(MEMBERS);
                s.used.insert(format!("{}Decoder", ty(k)));
                s.used.insert(format!("{}Encoder", ty(k)));
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
                s.used.insert(format!("{}Decoder", ty(k)));
                s.used.insert(format!("{}Encoder", ty(k)));
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
            namespace,
            enums,
            sets,
            comps,
            msgs,
        }
    }
}
