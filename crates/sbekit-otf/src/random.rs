//! Random messages for tests, fuzzing and benchmarks, encoded straight from IR tokens.
//!
//! This encoder deliberately shares no code with the decoder's plans: it walks the IR tokens
//! itself, picks random values, writes them with the schema's byte order and records what a
//! correct decoder must report for each element (`Car.fuelFigures[1].speed` -> 55). It can play
//! an older writer (a lower version: newer fields absent) or a newer one (extra block bytes the
//! reader does not know), which is what schema-evolution tests need.

use sbekit_ir::{split_components, ByteOrder, Ir, PrimitiveType, PrimitiveValue, Signal, Token};

/// What a correct decoder reports for one element.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// An integer of any width or signedness.
    Int(i128),
    /// A float or double, by its bits as an `f64` (a `float` widened).
    Float(u64),
    /// A single character.
    Char(u8),
    /// A character array or character constant (all bytes).
    Chars(Vec<u8>),
    /// A numeric array.
    Array(Vec<Expected>),
    /// An enum: raw value and the matching valid value's name.
    Enum(i64, Option<String>),
    /// A set: raw bits.
    Set(u64),
    /// Var data bytes.
    Data(Vec<u8>),
    /// A group's entry count.
    Count(u64),
}

/// How to shape random messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Version the simulated writer uses (elements with a higher `sinceVersion` are left out);
    /// `None` for the schema's version.
    pub writer_version: Option<u32>,
    /// Extra bytes appended to every block (root and group entries), as a newer writer would.
    pub extra_block: usize,
    /// Largest group count.
    pub max_group: u64,
    /// Largest var-data length.
    pub max_data: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            writer_version: None,
            extra_block: 0,
            max_group: 3,
            max_data: 16,
        }
    }
}

/// A random message and what decoding it must report.
#[derive(Debug, Clone, PartialEq)]
pub struct RandomMessage {
    /// The encoded message, header included.
    pub bytes: Vec<u8>,
    /// (path, value) for every element, in wire order.
    pub expected: Vec<(String, Expected)>,
}

/// A small deterministic generator (`rand_xoshiro`'s SplitMix64, the project's one PRNG
/// crate), so results depend only on the seed.
#[derive(Debug, Clone)]
pub struct Rng(rand_xoshiro::SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        use rand_xoshiro::rand_core::SeedableRng;
        Rng(rand_xoshiro::SplitMix64::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        use rand_xoshiro::rand_core::Rng as _;
        self.0.next_u64()
    }

    /// A number in `0..=max`.
    pub fn below_or(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            self.next_u64()
        } else {
            self.next_u64() % (max + 1)
        }
    }
}

/// Encodes a random instance of `message` (a message's tokens from `ir`).
///
/// Panics only on IR that `sbekit_ir` itself would reject (bad component counts); meant for
/// tests and benchmarks with known-good IR.
pub fn random_message(ir: &Ir, message: &[Token], rng: &mut Rng, opts: &Options) -> RandomMessage {
    encode(ir, message, rng, opts, None)
}

/// Encodes an instance of `message` whose values look like a market's rather than noise (see
/// [`Market`]): the message is about one instrument of `market`, whose state (price, sequence
/// numbers, clock) it advances. What decoding must report is recorded as for
/// [`random_message`].
pub fn market_message(
    ir: &Ir,
    message: &[Token],
    rng: &mut Rng,
    opts: &Options,
    market: &mut Market,
) -> RandomMessage {
    market.next_message(rng);
    encode(ir, message, rng, opts, Some(market))
}

fn encode(
    ir: &Ir,
    message: &[Token],
    rng: &mut Rng,
    opts: &Options,
    market: Option<&mut Market>,
) -> RandomMessage {
    let order = ir.byte_order();
    let version = opts
        .writer_version
        .map_or(ir.version, |v| i32::try_from(v).unwrap_or(i32::MAX));
    let mut w = Writer {
        order,
        version,
        schema_version: ir.version,
        rng,
        opts,
        market,
        out: Vec::new(),
        expected: Vec::new(),
    };
    let root = &message[0];
    let body = &message[1..message.len() - 1];
    let hs = ir.header_structure().expect("message header");
    w.out.resize(hs.encoded_length, 0);
    let block_len = block_length(root.encoded_length, body, version, ir.version) + opts.extra_block;
    // Constant header fields are not on the wire.
    for (t, v) in [
        (&hs.block_length, block_len as u64),
        (&hs.template_id, root.id as u64),
        (&hs.schema_id, ir.id as u64),
        (&hs.version, version as u64),
    ] {
        if !t.is_constant() {
            put_uint(&mut w.out, t, v, order);
        }
    }
    w.body(body, &root.name, block_len);
    RandomMessage {
        bytes: w.out,
        expected: w.expected,
    }
}

