//! The class-per-type languages' spelling of the plan's one naming walk
//! ([`sbekit_plan::names::assign`]): each language's case and keyword policy
//! ([`NamingRules::language`]) and its word lists as settings, names kept clear of what generated
//! code uses unqualified and of the generated classes' own members.

use sbekit_ir::PrimitiveType as P;
use sbekit_plan::names::{
    BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner, Scope, SectionNames,
    SetNames,
};
use sbekit_plan::{EnumDef, Field, Kind, Language, NameKind, Section, SetDef};

/// What sets one language's names apart: its word lists and its escape rule. Its
/// [`NamingConfig`] spells every identifier for [`sbekit_plan::names::assign`].
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

impl NamingRules {
    fn case(&self, kind: NameKind, n: &str) -> String {
        self.language.case(kind).apply(n)
    }

    /// A member scope; where members may not share their class's name, `classes` are taken.
    fn scope(&self, classes: &[&str]) -> Scope {
        let mut s = Scope::new(self.escape, self.members);
        if self.member_not_class {
            classes.iter().for_each(|c| s.reserve(c));
        }
        s
    }

    /// `ty`'s decoder and encoder classes, taken.
    fn flyweights(&self, top: &mut Scope, ty: &str) -> (String, String) {
        (
            top.take(&format!("{ty}Decoder")),
            top.take(&format!("{ty}Encoder")),
        )
    }

    /// Where members may not share their class's name, the owner's classes taken in `m` (the
    /// walk makes a member scope before it names the classes).
    fn own(&self, m: &mut Members, owner: Owner) {
        if self.member_not_class {
            m.dec.reserve(owner.dec);
            m.dec.reserve(owner.enc);
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
        let values = own.take_each(&e.values, |v| self.case(NameKind::EnumVariant, &v.0));
        let ty = top.take(&self.case(NameKind::Type, name));
        EnumNames {
            json: format!("Append{ty}"),
            ty,
            values,
            ..EnumNames::default()
        }
    }

    fn set(&self, top: &mut Scope, _: &str, name: &str, d: &SetDef) -> SetNames {
        let (ty, enc) = self.flyweights(top, &self.case(NameKind::Type, name));
        let mut own = self.scope(&[&ty, &enc]);
        let choices = own.take_each(&d.choices, |c| self.case(NameKind::Field, &c.0));
        SetNames {
            ty,
            enc,
            choices,
            ..SetNames::default()
        }
    }

    fn composite(&self, top: &mut Scope, _: &str, name: &str) -> (String, String) {
        self.flyweights(top, &self.case(NameKind::Type, name))
    }

    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames {
        let (dec, enc) = self.flyweights(top, &at.plan.type_name(self.language, &at.body.path));
        BodyNames {
            dec,
            enc,
            ..BodyNames::default()
        }
    }

    fn members(&self, _: bool) -> Members {
        Members::shared(self.scope(&[]))
    }

    fn field(&self, _: &mut Scope, m: &mut Members, owner: Owner, f: &Field) -> FieldNames {
        self.own(m, owner);
        let s = &mut m.dec;
        let [has, get, put] = self.verbs;
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
            Kind::Enum { .. } => n.raw = Some(s.take(&format!("{base}Raw"))),
            _ => {}
        }
        n
    }

    fn section(&self, _: &mut Scope, m: &mut Members, owner: Owner, x: &Section) -> SectionNames {
        self.own(m, owner);
        let s = &mut m.dec;
        let base = self.case(NameKind::Field, x.name());
        let name = s.take(&base);
        match x {
            Section::Var { .. } => SectionNames {
                name,
                length: s.take(&format!("{base}Length")),
                get: s.take(&format!("{}{}", self.verbs[1], upper(&base))),
                string: Some(s.take(&format!("{base}String"))),
                ..SectionNames::default()
            },
            Section::Group { .. } => SectionNames {
                name,
                ..SectionNames::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
