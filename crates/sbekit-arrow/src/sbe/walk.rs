//! One message into the column buffers: the block, group and var-data walk, through the wire
//! vocabulary (`sbekit_ir::wire`) so that framing rules are the OTF decoder's own.

use super::*;

/// Per-message decoding state.
pub(super) struct Cx<'a> {
    pub(super) buf: &'a [u8],
    pub(super) version: u32,
    pub(super) big: bool,
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
    pub(super) fn decode(
        &mut self,
        cx: &mut Cx,
        start: usize,
        block_length: u64,
    ) -> Result<usize, DecodeError> {
        wire::check_block(&self.required, u64::from(cx.version), start, block_length)?;
        let block = take(cx.buf, start, block_length, "")?;
        let rows = self.rows;
        for leaf in &mut self.leaves {
            if leaf.since > cx.version {
                leaf.push_absent(rows);
            } else if leaf.push(block, cx.big).is_none() {
                return Err(truncated(cx.buf, start + leaf.offset, 1, ""));
            }
        }
        // Counted now so that a failure below truncates this row's fields too.
        self.rows += 1;
        let mut pos = start + block.len();
        for g in &mut self.groups {
            pos = g.decode(cx, pos).map_err(|e| within(e, &g.name))?;
        }
        for v in &mut self.vars {
            pos = v.decode(cx, pos).map_err(|e| within(e, &v.name))?;
        }
        Ok(pos)
    }
}

impl GroupCols {
    pub(super) fn decode(&mut self, cx: &mut Cx, pos: usize) -> Result<usize, DecodeError> {
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
        let GroupHeader {
            block_length,
            count,
            entries: mut pos,
        } = if cx.big {
            wire::read_group::<Be>(cx.buf, pos, &self.dimension, &mut cx.budget, "")
        } else {
            wire::read_group::<Le>(cx.buf, pos, &self.dimension, &mut cx.budget, "")
        }?;
        cx.entries = cx.entries.saturating_add(count);
        for i in 0..count {
            pos = self
                .body
                .decode(cx, pos, block_length)
                .map_err(|e| within(e, &format!("[{i}]")))?;
        }
        push_offset(&mut self.offsets, self.body.rows)?;
        Ok(pos)
    }
}

impl VarCols {
    pub(super) fn decode(&mut self, cx: &mut Cx, pos: usize) -> Result<usize, DecodeError> {
        if self.since > cx.version {
            self.offsets.push(self.offsets.last().copied().unwrap_or(0));
            return Ok(pos);
        }
        let (data, data_end) = if cx.big {
            wire::read_var_data::<Be>(cx.buf, pos, &self.slots, "")
        } else {
            wire::read_var_data::<Le>(cx.buf, pos, &self.slots, "")
        }?;
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
