//! One leaf column of the open row group: its pages so far, its open page, its dictionary.

use super::encode::{bit_width, delta_binary_packed, plain_bools, rle_hybrid, rle_run};
use super::levels::{Leaf, Levels};
use super::thrift;
use super::{Codec, Encoding};
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType};
use arrow_schema::{DataType, TimeUnit};

/// The Arrow leaf types this writer encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64,
    Timestamp,
    Decimal,
    Utf8,
    Binary,
    /// `Dictionary(Int32, Utf8)`: enum columns.
    Enum,
}

impl Kind {
    pub(crate) fn of(t: &DataType) -> Option<Kind> {
        Some(match t {
            DataType::Boolean => Kind::Bool,
            DataType::Int8 => Kind::Int8,
            DataType::Int16 => Kind::Int16,
            DataType::Int32 => Kind::Int32,
            DataType::Int64 => Kind::Int64,
            DataType::UInt8 => Kind::UInt8,
            DataType::UInt16 => Kind::UInt16,
            DataType::UInt32 => Kind::UInt32,
            DataType::UInt64 => Kind::UInt64,
            DataType::Float32 => Kind::Float32,
            DataType::Float64 => Kind::Float64,
            DataType::Timestamp(
                TimeUnit::Second
                | TimeUnit::Millisecond
                | TimeUnit::Microsecond
                | TimeUnit::Nanosecond,
                _,
            ) => Kind::Timestamp,
            DataType::Decimal128(_, _) => Kind::Decimal,
            DataType::Utf8 => Kind::Utf8,
            DataType::Binary => Kind::Binary,
            DataType::Dictionary(k, v) if **k == DataType::Int32 && **v == DataType::Utf8 => {
                Kind::Enum
            }
            _ => return None,
        })
    }
}

/// The Parquet physical type a leaf is stored as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Physical {
    Boolean,
    /// INT32 (`wide` false) or INT64; or FLOAT / DOUBLE (`float`).
    Number {
        wide: bool,
        float: bool,
    },
    ByteArray,
    /// FIXED_LEN_BYTE_ARRAY of this length (decimals of precision above 18).
    Fixed(usize),
}

impl Physical {
    pub(crate) fn code(self) -> i32 {
        match self {
            Physical::Boolean => 0,
            Physical::Number {
                wide: false,
                float: false,
            } => 1,
            Physical::Number {
                wide: true,
                float: false,
            } => 2,
            Physical::Number {
                wide: false,
                float: true,
            } => 4,
            Physical::Number {
                wide: true,
                float: true,
            } => 5,
            Physical::ByteArray => 6,
            Physical::Fixed(_) => 7,
        }
    }
}

/// How a column's values are encoded (chosen per file, see `Dictionary` in the sink).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Plain,
    Delta,
    Dictionary,
}

/// A dictionary page past this many bytes stops growing: the rest of the column chunk is
/// written plain (as other writers do; a dictionary that large is not repeating much).
const DICTIONARY_LIMIT: usize = 1 << 20;

/// A data page is finished once its values pass this many bytes (checked between writes).
const PAGE_BYTES: usize = 1 << 20;

/// A data page is also finished at this many level entries.
const PAGE_LEVELS: usize = 1 << 17;

thread_local! {
    /// The snappy encoder and its output, kept from page to page: a fresh zeroed output per
    /// page cost a memset and page faults (a page is up to ~1 MiB).
    static SNAPPY: std::cell::RefCell<(snap::raw::Encoder, Vec<u8>)> =
        std::cell::RefCell::new((snap::raw::Encoder::new(), Vec::new()));
    /// The page body under construction, reused likewise.
    static BODY: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A fast hash of a byte string (not DoS-resistant: the keys are the writer's own values).
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut x = [0u8; 8];
        x.copy_from_slice(c);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(x)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut x = [0u8; 8];
        x[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(x)).wrapping_mul(K);
    }
    h ^ (h >> 32)
}

fn hash_u64(v: u64) -> u64 {
    let h = v.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 29)
}

/// A slot of a dictionary of numbers: the value itself beside its index, so that a lookup
/// reads one slot, not a slot, then a hash and a value elsewhere.
#[derive(Clone, Copy, Default)]
struct NumberSlot {
    value: u64,
    /// Index + 1 of the value (0: empty).
    key: u32,
}

