//! Turning schema names into Rust identifiers that are idiomatic and always legal.

/// Words Rust reserves (strict and reserved keywords of the 2015-2024 editions).
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "union",
];

/// Keywords that cannot be raw identifiers (`r#self` is rejected), so they get a suffix.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

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

/// Makes `ident` usable as an identifier: keywords become raw identifiers, or get a trailing
/// underscore where Rust forbids the raw form.
pub fn escape(ident: &str) -> String {
    if NOT_RAW.contains(&ident) {
        format!("{ident}_")
    } else if KEYWORDS.contains(&ident) {
        format!("r#{ident}")
    } else {
        ident.to_string()
    }
}

/// Like [`escape`], with keywords suffixed by `_` instead of made raw when `style` says so.
pub fn escape_with(style: crate::KeywordStyle, ident: &str) -> String {
    match style {
        crate::KeywordStyle::Raw => escape(ident),
        crate::KeywordStyle::Suffix if KEYWORDS.contains(&ident) || NOT_RAW.contains(&ident) => {
            format!("{ident}_")
        }
        crate::KeywordStyle::Suffix => ident.to_string(),
    }
}

/// A type name that does not shadow anything generated code refers to unqualified.
pub fn type_name(name: &str) -> String {
    const RESERVED: &[&str] = &[
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
    let c = camel(name);
    if RESERVED.contains(&c.as_str()) {
        format!("{c}Type")
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(escape("type"), "r#type");
        assert_eq!(escape("self"), "self_");
        assert_eq!(escape(&camel("self")), "Self_");
        assert_eq!(type_name("Option"), "OptionType");
        assert_eq!(snake("1st"), "_1st");
        assert_eq!(camel("2way"), "N2way");
        assert_eq!(escape_with(crate::KeywordStyle::Suffix, "type"), "type_");
        assert_eq!(escape_with(crate::KeywordStyle::Suffix, "self"), "self_");
        assert_eq!(escape_with(crate::KeywordStyle::Suffix, "car"), "car");
    }
}
