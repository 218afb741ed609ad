//! A decoding visitor that builds Python dicts: the same values `sbekit decode` prints as JSON.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use sbekit_otf::text::Encoding;
use sbekit_otf::{
    BlockPlan, Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, NodeKind, Origin, Value,
    VarDataPlan, Visitor,
};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

/// Char arrays at most this long are kept in a schema's [`TextCache`] (symbols, codes).
const CACHED_TEXT_LEN: usize = 16;
/// Texts a schema's [`TextCache`] holds at most (it stops adding, it never evicts).
const CACHED_TEXTS: usize = 4096;

/// Interned Python strings for every name in a decoder's plans, found by the address of the
/// plan's own string (stable: the plans live as long as the schema). Building a key is then a
/// hash of one pointer rather than making and interning a new string per field.
#[derive(Default)]
pub struct Keys {
    map: HashMap<usize, Py<PyString>, BuildHasherDefault<AddrHasher>>,
    /// Short char-array values decoded before, shared by every decode with this schema.
    texts: Mutex<TextCache>,
}

/// The Python strings of short char arrays already decoded, by encoding and bytes. Market data
/// repeats a few thousand symbols and codes: handing out the same (immutable) `str` again
/// saves making, checking and later freeing one per value (dict decode of market-data
/// messages about 20% faster, alternated in one process).
#[derive(Default)]
pub struct TextCache {
    /// One map per [`Encoding`] (the same bytes can read differently in another).
    by_encoding: [TextMap; 3],
    len: usize,
}

impl TextCache {
    fn slot(encoding: Encoding) -> usize {
        match encoding {
            Encoding::Utf8 => 0,
            Encoding::Latin1 => 1,
            Encoding::Ascii => 2,
        }
    }

    /// The string for `b`, made with `make` on a miss (kept if there is room).
    fn get_or_make<'py>(
        &mut self,
        py: Python<'py>,
        b: &[u8],
        encoding: Encoding,
    ) -> Bound<'py, PyString> {
        let map = &mut self.by_encoding[Self::slot(encoding)];
        if let Some(s) = map.get(b) {
            return s.bind(py).clone();
        }
        let s = text(py, b, encoding);
        if self.len < CACHED_TEXTS {
            map.insert(b.into(), s.clone().unbind());
            self.len += 1;
        }
        s
    }
}

/// Bytes to their Python string.
type TextMap = HashMap<Box<[u8]>, Py<PyString>, BuildHasherDefault<BytesHasher>>;

/// A hasher for short byte strings (symbols): cheap, and mixed so that the high bits the
/// table probes with depend on every byte.
#[derive(Default)]
pub struct BytesHasher(u64);

