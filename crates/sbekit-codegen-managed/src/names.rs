//! One naming walk for the class-per-type languages: each language's case and keyword policy
//! ([`NamingRules::language`]) and its word lists as settings, names made unique per scope and
//! kept clear of what generated code uses unqualified and of the generated classes' own members.
//!
//! Self-contained on purpose (it reads only the plan): the plan's naming module may take it whole.

use sbekit_ir::PrimitiveType as P;
use sbekit_plan::{Body, Kind, Language, NameKind, Plan, Section};
use std::collections::{BTreeMap, HashSet};

/// What sets one language's names apart: its word lists and its escape rule.
pub struct NamingRules {
    /// The language whose case per kind of name the walk applies.
    pub language: Language,
    /// Type names generated code refers to unqualified (kept from schema types).
    pub types: &'static [&'static str],
    /// Member names of generated classes that accessors must not take.
    pub members: &'static [&'static str],
    /// Names an enum's own members take (kept from its values).
    pub enum_members: &'static [&'static str],
    /// A wanted name made legal (keywords and the generator's own prefixes escaped), before
    /// it is made unique.
    pub escape: fn(&str) -> String,
    /// True if a member may not share its class's name (C#): the class names join each member
    /// scope.
    pub member_not_class: bool,
    /// The prefixes of the presence test, the copy out and the copy in (`has`, `get`, `put`).
    pub verbs: [&'static str; 3],
    /// The package (or namespace) of a schema package, where none is given.
    pub package: fn(&str) -> String,
}

/// A scope of identifiers: each name handed out is unique and not reserved.
pub struct Scope {
    used: HashSet<String>,
    escape: fn(&str) -> String,
}

impl Scope {
    /// A scope, escaping as `rules` say, in which `reserved` are taken already.
    pub fn with(rules: &NamingRules, reserved: &[&str]) -> Scope {
        Scope {
            used: reserved.iter().map(|s| s.to_string()).collect(),
            escape: rules.escape,
        }
    }

    /// Marks `name` as taken, as it stands.
    pub fn reserve(&mut self, name: String) {
        self.used.insert(name);
    }

    /// `want` (escaped), with `_` appended until it is free; the result is taken.
    pub fn take(&mut self, want: &str) -> String {
        let mut s = (self.escape)(want);
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }
}

/// True if `p` is dot-separated ASCII identifiers (letters, digits, `_` and the `extra` chars,
/// not starting with a digit), each part `allowed` (a language refuses its keywords).
pub fn dotted_identifiers(p: &str, extra: &[char], allowed: impl Fn(&str) -> bool) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c);
    !p.is_empty()
        && p.split('.').all(|s| {
            s.chars()
                .next()
                .is_some_and(|c| word(c) && !c.is_ascii_digit())
                && s.chars().all(word)
                && allowed(s)
        })
}

/// `s` with its first letter upper case.
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
    /// The enum type.
    pub ty: String,
    /// Its JSON printer where it is a separate method (C#'s `SbeEnums.AppendX`).
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
    /// Var data: its length (`xLength`).
    pub length: String,
    /// Var data: copy into a caller's buffer (`getX`).
    pub get: String,
    /// Var data: as a string (`xString`).
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

/// Every name of a generated package.
pub struct Names {
    /// The Java package or C# namespace.
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

/// The walk's state: the rules and the scope of type names.
struct Walk<'r> {
    rules: &'r NamingRules,
    top: Scope,
}

impl<'r> Walk<'r> {
    fn case(&self, kind: NameKind, n: &str) -> String {
        self.rules.language.case(kind).apply(n)
    }

    /// A member scope (of a flyweight class named `classes`, when members may not share it).
    fn members(&self, classes: [String; 2]) -> Scope {
        let mut s = Scope::with(self.rules, self.rules.members);
        if self.rules.member_not_class {
            for c in classes {
                s.reserve(c);
            }
        }
        s
    }

