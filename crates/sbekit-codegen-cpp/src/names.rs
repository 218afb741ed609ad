//! C++ identifiers for a plan ([`sbekit_plan::names::assign`]): the plan's C++ case and keyword
//! policy ([`Language::Cpp`]), made unique per scope, and kept clear of the macros the C and C++
//! standard headers define.

use sbekit_plan::names::{
    package_snake, BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, OwnedOf, Owner,
    Scope, SectionNames, SetNames,
};
use sbekit_plan::{EnumDef, Field, Language, NameKind, Section, SetDef};

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
    escape(&package_snake(package, Some("sbe_")))
}

fn escape(s: &str) -> String {
    let e = Language::Cpp.escape(s);
    if MACROS.contains(&e.as_str()) || e == "sbekit" || e == "std" {
        format!("{e}_")
    } else {
        e
    }
}

fn case(kind: NameKind, name: &str) -> String {
    Language::Cpp.case(kind).apply(name)
}

/// C++'s spelling of every identifier: one member scope per class pair (getter and setter
/// share a name).
pub(crate) struct Cpp;

impl NamingConfig for Cpp {
    fn package(&self, schema_package: &str) -> String {
        package_dir(schema_package)
    }

    fn top(&self, package: &str) -> Scope {
        let mut top = Scope::new(
            escape,
            &[
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
            ],
        );
        top.reserve(package);
        top
    }

    fn enumeration(&self, top: &mut Scope, _: &str, name: &str, e: &EnumDef) -> EnumNames {
        let mut own = Scope::new(escape, &[]);
        let values = own.take_each(&e.values, |v| case(NameKind::EnumVariant, &v.0));
        let ty = top.take(&case(NameKind::Type, name));
        EnumNames {
            ty,
            values,
            ..EnumNames::default()
        }
    }

    fn set(&self, top: &mut Scope, _: &str, name: &str, d: &SetDef) -> SetNames {
        let mut own = Scope::new(escape, &["raw", "RAW", "Raw"]);
        let choices = own.take_each(&d.choices, |c| case(NameKind::Field, &c.0));
        let masks = own.take_each(&d.choices, |c| {
            format!("{}_MASK", case(NameKind::Constant, &c.0))
        });
        let ty = top.take(&case(NameKind::Type, name));
        SetNames {
            ty,
            choices,
            masks,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, _: &str, name: &str) -> (String, String) {
        let ty = case(NameKind::Type, name);
        (
            top.take(&format!("{ty}Decoder")),
            top.take(&format!("{ty}Encoder")),
        )
    }

    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames {
        let b = at.body;
        let base = at.plan.type_name(Language::Cpp, &b.path);
        let mut n = BodyNames {
            dec: top.take(&format!("{base}Decoder")),
            enc: top.take(&format!("{base}Encoder")),
            ..BodyNames::default()
        };
        if at.parent.is_some() {
            n.iter = top.take(&format!("{base}Iter"));
            n.writer = top.take(&format!("{base}Writer"));
        }
        n
    }

    fn members(&self, composite: bool) -> Members {
        let mut dec = Scope::new(escape, MEMBERS);
        if composite {
            dec.reserve("SIZE");
        }
        Members::shared(dec)
    }

    fn field(&self, _: &mut Scope, m: &mut Members, _: Owner, f: &Field) -> FieldNames {
        let name = m.dec.take(&case(NameKind::Field, &f.name));
        let raw = f.is_char_array().then(|| m.dec.take(&format!("{name}Raw")));
        FieldNames {
            name,
            raw,
            ..FieldNames::default()
        }
    }

    fn section(&self, _: &mut Scope, m: &mut Members, _: Owner, s: &Section) -> SectionNames {
        SectionNames {
            name: m.dec.take(&case(NameKind::Field, s.name())),
            ..SectionNames::default()
        }
    }

    fn owned(&self, top: &mut Scope, of: OwnedOf) -> String {
        let base = match of {
            OwnedOf::Composite { name, .. } => case(NameKind::Type, name),
            OwnedOf::Body(at) => at.plan.type_name(Language::Cpp, &at.body.path),
            OwnedOf::Any => "Any".into(),
        };
        top.take(&format!("{base}Owned"))
    }
}

/// What an owned struct declares itself, which its members must not be named.
pub(crate) const OWNED_MEMBERS: &[&str] = &[
    "sbeActingVersion",
    "decodeFrom",
    "encodeWith",
    "encodeInto",
    "encode",
    "validate",
    "computeEncodedLength",
    "operator",
];

/// The members of an owned struct: per field, then per section, the decoder's accessor name,
/// changed only where it would be one of [`OWNED_MEMBERS`] (constants are static functions of
/// the same names).
pub(crate) fn owned_members(fields: &[FieldNames], sections: &[SectionNames]) -> Vec<String> {
    let mut own = Scope::plain(OWNED_MEMBERS);
    let mut v: Vec<String> = fields.iter().map(|f| own.take(&f.name)).collect();
    v.extend(sections.iter().map(|s| own.take(&s.name)));
    v
}
