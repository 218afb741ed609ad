//! Buffered values into Arrow arrays, column at a time: null values, enum names, set bits and
//! text are interpreted here, once per batch.

use super::*;
use arrow_array::builder::StringBuilder;

impl BlockCols {
    /// The Arrow fields of this block's columns.
    pub(super) fn fields(&self) -> Vec<Field> {
        let mut out: Vec<Field> = self
            .nodes
            .iter()
            .map(|(name, n)| Field::new(name, node_type(n), true))
            .collect();
        if out.is_empty() && self.groups.is_empty() && self.vars.is_empty() {
            // Parquet cannot store a struct without fields: an entry of constants only.
            out.push(Field::new("_present", DataType::Boolean, false));
        }
        for g in &self.groups {
            out.push(Field::new(&g.name, group_type(&g.body), true));
        }
        for v in &self.vars {
            let t = if v.text {
                DataType::Utf8
            } else {
                DataType::Binary
            };
            out.push(Field::new(&v.name, t, true));
        }
        out
    }

    /// Turns the buffered rows into arrays (one per field of [`Self::fields`]) and empties them;
    /// adds the text values that took the Latin-1 fallback to `fallbacks`.
    pub(super) fn finish(&mut self, cut: &mut Cut) -> Result<Vec<ArrayRef>, Error> {
        let rows = self.rows;
        // The rows still staged, then every column as gathered.
        self.gather_pending(cut.big, cut.pool);
        if self.gathered.len() != self.leaves.len() {
            // No rows in this batch.
            self.start_columns(0, cut.pool);
        }
        let mut gathered: Vec<Option<Gathered>> = std::mem::take(&mut self.gathered)
            .into_iter()
            .map(Some)
            .collect();
        let mut out = Vec::new();
        for (_, n) in &self.nodes {
            out.push(node_array(n, self, &mut gathered, cut)?);
        }
        // The next batch is likely as large: keep the room.
        self.staged.clear();
        self.versions.clear();
        if out.is_empty() && self.groups.is_empty() && self.vars.is_empty() {
            out.push(Arc::new(arrow_array::BooleanArray::from(vec![true; rows])) as ArrayRef);
        }
        for g in &mut self.groups {
            let offsets = std::mem::replace(&mut g.offsets, first_offset(rows, cut.pool));
            let offsets = rising_offsets(offsets, cut.pool)
                .ok_or_else(|| Error::Arrow(format!("group {}: falling offsets", g.name)))?;
            let child_fields = Fields::from(g.body.fields());
            let child_rows = g.body.rows;
            let children = g.body.finish(cut)?;
            let entries =
                StructArray::try_new_with_length(child_fields.clone(), children, None, child_rows)
                    .map_err(|e| Error::Arrow(format!("group {}: {e}", g.name)))?;
            let item = Arc::new(Field::new("item", DataType::Struct(child_fields), true));
            let list = ListArray::try_new(item, offsets, Arc::new(entries), None)
                .map_err(|e| Error::Arrow(format!("group {}: {e}", g.name)))?;
            out.push(Arc::new(list));
        }
        for v in &mut self.vars {
            let offsets = std::mem::replace(&mut v.offsets, first_offset(rows, cut.pool));
            let room = v.data.len();
            let data = std::mem::replace(&mut v.data, cut.pool.vec(room));
            out.push(var_array(v.text, v.encoding, offsets, data, cut)?);
        }
        self.last_rows = rows;
        self.rows = 0;
        self.done = 0;
        Ok(out)
    }
}

impl BlockCols {
    /// True when every staged row acts at a version that has `leaf`.
    fn everywhere(&self, leaf: &Leaf) -> bool {
        !self.gated || leaf.since == 0 || self.versions.iter().all(|&(_, v)| v >= leaf.since)
    }

    /// Gathers the staged rows of this block and of every group below it (see
    /// [`Self::gather_pending`]).
    pub(super) fn gather_all_pending(&mut self, big: bool, pool: &mut Pool) {
        self.gather_pending(big, pool);
        for g in &mut self.groups {
            g.body.gather_all_pending(big, pool);
        }
    }