/// A dictionary of distinct values: numbers by their bits (in an open-addressing table of
/// slots holding them), byte strings by their bytes (in one of indices).
#[derive(Default)]
struct Dict {
    /// Byte strings' slots: index + 1 of the value (0: empty).
    table: Vec<u32>,
    /// Byte strings' hashes, by index.
    hashes: Vec<u64>,
    /// Numbers' slots.
    slots: Vec<NumberSlot>,
    /// The numbers, by index.
    numbers: Vec<u64>,
    bytes: Vec<u8>,
    ends: Vec<u32>,
    /// The dictionary page's plain size.
    size: usize,
}

impl Dict {
    /// The entries (a dictionary holds numbers or byte strings, not both).
    fn len(&self) -> usize {
        self.hashes.len() + self.numbers.len()
    }

    fn grow(&mut self) {
        let cap = (self.table.len() * 2).max(1024);
        let mut table = vec![0u32; cap];
        for (i, h) in self.hashes.iter().enumerate() {
            let mut s = (*h as usize) & (cap - 1);
            while table[s] != 0 {
                s = (s + 1) & (cap - 1);
            }
            table[s] = i as u32 + 1;
        }
        self.table = table;
    }

    /// The index of the value hashing to `h` that `same` accepts, or the next index after
    /// `add` has stored a new one.
    fn find_or_add(
        &mut self,
        h: u64,
        same: impl Fn(&Self, usize) -> bool,
        add: impl FnOnce(&mut Self),
    ) -> u32 {
        if self.len() * 2 >= self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut s = (h as usize) & mask;
        loop {
            let e = self.table[s];
            if e == 0 {
                let i = self.len() as u32;
                self.table[s] = i + 1;
                self.hashes.push(h);
                add(self);
                return i;
            }
            let k = e as usize - 1;
            if self.hashes[k] == h && same(self, k) {
                return e - 1;
            }
            s = (s + 1) & mask;
        }
    }

    /// The index of number `v` (`width` bytes in the dictionary page), added if new.
    #[inline]
    fn number(&mut self, v: u64, width: usize) -> u32 {
        if self.numbers.len() * 2 >= self.slots.len() {
            self.grow_numbers();
        }
        let mask = self.slots.len() - 1;
        let mut s = (hash_u64(v) as usize) & mask;
        loop {
            let slot = self.slots[s];
            if slot.key == 0 {
                let i = self.numbers.len() as u32;
                self.slots[s] = NumberSlot {
                    value: v,
                    key: i + 1,
                };
                self.numbers.push(v);
                self.size += width;
                return i;
            }
            if slot.value == v {
                return slot.key - 1;
            }
            s = (s + 1) & mask;
        }
    }

    fn grow_numbers(&mut self) {
        let cap = (self.slots.len() * 2).max(64);
        let mut slots = vec![NumberSlot::default(); cap];
        for (i, &v) in self.numbers.iter().enumerate() {
            let mut s = (hash_u64(v) as usize) & (cap - 1);
            while slots[s].key != 0 {
                s = (s + 1) & (cap - 1);
            }
            slots[s] = NumberSlot {
                value: v,
                key: i as u32 + 1,
            };
        }
        self.slots = slots;
    }

