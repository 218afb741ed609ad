//! How Java and C# spell the plan's naming walk ([`sbekit_plan::names::assign()`]): each language's
//! case and keyword policy ([`NamingRules::language`]) and word lists as settings, names kept clear
//! of what generated code uses unqualified and of the classes' own members.

use crate::upper_first;
use sbekit_plan::names::{
    BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner, Scope, SectionNames,
    SetNames,
};
use sbekit_plan::{EnumDef, Field, Kind, Language, NameKind, Section, SetDef};

/// What sets one language's names apart: its word lists and its escape rule. Its
/// [`NamingConfig`] spells every identifier for [`sbekit_plan::names::assign()`].
pub struct NamingRules {
    /// The language whose case per kind of name the walk applies.
    pub language: Language,
    /// Type names generated code refers to unqualified (kept from schema types).
    pub types: &'static [&'static str],
    /// Member names of generated classes that accessors must not take.
    pub members: &'static [&'static str],
    /// Names an enum's own members take (kept from its values).
    pub enum_members: &'static [&'static str],
    /// A wanted name made legal (keywords, the generator's own prefixes), before it is unique.
    pub escape: fn(&str) -> String,
    /// True if a member may not share its class's name (C#): the classes join member scopes.
    pub member_not_class: bool,
    /// The prefixes of the presence test, the copy out and the copy in (`has`, `get`, `put`).
    pub verbs: [&'static str; 3],
    /// The package (or namespace) of a schema package, where none is given.
    pub package: fn(&str) -> String,
}

/// The decoder and encoder classes of type `ty`, taken in `top`.
fn classes(top: &mut Scope, ty: &str) -> [String; 2] {
    ["Decoder", "Encoder"].map(|k| top.take(&format!("{ty}{k}")))
}

impl NamingRules {
    fn case(&self, kind: NameKind, n: &str) -> String {
        self.language.case(kind).apply(n)
    }

    /// Where members may not share their class's name, the `classes` taken in member scope `s`.
    fn own(&self, s: &mut Scope, classes: [&str; 2]) {
        if self.member_not_class {
            classes.iter().for_each(|c| s.reserve(c));
        }
    }
}

impl NamingConfig for NamingRules {
    fn package(&self, schema_package: &str) -> String {
        (self.package)(schema_package)
    }

    fn top(&self, _: &str) -> Scope {
        Scope::new(self.escape, self.types)
    }

    fn enumeration(&self, top: &mut Scope, _: &str, name: &str, e: &EnumDef) -> EnumNames {
        let mut own = Scope::new(self.escape, self.enum_members);
        let ty = top.take(&self.case(NameKind::Type, name));
        EnumNames {
            json: format!("Append{ty}"),
            values: own.take_each(&e.values, |v| self.case(NameKind::EnumVariant, &v.0)),
            ty,
            ..EnumNames::default()
        }
    }

    fn set(&self, top: &mut Scope, package: &str, name: &str, d: &SetDef) -> SetNames {
        let (ty, enc) = self.composite(top, package, name);
        let mut own = Scope::new(self.escape, self.members);
        self.own(&mut own, [&ty, &enc]);
        SetNames {
            choices: own.take_each(&d.choices, |c| self.case(NameKind::Field, &c.0)),
            ty,
            enc,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, _: &str, name: &str) -> (String, String) {
        let [dec, enc] = classes(top, &self.case(NameKind::Type, name));
        (dec, enc)
    }

    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames {
        let [dec, enc] = classes(top, &at.plan.type_name(self.language, &at.body.path));
        BodyNames {
            // A group's decoder is its iterator: one flyweight moved from entry to entry.
            iter: at.parent.map_or_else(String::new, |_| dec.clone()),
            dec,
            enc,
            ..BodyNames::default()
        }
    }

    fn members(&self, _: bool) -> Members {
        Members::shared(Scope::new(self.escape, self.members))
    }

    fn field(&self, _: &mut Scope, m: &mut Members, owner: Owner, f: &Field) -> FieldNames {
        let s = &mut m.dec;
        self.own(s, [owner.dec, owner.enc]);
        let base = self.case(NameKind::Field, &f.name);
        let [has, get, put] = self.verbs.map(|v| format!("{v}{}", upper_first(&base)));
        let mut n = FieldNames {
            name: s.take(&base),
            ..FieldNames::default()
        };
        if f.is_constant() {
            return n;
        }
        n.has = s.take(&has);
        match &f.kind {
            Kind::Prim(p) => {
                n.null = s.take(&format!("{base}NullValue"));
                if p.len != 1 {
                    n.length = s.take(&format!("{base}Length"));
                }
                if f.is_char_array() {
                    n.get = s.take(&get);
                    n.put = s.take(&put);
                    n.string = s.take(&format!("{base}String"));
                }
            }
            Kind::Enum { .. } => n.raw = Some(s.take(&format!("{base}Raw"))),
            _ => {}
        }
        n
    }

    fn section(&self, _: &mut Scope, m: &mut Members, owner: Owner, x: &Section) -> SectionNames {
        let s = &mut m.dec;
        self.own(s, [owner.dec, owner.enc]);
        let base = self.case(NameKind::Field, x.name());
        let mut n = SectionNames {
            name: s.take(&base),
            ..SectionNames::default()
        };
        if let Section::Var { .. } = x {
            n.length = s.take(&format!("{base}Length"));
            n.get = s.take(&format!("{}{}", self.verbs[1], upper_first(&base)));
            n.string = Some(s.take(&format!("{base}String")));
        }
        n
    }
}
