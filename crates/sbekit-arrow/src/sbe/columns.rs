//! The column buffers of one table, grouped as the schema nests its blocks, groups and var
//! data: per block, the staged rows (each block's bytes) and its wire fields (leaves), each
//! gathered into a typed vector every few hundred messages and when the batch is cut. Filled
//! by `walk.rs`, gathered and turned into arrays by `arrays.rs`.

use super::*;

/// One wire field's raw values, gathered out of the staged rows.
#[derive(Debug)]
pub(super) enum Store {
    W1(Vec<u8>),
    W2(Vec<u16>),
    W4(Vec<u32>),
    W8(Vec<u64>),
    /// Fixed arrays (char arrays, numeric arrays): `width` raw bytes per row.
    Fixed(Vec<u8>, usize),
}

impl Store {
    /// Sets the value of row `i` to zero (a field absent at the acting version; masked as
    /// null, and zero as the per-value decoder left it).
    pub(super) fn zero(&mut self, i: usize) {
        match self {
            Store::W1(v) => v.get_mut(i).into_iter().for_each(|x| *x = 0),
            Store::W2(v) => v.get_mut(i).into_iter().for_each(|x| *x = 0),
            Store::W4(v) => v.get_mut(i).into_iter().for_each(|x| *x = 0),
            Store::W8(v) => v.get_mut(i).into_iter().for_each(|x| *x = 0),
            Store::Fixed(v, w) => {
                let at = i.saturating_mul(*w);
                if let Some(b) = v.get_mut(at..at.saturating_add(*w)) {
                    b.fill(0);
                }
            }
        }
    }

    /// The values as unsigned integers of the field's width (not for fixed arrays).
    pub(super) fn get(&self, i: usize) -> u64 {
        match self {
            Store::W1(v) => v.get(i).map_or(0, |&x| u64::from(x)),
            Store::W2(v) => v.get(i).map_or(0, |&x| u64::from(x)),
            Store::W4(v) => v.get(i).map_or(0, |&x| u64::from(x)),
            Store::W8(v) => v.get(i).copied().unwrap_or(0),
            Store::Fixed(..) => 0,
        }
    }
}

/// One wire field of a block: where it is in the block and how wide it is. Its values stay in
/// the block's staged rows until they are gathered, a tile of rows at a time
/// (`BlockCols::gather_pending`).
#[derive(Debug)]
pub(super) struct Leaf {
    /// Offset from the start of the block.
    pub(super) offset: usize,
    pub(super) since: u32,
    /// Bytes per value.
    pub(super) width: usize,
    /// A fixed array (char array, numeric array) rather than one scalar.
    pub(super) fixed: bool,
}

impl Leaf {
    pub(super) fn new(offset: usize, since: u32, ty: PrimitiveType, length: usize) -> Leaf {
        Leaf {
            offset,
            since,
            width: ty.size().saturating_mul(length),
            fixed: length != 1,
        }
    }

    /// Offset just past the field in the block.
    pub(super) fn end(&self) -> usize {
        self.offset.saturating_add(self.width)
    }

    /// An empty store for this leaf's values with room for `rows` of them, from `pool`.
    pub(super) fn store(&self, rows: usize, pool: &mut Pool) -> Store {
        if self.fixed {
            return Store::Fixed(pool.vec(rows.saturating_mul(self.width)), self.width);
        }
        match self.width {
            1 => Store::W1(pool.vec(rows)),
            2 => Store::W2(pool.vec(rows)),
            4 => Store::W4(pool.vec(rows)),
            _ => Store::W8(pool.vec(rows)),
        }
    }
}