    fn value(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    fn bytes(&mut self, v: &[u8]) -> u32 {
        self.find_or_add(
            hash_bytes(v),
            |d, k| d.value(k) == v,
            |d| {
                d.bytes.extend_from_slice(v);
                d.ends.push(d.bytes.len() as u32);
                d.size += 4 + v.len();
            },
        )
    }

    fn memory(&self) -> usize {
        self.table.capacity() * 4
            + self.hashes.capacity() * 8
            + self.slots.capacity() * std::mem::size_of::<NumberSlot>()
            + self.numbers.capacity() * 8
            + self.bytes.capacity()
            + self.ends.capacity() * 4
    }
}

/// The open page's definition or repetition levels.
#[derive(Default)]
struct PageLevels {
    /// While every level of the page is the same: that level (`levels` is then empty).
    constant: Option<u16>,
    levels: Vec<u16>,
}

impl PageLevels {
    /// Appends a leaf's `n` levels to a page holding `before`.
    fn append(&mut self, theirs: Levels, before: usize, n: usize) {
        match theirs {
            Levels::Const(x) if before == 0 => self.constant = Some(x),
            Levels::Const(x) if self.constant == Some(x) => {}
            Levels::Const(x) => {
                self.materialize(before);
                self.levels.resize(self.levels.len() + n, x);
            }
            // A page's first levels are taken over, not copied.
            Levels::Owned(v) if before == 0 => {
                self.constant = None;
                self.levels = v;
            }
            Levels::Owned(v) => {
                self.materialize(before);
                self.levels.extend_from_slice(&v);
            }
            Levels::Shared(v) => {
                if before == 0 {
                    self.constant = None;
                    self.levels.clear();
                }
                self.materialize(before);
                self.levels.extend_from_slice(&v);
            }
            Levels::None => {}
        }
    }

    /// Writes out the constant levels of the page's first `before` entries.
    fn materialize(&mut self, before: usize) {
        if let Some(x) = self.constant.take() {
            self.levels.clear();
            self.levels.resize(before, x);
        }
    }

    fn clear(&mut self) {
        self.constant = None;
        self.levels.clear();
    }
}

/// A column chunk as written: what the footer says about it.
pub(crate) struct ChunkMeta {
    pub start: u64,
    pub dictionary_offset: Option<u64>,
    pub data_offset: u64,
    pub compressed: u64,
    pub uncompressed: u64,
    pub num_values: i64,
    pub encodings: u16,
    pub null_count: i64,
    /// Min and max, plain-encoded (integers only).
    pub min_max: Option<(Vec<u8>, Vec<u8>)>,
}

/// A leaf column of the file being written.
pub(crate) struct Column {
    kind: Kind,
    physical: Physical,
    /// Integer statistics compare as unsigned.
    unsigned: bool,
    /// Min and max are kept (integers that are not floats).
    stats: bool,
    max_def: u16,
    max_rep: u16,
    /// The mode chosen for the file; `mode` falls back to plain within a chunk.
    chosen: Mode,
    mode: Mode,
    codec: Codec,
    // The open page.
    def: PageLevels,
    rep: PageLevels,
    levels: usize,
    plain: Vec<u8>,
    ints: Vec<i64>,
    keys: Vec<u32>,
    bools: Vec<bool>,
    page_values: usize,
    // The open chunk.
    dict: Dict,
    /// The chunk's pages so far, each with its header (a list, not one growing buffer:
    /// reallocating tens of MiB per chunk cost copies and page faults).
    pages: Vec<Vec<u8>>,
    /// Their bytes, and their buffers' capacities.
    pages_bytes: usize,
    pages_capacity: usize,
    uncompressed: u64,
    dict_pages: usize,
    encodings: u16,
    num_values: i64,
    null_count: i64,
    min: i64,
    max: i64,
}

impl Column {
    pub(crate) fn new(
        kind: Kind,
        physical: Physical,
        unsigned: bool,
        max_def: u16,
        max_rep: u16,
        mode: Mode,
        codec: Codec,
    ) -> Self {
        let float = matches!(physical, Physical::Number { float: true, .. });
        let number = matches!(physical, Physical::Number { .. });
        // Delta needs integers; dictionaries are not kept for booleans and fixed-length values.
        let mode = match mode {
            Mode::Delta if !number || float => Mode::Plain,
            Mode::Dictionary if matches!(physical, Physical::Boolean | Physical::Fixed(_)) => {
                Mode::Plain
            }
            m => m,
        };
        Column {
            kind,
            physical,
            unsigned,
            stats: number && !float,
            max_def,
            max_rep,
            chosen: mode,
            mode,
            codec,
            def: PageLevels::default(),
            rep: PageLevels::default(),
            levels: 0,
            plain: Vec::new(),
            ints: Vec::new(),
            keys: Vec::new(),
            bools: Vec::new(),
            page_values: 0,
            dict: Dict::default(),
            pages: Vec::new(),
            pages_bytes: 0,
            pages_capacity: 0,
            uncompressed: 0,
            dict_pages: 0,
            encodings: 0,
            num_values: 0,
            null_count: 0,
            min: i64::MAX,
            max: i64::MIN,
        }
    }

