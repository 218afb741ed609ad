//! A small JSON reader that keeps numbers as their text.
//!
//! The encoder reads values from a [`Doc`]: a flat list of nodes over one text arena, filled
//! either by parsing JSON text ([`Doc::parse`]) or from a `serde_json::Value`
//! ([`Doc::from_value`]). Keeping a number's text (rather than an `f64`) is what lets 64-bit
//! integers and `float`s come back bit for bit: each is parsed once, for the type of the field
//! it lands in. The flat layout makes a parse allocation-free once the buffers have grown.

use std::fmt;

/// Objects and arrays may nest this deep; deeper input is refused (it cannot match a schema
/// anyway, and recursion must stay bounded on hostile input).
pub const MAX_DEPTH: usize = 128;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    False,
    True,
    /// `a..b` is the number's text in the arena.
    Number,
    /// `a..b` is the (unescaped) string in the arena.
    String,
    /// `a` children; `b` is the index just past the last descendant.
    Array,
    /// `a` members, each a key node (a `String`) followed by its value; `b` as for arrays.
    Object,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub kind: Kind,
    pub a: u32,
    pub b: u32,
}

/// A parsed JSON value, reusable from one message to the next.
#[derive(Debug, Default, Clone)]
pub struct Doc {
    pub(crate) nodes: Vec<Node>,
    pub(crate) text: String,
}

/// A JSON syntax error: what was wrong and the byte offset in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset in the input text.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl Doc {
    /// An empty document.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses one JSON value (surrounding whitespace allowed), replacing the previous contents.
    pub fn parse(&mut self, input: &[u8]) -> Result<(), SyntaxError> {
        self.nodes.clear();
        self.text.clear();
        // One UTF-8 check for the whole input (fast on ASCII), so that strings are copied as
        // `&str` slices without checking each again.
        let src = std::str::from_utf8(input).map_err(|e| SyntaxError {
            offset: e.valid_up_to(),
            message: "invalid UTF-8".into(),
        })?;
        let mut p = Parser {
            src,
            s: input,
            i: 0,
            doc: self,
        };
        p.ws();
        p.value(0)?;
        p.ws();
        if p.i != input.len() {
            return Err(p.err("trailing characters after the value"));
        }
        Ok(())
    }

    /// Fills the document from a `serde_json::Value`, replacing the previous contents.
    pub fn from_value(&mut self, v: &serde_json::Value) -> Result<(), SyntaxError> {
        self.nodes.clear();
        self.text.clear();
        self.push_value(v, 0)
    }

    fn push_value(&mut self, v: &serde_json::Value, depth: usize) -> Result<(), SyntaxError> {
        use serde_json::Value as V;
        if depth > MAX_DEPTH {
            return Err(SyntaxError {
                offset: 0,
                message: format!("nested deeper than {MAX_DEPTH} levels"),
            });
        }
        match v {
            V::Null => self.leaf(Kind::Null),
            V::Bool(false) => self.leaf(Kind::False),
            V::Bool(true) => self.leaf(Kind::True),
            V::Number(n) => {
                // serde_json prints integers exactly and floats as the shortest text that reads
                // back to the same `f64`.
                let start = self.text.len();
                self.text.push_str(&n.to_string());
                self.span(Kind::Number, start);
            }
            V::String(s) => self.string(s),
            V::Array(items) => {
                let at = self.open(Kind::Array, items.len());
                for item in items {
                    self.push_value(item, depth + 1)?;
                }
                self.close(at);
            }
            V::Object(map) => {
                let at = self.open(Kind::Object, map.len());
                for (k, item) in map {
                    self.string(k);
                    self.push_value(item, depth + 1)?;
                }
                self.close(at);
            }
        }
        Ok(())
    }

    fn leaf(&mut self, kind: Kind) {
        self.nodes.push(Node { kind, a: 0, b: 0 });
    }

    fn string(&mut self, s: &str) {
        let start = self.text.len();
        self.text.push_str(s);
        self.span(Kind::String, start);
    }

    fn span(&mut self, kind: Kind, start: usize) {
        self.nodes.push(Node {
            kind,
            a: start as u32,
            b: self.text.len() as u32,
        });
    }

    fn open(&mut self, kind: Kind, len: usize) -> usize {
        self.nodes.push(Node {
            kind,
            a: len as u32,
            b: 0,
        });
        self.nodes.len() - 1
    }

    fn close(&mut self, at: usize) {
        self.nodes[at].b = self.nodes.len() as u32;
    }

    /// The root node (the document must not be empty).
    pub(crate) fn root(&self) -> Option<NodeRef<'_>> {
        (!self.nodes.is_empty()).then_some(NodeRef { doc: self, i: 0 })
    }
}

