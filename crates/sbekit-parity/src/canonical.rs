//! The canonical value form of the generated-code parity test (`tests/generated.rs`), and the
//! two ways sbekit produces or matches it: its OTF decoder ([`otf`]) and the `Debug` text of the
//! Rust it generates ([`parse_debug`], [`compare_debug`]).
//!
//! The reference side (`java/GenParity.java`) prints the same form from the reference's generated
//! Java decoders: `{"message": name, "fields": {...}}`; integers and single chars as numbers;
//! floats as `"f:<hex>"` / `"d:<hex>"` (bits of the value widened to `f64`, `"f:NaN"` for any
//! NaN); `null` for an optional value equal to its null value and for a field absent at the
//! acting version; char arrays (up to the first NUL) and var data as strings of one code point
//! per byte; enums by name (the raw number when unnamed, `null` for the null value); sets as the
//! list of choices that are on; composites as objects; groups as arrays of objects.

use sbekit_ir::{Presence, PrimitiveValue};
use sbekit_otf::{
    Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, NodeKind, Origin, Value as Otf,
    VarDataPlan, Visitor,
};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Normalizations [`compare_debug`] may apply, with what they allow; each is counted.
pub const NORMALIZATIONS: &[(&str, &str)] = &[
    (
        "rust-enum-variant-name",
        "generated Rust enums print their Rust variant name (`Debug`), compared with the schema's name ignoring case and underscores",
    ),
    (
        "rust-absent-group-none",
        "a group absent at the acting version: `None` from the generated Rust (its accessor returns an Option), no entries from the Java decoders and OTF",
    ),
    (
        "rust-required-enum-null",
        "a required enum holding its null value: `Unknown(raw)` from the generated Rust, null from the Java decoders and OTF",
    ),
];

/// Counts of applied normalizations, by name.
pub type Counts = BTreeMap<&'static str, u64>;

fn bump(counts: &mut Counts, name: &'static str) {
    debug_assert!(NORMALIZATIONS.iter().any(|(n, _)| *n == name));
    *counts.entry(name).or_default() += 1;
}

/// Text of bytes with one code point per byte.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn float(tag: &str, v: f64) -> Value {
    if v.is_nan() {
        Value::String(format!("{tag}:NaN"))
    } else {
        Value::String(format!("{tag}:{:x}", v.to_bits()))
    }
}

/// Decodes one message with sbekit's OTF decoder into the canonical form.
pub fn otf(decoder: &Decoder, bytes: &[u8]) -> Result<Value, String> {
    let mut c = Canonical::default();
    decoder.decode(bytes, &mut c).map_err(|e| e.to_string())?;
    c.result.ok_or_else(|| "no message".to_string())
}

enum Frame {
    /// An object under construction, the key it goes under in its parent, and for composites
    /// whether a member was absent and whether one was read from the wire (constants count as
    /// neither): a composite newer than the acting version is null, as a field would be.
    Object(Map<String, Value>, String, Option<(bool, bool)>),
    /// A group's entries.
    Array(Vec<Value>, String),
}

#[derive(Default)]
struct Canonical {
    stack: Vec<Frame>,
    message: String,
    result: Option<Value>,
}

impl Canonical {
    fn put(&mut self, key: &str, v: Value, origin: Origin) {
        match self.stack.last_mut() {
            Some(Frame::Object(m, _, seen)) => {
                m.insert(key.to_string(), v);
                if let Some((absent, wire)) = seen {
                    *absent |= origin == Origin::Absent;
                    *wire |= origin == Origin::Wire;
                }
            }
            Some(Frame::Array(a, _)) => a.push(v),
            None => {}
        }
    }

    fn pop_into_parent(&mut self) {
        match self.stack.pop() {
            Some(Frame::Object(m, key, seen)) => {
                let (v, origin) = match seen {
                    Some((true, false)) => (Value::Null, Origin::Absent),
                    Some((_, false)) => (Value::Object(m), Origin::Constant),
                    _ => (Value::Object(m), Origin::Wire),
                };
                self.put(&key, v, origin);
            }
            Some(Frame::Array(a, key)) => self.put(&key, Value::Array(a), Origin::Wire),
            None => {}
        }
    }
}