    /// Empty columns (`gathered`) with room for `room` rows.
    fn start_columns(&mut self, room: usize, pool: &mut Pool) {
        let stride = self.stride;
        self.gathered = self
            .leaves
            .iter()
            .zip(&self.chars)
            .zip(&self.key_tables)
            .map(|((leaf, &is_chars), table)| {
                if table.is_some() {
                    Gathered::Keys(TableKeys::new(pool.vec(room)))
                } else if is_chars && leaf.width > 0 && stride > 0 {
                    // 8 bytes of slack: values are stored as whole words (`extend8`).
                    let bytes = room.saturating_mul(leaf.width);
                    Gathered::Ascii(AsciiText::new(
                        pool.vec::<u8>(bytes + 8),
                        pool.vec::<i32>(room + 1),
                    ))
                } else {
                    Gathered::Store(leaf.store(room, pool))
                }
            })
            .collect();
    }

    /// Appends every leaf's values in the staged rows to its column (`gathered`) and empties
    /// the staging, a tile of [`TILE_BYTES`] at a time: each tile is read from memory once and
    /// stays in L1 while every column takes its values from it. Called every few hundred
    /// messages, so that the staging stays small. Char arrays are gathered as ASCII text, cut
    /// and packed straight from the rows; from the first tile that is not all ASCII on, the
    /// column holds raw values again (those so far rebuilt from the text), for the general
    /// path, which keeps text valid in its encoding and maps the rest.
    pub(super) fn gather_pending(&mut self, big: bool, pool: &mut Pool) {
        let (rows, stride) = (self.rows, self.stride);
        if rows <= self.done {
            return;
        }
        if self.gathered.len() != self.leaves.len() {
            // The batch's first gather: room for as many rows as the last batch held.
            self.start_columns(self.last_rows.max(rows), pool);
        }
        // Each row a whole chunk for the gathers.
        self.staged.pad(stride);
        let staged = self.staged.padded();
        let mut first = 0;
        let pending = rows - self.done;
        // Whole rows, at least one, however wide.
        let tile = (TILE_BYTES / stride.max(1)).max(1);
        while first < pending {
            let n = tile.min(pending - first);
            let tile = staged.get(first * stride..).unwrap_or_default();
            let tables = self.key_tables.iter();
            for ((leaf, g), table) in self.leaves.iter().zip(self.gathered.iter_mut()).zip(tables) {
                let text = match (&mut *g, table) {
                    (Gathered::Store(s), _) => {
                        s.extend_rows(leaf.offset, tile, stride, n, big);
                        continue;
                    }
                    (Gathered::Keys(keys), Some(table)) => {
                        keys.extend(table, tile, stride, leaf.offset, n);
                        continue;
                    }
                    // Keys without their table (never: both come from `key_tables`): null.
                    (Gathered::Keys(keys), None) => {
                        keys.nulls(n);
                        continue;
                    }
                    (Gathered::Ascii(text), _) => text,
                };
                let (at, before) = (leaf.offset, text.len());
                // Common widths as constants: each value a copy of known size.
                let ascii = match leaf.width {
                    4 => ascii_from_rows(tile, stride, at, 4, n, text),
                    8 => ascii_from_rows(tile, stride, at, 8, n, text),
                    16 => ascii_from_rows(tile, stride, at, 16, n, text),
                    w => ascii_from_rows(tile, stride, at, w, n, text),
                };
                if !ascii {
                    let fixed = std::mem::replace(text, AsciiText::new(Vec::new(), Vec::new()))
                        .into_fixed(leaf.width, before);
                    let mut store = Store::Fixed(fixed, leaf.width);
                    store.extend_rows(at, tile, stride, n, big);
                    *g = Gathered::Store(store);
                }
            }
            first += n;
        }
        self.staged.clear();
        self.done = rows;
    }

    /// A leaf's gathered values and its validity: null (and zero) in rows whose acting
    /// version is older than the field.
    fn gate(&self, leaf: &Leaf, mut store: Store) -> (Store, Option<NullBuffer>) {
        if !self.gated || leaf.since == 0 {
            return (store, None);
        }
        let since = leaf.since;
        if self.versions.iter().all(|&(_, v)| v >= since) {
            return (store, None);
        }
        let mut present = BooleanBufferBuilder::new(self.rows);
        for (k, &(first, v)) in self.versions.iter().enumerate() {
            let end = self
                .versions
                .get(k + 1)
                .map_or(self.rows, |&(next, _)| next);
            present.append_n(end.saturating_sub(first), v >= since);
            if v < since {
                (first..end).for_each(|i| store.zero(i));
            }
        }
        (store, Some(NullBuffer::new(present.finish())))
    }
}

