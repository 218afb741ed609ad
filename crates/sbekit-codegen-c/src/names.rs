//! C identifiers for a plan ([`sbekit_plan::names::assign`]). C has one namespace for types,
//! functions and macros, so every identifier is the package prefix, the type and the member
//! joined by `_` (the plan's C case, [`Language::C`]), kept unique in the one package scope;
//! member scopes only keep the member parts apart.

// C's case: snake for types, functions and members, screaming snake for macros.
use sbekit_plan::names::{
    package_snake, BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner,
    PlanNames, Scope, SectionNames, SetNames,
};
use sbekit_plan::names::{screaming as upper, snake};
use sbekit_plan::{Body, EnumDef, Field, Language, Plan, Section, SetDef};

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
            // The writer of fixed-size entries reserved at once: its entry and its start.
            for f in ["entry", "sbe_start_n"] {
                top.reserve(&format!("{}_{f}", n.writer));
            }
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
        let dec = top.take(&format!("{}_{name}", o.dec));
        let set = top.take(&format!("{}_{name}", o.enc));
        // A group of fixed-size entries also starts with its count given (`<setter>_n`).
        let fixed = s.as_group().is_some_and(|g| g.body.is_fixed());
        SectionNames {
            name: dec,
            set_counted: fixed.then(|| top.take(&format!("{set}_n"))),
            set: Some(set),
            ..SectionNames::default()
        }
    }
}

/// The members of an owned struct that C's headers could turn into something else: libc's
/// lower-case object-like macros (the keywords, `bool`, `true` and `false` among them, are
/// escaped by [`Language::C`]).
const OWNED_MEMBERS_RESERVED: &[&str] = &["stdin", "stdout", "stderr", "errno", "math_errhandling"];

/// A field's members in an owned struct: its value and, for a field that may be absent
/// ([`Field::may_be_absent`]), its presence flag (`has_<name>`).
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnedMember {
    /// The value.
    pub name: String,
    /// The presence flag.
    pub has: Option<String>,
}

/// A section's members in an owned struct: var data as a view (`name`); a group's entries as a
/// pointer (`name`) and their number (`count`).
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnedSection {
    /// The view or the entries.
    pub name: String,
    /// Groups: the number of entries.
    pub count: Option<String>,
}

/// The owned struct of a message body or group entry.
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnedBody {
    /// The struct type (`<prefix>_car_owned`); its functions are `<ty>_<suffix>`
    /// ([`OWNED_FUNCTIONS`], and [`MESSAGE_FUNCTIONS`] for messages).
    pub ty: String,
    /// Per field (constants have none: `None`).
    pub fields: Vec<Option<OwnedMember>>,
    /// Per section, in wire order.
    pub sections: Vec<OwnedSection>,
    /// Per group section, in order: its entry's.
    pub children: Vec<OwnedBody>,
    /// The placeholder member of a struct with nothing to hold (C has no empty structs).
    pub empty: Option<String>,
}

/// The owned struct of a composite.
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnedComposite {
    /// The struct type (`<prefix>_engine_owned`).
    pub ty: String,
    /// Per member (constants have none).
    pub members: Vec<Option<OwnedMember>>,
    /// The placeholder member of a struct with nothing to hold.
    pub empty: Option<String>,
}

/// The identifiers of the owned values ([`crate::owned`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnedNames {
    /// Composites by schema name.
    pub composites: std::collections::BTreeMap<String, OwnedComposite>,
    /// Messages, in plan order.
    pub messages: Vec<OwnedBody>,
    /// Any message (`<prefix>_any_owned`); its functions are `<any>_<suffix>`
    /// ([`ANY_FUNCTIONS`]).
    pub any: String,
    /// Per enum (by schema name), the test that a value is one the schema lists
    /// (`<enum>_listed`), which `validate` calls.
    pub listed: std::collections::BTreeMap<String, String>,
}

/// The functions of every owned struct, named `<type>_<suffix>`.
pub(crate) const OWNED_FUNCTIONS: &[&str] = &["equal", "validate", "sbe_read", "sbe_write"];

/// The functions of a message's owned struct besides [`OWNED_FUNCTIONS`].
pub(crate) const MESSAGE_FUNCTIONS: &[&str] = &["from_dec", "decode", "encode"];

