//! C identifiers for a plan. C has one namespace for types, functions and macros, so every
//! identifier is the package prefix, the type and the member joined by `_` (the plan's C case,
//! [`Language::C`]), handed out by one scope that keeps them unique.

use crate::Options;
use sbekit_plan::{Body, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

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

/// The identifier prefix (and include directory) of a schema package: its words in snake case
/// (`b3.umdf.mbo.sbe` -> `b3_umdf_mbo_sbe`), kept clear of C keywords and the runtime's
/// `sbekit` prefix.
pub fn package_prefix(package: &str) -> String {
    let s = sbekit_plan::names::snake(&package.replace('.', "_"));
    let s = s.trim_start_matches('_').to_string();
    // A package with no letters or digits at all (snake case would name it `field`).
    let s = if s.is_empty() || sbekit_plan::names::words(package).is_empty() {
        "schema".to_string()
    } else {
        s
    };
    let s = if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("sbe_{s}")
    } else {
        s
    };
    if Language::C.is_reserved(&s) || s == "sbekit" || s.starts_with("sbekit_") {
        format!("{s}_sbe")
    } else {
        s
    }
}

/// A scope of identifiers: each name handed out is unique.
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

    /// `want`, with `_` appended until it is free; the result is taken.
    pub fn take(&mut self, want: &str) -> String {
        let mut s = want.to_string();
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }

    /// Marks `s` as taken.
    fn reserve(&mut self, s: &str) {
        self.used.insert(s.to_string());
    }
}

fn snake(n: &str) -> String {
    Language::C.case(NameKind::Field).apply(n)
}

fn upper(n: &str) -> String {
    Language::C.case(NameKind::Constant).apply(n)
}

/// Function names of one field.
#[derive(Debug, Clone)]
pub struct FieldNames {
    /// Getter (on the decoder type).
    pub get: String,
    /// Setter (on the encoder type).
    pub set: String,
    /// Writes the null value (optional scalars and enums).
    pub set_null: Option<String>,
    /// The raw getter of a char array (all its bytes).
    pub raw: Option<String>,
}

/// Names of an enum.
#[derive(Debug, Clone)]
pub struct EnumNames {
    /// The typedef (the encoding's integer type: unknown values are kept).
    pub ty: String,
    /// Value macros, in schema order.
    pub values: Vec<String>,
    /// Internal: the JSON printer.
    pub json: String,
}

/// Names of a set.
#[derive(Debug, Clone)]
pub struct SetNames {
    /// The typedef.
    pub ty: String,
    /// Mask macro per choice.
    pub masks: Vec<String>,
    /// Test function per choice.
    pub tests: Vec<String>,
    /// Function per choice returning the set with the choice set or cleared.
    pub with: Vec<String>,
    /// Internal: the JSON printer.
    pub json: String,
}

/// Names of a composite.
#[derive(Debug, Clone)]
pub struct CompNames {
    /// The decoder view type.
    pub dec: String,
    /// The encoder view type.
    pub enc: String,
    /// Members.
    pub members: Vec<FieldNames>,
}

/// Function names of a group or var-data section.
#[derive(Debug, Clone)]
pub struct SecNames {
    /// Getter (iterator or data) on the decoder.
    pub get: String,
    /// Writer on the encoder.
    pub set: String,
}

/// Names of a message body or group entry.
#[derive(Debug, Clone)]
pub struct BodyNames {
    /// Dotted schema path (`Car.fuelFigures`).
    pub path: String,
    /// Decoder type.
    pub dec: String,
    /// Encoder type.
    pub enc: String,
    /// Group iterator type (groups only).
    pub iter: String,
    /// Group writer type (groups only).
    pub writer: String,
    /// `P_ANY_<MESSAGE>`: the tag of the message in the `any` union (messages only).
    pub tag: String,
    /// Field accessors.
    pub fields: Vec<FieldNames>,
    /// Section accessors (groups and var data, in wire order).
    pub sections: Vec<SecNames>,
    /// Names of the groups' bodies, in section order (one per group).
    pub children: Vec<BodyNames>,
}

