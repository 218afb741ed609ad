//! Shared test helpers: loading schemas, decoding to JSON, canonical bytes and random value
//! trees. The canonicalizer and the tree generator read the layout model but share no code
//! with the encoder.

#![allow(dead_code)]

use sbekit_encode::Encoder;
use sbekit_ir::layout::{wire_bits, Block, Field, FieldKind, IntSlot, Layout};
use sbekit_ir::{ByteOrder, Ir, Presence, PrimitiveType};
use sbekit_otf::random::Rng;
use sbekit_otf::Decoder;
use serde_json::{Map, Value};
use std::path::Path;

/// A schema with everything the tests need.
pub struct Schema {
    pub name: String,
    pub ir: Ir,
    pub layout: Layout,
    pub encoder: Encoder,
    pub decoder: Decoder,
}

pub fn load(path: &Path) -> Schema {
    let ir = sbekit_schema::load_ir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let layout = Layout::from_ir(&ir).unwrap();
    let encoder = Encoder::new(&layout);
    let decoder = Decoder::new(&ir).unwrap();
    Schema {
        name: path.display().to_string(),
        ir,
        layout,
        encoder,
        decoder,
    }
}

/// The message at the start of `bytes` as one compact JSON line (no newline).
pub fn decode(s: &Schema, bytes: &[u8]) -> String {
    try_decode(s, bytes).unwrap_or_else(|e| panic!("{}: decode: {e}", s.name))
}

/// As [`decode`], with the decoder's error.
pub fn try_decode(s: &Schema, bytes: &[u8]) -> Result<String, String> {
    let (json, len) =
        sbekit_otf::message_to_json(&s.decoder, bytes, false).map_err(|e| e.to_string())?;
    assert_eq!(len, bytes.len(), "{}: decoded length", s.name);
    Ok(json.trim_end().to_string())
}

/// Encodes JSON text with the text front end.
pub fn encode(s: &Schema, json: &str, template: &str, version: Option<u32>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut doc = sbekit_encode::Doc::new();
    s.encoder
        .encode_json(json.as_bytes(), Some(template), version, &mut doc, &mut out)
        .unwrap_or_else(|e| panic!("{}: encode {json}: {e}", s.name));
    out
}

fn read(b: &[u8], at: usize, ty: PrimitiveType, order: ByteOrder) -> u64 {
    let mut buf = [0u8; 8];
    let n = ty.size();
    buf[..n].copy_from_slice(&b[at..at + n]);
    match order {
        ByteOrder::LittleEndian => u64::from_le_bytes(buf),
        ByteOrder::BigEndian => {
            let mut v = 0u64;
            for &x in &buf[..n] {
                v = v << 8 | u64::from(x);
            }
            v
        }
    }
}

fn slot(b: &[u8], base: usize, s: &IntSlot, order: ByteOrder) -> u64 {
    read(b, base + s.offset, s.ty, order)
}

/// The canonical form of a well-formed message: what a writer that zeroes padding and writes
/// only what JSON can say would produce. Padding, unused block bytes and bytes of fields
/// absent at the acting version are zero; non-finite floats (printed as `null`) are the null
/// value; set bits with no choice are clear; char arrays are zero after their first NUL, and
/// their text (read by `sbekit_otf::text`'s rule) is written back by the encoder's rule (UTF-8
/// fields as UTF-8; other char data one byte per character when every character is
/// U+0000..U+00FF, else UTF-8).
pub fn canonical(l: &Layout, bytes: &[u8]) -> Vec<u8> {
    let order = l.byte_order;
    let mut out = vec![0u8; bytes.len()];
    let h = &l.header;
    out[..h.size].copy_from_slice(&bytes[..h.size]);
    let template = slot(bytes, 0, &h.template_id, order) as u32;
    let version = slot(bytes, 0, &h.version, order) as u32;
    let bl = slot(bytes, 0, &h.block_length, order) as usize;
    let m = l.messages.iter().find(|m| m.id == template).unwrap();
    let mut c = Canon {
        l,
        order,
        version,
        src: bytes,
        out: &mut out,
        pos: h.size,
    };
    c.block(&m.block, bl);
    assert_eq!(c.pos, bytes.len());
    out
}

struct Canon<'a> {
    l: &'a Layout,
    order: ByteOrder,
    version: u32,
    src: &'a [u8],
    out: &'a mut Vec<u8>,
    pos: usize,
}

