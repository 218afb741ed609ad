//! Names: schema names turned into identifiers of a target language, with one keyword and case
//! policy per [`Language`].
//!
//! Every generator takes its identifiers from here: [`Language::ident`] applies the language's
//! case convention for a kind of name ([`NameKind`]) and then its one escaping rule for reserved
//! words ([`Language::escape`]). The word splitting ([`words`]) is shared, so `MDUpdateAction`
//! is `md_update_action` in Rust and C, `MdUpdateAction` in Java, Go and C#.

/// A target language of code generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// Rust (`sbekit-codegen`).
    Rust,
    /// TypeScript (`sbekit-codegen-ts`).
    TypeScript,
    /// C++ (17 or later).
    Cpp,
    /// Java (17 or later).
    Java,
    /// Go.
    Go,
    /// C (C11).
    C,
    /// C#.
    CSharp,
}

/// What a name names; each language has a case convention per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A type: message, group entry, composite, enum or set.
    Type,
    /// A field accessor, group or var-data accessor, or method.
    Field,
    /// A constant (schema id, choice masks).
    Constant,
    /// A variant of an enum.
    EnumVariant,
}

/// A case convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Case {
    /// `serial_number`.
    Snake,
    /// `SERIAL_NUMBER`.
    ScreamingSnake,
    /// `SerialNumber`.
    UpperCamel,
    /// `serialNumber`.
    LowerCamel,
    /// As the schema spells it, with characters the language does not allow replaced by `_`
    /// (what the TypeScript generator does, so names match the JSON `sbekit decode` prints).
    Schema,
    /// As [`Case::Schema`], with the first letter upper-cased (`fuelFigures` -> `FuelFigures`).
    SchemaUpperFirst,
}

impl Case {
    /// `name` in this case, not yet escaped.
    pub fn apply(self, name: &str) -> String {
        match self {
            Case::Snake => snake(name),
            Case::ScreamingSnake => screaming(name),
            Case::UpperCamel => camel(name),
            Case::LowerCamel => {
                let c = camel(name);
                let mut chars = c.chars();
                match chars.next() {
                    Some(f) => f.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => c,
                }
            }
            Case::Schema => sanitize(name),
            Case::SchemaUpperFirst => typescript::pascal(name),
        }
    }
}

impl Language {
    /// Every language, in a fixed order.
    pub const ALL: [Language; 7] = [
        Language::Rust,
        Language::TypeScript,
        Language::Cpp,
        Language::Java,
        Language::Go,
        Language::C,
        Language::CSharp,
    ];

    /// The language's name as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::TypeScript => "TypeScript",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::Go => "Go",
            Language::C => "C",
            Language::CSharp => "C#",
        }
    }

    /// The words the language reserves (keywords and, for TypeScript, the globals and type
    /// names generated code refers to unqualified).
    pub fn reserved_words(self) -> &'static [&'static str] {
        match self {
            Language::Rust => rust::KEYWORDS,
            Language::TypeScript => typescript::RESERVED,
            Language::Cpp => CPP,
            Language::Java => JAVA,
            Language::Go => GO,
            Language::C => C,
            Language::CSharp => CSHARP,
        }
    }

    /// True if `ident` is reserved in the language.
    pub fn is_reserved(self, ident: &str) -> bool {
        self.reserved_words().contains(&ident)
    }

    /// The case convention for a kind of name.
    pub fn case(self, kind: NameKind) -> Case {
        use Case::*;
        use NameKind::*;
        match (self, kind) {
            (Language::Rust, Type | EnumVariant) => UpperCamel,
            (Language::Rust, Field) => Snake,
            (Language::Rust, Constant) => ScreamingSnake,
            (Language::TypeScript, Type) => SchemaUpperFirst,
            (Language::TypeScript, Field | Constant | EnumVariant) => Schema,
            (Language::Cpp | Language::Java, Type) => UpperCamel,
            (Language::Cpp | Language::Java, Field) => LowerCamel,
            (Language::Cpp | Language::Java, Constant | EnumVariant) => ScreamingSnake,
            (Language::Go, _) => UpperCamel,
            (Language::C, Type | Field) => Snake,
            (Language::C, Constant | EnumVariant) => ScreamingSnake,
            (Language::CSharp, _) => UpperCamel,
        }
    }

    /// Makes `ident` (already in the language's case) usable as an identifier, by the
    /// language's one rule: Rust makes keywords raw (`r#type`), or suffixes `_` where the raw
    /// form is not allowed (`self_`); C# prefixes `@` (`@class`); every other language
    /// suffixes `_` (`class_`).
    pub fn escape(self, ident: &str) -> String {
        match self {
            Language::Rust => rust::escape(rust::KeywordStyle::Raw, ident),
            Language::CSharp if self.is_reserved(ident) => format!("@{ident}"),
            _ if self.is_reserved(ident) => format!("{ident}_"),
            _ => ident.to_string(),
        }
    }

    /// The identifier for schema name `name` of kind `kind`: cased, then escaped.
    pub fn ident(self, kind: NameKind, name: &str) -> String {
        self.escape(&self.case(kind).apply(name))
    }
}