impl Store {
    /// Appends the values at `offset` of the first `rows` rows of `stride` bytes in `staged`:
    /// one strided pass, the width and byte order decided here, once per call (a column, or
    /// a tile of rows of it).
    pub(super) fn extend_rows(
        &mut self,
        offset: usize,
        staged: &[u8],
        stride: usize,
        rows: usize,
        big: bool,
    ) {
        let (off, at) = (offset, stride);
        match (self, big) {
            // Common widths as constants: each value is a copy of known size, not a call.
            (Store::Fixed(v, w), _) => match *w {
                4 => fixed_column(v, staged, at, off, 4, rows),
                8 => fixed_column(v, staged, at, off, 8, rows),
                16 => fixed_column(v, staged, at, off, 16, rows),
                w => fixed_column(v, staged, at, off, w, rows),
            },
            (Store::W1(v), _) => column::<1, u8>(v, staged, at, off, rows, |a| a[0]),
            (Store::W2(v), false) => column(v, staged, at, off, rows, u16::from_le_bytes),
            (Store::W2(v), true) => column(v, staged, at, off, rows, u16::from_be_bytes),
            (Store::W4(v), false) => column(v, staged, at, off, rows, u32::from_le_bytes),
            (Store::W4(v), true) => column(v, staged, at, off, rows, u32::from_be_bytes),
            (Store::W8(v), false) => column(v, staged, at, off, rows, u64::from_le_bytes),
            (Store::W8(v), true) => column(v, staged, at, off, rows, u64::from_be_bytes),
        }
    }
}

/// Appends `rows` fixed arrays of `width` bytes at `offset` of each `stride`-byte row of
/// `staged` to `v` (zeros for rows the staging does not hold, which cannot happen).
#[inline(always)]
fn fixed_column(
    v: &mut Vec<u8>,
    staged: &[u8],
    stride: usize,
    offset: usize,
    width: usize,
    rows: usize,
) {
    let len = v.len() + rows.saturating_mul(width);
    if width != 0 && stride != 0 {
        for row in staged.chunks_exact(stride).take(rows) {
            match row.get(offset..offset + width) {
                Some(value) => v.extend_from_slice(value),
                None => v.resize(v.len() + width, 0),
            }
        }
    }
    v.resize(len, 0);
}

/// `rows` values of `N` bytes at `offset` of each `stride`-byte row of `staged`, appended to
/// `out` (zeros for rows the staging does not hold, which cannot happen).
#[inline(always)]
fn column<const N: usize, T: Default>(
    out: &mut Vec<T>,
    staged: &[u8],
    stride: usize,
    offset: usize,
    rows: usize,
    read: impl Fn([u8; N]) -> T,
) {
    let len = out.len() + rows;
    // The stride covers every leaf, so this never fails; checked once here, not per value.
    if offset.checked_add(N).is_none_or(|end| end > stride) {
        out.resize_with(len, T::default);
        return;
    }
    // One bounds test for the run, then no test per value (`trusted`).
    let shifted = staged.get(offset..).unwrap_or_default();
    if !gather_strided(out, shifted, stride, rows, &read) {
        // Rows the staging does not hold (which cannot happen): row by row, zeros past them.
        out.extend(
            shifted
                .chunks(stride)
                .take(rows)
                .map(|row| read(row.first_chunk::<N>().copied().unwrap_or([0; N]))),
        );
    }
    out.resize_with(len, T::default);
}

/// How a leaf's raw values become an Arrow array.
#[derive(Debug, Clone)]
pub(super) enum LeafKind {
    /// An integer; `null` holds the null value's bits for an optional field.
    Int {
        ty: PrimitiveType,
        null: Option<u64>,
    },
    /// A float or double; NaN (the SBE null) is null for an optional field.
    Float { ty: PrimitiveType, optional: bool },
    /// One character, as a one-character string; the null character is null when optional.
    Char {
        null: Option<u8>,
        encoding: Encoding,
    },
    /// A character array, cut at its first NUL.
    Chars { encoding: Encoding },
    /// A numeric fixed array.
    Array { ty: PrimitiveType, length: usize },
    /// An enum: valid value bits and names, the bits read as null.
    Enum {
        bits: Vec<u64>,
        names: Vec<String>,
        null: u64,
        signed_width: Option<usize>,
    },
    /// A set: choice names and bit positions.
    Set { choices: Vec<(String, u32)> },
}

/// A column of a block: a wire field, or a composite of them.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Leaf { leaf: usize, kind: LeafKind },
    Struct { fields: Vec<(String, Node)> },
}

#[derive(Debug)]
pub(super) struct GroupCols {
    pub(super) name: String,
    pub(super) since: u32,
    pub(super) dimension: DimensionSlots,
    /// The dimension's block length and count, read together by the plain walk.
    pub(super) dims: SlotPair,
    /// Where the dimension holds them as two adjacent wire `uint16`s (the usual
    /// `groupSizeEncoding`), read as one word by `BlockCols::decode_flat_u16`.
    pub(super) pair_at: Option<usize>,
    /// Offsets into the entries, one more than the parent's rows.
    pub(super) offsets: Vec<i32>,
    pub(super) body: BlockCols,
}

