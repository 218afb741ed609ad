//! One message into the column buffers: the block, group and var-data walk, through the wire
//! vocabulary (`sbekit_ir::wire`) so that framing rules are the OTF decoder's own.

use super::*;

/// Per-message decoding state; the byte order is the walk's type parameter (no branch per
/// framing integer).
pub(super) struct Cx<'a> {
    pub(super) buf: &'a [u8],
    pub(super) version: u32,
    /// Empty-block entries the message may still declare.
    pub(super) budget: EntryBudget,
    /// Group entries decoded in this message, all levels.
    pub(super) entries: u64,
}

pub(super) fn err(offset: usize, path: &str, kind: ErrorKind) -> DecodeError {
    DecodeError {
        offset,
        path: path.to_string(),
        kind,
    }
}

pub(super) fn within(mut e: DecodeError, prefix: &str) -> DecodeError {
    e.path = if e.path.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{}", e.path)
    };
    e
}

impl BlockCols {
    /// Decodes one block (its fields, groups and var data) at `start`; returns the offset past it.
    pub(super) fn decode<O: Order>(
        &mut self,
        cx: &mut Cx,
        start: usize,
        block_length: u64,
    ) -> Result<usize, DecodeError> {
        wire::check_block(&self.required, u64::from(cx.version), start, block_length)?;
        let block = take(cx.buf, start, block_length, "")?;
        self.stage(block, cx, start)?;
        let mut pos = start + block.len();
        for g in &mut self.groups {
            pos = g.decode::<O>(cx, pos).map_err(|e| within(e, &g.name))?;
        }
        for v in &mut self.vars {
            pos = v
                .decode::<O>(cx.buf, cx.version, pos)
                .map_err(|e| within(e, &v.name))?;
        }
        Ok(pos)
    }

    /// The plain walk: [`Self::decode`] for a message acting at the table's newest version or
    /// later (no field, group or var data absent), whose blocks are no shorter than their
    /// fields and whose groups hold fixed-size entries (checked by the caller). Stages the
    /// same rows as [`Self::decode`] with none of its per-version and per-entry decisions.
    /// `None` when the message is anything else or is malformed: rows may then be staged in
    /// part, and the caller truncates them and takes [`Self::decode`], which reports.
    #[inline]
    pub(super) fn decode_plain<O: Order>(
        &mut self,
        buf: &[u8],
        start: usize,
        block_length: u64,
        version: u32,
    ) -> Option<usize> {
        let bl = usize::try_from(block_length).ok()?;
        if bl < self.need {
            return None;
        }
        let end = start.checked_add(bl)?;
        if end > buf.len() {
            return None;
        }
        // The block is in `buf`, and no shorter than the stride.
        self.staged.copy_from(buf, start, self.stride)?;
        self.push_version(version);
        self.rows += 1;
        let mut pos = end;
        for g in &mut self.groups {
            pos = g.decode_plain::<O>(buf, pos, version)?;
        }
        for v in &mut self.vars {
            pos = v.decode::<O>(buf, version, pos).ok()?;
        }
        Some(pos)
    }

    /// [`Self::decode_plain`] for the flattest shape, the usual market-data message: a root
    /// block and groups of fixed-size entries, no var data, no version-gated field anywhere
    /// (checked by the caller, `Table::flat`). Returns the end. The same rows, with what
    /// only the other shapes need left out: no acting versions kept, no var data, and the
    /// entries' extent multiplied without an overflow test once both factors are known to
    /// fit in 32 bits.
    #[inline]
    pub(super) fn decode_flat<O: Order>(
        &mut self,
        buf: &[u8],
        start: usize,
        block_length: u64,
    ) -> Option<usize> {
        let len = buf.len();
        let bl = usize::try_from(block_length).ok()?;
        let mut pos = start.checked_add(bl)?;
        if bl < self.need || pos > len {
            return None;
        }
        self.staged.copy_from(buf, start, self.stride)?;
        self.rows += 1;
        for g in &mut self.groups {
            let (gbl, count) = g.dims.read_in::<O>(buf.get(pos..)?)?;
            let body = &mut g.body;
            // A block length of 0 (entries charged to the budget) never passes: `need` > 0.
            if gbl < body.need as u64 || (gbl | count) >> 32 != 0 {
                return None;
            }
            let (gbl, count) = (gbl as usize, count as usize);
            let first = pos.checked_add(g.dimension.size)?;
            // Both below 2^32: the product fits.
            let end = first.checked_add(gbl * count)?;
            if end > len {
                return None;
            }
            if gbl == body.stride {
                body.staged.copy_from(buf, first, gbl * count)?;
            } else {
                for k in 0..count {
                    body.staged.copy_from(buf, first + k * gbl, body.stride)?;
                }
            }
            body.rows += count;
            g.offsets.push(i32::try_from(body.rows).ok()?);
            pos = end;
        }
        Some(pos)
    }