/// Every name of a generated library.
pub struct Names {
    /// The prefix (include directory) in snake case.
    pub p: String,
    /// The prefix in upper case (for macros).
    pub up: String,
    /// Enums by schema name.
    pub enums: BTreeMap<String, EnumNames>,
    /// Sets by schema name.
    pub sets: BTreeMap<String, SetNames>,
    /// Composites by schema name.
    pub comps: BTreeMap<String, CompNames>,
    /// Messages, in plan order.
    pub msgs: Vec<BodyNames>,
}

fn fields(top: &mut Scope, dec: &str, enc: &str, fs: &[sbekit_plan::Field]) -> Vec<FieldNames> {
    let mut s = Scope::with(MEMBERS);
    fs.iter()
        .map(|f| {
            let m = s.take(&snake(&f.name));
            let nullable = f.is_nullable();
            let raw = match &f.kind {
                Kind::Prim(p) if p.ty == sbekit_ir::PrimitiveType::Char && p.len != 1 => {
                    Some(s.take(&format!("{m}_raw")))
                }
                _ => None,
            };
            let null = nullable.then(|| s.take(&format!("{m}_null")));
            FieldNames {
                get: top.take(&format!("{dec}_{m}")),
                set: top.take(&format!("{enc}_{m}")),
                set_null: null.map(|n| top.take(&format!("{enc}_{n}"))),
                raw: raw.map(|r| top.take(&format!("{dec}_{r}"))),
            }
        })
        .collect()
}

/// Takes a type name and reserves the internal functions generated for it.
fn ty(top: &mut Scope, want: &str) -> String {
    let t = top.take(want);
    for s in [
        "sbe_at",
        "sbe_end",
        "sbe_json",
        "sbe_copy",
        "sbe_start",
        "sbe_complete",
        "sbe_section",
        "sbe_fill",
    ] {
        top.reserve(&format!("{t}_{s}"));
    }
    for m in MEMBERS {
        top.reserve(&format!("{t}_{m}"));
    }
    t
}

fn body(top: &mut Scope, p: &str, up: &str, plan: &Plan, b: &Body) -> BodyNames {
    let base = format!("{p}_{}", plan.type_name(Language::C, &b.path));
    let dec = ty(top, &format!("{base}_dec"));
    let enc = ty(top, &format!("{base}_enc"));
    let (iter, writer, tag) = if b.path.len() > 1 {
        (
            ty(top, &format!("{base}_iter")),
            ty(top, &format!("{base}_writer")),
            String::new(),
        )
    } else {
        (
            String::new(),
            String::new(),
            top.take(&format!("{up}_ANY_{}", upper(&b.name))),
        )
    };
    let children: Vec<BodyNames> = b
        .sections
        .iter()
        .filter_map(|x| match x {
            Section::Group { body: gb, .. } => Some(body(top, p, up, plan, gb)),
            Section::Var { .. } => None,
        })
        .collect();
    let fields = fields(top, &dec, &enc, &b.fields);
    // Sections share the fields' member scope: take them after the fields, in the same scope
    // rules (the member part must differ from every field's).
    let field_members: Vec<String> = fields
        .iter()
        .map(|f| f.get[dec.len() + 1..].to_string())
        .collect();
    let mut s = Scope::with(MEMBERS);
    for m in &field_members {
        s.reserve(m);
    }
    let sections = b
        .sections
        .iter()
        .map(|x| {
            let m = s.take(&snake(x.name()));
            SecNames {
                get: top.take(&format!("{dec}_{m}")),
                set: top.take(&format!("{enc}_{m}")),
            }
        })
        .collect();
    BodyNames {
        path: b.path.join("."),
        dec,
        enc,
        iter,
        writer,
        tag,
        fields,
        sections,
        children,
    }
}

