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
#[derive(Debug)]
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

    /// Appends the 8-byte values at `offset` of each of the first `rows` rows of `stride`
    /// bytes in `staged`, each cut at its first NUL, in one pass: each value is read as a
    /// word, its first NUL found by the zero-byte test, and it is stored whole as one 8-byte
    /// write into room reserved up front, the end moving by its length (so the next value
    /// overwrites its tail). The ASCII test is one OR over every value, judged at the end.
    /// False, appending nothing, when a value is not all ASCII, the rows do not hold the
    /// values, or the column would pass `i32::MAX` bytes.
    pub(super) fn extend8(
        &mut self,
        staged: &[u8],
        stride: usize,
        offset: usize,
        rows: usize,
    ) -> bool {
        let Some(last) = rows.checked_sub(1) else {
            return true;
        };
        // Every value in `staged` (checked once here, so the reads below are in bounds),
        // and the column within i32 however the values are cut.
        let in_rows = last
            .checked_mul(stride)
            .and_then(|a| a.checked_add(offset))
            .and_then(|a| a.checked_add(8))
            .is_some_and(|end| end <= staged.len());
        let start = self.data.len();
        let room = rows.saturating_mul(8);
        // `stride` 0 (no row can hold a value) would also stop `chunks` below.
        if !in_rows || stride == 0 || start.saturating_add(room) > i32::MAX as usize {
            return false;
        }
        // 8 bytes of slack: the last value is stored whole too.
        self.data.reserve(room + 8);
        self.offsets.reserve(rows);
        let (Some(data), Some(offsets)) = (
            self.data.spare_capacity_mut().get_mut(..room + 8),
            self.offsets.spare_capacity_mut().get_mut(..rows),
        ) else {
            return false;
        };
        // Rows shifted to start at the value: each value is the first 8 bytes of a chunk
        // (every chunk holds them, checked above). Whole chunks when the rows are padded
        // past the last (`Staging::pad`): a loop with no length test per row.
        let shifted = staged.get(offset..).unwrap_or_default();
        let word = |row: &[u8]| row.first_chunk::<8>().map_or(0, |v| u64::from_le_bytes(*v));
        let whole = rows.checked_mul(stride).and_then(|n| shifted.get(..n));
        let packed = match whole {
            Some(w) => pack8(w.chunks_exact(stride).map(word), data, offsets, start),
            None => pack8(shifted.chunks(stride).map(word), data, offsets, start),
        };
        // Every offset written (one per value, and `rows` values, as `in_rows` says), and all
        // ASCII: else nothing is kept.
        let Some((end, any, written)) = packed else {
            return false;
        };
        if written != rows || any & NUL_HI != 0 {
            return false;
        }
        debug_assert!(end <= room);
        // SAFETY: the `end` bytes after `start` were written (each value's 8 bytes at its
        // running end, the first `len` of which stay; `end` never passes `room`, within the
        // room reserved), and all are ASCII (`any` holds every bit of every value); the
        // `rows` offsets after the old ones were written (`written == rows`, tested above),
        // each `start` plus the running end,
        // so they never fall and the last is the new `data.len()`.
        unsafe {
            self.data.set_len(start + end);
            self.offsets.set_len(self.offsets.len() + rows);
        }
        true
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

    /// The first `rows` values as fixed arrays of `width` bytes: each value (which holds no
    /// NUL) then zeros, which is what its raw bytes read as once cut at their first NUL.
    pub(super) fn into_fixed(self, width: usize, rows: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(rows.saturating_mul(width));
        for w in self.offsets.windows(2).take(rows) {
            let value = self
                .data
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or_default();
            let value = value.get(..width).unwrap_or(value);
            v.extend_from_slice(value);
            v.resize(v.len() + (width - value.len()), 0);
        }
        v
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
        // invariant: `push` and `extend8` refuse any value with a byte above 0x7F), so every
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

/// Appends `value(row)` for each row of `rows` to `out`: written straight into room reserved
/// up front (an indexed loop, no capacity test per value, no zeroing first), then counted in.
#[inline(always)]
pub(super) fn extend_from_chunks<T>(
    out: &mut Vec<T>,
    rows: std::slice::ChunksExact<'_, u8>,
    value: impl Fn(&[u8]) -> T,
) {
    let (len, n) = (out.len(), rows.len());
    out.reserve(n);
    let spare = out.spare_capacity_mut();
    let written = spare.len().min(n);
    for (d, row) in spare.iter_mut().zip(rows) {
        d.write(value(row));
    }
    debug_assert!(written == n, "room for every row was reserved");
    // SAFETY: the zip wrote the first min(spare.len(), n) = `written` elements of the spare
    // capacity, in order, each with a value; those are now initialised and follow `len`.
    unsafe { out.set_len(len + written) };
}

/// The loop of [`AsciiText::extend8`]: each value of `values` stored whole at the running
/// end of `data` (which must have room for 8 bytes past the last value's end: 8 per value
/// and 8 more), the end moved by the value's length up to its first NUL, `start` plus that
/// end written to the value's entry of `offsets` (as many as the values). Returns the end,
/// the OR of every value (its high bits say whether all were ASCII) and how many values (and
/// offsets) were written, at most `offsets.len()`; `None`, writing
/// nothing, when `data` is shorter than 8 bytes per offset.
#[inline(always)]
fn pack8(
    values: impl Iterator<Item = u64>,
    data: &mut [std::mem::MaybeUninit<u8>],
    offsets: &mut [std::mem::MaybeUninit<i32>],
    start: usize,
) -> Option<(usize, u64, usize)> {
    // Room for 8 bytes per value taken (at most one per offset), tested once: each value's
    // store then needs no test of its own.
    if offsets.len().checked_mul(8).is_none_or(|n| n > data.len()) {
        return None;
    }
    let mut end = 0usize;
    let mut any = 0u64;
    let mut written = 0usize;
    for (i, (x, o)) in values.zip(offsets.iter_mut()).enumerate() {
        any |= x;
        // The lowest byte flagged by the zero-byte test is the first NUL; none: 64 / 8.
        let zero = x.wrapping_sub(NUL_LO) & !x & NUL_HI;
        let len = (zero.trailing_zeros() / 8) as usize;
        debug_assert!(end <= 8 * i && end + 8 <= data.len());
        // SAFETY: each value moves `end` by at most 8, so before value `i` it is at most
        // `8 * i`, and `i < offsets.len()` (the zip); thus `end + 8 <= 8 * offsets.len() <=
        // data.len()` (tested above) and the 8 bytes at `end` lie within `data`. `[u8; 8]`
        // has alignment 1, and writing initialises the `MaybeUninit` bytes.
        unsafe {
            data.as_mut_ptr()
                .add(end)
                .cast::<[u8; 8]>()
                .write(x.to_le_bytes());
        }
        end += len;
        // At most `start` + 8 per value, which the caller keeps within i32.
        o.write((start + end) as i32);
        written = i + 1;
    }
    Some((end, any, written))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    #[test]
    fn pack8_writes_only_with_room_for_every_value() {
        use std::mem::MaybeUninit;
        let words = [
            u64::from_le_bytes(*b"AB\0\0\0\0\0\0"),
            u64::from_le_bytes(*b"CDEFGHIJ"),
        ];
        let mut offsets = [MaybeUninit::<i32>::uninit(); 2];
        // 15 bytes: less than 8 per offset, refused before anything is written.
        let mut short = [MaybeUninit::<u8>::uninit(); 15];
        assert!(pack8(words.into_iter(), &mut short, &mut offsets, 0).is_none());
        let mut data = [MaybeUninit::<u8>::uninit(); 16];
        let (end, _, written) = pack8(words.into_iter(), &mut data, &mut offsets, 5).expect("room");
        assert_eq!((end, written), (10, 2));
        // Fewer values than offsets: only those are written, and said.
        let mut three = [MaybeUninit::<i32>::uninit(); 3];
        let mut room = [MaybeUninit::<u8>::uninit(); 24];
        let got = pack8(words.into_iter(), &mut room, &mut three, 0).map(|p| p.2);
        assert_eq!(got, Some(2));
        // SAFETY: `pack8` wrote the first `end` bytes.
        let bytes: Vec<u8> = data[..end]
            .iter()
            .map(|b| unsafe { b.assume_init() })
            .collect();
        // SAFETY: `pack8` wrote both offsets.
        let offs = offsets.map(|o| unsafe { o.assume_init() });
        assert_eq!((&bytes[..], offs), (&b"ABCDEFGHIJ"[..], [7, 15]));
    }

    #[test]
    fn ascii_text_refuses_what_is_not_ascii_and_cuts_at_nul() {
        let mut t = AsciiText::new(vec![9; 3], vec![7]);
        // Rows of 10 bytes, the values at offset 1.
        assert!(t.extend8(b"xAAPL\0\0\0\0yxMSFT0001y", 10, 1, 2));
        let before = (t.data.clone(), t.offsets.clone());
        // A value that is not ASCII (after its NUL too), or rows that do not hold the
        // values: nothing appended.
        assert!(!t.extend8(b"xAB\0\xff\0\0\0\0yxMSFT0001y", 10, 1, 2));
        assert!(!t.extend8(b"xAAPL\0\0\0\0yxMSFT000", 10, 1, 2));
        assert!(!t.extend8(b"xAAPL\0\0\0\0y", 10, usize::MAX, 1));
        // Rows of no bytes cannot hold a value: refused, not a panic.
        assert!(!t.extend8(b"xAAPL\0\0\0\0y", 0, 1, 2));
        assert!(t.extend8(b"", 10, 1, 0));
        assert_eq!((t.data.clone(), t.offsets.clone()), before);
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
    fn words_agree_with_values_one_by_one() {
        // Rows of 11 bytes, the values at offset 2: NULs anywhere, and now and then a byte
        // above 0x7F, before or after a NUL.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let rows = (next() % 40) as usize;
            let staged: Vec<u8> = (0..rows * 11)
                .map(|_| match next() % 16 {
                    0..=3 => 0,
                    4 if round % 3 == 0 => 0x80 | (next() as u8),
                    _ => b'A' + (next() % 26) as u8,
                })
                .collect();
            let mut words = AsciiText::new(Vec::new(), Vec::new());
            let mut one_by_one = AsciiText::new(Vec::new(), Vec::new());
            let all = staged
                .chunks_exact(11)
                .all(|row| one_by_one.push(&row[2..10]));
            assert_eq!(words.extend8(&staged, 11, 2, rows), all, "round {round}");
            if all {
                assert!(words.invariant());
                assert_eq!(
                    (words.data, words.offsets),
                    (one_by_one.data, one_by_one.offsets)
                );
            } else {
                assert_eq!((words.data.len(), words.offsets), (0, vec![0]));
            }
        }
    }

    #[test]
    fn rows_extend_a_column() {
        let staged: Vec<u8> = (0..40u8).collect();
        let mut out = vec![7u16];
        extend_from_chunks(&mut out, staged[1..].chunks_exact(6), |r| {
            u16::from_le_bytes([r[0], r[1]])
        });
        // Rows of 6 bytes from byte 1: 6 whole rows, the rest dropped.
        assert_eq!(out, [7, 0x0201, 0x0807, 0x0e0d, 0x1413, 0x1a19, 0x201f]);
        let mut empty: Vec<u64> = Vec::new();
        extend_from_chunks(&mut empty, staged[..3].chunks_exact(4), |_| 1);
        assert!(empty.is_empty());
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
