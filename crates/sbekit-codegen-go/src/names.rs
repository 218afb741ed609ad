//! Go identifiers for a plan ([`sbekit_plan::names::assign`]): every exported name of a
//! package is unique (types, enum values and set masks share one scope) and every method name is
//! unique on its type (the methods the generator adds itself are taken first, so a field called
//! `wrap` becomes `Wrap_`).

use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::{
    BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner, Scope, SectionNames, SetNames,
};
use sbekit_plan::{Body, EnumDef, Field, Kind, Language, NameKind, Plan, Section, SetDef};

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

/// The package-level identifiers the generator derives from a body's decoder type `dec`
/// (`messages/decoders.rs`, `messages/encoders.rs`, `json.rs`): a message's `Decode<Msg>` and
/// `New<Msg>Encoder`, a group's iterator and writer, and for both the encoder, its state and
/// block-length helper and the copy function.
fn derived(dec: &str, msg: bool) -> Vec<String> {
    let low = private(dec);
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

/// The unexported prefix of a body's helpers: its decoder type, first letter lower-cased.
fn private(dec: &str) -> String {
    let mut low = dec.to_string();
    if let Some(f) = low.get_mut(0..1) {
        f.make_ascii_lowercase();
    }
    low
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

fn scope(reserved: &[&str]) -> Scope {
    Scope::new(|w| Language::Go.escape(w), reserved)
}

/// Go's spelling of every identifier.
pub(crate) struct Go;

impl NamingConfig for Go {
    fn language(&self) -> Language {
        Language::Go
    }

    fn package(&self, schema_package: &str) -> String {
        package_name(schema_package)
    }

    fn top(&self, _package: &str) -> Scope {
        scope(RUNTIME)
    }

    fn enumeration(&self, top: &mut Scope, _: &str, name: &str, e: &EnumDef) -> EnumNames {
        let ty = top.take(&camel(name));
        let values = e
            .values
            .iter()
            .map(|v| top.take(&format!("{ty}{}", camel(&v.0))))
            .collect();
        let null = top.take(&format!("{ty}NullValue"));
        EnumNames {
            ty,
            values,
            null,
            json: String::new(),
        }
    }

    fn set(&self, top: &mut Scope, _: &str, name: &str, s: &SetDef) -> SetNames {
        let ty = top.take(&camel(name));
        let masks = s
            .choices
            .iter()
            .map(|c| top.take(&format!("{ty}{}", camel(&c.0))))
            .collect();
        let mut m = scope(&["AppendJSON", "String"]);
        let choices = s.choices.iter().map(|c| m.take(&camel(&c.0))).collect();
        SetNames {
            ty,
            choices,
            masks,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, _: &str, name: &str) -> (String, String) {
        (
            top.take(&camel(name)),
            top.take(&format!("{}Encoder", camel(name))),
        )
    }

    fn body(
        &self,
        top: &mut Scope,
        _: &str,
        plan: &Plan,
        b: &Body,
        parent: Option<&BodyNames>,
    ) -> BodyNames {
        let want = match parent {
            None => plan.type_name(Language::Go, &b.path),
            Some(p) => format!("{}{}", p.dec, camel(&b.name)),
        };
        let dec = top.take_family(&want, |d| derived(d, parent.is_none()));
        let (iter, writer) = match parent {
            None => (String::new(), String::new()),
            Some(_) => (format!("{dec}Iter"), format!("{dec}Writer")),
        };
        BodyNames {
            enc: format!("{dec}Encoder"),
            private: private(&dec),
            iter,
            writer,
            dec,
            ..BodyNames::default()
        }
    }

    fn members(&self, composite: bool) -> Members {
        if composite {
            Members {
                dec: scope(&["AppendJSON", "SbeActingVersion", "String"]),
                enc: scope(&["String"]),
            }
        } else {
            Members {
                dec: scope(DEC_METHODS),
                enc: scope(ENC_METHODS),
            }
        }
    }

    fn field(&self, _: &mut Scope, m: &mut Members, _: Owner, f: &Field) -> FieldNames {
        let c = camel(&f.name);
        let text = matches!(&f.kind, Kind::Prim(p) if p.ty == P::Char && p.len != 1);
        FieldNames {
            name: m.dec.take(&c),
            set: Some(match f.kind {
                Kind::Composite { .. } => m.enc.take(&c),
                _ => m.enc.take(&format!("Set{c}")),
            }),
            raw: text.then(|| m.dec.take(&format!("{c}Raw"))),
            ..FieldNames::default()
        }
    }

    fn section(&self, _: &mut Scope, m: &mut Members, _: Owner, s: &Section) -> SectionNames {
        let c = camel(s.name());
        match s {
            Section::Group { .. } => SectionNames {
                name: m.dec.take(&c),
                set: Some(m.enc.take(&c)),
                ..SectionNames::default()
            },
            Section::Var { text, .. } => SectionNames {
                name: m.dec.take(&c),
                set: Some(m.enc.take(&format!("Set{c}"))),
                string: text.then(|| m.dec.take(&format!("{c}String"))),
                set_string: text.then(|| m.enc.take(&format!("Set{c}String"))),
                ..SectionNames::default()
            },
        }
    }
}