impl Hasher for BytesHasher {
    fn finish(&self) -> u64 {
        (self.0 ^ (self.0 >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 ^= (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A hasher for addresses: they are already well spread, apart from alignment.
#[derive(Default)]
pub struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Keys {
    /// Interns every field, group, var-data, enum-value and set-choice name of `decoder`.
    pub fn new(py: Python<'_>, decoder: &Decoder) -> Keys {
        let mut k = Keys::default();
        for m in decoder.messages() {
            k.block(py, &m.body);
        }
        k
    }

    fn add(&mut self, py: Python<'_>, s: &str) {
        self.map
            .entry(s.as_ptr() as usize)
            .or_insert_with(|| PyString::intern(py, s).unbind());
    }

    fn block(&mut self, py: Python<'_>, b: &BlockPlan) {
        for f in &b.fields {
            self.add(py, &f.name);
            match &f.kind {
                NodeKind::Enum(e) => e.values.iter().for_each(|(n, _)| self.add(py, n)),
                NodeKind::Set(s) => s.choices.iter().for_each(|c| self.add(py, &c.name)),
                _ => {}
            }
        }
        for g in &b.groups {
            self.add(py, &g.name);
            self.block(py, &g.body);
        }
        for v in &b.var_data {
            self.add(py, &v.name);
        }
    }

    /// The interned string for `s` (a name borrowed from the plans), or a new one.
    #[inline]
    fn get<'py>(&self, py: Python<'py>, s: &str) -> Bound<'py, PyString> {
        match self.map.get(&(s.as_ptr() as usize)) {
            Some(k) => k.bind(py).clone(),
            None => PyString::intern(py, s),
        }
    }
}

enum Frame<'py> {
    Dict(Bound<'py, PyDict>),
    List(Bound<'py, PyList>),
}

/// Builds one dict per message. Visitor methods cannot fail, so the first Python error is kept
/// and reported by [`DictBuilder::finish`].
pub struct DictBuilder<'py, 'k> {
    py: Python<'py>,
    keys: &'k Keys,
    /// The schema's text cache, when no other decode holds it (never waited for: a decode
    /// can run Python code, such as a finalizer, that starts another decode on this thread or
    /// lets another thread run one).
    texts: Option<MutexGuard<'k, TextCache>>,
    stack: Vec<Frame<'py>>,
    done: Option<Bound<'py, PyDict>>,
    error: Option<PyErr>,
    /// The decoding schema's version: a message of an older version gets a `"$version"` key.
    schema_version: u64,
}

impl<'py, 'k> DictBuilder<'py, 'k> {
    /// A builder naming members with `keys`, for a schema of version `schema_version`: a
    /// message written at an older version says so in a first key `"$version"`
    /// ([`sbekit_ir::wire::VERSION_MEMBER`]), which `Schema.encode` honours, as `sbekit decode`
    /// and `sbekit encode` do.
    pub fn new(py: Python<'py>, keys: &'k Keys, schema_version: u64) -> Self {
        DictBuilder {
            py,
            keys,
            texts: keys.texts.try_lock().ok(),
            stack: Vec::with_capacity(8),
            done: None,
            error: None,
            schema_version,
        }
    }

    /// The last message decoded, or the first error building it.
    pub fn finish(&mut self) -> PyResult<Bound<'py, PyDict>> {
        self.stack.clear();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        Ok(self.done.take().unwrap_or_else(|| PyDict::new(self.py)))
    }

    /// Clears a half-built message after a decoding error.
    pub fn reset(&mut self) {
        self.stack.clear();
        self.done = None;
        self.error = None;
    }

    /// Ends a composite, entry or group: its container is complete, see [`untrack`].
    fn pop_untracked(&mut self) {
        match self.stack.pop() {
            Some(Frame::Dict(d)) => untrack(&d),
            Some(Frame::List(l)) => untrack(&l),
            None => {}
        }
    }

    fn keep(&mut self, r: PyResult<()>) {
        if let Err(e) = r {
            if self.error.is_none() {
                self.error = Some(e);
            }
        }
    }

    fn put(&mut self, name: &str, value: Bound<'py, PyAny>) {
        let r = match self.stack.last() {
            Some(Frame::Dict(d)) => d.set_item(self.keys.get(self.py, name), value),
            Some(Frame::List(l)) => l.append(value),
            None => Ok(()),
        };
        self.keep(r);
    }

    fn scalar(&mut self, v: Value<'_>, encoding: Encoding) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match v {
            Value::Int(i) => i.into_pyobject(py)?.into_any(),
            Value::UInt(u) => u.into_pyobject(py)?.into_any(),
            // The float's shortest text read as a double, so 35.9f32 is 35.9 as in the JSON.
            Value::Float(f) => f32_value(f).into_pyobject(py)?.into_any(),
            Value::Double(d) => d.into_pyobject(py)?.into_any(),
            Value::Char(c) => text(py, std::slice::from_ref(&c), encoding).into_any(),
            Value::Chars(b) => {
                let b = until_nul(b);
                match self.texts.as_mut() {
                    Some(cache) if b.len() <= CACHED_TEXT_LEN => {
                        cache.get_or_make(py, b, encoding).into_any()
                    }
                    _ => text(py, b, encoding).into_any(),
                }
            }
            Value::Array(a) => {
                let list = PyList::empty(py);
                for e in a.iter() {
                    list.append(self.scalar(e, encoding)?)?;
                }
                untrack(&list);
                list.into_any()
            }
            Value::Enum(e) => match e.name {
                Some(n) => self.keys.get(py, n).into_any(),
                None => e.raw.into_pyobject(py)?.into_any(),
            },
            Value::Set(s) => {
                let d = PyDict::new(py);
                for (name, on) in s.choices() {
                    d.set_item(self.keys.get(py, name), on)?;
                }
                d.into_any()
            }
        })
    }
}

/// Takes a decoded container out of the set Python's cyclic garbage collector tracks.
///
/// A decoded message is a tree of dicts and lists holding ints, floats, strings and bytes: it
/// can be in no reference cycle. Yet lists are tracked from birth, and a dict becomes tracked
/// as soon as a list or dict goes in, so each message added a few tracked objects, and a list
/// of 100,000 decoded messages cost more in collections than in decoding (2.5x slower than
/// with `gc.disable()`). Untracked, the collector skips them; reference counting frees them as
/// before, and a dict the caller later puts a container in is tracked again by CPython. The
/// one thing given up: a cycle a caller builds through a decoded list (`d["trades"].append(d)`)
/// is not collected, only freed if broken by hand.
#[allow(unsafe_code)]
fn untrack(obj: &Bound<'_, PyAny>) {
    // SAFETY: `obj` is a live object (borrowed through `Bound`, so the GIL is held) of a GC
    // type (a dict or list we made); PyObject_GC_UnTrack accepts a tracked or untracked one.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
}

/// A `float` as the double its shortest decimal text denotes.
pub fn f32_value(f: f32) -> f64 {
    if !f.is_finite() {
        return f64::from(f);
    }
    ryu::Buffer::new()
        .format_finite(f)
        .parse()
        .unwrap_or(f64::from(f))
}

fn until_nul(b: &[u8]) -> &[u8] {
    b.iter().position(|&c| c == 0).map_or(b, |i| &b[..i])
}

/// Text as the JSON printer gives it ([`sbekit_otf::text`]): valid text in the declared
/// encoding, otherwise one code point per byte (Latin-1).
fn text<'py>(py: Python<'py>, b: &[u8], encoding: Encoding) -> Bound<'py, PyString> {
    PyString::new(py, &sbekit_otf::text::decode(b, encoding).text)
}

