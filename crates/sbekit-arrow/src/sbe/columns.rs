//! The column buffers of one table: a typed vector per wire field (a leaf), grouped as the
//! schema nests its blocks, groups and var data. Filled by `walk.rs`, turned into arrays by
//! `arrays.rs`.

use super::*;

/// Where raw values are kept until the batch is finished: one typed vector per wire field.
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
    pub(super) fn for_field(ty: PrimitiveType, length: usize) -> Store {
        if length != 1 {
            return Store::Fixed(Vec::new(), ty.size().saturating_mul(length));
        }
        match ty.size() {
            1 => Store::W1(Vec::new()),
            2 => Store::W2(Vec::new()),
            4 => Store::W4(Vec::new()),
            _ => Store::W8(Vec::new()),
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match self {
            Store::W1(v) => v.len(),
            Store::W2(v) => v.len() * 2,
            Store::W4(v) => v.len() * 4,
            Store::W8(v) => v.len() * 8,
            Store::Fixed(v, _) => v.len(),
        }
    }

    /// Appends the zero value (for a field absent at the acting version; masked as null).
    pub(super) fn push_zero(&mut self) {
        match self {
            Store::W1(v) => v.push(0),
            Store::W2(v) => v.push(0),
            Store::W4(v) => v.push(0),
            Store::W8(v) => v.push(0),
            Store::Fixed(v, w) => v.resize(v.len() + *w, 0),
        }
    }

    pub(super) fn truncate(&mut self, rows: usize) {
        match self {
            Store::W1(v) => v.truncate(rows),
            Store::W2(v) => v.truncate(rows),
            Store::W4(v) => v.truncate(rows),
            Store::W8(v) => v.truncate(rows),
            Store::Fixed(v, w) => v.truncate(rows.saturating_mul(*w)),
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

/// One wire field of a block: where it is and where its values go.
#[derive(Debug)]
pub(super) struct Leaf {
    /// Offset from the start of the block.
    pub(super) offset: usize,
    pub(super) since: u32,
    pub(super) store: Store,
    /// Row validity, created the first time the field is absent (older acting version).
    pub(super) present: Option<BooleanBufferBuilder>,
}

impl Leaf {
    #[inline(always)]
    pub(super) fn push(&mut self, block: &[u8], big: bool) -> Option<()> {
        let b = block.get(self.offset..)?;
        match &mut self.store {
            Store::W1(v) => v.push(*b.first()?),
            Store::W2(v) => {
                let a = *b.first_chunk::<2>()?;
                v.push(if big {
                    u16::from_be_bytes(a)
                } else {
                    u16::from_le_bytes(a)
                })
            }
            Store::W4(v) => {
                let a = *b.first_chunk::<4>()?;
                v.push(if big {
                    u32::from_be_bytes(a)
                } else {
                    u32::from_le_bytes(a)
                })
            }
            Store::W8(v) => {
                let a = *b.first_chunk::<8>()?;
                v.push(if big {
                    u64::from_be_bytes(a)
                } else {
                    u64::from_le_bytes(a)
                })
            }
            Store::Fixed(v, w) => v.extend_from_slice(b.get(..*w)?),
        }
        if let Some(p) = &mut self.present {
            p.append(true);
        }
        Some(())
    }

    pub(super) fn push_absent(&mut self, rows: usize) {
        self.store.push_zero();
        let p = self.present.get_or_insert_with(|| {
            let mut b = BooleanBufferBuilder::new(rows + 1);
            b.append_n(rows, true);
            b
        });
        p.append(false);
    }

    pub(super) fn truncate(&mut self, rows: usize) {
        self.store.truncate(rows);
        if let Some(p) = &mut self.present {
            p.truncate(rows);
        }
    }

    /// Takes the values and validity out, leaving the leaf empty for the next batch.
    pub(super) fn take(&mut self) -> (Store, Option<NullBuffer>) {
        // The next batch is likely as large: allocate once instead of growing by doubling.
        let empty = match &self.store {
            Store::W1(v) => Store::W1(Vec::with_capacity(v.len())),
            Store::W2(v) => Store::W2(Vec::with_capacity(v.len())),
            Store::W4(v) => Store::W4(Vec::with_capacity(v.len())),
            Store::W8(v) => Store::W8(Vec::with_capacity(v.len())),
            Store::Fixed(v, w) => Store::Fixed(Vec::with_capacity(v.len()), *w),
        };
        let store = std::mem::replace(&mut self.store, empty);
        let nulls = self.present.take().map(|mut b| NullBuffer::new(b.finish()));
        (store, nulls)
    }
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
#[derive(Debug)]
pub(super) struct BlockCols {
    pub(super) leaves: Vec<Leaf>,
    pub(super) nodes: Vec<(String, Node)>,
    pub(super) groups: Vec<GroupCols>,
    pub(super) vars: Vec<VarCols>,
    pub(super) required: RequiredLengths,
    pub(super) rows: usize,
}

impl BlockCols {
    pub(super) fn bytes(&self) -> usize {
        let own: usize = self.leaves.iter().map(|l| l.store.bytes()).sum();
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
        for l in &mut self.leaves {
            l.truncate(rows);
        }
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
