//! Where the columnar decode skips a check that its own work makes redundant: Arrow arrays
//! built without Arrow's checks of what they are given (UTF-8 at every offset, rising
//! offsets, dictionary keys in range), because the decode has just established the same
//! facts more cheaply, and gathers that read and write with one bounds test per run rather
//! than one per value. The only `unsafe` in this crate; each use says why it is sound, and
//! debug builds check the invariant again.
//!
//! * [`AsciiText`]: char-array values appended only when all ASCII, the 8-byte ones a word at
//!   a time ([`AsciiText::extend8`]); its fields are private to this module, so its
//!   invariant holds by construction.
//! * [`gather_strided`]: a column's values out of the staged rows, eight rows a step.
//! * [`rising_offsets`]: list, string and var-data offsets, tested rising in one
//!   vectorised pass (Arrow's test is a branch per offset).
//! * [`dictionary`]: enum keys, checked in range by one vectorised pass here (Arrow's check
//!   tests each key's validity bit as well, a branch per key); [`listed_dictionary`]: keys
//!   gathered through [`KeyTable`]s into [`TableKeys`] (fields private: each key negative or
//!   below its table's count of listed values), for which one OR over the keys suffices.
#![allow(unsafe_code)]

use super::*;

/// A string column of ASCII values cut at their first NUL (the decode's methods), or taken
/// whole ([`AsciiText::push_whole`], for IEX's trimmed symbols and codes).
///
/// Invariant (kept by every method, fields private to this module): `offsets` starts at 0,
/// never falls, ends at `data.len()`, which is at most `i32::MAX`; `data` is all ASCII.
#[derive(Debug)]
pub(crate) struct AsciiText {
    data: Vec<u8>,
    offsets: Vec<i32>,
}