    /// Bytes held for the open row group (allocated, not only used: buffers keep their
    /// capacity from page to page until the chunk is written).
    pub(crate) fn memory(&self) -> usize {
        self.pages_capacity
            + self.plain.capacity()
            + self.ints.capacity() * 8
            + self.keys.capacity() * 4
            + self.bools.capacity()
            + (self.def.levels.capacity() + self.rep.levels.capacity()) * 2
            + self.dict.memory()
    }

    /// Appends a batch's levels and values.
    pub(crate) fn append(&mut self, leaf: Leaf) {
        if self.max_def > 0 {
            self.def.append(leaf.def, self.levels, leaf.levels);
        }
        if self.max_rep > 0 {
            self.rep.append(leaf.rep, self.levels, leaf.levels);
        }
        self.levels += leaf.levels;
        let values = leaf.values.as_deref();
        let n = values.map_or(leaf.array.len(), <[u32]>::len);
        self.null_count += (leaf.levels - n) as i64;
        self.page_values += n;
        let a = leaf.array.as_ref();
        match self.kind {
            Kind::Bool => {
                let b = a.as_boolean().values();
                match values {
                    Some(idx) => self.bools.extend(idx.iter().map(|&i| b.value(i as usize))),
                    None => extend_bools(&mut self.bools, b),
                }
            }
            Kind::Int8 => self.numbers::<Int8Type>(a, values, i64::from),
            Kind::Int16 => self.numbers::<Int16Type>(a, values, i64::from),
            Kind::Int32 => self.numbers::<Int32Type>(a, values, i64::from),
            Kind::Int64 => self.numbers::<Int64Type>(a, values, |v| v),
            Kind::UInt8 => self.numbers::<UInt8Type>(a, values, i64::from),
            Kind::UInt16 => self.numbers::<UInt16Type>(a, values, i64::from),
            Kind::UInt32 => self.numbers::<UInt32Type>(a, values, |v| i64::from(v as i32)),
            Kind::UInt64 => self.numbers::<UInt64Type>(a, values, |v| v as i64),
            Kind::Float32 => self.numbers::<Float32Type>(a, values, |v| i64::from(v.to_bits())),
            Kind::Float64 => self.numbers::<Float64Type>(a, values, |v| v.to_bits() as i64),
            Kind::Timestamp => match a.data_type() {
                DataType::Timestamp(TimeUnit::Second, _) => {
                    self.numbers::<TimestampSecondType>(a, values, |v| v)
                }
                DataType::Timestamp(TimeUnit::Millisecond, _) => {
                    self.numbers::<TimestampMillisecondType>(a, values, |v| v)
                }
                DataType::Timestamp(TimeUnit::Microsecond, _) => {
                    self.numbers::<TimestampMicrosecondType>(a, values, |v| v)
                }
                _ => self.numbers::<TimestampNanosecondType>(a, values, |v| v),
            },
            Kind::Decimal => match self.physical {
                Physical::Fixed(len) => {
                    let d = a.as_primitive::<Decimal128Type>().values();
                    // Each value's last `len` big-endian bytes, shifted to the front of one
                    // 16-byte store (a copy of fixed size, where a copy of `len` bytes was a
                    // `memcpy` call per value); the rest of the store is cut off.
                    let shift = 8 * (16 - len) as u32;
                    each(values, a.len(), |i| {
                        let end = self.plain.len() + len;
                        self.plain
                            .extend_from_slice(&((d[i] as u128) << shift).to_be_bytes());
                        self.plain.truncate(end);
                    });
                }
                Physical::Number { wide: false, .. } => {
                    self.numbers::<Decimal128Type>(a, values, |v| i64::from(v as i32))
                }
                _ => self.numbers::<Decimal128Type>(a, values, |v| v as i64),
            },
            Kind::Utf8 => {
                let s = a.as_string::<i32>();
                let (o, d) = (s.value_offsets(), s.values().as_slice());
                self.byte_values(values, a.len(), |i| &d[o[i] as usize..o[i + 1] as usize]);
            }
            Kind::Binary => {
                let s = a.as_binary::<i32>();
                let (o, d) = (s.value_offsets(), s.values().as_slice());
                self.byte_values(values, a.len(), |i| &d[o[i] as usize..o[i + 1] as usize]);
            }
            Kind::Enum => {
                let d = a.as_dictionary::<Int32Type>();
                let words = d.values().as_string::<i32>();
                let keys = d.keys().values();
                if self.mode == Mode::Dictionary {
                    // The Arrow dictionary's words are interned once, then keys are mapped.
                    let map: Vec<u32> = (0..words.len())
                        .map(|w| self.dict.bytes(words.value(w).as_bytes()))
                        .collect();
                    let key = |i: usize| map[keys[i] as usize];
                    match values {
                        Some(idx) => self.keys.extend(idx.iter().map(|&i| key(i as usize))),
                        None => self.keys.extend((0..a.len()).map(key)),
                    }
                } else {
                    each(values, a.len(), |i| {
                        let w = words.value(keys[i] as usize).as_bytes();
                        self.plain
                            .extend_from_slice(&(w.len() as u32).to_le_bytes());
                        self.plain.extend_from_slice(w);
                    });
                }
            }
        }
        if self.mode == Mode::Dictionary && self.dict.size > DICTIONARY_LIMIT {
            self.finish_page();
            self.mode = Mode::Plain;
        } else if self.levels >= PAGE_LEVELS || self.page_bytes() >= PAGE_BYTES {
            self.finish_page();
        }
    }

