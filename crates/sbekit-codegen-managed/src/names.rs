//! How Java and C# spell the plan's naming walk ([`sbekit_plan::names::assign()`]): each language's
//! case and keyword policy ([`NamingRules::language`]) and word lists as settings, names kept clear
//! of what generated code uses unqualified and of the classes' own members.

use crate::upper_first;
use sbekit_plan::names::{
    BodyAt, BodyNames, EnumNames, FieldNames, Members, NamingConfig, Owner, Scope, SectionNames,
    SetNames,
};
use sbekit_plan::{EnumDef, Field, Kind, Language, NameKind, Section, SetDef};
use std::collections::BTreeMap;

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

/// The names of the owned values (DTOs): a class per set, composite, message and group entry
/// (`CarDto`, its entries nested: `CarDto.FuelFiguresDto`), and the members a DTO has beyond
/// the flyweights' accessors. Chosen after the naming walk, so that the flyweights' names are
/// as they were: class names are kept clear of every generated type, and member names of the
/// class's own accessors (a field `decodeWith` makes the static method `decodeWith_`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DtoNames {
    /// Sets by schema name.
    pub sets: BTreeMap<String, DtoClass>,
    /// Composites by schema name.
    pub composites: BTreeMap<String, DtoClass>,
    /// Messages, in plan order.
    pub messages: Vec<DtoClass>,
}

/// One DTO class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DtoClass {
    /// The class (simple name; an entry's is nested in its parent's).
    pub class: String,
    /// `decodeWith(decoder, dto)`.
    pub decode_with: String,
    /// `encodeWith(encoder, dto)` (and a message's `encodeWith(dto, buffer, offset)`).
    pub encode_with: String,
    /// A message's `decodeFrom(buffer, offset, actingBlockLength, actingVersion)`.
    pub decode_from: String,
    /// A message's `encodeWithHeaderWith(dto, buffer, offset)`.
    pub encode_with_header: String,
    /// A message's `bytes(dto)` and `bytesWithHeader(dto)`.
    pub bytes: [String; 2],
    /// `computeEncodedLength()`.
    pub length: String,
    /// A message's acting version accessor.
    pub acting_version: String,
    /// Per field: the raw bytes accessor of a char array (`vehicleCodeBytes`), else empty.
    pub field_bytes: Vec<String>,
    /// Per section: the raw bytes accessor of text var data, else empty.
    pub section_bytes: Vec<String>,
    /// Per group section, in order: its entry's class.
    pub children: Vec<DtoClass>,
}

/// What a class's members are spelled in: the dialect's mapping of a Java member name.
pub type Spell<'a> = &'a dyn Fn(&str) -> String;

/// The members a body's or composite's accessors take (`fields`, `sections`).
fn taken(fields: &[FieldNames], sections: &[SectionNames]) -> Vec<String> {
    let mut v = Vec::new();
    for f in fields {
        v.extend(
            [&f.name, &f.has, &f.null]
                .into_iter()
                .chain(f.raw.as_ref())
                .filter(|s| !s.is_empty())
                .cloned(),
        );
    }
    v.extend(sections.iter().map(|s| s.name.clone()));
    v
}

