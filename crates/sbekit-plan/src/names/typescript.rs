//! TypeScript: reserved words, the globals generated code uses, and scopes of unique names.

use super::{sanitize, HashSet};

/// JavaScript reserved words and the globals generated code refers to by name.
pub const RESERVED: &[&str] = &[
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

/// `name` sanitised, with its first letter upper-cased (`fuelFigures` -> `FuelFigures`).
pub fn pascal(name: &str) -> String {
    let s = sanitize(name);
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => s,
    }
}

/// A scope of names: each name handed out is unique and not reserved. TypeScript's
/// escaping rule: `_` appended until the name is free.
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