fn put_uint(out: &mut [u8], t: &Token, v: u64, order: ByteOrder) {
    let off = t.offset as usize;
    let size = t.encoding.primitive().size();
    let bytes = int_bytes(v as i128, size, order);
    out[off..off + size].copy_from_slice(&bytes);
}

fn int_bytes(v: i128, size: usize, order: ByteOrder) -> Vec<u8> {
    let le = (v as u128).to_le_bytes();
    let mut b = le[..size].to_vec();
    if order == ByteOrder::BigEndian {
        b.reverse();
    }
    b
}

/// The block length a writer of `version` uses: the schema's when it is the schema's version,
/// else the end of the last field it knows.
fn block_length(schema_len: i32, body: &[Token], version: i32, schema_version: i32) -> usize {
    if version >= schema_version {
        return schema_len.max(0) as usize;
    }
    let parts = split_components(body).expect("valid IR");
    parts
        .fields
        .iter()
        .filter(|t| t.signal == Signal::BeginField && t.version <= version && !t.is_constant())
        .map(|t| (t.offset + t.encoded_length).max(0) as usize)
        .max()
        .unwrap_or(0)
}

struct Writer<'a> {
    order: ByteOrder,
    version: i32,
    schema_version: i32,
    rng: &'a mut Rng,
    opts: &'a Options,
    market: Option<&'a mut Market>,
    out: Vec<u8>,
    expected: Vec<(String, Expected)>,
}