#[derive(Debug)]
pub(super) struct VarCols {
    pub(super) name: String,
    pub(super) since: u32,
    pub(super) slots: VarDataSlots,
    pub(super) text: bool,
    pub(super) encoding: Encoding,
    pub(super) offsets: Vec<i32>,
    pub(super) data: Vec<u8>,
}

/// The columns of a root block or of a group's entries.
///
/// Appending a row copies the block's bytes, `stride` of them (the extent of its fields), into
/// `staged`: one copy per block, or per run of fixed-size group entries. Every few hundred
/// messages, and when the batch is cut, the staged rows are gathered into each leaf's column
/// (`gathered`) and the staging emptied.
#[derive(Debug)]
pub(super) struct BlockCols {
    pub(super) leaves: Vec<Leaf>,
    pub(super) nodes: Vec<(String, Node)>,
    pub(super) groups: Vec<GroupCols>,
    pub(super) vars: Vec<VarCols>,
    pub(super) required: RequiredLengths,
    pub(super) rows: usize,
    /// Bytes staged per row: the end of the last field on the wire.
    pub(super) stride: usize,
    /// `rows` rows of `stride` bytes.
    pub(super) staged: Staging,
    /// Some field is newer than version 0: `versions` holds the rows' acting versions.
    pub(super) gated: bool,
    /// The acting version of each run of rows, as (first row, version): a new run only where
    /// the version changes, which in a real stream is almost never.
    pub(super) versions: Vec<(usize, u32)>,
    /// The block length a message must declare for the plain walk (`walk.rs`): the extent of
    /// the fields on the wire, and at least what the newest version requires.
    pub(super) need: usize,
    /// The block length of entries that are exactly a row (`stride`, when that meets
    /// `need`; else `usize::MAX`, which no block length is): a run of them is one copy.
    pub(super) run_block: usize,
    /// Rows already gathered into `gathered`: the staging holds rows `done..rows` only, so
    /// that it stays small (in L1) between a row's copy and its gather.
    pub(super) done: usize,
    /// Each leaf's column so far, in leaf order (empty until the batch's first gather).
    pub(super) gathered: Vec<Gathered>,
    /// Which leaves are char arrays (tried as ASCII text).
    pub(super) chars: Vec<bool>,
    /// The key table of each leaf that is a one-byte enum present at every version, built
    /// once here: its values are gathered straight into dictionary keys.
    pub(super) key_tables: Vec<Option<Box<KeyTable>>>,
    /// Rows of the last batch: the room each column asks for at the next batch's start.
    pub(super) last_rows: usize,
}

impl BlockCols {
    pub(super) fn new(
        leaves: Vec<Leaf>,
        nodes: Vec<(String, Node)>,
        groups: Vec<GroupCols>,
        vars: Vec<VarCols>,
        required: RequiredLengths,
    ) -> BlockCols {
        let stride = leaves.iter().map(Leaf::end).max().unwrap_or(0);
        let gated = leaves.iter().any(|l| l.since > 0);
        let need = stride.max(required.last().map_or(0, |&(_, len)| len));
        let mut chars = vec![false; leaves.len()];
        let mut key_tables: Vec<Option<Box<KeyTable>>> = leaves.iter().map(|_| None).collect();
        for (_, n) in &nodes {
            mark_chars(n, &mut chars);
            mark_keys(n, &leaves, &mut key_tables);
        }
        BlockCols {
            run_block: if stride >= need { stride } else { usize::MAX },
            done: 0,
            gathered: Vec::new(),
            chars,
            key_tables,
            last_rows: 0,
            leaves,
            nodes,
            groups,
            vars,
            required,
            rows: 0,
            stride,
            staged: Staging::default(),
            gated,
            versions: Vec::new(),
            need,
        }
    }

    /// Records `version` as the acting version of the rows appended next (called before they
    /// are counted in `rows`).
    #[inline(always)]
    pub(super) fn push_version(&mut self, version: u32) {
        if self.gated && self.versions.last().is_none_or(|&(_, v)| v != version) {
            self.versions.push((self.rows, version));
        }
    }