impl Canon<'_> {
    fn block(&mut self, b: &Block, len: usize) {
        let start = self.pos;
        for f in &b.fields {
            self.field(f, start);
        }
        self.pos = start + len;
        for g in &b.groups {
            if g.since_version > self.version {
                continue;
            }
            let d = &g.dimension;
            let at = self.pos;
            let bl = slot(self.src, at, &d.block_length, self.order) as usize;
            let n = slot(self.src, at, &d.num_in_group, self.order);
            self.copy(at + d.block_length.offset, d.block_length.ty.size());
            self.copy(at + d.num_in_group.offset, d.num_in_group.ty.size());
            self.pos += d.size;
            for _ in 0..n {
                self.block(&g.block, bl);
            }
        }
        for v in &b.var_data {
            if v.since_version > self.version {
                continue;
            }
            let n = slot(self.src, self.pos, &v.length, self.order) as usize;
            self.copy(self.pos + v.length.offset, v.length.ty.size());
            self.copy(self.pos + v.data_offset, n);
            self.pos += v.data_offset + n;
        }
    }

    fn copy(&mut self, at: usize, n: usize) {
        self.out[at..at + n].copy_from_slice(&self.src[at..at + n]);
    }

    fn field(&mut self, f: &Field, base: usize) {
        if f.is_constant() || f.since_version > self.version {
            return;
        }
        let at = base + f.offset;
        match &f.kind {
            FieldKind::Primitive(p) if p.ty == PrimitiveType::Char => {
                let raw = &self.src[at..at + p.length];
                let content = &raw[..raw.iter().position(|&c| c == 0).unwrap_or(raw.len())];
                // The text as the decoder reads it (`sbekit_otf::text`).
                let encoding = sbekit_otf::text::Encoding::of(p.character_encoding.as_deref());
                let text = sbekit_otf::text::decode(content, encoding)
                    .text
                    .into_owned();
                let utf8 = p
                    .character_encoding
                    .as_deref()
                    .is_some_and(|e| e.eq_ignore_ascii_case("utf-8"));
                let one_byte_each = text.chars().all(|c| (c as u32) <= 0xFF);
                let canon: Vec<u8> = if one_byte_each && (!utf8 || text.len() > p.length) {
                    text.chars().map(|c| c as u32 as u8).collect()
                } else {
                    text.into_bytes()
                };
                self.out[at..at + canon.len()].copy_from_slice(&canon);
            }
            FieldKind::Primitive(p) if p.ty.is_float() => {
                for k in 0..p.length {
                    let e = at + k * p.ty.size();
                    let bits = read(self.src, e, p.ty, self.order);
                    let finite = match p.ty {
                        PrimitiveType::Float => f32::from_bits(bits as u32).is_finite(),
                        _ => f64::from_bits(bits).is_finite(),
                    };
                    if finite {
                        self.copy(e, p.ty.size());
                    } else {
                        let null = wire_bits(&p.null_value, p.ty);
                        put(self.out, e, p.ty, null, self.order);
                    }
                }
            }
            FieldKind::Primitive(_) | FieldKind::Enum { .. } => self.copy(at, f.size),
            FieldKind::Set { def } => {
                let s = &self.l.sets[def.0];
                let mask = s.choices.iter().fold(0u64, |m, c| m | 1 << c.bit);
                let bits = read(self.src, at, s.encoding, self.order) & mask;
                put(self.out, at, s.encoding, bits, self.order);
            }
            FieldKind::Composite { members, .. } => {
                for m in members {
                    self.field(m, at);
                }
            }
        }
    }
}

fn put(out: &mut [u8], at: usize, ty: PrimitiveType, bits: u64, order: ByteOrder) {
    let n = ty.size();
    let b = match order {
        ByteOrder::LittleEndian => bits.to_le_bytes()[..n].to_vec(),
        ByteOrder::BigEndian => bits.to_be_bytes()[8 - n..].to_vec(),
    };
    out[at..at + n].copy_from_slice(&b);
}

/// A random value tree for `message` in the shape the decoder prints, for a writer of
/// `version`: fields newer than it are omitted, its groups and var data left out. Strings are
/// printable ASCII, floats finite (as the shortest text of the type), enums named values.
pub fn random_tree(l: &Layout, message: usize, rng: &mut Rng, version: u32) -> Value {
    Tree { l, rng, version }.block(&l.messages[message].block)
}

struct Tree<'a> {
    l: &'a Layout,
    rng: &'a mut Rng,
    version: u32,
}