/// The functions of the any-message owned struct.
pub(crate) const ANY_FUNCTIONS: &[&str] = &["from_any", "decode", "encode", "equal", "validate"];

/// A type and its functions, for [`Scope::take_family`].
fn family(suffixes: &'static [&'static [&'static str]]) -> impl Fn(&str) -> Vec<String> {
    move |t| {
        let mut v = vec![t.to_string()];
        for s in suffixes.iter().flat_map(|s| s.iter()) {
            v.push(format!("{t}_{s}"));
        }
        v
    }
}

/// A member scope of an owned struct: C's keywords escaped (`int_`), libc's lower-case macros
/// and `reserved` kept clear.
fn owned_members(reserved: &[&str]) -> Scope {
    let mut s = Scope::new(|w| Language::C.escape(w), OWNED_MEMBERS_RESERVED);
    for r in reserved {
        s.reserve(r);
    }
    s
}

/// The members of `fields` in scope `m`: values first, then presence flags.
fn owned_fields(m: &mut Scope, fields: &[Field]) -> Vec<Option<OwnedMember>> {
    let mut v: Vec<Option<OwnedMember>> = fields
        .iter()
        .map(|f| {
            (!f.is_constant()).then(|| OwnedMember {
                name: m.take(&snake(&f.name)),
                has: None,
            })
        })
        .collect();
    for (f, o) in fields.iter().zip(&mut v) {
        if let (Some(o), true) = (o, f.may_be_absent()) {
            o.has = Some(m.take(&format!("has_{}", o.name)));
        }
    }
    v
}

fn owned_body(top: &mut Scope, plan: &Plan, p: &str, b: &Body, msg: bool) -> OwnedBody {
    let want = format!("{p}_{}_owned", plan.type_name(Language::C, &b.path));
    let ty = if msg {
        top.take_family(&want, family(&[OWNED_FUNCTIONS, MESSAGE_FUNCTIONS]))
    } else {
        top.take_family(&want, family(&[OWNED_FUNCTIONS]))
    };
    let mut m = owned_members(if msg { &["acting_version"] } else { &[] });
    let fields = owned_fields(&mut m, &b.fields);
    let mut sections: Vec<OwnedSection> = b
        .sections
        .iter()
        .map(|s| OwnedSection {
            name: m.take(&snake(s.name())),
            count: None,
        })
        .collect();
    for (s, o) in b.sections.iter().zip(&mut sections) {
        if s.as_group().is_some() {
            o.count = Some(m.take(&format!("{}_count", o.name)));
        }
    }
    let empty = (!msg && fields.iter().all(Option::is_none) && sections.is_empty())
        .then(|| m.take("sbe_empty"));
    let children = b
        .groups()
        .map(|(_, _, gb)| owned_body(top, plan, p, gb, false))
        .collect();
    OwnedBody {
        ty,
        fields,
        sections,
        children,
        empty,
    }
}

/// The names of the owned values, taken in the package scope `top` after every other name
/// ([`sbekit_plan::names::assign_scoped`]), so that the flyweights' names stay as they are.
pub(crate) fn owned(plan: &Plan, n: &PlanNames, top: &mut Scope) -> OwnedNames {
    let p = &n.package;
    let composites = plan
        .composites
        .keys()
        .map(|k| {
            let ty = top.take_family(
                &format!("{p}_{}_owned", snake(k)),
                family(&[OWNED_FUNCTIONS]),
            );
            let mut m = owned_members(&[]);
            let members = owned_fields(&mut m, &plan.gated_members(k));
            let empty = members
                .iter()
                .all(Option::is_none)
                .then(|| m.take("sbe_empty"));
            (k.clone(), OwnedComposite { ty, members, empty })
        })
        .collect();
    let messages = plan
        .messages
        .iter()
        .map(|msg| owned_body(top, plan, p, &msg.body, true))
        .collect();
    let any = top.take_family(&format!("{p}_any_owned"), family(&[ANY_FUNCTIONS]));
    let listed = plan
        .enums
        .keys()
        .map(|k| (k.clone(), top.take(&format!("{}_listed", n.enums[k].ty))))
        .collect();
    OwnedNames {
        composites,
        messages,
        any,
        listed,
    }
}