/// A node of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct NodeRef<'a> {
    doc: &'a Doc,
    i: usize,
}

impl<'a> NodeRef<'a> {
    pub fn kind(self) -> Kind {
        self.doc.nodes[self.i].kind
    }

    fn node(self) -> Node {
        self.doc.nodes[self.i]
    }

    /// The text of a number or string.
    pub fn text(self) -> &'a str {
        let n = self.node();
        self.doc
            .text
            .get(n.a as usize..n.b as usize)
            .unwrap_or_default()
    }

    /// Number of elements of an array or members of an object.
    pub fn len(self) -> usize {
        match self.kind() {
            Kind::Array | Kind::Object => self.node().a as usize,
            _ => 0,
        }
    }

    /// The index just past this node and its descendants.
    fn end(self) -> usize {
        match self.kind() {
            Kind::Array | Kind::Object => self.node().b as usize,
            _ => self.i + 1,
        }
    }

    /// An array's elements.
    pub fn items(self) -> Items<'a> {
        Items {
            doc: self.doc,
            next: self.i + 1,
            left: if self.kind() == Kind::Array {
                self.len()
            } else {
                0
            },
        }
    }

    /// An object's members as (key, value).
    pub fn members(self) -> Members<'a> {
        Members {
            doc: self.doc,
            next: self.i + 1,
            left: if self.kind() == Kind::Object {
                self.len()
            } else {
                0
            },
        }
    }

    /// Short text of the value for error messages.
    pub fn describe(self) -> String {
        match self.kind() {
            Kind::Null => "null".into(),
            Kind::False => "false".into(),
            Kind::True => "true".into(),
            Kind::Number => self.text().into(),
            Kind::String => {
                let t = self.text();
                if t.chars().count() > 40 {
                    let cut: String = t.chars().take(40).collect();
                    format!("{:?}", cut + "...")
                } else {
                    format!("{t:?}")
                }
            }
            Kind::Array => format!("an array of {}", self.len()),
            Kind::Object => "an object".into(),
        }
    }
}

/// Iterator over an array's elements.
pub(crate) struct Items<'a> {
    doc: &'a Doc,
    next: usize,
    left: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = NodeRef<'a>;
    fn next(&mut self) -> Option<NodeRef<'a>> {
        if self.left == 0 || self.next >= self.doc.nodes.len() {
            return None;
        }
        self.left -= 1;
        let n = NodeRef {
            doc: self.doc,
            i: self.next,
        };
        self.next = n.end();
        Some(n)
    }
}

/// Iterator over an object's members.
pub(crate) struct Members<'a> {
    doc: &'a Doc,
    next: usize,
    left: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, NodeRef<'a>);
    fn next(&mut self) -> Option<(&'a str, NodeRef<'a>)> {
        if self.left == 0 || self.next + 1 >= self.doc.nodes.len() {
            return None;
        }
        self.left -= 1;
        let key = NodeRef {
            doc: self.doc,
            i: self.next,
        };
        let value = NodeRef {
            doc: self.doc,
            i: self.next + 1,
        };
        self.next = value.end();
        Some((key.text(), value))
    }
}

struct Parser<'s, 'd> {
    src: &'s str,
    s: &'s [u8],
    i: usize,
    doc: &'d mut Doc,
}

