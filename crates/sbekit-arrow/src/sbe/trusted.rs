//! The two places where the columnar decode builds Arrow arrays without Arrow's own checks
//! of what it is given (UTF-8 at every offset, rising offsets, dictionary keys in range),
//! because the decode has just established the same facts more cheaply. The only `unsafe`
//! in this crate; each call says why it is sound, and debug builds check the invariant again.
//!
//! * [`AsciiText`]: char-array values appended one by one, each refused unless all ASCII;
//!   its fields are private to this module, so its invariant holds by construction.
//! * [`dictionary`]: enum keys, checked in range by one vectorised pass here (Arrow's check
//!   tests each key's validity bit as well, a branch per key).
#![allow(unsafe_code)]

use super::*;

/// A string column of ASCII values cut at their first NUL.
///
/// Invariant (kept by every method, fields private to this module): `offsets` starts at 0,
/// never falls, ends at `data.len()`, which is at most `i32::MAX`; `data` is all ASCII.
pub(super) struct AsciiText {
    data: Vec<u8>,
    offsets: Vec<i32>,
}

impl AsciiText {
    /// An empty column over the memory of `data` and `offsets` (their contents are dropped).
    pub(super) fn new(mut data: Vec<u8>, mut offsets: Vec<i32>) -> AsciiText {
        data.clear();
        offsets.clear();
        offsets.push(0);
        AsciiText { data, offsets }
    }

    /// Values appended so far.
    pub(super) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Appends `value` cut at its first NUL; false, appending nothing, when the value is not
    /// all ASCII or the column would pass `i32::MAX` bytes.
    #[inline(always)]
    pub(super) fn push(&mut self, value: &[u8]) -> bool {
        if !value.is_ascii() {
            return false;
        }
        self.push_cut(value, nul_cut(value))
    }

    /// [`Self::push`] of an 8-byte value (tickers, the usual case), read as one word: its
    /// ASCII test and its first NUL are a few operations on it.
    #[inline(always)]
    pub(super) fn push8(&mut self, value: &[u8; 8]) -> bool {
        let x = u64::from_le_bytes(*value);
        if x & NUL_HI != 0 {
            return false;
        }
        self.push_cut(value, nul_in_word(x).unwrap_or(8))
    }

    /// Appends the first `len` bytes of the ASCII `value` (copied whole, a copy of known
    /// size, then the tail dropped).
    #[inline(always)]
    fn push_cut(&mut self, value: &[u8], len: usize) -> bool {
        let end = self.data.len() + len.min(value.len());
        let Ok(end32) = i32::try_from(end) else {
            return false;
        };
        self.data.extend_from_slice(value);
        self.data.truncate(end);
        self.offsets.push(end32);
        true
    }

    /// True when the invariant holds (checked in debug builds before the array is built).
    fn invariant(&self) -> bool {
        self.offsets.first() == Some(&0)
            && self.offsets.windows(2).all(|w| w[0] <= w[1])
            && self.offsets.last().map(|&o| o as usize) == Some(self.data.len())
            && i32::try_from(self.data.len()).is_ok()
            && self.data.is_ascii()
    }

    /// The `StringArray`, its buffers from `pool`'s accounting.
    pub(super) fn finish(self, pool: &mut Pool) -> ArrayRef {
        debug_assert!(self.invariant(), "AsciiText invariant broken");
        let offsets = ScalarBuffer::<i32>::from(pool.buffer(self.offsets));
        // SAFETY: the offsets start at 0 and never fall (the invariant: each is the running
        // length of `data`, appended to only by `push_cut`, after the last offset was pushed).
        let offsets = unsafe { OffsetBuffer::new_unchecked(offsets) };
        let values = pool.buffer(self.data);
        // SAFETY: the last offset is `data.len()` and every byte of `data` is ASCII (the
        // invariant: `push` and `push8` refuse any value with a byte above 0x7F), so every
        // offset is a char boundary of valid UTF-8; no null buffer, so no length to match.
        Arc::new(unsafe { StringArray::new_unchecked(offsets, values, None) })
    }
}

/// A dictionary array over `keys` into `values`, or `None` when some key is out of range
/// (never, for keys that `EnumKeys` made: the caller then takes Arrow's checked constructor,
/// which reports it). Null keys must be in range too (the decode sets them to 0).
pub(super) fn dictionary(
    keys: PrimitiveArray<Int32Type>,
    values: ArrayRef,
) -> Option<DictionaryArray<Int32Type>> {
    let n = values.len();
    // One branch-free pass: every key, null or not, as an unsigned index below `n`.
    let max = keys.values().iter().fold(0u32, |m, &k| m.max(k as u32));
    if !keys.is_empty() && (max as usize) >= n {
        return None;
    }
    // SAFETY: every key (a negative one reads as a u32 above `i32::MAX`) was just checked
    // to be below `values.len()`; the keys' type is Int32, as the data type says.
    Some(unsafe { DictionaryArray::new_unchecked(keys, values) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    #[test]
    fn ascii_text_refuses_what_is_not_ascii_and_cuts_at_nul() {
        let mut t = AsciiText::new(vec![9; 3], vec![7]);
        assert!(t.push8(b"AAPL\0\0\0\0"));
        assert!(t.push8(b"MSFT0001"));
        assert!(!t.push8(b"AB\0\xff\0\0\0\0"));
        assert!(t.push(b"XY\0Z"));
        assert!(!t.push(b"\xc3\xa9"));
        assert!(t.push(b""));
        assert_eq!(t.len(), 4);
        assert!(t.invariant());
        let mut pool = Pool::default();
        let a = t.finish(&mut pool);
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        let got: Vec<&str> = a.iter().map(|v| v.unwrap_or("null")).collect();
        assert_eq!(got, ["AAPL", "MSFT0001", "XY", ""]);
        // Arrow's own validation agrees.
        assert!(a.to_data().validate_full().is_ok());
    }

    #[test]
    fn a_broken_invariant_is_caught() {
        for t in [
            AsciiText {
                data: b"ab\xff".to_vec(),
                offsets: vec![0, 3],
            },
            AsciiText {
                data: b"abc".to_vec(),
                offsets: vec![0, 2, 1, 3],
            },
            AsciiText {
                data: b"abc".to_vec(),
                offsets: vec![0, 4],
            },
        ] {
            assert!(!t.invariant());
            if cfg!(debug_assertions) {
                let r = std::panic::catch_unwind(move || t.finish(&mut Pool::default()));
                assert!(r.is_err(), "debug builds refuse a broken invariant");
            }
        }
    }

    #[test]
    fn dictionary_keys_are_checked() {
        let values: ArrayRef = Arc::new(StringArray::from(vec!["A", "B"]));
        let ok = PrimitiveArray::<Int32Type>::from(vec![0, 1, 1, 0]);
        let d = dictionary(ok, values.clone()).expect("in range");
        assert!(d.to_data().validate_full().is_ok());
        for bad in [vec![0, 2], vec![-1, 0]] {
            assert!(dictionary(PrimitiveArray::from(bad), values.clone()).is_none());
        }
        let empty: ArrayRef = Arc::new(StringArray::from(Vec::<&str>::new()));
        assert!(dictionary(PrimitiveArray::from(Vec::<i32>::new()), empty.clone()).is_some());
        assert!(dictionary(PrimitiveArray::from(vec![0]), empty).is_none());
    }
}
