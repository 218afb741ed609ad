//! How the wire bytes of a text field become a string: the one rule every sbekit path follows
//! (the JSON printer, Arrow and Parquet, the CLI, Python).
//!
//! Text that is valid in the field's declared character encoding is kept. Anything else is read
//! one byte per code point (Latin-1, U+0000..U+00FF), so no byte is lost and the bytes can be
//! written back exactly; such a value is a *fallback*, and the paths count them (the CLI prints
//! `N text values were not valid UTF-8 and were read as Latin-1`).
//!
//! | declared `characterEncoding` | valid | fallback (counted) |
//! | --- | --- | --- |
//! | `UTF-8` (`UTF8`) | valid UTF-8 | anything else, e.g. a value cut inside a multi-byte sequence |
//! | `ISO-8859-1` (`Latin-1`, `Latin1`) | every byte | never |
//! | `US-ASCII`, `ASCII` and any other encoding | bytes below 0x80 | a byte of 0x80 or above |
//! | none (var data of raw bytes) | every byte, one code point each | never |
//!
//! Encodings other than UTF-8, ASCII and Latin-1 (`GB18030`, ...) are not decoded: their ASCII
//! text is kept, and any other byte counts as a fallback.

use std::borrow::Cow;

/// A field's declared character encoding, as far as the rule needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `UTF-8`: valid UTF-8 is kept.
    Utf8,
    /// `ISO-8859-1`, or no encoding (raw bytes): every byte is its own code point.
    Latin1,
    /// `US-ASCII` and encodings sbekit does not decode: bytes below 0x80 are kept.
    Ascii,
}

impl Encoding {
    /// The rule for a field declaring `declared` (`None`: raw bytes, read one byte per code
    /// point). Names are compared without regard to case.
    pub fn of(declared: Option<&str>) -> Encoding {
        let Some(name) = declared else {
            return Encoding::Latin1;
        };
        let name = name.trim();
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is("UTF-8") || is("UTF8") {
            Encoding::Utf8
        } else if is("ISO-8859-1")
            || is("ISO8859-1")
            || is("ISO_8859_1")
            || is("Latin-1")
            || is("Latin1")
        {
            Encoding::Latin1
        } else {
            Encoding::Ascii
        }
    }

    /// True when `bytes` are valid text in this encoding (kept as they are).
    pub fn is_valid(self, bytes: &[u8]) -> bool {
        match self {
            Encoding::Latin1 => true,
            Encoding::Ascii => bytes.is_ascii(),
            Encoding::Utf8 => bytes.is_ascii() || std::str::from_utf8(bytes).is_ok(),
        }
    }

    /// True when `bytes` are valid in this encoding and already the string's UTF-8 (kept
    /// without mapping: a columnar builder can use them as they are).
    pub fn kept_as_is(self, bytes: &[u8]) -> bool {
        match self {
            Encoding::Latin1 | Encoding::Ascii => bytes.is_ascii(),
            Encoding::Utf8 => self.is_valid(bytes),
        }
    }
}

/// A text field's string, and whether it took the Latin-1 fallback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<'a> {
    /// The string.
    pub text: Cow<'a, str>,
    /// True when the bytes were not valid in the declared encoding and were read as Latin-1.
    pub fallback: bool,
}

/// The string the bytes of a text field stand for under [`Encoding`] `encoding` (see the
/// module docs). Borrows when the bytes are already the string's UTF-8.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Text<'_> {
    if encoding.kept_as_is(bytes) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return Text {
                text: Cow::Borrowed(s),
                fallback: false,
            };
        }
    }
    Text {
        text: Cow::Owned(latin1(bytes)),
        fallback: !encoding.is_valid(bytes),
    }
}

/// Each byte as the code point of the same value (Latin-1).
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_by_name() {
        assert_eq!(Encoding::of(Some("utf-8")), Encoding::Utf8);
        assert_eq!(Encoding::of(Some("UTF8")), Encoding::Utf8);
        assert_eq!(Encoding::of(Some("ISO-8859-1")), Encoding::Latin1);
        assert_eq!(Encoding::of(None), Encoding::Latin1);
        assert_eq!(Encoding::of(Some("US-ASCII")), Encoding::Ascii);
        assert_eq!(Encoding::of(Some("GB18030")), Encoding::Ascii);
    }

    #[test]
    fn valid_text_is_kept() {
        let t = decode("né€".as_bytes(), Encoding::Utf8);
        assert_eq!(t.text, "né€");
        assert!(!t.fallback);
        let t = decode(b"abc", Encoding::Ascii);
        assert!(matches!(t.text, Cow::Borrowed("abc")) && !t.fallback);
    }

    #[test]
    fn invalid_text_is_latin1_and_counted() {
        // A value cut inside a multi-byte sequence (the next value would complete it).
        let t = decode(&[b'a', 0xC3], Encoding::Utf8);
        assert_eq!(t.text, "a\u{c3}");
        assert!(t.fallback);
        // UTF-8 bytes in a US-ASCII field: not ASCII, so one code point per byte.
        let t = decode(&[0xC3, 0xA9], Encoding::Ascii);
        assert_eq!(t.text, "\u{c3}\u{a9}");
        assert!(t.fallback);
    }

    #[test]
    fn latin1_is_always_valid() {
        let t = decode(&[0xC3, 0xA9, 0xFF], Encoding::Latin1);
        assert_eq!(t.text, "\u{c3}\u{a9}\u{ff}");
        assert!(!t.fallback);
    }
}
