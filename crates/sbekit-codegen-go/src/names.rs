//! Go identifiers for a plan ([`sbekit_plan::names::assign`]): every exported name of a
//! package is unique (types, enum values and set masks share one scope) and every method name is
//! unique on its type (the methods the generator adds itself are taken first, so a field called
//! `wrap` becomes `Wrap_`).

use sbekit_plan::names::{
    spell, spell_all, BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner,
    Scope, SectionNames, SetNames,
};
use sbekit_plan::{EnumDef, Field, Kind, Language, NameKind, Section, SetDef};

/// The Go package name for a schema package: its words joined by `_`, lower case
/// (`uk.co.real_logic.sbe.examples` -> `uk_co_real_logic_sbe_examples`).
pub fn package_name(package: &str) -> String {
    Language::Go.escape(&sbekit_plan::names::package_snake(package, Some("sbe_")))
}

/// The package-level identifiers the generator derives from a message's decoder type `{T}`
/// (`messages/decoders.rs`, `messages/encoders.rs`, `json.rs`; `{t}` is it with its first letter
/// lower-cased).
const MESSAGE_FAMILY: &[&str] = &[
    "{T}",
    "{T}Encoder",
    "copy{T}",
    "{t}State",
    "{t}BlockLength",
    "Decode{T}",
    "New{T}Encoder",
    "{T}Owned",
    "Decode{T}Owned",
];

/// The package-level identifiers the generator derives from a group entry's decoder type.
const GROUP_FAMILY: &[&str] = &[
    "{T}",
    "{T}Encoder",
    "copy{T}",
    "{t}State",
    "{t}BlockLength",
    "{T}Iter",
    "{T}Writer",
    "{T}Owned",
];

/// The package-level identifiers the generator derives from a composite's decoder type.
const COMPOSITE_FAMILY: &[&str] = &["{T}", "{T}Owned"];

/// What every owned type declares beside its fields (`owned.rs`): the message's version field
/// and the methods. Its fields' names are taken after these, in a scope of their own.
const OWNED_RESERVED: &[&str] = &[
    "SbeActingVersion",
    "SbeTemplateID",
    "From",
    "EncodeOwned",
    "put",
    "Validate",
];

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
    "AnyOwned",
    "DecodeOwned",
    "ValidationError",
    "ValidationErrorKind",
    "OutOfRange",
    "UnknownEnumValue",
    "TooManyEntries",
    "TooLong",
];

fn camel(s: &str) -> String {
    Language::Go.case(NameKind::Type).apply(s)
}

fn scope(reserved: &[&str]) -> Scope {
    Scope::new(|w| Language::Go.escape(w), reserved)
}

/// The owned type of the type whose decoder is `dec` (its family reserves it).
pub(crate) fn owned_type(dec: &str) -> String {
    spell("{T}Owned", dec)
}

/// The fields of an owned type, in one scope of their own: per field (constants too, though
/// they are not stored), then per section.
pub(crate) fn owned_fields(fields: &[Field], sections: &[Section]) -> (Vec<String>, Vec<String>) {
    let mut s = scope(OWNED_RESERVED);
    let f = fields.iter().map(|f| s.take(&camel(&f.name))).collect();
    let x = sections.iter().map(|x| s.take(&camel(x.name()))).collect();
    (f, x)
}

/// Go's spelling of every identifier.
pub(crate) struct Go;

impl NamingConfig for Go {
    fn package(&self, schema_package: &str) -> String {
        package_name(schema_package)
    }

    fn top(&self, _package: &str) -> Scope {
        scope(RUNTIME)
    }

    fn enumeration(&self, top: &mut Scope, _: &str, name: &str, e: &EnumDef) -> EnumNames {
        let ty = top.take(&camel(name));
        let values = top.take_each(&e.values, |v| format!("{ty}{}", camel(&v.0)));
        let null = top.take(&format!("{ty}NullValue"));
        EnumNames {
            ty,
            values,
            null,
            ..EnumNames::default()
        }
    }

    fn set(&self, top: &mut Scope, _: &str, name: &str, s: &SetDef) -> SetNames {
        let ty = top.take(&camel(name));
        let masks = top.take_each(&s.choices, |c| format!("{ty}{}", camel(&c.0)));
        let choices = scope(&["AppendJSON", "String"]).take_each(&s.choices, |c| camel(&c.0));
        SetNames {
            ty,
            choices,
            masks,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, _: &str, name: &str) -> (String, String) {
        (
            top.take_family(&camel(name), |d| spell_all(COMPOSITE_FAMILY, d)),
            top.take(&format!("{}Encoder", camel(name))),
        )
    }

    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames {
        let b = at.body;
        let want = match at.parent {
            None => at.plan.type_name(Language::Go, &b.path),
            Some(p) => format!("{}{}", p.dec, camel(&b.name)),
        };
        let family = if at.parent.is_none() {
            MESSAGE_FAMILY
        } else {
            GROUP_FAMILY
        };
        let dec = top.take_family(&want, |d| spell_all(family, d));
        let mut n = BodyNames {
            enc: spell("{T}Encoder", &dec),
            private: spell("{t}", &dec),
            dec,
            ..BodyNames::default()
        };
        if at.parent.is_some() {
            (n.iter, n.writer) = (spell("{T}Iter", &n.dec), spell("{T}Writer", &n.dec));
        }
        n
    }

    fn members(&self, composite: bool) -> Members {
        match composite {
            true => Members::new(
                scope(&["AppendJSON", "SbeActingVersion", "String"]),
                scope(&["String"]),
            ),
            false => Members::new(scope(DEC_METHODS), scope(ENC_METHODS)),
        }
    }

    fn field(&self, _: &mut Scope, m: &mut Members, _: Owner, f: &Field) -> FieldNames {
        let c = camel(&f.name);
        FieldNames {
            name: m.dec.take(&c),
            set: Some(match f.kind {
                Kind::Composite { .. } => m.enc.take(&c),
                _ => m.enc.take(&format!("Set{c}")),
            }),
            raw: f.is_char_array().then(|| m.dec.take(&format!("{c}Raw"))),
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