/// Bytes of staged rows per tile of [`BlockCols::gather_pending`]: well within L1, and as
/// many rows as fit, so that each column's call (its set-up, ~100 instructions) is spread
/// over as many values as it can be.
const TILE_BYTES: usize = 16 * 1024;

/// A leaf's column gathered out of the staged rows.
#[derive(Debug)]
pub(super) enum Gathered {
    /// Its raw values.
    Store(Store),
    /// A char array's values, all ASCII so far, as text.
    Ascii(AsciiText),
    /// A one-byte enum's values as dictionary keys, through its [`KeyTable`].
    Keys(TableKeys),
}

/// The key tables of the one-byte enums in `n` present at every version (`since` 0): those
/// leaves are gathered as keys. Others (wider, or absent in some rows) stay raw values.
pub(super) fn mark_keys(n: &Node, leaves: &[Leaf], tables: &mut [Option<Box<KeyTable>>]) {
    match n {
        Node::Struct { fields } => fields
            .iter()
            .for_each(|(_, f)| mark_keys(f, leaves, tables)),
        Node::Leaf {
            leaf,
            kind: LeafKind::Enum { bits, null, .. },
        } => {
            let plain = leaves
                .get(*leaf)
                .is_some_and(|l| l.width == 1 && l.since == 0);
            if let (true, Some(t)) = (plain, tables.get_mut(*leaf)) {
                *t = Some(KeyTable::new(bits, *null));
            }
        }
        Node::Leaf { .. } => {}
    }
}

/// Marks the leaves of the char-array columns in `n`.
pub(super) fn mark_chars(n: &Node, chars: &mut [bool]) {
    match n {
        Node::Struct { fields } => fields.iter().for_each(|(_, f)| mark_chars(f, chars)),
        Node::Leaf {
            leaf,
            kind: LeafKind::Chars { .. },
        } => {
            if let Some(c) = chars.get_mut(*leaf) {
                *c = true;
            }
        }
        Node::Leaf { .. } => {}
    }
}

/// A fresh offsets vector (its first offset) with room for `rows` more: the next batch is
/// likely as large.
fn first_offset(rows: usize, pool: &mut Pool) -> Vec<i32> {
    let mut v = pool.vec(rows + 1);
    v.push(0);
    v
}

pub(super) fn group_type(body: &BlockCols) -> DataType {
    DataType::List(Arc::new(Field::new(
        "item",
        DataType::Struct(Fields::from(body.fields())),
        true,
    )))
}

pub(super) fn node_type(n: &Node) -> DataType {
    match n {
        Node::Struct { fields } => DataType::Struct(
            fields
                .iter()
                .map(|(name, n)| Field::new(name, node_type(n), true))
                .collect(),
        ),
        Node::Leaf { kind, .. } => match kind {
            LeafKind::Int { ty, .. } => int_type(*ty),
            LeafKind::Float { ty, .. } => {
                if *ty == PrimitiveType::Float {
                    DataType::Float32
                } else {
                    DataType::Float64
                }
            }
            LeafKind::Char { .. } | LeafKind::Chars { .. } => DataType::Utf8,
            LeafKind::Array { ty, length } => DataType::FixedSizeList(
                Arc::new(Field::new("item", scalar_type(*ty), true)),
                i32::try_from(*length).unwrap_or(i32::MAX),
            ),
            LeafKind::Enum { .. } => {
                DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
            }
            LeafKind::Set { choices } => DataType::Struct(
                choices
                    .iter()
                    .map(|(name, _)| Field::new(name, DataType::Boolean, true))
                    .collect(),
            ),
        },
    }
}

pub(super) fn int_type(ty: PrimitiveType) -> DataType {
    match ty {
        PrimitiveType::Int8 => DataType::Int8,
        PrimitiveType::Int16 => DataType::Int16,
        PrimitiveType::Int32 => DataType::Int32,
        PrimitiveType::Int64 => DataType::Int64,
        PrimitiveType::Uint8 => DataType::UInt8,
        PrimitiveType::Uint16 => DataType::UInt16,
        PrimitiveType::Uint32 => DataType::UInt32,
        _ => DataType::UInt64,
    }
}