    fn page_bytes(&self) -> usize {
        self.plain.len() + self.ints.len() * 8 + self.keys.len() * 2 + self.bools.len() / 8
    }

    /// Numbers are gathered into `ints` (plain and delta pages are encoded from it when the
    /// page is finished), min and max taken over the new ones, and, for a dictionary, turned
    /// into keys.
    fn numbers<T: ArrowPrimitiveType>(
        &mut self,
        a: &dyn Array,
        values: Option<&[u32]>,
        f: impl Fn(T::Native) -> i64,
    ) {
        let v = a.as_primitive::<T>().values();
        let start = self.ints.len();
        match values {
            Some(idx) => self.ints.extend(idx.iter().map(|&i| f(v[i as usize]))),
            None => self.ints.extend(v.iter().map(|x| f(*x))),
        }
        let wide = matches!(self.physical, Physical::Number { wide: true, .. });
        let new = &self.ints[start..];
        // A dictionary's values are all among its entries: their min and max are taken
        // over the entries when the chunk is finished (`dict_min_max`), not value by value.
        if self.stats && !new.is_empty() && self.mode != Mode::Dictionary {
            let (lo, hi) = stats_range(self.unsigned, wide, new.iter().copied());
            self.min = self.min.min(lo);
            self.max = self.max.max(hi);
        }
        if self.mode == Mode::Dictionary {
            let width = if wide { 8 } else { 4 };
            let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
            // Repeats of the previous value skip the table (ids and prices come in runs).
            let mut last = None;
            let dict = &mut self.dict;
            self.keys.extend(new.iter().map(|&x| {
                let x = x as u64 & mask;
                let k = match last {
                    Some((y, k)) if y == x => k,
                    _ => dict.number(x, width),
                };
                last = Some((x, k));
                k
            }));
            self.ints.truncate(start);
        }
    }

    /// Takes the dictionary's numbers into the chunk's min and max: each as it was in `ints`
    /// (a narrow column's values are within i32, and its entries their low 32 bits).
    fn dict_min_max(&mut self) {
        if !self.stats || self.dict.numbers.is_empty() {
            return;
        }
        let numbers = &self.dict.numbers;
        let wide = matches!(self.physical, Physical::Number { wide: true, .. });
        let (lo, hi) = if wide {
            stats_range(self.unsigned, wide, numbers.iter().map(|&x| x as i64))
        } else {
            stats_range(
                self.unsigned,
                wide,
                numbers.iter().map(|&x| i64::from(x as u32 as i32)),
            )
        };
        self.min = self.min.min(lo);
        self.max = self.max.max(hi);
    }

