//! A JSON printer whose output matches the reference tool's `JsonPrinter` value for value.

use crate::decode::{DecodeError, Visitor};
use crate::plan::{
    Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, NodeKind, VarDataPlan,
};
use crate::text::Encoding;
use crate::value::{Origin, Value};
use sbekit_ir::wire::VERSION_MEMBER;

/// Writes each decoded message as one JSON object followed by a newline (JSON lines), into an
/// internal buffer that the caller drains.
///
/// The structure follows the reference `JsonPrinter`: one member per field in schema order
/// (constants included; fields absent at the acting version show their null value), composites
/// as objects whose members carry the composite members' names, enums as their valid value's
/// name, sets as objects of booleans, char arrays as strings cut at the first NUL, numeric
/// arrays as arrays, groups as arrays of objects and var data as strings. See the crate docs for
/// the deliberate differences. Text follows [`crate::text`]: values that were not valid in
/// their declared encoding are printed as Latin-1 and counted ([`JsonPrinter::text_fallbacks`]).
#[derive(Debug, Clone, Default)]
pub struct JsonPrinter {
    out: Vec<u8>,
    pretty: bool,
    depth: usize,
    comma: bool,
    /// With [`JsonPrinter::with_versions`]: the decoding schema's version.
    schema_version: Option<u64>,
    /// Fallback text values of the messages printed to the end.
    fallbacks: u64,
    /// Fallback text values of the message being printed.
    pending: u64,
}

impl JsonPrinter {
    /// A printer writing compact JSON lines, or indented JSON when `pretty`.
    pub fn new(pretty: bool) -> Self {
        JsonPrinter {
            out: Vec::with_capacity(4096),
            pretty,
            depth: 0,
            comma: false,
            schema_version: None,
            fallbacks: 0,
            pending: 0,
        }
    }

    /// Marks every message that a writer of an older version than `schema_version` (the
    /// decoding schema's) wrote with a first member [`VERSION_MEMBER`] (`"$version":0`), which
    /// `sbekit encode` honours: `decode | encode` then gives the same bytes at every version.
    /// Messages of the schema's version print as the reference's `JsonPrinter` prints them.
    pub fn with_versions(mut self, schema_version: u64) -> Self {
        self.schema_version = Some(schema_version);
        self
    }

    /// Text values of the messages printed so far (to their end) that were not valid in their
    /// declared character encoding and were printed one byte per code point (Latin-1); see
    /// [`crate::text`]. Not reset by [`JsonPrinter::take`] or [`JsonPrinter::clear`].
    pub fn text_fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// The JSON written so far.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// True if nothing is buffered.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Discards output past `len` (e.g. a message that failed half way) and resets the nesting.
    pub fn truncate(&mut self, len: usize) {
        self.out.truncate(len);
        self.depth = 0;
        self.comma = false;
        self.pending = 0;
    }

    /// Discards all output, keeping the buffer's capacity.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Takes the output, leaving the printer empty.
    pub fn take(&mut self) -> Vec<u8> {
        self.depth = 0;
        self.comma = false;
        std::mem::take(&mut self.out)
    }

    fn newline_indent(&mut self, depth: usize) {
        self.out.push(b'\n');
        for _ in 0..depth {
            self.out.extend_from_slice(b"  ");
        }
    }

    /// Starts an item at the current level: a comma if needed, then (pretty) a new line.
    fn item(&mut self) {
        if self.comma {
            self.out.push(b',');
        }
        if self.pretty {
            self.newline_indent(self.depth);
        }
        self.comma = true;
    }

    fn key(&mut self, name: &str) {
        self.item();
        write_str(&mut self.out, name.as_bytes(), Encoding::Utf8);
        self.out
            .extend_from_slice(if self.pretty { b": " } else { b":" });
    }

    fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.depth += 1;
        self.comma = false;
    }

    fn close(&mut self, bracket: u8) {
        self.depth = self.depth.saturating_sub(1);
        // `comma` is false only if nothing was written inside: keep `[]` and `{}` on one line.
        if self.pretty && self.comma {
            self.newline_indent(self.depth);
        }
        self.out.push(bracket);
        self.comma = true;
    }

    fn scalar(&mut self, v: Value<'_>, encoding: Encoding) {
        let out = &mut self.out;
        match v {
            Value::Int(i) => out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes()),
            Value::UInt(u) => out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes()),
            Value::Float(f) if f.is_finite() => {
                out.extend_from_slice(ryu::Buffer::new().format_finite(f).as_bytes())
            }
            Value::Double(d) if d.is_finite() => {
                out.extend_from_slice(ryu::Buffer::new().format_finite(d).as_bytes())
            }
            // JSON has no NaN or infinity.
            Value::Float(_) | Value::Double(_) => out.extend_from_slice(b"null"),
            // One char is always a one-character string, NUL included ("\u0000", as the
            // reference prints it); only char arrays stop at their first NUL.
            Value::Char(c) => {
                self.pending += u64::from(write_str(out, std::slice::from_ref(&c), encoding))
            }
            Value::Chars(b) => self.pending += u64::from(write_str(out, until_nul(b), encoding)),
            Value::Array(a) => {
                out.push(b'[');
                for (i, e) in a.iter().enumerate() {
                    if i > 0 {
                        self.out
                            .extend_from_slice(if self.pretty { b", " } else { b"," });
                    }
                    self.scalar(e, encoding);
                }
                self.out.push(b']');
            }
            Value::Enum(_) | Value::Set(_) => {}
        }
    }
}

/// Decodes the message at the start of `buf` to one line of compact JSON (or indented JSON when
/// `pretty`), ending with a newline. Returns the JSON and the message's length in bytes.
pub fn message_to_json(
    decoder: &Decoder,
    buf: &[u8],
    pretty: bool,
) -> Result<(String, usize), DecodeError> {
    let mut p = JsonPrinter::new(pretty);
    let len = decoder.decode(buf, &mut p)?;
    // The printer writes valid UTF-8 only (text is validated or mapped byte by byte).
    let json = String::from_utf8(p.take()).unwrap_or_default();
    Ok((json, len))
}

/// [`message_to_json`] as `sbekit decode` prints it: a message of an older writer than the
/// decoder's schema is marked with its version ([`JsonPrinter::with_versions`]). This is the
/// JSON every generated printer must print too (`sbekit conformance` compares against it).
pub fn message_to_decode_json(
    decoder: &Decoder,
    buf: &[u8],
    pretty: bool,
) -> Result<(String, usize), DecodeError> {
    let mut p = JsonPrinter::new(pretty).with_versions(decoder.schema_version());
    let len = decoder.decode(buf, &mut p)?;
    let json = String::from_utf8(p.take()).unwrap_or_default();
    Ok((json, len))
}

impl Visitor for JsonPrinter {
    fn begin_message(&mut self, _message: &MessagePlan, header: &MessageHeader) {
        self.depth = 0;
        self.comma = false;
        self.pending = 0;
        self.open(b'{');
        // Only older writers: a newer writer's message cannot be written again by this schema
        // (its extra fields are unknown), so it prints as the reference prints it.
        if self.schema_version.is_some_and(|v| header.version < v) {
            self.key(VERSION_MEMBER);
            self.scalar(Value::UInt(header.version), Encoding::Ascii);
        }
    }

