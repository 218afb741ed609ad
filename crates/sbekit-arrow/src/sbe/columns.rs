//! The column buffers of one table, grouped as the schema nests its blocks, groups and var
//! data: per block, the staged rows (each block's bytes) and its wire fields (leaves), each
//! gathered into a typed vector when the batch is cut. Filled by `walk.rs`, turned into arrays
//! by `arrays.rs`.

use super::*;

/// One wire field's raw values, gathered out of the staged rows when the batch is cut.
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
/// the block's staged rows until the batch is cut; then the whole column is gathered at once.
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

    /// The column's values out of `rows` staged rows of `stride` bytes each, one strided pass
    /// (the byte order decided once per column, not per value).
    pub(super) fn gather(&self, staged: &[u8], stride: usize, rows: usize, big: bool) -> Store {
        let (off, at) = (self.offset, stride);
        if self.fixed {
            // Common widths as constants: each value is a copy of known size, not a call.
            let v = match self.width {
                4 => fixed_column(staged, at, off, 4, rows),
                8 => fixed_column(staged, at, off, 8, rows),
                16 => fixed_column(staged, at, off, 16, rows),
                w => fixed_column(staged, at, off, w, rows),
            };
            return Store::Fixed(v, self.width);
        }
        match (self.width, big) {
            (1, _) => Store::W1(column::<1, u8>(staged, at, off, rows, |a| a[0])),
            (2, false) => Store::W2(column(staged, at, off, rows, u16::from_le_bytes)),
            (2, true) => Store::W2(column(staged, at, off, rows, u16::from_be_bytes)),
            (4, false) => Store::W4(column(staged, at, off, rows, u32::from_le_bytes)),
            (4, true) => Store::W4(column(staged, at, off, rows, u32::from_be_bytes)),
            (_, false) => Store::W8(column(staged, at, off, rows, u64::from_le_bytes)),
            (_, true) => Store::W8(column(staged, at, off, rows, u64::from_be_bytes)),
        }
    }
}

/// `rows` fixed arrays of `width` bytes at `offset` of each `stride`-byte row of `staged`.
#[inline(always)]
fn fixed_column(staged: &[u8], stride: usize, offset: usize, width: usize, rows: usize) -> Vec<u8> {
    let mut v = vec![0u8; rows.saturating_mul(width)];
    if width == 0 || stride == 0 {
        return v;
    }
    for (dst, row) in v.chunks_exact_mut(width).zip(staged.chunks_exact(stride)) {
        if let Some(src) = row.get(offset..offset + width) {
            dst.copy_from_slice(src);
        }
    }
    v
}

/// `rows` values of `N` bytes at `offset` of each `stride`-byte row of `staged`.
#[inline(always)]
fn column<const N: usize, T: Default>(
    staged: &[u8],
    stride: usize,
    offset: usize,
    rows: usize,
    read: impl Fn([u8; N]) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(rows);
    if stride == 0 {
        out.resize_with(rows, T::default);
        return out;
    }
    // The stride covers every leaf, so this never fails; checked once here, not per value.
    let Some(end) = offset.checked_add(N).filter(|&end| end <= stride) else {
        out.resize_with(rows, T::default);
        return out;
    };
    // A trusted-length iterator: one reservation, no capacity check per value.
    out.extend(
        staged
            .chunks_exact(stride)
            .take(rows)
            .map(|row| read(row[offset..end].try_into().unwrap_or([0; N]))),
    );
    out
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
/// `staged`: one copy per block, or per run of fixed-size group entries. Cutting the batch
/// gathers each leaf's column out of the staged rows in one strided pass.
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
    pub(super) staged: Vec<u8>,
    /// Some field is newer than version 0: `versions` holds each row's acting version.
    pub(super) gated: bool,
    pub(super) versions: Vec<u32>,
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
        BlockCols {
            leaves,
            nodes,
            groups,
            vars,
            required,
            rows: 0,
            stride,
            staged: Vec::new(),
            gated,
            versions: Vec::new(),
        }
    }

    /// True when the entries have no groups and no var data: a run of them is one copy.
    pub(super) fn is_fixed(&self) -> bool {
        self.groups.is_empty() && self.vars.is_empty()
    }

    pub(super) fn bytes(&self) -> usize {
        let own = self.staged.len() + self.versions.len() * 4;
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
        self.staged.truncate(rows.saturating_mul(self.stride));
        self.versions.truncate(rows);
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