    fn byte_values<'a>(
        &mut self,
        values: Option<&[u32]>,
        len: usize,
        get: impl Fn(usize) -> &'a [u8],
    ) {
        if self.mode == Mode::Dictionary {
            let mut last: Option<(&[u8], u32)> = None;
            each(values, len, |i| {
                let b = get(i);
                let k = match last {
                    Some((y, k)) if y == b => k,
                    _ => self.dict.bytes(b),
                };
                last = Some((b, k));
                self.keys.push(k);
            });
        } else {
            each(values, len, |i| {
                let b = get(i);
                self.plain
                    .extend_from_slice(&(b.len() as u32).to_le_bytes());
                self.plain.extend_from_slice(b);
            });
        }
    }

    /// Encodes the open page into the chunk's pages.
    pub(crate) fn finish_page(&mut self) {
        if self.levels == 0 {
            return;
        }
        let mut body = BODY.take();
        body.clear();
        body.reserve(self.page_bytes() + (self.def.levels.len() + self.rep.levels.len()) / 2 + 64);
        for (levels, max) in [(&self.rep, self.max_rep), (&self.def, self.max_def)] {
            if max > 0 {
                let at = body.len();
                body.extend_from_slice(&[0; 4]);
                match levels.constant {
                    // What the hybrid makes of as many equal levels: one run.
                    Some(x) => rle_run(&mut body, x, self.levels, bit_width(u64::from(max))),
                    None => rle_hybrid(&mut body, &levels.levels, bit_width(u64::from(max))),
                }
                let n = (body.len() - at - 4) as u32;
                body[at..at + 4].copy_from_slice(&n.to_le_bytes());
                self.encodings |= 1 << Encoding::Rle as u16;
            }
        }
        let mode = if self.mode == Mode::Dictionary && self.page_values == 0 {
            // Nothing to look up: an empty plain page needs no dictionary.
            Mode::Plain
        } else {
            self.mode
        };
        let encoding = match (mode, self.physical) {
            (_, Physical::Boolean) => {
                plain_bools(&mut body, &self.bools);
                Encoding::Plain
            }
            (Mode::Dictionary, _) => {
                let w = bit_width(self.dict.len().saturating_sub(1) as u64).max(1);
                body.push(w);
                rle_hybrid(&mut body, &self.keys, w);
                self.dict_pages += 1;
                Encoding::RleDictionary
            }
            (Mode::Delta, Physical::Number { wide, .. }) => {
                delta_binary_packed(&mut body, &self.ints, wide);
                Encoding::DeltaBinaryPacked
            }
            (_, Physical::Number { wide, .. }) => {
                // Plain numbers, from `ints`.
                if wide {
                    body.reserve(self.ints.len() * 8);
                    self.ints
                        .iter()
                        .for_each(|x| body.extend_from_slice(&x.to_le_bytes()));
                } else {
                    body.reserve(self.ints.len() * 4);
                    self.ints
                        .iter()
                        .for_each(|x| body.extend_from_slice(&(*x as i32).to_le_bytes()));
                }
                Encoding::Plain
            }
            _ => {
                body.extend_from_slice(&self.plain);
                Encoding::Plain
            }
        };
        self.encodings |= 1 << encoding as u16;
        let levels = self.levels;
        self.num_values += levels as i64;
        self.page(
            &body,
            |w| {
                w.i32(1, 0); // DATA_PAGE
            },
            |w| {
                w.begin(5)
                    .i32(1, levels as i32)
                    .i32(2, encoding as i32)
                    .i32(3, Encoding::Rle as i32)
                    .i32(4, Encoding::Rle as i32)
                    .end();
            },
        );
        BODY.set(body);
        self.def.clear();
        self.rep.clear();
        self.plain.clear();
        self.ints.clear();
        self.keys.clear();
        self.bools.clear();
        self.levels = 0;
        self.page_values = 0;
    }