    /// The newest `sinceVersion` of anything in the block, its groups and its var data: a
    /// message acting at this version or later has every field.
    pub(super) fn newest(&self) -> u32 {
        let leaves = self.leaves.iter().map(|l| l.since);
        let groups = self.groups.iter().map(|g| g.since.max(g.body.newest()));
        let vars = self.vars.iter().map(|v| v.since);
        leaves.chain(groups).chain(vars).max().unwrap_or(0)
    }

    /// Group entries staged under this block's rows, all levels.
    pub(super) fn entries(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.body.rows.saturating_add(g.body.entries()))
            .fold(0, usize::saturating_add)
    }

    /// True when the entries have no groups and no var data: a run of them is one copy.
    pub(super) fn is_fixed(&self) -> bool {
        self.groups.is_empty() && self.vars.is_empty()
    }

    pub(super) fn bytes(&self) -> usize {
        // Gathered rows count as the bytes they were staged as.
        let own = (self.rows * self.stride).max(self.staged.len()) + self.versions.len() * 16;
        let groups: usize = self
            .groups
            .iter()
            .map(|g| g.offsets.len() * 4 + g.body.bytes())
            .sum();
        let vars: usize = self
            .vars
            .iter()
            .map(|v| v.offsets.len() * 4 + v.data.len())
            .sum();
        own + groups + vars
    }

    /// Drops every row from `rows` on (a message that failed half-way).
    pub(super) fn truncate(&mut self, rows: usize) {
        // Rows are gathered between messages only, so a message's rows are all staged.
        debug_assert!(rows >= self.done, "gathered rows cannot be dropped");
        let staged = rows.saturating_sub(self.done);
        self.staged.truncate(staged.saturating_mul(self.stride));
        // Runs that start at or after the cut go; the one before it keeps its version.
        let runs = self.versions.partition_point(|&(first, _)| first < rows);
        self.versions.truncate(runs);
        for g in &mut self.groups {
            g.offsets.truncate(rows + 1);
            let child = g.offsets.last().map_or(0, |&o| o as usize);
            g.body.truncate(child);
        }
        for v in &mut self.vars {
            v.offsets.truncate(rows + 1);
            let end = v.offsets.last().map_or(0, |&o| o as usize);
            v.data.truncate(end);
        }
        self.rows = rows.min(self.rows);
    }
}

/// Staged rows: block bytes back to back, the buffer kept from gather to gather. Blocks are
/// copied inline, in a few moves of known size ([`copy_inline`]), rather than through a call
/// per block; the buffer keeps a chunk's slack past its end for the gathers ([`Self::pad`]).
#[derive(Debug, Default)]
pub(super) struct Staging {
    /// Initialised memory, at least `len` bytes.
    bytes: Vec<u8>,
    len: usize,
}

impl Staging {
    /// Copies of more than this many bytes go through `copy_from_slice` (a call, vectorised).
    const INLINE: usize = 128;