/// Splits a schema name into lower-case words at case changes, digits and non-alphanumerics.
///
/// `MDUpdateAction` -> `md update action`, `serialNumber` -> `serial number`,
/// `MID_EVENT` -> `mid event`.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 {
            chars.get(i - 1).copied()
        } else {
            None
        };
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if c.is_ascii_uppercase() => {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            }
            _ => false,
        };
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `snake_case` form of a name, without keyword escaping (for building longer names).
pub fn snake(name: &str) -> String {
    let w = words(name);
    let s = if w.is_empty() {
        "field".to_string()
    } else {
        w.join("_")
    };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// `UpperCamelCase` form of a name, without keyword escaping.
pub fn camel(name: &str) -> String {
    let mut s = String::new();
    for w in words(name) {
        let mut cs = w.chars();
        if let Some(f) = cs.next() {
            s.push(f.to_ascii_uppercase());
            s.extend(cs);
        }
    }
    if s.is_empty() {
        s.push_str("Unnamed");
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'N');
    }
    s
}

/// `SCREAMING_SNAKE_CASE` form of a name.
pub fn screaming(name: &str) -> String {
    let s = snake(name).to_ascii_uppercase();
    if s.starts_with('_') {
        format!("V{s}")
    } else {
        s
    }
}

/// A valid identifier of the C family from `name`, keeping its spelling: characters outside
/// `[A-Za-z0-9_]` become `_`, and a leading digit (or nothing) gets a `_` before it.
pub fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// A schema package as one snake-case identifier: its words joined by `_`
/// (`b3.umdf.mbo.sbe` -> `b3_umdf_mbo_sbe`), `schema` when it has none, and (if `digit_prefix`
/// is given) that prefix before a leading digit. Each language escapes the result its own way.
pub fn package_snake(package: &str, digit_prefix: Option<&str>) -> String {
    let s = snake(&package.replace('.', "_"));
    let s = s.trim_start_matches('_');
    if s.is_empty() || words(package).is_empty() {
        return "schema".to_string();
    }
    match digit_prefix {
        Some(p) if s.starts_with(|c: char| c.is_ascii_digit()) => format!("{p}{s}"),
        _ => s.to_string(),
    }
}

/// The name of a generated package (Rust crate, npm package) for a schema package: lower-case
/// words joined by dashes, with an `-sbe` suffix unless it already ends in `sbe`
/// (`b3.umdf.mbo.sbe` -> `b3-umdf-mbo-sbe`, `spot_sbe` -> `spot-sbe`, `baseline` ->
/// `baseline-sbe`).
pub fn package_name(package: &str) -> String {
    let base = snake(&package.replace('.', "_"));
    let base = base.trim_start_matches('_').replace('_', "-");
    let base = if base.is_empty() {
        "schema".to_string()
    } else {
        base
    };
    if base.ends_with("sbe") {
        base
    } else {
        format!("{base}-sbe")
    }
}

pub mod assign;
pub use assign::{
    assign, assign_scoped, spell, spell_all, BodyAt, BodyNames, Clash, CompositeNames, EnumNames,
    FieldNames, Members, NamingConfig, OwnedOf, Owner, PlanNames, Scope, SectionNames, SetNames,
};

