//! Primitive values as source code writes them, before each language's spelling: the digits of
//! an integer, and a float's shortest round-trip digits or which special value it is.

use sbekit_ir::layout::wire_bits;
use sbekit_ir::{PrimitiveType as P, PrimitiveValue};

/// The decimal digits of an integer value of type `ty`: its wire bits read as `ty` (signed
/// types signed), a `char` as its code.
pub fn int_digits(v: &PrimitiveValue, ty: P) -> String {
    let bits = wire_bits(v, ty);
    match ty {
        P::Int8 => (bits as u8 as i8).to_string(),
        P::Int16 => (bits as u16 as i16).to_string(),
        P::Int32 => (bits as u32 as i32).to_string(),
        P::Int64 => (bits as i64).to_string(),
        _ => bits.to_string(),
    }
}

/// A float as source code writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum FloatLiteral {
    /// A finite value: the shortest digits that read back as the same value, with a `.` or an
    /// exponent (`35.9`, `1.0`, `1e-7`, `-0.0`).
    Finite(String),
    /// Not a number.
    Nan,
    /// Positive infinity.
    Infinity,
    /// Negative infinity.
    NegInfinity,
}

impl FloatLiteral {
    /// `x` as a literal: its digits as a `float` (the shortest that read back as the same
    /// `f32`) if `single`, else as a `double`.
    pub fn of(x: f64, single: bool) -> FloatLiteral {
        if x.is_nan() {
            FloatLiteral::Nan
        } else if x.is_infinite() {
            match x > 0.0 {
                true => FloatLiteral::Infinity,
                false => FloatLiteral::NegInfinity,
            }
        } else {
            let mut t = match single {
                true => format!("{:?}", x as f32),
                false => format!("{x:?}"),
            };
            if !t.contains(['.', 'e', 'E']) {
                t.push_str(".0");
            }
            FloatLiteral::Finite(t)
        }
    }

    /// The value `v` of float type `ty` (`float` or `double`) as a literal of that type.
    pub fn value(v: &PrimitiveValue, ty: P) -> FloatLiteral {
        let x = v.as_f64().unwrap_or(f64::NAN);
        match ty {
            P::Float => FloatLiteral::of(f64::from(x as f32), true),
            _ => FloatLiteral::of(x, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_their_wire_bits_read_as_the_type() {
        assert_eq!(int_digits(&PrimitiveValue::Int(-1), P::Int8), "-1");
        assert_eq!(int_digits(&PrimitiveValue::UInt(255), P::Uint8), "255");
        assert_eq!(
            int_digits(&PrimitiveValue::Int(i64::MIN), P::Int64),
            i64::MIN.to_string()
        );
        assert_eq!(
            int_digits(&PrimitiveValue::UInt(u64::MAX), P::Uint64),
            u64::MAX.to_string()
        );
    }

    #[test]
    fn floats_keep_their_shortest_digits_and_name_special_values() {
        assert_eq!(
            FloatLiteral::of(0.1, true),
            FloatLiteral::Finite("0.1".into())
        );
        assert_eq!(
            FloatLiteral::of(f64::from(0.1f32), false),
            FloatLiteral::Finite("0.10000000149011612".into())
        );
        assert_eq!(
            FloatLiteral::of(3.0, false),
            FloatLiteral::Finite("3.0".into())
        );
        assert_eq!(FloatLiteral::of(f64::NAN, false), FloatLiteral::Nan);
        assert_eq!(
            FloatLiteral::of(f64::NEG_INFINITY, true),
            FloatLiteral::NegInfinity
        );
        let v = PrimitiveValue::Float(35.9);
        assert_eq!(
            FloatLiteral::value(&v, P::Float),
            FloatLiteral::Finite("35.9".into())
        );
    }
}