impl AsciiText {
    /// An empty column over the memory of `data` and `offsets` (their contents are dropped).
    pub(crate) fn new(mut data: Vec<u8>, mut offsets: Vec<i32>) -> AsciiText {
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

    /// Appends `value` whole (NULs included); false, appending nothing, when it is not all
    /// ASCII or the column would pass `i32::MAX` bytes.
    #[inline(always)]
    pub(crate) fn push_whole(&mut self, value: &[u8]) -> bool {
        value.is_ascii() && self.push_cut(value, value.len())
    }

    /// Appends the 8-byte values at `offset` of each of the first `rows` rows of `stride`
    /// bytes in `staged`, each cut at its first NUL, in one pass: each value is read as a
    /// word, stored whole as one 8-byte write at the column's end (room reserved up front,
    /// tested once), and the end moved by the value's length, found by word arithmetic
    /// ([`ascii_len8`]), so the next value overwrites the tail. The ASCII test is one OR over
    /// every value, judged at the end. False, appending nothing, when a value is not all
    /// ASCII, the rows do not hold the values, or the column would pass `i32::MAX` bytes.
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
        // `stride` 0: no row can hold a value of its own.
        if !in_rows || stride == 0 || start.saturating_add(room) > i32::MAX as usize {
            return false;
        }
        // 8 bytes of slack: the last value is stored whole too.
        self.data.reserve(room + 8);
        self.offsets.reserve(rows);
        let (olen, first) = (self.offsets.len(), staged.get(offset..).unwrap_or_default());
        debug_assert!(self.data.capacity() >= start + room + 8);
        debug_assert!(self.offsets.capacity() >= olen + rows && last * stride + 8 <= first.len());
        let (src, data) = (first.as_ptr(), self.data.as_mut_ptr());
        let offsets = self.offsets.spare_capacity_mut().as_mut_ptr();
        let (mut end, mut any) = (start, 0u64);
        // SAFETY (each use, value `i`, read at `at`, which every use makes `src + i *
        // stride`): `i <= last`, so the 8 bytes at `i * stride` of `first` end at most at
        // `last * stride + 8 <= first.len()` (tested above, without overflow): `at` points
        // into `first` (its wrapping arithmetic never wrapped), and `[u8; 8]` has alignment 1.
        // Each value moves `end` by at most 8, so before value `i` it is at most `start + 8 *
        // i`, and `end + 8 <= start + room + 8`, within the capacity reserved: the 8-byte
        // write lies in the allocation. Slot `i` of the offsets' spare room exists (`rows`
        // reserved); writing initialises it. `end` stays at most `start + room`, within i32
        // (tested above).
        macro_rules! one {
            ($at:expr, $i:expr) => {
                // SAFETY: above; `$i < rows` and `$at` is `src + $i * stride` at every use.
                unsafe {
                    let x = u64::from_le_bytes($at.cast::<[u8; 8]>().read());
                    any |= x;
                    data.add(end).cast::<[u8; 8]>().write(x.to_le_bytes());
                    end += ascii_len8(x);
                    (*offsets.add($i)).write(end as i32);
                }
            };
        }
        // Eight values a step from one pointer: the loop's own instructions once per eight.
        let (at, mut row, mut i) = (eight_rows(stride), src, 0);
        while i + 8 <= rows {
            for (k, &d) in at.iter().enumerate() {
                // `row` is `src + i * stride`, so `row + d` is `src + (i + k) * stride`.
                one!(row.wrapping_add(d), i + k);
            }
            row = row.wrapping_add(8 * stride);
            i += 8;
        }
        while i < rows {
            one!(src.wrapping_add(i * stride), i);
            i += 1;
        }
        if any & NUL_HI != 0 {
            return false;
        }
        debug_assert!(end <= start + room);
        // SAFETY: the bytes from `start` to `end` were written (each value's 8 bytes at the
        // running end, of which its length stays, `end` within the capacity) and all are
        // ASCII (`any` holds every bit of every value, and no high bit is set); the `rows`
        // offsets after the old ones were written, each the running end, which never falls
        // and whose last is `end`, the new `data.len()`.
        unsafe {
            self.data.set_len(end);
            self.offsets.set_len(olen + rows);
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
    pub(crate) fn finish(self, pool: &mut Pool) -> ArrayRef {
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
    // Every key, null or not.
    if !keys_below(keys.values(), values.len()) {
        return None;
    }
    // SAFETY: every key was just checked to be below `values.len()`, and not negative; the
    // keys' type is Int32, as the data type says.
    Some(unsafe { DictionaryArray::new_unchecked(keys, values) })
}

/// The dictionary key of each raw value of a one-byte enum: its position among the enum's
/// listed values (the first, if listed twice), -1 for the null value, and `-2 - raw` for a
/// value the enum does not list, which is turned into an entry of its own when the batch is
/// cut. Every key is negative or below [`Self::listed`] (built so, fields private).
#[derive(Debug)]
pub(super) struct KeyTable {
    keys: [i32; 256],
    listed: usize,
}

impl KeyTable {
    /// The table of an enum whose listed values are `bits`, with the null value `null`.
    pub(super) fn new(bits: &[u64], null: u64) -> Box<KeyTable> {
        let mut keys: [i32; 256] = std::array::from_fn(|raw| -2 - raw as i32);
        for (k, &b) in bits.iter().enumerate().rev() {
            if let Some(t) = usize::try_from(b).ok().and_then(|b| keys.get_mut(b)) {
                // Below `bits.len()`, or negative if past i32 (never: 256 entries at most).
                *t = i32::try_from(k).unwrap_or(-1);
            }
        }
        if let Some(t) = usize::try_from(null).ok().and_then(|b| keys.get_mut(b)) {
            *t = -1;
        }
        Box::new(KeyTable {
            keys,
            listed: bits.len(),
        })
    }

    /// The key of `raw`, when it is below 256.
    pub(super) fn key(&self, raw: u64) -> Option<i32> {
        usize::try_from(raw)
            .ok()
            .and_then(|r| self.keys.get(r))
            .copied()
    }
}

/// The keys of a one-byte enum column, gathered through [`KeyTable`]s only (fields private),
/// so that each is negative or below `listed`.
#[derive(Debug)]
pub(super) struct TableKeys {
    keys: Vec<i32>,
    listed: usize,
}

impl TableKeys {
    /// No keys yet, over the memory of `keys` (its contents are dropped).
    pub(super) fn new(mut keys: Vec<i32>) -> TableKeys {
        keys.clear();
        TableKeys { keys, listed: 0 }
    }

    /// Keys so far.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Appends the key in `table` of the byte at `offset` of each of `rows` rows of `stride`
    /// bytes in `staged`: one table load per value, in place of a gather of the raw bytes
    /// and a second pass through the table when the batch is cut.
    pub(super) fn extend(
        &mut self,
        table: &KeyTable,
        staged: &[u8],
        stride: usize,
        offset: usize,
        rows: usize,
    ) {
        // Keys below the largest table's `listed` (the same table each time, in practice).
        self.listed = self.listed.max(table.listed);
        let (keys, values) = (&mut self.keys, staged.get(offset..).unwrap_or_default());
        if !gather_strided(keys, values, stride, rows, |[b]: [u8; 1]| {
            table.keys[usize::from(b)]
        }) {
            // Rows the staging does not hold (which cannot happen): a zero byte's key.
            keys.resize(keys.len() + rows, table.keys[0]);
        }
    }

    /// Appends `n` null keys.
    pub(super) fn nulls(&mut self, n: usize) {
        self.keys.resize(self.keys.len() + n, -1);
    }

    /// The keys.
    #[cfg(test)]
    pub(super) fn into_vec(self) -> Vec<i32> {
        self.keys
    }
}

/// A dictionary array of `keys` into `names`, none of them null, when every key is a listed
/// value's: the usual batch of an enum column. Else the keys back, untouched, for the general
/// path (unlisted values, nulls).
pub(super) fn listed_dictionary(
    keys: TableKeys,
    names: &[String],
    pool: &mut Pool,
) -> Result<ArrayRef, Vec<i32>> {
    // Each key is negative or below `listed` (`TableKeys`): none negative, one OR of every
    // key (vectorised), and `listed` within the names, suffice.
    let negative = keys.keys.iter().fold(0i32, |acc, &k| acc | k) < 0;
    if negative || keys.listed > names.len() {
        return Err(keys.keys);
    }
    debug_assert!(keys_below(&keys.keys, names.len()));
    let keys = PrimitiveArray::<Int32Type>::new(pool.buffer(keys.keys).into(), None);
    let values: ArrayRef = Arc::new(StringArray::from(names.to_vec()));
    // SAFETY: every key is at least 0 (tested above) and below `listed` (the invariant of
    // `TableKeys`: gathered through `KeyTable`s, whose keys are negative or below their
    // `listed`, the largest of which `TableKeys::listed` holds), which is at most
    // `names.len()`, the dictionary's length (tested above); the keys' type is Int32.
    Ok(Arc::new(unsafe {
        DictionaryArray::new_unchecked(keys, values)
    }))
}

/// True when every key is in `0..n`. One branch-free pass, which the compiler vectorises:
/// with `top` the largest valid key, a key `k` in `0..=top` leaves both `k` and `top - k`
/// non-negative, and any other sets the sign bit of one of them (`top - k` cannot overflow
/// for `k >= 0`; a negative `k` is caught by its own sign); so the OR of both over all keys.
fn keys_below(keys: &[i32], n: usize) -> bool {
    let Some(top) = n.checked_sub(1) else {
        return keys.is_empty();
    };
    let top = i32::try_from(top).unwrap_or(i32::MAX);
    keys.iter()
        .fold(0i32, |acc, &k| acc | k | top.wrapping_sub(k))
        >= 0
}

/// An offset buffer over `offsets` (list entries, string or var-data bytes: running counts),
/// without `OffsetBuffer::new`'s test of each pair, which is a branch per offset; `None`
/// when they are empty, start below 0 or fall somewhere. The same facts, tested in one
/// branch-free pass that the compiler vectorises.
pub(super) fn rising_offsets(offsets: Vec<i32>, pool: &mut Pool) -> Option<OffsetBuffer<i32>> {
    let (&first, rest) = offsets.split_first()?;
    // Every offset and every difference to the one before, ORed: the sign is set when some
    // offset is negative or falls. (Where both offsets are non-negative the difference is
    // exact; where one is not, its own sign is in the OR.)
    let falls = offsets
        .iter()
        .zip(rest)
        .fold(first, |acc, (&a, &b)| acc | b | b.wrapping_sub(a));
    if falls < 0 {
        return None;
    }
    let offsets = ScalarBuffer::<i32>::from(pool.buffer(offsets));
    // SAFETY: the offsets are not empty, the first is at least 0 and none falls (tested
    // above: every offset is non-negative, so each difference is exact, and none is
    // negative); these are all that `OffsetBuffer::new` asserts.
    Some(unsafe { OffsetBuffer::new_unchecked(offsets) })
}

/// The distances of eight rows of `stride` bytes from the first: `k * stride` for row `k`.
/// Those of the odd rows are opaque to the compiler (which would otherwise chain the
/// addresses, an add per row) and each take a register; rows 2, 4 and 6 are rows 1 and 3
/// scaled by 2 or 4, which an address can hold. So a step of eight rows reads each from one
/// pointer with no add between them, and leaves registers to spare.
#[inline(always)]
fn eight_rows(stride: usize) -> [usize; 8] {
    let [d1, d3, d5, d7] = std::hint::black_box([1, 3, 5, 7].map(|k| k * stride));
    [0, d1, 2 * d1, d3, 4 * d1, d5, 2 * d3, d7]
}

/// Appends the `N`-byte value at the start of each of `rows` rows of `stride` bytes in `src`
/// (which starts at the first row's value), turned into a `T` by `read`, to `out`: one bounds
/// test for the whole run, then reads and writes with no test per value, eight rows a step
/// (the compiler does not unroll a loop of raw reads by itself, and a byte column's loop is
/// not unrolled at all). False, appending nothing, when `src` does not hold every value.
#[inline(always)]
pub(super) fn gather_strided<const N: usize, T>(
    out: &mut Vec<T>,
    src: &[u8],
    stride: usize,
    rows: usize,
    read: impl Fn([u8; N]) -> T,
) -> bool {
    let Some(last) = rows.checked_sub(1) else {
        return true;
    };
    // The last row's value ends within `src`: so does every earlier one's.
    let end = last.checked_mul(stride).and_then(|at| at.checked_add(N));
    if end.is_none_or(|end| end > src.len()) {
        return false;
    }
    out.reserve(rows);
    let len = out.len();
    debug_assert!(out.capacity() - len >= rows && last * stride + N <= src.len());
    let (from, to) = (src.as_ptr(), out.spare_capacity_mut().as_mut_ptr());
    // SAFETY (each use): called with `i < rows`, so `i <= last` and `i * stride + N <= last *
    // stride + N <= src.len()` (tested above, without overflow): the `N` bytes at `i *
    // stride` lie within `src` (`[u8; N]` has alignment 1); room for `rows` values past
    // `len` was reserved and `to` is its start, so slot `i` is within it, and writing
    // initialises it.
    macro_rules! one {
        ($i:expr) => {
            // SAFETY: above; `$i < rows` at every use.
            unsafe { (*to.add($i)).write(read(from.add($i * stride).cast::<[u8; N]>().read())) }
        };
    }
    let at = eight_rows(stride);
    let (mut row, mut slot) = (from, to);
    for _ in 0..rows / 8 {
        // SAFETY: eight of the `rows` rows, from row `i`, the rows done so far (`row` is
        // `from + i * stride`, `row + at[k]` is `from + (i + k) * stride`, `slot` is
        // `to + i`, and `i + 7 < rows`): each read and write is one of `one!`'s, at row
        // `i + k`. `slot` moves within the room reserved, `row` by wrapping (never read past).
        unsafe {
            for (k, &d) in at.iter().enumerate() {
                (*slot.add(k)).write(read(row.add(d).cast::<[u8; N]>().read()));
            }
            row = row.wrapping_add(8 * stride);
            slot = slot.add(8);
        }
    }
    let mut i = rows / 8 * 8;
    while i < rows {
        one!(i);
        i += 1;
    }
    // SAFETY: the `rows` slots after `len` were each written above, in room reserved for them.
    unsafe { out.set_len(len + rows) };
    true
}

/// The length of an 8-byte ASCII value read little-endian as `x`, up to its first NUL (8 when
/// it has none). Adding 0x7F to an ASCII byte sets its high bit unless the byte is 0, and
/// never carries into the next byte; so the lowest high bit still clear is the first NUL.
/// For bytes that are not ASCII the result is still at most 8 (and the caller discards it).
#[inline(always)]
pub(super) fn ascii_len8(x: u64) -> usize {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let zero = !x.wrapping_add(LOW7) & NUL_HI;
    (zero.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    #[test]
    fn ascii_len8_finds_the_first_nul() {
        // Every ASCII byte value at every position, a NUL at every position after it.
        for c in 1..=0x7Fu8 {
            for at in 0..8 {
                let mut v = [b'A'; 8];
                v[at] = c;
                assert_eq!(ascii_len8(u64::from_le_bytes(v)), 8, "{c:#x} at {at}");
                for nul in 0..8 {
                    let mut w = v;
                    w[nul] = 0;
                    // The first NUL counts, whatever follows it (a NUL too, or not).
                    let want = nul_in_word(u64::from_le_bytes(w)).unwrap_or(8);
                    assert_eq!(want, nul.min(if c == 0 { at } else { 8 }));
                    assert_eq!(ascii_len8(u64::from_le_bytes(w)), want, "{c:#x} {at} {nul}");
                }
            }
        }
        assert_eq!(ascii_len8(0), 0);
        // Bytes above 0x7F: no meaning, but never more than 8.
        for x in [u64::MAX, 0x80, 0xFF00_FF00_FF00_FF00, 0x0080_8080_8080_80FF] {
            assert!(ascii_len8(x) <= 8);
        }
    }

    #[test]
    fn extend8_cuts_at_every_nul_position_and_every_stride() {
        // Strides that are and are not multiples of 8, offsets within the row, and values
        // with their first NUL at each position (or none), against `push`.
        for stride in [8, 9, 11, 16, 29, 30] {
            for offset in 0..=(stride - 8).min(3) {
                let rows = 19;
                let mut staged = vec![b'-'; rows * stride];
                for r in 0..rows {
                    let v = &mut staged[r * stride + offset..r * stride + offset + 8];
                    v.copy_from_slice(b"ABCDEFGH");
                    if r % 9 < 8 {
                        v[r % 9] = 0;
                    }
                }
                let mut words = AsciiText::new(Vec::new(), Vec::new());
                let mut one_by_one = AsciiText::new(Vec::new(), Vec::new());
                assert!(words.extend8(&staged, stride, offset, rows));
                for r in 0..rows {
                    let at = r * stride + offset;
                    assert!(one_by_one.push(&staged[at..at + 8]));
                }
                assert!(words.invariant());
                assert_eq!(
                    (&words.data, &words.offsets),
                    (&one_by_one.data, &one_by_one.offsets)
                );
                // A byte above 0x7F in any one value: nothing appended.
                for r in [0, rows / 2, rows - 1] {
                    let mut bad = staged.clone();
                    bad[r * stride + offset + 7] = 0xC3;
                    let (data, offsets) = (words.data.clone(), words.offsets.clone());
                    assert!(!words.extend8(&bad, stride, offset, rows));
                    assert_eq!((&words.data, &words.offsets), (&data, &offsets));
                }
            }
        }
    }

    #[test]
    fn strided_gathers_agree_with_reads_one_by_one() {
        // Every width, both byte orders, strides that are not multiples of the width, row
        // counts around the eight-row step, and sources that end exactly at the last value.
        let src: Vec<u8> = (0..2000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for stride in [1, 2, 3, 4, 5, 8, 9, 13, 29, 30, 64] {
            for rows in [0, 1, 7, 8, 9, 16, 17, 30] {
                fn check<const N: usize, T: PartialEq + std::fmt::Debug>(
                    src: &[u8],
                    stride: usize,
                    rows: usize,
                    read: impl Fn([u8; N]) -> T + Copy,
                ) {
                    if N > stride {
                        return;
                    }
                    let want: Vec<T> = (0..rows)
                        .map(|r| read(src[r * stride..r * stride + N].try_into().unwrap()))
                        .collect();
                    let exact = rows.saturating_sub(1) * stride + N;
                    let mut got = Vec::new();
                    assert!(gather_strided(
                        &mut got,
                        &src[..exact.min(src.len())],
                        stride,
                        rows,
                        read
                    ));
                    assert_eq!(got, want, "N {N} stride {stride} rows {rows}");
                    // One byte short of the last value: refused, nothing appended.
                    if rows > 0 {
                        let mut short = Vec::new();
                        assert!(!gather_strided(
                            &mut short,
                            &src[..exact - 1],
                            stride,
                            rows,
                            read
                        ));
                        assert!(short.is_empty());
                    }
                }
                check::<1, u8>(&src, stride, rows, |a| a[0]);
                check::<2, u16>(&src, stride, rows, u16::from_le_bytes);
                check::<2, u16>(&src, stride, rows, u16::from_be_bytes);
                check::<4, u32>(&src, stride, rows, u32::from_le_bytes);
                check::<4, u32>(&src, stride, rows, u32::from_be_bytes);
                check::<8, u64>(&src, stride, rows, u64::from_le_bytes);
                check::<8, u64>(&src, stride, rows, u64::from_be_bytes);
            }
        }
        // Appends after what the column holds; a row count whose extent overflows is refused.
        let mut out = vec![9u16];
        assert!(gather_strided(&mut out, &src, 3, 2, u16::from_le_bytes));
        assert_eq!(
            out,
            [
                9,
                u16::from_le_bytes([src[0], src[1]]),
                u16::from_le_bytes([src[3], src[4]])
            ]
        );
        assert!(!gather_strided(
            &mut out,
            &src,
            usize::MAX,
            3,
            u16::from_le_bytes
        ));
        assert_eq!(out.len(), 3);
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
    fn offsets_are_taken_only_when_they_rise_from_zero_or_more() {
        let mut pool = Pool::default();
        for good in [vec![0], vec![0, 0, 3, 3, 9], vec![5, 6], vec![0, i32::MAX]] {
            let b = rising_offsets(good.clone(), &mut pool).expect("rising");
            assert_eq!(&b[..], &good[..]);
        }
        let mut long: Vec<i32> = (0..100).collect();
        assert!(rising_offsets(long.clone(), &mut pool).is_some());
        // A fall, or a negative offset, anywhere (first, middle, last).
        for at in [0, 1, 50, 99] {
            for v in [-1, i32::MIN] {
                long[at] = v;
                assert!(
                    rising_offsets(long.clone(), &mut pool).is_none(),
                    "{at} {v}"
                );
            }
            long[at] = at as i32;
        }
        long[60] = 58;
        assert!(rising_offsets(long.clone(), &mut pool).is_none());
        long[60] = 60;
        long[99] = 97;
        assert!(rising_offsets(long.clone(), &mut pool).is_none());
        assert!(rising_offsets(vec![i32::MAX, 0], &mut pool).is_none());
        assert!(rising_offsets(Vec::new(), &mut pool).is_none());
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
        // Every key at and around the bounds, alone and among good keys.
        for bad in [2, 3, i32::MAX, -1, -2, i32::MIN, i32::MIN + 1] {
            for at in [0, 5, 16] {
                let mut keys = vec![1; 17];
                keys[at] = bad;
                assert!(dictionary(PrimitiveArray::from(keys), values.clone()).is_none());
            }
        }
        let edge = PrimitiveArray::<Int32Type>::from(vec![1; 33]);
        assert!(dictionary(edge, values.clone()).is_some());
        let empty: ArrayRef = Arc::new(StringArray::from(Vec::<&str>::new()));
        assert!(dictionary(PrimitiveArray::from(Vec::<i32>::new()), empty.clone()).is_some());
        assert!(dictionary(PrimitiveArray::from(vec![0]), empty).is_none());
    }
}
