//! Char arrays and text into Arrow strings: the ASCII fast paths (whole values, 8-byte words),
//! the NUL cut, the general path through the schema's character encoding, and the string
//! array built from offsets and bytes.

use super::*;
use arrow_array::builder::StringBuilder;

/// True when every value of a char-array column (cut at its first NUL) is kept as it is in
/// `encoding`. All-ASCII bytes are, in every encoding: one vectorised scan decides the usual
/// case.
pub(super) fn all_kept(v: &[u8], w: usize, encoding: Encoding) -> bool {
    v.is_ascii()
        || w == 0
        || v.chunks_exact(w).all(|value| {
            let len = value.iter().position(|&c| c == 0).unwrap_or(w);
            encoding.kept_as_is(value.get(..len).unwrap_or_default())
        })
}

/// Appends each `w`-byte value at `offset` of the `stride`-byte rows of `staged`, cut at its
/// first NUL, to `data`, and its end to `offsets`. Each value is copied whole (a copy of known
/// size), then the tail past the cut is dropped. False, with the work half done, at the first
/// value that is not all ASCII: ASCII bytes are their own UTF-8 in every encoding, anything
/// else must be judged by the general path.
#[inline(always)]
pub(super) fn ascii_from_rows(
    staged: &[u8],
    stride: usize,
    offset: usize,
    w: usize,
    rows: usize,
    text: &mut AsciiText,
) -> bool {
    if w == 8 {
        return ascii_from_rows_8(staged, stride, offset, rows, text);
    }
    for row in staged.chunks_exact(stride).take(rows) {
        match row.get(offset..offset + w) {
            Some(value) if text.push(value) => {}
            _ => return false,
        }
    }
    true
}

/// [`ascii_from_rows`] for 8-byte values (tickers, the usual case).
pub(super) fn ascii_from_rows_8(
    staged: &[u8],
    stride: usize,
    offset: usize,
    rows: usize,
    text: &mut AsciiText,
) -> bool {
    text.extend8(staged, stride, offset, rows)
}

pub(super) const NUL_LO: u64 = 0x0101_0101_0101_0101;
pub(super) const NUL_HI: u64 = 0x8080_8080_8080_8080;

/// The index of the first zero byte of the 8 bytes read little-endian as `x`, if any (the
/// lowest byte flagged by the zero-byte test is exact: false flags only follow a zero byte).
#[inline(always)]
pub(super) fn nul_in_word(x: u64) -> Option<usize> {
    let zero = x.wrapping_sub(NUL_LO) & !x & NUL_HI;
    (zero != 0).then(|| (zero.trailing_zeros() / 8) as usize)
}

/// Cuts each `w`-byte value of `v` at its first NUL and moves it left to follow the previous
/// one; returns the string offsets and leaves `v` holding the strings' bytes. Each move copies
/// `w` bytes (a copy of known size): the tail beyond the cut is overwritten by the next value.
#[inline(always)]
pub(super) fn compact_chars(v: &mut Vec<u8>, w: usize, offsets: &mut Vec<i32>) {
    let rows = v.len().checked_div(w).unwrap_or(0);
    offsets.push(0i32);
    let mut end = 0usize;
    for i in 0..rows {
        let at = i * w;
        let len = v.get(at..at + w).map_or(w, nul_cut);
        if at != end {
            v.copy_within(at..at + w, end);
        }
        end += len;
        // Past i32 the offsets stop rising, which Arrow refuses: an error, not a wrap.
        offsets.push(i32::try_from(end).unwrap_or(i32::MAX));
    }
    v.truncate(end);
}

/// A string column from offsets and UTF-8 bytes. The callers build the offsets as the running
/// length of `data` (never falling, first 0), which [`rising_offsets`] tests; Arrow checks
/// the rest (last offset within `data`, UTF-8 at every offset).
pub(super) fn string_array(
    offsets: Vec<i32>,
    data: Vec<u8>,
    nulls: Option<NullBuffer>,
    pool: &mut Pool,
) -> Result<ArrayRef, Error> {
    let offsets = rising_offsets(offsets, pool)
        .ok_or_else(|| Error::Arrow("char array: falling offsets".into()))?;
    StringArray::try_new(offsets, pool.buffer(data), nulls)
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(|e| Error::Arrow(e.to_string()))
}

/// Appends the string that `bytes` stand for under `encoding` to `b`, by the rule of
/// [`sbekit_otf::text::decode`] (kept as they are when valid, else one code point per byte),
/// mapping through `scratch` rather than a `String` per value; the builder takes `&str`, so
/// the column is not validated again. True when the bytes took the Latin-1 fallback.
pub(super) fn append_text(
    b: &mut StringBuilder,
    scratch: &mut String,
    bytes: &[u8],
    encoding: Encoding,
) -> bool {
    if encoding.kept_as_is(bytes) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            b.append_value(s);
            return false;
        }
    }
    scratch.clear();
    scratch.extend(bytes.iter().map(|&c| char::from(c)));
    b.append_value(&*scratch);
    !encoding.is_valid(bytes)
}

/// Where a char array's value ends: its first NUL, or its length. Eight bytes at a time.
#[inline(always)]
pub(super) fn nul_cut(value: &[u8]) -> usize {
    let mut at = 0;
    let mut chunks = value.chunks_exact(8);
    for c in &mut chunks {
        if let Some(k) = nul_in_word(u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))) {
            return at + k;
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == 0)
        .map_or(value.len(), |p| at + p)
}