    /// [`Self::decode_flat`] where every group's dimension holds its block length and count
    /// as two adjacent `uint16`s (checked by the caller, `Table::flat_u16`): each read as one
    /// 4-byte word at a fixed offset, and no overflow test where none can overflow (a block
    /// length and a count below 2^16, offsets within `buf`).
    #[inline(always)]
    pub(super) fn decode_flat_u16<O: Order>(
        &mut self,
        buf: &[u8],
        start: usize,
        block_length: u64,
    ) -> Option<usize> {
        let bl = usize::try_from(block_length).ok()?;
        if bl < self.need {
            return None;
        }
        let block = buf.get(start..)?.get(..bl)?;
        self.staged.push(block.get(..self.stride)?)?;
        self.rows += 1;
        // `pos` <= `buf.len()` from here on.
        let mut pos = start + bl;
        for g in &mut self.groups {
            pos = g.stage_flat_u16::<O>(buf, pos)?;
        }
        Some(pos)
    }

    /// Appends one row: the block's first `stride` bytes (one copy), and its acting version
    /// when some field is version-gated.
    #[inline(always)]
    fn stage(&mut self, block: &[u8], cx: &Cx, start: usize) -> Result<(), DecodeError> {
        match block.get(..self.stride) {
            Some(fields) => self.staged.extend_from_slice(fields),
            None => self.stage_short(block, cx, start)?,
        }
        self.push_version(cx.version);
        // Counted now so that a failure below (groups, var data) truncates this row too.
        self.rows += 1;
        Ok(())
    }

    /// A block shorter than the extent of the fields: fine when what is missing is newer than
    /// the acting version (padded with zeros), truncated otherwise.
    #[cold]
    fn stage_short(&mut self, block: &[u8], cx: &Cx, start: usize) -> Result<(), DecodeError> {
        if let Some(l) = self
            .leaves
            .iter()
            .find(|l| l.since <= cx.version && l.end() > block.len())
        {
            return Err(truncated(cx.buf, start + l.offset, 1, ""));
        }
        self.staged.extend_from_slice(block);
        self.staged.zeros(self.stride - block.len());
        Ok(())
    }

    /// Appends `count` fixed-size entries (no groups, no var data) of `block_length` bytes
    /// starting at `entries`: one copy when each entry is exactly a row.
    fn stage_entries(&mut self, cx: &Cx, group: &GroupHeader) -> Result<usize, DecodeError> {
        let blocks = wire::entry_blocks(cx.buf, group, "")?;
        let end = group.entries + blocks.len();
        if group.count == 0 {
            return Ok(end);
        }
        let first = group.entries;
        wire::check_block(
            &self.required,
            u64::from(cx.version),
            first,
            group.block_length,
        )
        .map_err(|e| within(e, "[0]"))?;
        // `count` entries of `block_length` bytes fit in the buffer: both fit in a usize.
        let bl = usize::try_from(group.block_length).unwrap_or(usize::MAX);
        let count = usize::try_from(group.count).unwrap_or(usize::MAX);
        if bl == self.stride && bl > 0 {
            self.staged.extend_from_slice(blocks);
            self.push_version(cx.version);
            self.rows += count;
        } else {
            for i in 0..count {
                let at = i.saturating_mul(bl);
                let block = blocks.get(at..at.saturating_add(bl)).unwrap_or_default();
                self.stage(block, cx, first + at)
                    .map_err(|e| within(e, &format!("[{i}]")))?;
            }
        }
        Ok(end)
    }
}

