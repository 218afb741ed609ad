//! TypeScript identifiers from schema names: sanitised, never a reserved word or a global the
//! generated code uses, and unique within their scope.

use std::collections::HashSet;

/// JavaScript reserved words and the globals generated code refers to by name.
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
    "static",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "await",
    "async",
    "of",
    "as",
    "type",
    "any",
    "unknown",
    "never",
    "number",
    "bigint",
    "boolean",
    "string",
    "symbol",
    "object",
    "undefined",
    "NaN",
    "Infinity",
    "arguments",
    "eval",
    "rt",
    "Number",
    "BigInt",
    "String",
    "Math",
    "Error",
    "Symbol",
    "Object",
    "Array",
    "Map",
    "Set",
    "JSON",
    "DataView",
    "Uint8Array",
    "ArrayBuffer",
    "TextDecoder",
    "TextEncoder",
    "Record",
    "Readonly",
    "IteratorResult",
    "IteratorReturnResult",
    "Iterable",
    "Iterator",
    "ArrayLike",
    "Promise",
    "globalThis",
    "AnyMessage",
    "AnyDecoder",
    "decodeAny",
    "readHeader",
    "toJson",
    "reencode",
    "MessageHeader",
    "HEADER_LENGTH",
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "BYTE_ORDER",
    "SbeDecodeError",
    "SbeEncodeError",
];

/// Member names a generated class uses itself (or that a class may not redefine).
pub const CLASS_RESERVED: &[&str] = &[
    "constructor",
    "__proto__",
    "prototype",
    "wrap",
    "wrapBody",
    "decode",
    "finish",
    "raw",
    "of",
    "toString",
    "valueOf",
    "entry",
    "count",
    "next",
    "sbeActingVersion",
    "sbeEncodedLength",
    "sbeBlockLength",
    "sbeBuffer",
    "sbeOffset",
    "hasOwnProperty",
];

/// A valid identifier from `name` (characters outside `[A-Za-z0-9_]` become `_`).
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

/// `name` with its first letter upper-cased (`fuelFigures` -> `FuelFigures`).
pub fn pascal(name: &str) -> String {
    let s = sanitize(name);
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => s,
    }
}

/// A scope of names: each name handed out is unique and not reserved.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    used: HashSet<String>,
}

impl Scope {
    /// A scope for top-level module names.
    pub fn module() -> Scope {
        Scope {
            used: RESERVED.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A scope for the members of a generated class.
    pub fn class() -> Scope {
        Scope {
            used: CLASS_RESERVED.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `want` (sanitised), with `_` appended until it is free; the result is taken.
    pub fn take(&mut self, want: &str) -> String {
        let mut s = sanitize(want);
        while self.used.contains(&s) {
            s.push('_');
        }
        self.used.insert(s.clone());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_and_unique() {
        let mut m = Scope::module();
        assert_eq!(m.take("Symbol"), "Symbol_");
        assert_eq!(m.take("Model"), "Model");
        assert_eq!(m.take("Model"), "Model_");
        assert_eq!(m.take("9lives"), "_9lives");
        assert_eq!(m.take("a-b"), "a_b");
        let mut c = Scope::class();
        assert_eq!(c.take("constructor"), "constructor_");
        assert_eq!(c.take("speed"), "speed");
        assert_eq!(pascal("fuelFigures"), "FuelFigures");
    }
}
