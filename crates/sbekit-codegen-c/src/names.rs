//! C identifiers for a plan ([`sbekit_plan::names::assign`]). C has one namespace for types,
//! functions and macros, so every identifier is the package prefix, the type and the member
//! joined by `_` (the plan's C case, [`Language::C`]), kept unique in the one package scope;
//! member scopes only keep the member parts apart.

// C's case: snake for types, functions and members, screaming snake for macros.
use sbekit_plan::names::{
    package_snake, BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner, Scope,
    SectionNames, SetNames,
};
use sbekit_plan::names::{screaming as upper, snake};
use sbekit_plan::{EnumDef, Field, Language, Section, SetDef};

/// Member names generated functions use themselves, which fields must not take.
const MEMBERS: &[&str] = &[
    "decode",
    "acting_version",
    "block_length",
    "block_length_at",
    "encoded_length",
    "buffer",
    "to_json",
    "init",
    "finish",
    "next",
    "end",
    "count",
];

/// The package-level functions and types generated, named `<prefix>_<name>`.
const PACKAGE_FUNCTIONS: &[&str] = &[
    "any",
    "decode_any",
    "any_to_json",
    "reencode",
    "sbe_conformance",
];

/// The package-level macros generated, named `<PREFIX>_<NAME>`.
const PACKAGE_MACROS: &[&str] = &[
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "HEADER_LENGTH",
    "ANY_NONE",
    "TYPES_H",
    "MESSAGES_H",
    "JSON_H",
    "ALL_H",
    "CONFORMANCE_H",
];

/// The functions generated for every type, named `<type>_<suffix>`.
const TYPE_FUNCTIONS: &[&str] = &[
    "sbe_at",
    "sbe_end",
    "sbe_json",
    "sbe_copy",
    "sbe_start",
    "sbe_complete",
    "sbe_section",
    "sbe_fill",
];

/// The identifier prefix (and include directory) of a schema package: its words in snake case
/// (`b3.umdf.mbo.sbe` -> `b3_umdf_mbo_sbe`), kept clear of C keywords and the runtime's
/// `sbekit` prefix.
pub fn package_prefix(package: &str) -> String {
    let s = package_snake(package, Some("sbe_"));
    if Language::C.is_reserved(&s) || s == "sbekit" || s.starts_with("sbekit_") {
        format!("{s}_sbe")
    } else {
        s
    }
}

/// Takes a type name and reserves the functions generated for it.
fn type_name(top: &mut Scope, want: &str) -> String {
    let t = top.take(want);
    for s in TYPE_FUNCTIONS.iter().chain(MEMBERS) {
        top.reserve(&format!("{t}_{s}"));
    }
    t
}

/// C's spelling of every identifier.
pub(crate) struct C;

impl NamingConfig for C {
    fn package(&self, schema_package: &str) -> String {
        package_prefix(schema_package)
    }

    fn top(&self, p: &str) -> Scope {
        let mut top = Scope::plain(&[]);
        for s in PACKAGE_FUNCTIONS {
            top.reserve(&format!("{p}_{s}"));
        }
        for s in PACKAGE_MACROS {
            top.reserve(&format!("{}_{s}", p.to_ascii_uppercase()));
        }
        top
    }

    fn enumeration(&self, top: &mut Scope, p: &str, name: &str, e: &EnumDef) -> EnumNames {
        let ty = type_name(top, &format!("{p}_{}", snake(name)));
        let prefix = format!("{}_{}", p.to_ascii_uppercase(), upper(name));
        let values = top.take_each(&e.values, |v| format!("{prefix}_{}", upper(&v.0)));
        let json = format!("{ty}_sbe_json");
        EnumNames {
            ty,
            values,
            json,
            ..EnumNames::default()
        }
    }

    fn set(&self, top: &mut Scope, p: &str, name: &str, d: &SetDef) -> SetNames {
        let ty = type_name(top, &format!("{p}_{}", snake(name)));
        let prefix = format!("{}_{}", p.to_ascii_uppercase(), upper(name));
        let members = Scope::plain(MEMBERS).take_each(&d.choices, |c| snake(&c.0));
        let masks = top.take_each(&d.choices, |c| format!("{prefix}_{}", upper(&c.0)));
        let choices = top.take_each(&members, |m| format!("{ty}_{m}"));
        let with = top.take_each(&members, |m| format!("{ty}_with_{m}"));
        let json = format!("{ty}_sbe_json");
        SetNames {
            ty,
            choices,
            masks,
            with,
            json,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, p: &str, name: &str) -> (String, String) {
        (
            type_name(top, &format!("{p}_{}_dec", snake(name))),
            type_name(top, &format!("{p}_{}_enc", snake(name))),
        )
    }

    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames {
        let (p, b) = (at.package, at.body);
        let base = format!("{p}_{}", at.plan.type_name(Language::C, &b.path));
        let mut n = BodyNames {
            dec: type_name(top, &format!("{base}_dec")),
            enc: type_name(top, &format!("{base}_enc")),
            ..BodyNames::default()
        };
        if at.parent.is_some() {
            n.iter = type_name(top, &format!("{base}_iter"));
            n.writer = type_name(top, &format!("{base}_writer"));
        } else {
            let up = p.to_ascii_uppercase();
            n.tag = top.take(&format!("{up}_ANY_{}", upper(&b.name)));
        }
        n
    }

    fn members(&self, _: bool) -> Members {
        Members::shared(Scope::plain(MEMBERS))
    }

    fn field(&self, top: &mut Scope, m: &mut Members, o: Owner, f: &Field) -> FieldNames {
        let name = m.dec.take(&snake(&f.name));
        let raw = f
            .is_char_array()
            .then(|| m.dec.take(&format!("{name}_raw")));
        let null = f.is_nullable().then(|| m.dec.take(&format!("{name}_null")));
        // Taken in the package scope in this order: getter, setter, null setter, raw getter.
        FieldNames {
            name: top.take(&format!("{}_{name}", o.dec)),
            set: Some(top.take(&format!("{}_{name}", o.enc))),
            set_null: null.map(|n| top.take(&format!("{}_{n}", o.enc))),
            raw: raw.map(|r| top.take(&format!("{}_{r}", o.dec))),
            ..FieldNames::default()
        }
    }

    fn section(&self, top: &mut Scope, m: &mut Members, o: Owner, s: &Section) -> SectionNames {
        let name = m.dec.take(&snake(s.name()));
        SectionNames {
            name: top.take(&format!("{}_{name}", o.dec)),
            set: Some(top.take(&format!("{}_{name}", o.enc))),
            ..SectionNames::default()
        }
    }
}
