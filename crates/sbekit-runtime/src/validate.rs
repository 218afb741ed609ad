//! Checks of owned values (`CarOwned::validate`) against the schema: what a flyweight encoder
//! would write without complaint but a reader should not see.

use core::fmt;

/// Why an owned value breaks its schema's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// A number outside the field's valid range (`minValue`..`maxValue`, or the type's range
    /// without its null value).
    OutOfRange,
    /// An enum value the schema does not list.
    UnknownEnumValue,
    /// More group entries than the group's count field can hold.
    TooManyEntries {
        /// The entries held.
        count: usize,
        /// The largest count allowed.
        maximum: u64,
    },
    /// Var data longer than its length field allows.
    TooLong {
        /// The data's length.
        length: usize,
        /// The largest length allowed.
        maximum: u64,
    },
}

/// A rule an owned value breaks, and where (`Car.fuelFigures.speed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidationError {
    /// The schema path of the field, group or var data.
    pub path: &'static str,
    /// The rule.
    pub kind: ValidationErrorKind,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path;
        match self.kind {
            ValidationErrorKind::OutOfRange => write!(f, "{p}: value outside its valid range"),
            ValidationErrorKind::UnknownEnumValue => {
                write!(f, "{p}: a value the enum does not list")
            }
            ValidationErrorKind::TooManyEntries { count, maximum } => {
                write!(f, "{p}: {count} entries, more than the {maximum} allowed")
            }
            ValidationErrorKind::TooLong { length, maximum } => {
                write!(f, "{p}: {length} bytes, more than the {maximum} allowed")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ValidationError {}

fn fail(path: &'static str, kind: ValidationErrorKind) -> Result<(), ValidationError> {
    Err(ValidationError { path, kind })
}

/// `Ok` when `min <= v <= max` (a NaN is never in range).
#[inline]
pub fn check_range<T: PartialOrd>(
    v: T,
    min: T,
    max: T,
    path: &'static str,
) -> Result<(), ValidationError> {
    if v >= min && v <= max {
        Ok(())
    } else {
        fail(path, ValidationErrorKind::OutOfRange)
    }
}

/// `Ok` unless a held value is its field's null value (`is_null`), which reads back as no value.
#[inline]
pub fn check_not_null(is_null: bool, path: &'static str) -> Result<(), ValidationError> {
    if is_null {
        fail(path, ValidationErrorKind::OutOfRange)
    } else {
        Ok(())
    }
}

/// `Ok` when an enum value is one the schema lists.
#[inline]
pub fn check_known(known: bool, path: &'static str) -> Result<(), ValidationError> {
    if known {
        Ok(())
    } else {
        fail(path, ValidationErrorKind::UnknownEnumValue)
    }
}

/// `Ok` when a group of `count` entries fits its count field.
#[inline]
pub fn check_count(count: usize, maximum: u64, path: &'static str) -> Result<(), ValidationError> {
    if u64::try_from(count).is_ok_and(|c| c <= maximum) {
        Ok(())
    } else {
        fail(path, ValidationErrorKind::TooManyEntries { count, maximum })
    }
}

/// `Ok` when var data of `length` bytes fits its length field.
#[inline]
pub fn check_length(
    length: usize,
    maximum: u64,
    path: &'static str,
) -> Result<(), ValidationError> {
    if u64::try_from(length).is_ok_and(|l| l <= maximum) {
        Ok(())
    } else {
        fail(path, ValidationErrorKind::TooLong { length, maximum })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_check_refuses_what_breaks_its_rule() {
        assert!(check_range(5_u8, 0, 254, "a").is_ok());
        assert_eq!(
            check_range(255_u8, 0, 254, "a"),
            Err(ValidationError {
                path: "a",
                kind: ValidationErrorKind::OutOfRange
            })
        );
        assert!(check_range(f32::NAN, f32::MIN, f32::MAX, "f").is_err());
        assert!(check_known(false, "e").is_err());
        assert!(check_count(65_535, 65_535, "g").is_ok());
        assert!(check_count(65_536, 65_535, "g").is_err());
        assert!(check_length(256, 255, "v").is_err());
    }
}