pub(super) fn scalar_type(ty: PrimitiveType) -> DataType {
    match ty {
        PrimitiveType::Float => DataType::Float32,
        PrimitiveType::Double => DataType::Float64,
        PrimitiveType::Char => DataType::UInt8,
        t => int_type(t),
    }
}

/// A primitive array over a typed vector, without copying; the vector's memory goes back to
/// `pool` when the caller drops the array.
pub(super) fn prim<T: ArrowPrimitiveType, S: arrow_buffer::ArrowNativeType>(
    v: Vec<S>,
    nulls: Option<NullBuffer>,
    pool: &mut Pool,
) -> ArrayRef {
    let len = v.len();
    let buffer = pool.buffer(v);
    let values = ScalarBuffer::<T::Native>::new(buffer, 0, len);
    Arc::new(PrimitiveArray::<T>::new(values, nulls))
}

/// Merges "absent" validity with value-based nulls (`is_null(i)`).
pub(super) fn nulls_where(
    rows: usize,
    absent: Option<NullBuffer>,
    mut is_null: impl FnMut(usize) -> bool,
) -> Option<NullBuffer> {
    // Packed 64 rows at a time; the absent rows are masked out after, word by word.
    let valid = BooleanBuffer::collect_bool(rows, |i| !is_null(i));
    with_absent(valid, absent)
}

/// `valid` without the rows of `absent` (a mask of as many rows), as a null buffer if any
/// row is null.
fn with_absent(valid: BooleanBuffer, absent: Option<NullBuffer>) -> Option<NullBuffer> {
    let valid = match absent {
        Some(a) => &valid & &a.inner().slice(0, valid.len()),
        None => valid,
    };
    (valid.count_set_bits() < valid.len()).then(|| NullBuffer::new(valid))
}

/// A var-data column: raw bytes, or text by the rule of [`sbekit_otf::text`] (the one
/// `sbekit decode` prints by), each value judged on its own bytes. The fallbacks are counted.
pub(super) fn var_array(
    is_text: bool,
    encoding: Encoding,
    offsets: Vec<i32>,
    data: Vec<u8>,
    cut: &mut Cut,
) -> Result<ArrayRef, Error> {
    let offs = rising_offsets(offsets, cut.pool)
        .ok_or_else(|| Error::Arrow("var data: falling offsets".into()))?;
    if !is_text {
        return Ok(Arc::new(BinaryArray::new(
            offs,
            cut.pool.buffer(data),
            None,
        )));
    }
    let value = |w: &[i32]| {
        usize::try_from(w[0])
            .ok()
            .zip(usize::try_from(w[1]).ok())
            .and_then(|(a, b)| data.get(a..b))
            .unwrap_or_default()
    };
    // Each value, not only the concatenation, must be valid: a value may end inside a
    // multi-byte sequence that the next one completes.
    if offs.windows(2).all(|w| encoding.kept_as_is(value(w))) {
        return StringArray::try_new(offs, cut.pool.buffer(data), None)
            .map(|a| Arc::new(a) as ArrayRef)
            .map_err(|e| Error::Arrow(e.to_string()));
    }
    let mut b = arrow_array::builder::StringBuilder::with_capacity(offs.len(), data.len() * 2);
    for w in offs.windows(2) {
        let t = sbekit_otf::text::decode(value(w), encoding);
        *cut.fallbacks += u64::from(t.fallback);
        b.append_value(t.text);
    }
    Ok(Arc::new(b.finish()))
}