fn leaf(node: &FieldNode, v: Otf<'_>, origin: Origin) -> Value {
    if origin == Origin::Absent {
        return Value::Null;
    }
    match (&node.kind, v) {
        (NodeKind::Primitive(p), v) => {
            let optional = p.presence == Presence::Optional;
            let is_null = |raw: PrimitiveValue| optional && raw == p.null_value;
            match v {
                Otf::Int(i) if is_null(PrimitiveValue::Int(i)) => Value::Null,
                Otf::UInt(u) if is_null(PrimitiveValue::UInt(u)) => Value::Null,
                Otf::Char(c) if is_null(PrimitiveValue::Int(i64::from(c))) => Value::Null,
                Otf::Float(f) if optional && f.is_nan() => Value::Null,
                Otf::Double(d) if optional && d.is_nan() => Value::Null,
                v => scalar(v),
            }
        }
        (NodeKind::Enum(e), Otf::Enum(v)) => match v.name {
            Some(n) => Value::String(n.to_string()),
            None if v.raw == e.null_raw => Value::Null,
            None => Value::from(v.raw),
        },
        (_, Otf::Set(s)) => Value::Array(
            s.choices()
                .filter(|(_, on)| *on)
                .map(|(n, _)| Value::String(n.to_string()))
                .collect(),
        ),
        (_, v) => scalar(v),
    }
}

fn scalar(v: Otf<'_>) -> Value {
    match v {
        Otf::Int(i) => Value::from(i),
        Otf::UInt(u) => Value::from(u),
        Otf::Float(f) => float("f", f64::from(f)),
        Otf::Double(d) => float("d", d),
        Otf::Char(c) => Value::from(c),
        Otf::Chars(b) => {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            Value::String(latin1(&b[..end]))
        }
        Otf::Array(a) => Value::Array(a.iter().map(scalar).collect()),
        Otf::Enum(e) => e
            .name
            .map_or_else(|| Value::from(e.raw), |n| Value::String(n.to_string())),
        Otf::Set(s) => Value::from(s.raw),
    }
}

impl Visitor for Canonical {
    fn begin_message(&mut self, message: &MessagePlan, _header: &MessageHeader) {
        self.message = message.name.clone();
        self.stack
            .push(Frame::Object(Map::new(), String::new(), None));
    }
    fn end_message(&mut self, _message: &MessagePlan) {
        if let Some(Frame::Object(m, _, _)) = self.stack.pop() {
            let mut top = Map::new();
            top.insert("message".into(), Value::String(self.message.clone()));
            top.insert("fields".into(), Value::Object(m));
            self.result = Some(Value::Object(top));
        }
    }
    fn on_value(&mut self, node: &FieldNode, value: Otf<'_>, origin: Origin) {
        let v = leaf(node, value, origin);
        self.put(&node.name, v, origin);
    }
    fn begin_composite(&mut self, node: &FieldNode) {
        self.stack.push(Frame::Object(
            Map::new(),
            node.name.clone(),
            Some((false, false)),
        ));
    }
    fn end_composite(&mut self, _begin: &FieldNode) {
        self.pop_into_parent();
    }
    fn begin_group(&mut self, group: &GroupPlan, _count: u64) {
        self.stack
            .push(Frame::Array(Vec::new(), group.name.clone()));
    }
    fn begin_entry(&mut self, _group: &GroupPlan, _index: u64) {
        self.stack
            .push(Frame::Object(Map::new(), String::new(), None));
    }
    fn end_entry(&mut self, _group: &GroupPlan, _index: u64) {
        self.pop_into_parent();
    }
    fn end_group(&mut self, _group: &GroupPlan) {
        self.pop_into_parent();
    }
    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], origin: Origin) {
        self.put(&field.name, Value::String(latin1(data)), origin);
    }
}

/// A value in Rust `Debug` syntax, as the generated types print it.
#[derive(Debug, Clone, PartialEq)]
pub enum Dbg {
    /// A number, as printed (`-3`, `1.5`, `1e-40`).
    Num(String),
    /// A string literal, unescaped.
    Str(String),
    /// A bare identifier (`true`, `None`, an enum variant, `NaN`, `inf`).
    Ident(String),
    /// `[a, b]`.
    List(Vec<Dbg>),
    /// `Name { a: x, b: y }`.
    Struct(String, Vec<(String, Dbg)>),
    /// `Name(x, y)`.
    Tuple(String, Vec<Dbg>),
}

