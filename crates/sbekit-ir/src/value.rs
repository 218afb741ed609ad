//! Constant, min, max and null values carried by encodings.

use crate::PrimitiveType;
use serde::Serialize;
use std::fmt;

/// A value from the schema: a constant, a limit, a null value, an enum value or a choice bit.
///
/// Which variant a value takes follows its primitive type, so that values compiled from XML and
/// values read from `.sbeir` compare equal: signed integers and single characters are `Int`,
/// unsigned integers are `UInt`, `float`/`double` are `Float` (a `float` holds an exactly
/// representable `f32`), and character arrays or `valueRef` strings are `Bytes`.
#[derive(Debug, Clone, Serialize)]
pub enum PrimitiveValue {
    /// Signed integer or single character.
    Int(i64),
    /// Unsigned integer.
    UInt(u64),
    /// Floating point.
    Float(f64),
    /// Character array, string constant or `valueRef` text.
    Bytes(Vec<u8>),
}

impl PartialEq for PrimitiveValue {
    fn eq(&self, other: &Self) -> bool {
        use PrimitiveValue::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (UInt(a), UInt(b)) => a == b,
            // Bitwise, so that NaN null values compare equal to themselves.
            (Float(a), Float(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            (Bytes(a), Bytes(b)) => a == b,
            _ => false,
        }
    }
}

impl PrimitiveValue {
    /// Parses a value written in a schema for a field of type `ty`.
    ///
    /// Characters take the text's first byte (a `char` constant longer than one byte becomes a
    /// byte array, as for fixed-length character arrays). Returns `None` when the text is not a
    /// number of that type or is out of its range.
    pub fn parse(text: &str, ty: PrimitiveType) -> Option<PrimitiveValue> {
        let t = text.trim();
        match ty {
            PrimitiveType::Char => {
                let bytes = text.as_bytes();
                if bytes.len() == 1 {
                    Some(PrimitiveValue::Int(i64::from(bytes[0])))
                } else {
                    Some(PrimitiveValue::Bytes(bytes.to_vec()))
                }
            }
            PrimitiveType::Int8 => t.parse::<i8>().ok().map(|v| Self::Int(v.into())),
            PrimitiveType::Int16 => t.parse::<i16>().ok().map(|v| Self::Int(v.into())),
            PrimitiveType::Int32 => t.parse::<i32>().ok().map(|v| Self::Int(v.into())),
            PrimitiveType::Int64 => t.parse::<i64>().ok().map(Self::Int),
            PrimitiveType::Uint8 => t.parse::<u8>().ok().map(|v| Self::UInt(v.into())),
            PrimitiveType::Uint16 => t.parse::<u16>().ok().map(|v| Self::UInt(v.into())),
            PrimitiveType::Uint32 => t.parse::<u32>().ok().map(|v| Self::UInt(v.into())),
            PrimitiveType::Uint64 => t.parse::<u64>().ok().map(Self::UInt),
            PrimitiveType::Float => parse_float(t)
                .map(|v| v as f32)
                .filter(|v| !v.is_infinite() || t.to_ascii_lowercase().contains("inf"))
                .map(|v| Self::Float(f64::from(v))),
            PrimitiveType::Double => parse_float(t).map(Self::Float),
            PrimitiveType::None => None,
        }
    }