/// The array of one column of `block`'s staged rows.
pub(super) fn node_array(
    n: &Node,
    block: &BlockCols,
    gathered: &mut [Option<Gathered>],
    cut: &mut Cut,
) -> Result<ArrayRef, Error> {
    let rows = block.rows;
    match n {
        Node::Struct { fields } => {
            let mut arrays = Vec::with_capacity(fields.len());
            let mut fs = Vec::with_capacity(fields.len());
            for (name, child) in fields {
                fs.push(Field::new(name, node_type(child), true));
                arrays.push(node_array(child, block, gathered, cut)?);
            }
            StructArray::try_new_with_length(fs.into(), arrays, None, rows)
                .map(|a| Arc::new(a) as ArrayRef)
                .map_err(|e| Error::Arrow(e.to_string()))
        }
        Node::Leaf { leaf: at, kind } => {
            let leaf = block
                .leaves
                .get(*at)
                .ok_or_else(|| Error::Arrow("column without its field".into()))?;
            let (store, absent) = match gathered.get_mut(*at).and_then(Option::take) {
                // Usually every value of a char array is ASCII: cut and packed already.
                Some(Gathered::Ascii(text)) if text.len() == rows && block.everywhere(leaf) => {
                    return Ok(text.finish(cut.pool));
                }
                // Some row acts at a version without the field: raw values, to be nulled.
                Some(Gathered::Ascii(text)) => {
                    let fixed = text.into_fixed(leaf.width, rows);
                    block.gate(leaf, Store::Fixed(fixed, leaf.width))
                }
                Some(Gathered::Store(store)) => block.gate(leaf, store),
                // A one-byte enum present in every row: its keys, gathered already.
                Some(Gathered::Keys(keys)) => return keys_array(kind, keys, cut),
                None => return Err(Error::Arrow("column not gathered".into())),
            };
            leaf_array(kind, store, absent, rows, cut)
        }
    }
}