impl Visitor for DictBuilder<'_, '_> {
    fn begin_message(&mut self, _message: &MessagePlan, header: &MessageHeader) {
        self.stack.clear();
        self.done = None;
        let d = PyDict::new(self.py);
        if header.version < self.schema_version {
            if let Err(e) = d.set_item(sbekit_ir::wire::VERSION_MEMBER, header.version) {
                self.error.get_or_insert(e);
            }
        }
        self.stack.push(Frame::Dict(d));
    }

    fn end_message(&mut self, _message: &MessagePlan) {
        if let Some(Frame::Dict(d)) = self.stack.pop() {
            untrack(&d);
            self.done = Some(d);
        }
    }

    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, _origin: Origin) {
        // The enum's null value is None, even where the schema lists it as a valid value.
        let null = match (&node.kind, value) {
            (NodeKind::Enum(en), Value::Enum(e)) => en.null_raw == e.raw && en.constant.is_none(),
            _ => false,
        };
        let v = if null {
            Ok(self.py.None().into_bound(self.py))
        } else {
            let encoding = match &node.kind {
                NodeKind::Primitive(p) => Encoding::of(p.character_encoding.as_deref()),
                _ => Encoding::Utf8,
            };
            self.scalar(value, encoding)
        };
        match v {
            Ok(v) => self.put(&node.name, v),
            Err(e) => self.keep(Err(e)),
        }
    }

    fn begin_composite(&mut self, node: &FieldNode) {
        let d = PyDict::new(self.py);
        self.put(&node.name, d.clone().into_any());
        self.stack.push(Frame::Dict(d));
    }

    fn end_composite(&mut self, _begin: &FieldNode) {
        self.pop_untracked();
    }

    fn begin_group(&mut self, group: &GroupPlan, _count: u64) {
        let l = PyList::empty(self.py);
        self.put(&group.name, l.clone().into_any());
        self.stack.push(Frame::List(l));
    }

    fn begin_entry(&mut self, _group: &GroupPlan, _index: u64) {
        let d = PyDict::new(self.py);
        self.put("", d.clone().into_any());
        self.stack.push(Frame::Dict(d));
    }

    fn end_entry(&mut self, _group: &GroupPlan, _index: u64) {
        self.pop_untracked();
    }

    fn end_group(&mut self, _group: &GroupPlan) {
        self.pop_untracked();
    }

    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], _origin: Origin) {
        // Text when the schema gives a character encoding; raw bytes otherwise.
        let v = if field.character_encoding.is_some() {
            text(
                self.py,
                data,
                Encoding::of(field.character_encoding.as_deref()),
            )
            .into_any()
        } else {
            PyBytes::new(self.py, data).into_any()
        };
        self.put(&field.name, v);
    }
}