impl Writer<'_> {
    fn body(&mut self, body: &[Token], path: &str, block_len: usize) {
        let parts = split_components(body).expect("valid IR");
        let start = self.out.len();
        self.out.resize(start + block_len, 0);
        // Random filler, so that unknown trailing bytes and padding are not conveniently zero.
        for b in &mut self.out[start..] {
            *b = self.rng.next_u64() as u8;
        }
        let mut i = 0;
        while i < parts.fields.len() {
            let f = &parts.fields[i];
            let n = f.component_token_count as usize;
            let inner = &parts.fields[i + 1..i + n - 1];
            let present = f.version <= self.version;
            self.typed(
                inner,
                0,
                start + f.offset.max(0) as usize,
                &format!("{path}.{}", f.name),
                present,
                Some(f),
            );
            i += n;
        }
        let mut i = 0;
        while i < parts.groups.len() {
            let g = &parts.groups[i];
            let n = g.component_token_count as usize;
            self.group(&parts.groups[i..i + n], &format!("{path}.{}", g.name));
            i += n;
        }
        let mut i = 0;
        while i < parts.var_data.len() {
            let d = &parts.var_data[i];
            let n = d.component_token_count as usize;
            self.var_data(&parts.var_data[i..i + n], &format!("{path}.{}", d.name));
            i += n;
        }
    }

    fn group(&mut self, tokens: &[Token], path: &str) {
        let g = &tokens[0];
        if g.version > self.version {
            self.expected.push((path.to_string(), Expected::Count(0)));
            return;
        }
        let dim_n = tokens[1].component_token_count as usize;
        let dim = &tokens[1..1 + dim_n];
        let body = &tokens[1 + dim_n..tokens.len() - 1];
        let find = |n: &str| dim.iter().find(|t| t.name == n).expect("dimension field");
        let (bl, count_t) = (find("blockLength"), find("numInGroup"));
        let count_max = count_t
            .encoding
            .applicable_max_value()
            .as_u64()
            .unwrap_or(u64::MAX)
            .min(self.opts.max_group);
        let count = match &mut self.market {
            // Book and trade updates carry entries; one to a few, rarely many.
            Some(m) if count_max > 0 => 1 + m.skewed(self.rng, count_max - 1),
            _ => self.rng.below_or(count_max),
        };
        let block_len = block_length(g.encoded_length, body, self.version, self.schema_version)
            + self.opts.extra_block;
        let start = self.out.len();
        self.out
            .resize(start + tokens[1].encoded_length.max(0) as usize, 0);
        let d = &mut self.out[start..];
        put_uint(d, bl, block_len as u64, self.order);
        put_uint(d, count_t, count, self.order);
        self.expected
            .push((path.to_string(), Expected::Count(count)));
        for k in 0..count {
            self.body(body, &format!("{path}[{k}]"), block_len);
        }
    }

    fn var_data(&mut self, tokens: &[Token], path: &str) {
        let d = &tokens[0];
        if d.version > self.version {
            self.expected
                .push((path.to_string(), Expected::Data(Vec::new())));
            return;
        }
        // The encodings only: the var-data field itself may be called `length` or `varData`.
        let encoding = |name: &str| {
            tokens
                .iter()
                .find(|t| t.signal == Signal::Encoding && t.name == name)
                .expect("var-data encoding member")
        };
        let (len_t, data_t) = (encoding("length"), encoding("varData"));
        let max = len_t
            .encoding
            .applicable_max_value()
            .as_u64()
            .unwrap_or(u64::MAX)
            .min(self.opts.max_data as u64);
        let text = data_t.encoding.character_encoding.is_some();
        if let Some(m) = &mut self.market {
            let mut data = m.word(self.rng).to_vec();
            data.truncate(max as usize);
            let start = self.out.len();
            self.out.resize(start + data_t.offset.max(0) as usize, 0);
            put_uint(&mut self.out[start..], len_t, data.len() as u64, self.order);
            self.out.extend_from_slice(&data);
            self.expected.push((path.to_string(), Expected::Data(data)));
            return;
        }
        let len = self.rng.below_or(max) as usize;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                let r = self.rng.next_u64() as u8;
                if text {
                    b' ' + r % 95
                } else {
                    r
                }
            })
            .collect();
        let start = self.out.len();
        self.out.resize(start + data_t.offset.max(0) as usize, 0);
        put_uint(&mut self.out[start..], len_t, len as u64, self.order);
        self.out.extend_from_slice(&data);
        self.expected.push((path.to_string(), Expected::Data(data)));
    }

    /// Writes the type component at `tokens[i]` at absolute offset `at`.
    fn typed(
        &mut self,
        tokens: &[Token],
        i: usize,
        at: usize,
        path: &str,
        present: bool,
        field: Option<&Token>,
    ) {
        let t = &tokens[i];
        let present = present && t.version <= self.version;
        let constant = field.is_some_and(|f| f.is_constant()) || t.is_constant();
        match t.signal {
            Signal::Encoding => {
                let ty = t.encoding.primitive();
                let n = t.array_length();
                let exp = if constant {
                    let v = t
                        .encoding
                        .const_value
                        .clone()
                        .or_else(|| field.and_then(|f| f.encoding.const_value.clone()))
                        .expect("constant value");
                    match (ty, v) {
                        (PrimitiveType::Char, PrimitiveValue::Int(c)) => Expected::Char(c as u8),
                        (_, PrimitiveValue::Bytes(b)) => Expected::Chars(b),
                        (_, v) => value_expected(&v, ty),
                    }
                } else if !present {
                    let null = t.encoding.applicable_null_value();
                    if ty == PrimitiveType::Char && n > 1 {
                        Expected::Chars(vec![null.as_i64().unwrap_or(0) as u8; n])
                    } else if n > 1 {
                        Expected::Array(vec![value_expected(&null, ty); n])
                    } else {
                        value_expected(&null, ty)
                    }
                } else if ty == PrimitiveType::Char && n > 1 {
                    let b: Vec<u8> = match &mut self.market {
                        Some(m) => m.chars(self.rng, path, n),
                        None => (0..n).map(|_| self.rng.next_u64() as u8).collect(),
                    };
                    self.out[at..at + n].copy_from_slice(&b);
                    Expected::Chars(b)
                } else {
                    let mut elems = Vec::new();
                    for k in 0..n {
                        elems.push(self.random_prim(ty, at + k * ty.size(), path));
                    }
                    if n == 1 {
                        elems.pop().expect("one element")
                    } else {
                        Expected::Array(elems)
                    }
                };
                self.expected.push((path.to_string(), exp));
            }
            Signal::BeginEnum => {
                let ty = t.encoding.primitive();
                let n = t.component_token_count as usize;
                let values: Vec<(&str, i64)> = tokens[i + 1..i + n - 1]
                    .iter()
                    .map(|v| {
                        (
                            v.name.as_str(),
                            raw(v.encoding.const_value.as_ref().expect("value")),
                        )
                    })
                    .collect();
                let (raw_v, name) = if constant {
                    let text = field
                        .filter(|f| f.is_constant())
                        .unwrap_or(t)
                        .encoding
                        .const_value
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_default();
                    let want = text.rsplit('.').next().unwrap_or_default().to_string();
                    let r = values.iter().find(|v| v.0 == want).expect("valueRef").1;
                    (r, Some(want))
                } else if !present {
                    let r = raw(&t.encoding.applicable_null_value());
                    (r, values.iter().find(|v| v.1 == r).map(|v| v.0.to_string()))
                } else {
                    let pick = match &mut self.market {
                        // A few values dominate, and every value is a listed one.
                        Some(m) if !values.is_empty() => {
                            m.skewed(self.rng, values.len() as u64 - 1) as usize
                        }
                        _ => self.rng.below_or(values.len() as u64 + 1) as usize,
                    };
                    let r = match values.get(pick) {
                        Some(v) => v.1,
                        // Now and then a value the schema does not list.
                        None => self.rng.next_u64() as i64 & mask(ty),
                    };
                    let r = sign_extend(r, ty);
                    let b = int_bytes(i128::from(r), ty.size(), self.order);
                    self.out[at..at + ty.size()].copy_from_slice(&b);
                    (r, values.iter().find(|v| v.1 == r).map(|v| v.0.to_string()))
                };
                self.expected
                    .push((path.to_string(), Expected::Enum(raw_v, name)));
            }
            Signal::BeginSet => {
                let ty = t.encoding.primitive();
                let bits = if present {
                    let r = match &mut self.market {
                        // Mostly no flag, now and then one.
                        Some(m) => m.flags(self.rng, ty.size() * 8),
                        None => self.rng.next_u64(),
                    } & (mask(ty) as u64);
                    let b = int_bytes(i128::from(r), ty.size(), self.order);
                    self.out[at..at + ty.size()].copy_from_slice(&b);
                    r
                } else {
                    0
                };
                self.expected.push((path.to_string(), Expected::Set(bits)));
            }
            Signal::BeginComposite => {
                let end = i + t.component_token_count as usize - 1;
                let mut j = i + 1;
                while j < end {
                    let m = &tokens[j];
                    let sub = format!("{path}.{}", m.name);
                    self.typed(
                        tokens,
                        j,
                        at + m.offset.max(0) as usize,
                        &sub,
                        present,
                        None,
                    );
                    j += m.component_token_count as usize;
                }
            }
            other => panic!("unexpected {other:?} in a field"),
        }
    }

    fn random_prim(&mut self, ty: PrimitiveType, at: usize, path: &str) -> Expected {
        let size = ty.size();
        let r = match &mut self.market {
            Some(m) => m.number(self.rng, path, ty),
            None => self.rng.next_u64(),
        };
        let (bytes, exp) = match ty {
            PrimitiveType::Float => {
                let f = f32::from_bits(r as u32);
                let b = if self.order == ByteOrder::BigEndian {
                    f.to_be_bytes()
                } else {
                    f.to_le_bytes()
                };
                (b.to_vec(), Expected::Float(f64::from(f).to_bits()))
            }
            PrimitiveType::Double => {
                let f = f64::from_bits(r);
                let b = if self.order == ByteOrder::BigEndian {
                    f.to_be_bytes()
                } else {
                    f.to_le_bytes()
                };
                (b.to_vec(), Expected::Float(f.to_bits()))
            }
            PrimitiveType::Char => (vec![r as u8], Expected::Char(r as u8)),
            _ => {
                let v = i128::from(sign_extend(r as i64 & mask(ty), ty));
                let v = if ty.is_unsigned_int() {
                    i128::from(r & mask(ty) as u64)
                } else {
                    v
                };
                (int_bytes(v, size, self.order), Expected::Int(v))
            }
        };
        self.out[at..at + size].copy_from_slice(&bytes);
        exp
    }
}

