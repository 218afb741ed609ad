//! Python identifiers: the names of the typed module `sbekit generate --lang python` writes
//! (one `TypedDict` per message, group entry, composite and set, one `Literal` per enum).

use super::{words, Scope};

/// Python's keywords and soft keywords, which no generated name may be.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "match", "case", "type", "_",
];

/// Names the generated module uses itself: the builtins its annotations name, its imports and
/// its own functions and tables.
pub const RESERVED: &[&str] = &[
    "int",
    "float",
    "str",
    "bytes",
    "bool",
    "list",
    "dict",
    "object",
    "_t",
    "sbekit",
    "AnyMessage",
    "TEMPLATES",
    "MESSAGES",
    "message_name",
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "decode",
    "encode",
];

/// `name` as a Python class name: its words capitalised and joined (`fuelFigures` ->
/// `FuelFigures`), only ASCII letters, digits and `_`, never starting with a digit.
pub fn pascal(name: &str) -> String {
    let mut s: String = words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        })
        .collect::<String>()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// `name` as a Python function name: its words lower-cased and joined by `_` (`CarOwned` ->
/// `car_owned`).
pub fn snake(name: &str) -> String {
    let s = super::snake(name);
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// The scope of a module's top-level names: class names, `_` appended until free.
pub fn module_scope() -> Scope {
    let reserved: Vec<&str> = KEYWORDS.iter().chain(RESERVED).copied().collect();
    Scope::new(pascal, &reserved)
}

/// The scope of a module's function names (`decode_car`, `encode_car`).
pub fn function_scope() -> Scope {
    let reserved: Vec<&str> = KEYWORDS.iter().chain(RESERVED).copied().collect();
    Scope::new(snake, &reserved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_identifiers_and_never_keywords() {
        assert_eq!(pascal("fuelFigures"), "FuelFigures");
        assert_eq!(pascal("2way"), "_2way");
        let mut s = module_scope();
        assert_eq!(s.take("none"), "None_");
        assert_eq!(s.take("Car"), "Car");
        assert_eq!(s.take("car"), "Car_");
        let mut f = function_scope();
        assert_eq!(f.take("decode"), "decode_");
        assert_eq!(f.take("decodeCar"), "decode_car");
    }
}