impl Tree<'_> {
    fn block(&mut self, b: &Block) -> Value {
        let mut m = Map::new();
        for f in &b.fields {
            if f.since_version <= self.version && !f.is_constant() {
                let v = self.field(f);
                m.insert(f.name.clone(), v);
            }
        }
        for g in &b.groups {
            if g.since_version <= self.version {
                let n = self.rng.below_or(3.min(g.dimension.num_in_group.max));
                let entries = (0..n).map(|_| self.block(&g.block)).collect();
                m.insert(g.name.clone(), Value::Array(entries));
            }
        }
        for v in &b.var_data {
            if v.since_version <= self.version {
                let n = self.rng.below_or(12.min(v.length.max)) as usize;
                m.insert(v.name.clone(), Value::String(self.ascii(n)));
            }
        }
        Value::Object(m)
    }

    fn ascii(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b' ' + (self.rng.next_u64() % 95) as u8))
            .collect()
    }

    fn field(&mut self, f: &Field) -> Value {
        match &f.kind {
            FieldKind::Primitive(p) => {
                if p.ty == PrimitiveType::Char {
                    // A single char always holds one (the decoder prints NUL as "\u0000").
                    let n = if p.length == 1 {
                        1
                    } else {
                        self.rng.below_or(p.length as u64) as usize
                    };
                    return Value::String(self.ascii(n));
                }
                let one = |t: &mut Self| t.number(p.ty);
                if p.length == 1 {
                    one(self)
                } else {
                    Value::Array((0..p.length).map(|_| one(self)).collect())
                }
            }
            FieldKind::Enum { def, .. } => {
                let e = &self.l.enums[def.0];
                let live: Vec<_> = e
                    .values
                    .iter()
                    .filter(|v| v.bits != e.null_bits())
                    .collect();
                if live.is_empty()
                    || (f.presence == Presence::Optional && self.rng.next_u64() % 5 == 0)
                {
                    return Value::Null;
                }
                let i = self.rng.below_or(live.len() as u64 - 1) as usize;
                Value::String(live[i].name.clone())
            }
            FieldKind::Set { def } => {
                let s = &self.l.sets[def.0];
                let mut m = Map::new();
                for c in &s.choices {
                    m.insert(c.name.clone(), Value::Bool(self.rng.next_u64() % 2 == 1));
                }
                Value::Object(m)
            }
            FieldKind::Composite { members, .. } => {
                let mut m = Map::new();
                for x in members {
                    if !x.is_constant() && x.since_version <= self.version {
                        let v = self.field(x);
                        m.insert(x.name.clone(), v);
                    }
                }
                Value::Object(m)
            }
        }
    }

    fn number(&mut self, ty: PrimitiveType) -> Value {
        let r = self.rng.next_u64();
        let text = match ty {
            // Floats with short exact decimal forms, so that serde_json (which does not parse
            // every float exactly) reads the tree's and the decoder's text alike. Bit-exact
            // floats are covered by the random-message round trips through JSON text.
            PrimitiveType::Float => {
                let f = ((r >> 43) as i64 - (1 << 20)) as f32 / (1 + (r & 1)) as f32;
                format!("{f:?}")
            }
            PrimitiveType::Double => {
                let f = ((r >> 24) as i64 - (1 << 39)) as f64 / (1 + (r & 3)) as f64;
                format!("{f:?}")
            }
            t if t.is_signed_int() => {
                let shift = 64 - 8 * t.size() as u32;
                (((r as i64) << shift) >> shift).to_string()
            }
            t => (r & (u64::MAX >> (64 - 8 * t.size() as u32))).to_string(),
        };
        serde_json::from_str(&text).unwrap()
    }
}

/// Drops from a decoded tree what the generator leaves out (constants, fields newer than
/// `version`), so that the two compare.
pub fn strip(l: &Layout, message: usize, decoded: &Value, version: u32) -> Value {
    fn block(b: &Block, v: &Value, version: u32) -> Value {
        let mut m = Map::new();
        for f in &b.fields {
            if f.since_version <= version && !f.is_constant() {
                m.insert(f.name.clone(), field(f, &v[&f.name], version));
            }
        }
        for g in &b.groups {
            if g.since_version <= version {
                let entries = v[&g.name]
                    .as_array()
                    .map(|a| a.iter().map(|e| block(&g.block, e, version)).collect())
                    .unwrap_or_default();
                m.insert(g.name.clone(), Value::Array(entries));
            }
        }
        for d in &b.var_data {
            if d.since_version <= version {
                m.insert(d.name.clone(), v[&d.name].clone());
            }
        }
        Value::Object(m)
    }
    fn field(f: &Field, v: &Value, version: u32) -> Value {
        match &f.kind {
            FieldKind::Composite { members, .. } => {
                let mut m = Map::new();
                for x in members {
                    if !x.is_constant() && x.since_version <= version {
                        m.insert(x.name.clone(), field(x, &v[&x.name], version));
                    }
                }
                Value::Object(m)
            }
            _ => v.clone(),
        }
    }
    block(&l.messages[message].block, decoded, version)
}

/// A random message from the test oracle. The oracle panics on a schema shape it cannot
/// write; that fails the test with the oracle's own message (every reference schema is
/// writable, and `reference.rs` checks that all 80 are covered).
pub fn random(
    s: &Schema,
    message: usize,
    seed: u64,
    opts: &sbekit_otf::random::Options,
) -> Vec<u8> {
    sbekit_otf::random::random_message(&s.ir, &s.ir.messages[message], &mut Rng::new(seed), opts)
        .bytes
}

/// Every reference-accepted schema (the 80 of the verdicts table), or `None` when the material
/// is missing.
pub fn reference_schemas(test: &str) -> Option<Vec<std::path::PathBuf>> {
    sbekit_testdata::reference_accepted_schemas(test)
}
