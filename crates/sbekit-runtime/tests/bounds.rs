//! The runtime's bounds arithmetic (`sbekit_runtime::bounds`) and helpers, on their own:
//! exact errors for hand-made buffers, and for hostile lengths and counts (proptest) an answer
//! that never panics and never reaches outside the buffer.

use proptest::prelude::*;
use sbekit_runtime::bounds::MAX_EMPTY_ENTRIES;
use sbekit_runtime::bounds::{
    block, block_covers, block_then, block_trusted, charge_empty, fixed_group_end,
    fixed_group_end_trusted, group_dims, group_dims_trusted, var_data_trusted,
};
use sbekit_runtime::{var_data, DecodeError, DecodeErrorKind, FixedEntry, FixedGroupIter};

/// A little-endian `u16` block length then `u16` count.
fn le_dims(d: &[u8; 4]) -> (usize, usize) {
    (
        usize::from(u16::from_le_bytes([d[0], d[1]])),
        usize::from(u16::from_le_bytes([d[2], d[3]])),
    )
}

fn too_short(offset: usize, needed: usize, available: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::BufferTooShort { needed, available },
        offset,
    )
}

#[test]
fn block_is_located_and_checked() {
    let buf = [1u8, 2, 3, 4, 5, 6];
    let (all, fixed, end) = block::<2>(&buf, 1, 4).unwrap();
    assert_eq!((all, fixed, end), (&buf[1..5], &[2u8, 3], 5));
    // Truncation is reported before a too-short block, both at the block's offset.
    assert_eq!(block::<2>(&buf, 4, 3).unwrap_err(), too_short(4, 3, 2));
    assert_eq!(
        block::<4>(&buf, 0, 3).unwrap_err(),
        DecodeError::new(
            DecodeErrorKind::BlockLengthTooShort {
                minimum: 4,
                found: 3
            },
            0
        )
    );
    assert_eq!(block::<0>(&buf, 9, 0).unwrap_err(), too_short(9, 0, 0));
    assert_eq!(
        block::<0>(&buf, usize::MAX, 2).unwrap_err(),
        too_short(usize::MAX, 2, 0)
    );
    assert_eq!(block_trusted::<2>(&buf, 1, 4).map(|b| b.2), Some(5));
    assert!(block_trusted::<2>(&buf, 1, usize::MAX).is_none());
}

#[test]
fn group_dimension_is_read_and_checked() {
    // Block length 3, count 2, then two entries.
    let buf = [3u8, 0, 2, 0, 1, 1, 1, 2, 2, 2];
    assert_eq!(group_dims(&buf, 0, 3, usize::MAX, le_dims), Ok((3, 2)));
    assert_eq!(group_dims_trusted(&buf, 0, le_dims), Some((3, 2)));
    assert_eq!(
        group_dims(&buf, 0, 4, usize::MAX, le_dims)
            .unwrap_err()
            .kind,
        DecodeErrorKind::BlockLengthTooShort {
            minimum: 4,
            found: 3
        }
    );
    assert_eq!(
        group_dims(&buf, 0, 0, 1, le_dims).unwrap_err(),
        DecodeError::new(DecodeErrorKind::InvalidDimension { found: 2 }, 0)
    );
    assert_eq!(
        group_dims(&buf, 8, 0, usize::MAX, le_dims).unwrap_err(),
        too_short(8, 4, 2)
    );
    assert_eq!(group_dims_trusted(&buf, 8, le_dims), None);
    assert_eq!(fixed_group_end(&buf, 0, 4, 3, 2), Ok(10));
    assert_eq!(fixed_group_end_trusted(0, 4, 3, 2), 10);
    assert_eq!(
        fixed_group_end(&buf, 0, 4, 3, 3).unwrap_err(),
        too_short(4, 9, 6)
    );
    assert_eq!(
        fixed_group_end(&buf, 0, 4, usize::MAX, 2).unwrap_err(),
        too_short(4, usize::MAX, 6)
    );
}