fn value_expected(v: &PrimitiveValue, ty: PrimitiveType) -> Expected {
    match ty {
        PrimitiveType::Float => {
            Expected::Float(f64::from(v.as_f64().unwrap_or(0.0) as f32).to_bits())
        }
        PrimitiveType::Double => Expected::Float(v.as_f64().unwrap_or(0.0).to_bits()),
        PrimitiveType::Char => Expected::Char(v.as_i64().unwrap_or(0) as u8),
        _ => Expected::Int(v.as_i128().unwrap_or(0)),
    }
}

/// Raw enum value as the decoder reports it (unsigned values reinterpreted as `i64`).
fn raw(v: &PrimitiveValue) -> i64 {
    match v {
        PrimitiveValue::UInt(u) => *u as i64,
        other => other.as_i64().unwrap_or(0),
    }
}

fn mask(ty: PrimitiveType) -> i64 {
    match ty.size() {
        8 => -1,
        n => (1i64 << (8 * n)) - 1,
    }
}

fn sign_extend(v: i64, ty: PrimitiveType) -> i64 {
    if !ty.is_signed_int() || ty.size() == 8 {
        return v;
    }
    let shift = 64 - 8 * ty.size() as u32;
    (v << shift) >> shift
}

/// The state behind [`market_message`]: a small universe of instruments whose prices walk on a
/// tick grid, so that messages repeat their symbols, codes and price levels as a real feed's
/// do (Parquet's dictionaries and compression see realistic data, not noise).
///
/// Values are chosen by the field's name (the last segment of its path, case-insensitive):
/// `SecurityID` is the instrument's id; a price (`...Px`, `...Price`, or a composite's
/// `mantissa`) is the instrument's price in ticks of 0.25 at the mantissa's 10^-9 scale, one
/// tick lower per group entry (book levels); `RptSeq`/`...SeqNum` count up per instrument;
/// `...Time` is a clock in nanoseconds; sizes (`...Qty`, `...Size`, `Volume`, `...Orders`)
/// come from a skewed distribution (mostly 1 to 10, rarely hundreds); `PriceLevel` is the entry
/// number plus one; other integers are small and skewed. Text is the instrument's symbol,
/// group or asset, or a word from a short list; enums pick a few listed values mostly, never an
/// unlisted one; sets hold no flag or one. Deterministic: the state depends only on the seed
/// of the [`Rng`] given to [`Market::new`] and the messages made.
#[derive(Debug, Clone)]
pub struct Market {
    instruments: Vec<Instrument>,
    current: usize,
    clock: u64,
}