    /// Bytes staged.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The staged bytes.
    #[cfg(test)]
    pub(super) fn rows(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    /// Makes the memory past the staged rows at least `n` bytes long (initialised; its
    /// contents are whatever was there), so that a gather can read every row as a whole
    /// `stride`-byte chunk starting anywhere in the first row ([`Self::padded`]).
    pub(super) fn pad(&mut self, n: usize) {
        let end = self.len.saturating_add(n);
        if end > self.bytes.len() {
            self.grow(end);
        }
    }

    /// The staged bytes and the memory after them ([`Self::pad`]).
    pub(super) fn padded(&self) -> &[u8] {
        &self.bytes
    }

    /// Drops everything from byte `len` on.
    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Drops every row, keeping the memory.
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// Room for `n` more bytes plus a chunk's slack; the slice to write them to.
    #[inline(always)]
    fn room(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.len.checked_add(n)?.checked_add(16)?;
        if end > self.bytes.len() {
            self.grow(end);
        }
        self.bytes.get_mut(self.len..end)
    }

    #[cold]
    fn grow(&mut self, end: usize) {
        let len = end.max(self.bytes.len().saturating_mul(2)).max(4096);
        self.bytes.resize(len, 0);
    }

    /// Appends `src`.
    pub(super) fn extend_from_slice(&mut self, src: &[u8]) {
        // Nothing appended only when no memory could hold it (the allocator aborts first).
        let _ = self.push(src);
    }

    /// Appends `n` zeros.
    pub(super) fn zeros(&mut self, n: usize) {
        if let Some(dst) = self.room(n).and_then(|d| d.get_mut(..n)) {
            dst.fill(0);
            self.len += n;
        }
    }

    /// Appends the `n` bytes of `buf` at `at`; `None` (nothing appended) when `buf` does not
    /// hold them.
    #[inline(always)]
    pub(super) fn copy_from(&mut self, buf: &[u8], at: usize, n: usize) -> Option<()> {
        self.push(buf.get(at..)?.get(..n)?)
    }

    /// Appends `src` (a block, or a run of entries): on the usual path, one test of the room
    /// left and the copy.
    #[inline(always)]
    pub(super) fn push(&mut self, src: &[u8]) -> Option<()> {
        let (start, n) = (self.len, src.len());
        // Never fails (`len` and `n` are lengths of slices, at most `isize::MAX` each), and
        // tells the compiler that `start <= end`: one test of the room below, not two.
        let end = start.checked_add(n)?;
        let dst = match self.bytes.get_mut(start..end) {
            Some(dst) => dst,
            None => self.grown(n)?,
        };
        copy_inline(dst, src);
        self.len = end;
        Some(())
    }

    /// The `n` bytes after the staged ones, once the memory has grown to hold them (and a
    /// chunk's slack).
    #[cold]
    #[inline(never)]
    fn grown(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.len.checked_add(n)?;
        self.grow(end.checked_add(16)?);
        self.bytes.get_mut(self.len..end)
    }
}

/// Copies `src` to the start of `dst` (at least as long) in a few moves of known size that
/// overlap where the length is not a multiple: straight-line code, for the short copies of a
/// block or a run of entries, where a call per copy costs more than the copy (a loop of
/// 16-byte moves is turned back into that call by the compiler). Longer copies than
/// [`Staging::INLINE`] bytes go through `copy_from_slice` (a call, vectorised).
#[inline(always)]
fn copy_inline(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let Some(dst) = dst.get_mut(..n) else {
        return;
    };
    // Copies the `K` bytes at `at` (within `n`).
    fn mv<const K: usize>(dst: &mut [u8], src: &[u8], at: usize) {
        if let (Some(d), Some(s)) = (
            dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<K>()),
            src.get(at..).and_then(|s| s.first_chunk::<K>()),
        ) {
            *d = *s;
        }
    }
    // Short lengths first (a block, a run of a few entries): two compares for up to 32 bytes.
    if n <= 16 {
        if n >= 8 {
            mv::<8>(dst, src, 0);
            mv::<8>(dst, src, n - 8);
        } else if n >= 4 {
            mv::<4>(dst, src, 0);
            mv::<4>(dst, src, n - 4);
        } else if n > 0 {
            for at in [0, n / 2, n - 1] {
                mv::<1>(dst, src, at);
            }
        }
    } else if n <= 32 {
        mv::<16>(dst, src, 0);
        mv::<16>(dst, src, n - 16);
    } else if n <= 64 {
        mv::<32>(dst, src, 0);
        mv::<32>(dst, src, n - 32);
    } else if n <= 96 {
        // A few entries of ~30 bytes: three moves, not four.
        mv::<32>(dst, src, 0);
        mv::<32>(dst, src, 32);
        mv::<32>(dst, src, n - 32);
    } else if n <= Staging::INLINE {
        mv::<64>(dst, src, 0);
        mv::<64>(dst, src, n - 64);
    } else {
        dst.copy_from_slice(src);
    }
}

/// The memory of the output buffers handed out with earlier batches, reused for the next
/// batch once the caller has dropped them. A batch's arrays own their buffers (Arrow buffers
/// are reference-counted); the pool keeps one more reference to each, and takes a buffer back
/// as a vector ([`Buffer::into_vec`]) only when that reference is the last. Without it, every
/// batch asks the allocator for fresh memory, which it often takes from the kernel page by
/// page again, right after handing the last batch's back.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    /// (alignment of the element type, buffer), oldest first.
    kept: Vec<(usize, Buffer)>,
}