    fn end_message(&mut self, _message: &MessagePlan) {
        self.close(b'}');
        self.out.push(b'\n');
        self.comma = false;
        // Counted only once the message is whole: one that fails half way is not printed.
        self.fallbacks += std::mem::take(&mut self.pending);
    }

    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, _origin: Origin) {
        self.key(&node.name);
        match value {
            Value::Enum(e) => {
                // The enum's null value prints as null, even where the schema lists it as a
                // validValue (`<validValue name="NullValue">255</validValue>`).
                let null = matches!(&node.kind, NodeKind::Enum(en)
                    if en.null_raw == e.raw && en.constant.is_none());
                match e.name {
                    _ if null => self.out.extend_from_slice(b"null"),
                    Some(n) => {
                        write_str(&mut self.out, n.as_bytes(), Encoding::Utf8);
                    }
                    None => self
                        .out
                        .extend_from_slice(itoa::Buffer::new().format(e.raw).as_bytes()),
                }
            }
            Value::Set(s) => {
                self.out
                    .extend_from_slice(if self.pretty { b"{ " } else { b"{" });
                for (i, (name, on)) in s.choices().enumerate() {
                    if i > 0 {
                        self.out
                            .extend_from_slice(if self.pretty { b", " } else { b"," });
                    }
                    write_str(&mut self.out, name.as_bytes(), Encoding::Utf8);
                    self.out
                        .extend_from_slice(if self.pretty { b": " } else { b":" });
                    self.out
                        .extend_from_slice(if on { b"true" as &[u8] } else { b"false" });
                }
                self.out
                    .extend_from_slice(if self.pretty { b" }" } else { b"}" });
            }
            other => {
                let encoding = match &node.kind {
                    NodeKind::Primitive(p) => Encoding::of(p.character_encoding.as_deref()),
                    _ => Encoding::Utf8,
                };
                self.scalar(other, encoding)
            }
        }
    }

    fn begin_composite(&mut self, node: &FieldNode) {
        self.key(&node.name);
        self.open(b'{');
    }

    fn end_composite(&mut self, _begin: &FieldNode) {
        self.close(b'}');
    }

    fn begin_group(&mut self, group: &GroupPlan, _count: u64) {
        self.key(&group.name);
        self.open(b'[');
    }

    fn begin_entry(&mut self, _group: &GroupPlan, _index: u64) {
        self.item();
        self.open(b'{');
    }

    fn end_entry(&mut self, _group: &GroupPlan, _index: u64) {
        self.close(b'}');
    }

    fn end_group(&mut self, _group: &GroupPlan) {
        self.close(b']');
    }

    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], _origin: Origin) {
        self.key(&field.name);
        // Raw bytes (no encoding) map one byte to one code point; text follows `crate::text`.
        let encoding = Encoding::of(field.character_encoding.as_deref());
        self.pending += u64::from(write_str(&mut self.out, data, encoding));
    }
}

fn until_nul(b: &[u8]) -> &[u8] {
    b.iter().position(|&c| c == 0).map_or(b, |i| &b[..i])
}

/// Writes `bytes` as a JSON string, read as [`crate::text::decode`] reads them: valid text in
/// `encoding` is kept; otherwise each byte becomes the code point of the same value (Latin-1),
/// so no byte is lost. Returns true when the text took that fallback.
fn write_str(out: &mut Vec<u8>, bytes: &[u8], encoding: Encoding) -> bool {
    out.push(b'"');
    let plain = |c: u8| c >= 0x20 && c != b'"' && c != b'\\';
    let valid = encoding.is_valid(bytes);
    if bytes.iter().all(|&c| plain(c) && c < 0x80) {
        out.extend_from_slice(bytes);
    } else if valid && encoding != Encoding::Latin1 {
        // Valid UTF-8 or ASCII: the bytes are the text's UTF-8.
        for &c in bytes {
            if plain(c) {
                out.push(c);
            } else {
                escape(out, c);
            }
        }
    } else {
        for &c in bytes {
            if c >= 0x80 {
                // U+0080..U+00FF in UTF-8.
                out.push(0xC0 | (c >> 6));
                out.push(0x80 | (c & 0x3F));
            } else if plain(c) {
                out.push(c);
            } else {
                escape(out, c);
            }
        }
    }
    out.push(b'"');
    !valid
}

fn escape(out: &mut Vec<u8>, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match c {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        _ => {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(c >> 4)]);
            out.push(HEX[usize::from(c & 0xF)]);
        }
    }
}
