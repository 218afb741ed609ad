//! The bounds arithmetic of generated decoders, once: locating a block, a group's dimension,
//! the end of a group of fixed-size entries, a var-data field. Each function comes in a checked
//! form (used by `decode`, which reports what is wrong and where) and, where a decoder walks a
//! message it already checked, a trusted form (which still never reads outside the buffer, and
//! answers `None` or saturates instead of failing).
//!
//! Generated code passes the constants of its schema (block sizes, the dimension's size, the
//! count's maximum) and a function that reads the dimension's two slots in the schema's byte
//! order; everything that can overflow or fall outside the buffer is handled here.

use crate::{chunk, DecodeError, DecodeErrorKind};

/// A block of `block_len` bytes at `pos`: the whole block, its first `MIN` bytes (the fields
/// every version has) and where it ends.
///
/// Fails with `BufferTooShort` if the block is not inside `buf`, then with
/// `BlockLengthTooShort` if `block_len < MIN`.
#[inline(always)]
pub fn block<const MIN: usize>(
    buf: &[u8],
    pos: usize,
    block_len: usize,
) -> Result<(&[u8], &[u8; MIN], usize), DecodeError> {
    // Shaped as the code generated decoders used to inline, which optimises best.
    let end = match pos.checked_add(block_len) {
        Some(e) if e <= buf.len() => e,
        _ => return Err(DecodeError::too_short(pos, block_len, buf.len())),
    };
    let Some(blk) = buf.get(pos..end) else {
        return Err(DecodeError::too_short(pos, block_len, buf.len()));
    };
    match blk.first_chunk::<MIN>() {
        Some(fixed) => Ok((blk, fixed, end)),
        None => Err(DecodeError::new(
            DecodeErrorKind::BlockLengthTooShort {
                minimum: MIN,
                found: block_len,
            },
            pos,
        )),
    }
}

/// [`block`] for a block that is always followed by `NEXT` bytes (the first section's
/// dimension or length prefix): the block and those bytes are checked in one comparison, which
/// then covers the section's own check of its prefix. When they are not all there, the error
/// is [`block`]'s or else the one the section's check reports (`BufferTooShort` for `NEXT`
/// bytes at the block's end).
#[inline(always)]
pub fn block_then<const MIN: usize, const NEXT: usize>(
    buf: &[u8],
    pos: usize,
    block_len: usize,
) -> Result<(&[u8], &[u8; MIN], usize), DecodeError> {
    match pos
        .checked_add(block_len)
        .filter(|end| end.checked_add(NEXT).is_some_and(|e| e <= buf.len()))
    {
        Some(_) => block::<MIN>(buf, pos, block_len),
        None => Err(match block::<MIN>(buf, pos, block_len) {
            Err(e) => e,
            Ok((_, _, end)) => DecodeError::too_short(end, NEXT, buf.len()),
        }),
    }
}

/// [`block`] for a message already checked: `None` instead of an error.
#[inline(always)]
pub fn block_trusted<const MIN: usize>(
    buf: &[u8],
    pos: usize,
    block_len: usize,
) -> Option<(&[u8], &[u8; MIN], usize)> {
    let blk = buf.get(pos..)?.get(..block_len)?;
    // `blk` is inside `buf`: no wrap.
    Some((blk, blk.first_chunk::<MIN>()?, pos.wrapping_add(block_len)))
}

/// Reads a group's dimension (`D` bytes at `pos`) with `read`, which returns the entries'
/// block length and count, and checks it: the dimension is inside `buf`, the count is at most
/// `max_count` (`InvalidDimension` otherwise) and, when there are entries, the block length
/// at least `min_block` (`BlockLengthTooShort` otherwise). Errors are reported at `pos`.
#[inline(always)]
pub fn group_dims<const D: usize>(
    buf: &[u8],
    pos: usize,
    min_block: usize,
    max_count: usize,
    read: impl FnOnce(&[u8; D]) -> (usize, usize),
) -> Result<(usize, usize), DecodeError> {
    let (block_len, count) = match chunk::<D>(buf, pos) {
        Some(d) => read(d),
        None => return Err(DecodeError::too_short(pos, D, buf.len())),
    };
    if count > max_count {
        return Err(invalid_count(count, pos));
    }
    if block_len < min_block {
        // An empty group reads no entry, so its block length is not held to the fields (as
        // `sbekit decode` does not). Tested only once the usual check has failed, so that
        // the hot path is that one compare: written as `block_len < min_block && count > 0`
        // it cost Car decode ~5% CPU time and 18 instructions (`docs/BENCHMARKS.md`).
        if count == 0 {
            return Ok((block_len, 0));
        }
        return Err(DecodeError::new(
            DecodeErrorKind::BlockLengthTooShort {
                minimum: min_block,
                found: block_len,
            },
            pos,
        ));
    }
    Ok((block_len, count))
}