impl NamingRules {
    /// The DTO names of a plan whose flyweight names are `n`; `spell` maps a Java member name
    /// to the language's, `object` are the members every class has (`toString`, `equals`).
    pub fn dto_names(
        &self,
        plan: &sbekit_plan::Plan,
        n: &sbekit_plan::names::PlanNames,
        spell: Spell,
        object: &[&str],
    ) -> DtoNames {
        let mut top = Scope::new(self.escape, self.types);
        for e in n.enums.values() {
            top.reserve(&e.ty);
        }
        for s in n.sets.values() {
            top.reserve(&s.ty);
            top.reserve(&s.enc);
        }
        for c in n.composites.values() {
            top.reserve(&c.dec);
            top.reserve(&c.enc);
        }
        fn bodies(b: &BodyNames, top: &mut Scope, members: bool) {
            top.reserve(&b.dec);
            top.reserve(&b.enc);
            if members {
                // A member may not share a class's name (C#): no class takes a member's.
                taken(&b.fields, &b.sections)
                    .iter()
                    .for_each(|m| top.reserve(m));
            }
            b.children.iter().for_each(|c| bodies(c, top, members));
        }
        for m in &n.messages {
            bodies(m, &mut top, self.member_not_class);
        }
        if self.member_not_class {
            for c in n.composites.values() {
                taken(&c.members, &[]).iter().for_each(|m| top.reserve(m));
            }
            for s in n.sets.values() {
                s.choices.iter().for_each(|m| top.reserve(m));
            }
        }
        let ty = |name: &str| self.case(NameKind::Type, name);
        let mut out = DtoNames::default();
        for (k, s) in &n.sets {
            let class = top.take(&format!("{}Dto", ty(k)));
            let mut own = Scope::plain(object);
            s.choices.iter().for_each(|c| own.reserve(c));
            for w in ["raw", "clear"] {
                own.reserve(&spell(w));
            }
            out.sets
                .insert(k.clone(), self.dto_class(class, &mut own, spell));
        }
        for (k, c) in &n.composites {
            let class = top.take(&format!("{}Dto", ty(k)));
            let mut own = Scope::plain(object);
            taken(&c.members, &[]).iter().for_each(|m| own.reserve(m));
            let fields: Vec<(bool, &str)> = plan.composites[k]
                .members
                .iter()
                .zip(&c.members)
                .map(|(f, fname)| (f.is_char_array() && !f.is_constant(), fname.name.as_str()))
                .collect();
            let mut d = self.dto_class(class, &mut own, spell);
            d.field_bytes = fields
                .iter()
                .map(|&(b, name)| {
                    if b {
                        own.take(&format!("{name}Bytes"))
                    } else {
                        String::new()
                    }
                })
                .collect();
            out.composites.insert(k.clone(), d);
        }
        let classes: Vec<String> = plan
            .messages
            .iter()
            .map(|m| {
                top.take(&format!(
                    "{}Dto",
                    plan.type_name(self.language, &m.body.path)
                ))
            })
            .collect();
        for ((m, bn), class) in plan.messages.iter().zip(&n.messages).zip(classes) {
            // Entry classes are nested: unique in their message, clear of every top-level name.
            let mut nested = top.clone();
            out.messages
                .push(self.dto_body(class, &m.body, bn, &mut nested, spell, object));
        }
        out
    }

    /// A class's fixed members, taken in `own` (which holds its accessors).
    fn dto_class(&self, class: String, own: &mut Scope, spell: Spell) -> DtoClass {
        let mut take = |w: &str| own.take(&spell(w));
        DtoClass {
            decode_with: take("decodeWith"),
            encode_with: take("encodeWith"),
            decode_from: take("decodeFrom"),
            encode_with_header: take("encodeWithHeaderWith"),
            bytes: [take("bytes"), take("bytesWithHeader")],
            length: take("computeEncodedLength"),
            acting_version: take("actingVersion"),
            class,
            ..DtoClass::default()
        }
    }

    fn dto_body(
        &self,
        class: String,
        b: &sbekit_plan::Body,
        n: &BodyNames,
        nested: &mut Scope,
        spell: Spell,
        object: &[&str],
    ) -> DtoClass {
        let mut own = Scope::plain(object);
        taken(&n.fields, &n.sections)
            .iter()
            .for_each(|m| own.reserve(m));
        let mut d = self.dto_class(class, &mut own, spell);
        d.field_bytes = b
            .fields
            .iter()
            .zip(&n.fields)
            .map(|(f, fname)| {
                if f.is_char_array() && !f.is_constant() {
                    own.take(&format!("{}Bytes", fname.name))
                } else {
                    String::new()
                }
            })
            .collect();
        d.section_bytes = b
            .sections
            .iter()
            .zip(&n.sections)
            .map(|(s, sn)| match s {
                Section::Var {
                    char_encoding: Some(_),
                    ..
                } => own.take(&format!("{}Bytes", sn.name)),
                _ => String::new(),
            })
            .collect();
        let groups = b.sections.iter().filter_map(|s| match s {
            Section::Group { name, body, .. } => Some((name, body)),
            _ => None,
        });
        for ((name, body), cn) in groups.zip(&n.children) {
            let class = nested.take(&format!("{}Dto", self.case(NameKind::Type, name)));
            d.children
                .push(self.dto_body(class, body, cn, nested, spell, object));
        }
        d
    }
}