#[derive(Debug, Clone)]
struct Instrument {
    id: u64,
    symbol: Vec<u8>,
    group: Vec<u8>,
    asset: Vec<u8>,
    /// The price in ticks.
    ticks: i64,
    seq: u64,
}

/// A price tick at the 10^-9 scale CME's `PRICE9` mantissa uses (0.25).
const TICK: i64 = 250_000_000;

/// Words for text fields that are neither symbols, groups nor assets.
const WORDS: [&[u8]; 8] = [b"CME", b"XCME", b"GLOBEX", b"USD", b"F", b"A", b"", b"OPEN"];

impl Market {
    /// `instruments` instruments (at least one) with deterministic names and starting prices.
    pub fn new(instruments: usize, rng: &mut Rng) -> Self {
        const ROOTS: [&[u8]; 6] = [b"ES", b"NQ", b"CL", b"GC", b"ZN", b"6E"];
        const MONTHS: &[u8] = b"FGHJKMNQUVXZ";
        let instruments = (0..instruments.max(1))
            .map(|k| {
                let root = ROOTS[k % ROOTS.len()];
                let month = MONTHS[(k / ROOTS.len()) % MONTHS.len()];
                let year = b'0' + ((k / (ROOTS.len() * MONTHS.len())) % 10) as u8;
                let mut symbol = root.to_vec();
                symbol.extend_from_slice(&[month, year]);
                Instrument {
                    id: 10_000 + k as u64 * 7,
                    symbol,
                    group: root.to_vec(),
                    asset: root.to_vec(),
                    ticks: 4_000 + rng.below_or(16_000) as i64,
                    seq: 1,
                }
            })
            .collect();
        Market {
            instruments,
            current: 0,
            clock: 1_767_312_000_000_000_000,
        }
    }