impl Names {
    /// Names for `plan`.
    pub fn new(plan: &Plan, opts: &Options) -> Names {
        let p = opts
            .package
            .clone()
            .unwrap_or_else(|| package_prefix(&plan.package));
        let up = p.to_ascii_uppercase();
        let mut top = Scope::default();
        for s in [
            "any",
            "decode_any",
            "any_to_json",
            "reencode",
            "sbe_conformance",
        ] {
            top.reserve(&format!("{p}_{s}"));
        }
        for s in [
            "SCHEMA_ID",
            "SCHEMA_VERSION",
            "HEADER_LENGTH",
            "ANY_NONE",
            "TYPES_H",
            "MESSAGES_H",
            "JSON_H",
            "ALL_H",
            "CONFORMANCE_H",
        ] {
            top.reserve(&format!("{up}_{s}"));
        }
        let enums = plan
            .enums
            .iter()
            .map(|(k, e)| {
                let t = ty(&mut top, &format!("{p}_{}", snake(k)));
                let tu = upper(k);
                let values = e
                    .values
                    .iter()
                    .map(|v| top.take(&format!("{up}_{tu}_{}", upper(&v.0))))
                    .collect();
                (
                    k.clone(),
                    EnumNames {
                        json: format!("{t}_sbe_json"),
                        ty: t,
                        values,
                    },
                )
            })
            .collect();
        let sets = plan
            .sets
            .iter()
            .map(|(k, d)| {
                let t = ty(&mut top, &format!("{p}_{}", snake(k)));
                let tu = upper(k);
                let mut s = Scope::with(MEMBERS);
                let members: Vec<String> = d.choices.iter().map(|c| s.take(&snake(&c.0))).collect();
                let masks = d
                    .choices
                    .iter()
                    .map(|c| top.take(&format!("{up}_{tu}_{}", upper(&c.0))))
                    .collect();
                let tests = members
                    .iter()
                    .map(|m| top.take(&format!("{t}_{m}")))
                    .collect();
                let with = members
                    .iter()
                    .map(|m| top.take(&format!("{t}_with_{m}")))
                    .collect();
                (
                    k.clone(),
                    SetNames {
                        json: format!("{t}_sbe_json"),
                        ty: t,
                        masks,
                        tests,
                        with,
                    },
                )
            })
            .collect();
        let comps = plan
            .composites
            .iter()
            .map(|(k, c)| {
                let dec = ty(&mut top, &format!("{p}_{}_dec", snake(k)));
                let enc = ty(&mut top, &format!("{p}_{}_enc", snake(k)));
                let members = fields(&mut top, &dec, &enc, &c.members);
                (k.clone(), CompNames { dec, enc, members })
            })
            .collect();
        let msgs = plan
            .messages
            .iter()
            .map(|m| body(&mut top, &p, &up, plan, &m.body))
            .collect();
        Names {
            p,
            up,
            enums,
            sets,
            comps,
            msgs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_c_identifiers_clear_of_keywords_and_the_runtime() {
        assert_eq!(
            package_prefix("uk.co.real_logic.sbe.benchmarks"),
            "uk_co_real_logic_sbe_benchmarks"
        );
        assert_eq!(package_prefix("b3.umdf.mbo.sbe"), "b3_umdf_mbo_sbe");
        assert_eq!(package_prefix("int"), "int_sbe");
        assert_eq!(package_prefix("sbekit"), "sbekit_sbe");
        assert_eq!(package_prefix("sbekit.x"), "sbekit_x_sbe");
        assert_eq!(package_prefix("9lives"), "sbe_9lives");
        assert_eq!(package_prefix("..."), "schema");
    }

    #[test]
    fn scopes_hand_out_unique_names() {
        let mut s = Scope::with(&["count"]);
        assert_eq!(s.take("count"), "count_");
        assert_eq!(s.take("count"), "count__");
        assert_eq!(s.take("speed"), "speed");
    }
}
