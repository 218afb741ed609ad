//! The one naming walk: every identifier a generator emits for a plan's schema items, chosen
//! once, unique in its scope, and clear of the language's keywords and of the names the
//! generator and its runtime declare themselves.
//!
//! [`assign`] visits the plan in one order (package, enums, sets, composites, then each
//! message's body: its types, its fields, then its sections, a group's entry body right after
//! the group) and asks a [`NamingConfig`] how each item is spelled and in which [`Scope`] each
//! of its identifiers lives. A config says only what differs between languages: word lists,
//! case, accessor spellings, whether members are scoped per class or global with a prefix.

use crate::{Body, CompositeDef, EnumDef, Field, Plan, Section, SetDef};
use std::collections::{BTreeMap, HashSet};

/// A scope of identifiers: each name handed out is unique and not reserved.
#[derive(Debug, Clone)]
pub struct Scope {
    used: HashSet<String>,
    prepare: fn(&str) -> String,
    clash: Clash,
}

/// How a scope changes a wanted name that is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clash {
    /// `_` appended until it is free (`speed`, `speed_`, `speed__`).
    Underscore,
    /// `_field`, then a number after it (`speed`, `speed_field`, `speed_field2`): Rust's
    /// accessors, where a trailing `_` would read as an escaped keyword.
    FieldThenNumber,
}

impl Clash {
    /// The `n`th alternative (from 1) to `base`.
    fn alternative(self, base: &str, n: usize) -> String {
        match (self, n) {
            (Clash::Underscore, _) => format!("{base}{}", "_".repeat(n)),
            (Clash::FieldThenNumber, 1) => format!("{base}_field"),
            (Clash::FieldThenNumber, _) => format!("{base}_field{n}"),
        }
    }
}

impl Scope {
    /// A scope with `reserved` taken, which passes every wanted name through `prepare` (the
    /// language's escaping) before making it unique.
    pub fn new(prepare: fn(&str) -> String, reserved: &[&str]) -> Scope {
        Scope {
            used: reserved.iter().map(|s| s.to_string()).collect(),
            prepare,
            clash: Clash::Underscore,
        }
    }

    /// This scope with another rule for taken names.
    pub fn with_clash(self, clash: Clash) -> Scope {
        Scope { clash, ..self }
    }

    /// A scope that takes wanted names as they are.
    pub fn plain(reserved: &[&str]) -> Scope {
        Scope::new(str::to_string, reserved)
    }

    /// Marks `name` as taken, as it is.
    pub fn reserve(&mut self, name: &str) {
        self.used.insert(name.to_string());
    }

    /// True if `name` is taken.
    pub fn contains(&self, name: &str) -> bool {
        self.used.contains(name)
    }

    /// One name per item, taken in order: `want` spells each.
    pub fn take_each<T>(&mut self, items: &[T], want: impl Fn(&T) -> String) -> Vec<String> {
        items.iter().map(|i| self.take(&want(i))).collect()
    }

    /// `want` (prepared), changed by the scope's [`Clash`] rule until it is free; the result
    /// is taken.
    pub fn take(&mut self, want: &str) -> String {
        self.take_family(want, |s| vec![s.to_string()])
    }

    /// `want` (prepared), changed by the scope's [`Clash`] rule until every identifier
    /// `family` derives from it is free; all of them taken. For the names a generator derives
    /// from a type's (a message `Error` must not give a `DecodeError` its runtime declares).
    pub fn take_family(&mut self, want: &str, family: impl Fn(&str) -> Vec<String>) -> String {
        let base = (self.prepare)(want);
        let mut s = base.clone();
        let mut n = 0;
        while family(&s).iter().any(|f| self.used.contains(f)) {
            n += 1;
            s = self.clash.alternative(&base, n);
        }
        self.used.extend(family(&s));
        s
    }
}

/// `template` spelled for `name`: `{T}` stands for `name`, `{t}` for `name` with its first
/// letter lower-cased (Go's `{t}State` of `Car` is `carState`).
pub fn spell(template: &str, name: &str) -> String {
    let mut lower = name.to_string();
    if let Some(f) = lower.get_mut(0..1) {
        f.make_ascii_lowercase();
    }
    template.replace("{T}", name).replace("{t}", &lower)
}

/// Every template of `templates` spelled for `name` (see [`spell`]): the family of identifiers
/// a generator derives from one name, for [`Scope::take_family`].
pub fn spell_all(templates: &[&str], name: &str) -> Vec<String> {
    templates.iter().map(|t| spell(t, name)).collect()
}