impl GroupCols {
    /// One group of [`BlockCols::decode_flat_u16`] at `pos` (within `buf`); returns the
    /// offset past it.
    #[inline(always)]
    fn stage_flat_u16<O: Order>(&mut self, buf: &[u8], pos: usize) -> Option<usize> {
        // `pos` is within `buf` and `pair_at` inside the dimension: no overflow.
        let (gbl, count) = wire::read_u16_pair::<O>(buf, pos + self.pair_at?)?;
        let (gbl, count) = (usize::from(gbl), usize::from(count));
        let body = &mut self.body;
        // Below 2^32, added to an offset within `buf`: no overflow.
        let n = gbl * count;
        let first = pos + self.dimension.size;
        let run = buf.get(first..)?.get(..n)?;
        if gbl == body.run_block {
            body.staged.push(run)?;
        } else if gbl < body.need {
            // A block length of 0 (entries charged to the budget) never passes: `need` > 0.
            return None;
        } else {
            for k in 0..count {
                body.staged.copy_from(run, k * gbl, body.stride)?;
            }
        }
        body.rows += count;
        self.offsets.push(i32::try_from(body.rows).ok()?);
        Some(first + n)
    }
}

impl GroupCols {
    pub(super) fn decode<O: Order>(
        &mut self,
        cx: &mut Cx,
        pos: usize,
    ) -> Result<usize, DecodeError> {
        let push_offset = |offsets: &mut Vec<i32>, rows: usize| -> Result<(), DecodeError> {
            let o = i32::try_from(rows).map_err(|_| {
                err(
                    0,
                    "",
                    ErrorKind::TooManyEntries {
                        limit: i32::MAX as u64,
                    },
                )
            })?;
            offsets.push(o);
            Ok(())
        };
        if self.since > cx.version {
            push_offset(&mut self.offsets, self.body.rows)?;
            return Ok(pos);
        }
        // The count is bounded by the bytes left, and empty entries by the budget.
        let header = wire::read_group::<O>(cx.buf, pos, &self.dimension, &mut cx.budget, "")?;
        cx.entries = cx.entries.saturating_add(header.count);
        let mut pos = header.entries;
        if self.body.is_fixed() {
            pos = self.body.stage_entries(cx, &header)?;
        } else {
            for i in 0..header.count {
                pos = self
                    .body
                    .decode::<O>(cx, pos, header.block_length)
                    .map_err(|e| within(e, &format!("[{i}]")))?;
            }
        }
        push_offset(&mut self.offsets, self.body.rows)?;
        Ok(pos)
    }
}

impl GroupCols {
    /// The plain walk of one group of fixed-size entries (see [`BlockCols::decode_plain`]):
    /// `count` entries of at least the fields' extent, staged in one copy when each entry is
    /// exactly a row.
    #[inline(always)]
    fn decode_plain<O: Order>(&mut self, buf: &[u8], pos: usize, version: u32) -> Option<usize> {
        // The pair's bytes are checked by the read, the rest of the dimension by the test of
        // the end below (`first` <= `end`).
        let (bl, count) = self.dims.read_in::<O>(buf.get(pos..)?)?;
        let body = &mut self.body;
        // A block length of 0 (entries charged to the budget) never passes: `need` > 0.
        let bl = usize::try_from(bl).ok().filter(|&bl| bl >= body.need)?;
        let count = usize::try_from(count).ok()?;
        let first = pos.checked_add(self.dimension.size)?;
        let n = count.checked_mul(bl)?;
        let end = first.checked_add(n)?;
        if end > buf.len() {
            return None;
        }
        if bl == body.stride {
            body.staged.copy_from(buf, first, n)?;
        } else {
            for k in 0..count {
                body.staged.copy_from(buf, first + k * bl, body.stride)?;
            }
        }
        body.push_version(version);
        body.rows += count;
        self.offsets.push(i32::try_from(body.rows).ok()?);
        Some(end)
    }
}

impl VarCols {
    /// Appends the var data at `pos` (empty when newer than `version`); returns the offset
    /// past it.
    pub(super) fn decode<O: Order>(
        &mut self,
        buf: &[u8],
        version: u32,
        pos: usize,
    ) -> Result<usize, DecodeError> {
        if self.since > version {
            self.offsets.push(self.offsets.last().copied().unwrap_or(0));
            return Ok(pos);
        }
        let (data, data_end) = wire::read_var_data::<O>(buf, pos, &self.slots, "")?;
        let data_start = data_end - data.len();
        let len = data.len() as u64;
        let end = i32::try_from(self.data.len() + data.len()).map_err(|_| {
            err(
                data_start,
                "",
                ErrorKind::Truncated {
                    needed: len,
                    available: 0,
                },
            )
        })?;
        self.data.extend_from_slice(data);
        self.offsets.push(end);
        Ok(data_end)
    }
}