pub(super) fn leaf_array(
    kind: &LeafKind,
    store: Store,
    absent: Option<NullBuffer>,
    rows: usize,
    cut: &mut Cut,
) -> Result<ArrayRef, Error> {
    let (big, pool) = (cut.big, &mut *cut.pool);
    Ok(match kind {
        LeafKind::Int { ty, null } => {
            let nulls = match null {
                Some(nb) => match &store {
                    Store::W1(v) => value_nulls(v, *nb as u8, absent),
                    Store::W2(v) => value_nulls(v, *nb as u16, absent),
                    Store::W4(v) => value_nulls(v, *nb as u32, absent),
                    Store::W8(v) => value_nulls(v, *nb, absent),
                    Store::Fixed(..) => absent,
                },
                None => absent,
            };
            match (ty, store) {
                (PrimitiveType::Int8, Store::W1(v)) => prim::<Int8Type, u8>(v, nulls, pool),
                (PrimitiveType::Uint8, Store::W1(v)) => prim::<UInt8Type, u8>(v, nulls, pool),
                (PrimitiveType::Int16, Store::W2(v)) => prim::<Int16Type, u16>(v, nulls, pool),
                (PrimitiveType::Uint16, Store::W2(v)) => prim::<UInt16Type, u16>(v, nulls, pool),
                (PrimitiveType::Int32, Store::W4(v)) => prim::<Int32Type, u32>(v, nulls, pool),
                (PrimitiveType::Uint32, Store::W4(v)) => prim::<UInt32Type, u32>(v, nulls, pool),
                (PrimitiveType::Int64, Store::W8(v)) => prim::<Int64Type, u64>(v, nulls, pool),
                (PrimitiveType::Uint64, Store::W8(v)) => prim::<UInt64Type, u64>(v, nulls, pool),
                _ => return Err(Error::Arrow("integer column of the wrong width".into())),
            }
        }
        LeafKind::Float { ty, optional } => {
            let nulls = if *optional {
                nulls_where(rows, absent, |i| match ty {
                    PrimitiveType::Float => f32::from_bits(store.get(i) as u32).is_nan(),
                    _ => f64::from_bits(store.get(i)).is_nan(),
                })
            } else {
                absent
            };
            match store {
                Store::W4(v) => prim::<Float32Type, u32>(v, nulls, pool),
                Store::W8(v) => prim::<Float64Type, u64>(v, nulls, pool),
                _ => return Err(Error::Arrow("float column of the wrong width".into())),
            }
        }
        LeafKind::Char { null, encoding } => {
            let Store::W1(v) = &store else {
                return Err(Error::Arrow("char column of the wrong width".into()));
            };
            let nulls = match null {
                Some(nb) => nulls_where(rows, absent, |i| v[i] == *nb),
                None => absent,
            };
            let mut b = StringBuilder::with_capacity(rows, rows);
            let mut scratch = String::new();
            for (i, c) in v.iter().enumerate() {
                if nulls.as_ref().is_none_or(|n| n.is_valid(i)) {
                    let text = std::slice::from_ref(c);
                    *cut.fallbacks += u64::from(append_text(&mut b, &mut scratch, text, *encoding));
                } else {
                    b.append_null();
                }
            }
            Arc::new(b.finish())
        }
        LeafKind::Chars { encoding } => {
            let Store::Fixed(mut v, w) = store else {
                return Err(Error::Arrow("char array column of the wrong shape".into()));
            };
            // Usually every value is already its string (ASCII, valid UTF-8): the values are
            // moved into place in their own buffer, no mapping, no second buffer.
            if all_kept(&v, w, *encoding) {
                if i32::try_from(v.len()).is_err() {
                    return Err(Error::Arrow("char array column over 2 GiB".into()));
                }
                let mut offsets = pool.vec(rows + 1);
                match w {
                    4 => compact_chars(&mut v, 4, &mut offsets),
                    8 => compact_chars(&mut v, 8, &mut offsets),
                    16 => compact_chars(&mut v, 16, &mut offsets),
                    w => compact_chars(&mut v, w, &mut offsets),
                }
                return string_array(offsets, v, absent, pool);
            }
            // Some value is not: each is appended as its string, mapped where it must be.
            let mut b = StringBuilder::with_capacity(rows, v.len().saturating_mul(2));
            let mut scratch = String::new();
            for i in 0..rows {
                let value = v.get(i * w..(i + 1) * w).unwrap_or_default();
                if absent.as_ref().is_none_or(|n| n.is_valid(i)) {
                    let text = value.get(..nul_cut(value)).unwrap_or_default();
                    *cut.fallbacks += u64::from(append_text(&mut b, &mut scratch, text, *encoding));
                } else {
                    b.append_null();
                }
            }
            Arc::new(b.finish())
        }
        LeafKind::Array { ty, length } => {
            let Store::Fixed(v, _) = store else {
                return Err(Error::Arrow("array column of the wrong shape".into()));
            };
            // Elements in the schema's byte order, each decoded to a native value.
            macro_rules! elems {
                ($t:ty, $n:literal, $arrow:ty) => {{
                    let vals: Vec<$t> = v
                        .chunks_exact($n)
                        .map(|c| {
                            let a: [u8; $n] = c.try_into().unwrap_or([0; $n]);
                            if big {
                                <$t>::from_be_bytes(a)
                            } else {
                                <$t>::from_le_bytes(a)
                            }
                        })
                        .collect();
                    Arc::new(PrimitiveArray::<$arrow>::from(vals)) as ArrayRef
                }};
            }
            let values: ArrayRef = match ty {
                PrimitiveType::Int8 => elems!(i8, 1, Int8Type),
                PrimitiveType::Uint8 | PrimitiveType::Char => elems!(u8, 1, UInt8Type),
                PrimitiveType::Int16 => elems!(i16, 2, Int16Type),
                PrimitiveType::Uint16 => elems!(u16, 2, UInt16Type),
                PrimitiveType::Int32 => elems!(i32, 4, Int32Type),
                PrimitiveType::Uint32 => elems!(u32, 4, UInt32Type),
                PrimitiveType::Int64 => elems!(i64, 8, Int64Type),
                PrimitiveType::Uint64 => elems!(u64, 8, UInt64Type),
                PrimitiveType::Float => elems!(f32, 4, Float32Type),
                _ => elems!(f64, 8, Float64Type),
            };
            let field = Arc::new(Field::new("item", scalar_type(*ty), true));
            let len = i32::try_from(*length).unwrap_or(i32::MAX);
            Arc::new(
                FixedSizeListArray::try_new(field, len, values, absent)
                    .map_err(|e| Error::Arrow(e.to_string()))?,
            )
        }
        LeafKind::Enum { .. } => {
            let mut keys = EnumKeys::of(kind, pool.vec(rows))?;
            match &store {
                Store::W1(v) => keys.extend(v, absent.as_ref()),
                Store::W2(v) => keys.extend(v, absent.as_ref()),
                Store::W4(v) => keys.extend(v, absent.as_ref()),
                Store::W8(v) => keys.extend(v, absent.as_ref()),
                Store::Fixed(..) => return Err(Error::Arrow("enum column of an array".into())),
            }
            keys.into_array(pool)?
        }
        LeafKind::Set { choices } => {
            let mut arrays: Vec<ArrayRef> = Vec::with_capacity(choices.len());
            for (_, bit) in choices {
                let vals = match &store {
                    Store::W1(v) => bit_column(v, *bit),
                    Store::W2(v) => bit_column(v, *bit),
                    Store::W4(v) => bit_column(v, *bit),
                    Store::W8(v) => bit_column(v, *bit),
                    Store::Fixed(..) => return Err(Error::Arrow("set column of an array".into())),
                };
                arrays.push(Arc::new(arrow_array::BooleanArray::new(
                    vals,
                    absent.clone(),
                )));
            }
            let fs: Fields = choices
                .iter()
                .map(|(n, _)| Field::new(n, DataType::Boolean, true))
                .collect();
            Arc::new(
                StructArray::try_new_with_length(fs, arrays, absent, rows)
                    .map_err(|e| Error::Arrow(e.to_string()))?,
            )
        }
    })
}