#[test]
fn a_block_and_the_prefix_after_it_are_checked_together() {
    let buf = [1u8, 2, 3, 4, 5, 6];
    // Block of 2 at 1, then 3 bytes of prefix: all inside.
    assert_eq!(block_then::<2, 3>(&buf, 1, 2), block::<2>(&buf, 1, 2));
    // The block is inside but the prefix after it is not: the prefix's own error.
    assert_eq!(
        block_then::<2, 4>(&buf, 1, 2).unwrap_err(),
        too_short(3, 4, 3)
    );
    // The block itself is short or outside: the block's errors, as `block` reports them.
    assert_eq!(
        block_then::<2, 1>(&buf, 1, 1).unwrap_err(),
        block::<2>(&buf, 1, 1).unwrap_err()
    );
    assert_eq!(
        block_then::<2, 1>(&buf, 4, 3).unwrap_err(),
        too_short(4, 3, 2)
    );
    assert_eq!(
        block_then::<0, 1>(&buf, usize::MAX, 2).unwrap_err(),
        too_short(usize::MAX, 2, 0)
    );
    assert_eq!(
        block_then::<0, { usize::MAX }>(&buf, 0, 1).unwrap_err(),
        too_short(1, usize::MAX, 5)
    );
}

#[test]
fn an_empty_groups_block_length_is_not_held_to_the_entry() {
    // No entries: any block length passes, and is reported as read (0 here).
    assert_eq!(
        group_dims(&[0, 0, 0, 0], 0, 3, usize::MAX, le_dims),
        Ok((0, 0))
    );
    assert_eq!(
        group_dims(&[2, 0, 0, 0], 0, 3, usize::MAX, le_dims),
        Ok((2, 0))
    );
    // With entries the same block length is refused.
    assert_eq!(
        group_dims(&[2, 0, 1, 0, 7, 7], 0, 3, usize::MAX, le_dims)
            .unwrap_err()
            .kind,
        DecodeErrorKind::BlockLengthTooShort {
            minimum: 3,
            found: 2
        }
    );
}

#[test]
fn empty_entries_draw_on_the_message_budget() {
    let mut budget = 10;
    // Entries that take bytes cost nothing: the input bounds them.
    assert_eq!(charge_empty(&mut budget, 4, 1 << 30, 1), Ok(()));
    assert_eq!(budget, 10);
    assert_eq!(charge_empty(&mut budget, 0, 6, 1), Ok(()));
    assert_eq!(charge_empty(&mut budget, 0, 4, 2), Ok(()));
    assert_eq!(budget, 0);
    assert_eq!(
        charge_empty(&mut budget, 0, 1, 3).unwrap_err(),
        DecodeError::new(DecodeErrorKind::InvalidDimension { found: 1 }, 3)
    );
    // A zero-length block's entries end where they start, however many.
    let buf = [0u8; 5];
    assert_eq!(fixed_group_end(&buf, 0, 4, 0, 1 << 20), Ok(4));
}

#[test]
fn blocks_cover_their_acting_version() {
    assert_eq!(block_covers(8, 8, 3), Ok(()));
    assert_eq!(block_covers(9, 8, 3), Ok(()));
    assert_eq!(
        block_covers(7, 8, 3).unwrap_err(),
        DecodeError::new(
            DecodeErrorKind::BlockLengthTooShort {
                minimum: 8,
                found: 7
            },
            3
        )
    );
}

#[test]
fn var_data_ends() {
    let buf = [3u8, 0, b'a', b'b', b'c', 9];
    let len = |b: [u8; 2]| usize::from(u16::from_le_bytes(b));
    assert_eq!(var_data(&buf, 0, len), Ok((&b"abc"[..], 5)));
    assert_eq!(var_data_trusted(&buf, 0, len), Some((&b"abc"[..], 5)));
    // At 1 the prefix is [0, b'a']: 0x6100 bytes announced, 3 left after the prefix.
    assert_eq!(var_data(&buf, 1, len).unwrap_err(), too_short(3, 0x6100, 3));
    assert_eq!(var_data_trusted(&buf, 1, len), None);
    assert_eq!(var_data(&buf, 5, len).unwrap_err(), too_short(5, 2, 1));
    assert_eq!(var_data_trusted(&buf, 5, len), None);
}

#[test]
fn empty_iterators_yield_nothing() {
    assert_eq!(FixedGroupIter::<Byte>::empty().count(), 0);
}

/// A one-byte entry for iterating.
#[derive(Debug, PartialEq)]
struct Byte(u8);

impl<'a> FixedEntry<'a> for Byte {
    fn from_block(block: &'a [u8], _: u64) -> Option<Self> {
        block.first().copied().map(Byte)
    }
}

#[test]
fn fixed_group_iterates_only_inside_the_buffer() {
    let buf = [9u8, 1, 2, 3];
    let all: Vec<Byte> = FixedGroupIter::checked(&buf, 1, 1, 3, 0).collect();
    assert_eq!(all, [Byte(1), Byte(2), Byte(3)]);
    assert_eq!(FixedGroupIter::<Byte>::checked(&buf, 1, 1, 4, 0).count(), 0);
    assert_eq!(
        FixedGroupIter::<Byte>::checked(&buf, 2, usize::MAX, 2, 0).count(),
        0
    );
}