/// Identifiers of one field (or composite member, or set choice's accessor).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldNames {
    /// The getter, and the setter where the language gives both one name.
    pub name: String,
    /// The setter, where it has a name of its own.
    pub set: Option<String>,
    /// Writes the null value (C: optional scalars and enums).
    pub set_null: Option<String>,
    /// The raw value: all of a char array's bytes, or an enum's encoded value.
    pub raw: Option<String>,
    /// The presence test (empty where the language or the field has none; so are the
    /// following).
    pub has: String,
    /// The null value's constant.
    pub null: String,
    /// An array's length.
    pub length: String,
    /// Copies a char array out.
    pub get: String,
    /// Copies a char array in.
    pub put: String,
    /// A char array as text.
    pub string: String,
}

impl FieldNames {
    /// The setter: its own name, or the getter's where the language shares one.
    pub fn setter(&self) -> &str {
        self.set.as_deref().unwrap_or(&self.name)
    }
}

/// Identifiers of one group or var-data section.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SectionNames {
    /// On the decoder: the group iterator or the var data.
    pub name: String,
    /// On the encoder: the group writer or the var-data setter, where it has a name of its own.
    pub set: Option<String>,
    /// Var data: its length (empty where the language names none; so are the following).
    pub length: String,
    /// Var data: copies it out.
    pub get: String,
    /// Text var data: as a string.
    pub string: Option<String>,
    /// Text var data: the setter taking a string.
    pub set_string: Option<String>,
    /// A group of fixed-size entries ([`crate::Body::is_fixed`]): the encoder's start that takes
    /// the count up front and reserves the dimensions and every entry at once, where the
    /// language names one.
    pub set_counted: Option<String>,
}

impl SectionNames {
    /// The encoder's accessor: its own name, or the decoder's where the language shares one.
    pub fn setter(&self) -> &str {
        self.set.as_deref().unwrap_or(&self.name)
    }
}

/// Identifiers of an enum.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnumNames {
    /// The type.
    pub ty: String,
    /// Per value, in schema order: the constant (or enumerator).
    pub values: Vec<String>,
    /// The null value's constant (empty where the language names none).
    pub null: String,
    /// The JSON printer (empty where the language names none).
    pub json: String,
}

/// Identifiers of a set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetNames {
    /// The type (the decoder, where the language has two).
    pub ty: String,
    /// The encoder type (empty where the language has one type).
    pub enc: String,
    /// Per choice: its getter (or test).
    pub choices: Vec<String>,
    /// Per choice: its mask constant, where the language names them.
    pub masks: Vec<String>,
    /// Per choice: the function returning the set with the choice set or cleared.
    pub with: Vec<String>,
    /// The JSON printer (empty where the language names none).
    pub json: String,
}

/// Identifiers of a composite.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompositeNames {
    /// The decoder (view) type.
    pub dec: String,
    /// The encoder type.
    pub enc: String,
    /// The owned value type, where the language has one ([`NamingConfig::owned`]).
    pub owned: String,
    /// Per member.
    pub members: Vec<FieldNames>,
}

/// Identifiers of a message body or group entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BodyNames {
    /// The dotted schema path (`Car.fuelFigures`).
    pub path: String,
    /// The decoder type.
    pub dec: String,
    /// The encoder type.
    pub enc: String,
    /// Groups: the iterator type, where the language has one.
    pub iter: String,
    /// Groups: the writer type, where the language has one.
    pub writer: String,
    /// Messages: the tag of the message in a union of all messages (C).
    pub tag: String,
    /// The prefix of the body's internal helpers, where the language needs one (Go).
    pub private: String,
    /// The owned value type, where the language has one ([`NamingConfig::owned`]).
    pub owned: String,
    /// Per field.
    pub fields: Vec<FieldNames>,
    /// Per section, in wire order.
    pub sections: Vec<SectionNames>,
    /// Per group section, in order: its entry body.
    pub children: Vec<BodyNames>,
}

/// Every identifier of a generated package.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanNames {
    /// The package (namespace, module, include directory or identifier prefix).
    pub package: String,
    /// Enums by schema name.
    pub enums: BTreeMap<String, EnumNames>,
    /// Sets by schema name.
    pub sets: BTreeMap<String, SetNames>,
    /// Composites by schema name.
    pub composites: BTreeMap<String, CompositeNames>,
    /// Messages, in plan order.
    pub messages: Vec<BodyNames>,
    /// The owned value of any message, where the language has one ([`NamingConfig::owned`]).
    pub any_owned: String,
}