/// The dictionary array of a one-byte enum's keys gathered through its [`KeyTable`]: the
/// keys of values the enum does not list become entries of their own, the null value's
/// keys null.
fn keys_array(kind: &LeafKind, keys: TableKeys, cut: &mut Cut) -> Result<ArrayRef, Error> {
    let LeafKind::Enum { names, .. } = kind else {
        return Err(Error::Arrow("keys of a column that is not an enum".into()));
    };
    // Usually every value is listed: the keys are the dictionary's as they are.
    let keys = match listed_dictionary(keys, names, cut.pool) {
        Ok(array) => return Ok(array),
        Err(keys) => keys,
    };
    let mut keys = EnumKeys::of(kind, keys)?;
    keys.resolve(0);
    keys.into_array(cut.pool)
}

pub(super) fn sign_extend(raw: u64, width: usize) -> i64 {
    let shift = 64 - 8 * width.clamp(1, 8) as u32;
    ((raw << shift) as i64) >> shift
}

/// Null where the raw value is the field's null value (or the field is absent); `absent`
/// unchanged when no value is null, which one vectorised scan decides.
fn value_nulls<T: Copy + PartialEq>(
    values: &[T],
    null: T,
    absent: Option<NullBuffer>,
) -> Option<NullBuffer> {
    if !values.contains(&null) {
        return absent;
    }
    // Whole words of 64 values, each compared without a bounds check or a look at `absent`
    // (`nulls_where`'s closure did both per value).
    let mut words: Vec<u64> = Vec::with_capacity(values.len().div_ceil(64));
    let word = |c: &[T]| {
        c.iter()
            .enumerate()
            .fold(0u64, |w, (i, v)| w | (u64::from(*v != null) << i))
            .to_le()
    };
    let mut chunks = values.chunks_exact(64);
    words.extend((&mut chunks).map(word));
    if !chunks.remainder().is_empty() {
        words.push(word(chunks.remainder()));
    }
    let valid = BooleanBuffer::new(arrow_buffer::Buffer::from_vec(words), 0, values.len());
    with_absent(valid, absent)
}

/// One choice of a set column: bit `bit` of each value.
fn bit_column<T: Copy + Into<u64>>(values: &[T], bit: u32) -> BooleanBuffer {
    BooleanBuffer::collect_bool(values.len(), |i| {
        values
            .get(i)
            .is_some_and(|&v| v.into().checked_shr(bit).unwrap_or(0) & 1 == 1)
    })
}

/// True when some key may be below -1 (a value the table does not list): never false when
/// one is, and false for keys from -1 to `i32::MAX - 1`. One branch-free pass (the sign of
/// each key plus one, ORed), which the compiler vectorises, where `any` stops at each key.
fn any_below_null(keys: &[i32]) -> bool {
    keys.iter().fold(0i32, |acc, &k| acc | k.wrapping_add(1)) < 0
}

/// Dictionary keys of an enum column: known values by their position, unknown ones as
/// entries of their own (their number), the null value and absent rows as null.
struct EnumKeys<'a> {
    bits: &'a [u64],
    dict: Vec<String>,
    unknown: HashMap<u64, i32>,
    null: u64,
    signed_width: Option<usize>,
    keys: Vec<i32>,
}