impl Parser<'_, '_> {
    fn err(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            offset: self.i,
            message: message.into(),
        }
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.s.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<(), SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.err(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        match self.s.get(self.i) {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => {
                self.i += 1;
                let at = self.doc.open(Kind::Object, 0);
                let mut n = 0u32;
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        if self.s.get(self.i) != Some(&b'"') {
                            return Err(self.err("expected a member name"));
                        }
                        self.string()?;
                        self.ws();
                        if self.s.get(self.i) != Some(&b':') {
                            return Err(self.err("expected ':'"));
                        }
                        self.i += 1;
                        self.ws();
                        self.value(depth + 1)?;
                        n += 1;
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("expected ',' or '}'")),
                        }
                    }
                }
                self.doc.nodes[at].a = n;
                self.doc.close(at);
                Ok(())
            }
            Some(b'[') => {
                self.i += 1;
                let at = self.doc.open(Kind::Array, 0);
                let mut n = 0u32;
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        self.value(depth + 1)?;
                        n += 1;
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("expected ',' or ']'")),
                        }
                    }
                }
                self.doc.nodes[at].a = n;
                self.doc.close(at);
                Ok(())
            }
            Some(b'"') => self.string(),
            Some(b't') => self.word(b"true", Kind::True),
            Some(b'f') => self.word(b"false", Kind::False),
            Some(b'n') => self.word(b"null", Kind::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a value")),
        }
    }

    fn word(&mut self, w: &[u8], kind: Kind) -> Result<(), SyntaxError> {
        if self.s.get(self.i..self.i + w.len()) == Some(w) {
            self.i += w.len();
            self.doc.leaf(kind);
            Ok(())
        } else {
            Err(self.err("expected a value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<(), SyntaxError> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        let n = self.digits();
        if n == 0 || (n > 1 && self.s[int_start] == b'0') {
            return Err(self.err("malformed number"));
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.err("malformed number"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("malformed number"));
            }
        }
        // Only ASCII was consumed.
        let text = self.src.get(start..self.i).unwrap_or_default();
        let at = self.doc.text.len();
        self.doc.text.push_str(text);
        self.doc.span(Kind::Number, at);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("malformed \\u escape"))?;
        self.i += 4;
        Ok(h)
    }

    fn string(&mut self) -> Result<(), SyntaxError> {
        self.i += 1; // the opening quote
        let at = self.doc.text.len();
        loop {
            // Copy the longest run of plain bytes at once.
            let run = self.s[self.i..]
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .ok_or_else(|| self.err("unterminated string"))?;
            // Both ends sit next to ASCII bytes (a quote, an escape or a control character),
            // so they are character boundaries.
            let plain = self
                .src
                .get(self.i..self.i + run)
                .ok_or_else(|| self.err("invalid UTF-8 in a string"))?;
            self.doc.text.push_str(plain);
            self.i += run;
            match self.s[self.i] {
                b'"' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    let c = *self
                        .s
                        .get(self.i)
                        .ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    let ch = match c {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(cp)
                                .ok_or_else(|| self.err("lone surrogate in \\u escape"))?
                        }
                        _ => return Err(self.err("unknown escape")),
                    };
                    self.doc.text.push(ch);
                }
                _ => return Err(self.err("control character in a string")),
            }
        }
        self.doc.span(Kind::String, at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Doc, SyntaxError> {
        let mut d = Doc::new();
        d.parse(s.as_bytes())?;
        Ok(d)
    }

    #[test]
    fn parses_and_walks() {
        let d =
            parse(r#" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00"], "b": {"c": null}, "d": true} "#)
                .unwrap();
        let root = d.root().unwrap();
        let m: Vec<_> = root.members().collect();
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].0, "a");
        let items: Vec<_> = m[0].1.items().map(|n| n.text().to_string()).collect();
        assert_eq!(items, ["1", "-2.5e3", "xé😀"]);
        assert_eq!(m[1].1.members().next().unwrap().1.kind(), Kind::Null);
        assert_eq!(m[2].1.kind(), Kind::True);
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "{",
            "[1,]",
            "01",
            "1.",
            "\"\\ud800\"",
            "{\"a\" 1}",
            "nul",
            "[1] x",
            "\"\u{1}\"",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn matches_serde_json() {
        let text = r#"{"x":[1,2,{"y":"z"}],"n":18446744073709551615,"f":0.1,"s":"a\"b"}"#;
        let a = parse(text).unwrap();
        let mut b = Doc::new();
        b.from_value(&serde_json::from_str(text).unwrap()).unwrap();
        // serde_json may reorder members; the same nodes and text must be there.
        assert_eq!(a.nodes.len(), b.nodes.len());
        assert_eq!(a.text.len(), b.text.len());
    }
}
