//! Group iterators shared by all generated decoders. A generated group names one of these
//! with its entry decoder (`type CarFuelFiguresIter<'a> = GroupIter<'a, CarFuelFiguresDecoder<'a>>`);
//! the group header was checked when the message was decoded, so iteration only steps.

use core::marker::PhantomData;

/// An entry decoder of a group whose entries have a fixed size (no nested groups, no var data).
pub trait FixedEntry<'a>: Sized {
    /// The fewest bytes an entry's block holds (its fields at version 0).
    const MIN_BLOCK_LENGTH: usize = 0;

    /// The entry over its `block_len` bytes; `None` if they are fewer than the entry needs.
    fn from_block(block: &'a [u8], acting_version: u64) -> Option<Self>;
}

/// An entry decoder of a group whose entries hold nested groups or var data.
pub trait Entry<'a>: Sized {
    /// Locates the (already checked) entry at `pos`; `None` if it does not fit in `buf`.
    fn parse_trusted(
        buf: &'a [u8],
        pos: usize,
        block_len: usize,
        acting_version: u64,
    ) -> Option<Self>;
    /// Where the entry ends in the buffer.
    fn end(&self) -> usize;
}

/// Iterates over the entries of a group with fixed-size entries: each is the next `block_len`
/// bytes.
///
/// `rest` holds exactly the entries not yet visited, so when entries take bytes its length
/// alone ends the iteration (one check per step, as in a hand-written `chunks_exact` loop);
/// `remaining` counts only entries of a zero-length block.
pub struct FixedGroupIter<'a, E> {
    rest: &'a [u8],
    block_len: usize,
    remaining: usize,
    acting_version: u64,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E> FixedGroupIter<'a, E> {
    /// Iterates over `remaining` entries of `block_len` bytes at the start of `rest` (fewer if
    /// `rest` holds fewer).
    #[inline(always)]
    pub const fn new(
        rest: &'a [u8],
        block_len: usize,
        remaining: usize,
        acting_version: u64,
    ) -> Self {
        // Keep only the counted entries' bytes: the length then says when to stop.
        let rest = match block_len.checked_mul(remaining) {
            Some(n) => match rest.split_at_checked(n) {
                Some((counted, _)) => counted,
                None => rest,
            },
            None => rest,
        };
        Self::exact(rest, block_len, remaining, acting_version)
    }

    /// [`Self::new`] for a `rest` of exactly `block_len * remaining` bytes.
    #[inline(always)]
    const fn exact(
        rest: &'a [u8],
        block_len: usize,
        remaining: usize,
        acting_version: u64,
    ) -> Self {
        FixedGroupIter {
            rest,
            block_len,
            remaining,
            acting_version,
            entry: PhantomData,
        }
    }

    /// Iterates over no entries: the group of a message whose acting version predates it.
    #[inline(always)]
    pub const fn empty() -> Self {
        Self::exact(&[], 0, 0, 0)
    }
}

impl<'a, E: FixedEntry<'a>> FixedGroupIter<'a, E> {
    /// Iterates over `count` entries of `block_len` bytes at `start` in `buf`; over none if
    /// they are not all inside `buf` (which a checked message rules out).
    #[inline(always)]
    pub fn checked(
        buf: &'a [u8],
        start: usize,
        block_len: usize,
        count: usize,
        acting_version: u64,
    ) -> Self {
        let rest = block_len
            .checked_mul(count)
            .and_then(|n| buf.get(start..start.checked_add(n)?));
        // A checked message's block length covers the entry when there are entries; with
        // none it may be anything, and is raised to the entry's minimum so that the
        // optimiser knows every entry holds it (no per-group test of the entry's size).
        let block_len = block_len.max(E::MIN_BLOCK_LENGTH);
        match rest {
            Some(rest) => Self::exact(rest, block_len, count, acting_version),
            None => Self::exact(&[], block_len, 0, acting_version),
        }
    }
}

impl<E> Clone for FixedGroupIter<'_, E> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for FixedGroupIter<'_, E> {}

impl<'a, E: FixedEntry<'a>> Iterator for FixedGroupIter<'a, E> {
    type Item = E;

    #[inline(always)]
    fn next(&mut self) -> Option<E> {
        if self.block_len == 0 {
            // Entries that take no bytes: only the count ends them.
            self.remaining = self.remaining.checked_sub(1)?;
            return E::from_block(&[], self.acting_version);
        }
        // `rest` holds whole entries only (see `new`), so this fails exactly at the end.
        let (e, rest) = self.rest.split_at_checked(self.block_len)?;
        self.rest = rest;
        E::from_block(e, self.acting_version)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self.rest.len().checked_div(self.block_len) {
            Some(n) => n,
            None => self.remaining,
        };
        (n, Some(n))
    }
}

impl<'a, E: FixedEntry<'a>> ExactSizeIterator for FixedGroupIter<'a, E> {}

impl<'a, E: FixedEntry<'a> + core::fmt::Debug> core::fmt::Debug for FixedGroupIter<'a, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

/// Iterates over the entries of a group whose entries hold nested groups or var data: each
/// entry is located where the previous one ended.
pub struct GroupIter<'a, E> {
    buf: &'a [u8],
    pos: usize,
    block_len: usize,
    remaining: usize,
    acting_version: u64,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E> GroupIter<'a, E> {
    /// Iterates over no entries: the group of a message whose acting version predates it.
    #[inline(always)]
    pub const fn empty() -> Self {
        Self::new(&[], 0, 0, 0, 0)
    }

    /// Iterates over `remaining` entries of `buf` starting at `pos`.
    #[inline(always)]
    pub const fn new(
        buf: &'a [u8],
        pos: usize,
        block_len: usize,
        remaining: usize,
        acting_version: u64,
    ) -> Self {
        GroupIter {
            buf,
            pos,
            block_len,
            remaining,
            acting_version,
            entry: PhantomData,
        }
    }
}

impl<E> Clone for GroupIter<'_, E> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for GroupIter<'_, E> {}

impl<'a, E: Entry<'a>> Iterator for GroupIter<'a, E> {
    type Item = E;

    #[inline(always)]
    fn next(&mut self) -> Option<E> {
        if self.remaining == 0 {
            return None;
        }
        match E::parse_trusted(self.buf, self.pos, self.block_len, self.acting_version) {
            Some(e) => {
                self.pos = e.end();
                // Non-zero, checked above.
                self.remaining = self.remaining.wrapping_sub(1);
                Some(e)
            }
            None => {
                self.remaining = 0;
                None
            }
        }
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, E: Entry<'a>> ExactSizeIterator for GroupIter<'a, E> {}

impl<'a, E: Entry<'a> + core::fmt::Debug> core::fmt::Debug for GroupIter<'a, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}