/// The item an owned value type is named for ([`NamingConfig::owned`]).
#[derive(Debug, Clone, Copy)]
pub enum OwnedOf<'a> {
    /// A composite, by schema name, whose decoder is `dec`.
    Composite {
        /// The composite's schema name.
        name: &'a str,
        /// Its decoder type.
        dec: &'a str,
    },
    /// A message body or group entry.
    Body(BodyAt<'a>),
    /// Any message (the owned counterpart of a union of all messages).
    Any,
}

/// What holds a field or section: the identifiers a member's own may be built from.
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    /// The decoder type.
    pub dec: &'a str,
    /// The encoder type.
    pub enc: &'a str,
}

/// Where a body stands, for [`NamingConfig::body`].
#[derive(Debug, Clone, Copy)]
pub struct BodyAt<'a> {
    /// The package.
    pub package: &'a str,
    /// The plan.
    pub plan: &'a Plan,
    /// The body.
    pub body: &'a Body,
    /// For a group entry: the names of the body holding the group.
    pub parent: Option<&'a BodyNames>,
}

/// The member scopes of one generated type pair: the decoder's and the encoder's (one scope
/// for both where a language gives getter and setter one name).
#[derive(Debug, Clone)]
pub struct Members {
    /// The decoder's (or the shared) member scope.
    pub dec: Scope,
    /// The encoder's member scope.
    pub enc: Scope,
}

impl Members {
    /// Member scopes: the decoder's, and the encoder's.
    pub fn new(dec: Scope, enc: Scope) -> Members {
        Members { dec, enc }
    }

    /// One member scope for decoder and encoder (getter and setter share a name).
    pub fn shared(scope: Scope) -> Members {
        Members {
            dec: scope,
            enc: Scope::plain(&[]),
        }
    }
}

/// How one language spells each item: what [`assign`] asks at every step.
pub trait NamingConfig {
    /// The package name for a schema `package` (when the user gives none).
    fn package(&self, schema_package: &str) -> String;
    /// The package scope, holding the runtime's identifiers and the package-level ones the
    /// generator emits itself.
    fn top(&self, package: &str) -> Scope;
    /// The identifiers of an enum.
    fn enumeration(&self, top: &mut Scope, package: &str, name: &str, e: &EnumDef) -> EnumNames;
    /// The identifiers of a set.
    fn set(&self, top: &mut Scope, package: &str, name: &str, s: &SetDef) -> SetNames;
    /// A composite's decoder and encoder types.
    fn composite(&self, top: &mut Scope, package: &str, name: &str) -> (String, String);
    /// A body's types (decoder, encoder, and for groups iterator and writer; [`BodyNames`]
    /// without members).
    fn body(&self, top: &mut Scope, at: BodyAt) -> BodyNames;
    /// Fresh member scopes for a composite (`composite` true) or a body.
    fn members(&self, composite: bool) -> Members;
    /// A field's accessors.
    fn field(&self, top: &mut Scope, m: &mut Members, owner: Owner, f: &Field) -> FieldNames;
    /// A section's accessors.
    fn section(&self, top: &mut Scope, m: &mut Members, owner: Owner, s: &Section) -> SectionNames;
    /// The owned value type of `of`, for a language that generates owned values (empty, the
    /// default, for one that does not). Asked after every other identifier is taken (composites
    /// in name order, then each message's bodies as [`assign`] visits them, then [`OwnedOf::Any`]),
    /// so that adding owned values renames nothing a package already had.
    fn owned(&self, top: &mut Scope, of: OwnedOf) -> String {
        let _ = (top, of);
        String::new()
    }
}

/// Every identifier of `plan`'s generated package, in `package` (the config's mangling of the
/// schema's package when `None`).
pub fn assign(plan: &Plan, config: &dyn NamingConfig, package: Option<&str>) -> PlanNames {
    assign_scoped(plan, config, package).0
}