impl Pool {
    /// Buffers kept at most: a few batches' worth. Those the caller still holds cost nothing
    /// and go first when the pool is full.
    const KEPT: usize = 64;

    /// An empty vector with room for `n` values: the memory of the smallest kept buffer that
    /// fits and that nobody else holds, else new.
    pub(crate) fn vec<T: ArrowNativeType>(&mut self, n: usize) -> Vec<T> {
        let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
        let want = n.saturating_mul(size);
        let mut best: Option<(usize, usize)> = None;
        for (i, (a, b)) in self.kept.iter().enumerate() {
            let cap = b.capacity();
            if *a == align
                && cap >= want
                && cap % size == 0
                && best.is_none_or(|(_, c)| cap < c)
                && b.strong_count() == 1
            {
                best = Some((i, cap));
            }
        }
        if let Some((i, _)) = best {
            let (_, b) = self.kept.remove(i);
            if let Ok(mut v) = b.into_vec::<T>() {
                v.clear();
                v.reserve(n);
                return v;
            }
        }
        Vec::with_capacity(n)
    }

    /// Keeps a reference to `b`, an output buffer made from a `Vec<T>`.
    pub(crate) fn keep<T: ArrowNativeType>(&mut self, b: &Buffer) {
        if b.capacity() == 0 {
            return;
        }
        if self.kept.len() >= Self::KEPT {
            let held = self.kept.iter().position(|(_, b)| b.strong_count() > 1);
            self.kept.remove(held.unwrap_or(0));
        }
        self.kept.push((std::mem::align_of::<T>(), b.clone()));
    }

    /// A buffer over `v` (no copy), kept for reuse.
    pub(crate) fn buffer<T: ArrowNativeType>(&mut self, v: Vec<T>) -> Buffer {
        let b = Buffer::from_vec(v);
        self.keep::<T>(&b);
        b
    }
}

/// What cutting a batch needs besides the rows: the byte order, the count of text values that
/// took the Latin-1 fallback, and the pool the output buffers come from.
pub(super) struct Cut<'a> {
    pub(super) big: bool,
    pub(super) fallbacks: &'a mut u64,
    pub(super) pool: &'a mut Pool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_copies_every_length_exactly() {
        let buf: Vec<u8> = (0..512u32).map(|i| (i % 251) as u8).collect();
        let mut s = Staging::default();
        let mut want = Vec::new();
        // Lengths around every chunk size, from the middle and up to the end of the buffer.
        for n in (0..=40).chain([63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257]) {
            for at in [3, 512 - n] {
                s.copy_from(&buf, at, n).expect("in the buffer");
                want.extend_from_slice(&buf[at..at + n]);
            }
        }
        assert_eq!(s.rows(), &want[..]);
        // Past the end: nothing appended.
        assert!(s.copy_from(&buf, 506, 7).is_none());
        assert_eq!(s.len(), want.len());
        s.zeros(3);
        s.extend_from_slice(b"ab");
        want.extend_from_slice(b"\0\0\0ab");
        assert_eq!(s.rows(), &want[..]);
        s.truncate(4);
        assert_eq!(s.rows(), &want[..4]);
    }

    #[test]
    fn pool_reuses_only_what_the_caller_dropped() {
        let mut pool = Pool::default();
        let held = pool.buffer(vec![1u64; 100]);
        let dropped = pool.buffer(vec![2u64; 1000]);
        let dropped_at = dropped.as_ptr();
        drop(dropped);
        // The buffer still held is not handed out; the dropped one is, empty.
        let v = pool.vec::<u64>(500);
        assert_eq!((v.len(), v.as_ptr().cast::<u8>()), (0, dropped_at));
        assert!(v.capacity() >= 1000);
        // Nothing else fits: new memory.
        let w = pool.vec::<u64>(50);
        assert_ne!(w.as_ptr().cast::<u8>(), held.as_ptr());
        // A buffer of another element type's alignment is not taken for it.
        drop(pool.buffer(vec![0u8; 4096]));
        let x = pool.vec::<u64>(10);
        assert_eq!(x.capacity(), 10);
        assert_eq!(pool.vec::<u8>(10).capacity(), 4096);
        // The pool stays bounded.
        for _ in 0..2 * Pool::KEPT {
            pool.keep::<u64>(&held);
        }
        assert!(pool.kept.len() <= Pool::KEPT);
    }
}