/// Parses `Debug` text (`{:?}`, not `{:#?}`) of the generated types.
pub fn parse_debug(text: &str) -> Result<Dbg, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("trailing text at {}", p.i));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at {}", char::from(c), self.i))
        }
    }
    fn word(&mut self) -> String {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+'))
        {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }
    fn list(&mut self, close: u8) -> Result<Vec<Dbg>, String> {
        let mut items = Vec::new();
        loop {
            if self.peek() == Some(close) {
                self.i += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            if self.peek() == Some(b',') {
                self.i += 1;
            }
        }
    }
    fn value(&mut self) -> Result<Dbg, String> {
        match self.peek() {
            Some(b'[') => {
                self.i += 1;
                Ok(Dbg::List(self.list(b']')?))
            }
            Some(b'"') => self.string(),
            Some(c) if c.is_ascii_digit() || c == b'-' => Ok(Dbg::Num(self.word())),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self.word();
                match self.peek() {
                    Some(b'(') => {
                        self.i += 1;
                        Ok(Dbg::Tuple(name, self.list(b')')?))
                    }
                    Some(b'{') => {
                        self.i += 1;
                        let mut fields = Vec::new();
                        loop {
                            if self.peek() == Some(b'}') {
                                self.i += 1;
                                return Ok(Dbg::Struct(name, fields));
                            }
                            self.ws();
                            let key = self.word();
                            self.expect(b':')?;
                            fields.push((key, self.value()?));
                            if self.peek() == Some(b',') {
                                self.i += 1;
                            }
                        }
                    }
                    _ => Ok(Dbg::Ident(name)),
                }
            }
            other => Err(format!("unexpected {other:?} at {}", self.i)),
        }
    }
    fn string(&mut self) -> Result<Dbg, String> {
        self.i += 1;
        let mut out = String::new();
        let text = std::str::from_utf8(&self.s[self.i..]).map_err(|e| e.to_string())?;
        let mut chars = text.char_indices();
        while let Some((at, c)) = chars.next() {
            match c {
                '"' => {
                    self.i += at + 1;
                    return Ok(Dbg::Str(out));
                }
                '\\' => match chars.next().map(|x| x.1) {
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('0') => out.push('\0'),
                    Some('u') => {
                        let hex: String = chars
                            .by_ref()
                            .map(|x| x.1)
                            .skip(1)
                            .take_while(|&h| h != '}')
                            .collect();
                        let code = u32::from_str_radix(&hex, 16).map_err(|e| e.to_string())?;
                        out.push(char::from_u32(code).ok_or("bad \\u escape")?);
                    }
                    Some(other) => out.push(other),
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}

fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn parse_float(text: &str, single: bool) -> Option<f64> {
    let t = match text {
        "NaN" => return Some(f64::NAN),
        "inf" => "inf",
        "-inf" => "-inf",
        t => t,
    };
    if single {
        t.parse::<f32>().ok().map(f64::from)
    } else {
        t.parse::<f64>().ok()
    }
}

/// Compares a canonical value `e` (from the reference's Java decoders) with the `Debug` value `a`
/// of sbekit's generated Rust, applying only [`NORMALIZATIONS`].
pub fn compare_debug(path: &str, e: &Value, a: &Dbg, counts: &mut Counts) -> Result<(), String> {
    let differ = || Err(format!("{path}: reference {e} / generated Rust {a:?}"));
    match (e, a) {
        (_, Dbg::Tuple(n, v)) if n == "Some" && v.len() == 1 => {
            compare_debug(path, e, &v[0], counts)
        }
        (Value::Null, Dbg::Ident(n)) if n == "None" => Ok(()),
        (Value::Array(x), Dbg::Ident(n)) if n == "None" && x.is_empty() => {
            bump(counts, "rust-absent-group-none");
            Ok(())
        }
        (Value::Null, Dbg::Tuple(n, v)) if n.starts_with("Unknown") && v.len() == 1 => {
            bump(counts, "rust-required-enum-null");
            Ok(())
        }
        (Value::Number(x), Dbg::Num(t)) => {
            let want = x.as_i64().map(i128::from).or(x.as_u64().map(i128::from));
            if t.parse::<i128>().ok() == want {
                Ok(())
            } else {
                differ()
            }
        }
        // `UnknownRaw` when the enum has a value named `Unknown`.
        (Value::Number(_), Dbg::Tuple(n, v)) if n.starts_with("Unknown") && v.len() == 1 => {
            compare_debug(path, e, &v[0], counts)
        }
        (Value::String(s), Dbg::Num(t) | Dbg::Ident(t))
            if s.starts_with("f:") || s.starts_with("d:") =>
        {
            let single = s.starts_with("f:");
            match parse_float(t, single) {
                Some(f) if f.is_nan() && s.ends_with(":NaN") => Ok(()),
                Some(f) if float(&s[..1], f).as_str() == Some(s) => Ok(()),
                _ => differ(),
            }
        }
        (Value::String(s), Dbg::Str(t)) => {
            if t.as_bytes() == s.chars().map(|c| c as u32 as u8).collect::<Vec<_>>() {
                Ok(())
            } else {
                differ()
            }
        }
        (Value::String(s), Dbg::List(bytes)) => {
            let ours: Option<Vec<u32>> = bytes
                .iter()
                .map(|b| match b {
                    Dbg::Num(t) => t.parse().ok(),
                    _ => None,
                })
                .collect();
            if ours == Some(s.chars().map(u32::from).collect()) {
                Ok(())
            } else {
                differ()
            }
        }
        (Value::String(s), Dbg::Ident(n)) => {
            if s == n {
                Ok(())
            } else if squash(s) == squash(n) {
                bump(counts, "rust-enum-variant-name");
                Ok(())
            } else {
                differ()
            }
        }
        (Value::Array(names), Dbg::Struct(_, choices))
            if choices
                .iter()
                .all(|(_, v)| matches!(v, Dbg::Ident(b) if b == "true" || b == "false")) =>
        {
            let on: Vec<&str> = choices
                .iter()
                .filter(|(_, v)| *v == Dbg::Ident("true".into()))
                .map(|(k, _)| k.as_str())
                .collect();
            let want: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
            if on == want {
                Ok(())
            } else {
                differ()
            }
        }
        (Value::Array(x), Dbg::List(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                compare_debug(&format!("{path}[{i}]"), p, q, counts)?;
            }
            Ok(())
        }
        (Value::Object(m), Dbg::Struct(_, fields)) => {
            let theirs: Vec<&str> = m.keys().map(String::as_str).collect();
            let mut ours: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
            ours.sort_unstable();
            if theirs != ours {
                return Err(format!(
                    "{path}: members {theirs:?} (reference) / {ours:?} (generated Rust)"
                ));
            }
            for (k, v) in fields {
                compare_debug(&format!("{path}.{k}"), &m[k.as_str()], v, counts)?;
            }
            Ok(())
        }
        _ => differ(),
    }
}

/// Compares a whole canonical message with the generated Rust's `AnyMessage` `Debug` text.
pub fn compare_message(e: &Value, debug: &str, counts: &mut Counts) -> Result<(), String> {
    let a = parse_debug(debug).map_err(|err| format!("unparsable Debug text ({err}): {debug}"))?;
    let name = e["message"].as_str().unwrap_or_default();
    match &a {
        Dbg::Tuple(_, v) if v.len() == 1 => match &v[0] {
            Dbg::Struct(n, _) if n == name => compare_debug(name, &e["fields"], &v[0], counts),
            // A message without fields prints as its bare name.
            Dbg::Ident(n) if n == name && e["fields"].as_object().is_some_and(|m| m.is_empty()) => {
                Ok(())
            }
            other => Err(format!("message {name} decoded as {other:?}")),
        },
        other => Err(format!("not an AnyMessage: {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_compares_debug_text() {
        let text = r#"Car(Car { a: 1, b: Some(-2.5), c: None, d: "x\"y", e: [1, 2], f: Set { on: true, off: false }, g: Unknown(7), h: NaN, i: TwoWords, j: [G { k: [255, 0] }] })"#;
        let e: Value = serde_json::from_str(
            r#"{"message":"Car","fields":{"a":1,"b":"d:c004000000000000","c":null,"d":"x\"y","e":[1,2],"f":["on"],"g":7,"h":"f:NaN","i":"two_words","j":[{"k":"\u00ff\u0000"}]}}"#,
        )
        .unwrap();
        let mut counts = Counts::new();
        compare_message(&e, text, &mut counts).unwrap();
        assert_eq!(counts.get("rust-enum-variant-name"), Some(&1));
        let mut wrong = e.clone();
        wrong["fields"]["a"] = Value::from(2);
        assert!(compare_message(&wrong, text, &mut counts).is_err());
        wrong = e.clone();
        wrong["fields"]["f"] = serde_json::json!(["off"]);
        assert!(compare_message(&wrong, text, &mut counts).is_err());
    }
}