/// [`group_dims`] for a message already checked: the block length and count, or `None` if the
/// dimension is not inside `buf`.
#[inline(always)]
pub fn group_dims_trusted<const D: usize>(
    buf: &[u8],
    pos: usize,
    read: impl FnOnce(&[u8; D]) -> (usize, usize),
) -> Option<(usize, usize)> {
    chunk::<D>(buf, pos).map(read)
}

/// Where a group of `count` fixed-size entries of `block_len` bytes ends, its dimension of
/// `dim` bytes being at `pos`; checks that the entries are inside `buf`.
///
/// Entries of a zero-length block take no bytes, so their count is not bounded by the input:
/// the message's budget bounds it ([`charge_empty`]).
#[inline(always)]
pub fn fixed_group_end(
    buf: &[u8],
    pos: usize,
    dim: usize,
    block_len: usize,
    count: usize,
) -> Result<usize, DecodeError> {
    let start = pos.saturating_add(dim);
    match block_len
        .checked_mul(count)
        .and_then(|n| start.checked_add(n))
    {
        Some(end) if end <= buf.len() => Ok(end),
        _ => Err(DecodeError::too_short(
            start,
            block_len.saturating_mul(count),
            buf.len(),
        )),
    }
}

/// [`fixed_group_end`] for a message already checked (saturating, never failing).
#[inline(always)]
pub fn fixed_group_end_trusted(pos: usize, dim: usize, block_len: usize, count: usize) -> usize {
    pos.saturating_add(dim)
        .saturating_add(block_len.saturating_mul(count))
}

/// The most entries of empty-block groups one message may declare, in all its groups (the
/// limit `sbekit decode` applies): such entries take no bytes, so the input's size does not
/// bound their count, and a hostile count must not make a decoder loop (nearly) for ever.
pub const MAX_EMPTY_ENTRIES: usize = 1 << 20;

/// Charges a group's `count` entries to the message's `budget` (see [`MAX_EMPTY_ENTRIES`])
/// when its entries are empty blocks; `InvalidDimension` at `pos` when the budget runs out.
#[inline(always)]
pub fn charge_empty(
    budget: &mut usize,
    block_len: usize,
    count: usize,
    pos: usize,
) -> Result<(), DecodeError> {
    if block_len != 0 {
        return Ok(());
    }
    match budget.checked_sub(count) {
        Some(left) => {
            *budget = left;
            Ok(())
        }
        None => Err(invalid_count(count, pos)),
    }
}

/// Fails with `BlockLengthTooShort` at `pos` when a block of `block_len` bytes is shorter
/// than the `required` bytes its fields take at the acting version.
#[inline(always)]
pub fn block_covers(block_len: usize, required: usize, pos: usize) -> Result<(), DecodeError> {
    if block_len < required {
        return Err(DecodeError::new(
            DecodeErrorKind::BlockLengthTooShort {
                minimum: required,
                found: block_len,
            },
            pos,
        ));
    }
    Ok(())
}

/// The data of a var-data field whose `L`-byte length prefix is at `pos`, and where it ends,
/// for a message already checked (saturating); `None` if the prefix or the data is not inside
/// `buf` (which a checked message rules out).
#[inline(always)]
pub fn var_data_trusted<const L: usize>(
    buf: &[u8],
    pos: usize,
    len: impl FnOnce([u8; L]) -> usize,
) -> Option<(&[u8], usize)> {
    let n = len(*chunk::<L>(buf, pos)?);
    let start = pos.saturating_add(L);
    let end = start.saturating_add(n);
    Some((buf.get(start..end)?, end))
}

fn invalid_count(count: usize, pos: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::InvalidDimension {
            found: u64::try_from(count).unwrap_or(u64::MAX),
        },
        pos,
    )
}