impl<'a> EnumKeys<'a> {
    /// The keys of the enum column `kind`, starting as `keys`; an error for any other kind.
    fn of(kind: &'a LeafKind, keys: Vec<i32>) -> Result<EnumKeys<'a>, Error> {
        let LeafKind::Enum {
            bits,
            names,
            null,
            signed_width,
        } = kind
        else {
            return Err(Error::Arrow(
                "enum keys of a column that is not an enum".into(),
            ));
        };
        Ok(EnumKeys {
            bits,
            dict: names.clone(),
            unknown: HashMap::new(),
            null: *null,
            signed_width: *signed_width,
            keys,
        })
    }

    /// Appends the keys of `values`; null rows get the key -1 until [`Self::finish`].
    fn extend<T: Copy + Into<u64>>(&mut self, values: &[T], absent: Option<&NullBuffer>) {
        // Values below 256 (every u8 enum, most others) by a table, those above as unknown
        // (-2 less the value, which they are not) and fixed below.
        let table = KeyTable::new(self.bits, self.null);
        let start = self.keys.len();
        // Every value through the table first (a trusted-length map, no call, no branch per
        // value), then the few it does not hold (one vectorised scan finds whether any).
        self.keys.extend(values.iter().map(|&v| {
            let raw: u64 = v.into();
            table.key(raw).unwrap_or(-2)
        }));
        if any_below_null(self.keys.get(start..).unwrap_or_default()) {
            for (i, &v) in values.iter().enumerate() {
                if self.keys[start + i] < -1 {
                    self.keys[start + i] = self.slow_key(v.into());
                }
            }
        }
        if let Some(absent) = absent {
            for (k, valid) in self.keys[start..].iter_mut().zip(absent.iter()) {
                if !valid {
                    *k = -1;
                }
            }
        }
    }

    /// Turns the keys from `start` on that a [`KeyTable`] gave a value it does not list
    /// (`-2 - raw`) into that value's own entry (one vectorised scan finds whether any).
    fn resolve(&mut self, start: usize) {
        if !any_below_null(self.keys.get(start..).unwrap_or_default()) {
            return;
        }
        for i in start..self.keys.len() {
            if let Some(&k) = self.keys.get(i).filter(|&&k| k < -1) {
                let raw = (-2i64 - i64::from(k)) as u64;
                self.keys[i] = self.unknown_key(raw);
            }
        }
    }

    /// The dictionary array of the keys.
    fn into_array(self, pool: &mut Pool) -> Result<ArrayRef, Error> {
        let (keys, nulls, dict) = self.finish();
        let keys_array = PrimitiveArray::<Int32Type>::new(pool.buffer(keys).into(), nulls);
        let values: ArrayRef = Arc::new(StringArray::from(dict));
        Ok(match dictionary(keys_array.clone(), values.clone()) {
            Some(d) => Arc::new(d),
            None => Arc::new(
                DictionaryArray::<Int32Type>::try_new(keys_array, values)
                    .map_err(|e| Error::Arrow(e.to_string()))?,
            ),
        })
    }

    /// A value the table does not hold: the null value, a known value above 255, or unknown.
    #[cold]
    fn slow_key(&mut self, raw: u64) -> i32 {
        if raw == self.null {
            -1
        } else if let Some(k) = self.bits.iter().position(|&b| b == raw) {
            k as i32
        } else {
            self.unknown_key(raw)
        }
    }

    /// The keys and their validity (null rows' keys become 0).
    fn finish(mut self) -> (Vec<i32>, Option<NullBuffer>, Vec<String>) {
        if !self.keys.contains(&-1) {
            return (self.keys, None, self.dict);
        }
        let valid: NullBuffer = self
            .keys
            .iter()
            .map(|&k| k >= 0)
            .collect::<Vec<bool>>()
            .into();
        for k in &mut self.keys {
            *k = (*k).max(0);
        }
        (self.keys, Some(valid), self.dict)
    }

    /// An unknown value is kept as its number, a dictionary entry of its own.
    #[cold]
    fn unknown_key(&mut self, raw: u64) -> i32 {
        let next = self.dict.len() as i32;
        let (dict, width) = (&mut self.dict, self.signed_width);
        *self.unknown.entry(raw).or_insert_with(|| {
            let shown = match width {
                Some(w) => sign_extend(raw, w).to_string(),
                None => raw.to_string(),
            };
            dict.push(shown);
            next
        })
    }
}

#[cfg(test)]
mod tests;
