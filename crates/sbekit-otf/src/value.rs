//! Decoded values, borrowed from the message buffer (or from the plan for constants and nulls).

use sbekit_ir::wire::Order;
use sbekit_ir::{ByteOrder, PrimitiveType};

/// Where a field's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Read from the message bytes.
    Wire,
    /// A constant from the schema (`presence="constant"` or a `valueRef`); not on the wire.
    Constant,
    /// The field is newer than the message's acting version (`sinceVersion` above it), so it is
    /// absent and the value given is the field's null value, as the reference decoder reports it.
    Absent,
}

/// One decoded field value.
///
/// Nothing here owns memory: byte slices borrow from the message buffer, or from the decoder's
/// plan for constants and for the null values of absent fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// A signed integer (`int8` .. `int64`).
    Int(i64),
    /// An unsigned integer (`uint8` .. `uint64`).
    UInt(u64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// A single `char`.
    Char(u8),
    /// A fixed-length `char` array (all its bytes, including trailing NUL padding), or a
    /// character constant.
    Chars(&'a [u8]),
    /// A fixed-length array of a numeric type.
    Array(Array<'a>),
    /// An enum value.
    Enum(EnumValue<'a>),
    /// A bit set.
    Set(SetValue<'a>),
}

/// A fixed-length array of numbers, read lazily from its encoded bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Array<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) ty: PrimitiveType,
    pub(crate) order: ByteOrder,
}

impl<'a> Array<'a> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len().checked_div(self.ty.size()).unwrap_or(0)
    }

    /// True if the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    pub fn primitive_type(&self) -> PrimitiveType {
        self.ty
    }

    /// The encoded bytes (in the schema's byte order).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Element `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        let size = self.ty.size();
        let start = i.checked_mul(size)?;
        let chunk = self.bytes.get(start..start.checked_add(size)?)?;
        read_scalar(chunk, self.ty, self.order)
    }

    /// Iterates over the elements.
    pub fn iter(&self) -> impl Iterator<Item = Value<'a>> + 'a {
        let (ty, order) = (self.ty, self.order);
        self.bytes
            .chunks_exact(ty.size().max(1))
            .filter_map(move |c| read_scalar(c, ty, order))
    }
}

/// An enum value: the raw encoded value and the name of the matching valid value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnumValue<'a> {
    /// The raw value (characters and unsigned values zero-extended, signed values sign-extended).
    pub raw: i64,
    /// The valid value's name, or `None` if the raw value matches none (e.g. the null value).
    pub name: Option<&'a str>,
}

/// A bit set value and the schema's choices, to test each one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetValue<'a> {
    /// The raw encoded bits.
    pub raw: u64,
    pub(crate) choices: &'a [Choice],
}

impl<'a> SetValue<'a> {
    /// Each choice's name and whether its bit is set, in schema order.
    pub fn choices(&self) -> impl Iterator<Item = (&'a str, bool)> + 'a {
        let raw = self.raw;
        self.choices
            .iter()
            .map(move |c| (c.name.as_str(), c.bit < 64 && raw & (1u64 << c.bit) != 0))
    }

    /// True if the named choice is set (false for unknown names).
    pub fn is_set(&self, name: &str) -> bool {
        self.choices().any(|(n, on)| on && n == name)
    }
}

/// How to read one primitive from the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Read {
    Char,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Read {
    pub(crate) fn of(ty: PrimitiveType) -> Option<Read> {
        Some(match ty {
            PrimitiveType::Char => Read::Char,
            PrimitiveType::Int8 => Read::I8,
            PrimitiveType::Uint8 => Read::U8,
            PrimitiveType::Int16 => Read::I16,
            PrimitiveType::Uint16 => Read::U16,
            PrimitiveType::Int32 => Read::I32,
            PrimitiveType::Uint32 => Read::U32,
            PrimitiveType::Int64 => Read::I64,
            PrimitiveType::Uint64 => Read::U64,
            PrimitiveType::Float => Read::F32,
            PrimitiveType::Double => Read::F64,
            PrimitiveType::None => return None,
        })
    }
}

/// One choice of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Choice name.
    pub name: String,
    /// Bit position.
    pub bit: u32,
}

