//! Reserved words of the languages sbekit generates (or is likely to generate) code for.

const RUST: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
    "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "unsafe", "use", "where", "while", "yield", "abstract", "become", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual",
];

const CPP: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "asm",
    "auto",
    "bool",
    "case",
    "catch",
    "char",
    "class",
    "constexpr",
    "default",
    "delete",
    "double",
    "explicit",
    "export",
    "float",
    "friend",
    "goto",
    "inline",
    "int",
    "long",
    "namespace",
    "new",
    "noexcept",
    "not",
    "nullptr",
    "operator",
    "or",
    "private",
    "protected",
    "public",
    "register",
    "short",
    "signed",
    "sizeof",
    "switch",
    "template",
    "this",
    "throw",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "void",
    "volatile",
    "xor",
];

const JAVA: &[&str] = &[
    "boolean",
    "byte",
    "extends",
    "finally",
    "implements",
    "import",
    "instanceof",
    "interface",
    "native",
    "null",
    "package",
    "strictfp",
    "synchronized",
    "throws",
    "transient",
];

const GO: &[&str] = &[
    "chan",
    "defer",
    "fallthrough",
    "func",
    "go",
    "map",
    "range",
    "select",
    "var",
];

/// The languages in which `name` is reserved, as a readable list, or `None`.
pub(crate) fn languages_reserving(name: &str) -> Option<String> {
    let mut langs = Vec::new();
    if RUST.contains(&name) {
        langs.push("Rust");
    }
    // Several words are shared between C++, Java and Go; list each language that reserves it.
    let shared_cpp_java = [
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "false",
        "final",
        "float",
        "for",
        "goto",
        "if",
        "int",
        "long",
        "new",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "void",
        "volatile",
        "while",
        "abstract",
    ];
    if CPP.contains(&name)
        || shared_cpp_java.contains(&name)
            && name != "final"
            && name != "abstract"
            && name != "super"
    {
        langs.push("C++");
    }
    if JAVA.contains(&name) || shared_cpp_java.contains(&name) {
        langs.push("Java");
    }
    let go_shared = [
        "break",
        "case",
        "const",
        "continue",
        "default",
        "else",
        "for",
        "goto",
        "if",
        "import",
        "interface",
        "package",
        "return",
        "struct",
        "switch",
        "type",
    ];
    if GO.contains(&name) || go_shared.contains(&name) {
        langs.push("Go");
    }
    (!langs.is_empty()).then(|| langs.join(", "))
}

#[cfg(test)]
mod tests {
    use super::languages_reserving;

    #[test]
    fn keywords_are_attributed_to_their_languages() {
        assert_eq!(languages_reserving("type").as_deref(), Some("Rust, Go"));
        assert_eq!(
            languages_reserving("false").as_deref(),
            Some("Rust, C++, Java")
        );
        assert_eq!(languages_reserving("price"), None);
    }
}