/// [`assign`], and the package scope once every name is taken: a generator takes the names of
/// what it adds beside the codecs there (C's owned values), after all the others, so that
/// adding them renames nothing and they clash with nothing.
pub fn assign_scoped(
    plan: &Plan,
    config: &dyn NamingConfig,
    package: Option<&str>,
) -> (PlanNames, Scope) {
    let package = package.map_or_else(|| config.package(&plan.package), str::to_string);
    let mut top = config.top(&package);
    let enums = plan
        .enums
        .iter()
        .map(|(k, e)| (k.clone(), config.enumeration(&mut top, &package, k, e)))
        .collect();
    let sets = plan
        .sets
        .iter()
        .map(|(k, s)| (k.clone(), config.set(&mut top, &package, k, s)))
        .collect();
    let composites = plan
        .composites
        .iter()
        .map(|(k, c)| (k.clone(), composite(config, &mut top, &package, k, c)))
        .collect();
    let mut composites: BTreeMap<String, CompositeNames> = composites;
    let mut messages: Vec<BodyNames> = plan
        .messages
        .iter()
        .map(|m| body(config, &mut top, &package, plan, &m.body, None))
        .collect();
    for (name, c) in composites.iter_mut() {
        let of = OwnedOf::Composite { name, dec: &c.dec };
        c.owned = config.owned(&mut top, of);
    }
    for (m, n) in plan.messages.iter().zip(messages.iter_mut()) {
        owned_body(config, &mut top, &package, plan, &m.body, n, None);
    }
    let any_owned = config.owned(&mut top, OwnedOf::Any);
    let names = PlanNames {
        package,
        enums,
        sets,
        composites,
        messages,
        any_owned,
    };
    (names, top)
}

/// Names the owned types of body `b` (names `n`) and its groups' entries, in [`body`]'s order.
fn owned_body(
    config: &dyn NamingConfig,
    top: &mut Scope,
    package: &str,
    plan: &Plan,
    b: &Body,
    n: &mut BodyNames,
    parent: Option<&BodyNames>,
) {
    let at = BodyAt {
        package,
        plan,
        body: b,
        parent,
    };
    n.owned = config.owned(top, OwnedOf::Body(at));
    let me = n.clone();
    let groups = b.sections.iter().filter_map(|s| match s {
        Section::Group { body, .. } => Some(body),
        Section::Var { .. } => None,
    });
    for (entry, child) in groups.zip(n.children.iter_mut()) {
        owned_body(config, top, package, plan, entry, child, Some(&me));
    }
}

fn composite(
    config: &dyn NamingConfig,
    top: &mut Scope,
    package: &str,
    name: &str,
    c: &CompositeDef,
) -> CompositeNames {
    let (dec, enc) = config.composite(top, package, name);
    let mut m = config.members(true);
    let owner = Owner {
        dec: &dec,
        enc: &enc,
    };
    let members = c
        .members
        .iter()
        .map(|f| config.field(top, &mut m, owner, f))
        .collect();
    CompositeNames {
        dec,
        enc,
        members,
        ..CompositeNames::default()
    }
}

fn body(
    config: &dyn NamingConfig,
    top: &mut Scope,
    package: &str,
    plan: &Plan,
    b: &Body,
    parent: Option<&BodyNames>,
) -> BodyNames {
    let at = BodyAt {
        package,
        plan,
        body: b,
        parent,
    };
    let mut names = config.body(top, at);
    names.path = b.path.join(".");
    let mut m = config.members(false);
    let (dec, enc) = (names.dec.clone(), names.enc.clone());
    let owner = Owner {
        dec: &dec,
        enc: &enc,
    };
    names.fields = b
        .fields
        .iter()
        .map(|f| config.field(top, &mut m, owner, f))
        .collect();
    for s in &b.sections {
        let section = config.section(top, &mut m, owner, s);
        names.sections.push(section);
        if let Section::Group { body: entry, .. } = s {
            let child = body(config, top, package, plan, entry, Some(&names));
            names.children.push(child);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Language;

    #[test]
    fn scopes_hand_out_unique_names() {
        let mut s = Scope::plain(&["count"]);
        assert_eq!(s.take("count"), "count_");
        assert_eq!(s.take("count"), "count__");
        assert_eq!(s.take("speed"), "speed");
        let mut e = Scope::new(|w| Language::Java.escape(w), &[]);
        assert_eq!(e.take("class"), "class_");
        assert_eq!(e.take("class"), "class__");
        let mut r = Scope::new(super::super::snake, &["new"]).with_clash(Clash::FieldThenNumber);
        assert_eq!(r.take("new"), "new_field");
        assert_eq!(r.take("New"), "new_field2");
        assert_eq!(r.take("speedKmh"), "speed_kmh");
    }

    #[test]
    fn families_are_free_as_a_whole() {
        let mut s = Scope::plain(&["DecodeError"]);
        let family = |d: &str| vec![d.to_string(), format!("Decode{d}")];
        assert_eq!(s.take_family("Error", family), "Error_");
        assert!(s.contains("DecodeError_"));
        assert_eq!(s.take_family("Car", family), "Car");
        assert_eq!(
            spell_all(&["{T}Iter", "{t}State"], "Car"),
            ["CarIter", "carState"]
        );
    }
}