    fn fields(&self, s: &mut Scope, fs: &[sbekit_plan::Field]) -> Vec<FieldNames> {
        let [has, get, put] = self.rules.verbs;
        fs.iter()
            .map(|f| {
                let base = self.case(NameKind::Field, &f.name);
                let mut n = FieldNames {
                    name: s.take(&base),
                    ..FieldNames::default()
                };
                if f.is_constant() {
                    return n;
                }
                n.has = s.take(&format!("{has}{}", upper(&base)));
                match &f.kind {
                    Kind::Prim(p) => {
                        n.null = s.take(&format!("{base}NullValue"));
                        if p.len != 1 {
                            n.length = s.take(&format!("{base}Length"));
                        }
                        if p.ty == P::Char && p.len != 1 {
                            n.get = s.take(&format!("{get}{}", upper(&base)));
                            n.put = s.take(&format!("{put}{}", upper(&base)));
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

    fn body(&mut self, plan: &Plan, b: &Body) -> BodyNames {
        let base = plan.type_name(self.rules.language, &b.path);
        let dec = self.top.take(&format!("{base}Decoder"));
        let enc = self.top.take(&format!("{base}Encoder"));
        let mut s = self.members([dec.clone(), enc.clone()]);
        let fields = self.fields(&mut s, &b.fields);
        let get = self.rules.verbs[1];
        let sections = b
            .sections
            .iter()
            .map(|x| {
                let base = self.case(NameKind::Field, x.name());
                let name = s.take(&base);
                match x {
                    Section::Var { .. } => SectionNames {
                        name,
                        length: s.take(&format!("{base}Length")),
                        get: s.take(&format!("{get}{}", upper(&base))),
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
                Section::Group { body: gb, .. } => Some(self.body(plan, gb)),
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

    /// The decoder and encoder names of a set or composite, taken.
    fn flyweights(&mut self, ty: &str) -> (String, String) {
        (
            self.top.take(&format!("{ty}Decoder")),
            self.top.take(&format!("{ty}Encoder")),
        )
    }
}

impl Names {
    /// Names for `plan` by `rules`, in `package` (by default, the rules' package of the schema's).
    pub fn new(plan: &Plan, package: Option<&str>, rules: &NamingRules) -> Names {
        let package = package.map_or_else(|| (rules.package)(&plan.package), str::to_string);
        let mut w = Walk {
            rules,
            top: Scope::with(rules, rules.types),
        };
        let enums = plan
            .enums
            .iter()
            .map(|(k, e)| {
                let mut s = Scope::with(rules, rules.enum_members);
                let variants = e
                    .values
                    .iter()
                    .map(|v| s.take(&w.case(NameKind::EnumVariant, &v.0)))
                    .collect();
                let ty = w.top.take(&w.case(NameKind::Type, k));
                let json = format!("Append{ty}");
                (k.clone(), EnumNames { ty, json, variants })
            })
            .collect();
        // Where members may not share their class's name, a set's or composite's member scope
        // knows the class names as wanted, before the type scope makes them unique.
        let class_names = |w: &Walk, k: &str| {
            let ty = w.case(NameKind::Type, k);
            [format!("{ty}Decoder"), format!("{ty}Encoder")]
        };
        let sets = plan
            .sets
            .iter()
            .map(|(k, d)| {
                let mut s = w.members(class_names(&w, k));
                let choices = d
                    .choices
                    .iter()
                    .map(|c| s.take(&w.case(NameKind::Field, &c.0)))
                    .collect();
                let (dec, enc) = w.flyweights(&w.case(NameKind::Type, k));
                (k.clone(), SetNames { dec, enc, choices })
            })
            .collect();
        let comps = plan
            .composites
            .iter()
            .map(|(k, c)| {
                let mut s = w.members(class_names(&w, k));
                let members = w.fields(&mut s, &c.members);
                let (dec, enc) = w.flyweights(&w.case(NameKind::Type, k));
                (k.clone(), CompNames { dec, enc, members })
            })
            .collect();
        let msgs = plan
            .messages
            .iter()
            .map(|m| w.body(plan, &m.body))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(s: &str) -> String {
        if s == "class" {
            format!("{s}_")
        } else {
            s.to_string()
        }
    }

    const RULES: NamingRules = NamingRules {
        language: Language::Java,
        types: &[],
        members: &["wrap"],
        enum_members: &[],
        escape: keep,
        member_not_class: false,
        verbs: ["has", "get", "put"],
        package: str::to_string,
    };

    #[test]
    fn a_scope_escapes_then_appends_until_free() {
        let mut s = Scope::with(&RULES, RULES.members);
        assert_eq!(s.take("wrap"), "wrap_");
        assert_eq!(s.take("wrap"), "wrap__");
        assert_eq!(s.take("class"), "class_");
        assert_eq!(s.take("class"), "class__");
        s.reserve("x".into());
        assert_eq!(s.take("x"), "x_");
    }

    #[test]
    fn dotted_identifiers_refuse_empty_parts_digits_first_and_what_is_not_allowed() {
        let any = |_: &str| true;
        assert!(dotted_identifiers("a.b_1", &[], any));
        assert!(!dotted_identifiers("", &[], any));
        assert!(!dotted_identifiers("a..b", &[], any));
        assert!(!dotted_identifiers("a.1b", &[], any));
        assert!(!dotted_identifiers("a$", &[], any));
        assert!(dotted_identifiers("a$", &['$'], any));
        assert!(!dotted_identifiers("a.int", &[], |s| s != "int"));
    }

    #[test]
    fn verbs_prefix_the_base_with_its_first_letter_upper() {
        assert_eq!(upper("fooBar"), "FooBar");
        assert_eq!(upper("FooBar"), "FooBar");
        assert_eq!(upper(""), "");
    }
}