pub mod python;

pub mod rust;

pub mod typescript;

mod keywords;
use keywords::{C, CPP, CSHARP, GO, JAVA};

#[cfg(test)]
mod tests {
    use super::*;
    use rust::KeywordStyle;

    #[test]
    fn cases() {
        assert_eq!(snake("serialNumber"), "serial_number");
        assert_eq!(snake("MDUpdateAction"), "md_update_action");
        assert_eq!(snake("MID_EVENT"), "mid_event");
        assert_eq!(snake("BoostType"), "boost_type");
        assert_eq!(snake("uuid"), "uuid");
        assert_eq!(camel("MID_EVENT"), "MidEvent");
        assert_eq!(camel("fuelFigures"), "FuelFigures");
        assert_eq!(camel("TURBO"), "Turbo");
        assert_eq!(camel("F"), "F");
        assert_eq!(screaming("sunRoof"), "SUN_ROOF");
        assert_eq!(snake("1st"), "_1st");
        assert_eq!(camel("2way"), "N2way");
        assert_eq!(Case::LowerCamel.apply("MDUpdateAction"), "mdUpdateAction");
        assert_eq!(Case::Schema.apply("a-b"), "a_b");
    }

    #[test]
    fn rust_escaping() {
        assert_eq!(Language::Rust.escape("type"), "r#type");
        assert_eq!(Language::Rust.escape("self"), "self_");
        assert_eq!(Language::Rust.escape(&camel("self")), "Self_");
        assert_eq!(rust::type_name("Option"), "OptionType");
        assert_eq!(rust::escape(KeywordStyle::Suffix, "type"), "type_");
        assert_eq!(rust::escape(KeywordStyle::Suffix, "self"), "self_");
        assert_eq!(rust::escape(KeywordStyle::Suffix, "car"), "car");
    }

    #[test]
    fn every_language_escapes_its_keywords_and_only_them() {
        for lang in Language::ALL {
            for &w in lang.reserved_words() {
                let e = lang.escape(w);
                assert_ne!(e, w, "{} keeps reserved {w}", lang.name());
                assert!(!lang.is_reserved(&e), "{}: {e}", lang.name());
            }
            assert_eq!(lang.escape("speed"), "speed", "{}", lang.name());
        }
        assert_eq!(Language::Java.ident(NameKind::Field, "class"), "class_");
        assert_eq!(Language::CSharp.ident(NameKind::Field, "Class"), "Class");
        assert_eq!(Language::CSharp.escape("class"), "@class");
        assert_eq!(
            Language::Go.ident(NameKind::Field, "fuelFigures"),
            "FuelFigures"
        );
        assert_eq!(Language::C.ident(NameKind::Type, "int"), "int_");
        assert_eq!(
            Language::Cpp.ident(NameKind::Constant, "sunRoof"),
            "SUN_ROOF"
        );
        assert_eq!(Language::Rust.ident(NameKind::Field, "type"), "r#type");
        assert_eq!(Language::TypeScript.ident(NameKind::Field, "new"), "new_");
    }

    #[test]
    fn typescript_scopes_hand_out_unique_names() {
        let mut m = typescript::module_scope();
        assert_eq!(m.take("Symbol"), "Symbol_");
        assert_eq!(m.take("Model"), "Model");
        assert_eq!(m.take("Model"), "Model_");
        assert_eq!(m.take("9lives"), "_9lives");
        assert_eq!(m.take("a-b"), "a_b");
        let mut c = typescript::class_scope();
        assert_eq!(c.take("constructor"), "constructor_");
        assert_eq!(c.take("speed"), "speed");
        assert_eq!(typescript::pascal("fuelFigures"), "FuelFigures");
    }

    #[test]
    fn package_names() {
        assert_eq!(package_name("b3.umdf.mbo.sbe"), "b3-umdf-mbo-sbe");
        assert_eq!(package_name("spot_sbe"), "spot-sbe");
        assert_eq!(package_name("baseline"), "baseline-sbe");
        assert_eq!(package_name("orders.be"), "orders-be-sbe");
    }
}