    /// Compresses `body` and appends it with its header to the chunk's pages; `kind` writes
    /// the header's type field, `header` its type-specific struct.
    fn page(
        &mut self,
        body: &[u8],
        kind: impl FnOnce(&mut thrift::Writer<'_>),
        header: impl FnOnce(&mut thrift::Writer<'_>),
    ) {
        match self.codec {
            Codec::None => self.page_stored(body, body, kind, header),
            Codec::Snappy => SNAPPY.with_borrow_mut(|(encoder, out)| {
                let need = snap::raw::max_compress_len(body.len());
                if out.len() < need {
                    out.resize(need, 0);
                }
                let n = encoder.compress(body, &mut out[..need]).unwrap_or(0);
                self.page_stored(body, &out[..n], kind, header)
            }),
        }
    }

    /// Appends `stored` (`body` as compressed) with its header to the chunk's pages.
    fn page_stored(
        &mut self,
        body: &[u8],
        stored: &[u8],
        kind: impl FnOnce(&mut thrift::Writer<'_>),
        header: impl FnOnce(&mut thrift::Writer<'_>),
    ) {
        // A page header is a few dozen bytes.
        let mut page = Vec::with_capacity(64 + stored.len());
        let mut w = thrift::Writer::new(&mut page);
        kind(&mut w);
        w.i32(2, body.len() as i32).i32(3, stored.len() as i32);
        header(&mut w);
        w.finish();
        let head = page.len();
        page.extend_from_slice(stored);
        self.pages_bytes += page.len();
        self.pages_capacity += page.capacity();
        self.pages.push(page);
        self.uncompressed += (head + body.len()) as u64;
    }

    /// Writes the chunk (dictionary page first) through `out` at file offset `start`; resets
    /// the column for the next row group.
    pub(crate) fn finish_chunk(
        &mut self,
        start: u64,
        out: &mut impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<ChunkMeta> {
        self.finish_page();
        let mut dictionary_offset = None;
        let mut dict_bytes = 0u64;
        let mut dict_uncompressed = 0u64;
        if self.dict_pages > 0 {
            let mut body = Vec::with_capacity(self.dict.size);
            for i in 0..self.dict.len() {
                match self.physical {
                    Physical::ByteArray => {
                        let v = self.dict.value(i);
                        body.extend_from_slice(&(v.len() as u32).to_le_bytes());
                        body.extend_from_slice(v);
                    }
                    Physical::Number { wide: true, .. } => {
                        body.extend_from_slice(&self.dict.numbers[i].to_le_bytes())
                    }
                    _ => body.extend_from_slice(&(self.dict.numbers[i] as u32).to_le_bytes()),
                }
            }
            // The dictionary page goes through the same path, then is cut off the end.
            let before = self.uncompressed;
            let n = self.dict.len() as i32;
            self.page(
                &body,
                |w| {
                    w.i32(1, 2); // DICTIONARY_PAGE
                },
                |w| {
                    w.begin(7).i32(1, n).i32(2, Encoding::Plain as i32).end();
                },
            );
            dict_uncompressed = self.uncompressed - before;
            self.uncompressed = before;
            // (The page is taken back off the end of the list, and out of its counts.)
            let dict_page = self.pages.pop().unwrap_or_default();
            self.pages_bytes -= dict_page.len();
            self.pages_capacity -= dict_page.capacity();
            out(&dict_page)?;
            dict_bytes = dict_page.len() as u64;
            dictionary_offset = Some(start);
            self.encodings |= 1 << Encoding::Plain as u16;
        }
        for p in &self.pages {
            out(p)?;
        }
        self.dict_min_max();
        let min_max = (self.stats && self.min <= self.max).then(|| {
            let back = |k: i64| -> i64 {
                match (self.unsigned, self.physical) {
                    (true, Physical::Number { wide: true, .. }) => ((k as u64) ^ (1 << 63)) as i64,
                    _ => k,
                }
            };
            let enc = |k: i64| -> Vec<u8> {
                match self.physical {
                    Physical::Number { wide: false, .. } => (back(k) as i32).to_le_bytes().to_vec(),
                    _ => back(k).to_le_bytes().to_vec(),
                }
            };
            (enc(self.min), enc(self.max))
        });
        let meta = ChunkMeta {
            start,
            dictionary_offset,
            data_offset: start + dict_bytes,
            compressed: dict_bytes + self.pages_bytes as u64,
            uncompressed: dict_uncompressed + self.uncompressed,
            num_values: self.num_values,
            encodings: self.encodings,
            null_count: self.null_count,
            min_max,
        };
        // The chunk's buffers are freed: a file between row groups holds nothing.
        self.pages = Vec::new();
        self.pages_bytes = 0;
        self.pages_capacity = 0;
        self.dict = Dict::default();
        self.def = PageLevels::default();
        self.rep = PageLevels::default();
        self.plain = Vec::new();
        self.ints = Vec::new();
        self.keys = Vec::new();
        self.bools = Vec::new();
        self.mode = self.chosen;
        self.uncompressed = 0;
        self.dict_pages = 0;
        self.encodings = 0;
        self.num_values = 0;
        self.null_count = 0;
        self.min = i64::MAX;
        self.max = i64::MIN;
        Ok(meta)
    }

    pub(crate) fn physical(&self) -> Physical {
        self.physical
    }
}

/// The least and greatest of values as gathered into `ints`, compared as the statistics
/// compare them (unsigned columns by their unsigned value).
fn stats_range(unsigned: bool, wide: bool, xs: impl Iterator<Item = i64>) -> (i64, i64) {
    match (unsigned, wide) {
        (false, _) => min_max(xs),
        (true, false) => min_max(xs.map(|x| i64::from(x as u32))),
        (true, true) => min_max(xs.map(|x| ((x as u64) ^ (1 << 63)) as i64)),
    }
}

/// The least and greatest of a non-empty sequence.
fn min_max(xs: impl Iterator<Item = i64>) -> (i64, i64) {
    xs.fold((i64::MAX, i64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// Appends the bits of `b` as booleans, a word of 64 at a time (a bit iterator's step per
/// value cost more than the rest of a boolean column's writing).
fn extend_bools(out: &mut Vec<bool>, b: &arrow_buffer::BooleanBuffer) {
    let end = out.len() + b.len();
    out.reserve(b.len().div_ceil(64) * 64);
    for w in b.bit_chunks().iter_padded() {
        out.extend((0..64).map(|k| (w >> k) & 1 == 1));
    }
    out.truncate(end);
}

/// Calls `f` with each position: `values`, or all of `0..len`.
#[inline]
fn each(values: Option<&[u32]>, len: usize, mut f: impl FnMut(usize)) {
    match values {
        Some(v) => v.iter().for_each(|&i| f(i as usize)),
        None => (0..len).for_each(f),
    }
}

#[cfg(test)]
mod tests {
    use super::{extend_bools, Dict};
    use arrow_buffer::BooleanBuffer;

    /// Booleans from words: at any bit offset of the buffer, lengths around a word's, after
    /// values already there.
    #[test]
    fn booleans_by_words_match_bit_by_bit() {
        let bits: Vec<bool> = (0..300u32).map(|i| (i * 37 + i / 5) % 3 == 0).collect();
        let all = BooleanBuffer::from(bits.clone());
        for (offset, len) in [
            (0, 0),
            (0, 64),
            (3, 61),
            (5, 64),
            (7, 130),
            (64, 200),
            (1, 299),
        ] {
            let b = all.slice(offset, len);
            let mut out = vec![true, false];
            extend_bools(&mut out, &b);
            assert_eq!(out[..2], [true, false]);
            assert_eq!(
                out[2..],
                bits[offset..offset + len],
                "offset {offset}, len {len}"
            );
        }
    }

    /// Numbers get their index in the order first seen, across the table's growths, and the
    /// same index each time after; values equal in their hash's low bits (tick-grid prices)
    /// and 0 included.
    #[test]
    fn dictionary_numbers_keep_their_first_index() {
        let mut d = Dict::default();
        let values: Vec<u64> = (0..5_000u64)
            .map(|i| i * 250_000_000)
            .chain([0, u64::MAX, 1 << 63])
            .collect();
        for (i, &v) in values.iter().enumerate().take(5_000) {
            assert_eq!(d.number(v, 8), i as u32);
        }
        assert_eq!(d.number(u64::MAX, 8), 5_000);
        assert_eq!(d.number(1 << 63, 8), 5_001);
        for (i, &v) in values.iter().enumerate().take(5_000).rev() {
            assert_eq!(d.number(v, 8), i as u32, "{v}");
        }
        assert_eq!(d.len(), 5_002);
        assert_eq!(d.numbers[..3], [0, 250_000_000, 500_000_000]);
        assert_eq!(d.size, 5_002 * 8);
    }
}