/// A two-byte entry that declares its minimum, so that iterators raise a shorter block length.
#[derive(Debug, PartialEq)]
struct Pair(u8, u8);

impl<'a> FixedEntry<'a> for Pair {
    const MIN_BLOCK_LENGTH: usize = 2;

    fn from_block(block: &'a [u8], _: u64) -> Option<Self> {
        let [a, b] = *block.first_chunk::<2>()?;
        Some(Pair(a, b))
    }
}

#[test]
fn a_block_length_below_the_entrys_minimum_never_reads_outside_the_counted_bytes() {
    let buf = [9u8, 1, 2, 3, 4, 5];
    // An empty group (as a checked message may hold, with any block length) yields nothing.
    assert_eq!(FixedGroupIter::<Pair>::checked(&buf, 1, 0, 0, 0).count(), 0);
    assert_eq!(FixedGroupIter::<Pair>::checked(&buf, 1, 1, 0, 0).count(), 0);
    // Entries with a short block length (which a checked message rules out): entries of the
    // minimum size, cut from the counted bytes only (3 of them here: one whole entry).
    let got: Vec<Pair> = FixedGroupIter::checked(&buf, 1, 1, 3, 0).collect();
    assert_eq!(got, [Pair(1, 2)]);
    // A block length at or above the minimum is kept.
    let got: Vec<Pair> = FixedGroupIter::checked(&buf, 0, 3, 2, 0).collect();
    assert_eq!(got, [Pair(9, 1), Pair(3, 4)]);
}

/// An entry that keeps its bytes, whatever their number (zero included).
#[derive(Debug, PartialEq)]
struct Bytes<'a>(&'a [u8]);

impl<'a> FixedEntry<'a> for Bytes<'a> {
    fn from_block(block: &'a [u8], _: u64) -> Option<Self> {
        Some(Bytes(block))
    }
}

proptest! {
    /// `FixedGroupIter::new` yields `remaining` entries of `block_len` bytes, fewer when `rest`
    /// holds fewer, and as many zero-length entries as counted; its size hint is exact at
    /// every step.
    #[test]
    fn fixed_group_yields_the_counted_entries(
        rest in proptest::collection::vec(any::<u8>(), 0..40),
        block_len in prop_oneof![0usize..6, Just(usize::MAX)],
        remaining in prop_oneof![0usize..12, Just(usize::MAX)],
    ) {
        let expected: Vec<&[u8]> = if block_len == 0 {
            vec![&[][..]; remaining.min(100)]
        } else {
            rest.chunks_exact(block_len).take(remaining).collect()
        };
        let mut it = FixedGroupIter::<Bytes>::new(&rest, block_len, remaining, 0);
        if block_len == 0 && remaining > 100 {
            prop_assert_eq!(it.size_hint(), (remaining, Some(remaining)));
            return Ok(());
        }
        for (i, e) in expected.iter().enumerate() {
            let left = expected.len() - i;
            prop_assert_eq!(it.size_hint(), (left, Some(left)));
            prop_assert_eq!(it.next(), Some(Bytes(e)));
        }
        prop_assert_eq!(it.size_hint(), (0, Some(0)));
        prop_assert_eq!(it.next(), None);
    }
}

/// `group_dims`' documented rule: the dimension must be inside `buf` and its count at most the
/// maximum; a non-empty group's block length must reach the minimum, while an empty group's
/// may be shorter (it reads no entry, as `sbekit decode` accepts it). Checked both ways: every
/// accepted dimension obeys the rule, and every dimension that obeys it is accepted as read.
fn group_dims_follow_their_rule(buf: &[u8], pos: usize, min: usize) -> Result<(), TestCaseError> {
    let read = pos
        .checked_add(4)
        .and_then(|end| buf.get(pos..end))
        .map(|d| le_dims(d.try_into().expect("four bytes")));
    let got = group_dims(buf, pos, min, 50, le_dims);
    match read {
        None => prop_assert!(got.is_err(), "a dimension outside the buffer was accepted"),
        Some((bl, n)) => {
            let allowed = n <= 50 && (bl >= min || n == 0);
            prop_assert_eq!(
                got.ok(),
                allowed.then_some((bl, n)),
                "block {} count {} min {}",
                bl,
                n,
                min
            );
        }
    }
    Ok(())
}

