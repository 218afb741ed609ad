//! Go identifiers for a plan: every exported name of a package is unique (types, enum values
//! and set masks share one scope) and every method name is unique on its type (the methods the
//! generator adds itself are taken first, so a field called `wrap` becomes `Wrap_`).

use sbekit_plan::{Body, Field, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

use crate::Options;

/// The Go package name for a schema package: its words joined by `_`, lower case
/// (`uk.co.real_logic.sbe.examples` -> `uk_co_real_logic_sbe_examples`).
pub fn package_name(package: &str) -> String {
    let s = sbekit_plan::names::snake(&package.replace('.', "_"));
    let s = s.trim_start_matches('_').to_string();
    let s = if s.is_empty() {
        "schema".to_string()
    } else {
        s
    };
    Language::Go.escape(&s)
}

/// A set of taken identifiers.
#[derive(Default, Clone)]
pub(crate) struct Scope(HashSet<String>);

impl Scope {
    /// A scope with `words` already taken.
    pub fn with(words: &[&str]) -> Scope {
        Scope(words.iter().map(|w| w.to_string()).collect())
    }

    /// `want`, or `want` with `_` appended until it is free; taken.
    pub fn take(&mut self, want: &str) -> String {
        self.take_family(want, |s| vec![s.to_string()])
    }

    /// `want`, or `want` with `_` appended, such that every identifier `family` derives from
    /// it is free; all of them taken. For the package-level names the generator derives from a
    /// type's (`Decode<Msg>`, `<Msg>Encoder`, ...): a message named `Error` must not give a
    /// `DecodeError` that the runtime already declares.
    pub fn take_family(&mut self, want: &str, family: impl Fn(&str) -> Vec<String>) -> String {
        let mut s = Language::Go.escape(want);
        while family(&s).iter().any(|n| self.0.contains(n)) {
            s.push('_');
        }
        self.0.extend(family(&s));
        s
    }
}

/// The package-level identifiers the generator derives from a body's decoder type `dec`
/// (`messages/decoders.rs`, `messages/encoders.rs`, `json.rs`): a message's `Decode<Msg>` and
/// `New<Msg>Encoder`, a group's iterator and writer, and for both the encoder, its state and
/// block-length helper and the copy function.
fn derived(dec: &str, msg: bool) -> Vec<String> {
    let mut low = dec.to_string();
    if let Some(f) = low.get_mut(0..1) {
        f.make_ascii_lowercase();
    }
    let mut v = vec![
        dec.to_string(),
        format!("{dec}Encoder"),
        format!("copy{dec}"),
        format!("{low}State"),
        format!("{low}BlockLength"),
    ];
    if msg {
        v.push(format!("Decode{dec}"));
        v.push(format!("New{dec}Encoder"));
    } else {
        v.push(format!("{dec}Iter"));
        v.push(format!("{dec}Writer"));
    }
    v
}

/// Methods every decoder has.
const DEC_METHODS: &[&str] = &[
    "Wrap",
    "AppendJSON",
    "SbeActingVersion",
    "SbeBlockLength",
    "SbeEncodedLength",
    "SbeTemplateID",
    "String",
];

/// Methods every encoder has.
const ENC_METHODS: &[&str] = &["Wrap", "Finish", "String"];

/// Names of one field's accessors.
#[derive(Debug, Clone)]
pub(crate) struct FieldNames {
    /// The getter on decoders (`SerialNumber`).
    pub get: String,
    /// The setter on encoders (`SetSerialNumber`), or the composite encoder's accessor.
    pub set: String,
    /// For char arrays: the getter of all the bytes (`VinRaw`).
    pub raw: String,
}

/// Names of a section's accessors.
#[derive(Debug, Clone)]
pub(crate) struct SectionNames {
    /// On the decoder: the group iterator or the var-data view.
    pub get: String,
    /// On the decoder, for text: the var data as a `string`.
    pub string: String,
    /// On the encoder: the group writer or the var-data setter.
    pub set: String,
    /// On the encoder, for text: the setter taking a `string`.
    pub set_string: String,
}

/// Names of a message or group entry.
#[derive(Debug, Clone)]
pub(crate) struct BodyNames {
    /// The decoder type (`Car`, `CarFuelFigures`).
    pub dec: String,
    /// The encoder type (`CarEncoder`).
    pub enc: String,
    /// The group iterator type (`CarFuelFiguresIter`; groups only).
    pub iter: String,
    /// The group writer type (`CarFuelFiguresWriter`; groups only).
    pub writer: String,
    /// Unexported prefix of the body's helpers (`carFuelFigures`).
    pub low: String,
    /// The element path (`Car.fuelFigures`).
    pub path: String,
    /// Per field.
    pub fields: Vec<FieldNames>,
    /// Per section.
    pub sections: Vec<SectionNames>,
    /// Per group section, in order.
    pub children: Vec<BodyNames>,
}

/// Names of an enum.
#[derive(Debug, Clone)]
pub(crate) struct EnumNames {
    /// The type.
    pub ty: String,
    /// Per value, the constant.
    pub values: Vec<String>,
    /// The null value's constant.
    pub null: String,
}

/// Names of a set.
#[derive(Debug, Clone)]
pub(crate) struct SetNames {
    /// The type.
    pub ty: String,
    /// Per choice, the mask constant.
    pub masks: Vec<String>,
    /// Per choice, the test method.
    pub tests: Vec<String>,
}

/// Names of a composite.
#[derive(Debug, Clone)]
pub(crate) struct CompNames {
    /// The decoder type.
    pub dec: String,
    /// The encoder type.
    pub enc: String,
    /// Per member.
    pub members: Vec<FieldNames>,
}

/// Every name of a package.
pub(crate) struct Names {
    /// The package name.
    pub pkg: String,
    /// By enum schema name.
    pub enums: BTreeMap<String, EnumNames>,
    /// By set schema name.
    pub sets: BTreeMap<String, SetNames>,
    /// By composite schema name.
    pub comps: BTreeMap<String, CompNames>,
    /// Per message.
    pub msgs: Vec<BodyNames>,
}

/// Names the runtime file declares.
const RUNTIME: &[&str] = &[
    "DecodeError",
    "EncodeError",
    "ErrorKind",
    "ErrTruncated",
    "ErrWrongSchemaID",
    "ErrWrongTemplateID",
    "ErrBlockLengthTooShort",
    "ErrInvalidDimension",
    "ErrEmptyEntryBudget",
    "ErrBufferTooSmall",
    "ErrCountTooLarge",
    "ErrValueTooLong",
    "ErrOutOfOrder",
    "MaxEmptyEntries",
    "SchemaID",
    "SchemaVersion",
    "HeaderLength",
    "Message",
    "AnyDecoder",
    "DecodeAny",
    "TemplateIDOf",
    "SbeConformance",
    "Reencode",
];

fn camel(s: &str) -> String {
    Language::Go.case(NameKind::Type).apply(s)
}

fn field_names(f: &Field, get: &mut Scope, set: &mut Scope) -> FieldNames {
    let c = camel(&f.name);
    let is_text =
        matches!(&f.kind, Kind::Prim(p) if p.ty == sbekit_ir::PrimitiveType::Char && p.len != 1);
    FieldNames {
        get: get.take(&c),
        set: if matches!(f.kind, Kind::Composite { .. }) {
            set.take(&c)
        } else {
            set.take(&format!("Set{c}"))
        },
        raw: if is_text {
            get.take(&format!("{c}Raw"))
        } else {
            String::new()
        },
    }
}

impl Names {
    /// Chooses every name of `plan`'s package.
    pub fn new(plan: &Plan, opts: &Options) -> Names {
        let pkg = opts
            .package
            .clone()
            .unwrap_or_else(|| package_name(&plan.package));
        let mut top = Scope::with(RUNTIME);
        let mut enums = BTreeMap::new();
        for (k, e) in &plan.enums {
            let ty = top.take(&camel(k));
            let values = e
                .values
                .iter()
                .map(|v| top.take(&format!("{ty}{}", camel(&v.0))))
                .collect();
            let null = top.take(&format!("{ty}NullValue"));
            enums.insert(k.clone(), EnumNames { ty, values, null });
        }
        let mut sets = BTreeMap::new();
        for (k, s) in &plan.sets {
            let ty = top.take(&camel(k));
            let masks = s
                .choices
                .iter()
                .map(|c| top.take(&format!("{ty}{}", camel(&c.0))))
                .collect();
            let mut m = Scope::with(&["AppendJSON", "String"]);
            let tests = s.choices.iter().map(|c| m.take(&camel(&c.0))).collect();
            sets.insert(k.clone(), SetNames { ty, masks, tests });
        }
        let mut comps = BTreeMap::new();
        for (k, c) in &plan.composites {
            let dec = top.take(&camel(k));
            let enc = top.take(&format!("{}Encoder", camel(k)));
            let mut g = Scope::with(&["AppendJSON", "SbeActingVersion", "String"]);
            let mut s = Scope::with(&["String"]);
            let members = c
                .members
                .iter()
                .map(|f| field_names(f, &mut g, &mut s))
                .collect();
            comps.insert(k.clone(), CompNames { dec, enc, members });
        }
        let msgs = plan
            .messages
            .iter()
            .map(|m| {
                let name = plan.type_name(Language::Go, &m.body.path);
                body_names(&m.body, &name, &mut top, m.body.name.clone(), false)
            })
            .collect();
        Names {
            pkg,
            enums,
            sets,
            comps,
            msgs,
        }
    }
}

fn body_names(b: &Body, name: &str, top: &mut Scope, path: String, group: bool) -> BodyNames {
    let dec = top.take_family(name, |d| derived(d, !group));
    let enc = format!("{dec}Encoder");
    let (iter, writer) = if group {
        (format!("{dec}Iter"), format!("{dec}Writer"))
    } else {
        (String::new(), String::new())
    };
    let mut low = dec.clone();
    if let Some(f) = low.get_mut(0..1) {
        f.make_ascii_lowercase();
    }
    let mut g = Scope::with(DEC_METHODS);
    let mut s = Scope::with(ENC_METHODS);
    let fields = b
        .fields
        .iter()
        .map(|f| field_names(f, &mut g, &mut s))
        .collect();
    let mut sections = Vec::new();
    let mut children = Vec::new();
    for sec in &b.sections {
        let c = camel(sec.name());
        match sec {
            Section::Group { name, body, .. } => {
                sections.push(SectionNames {
                    get: g.take(&c),
                    string: String::new(),
                    set: s.take(&c),
                    set_string: String::new(),
                });
                children.push(body_names(
                    body,
                    &format!("{dec}{}", camel(name)),
                    top,
                    format!("{path}.{name}"),
                    true,
                ));
            }
            Section::Var { text, .. } => {
                let get = g.take(&c);
                let set = s.take(&format!("Set{c}"));
                let (string, set_string) = if *text {
                    (
                        g.take(&format!("{c}String")),
                        s.take(&format!("Set{c}String")),
                    )
                } else {
                    (String::new(), String::new())
                };
                sections.push(SectionNames {
                    get,
                    string,
                    set,
                    set_string,
                });
            }
        }
    }
    BodyNames {
        dec,
        enc,
        iter,
        writer,
        low,
        path,
        fields,
        sections,
        children,
    }
}