/// Reads one primitive of type `ty` from exactly `bytes` (whose length must be the type's size).
#[inline]
pub(crate) fn read_scalar(bytes: &[u8], ty: PrimitiveType, order: ByteOrder) -> Option<Value<'_>> {
    Some(match ty {
        PrimitiveType::Char => Value::Char(*bytes.first()?),
        PrimitiveType::Int8 => Value::Int(i64::from(i8::from_ne_bytes(arr(bytes)?))),
        PrimitiveType::Uint8 => Value::UInt(u64::from(*bytes.first()?)),
        PrimitiveType::Int16 => Value::Int(i64::from(int16(bytes, order)?)),
        PrimitiveType::Uint16 => Value::UInt(u64::from(uint16(bytes, order)?)),
        PrimitiveType::Int32 => Value::Int(i64::from(uint32(bytes, order)? as i32)),
        PrimitiveType::Uint32 => Value::UInt(u64::from(uint32(bytes, order)?)),
        PrimitiveType::Int64 => Value::Int(uint64(bytes, order)? as i64),
        PrimitiveType::Uint64 => Value::UInt(uint64(bytes, order)?),
        PrimitiveType::Float => Value::Float(f32::from_bits(uint32(bytes, order)?)),
        PrimitiveType::Double => Value::Double(f64::from_bits(uint64(bytes, order)?)),
        PrimitiveType::None => return None,
    })
}

fn arr<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    b.get(..N)?.try_into().ok()
}

fn int16(b: &[u8], o: ByteOrder) -> Option<i16> {
    uint16(b, o).map(|v| v as i16)
}

fn uint16(b: &[u8], o: ByteOrder) -> Option<u16> {
    let a = arr(b)?;
    Some(match o {
        ByteOrder::LittleEndian => u16::from_le_bytes(a),
        ByteOrder::BigEndian => u16::from_be_bytes(a),
    })
}

fn uint32(b: &[u8], o: ByteOrder) -> Option<u32> {
    let a = arr(b)?;
    Some(match o {
        ByteOrder::LittleEndian => u32::from_le_bytes(a),
        ByteOrder::BigEndian => u32::from_be_bytes(a),
    })
}

fn uint64(b: &[u8], o: ByteOrder) -> Option<u64> {
    let a = arr(b)?;
    Some(match o {
        ByteOrder::LittleEndian => u64::from_le_bytes(a),
        ByteOrder::BigEndian => u64::from_be_bytes(a),
    })
}

/// The first `N` bytes of `b` (zeros if it is shorter, which the plan rules out).
#[inline(always)]
fn chunk<const N: usize>(b: &[u8]) -> [u8; N] {
    b.first_chunk::<N>().copied().unwrap_or([0; N])
}

/// Reads a scalar of kind `r` from the start of `b`.
#[inline(always)]
pub(crate) fn read_fast<O: Order>(r: Read, b: &[u8]) -> Value<'_> {
    match r {
        Read::Char => Value::Char(chunk::<1>(b)[0]),
        Read::U8 => Value::UInt(u64::from(chunk::<1>(b)[0])),
        Read::I8 => Value::Int(i64::from(chunk::<1>(b)[0] as i8)),
        Read::U16 => Value::UInt(u64::from(O::u16(chunk(b)))),
        Read::I16 => Value::Int(i64::from(O::u16(chunk(b)) as i16)),
        Read::U32 => Value::UInt(u64::from(O::u32(chunk(b)))),
        Read::I32 => Value::Int(i64::from(O::u32(chunk(b)) as i32)),
        Read::U64 => Value::UInt(O::u64(chunk(b))),
        Read::I64 => Value::Int(O::u64(chunk(b)) as i64),
        Read::F32 => Value::Float(f32::from_bits(O::u32(chunk(b)))),
        Read::F64 => Value::Double(f64::from_bits(O::u64(chunk(b)))),
    }
}

/// Reads an integer of kind `r` as raw bits (signed values sign-extended), for enums and sets.
#[inline(always)]
pub(crate) fn read_raw<O: Order>(r: Read, b: &[u8]) -> u64 {
    match read_fast::<O>(r, b) {
        Value::Int(v) => v as u64,
        Value::UInt(v) => v,
        Value::Char(c) => u64::from(c),
        Value::Float(f) => u64::from(f.to_bits()),
        Value::Double(d) => d.to_bits(),
        _ => 0,
    }
}