#[test]
fn empty_groups_may_have_short_blocks_non_empty_ones_may_not() {
    // The all-zero buffer proptest once shrank to: count 0, block length 0 below a minimum of 1.
    assert_eq!(group_dims(&[0u8; 4], 0, 1, 50, le_dims), Ok((0, 0)));
    let one_entry = [0u8, 0, 1, 0];
    assert_eq!(
        group_dims(&one_entry, 0, 1, 50, le_dims).unwrap_err().kind,
        DecodeErrorKind::BlockLengthTooShort {
            minimum: 1,
            found: 0
        }
    );
    for (bl, n, min) in [
        (0u16, 0u16, 7usize),
        (3, 0, 7),
        (7, 1, 7),
        (2, 1, 7),
        (9, 51, 0),
    ] {
        let mut buf = bl.to_le_bytes().to_vec();
        buf.extend_from_slice(&n.to_le_bytes());
        group_dims_follow_their_rule(&buf, 0, min).unwrap();
    }
}

proptest! {
    /// Whatever the lengths, counts and offsets: no panic, and every end reported as valid is
    /// inside the buffer and consistent with the arithmetic.
    #[test]
    fn hostile_lengths_and_counts(
        buf in proptest::collection::vec(any::<u8>(), 0..64),
        pos in prop_oneof![0usize..80, Just(usize::MAX), Just(usize::MAX - 3)],
        block_len in prop_oneof![0usize..80, Just(usize::MAX), Just(usize::MAX / 2 + 1)],
        count in prop_oneof![0usize..80, Just(usize::MAX), Just(1usize << 40)],
        min in 0usize..8,
    ) {
        if let Ok((all, _, end)) = block::<3>(&buf, pos, block_len) {
            prop_assert!(end <= buf.len());
            prop_assert_eq!(all.len(), block_len);
            prop_assert!(block_len >= 3);
        }
        prop_assert_eq!(
            block::<3>(&buf, pos, block_len).ok(),
            block_trusted::<3>(&buf, pos, block_len)
        );
        group_dims_follow_their_rule(&buf, pos, min)?;
        match fixed_group_end(&buf, pos, 4, block_len, count) {
            Ok(end) => {
                prop_assert!(end <= buf.len());
                prop_assert_eq!(end, fixed_group_end_trusted(pos, 4, block_len, count));
                // The entries end exactly where their bytes do. Entries of an empty block take
                // none, so the input does not bound their count: the message's budget does
                // (`charge_empty`, as documented), and it refuses what the input could not hold.
                prop_assert_eq!(Some(end), block_len.checked_mul(count).and_then(|n| (pos + 4).checked_add(n)));
                if block_len == 0 {
                    let mut budget = MAX_EMPTY_ENTRIES;
                    prop_assert_eq!(
                        charge_empty(&mut budget, 0, count, pos).is_ok(),
                        count <= MAX_EMPTY_ENTRIES
                    );
                } else {
                    prop_assert!(count <= buf.len());
                }
            }
            Err(e) => prop_assert!(e.offset == pos || e.offset == pos.saturating_add(4)),
        }
        let len = |b: [u8; 2]| usize::from(u16::from_le_bytes(b));
        if let Ok((data, end)) = var_data(&buf, pos, len) {
            prop_assert!(end <= buf.len());
            prop_assert_eq!(end - data.len(), pos + 2);
            prop_assert_eq!(Some((data, end)), var_data_trusted(&buf, pos, len));
        }
        let n = FixedGroupIter::<Byte>::checked(&buf, pos, block_len, count, 0).count();
        prop_assert!(n == 0 || n == count);
        prop_assert!(n == 0 || block_len.saturating_mul(n) <= buf.len());
    }
}

proptest! {
    /// Group dimensions near the edges of the rule (counts of 0 and around the maximum, block
    /// lengths around the minimum), which random buffers reach only rarely.
    #[test]
    fn group_dims_rule_at_its_edges(
        bl in 0u16..12,
        n in prop_oneof![Just(0u16), 1u16..4, 48u16..53, Just(u16::MAX)],
        min in 0usize..10,
        pos in 0usize..3,
        cut in 0usize..2,
    ) {
        let mut buf = vec![0xA5; pos];
        buf.extend_from_slice(&bl.to_le_bytes());
        buf.extend_from_slice(&n.to_le_bytes());
        buf.truncate(buf.len() - cut);
        group_dims_follow_their_rule(&buf, pos, min)?;
    }
}
