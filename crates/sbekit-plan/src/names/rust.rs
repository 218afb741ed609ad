//! Rust: keywords of every edition, the keyword style, and the type names generated code must
//! not shadow.

/// Words Rust reserves (strict and reserved keywords of the 2015-2024 editions).
pub const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "union",
];

/// Keywords that cannot be raw identifiers (`r#self` is rejected), so they get a suffix.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Names of the prelude and of generated items that generated types must not shadow,
/// since generated code refers to them unqualified.
const SHADOWED: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Self",
    "AnyMessage",
    "HeaderFields",
    "Iterator",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "Hash",
    "Default",
    "Sized",
    "Fn",
    "FnOnce",
    "FnMut",
    "Send",
    "Sync",
    "Drop",
    "From",
    "Into",
    "AsRef",
    "Box",
    "Vec",
    "String",
    "ToString",
    "ExactSizeIterator",
    "IntoIterator",
];

/// How schema names that are Rust keywords become identifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeywordStyle {
    /// Raw identifiers (`r#type`); `self`, `Self`, `super` and `crate`, which cannot be
    /// raw, get a trailing underscore.
    #[default]
    Raw,
    /// A trailing underscore for every keyword (`type_`).
    Suffix,
}

/// Makes `ident` usable as an identifier in `style`.
pub fn escape(style: KeywordStyle, ident: &str) -> String {
    let reserved = KEYWORDS.contains(&ident) || NOT_RAW.contains(&ident);
    match style {
        KeywordStyle::Raw if NOT_RAW.contains(&ident) => format!("{ident}_"),
        KeywordStyle::Raw if reserved => format!("r#{ident}"),
        KeywordStyle::Suffix if reserved => format!("{ident}_"),
        _ => ident.to_string(),
    }
}

/// A type name (`UpperCamelCase`) that does not shadow anything generated code refers to
/// unqualified (`Option` -> `OptionType`).
pub fn type_name(name: &str) -> String {
    let c = super::camel(name);
    if SHADOWED.contains(&c.as_str()) {
        format!("{c}Type")
    } else {
        c
    }
}