    /// The value as a signed 64-bit integer, if it is an integer (or a single character).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Self::Int(v) => Some(v),
            Self::UInt(v) => i64::try_from(v).ok(),
            Self::Bytes(ref b) if b.len() == 1 => Some(i64::from(b[0])),
            _ => None,
        }
    }

    /// The value as an unsigned 64-bit integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Self::Int(v) => u64::try_from(v).ok(),
            Self::UInt(v) => Some(v),
            Self::Bytes(ref b) if b.len() == 1 => Some(u64::from(b[0])),
            _ => None,
        }
    }

    /// The value as a 128-bit integer, able to hold every signed and unsigned 64-bit value.
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            Self::Int(v) => Some(v.into()),
            Self::UInt(v) => Some(v.into()),
            Self::Bytes(ref b) if b.len() == 1 => Some(b[0].into()),
            _ => None,
        }
    }

    /// The value as a float (integers convert, possibly inexactly).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Self::Int(v) => Some(v as f64),
            Self::UInt(v) => Some(v as f64),
            Self::Float(v) => Some(v),
            Self::Bytes(_) => None,
        }
    }

    /// The value's bytes as the wire would carry them for type `ty`, little endian.
    ///
    /// This is how `.sbeir` stores values. `Bytes` are written as they are.
    pub fn to_le_bytes(&self, ty: PrimitiveType) -> Vec<u8> {
        if let Self::Bytes(b) = self {
            return b.clone();
        }
        let int = self.as_i128().unwrap_or(0);
        match ty {
            PrimitiveType::None => Vec::new(),
            PrimitiveType::Char | PrimitiveType::Int8 | PrimitiveType::Uint8 => {
                vec![int as u8]
            }
            PrimitiveType::Int16 | PrimitiveType::Uint16 => (int as u16).to_le_bytes().to_vec(),
            PrimitiveType::Int32 | PrimitiveType::Uint32 => (int as u32).to_le_bytes().to_vec(),
            PrimitiveType::Int64 | PrimitiveType::Uint64 => (int as u64).to_le_bytes().to_vec(),
            PrimitiveType::Float => (self.as_f64().unwrap_or(0.0) as f32).to_le_bytes().to_vec(),
            PrimitiveType::Double => self.as_f64().unwrap_or(0.0).to_le_bytes().to_vec(),
        }
    }

    /// Reads a value stored as [`to_le_bytes`](Self::to_le_bytes) for type `ty`.
    ///
    /// Returns `None` for an empty slice (no value). A slice whose length is not the type's size
    /// (a character array or `valueRef` text) becomes `Bytes`.
    pub fn from_le_bytes(bytes: &[u8], ty: PrimitiveType) -> Option<PrimitiveValue> {
        if bytes.is_empty() {
            return None;
        }
        if bytes.len() != ty.size() {
            return Some(Self::Bytes(bytes.to_vec()));
        }
        let mut buf = [0u8; 8];
        buf[..bytes.len()].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(buf);
        Some(match ty {
            PrimitiveType::Char => Self::Int(raw as i64),
            PrimitiveType::Int8 => Self::Int(i64::from(raw as u8 as i8)),
            PrimitiveType::Int16 => Self::Int(i64::from(raw as u16 as i16)),
            PrimitiveType::Int32 => Self::Int(i64::from(raw as u32 as i32)),
            PrimitiveType::Int64 => Self::Int(raw as i64),
            PrimitiveType::Uint8 | PrimitiveType::Uint16 | PrimitiveType::Uint32 => Self::UInt(raw),
            PrimitiveType::Uint64 => Self::UInt(raw),
            PrimitiveType::Float => Self::Float(f64::from(f32::from_bits(raw as u32))),
            PrimitiveType::Double => Self::Float(f64::from_bits(raw)),
            PrimitiveType::None => Self::Bytes(bytes.to_vec()),
        })
    }
}

impl fmt::Display for PrimitiveValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(v) => write!(f, "{v}"),
            Self::UInt(v) => write!(f, "{v}"),
            Self::Float(v) => write!(f, "{v}"),
            Self::Bytes(b) => write!(f, "{}", String::from_utf8_lossy(b)),
        }
    }
}

/// Parses decimal floats plus the spellings of special values schemas use.
fn parse_float(t: &str) -> Option<f64> {
    match t {
        "NaN" | "nan" => Some(f64::NAN),
        "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => t.parse::<f64>().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_respects_type_ranges() {
        assert_eq!(
            PrimitiveValue::parse("255", PrimitiveType::Uint8),
            Some(PrimitiveValue::UInt(255))
        );
        assert_eq!(PrimitiveValue::parse("256", PrimitiveType::Uint8), None);
        assert_eq!(
            PrimitiveValue::parse(" -3\n", PrimitiveType::Int8),
            Some(PrimitiveValue::Int(-3))
        );
        assert_eq!(PrimitiveValue::parse("-1", PrimitiveType::Uint32), None);
        assert_eq!(
            PrimitiveValue::parse("A", PrimitiveType::Char),
            Some(PrimitiveValue::Int(65))
        );
        assert_eq!(PrimitiveValue::parse("1e39", PrimitiveType::Float), None);
    }

    #[test]
    fn bytes_round_trip_for_every_type() {
        for ty in PrimitiveType::ALL {
            let v = ty.default_max();
            let v = PrimitiveValue::from_le_bytes(&v.to_le_bytes(ty), ty).unwrap();
            let again = PrimitiveValue::from_le_bytes(&v.to_le_bytes(ty), ty).unwrap();
            assert_eq!(v, again, "{ty:?}");
        }
        let nan = PrimitiveValue::Float(f64::NAN);
        assert_eq!(
            PrimitiveValue::from_le_bytes(
                &nan.to_le_bytes(PrimitiveType::Double),
                PrimitiveType::Double
            ),
            Some(nan)
        );
    }
}