    /// Picks the next message's instrument (a few instruments get most messages) and moves
    /// its price by at most one tick and the clock forward.
    fn next_message(&mut self, rng: &mut Rng) {
        let n = self.instruments.len() as u64;
        self.current = self.skewed(rng, n - 1) as usize;
        self.clock += 500 + rng.below_or(20_000);
        let ins = &mut self.instruments[self.current];
        match rng.below_or(3) {
            0 => ins.ticks = (ins.ticks - 1).max(1),
            1 => ins.ticks += 1,
            _ => {}
        }
    }

    /// A number in `0..=max`, small ones far more often (the cube of a uniform draw).
    fn skewed(&mut self, rng: &mut Rng, max: u64) -> u64 {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * u) * (max as f64 + 1.0)).min(max as f64) as u64
    }

    /// No flag (three times in four) or one of `bits`.
    fn flags(&mut self, rng: &mut Rng, bits: usize) -> u64 {
        match rng.below_or(3) {
            0 => 1 << rng.below_or(bits.clamp(1, 64) as u64 - 1),
            _ => 0,
        }
    }

    fn word(&mut self, rng: &mut Rng) -> &'static [u8] {
        WORDS[self.skewed(rng, WORDS.len() as u64 - 1) as usize]
    }

    /// `n` characters for the field at `path`, NUL-padded.
    fn chars(&mut self, rng: &mut Rng, path: &str, n: usize) -> Vec<u8> {
        let name = leaf(path);
        let ins = &self.instruments[self.current];
        let mut b = if name.contains("symbol") {
            ins.symbol.clone()
        } else if name.contains("group") {
            ins.group.clone()
        } else if name.contains("asset") {
            ins.asset.clone()
        } else {
            self.word(rng).to_vec()
        };
        b.resize(n, 0);
        b
    }

    /// The raw bits of a number for the field at `path` of type `ty` (see the type's docs).
    fn number(&mut self, rng: &mut Rng, path: &str, ty: PrimitiveType) -> u64 {
        let name = leaf(path);
        let entry = entry_index(path);
        let ins = &mut self.instruments[self.current];
        let price = (ins.ticks - entry as i64).max(1);
        match ty {
            PrimitiveType::Float => return ((price as f32) * 0.25).to_bits().into(),
            PrimitiveType::Double => return ((price as f64) * 0.25).to_bits(),
            PrimitiveType::Char => return u64::from(b'0' + rng.below_or(2) as u8),
            _ => {}
        }
        let v: i64 = if name.contains("securityid") {
            ins.id as i64
        } else if name == "mantissa" || name.ends_with("px") || name.contains("price") {
            if name.contains("level") {
                entry as i64 + 1
            } else {
                price.saturating_mul(TICK)
            }
        } else if name.contains("rptseq") || name.contains("seqnum") {
            ins.seq += 1;
            ins.seq as i64
        } else if name.contains("time") {
            self.clock as i64
        } else if name.contains("orderid") {
            (self.clock / 1_000) as i64
        } else if name.contains("qty")
            || name.contains("size")
            || name.contains("volume")
            || name.contains("orders")
        {
            1 + self.skewed(rng, 499) as i64
        } else {
            self.skewed(rng, 15) as i64
        };
        v as u64
    }
}

/// The field's name in lower case: the path's last segment without its entry index (a
/// composite's member is named by itself: `Msg.MDEntryPx.mantissa` -> `mantissa`).
fn leaf(path: &str) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    let last = last.split('[').next().unwrap_or(last);
    last.to_ascii_lowercase()
}

/// The index of the innermost group entry in `path` (`Msg.NoMDEntries[2].MDEntryPx` -> 2).
fn entry_index(path: &str) -> u64 {
    path.rsplit_once('[')
        .and_then(|(_, rest)| rest.split(']').next())
        .and_then(|k| k.parse().ok())
        .unwrap_or(0)
}
