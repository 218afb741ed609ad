//! Any SBE stream to Arrow: a columnar decode plan compiled from the layout model.
//!
//! [`SbeColumns::new`] compiles a [`Layout`] into one Arrow schema and one set of column
//! buffers per message template. [`SbeColumns::append`] decodes one message straight into
//! those buffers: each wire field is one bounds-checked load pushed onto a typed vector; the
//! interpretation (null values, enum names, set bits, text) happens once per batch, column at
//! a time, when [`SbeColumns::flush`] or the batch size turns the buffers into
//! [`RecordBatch`]es. See the crate documentation for the mapping of each construct.

use crate::Error;
use arrow_array::builder::BooleanBufferBuilder;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, TimestampNanosecondType,
    UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, DictionaryArray, FixedSizeListArray, ListArray,
    PrimitiveArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use sbekit_ir::layout::{Block, Field as LField, FieldKind, IntSlot, Layout};
use sbekit_ir::wire::{
    self, take, truncated, Be, DimensionSlots, EntryBudget, GroupHeader, Le, RequiredLengths,
    VarDataSlots,
};
use sbekit_ir::{ByteOrder, PrimitiveType};
use sbekit_otf::text::Encoding;
use sbekit_otf::{DecodeError, ErrorKind, Limits};
use std::collections::HashMap;
use std::sync::Arc;

/// How batches are cut and how much work one message may ask for.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Messages per RecordBatch (a table's batch is cut when it reaches this many rows).
    pub batch_rows: usize,
    /// A table's batch is also cut when its buffers hold this many bytes (bounds memory when
    /// messages carry large groups or var data).
    pub batch_bytes: usize,
    /// Bounds on entries of empty-block groups per message (hostile counts), shared with the
    /// OTF decoder.
    pub limits: Limits,
    /// Add a `_timestamp` column (`Timestamp(ns, UTC)`) filled from [`SbeColumns::append`]'s
    /// timestamp argument (a framing's or capture's time; null when not given).
    pub timestamp: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_rows: 65_536,
            batch_bytes: 64 << 20,
            limits: Limits::default(),
            timestamp: false,
        }
    }
}

/// Names of the header columns every message table starts with.
pub const HEADER_COLUMNS: [&str; 5] = [
    "_template_id",
    "_schema_id",
    "_acting_version",
    "_block_length",
    "_offset",
];

/// Where raw values are kept until the batch is finished: one typed vector per wire field.
#[derive(Debug)]
enum Store {
    W1(Vec<u8>),
    W2(Vec<u16>),
    W4(Vec<u32>),
    W8(Vec<u64>),
    /// Fixed arrays (char arrays, numeric arrays): `width` raw bytes per row.
    Fixed(Vec<u8>, usize),
}

impl Store {
    fn for_field(ty: PrimitiveType, length: usize) -> Store {
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

    fn bytes(&self) -> usize {
        match self {
            Store::W1(v) => v.len(),
            Store::W2(v) => v.len() * 2,
            Store::W4(v) => v.len() * 4,
            Store::W8(v) => v.len() * 8,
            Store::Fixed(v, _) => v.len(),
        }
    }

    /// Appends the zero value (for a field absent at the acting version; masked as null).
    fn push_zero(&mut self) {
        match self {
            Store::W1(v) => v.push(0),
            Store::W2(v) => v.push(0),
            Store::W4(v) => v.push(0),
            Store::W8(v) => v.push(0),
            Store::Fixed(v, w) => v.resize(v.len() + *w, 0),
        }
    }

    fn truncate(&mut self, rows: usize) {
        match self {
            Store::W1(v) => v.truncate(rows),
            Store::W2(v) => v.truncate(rows),
            Store::W4(v) => v.truncate(rows),
            Store::W8(v) => v.truncate(rows),
            Store::Fixed(v, w) => v.truncate(rows.saturating_mul(*w)),
        }
    }

    /// The values as unsigned integers of the field's width (not for fixed arrays).
    fn get(&self, i: usize) -> u64 {
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
struct Leaf {
    /// Offset from the start of the block.
    offset: usize,
    since: u32,
    store: Store,
    /// Row validity, created the first time the field is absent (older acting version).
    present: Option<BooleanBufferBuilder>,
}

impl Leaf {
    #[inline(always)]
    fn push(&mut self, block: &[u8], big: bool) -> Option<()> {
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

    fn push_absent(&mut self, rows: usize) {
        self.store.push_zero();
        let p = self.present.get_or_insert_with(|| {
            let mut b = BooleanBufferBuilder::new(rows + 1);
            b.append_n(rows, true);
            b
        });
        p.append(false);
    }

    fn truncate(&mut self, rows: usize) {
        self.store.truncate(rows);
        if let Some(p) = &mut self.present {
            p.truncate(rows);
        }
    }

    /// Takes the values and validity out, leaving the leaf empty for the next batch.
    fn take(&mut self) -> (Store, Option<NullBuffer>) {
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
enum LeafKind {
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
enum Node {
    Leaf { leaf: usize, kind: LeafKind },
    Struct { fields: Vec<(String, Node)> },
}

#[derive(Debug)]
struct GroupCols {
    name: String,
    since: u32,
    dimension: DimensionSlots,
    /// Offsets into the entries, one more than the parent's rows.
    offsets: Vec<i32>,
    body: BlockCols,
}

#[derive(Debug)]
struct VarCols {
    name: String,
    since: u32,
    slots: VarDataSlots,
    text: bool,
    encoding: Encoding,
    offsets: Vec<i32>,
    data: Vec<u8>,
}

/// The columns of a root block or of a group's entries.
#[derive(Debug)]
struct BlockCols {
    leaves: Vec<Leaf>,
    nodes: Vec<(String, Node)>,
    groups: Vec<GroupCols>,
    vars: Vec<VarCols>,
    required: RequiredLengths,
    rows: usize,
}

/// Per-message decoding state.
struct Cx<'a> {
    buf: &'a [u8],
    version: u32,
    big: bool,
    /// Empty-block entries the message may still declare.
    budget: EntryBudget,
    /// Group entries decoded in this message, all levels.
    entries: u64,
}

fn err(offset: usize, path: &str, kind: ErrorKind) -> DecodeError {
    DecodeError {
        offset,
        path: path.to_string(),
        kind,
    }
}

fn within(mut e: DecodeError, prefix: &str) -> DecodeError {
    e.path = if e.path.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{}", e.path)
    };
    e
}

impl BlockCols {
    fn bytes(&self) -> usize {
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

    /// Decodes one block (its fields, groups and var data) at `start`; returns the offset past it.
    fn decode(
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

    /// Drops every row from `rows` on (a message that failed half-way).
    fn truncate(&mut self, rows: usize) {
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

    /// The Arrow fields of this block's columns.
    fn fields(&self) -> Vec<Field> {
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
    fn finish(&mut self, big: bool, fallbacks: &mut u64) -> Result<Vec<ArrayRef>, Error> {
        let rows = self.rows;
        let mut taken: Vec<Option<(Store, Option<NullBuffer>)>> =
            self.leaves.iter_mut().map(|l| Some(l.take())).collect();
        let mut out = Vec::new();
        for (_, n) in &self.nodes {
            out.push(node_array(n, &mut taken, rows, big, fallbacks)?);
        }
        if out.is_empty() && self.groups.is_empty() && self.vars.is_empty() {
            out.push(Arc::new(arrow_array::BooleanArray::from(vec![true; rows])) as ArrayRef);
        }
        for g in &mut self.groups {
            let offsets = std::mem::replace(&mut g.offsets, vec![0]);
            let child_fields = Fields::from(g.body.fields());
            let child_rows = g.body.rows;
            let children = g.body.finish(big, fallbacks)?;
            let entries =
                StructArray::try_new_with_length(child_fields.clone(), children, None, child_rows)
                    .map_err(|e| Error::Arrow(format!("group {}: {e}", g.name)))?;
            let item = Arc::new(Field::new("item", DataType::Struct(child_fields), true));
            let list = ListArray::try_new(
                item,
                OffsetBuffer::new(offsets.into()),
                Arc::new(entries),
                None,
            )
            .map_err(|e| Error::Arrow(format!("group {}: {e}", g.name)))?;
            out.push(Arc::new(list));
        }
        for v in &mut self.vars {
            let offsets = std::mem::replace(&mut v.offsets, vec![0]);
            let data = std::mem::take(&mut v.data);
            out.push(var_array(v.text, v.encoding, offsets, data, fallbacks)?);
        }
        self.rows = 0;
        Ok(out)
    }
}

impl GroupCols {
    fn decode(&mut self, cx: &mut Cx, pos: usize) -> Result<usize, DecodeError> {
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
    fn decode(&mut self, cx: &mut Cx, pos: usize) -> Result<usize, DecodeError> {
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

fn group_type(body: &BlockCols) -> DataType {
    DataType::List(Arc::new(Field::new(
        "item",
        DataType::Struct(Fields::from(body.fields())),
        true,
    )))
}

fn node_type(n: &Node) -> DataType {
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

fn int_type(ty: PrimitiveType) -> DataType {
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

fn scalar_type(ty: PrimitiveType) -> DataType {
    match ty {
        PrimitiveType::Float => DataType::Float32,
        PrimitiveType::Double => DataType::Float64,
        PrimitiveType::Char => DataType::UInt8,
        t => int_type(t),
    }
}

/// A primitive array over a typed vector, without copying.
fn prim<T: ArrowPrimitiveType, S: arrow_buffer::ArrowNativeType>(
    v: Vec<S>,
    nulls: Option<NullBuffer>,
) -> ArrayRef {
    let len = v.len();
    let buffer = Buffer::from_vec(v);
    let values = ScalarBuffer::<T::Native>::new(buffer, 0, len);
    Arc::new(PrimitiveArray::<T>::new(values, nulls))
}

/// Merges "absent" validity with value-based nulls (`is_null(i)`).
fn nulls_where(
    rows: usize,
    absent: Option<NullBuffer>,
    mut is_null: impl FnMut(usize) -> bool,
) -> Option<NullBuffer> {
    let mut b = BooleanBufferBuilder::new(rows);
    let mut any = false;
    for i in 0..rows {
        let valid = absent.as_ref().is_none_or(|n| n.is_valid(i)) && !is_null(i);
        any |= !valid;
        b.append(valid);
    }
    any.then(|| NullBuffer::new(b.finish()))
}

/// A var-data column: raw bytes, or text by the rule of [`sbekit_otf::text`] (the one
/// `sbekit decode` prints by), each value judged on its own bytes. The fallbacks are counted.
fn var_array(
    is_text: bool,
    encoding: Encoding,
    offsets: Vec<i32>,
    data: Vec<u8>,
    fallbacks: &mut u64,
) -> Result<ArrayRef, Error> {
    let offs = OffsetBuffer::new(ScalarBuffer::from(offsets));
    if !is_text {
        return Ok(Arc::new(BinaryArray::new(
            offs,
            Buffer::from_vec(data),
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
        return StringArray::try_new(offs, Buffer::from_vec(data), None)
            .map(|a| Arc::new(a) as ArrayRef)
            .map_err(|e| Error::Arrow(e.to_string()));
    }
    let mut b = arrow_array::builder::StringBuilder::with_capacity(offs.len(), data.len() * 2);
    for w in offs.windows(2) {
        let t = sbekit_otf::text::decode(value(w), encoding);
        *fallbacks += u64::from(t.fallback);
        b.append_value(t.text);
    }
    Ok(Arc::new(b.finish()))
}

fn node_array(
    n: &Node,
    taken: &mut [Option<(Store, Option<NullBuffer>)>],
    rows: usize,
    big: bool,
    fallbacks: &mut u64,
) -> Result<ArrayRef, Error> {
    match n {
        Node::Struct { fields } => {
            let mut arrays = Vec::with_capacity(fields.len());
            let mut fs = Vec::with_capacity(fields.len());
            for (name, child) in fields {
                fs.push(Field::new(name, node_type(child), true));
                arrays.push(node_array(child, taken, rows, big, fallbacks)?);
            }
            StructArray::try_new_with_length(fs.into(), arrays, None, rows)
                .map(|a| Arc::new(a) as ArrayRef)
                .map_err(|e| Error::Arrow(e.to_string()))
        }
        Node::Leaf { leaf, kind } => {
            let (store, absent) = taken
                .get_mut(*leaf)
                .and_then(Option::take)
                .ok_or_else(|| Error::Arrow("column used twice".into()))?;
            leaf_array(kind, store, absent, rows, big, fallbacks)
        }
    }
}

fn leaf_array(
    kind: &LeafKind,
    store: Store,
    absent: Option<NullBuffer>,
    rows: usize,
    big: bool,
    fallbacks: &mut u64,
) -> Result<ArrayRef, Error> {
    Ok(match kind {
        LeafKind::Int { ty, null } => {
            let nulls = match null {
                Some(nb) => nulls_where(rows, absent, |i| store.get(i) == *nb),
                None => absent,
            };
            match (ty, store) {
                (PrimitiveType::Int8, Store::W1(v)) => prim::<Int8Type, u8>(v, nulls),
                (PrimitiveType::Uint8, Store::W1(v)) => prim::<UInt8Type, u8>(v, nulls),
                (PrimitiveType::Int16, Store::W2(v)) => prim::<Int16Type, u16>(v, nulls),
                (PrimitiveType::Uint16, Store::W2(v)) => prim::<UInt16Type, u16>(v, nulls),
                (PrimitiveType::Int32, Store::W4(v)) => prim::<Int32Type, u32>(v, nulls),
                (PrimitiveType::Uint32, Store::W4(v)) => prim::<UInt32Type, u32>(v, nulls),
                (PrimitiveType::Int64, Store::W8(v)) => prim::<Int64Type, u64>(v, nulls),
                (PrimitiveType::Uint64, Store::W8(v)) => prim::<UInt64Type, u64>(v, nulls),
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
                Store::W4(v) => prim::<Float32Type, u32>(v, nulls),
                Store::W8(v) => prim::<Float64Type, u64>(v, nulls),
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
            let mut b = arrow_array::builder::StringBuilder::with_capacity(rows, rows);
            for i in 0..rows {
                match v.get(i) {
                    Some(c) if nulls.as_ref().is_none_or(|n| n.is_valid(i)) => {
                        let t = sbekit_otf::text::decode(std::slice::from_ref(c), *encoding);
                        *fallbacks += u64::from(t.fallback);
                        b.append_value(t.text);
                    }
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        LeafKind::Chars { encoding } => {
            let Store::Fixed(v, w) = &store else {
                return Err(Error::Arrow("char array column of the wrong shape".into()));
            };
            let mut b = arrow_array::builder::StringBuilder::with_capacity(rows, v.len());
            for i in 0..rows {
                let bytes = &v[i * w..(i + 1) * w];
                let bytes = bytes
                    .iter()
                    .position(|&c| c == 0)
                    .map_or(bytes, |end| &bytes[..end]);
                if absent.as_ref().is_none_or(|n| n.is_valid(i)) {
                    let t = sbekit_otf::text::decode(bytes, *encoding);
                    *fallbacks += u64::from(t.fallback);
                    b.append_value(t.text);
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
        LeafKind::Enum {
            bits,
            names,
            null,
            signed_width,
        } => {
            let mut dict: Vec<String> = names.clone();
            let mut unknown: HashMap<u64, i32> = HashMap::new();
            let mut keys: Vec<Option<i32>> = Vec::with_capacity(rows);
            for i in 0..rows {
                if absent.as_ref().is_some_and(|n| n.is_null(i)) {
                    keys.push(None);
                    continue;
                }
                let raw = store.get(i);
                if raw == *null {
                    keys.push(None);
                } else if let Some(k) = bits.iter().position(|&b| b == raw) {
                    keys.push(Some(k as i32));
                } else {
                    // An unknown value is kept as its number, a dictionary entry of its own.
                    let next = dict.len() as i32;
                    let k = *unknown.entry(raw).or_insert_with(|| {
                        let shown = match signed_width {
                            Some(w) => sign_extend(raw, *w).to_string(),
                            None => raw.to_string(),
                        };
                        dict.push(shown);
                        next
                    });
                    keys.push(Some(k));
                }
            }
            let keys = PrimitiveArray::<Int32Type>::from(keys);
            let values = Arc::new(StringArray::from(dict));
            Arc::new(
                DictionaryArray::<Int32Type>::try_new(keys, values)
                    .map_err(|e| Error::Arrow(e.to_string()))?,
            )
        }
        LeafKind::Set { choices } => {
            let mut arrays: Vec<ArrayRef> = Vec::with_capacity(choices.len());
            for (_, bit) in choices {
                let vals: Vec<bool> = (0..rows).map(|i| store.get(i) >> bit & 1 == 1).collect();
                arrays.push(Arc::new(arrow_array::BooleanArray::new(
                    vals.into(),
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

fn sign_extend(raw: u64, width: usize) -> i64 {
    let shift = 64 - 8 * width.clamp(1, 8) as u32;
    ((raw << shift) as i64) >> shift
}

/// Compiles layouts into column plans, collecting constants as schema metadata.
struct Planner<'a> {
    layout: &'a Layout,
    constants: Vec<(String, String)>,
}

impl Planner<'_> {
    fn block(&mut self, b: &Block, path: &str) -> BlockCols {
        let mut leaves = Vec::new();
        let mut nodes = Vec::new();
        for f in &b.fields {
            let p = join(path, &f.name);
            if let Some(n) = self.field(f, 0, &p, &mut leaves) {
                nodes.push((f.name.clone(), n));
            }
        }
        let groups = b
            .groups
            .iter()
            .map(|g| GroupCols {
                name: g.name.clone(),
                since: g.since_version,
                dimension: DimensionSlots::from(&g.dimension),
                offsets: vec![0],
                body: self.block(&g.block, &join(path, &g.name)),
            })
            .collect();
        let vars = b
            .var_data
            .iter()
            .map(|v| VarCols {
                name: v.name.clone(),
                since: v.since_version,
                slots: VarDataSlots::from(v),
                text: v.is_text(),
                encoding: Encoding::of(v.character_encoding.as_deref()),
                offsets: vec![0],
                data: Vec::new(),
            })
            .collect();
        BlockCols {
            leaves,
            nodes,
            groups,
            vars,
            required: b.required.clone(),
            rows: 0,
        }
    }

    /// The column of one field at `base` (its composite's offset in the block); `None` for a
    /// constant (recorded as metadata) or a composite of constants only.
    fn field(
        &mut self,
        f: &LField,
        base: usize,
        path: &str,
        leaves: &mut Vec<Leaf>,
    ) -> Option<Node> {
        let mut leaf = |ty: PrimitiveType, length: usize, kind: LeafKind| {
            leaves.push(Leaf {
                offset: base + f.offset,
                since: f.since_version,
                store: Store::for_field(ty, length),
                present: None,
            });
            Some(Node::Leaf {
                leaf: leaves.len() - 1,
                kind,
            })
        };
        match &f.kind {
            FieldKind::Primitive(p) => {
                let encoding = Encoding::of(p.character_encoding.as_deref());
                let text = |b: &[u8]| sbekit_otf::text::decode(b, encoding).text.into_owned();
                if f.is_constant() {
                    let v = p.constant.as_ref().map(|c| match c {
                        sbekit_ir::PrimitiveValue::Bytes(b) => text(b),
                        // A single char constant is held as its code: the text is the character.
                        sbekit_ir::PrimitiveValue::Int(c) if p.ty == PrimitiveType::Char => {
                            u8::try_from(*c).map_or_else(|_| c.to_string(), |b| text(&[b]))
                        }
                        other => other.to_string(),
                    });
                    self.constants
                        .push((path.to_string(), v.unwrap_or_default()));
                    return None;
                }
                let optional = f.is_optional();
                let kind = match p.ty {
                    PrimitiveType::Char if p.length != 1 => LeafKind::Chars { encoding },
                    PrimitiveType::Char => LeafKind::Char {
                        null: optional
                            .then(|| sbekit_ir::layout::wire_bits(&p.null_value, p.ty) as u8),
                        encoding,
                    },
                    _ if p.length != 1 => LeafKind::Array {
                        ty: p.ty,
                        length: p.length,
                    },
                    PrimitiveType::Float | PrimitiveType::Double => {
                        LeafKind::Float { ty: p.ty, optional }
                    }
                    ty => LeafKind::Int {
                        ty,
                        null: optional.then(|| sbekit_ir::layout::wire_bits(&p.null_value, ty)),
                    },
                };
                leaf(p.ty, p.length, kind)
            }
            FieldKind::Enum { def, constant } => {
                let e = self.layout.enum_def(*def);
                if f.is_constant() {
                    let name = constant
                        .and_then(|c| e.values.get(c))
                        .map(|v| v.name.clone())
                        .unwrap_or_default();
                    self.constants.push((path.to_string(), name));
                    return None;
                }
                let kind = LeafKind::Enum {
                    bits: e.values.iter().map(|v| v.bits).collect(),
                    names: e.values.iter().map(|v| v.name.clone()).collect(),
                    null: e.null_bits(),
                    signed_width: e.encoding.is_signed_int().then(|| e.encoding.size()),
                };
                leaf(e.encoding, 1, kind)
            }
            FieldKind::Set { def } => {
                let s = self.layout.set_def(*def);
                let kind = LeafKind::Set {
                    choices: s.choices.iter().map(|c| (c.name.clone(), c.bit)).collect(),
                };
                leaf(s.encoding, 1, kind)
            }
            FieldKind::Composite { members, .. } => {
                let mut fields = Vec::new();
                for m in members {
                    if let Some(n) = self.field(m, base + f.offset, &join(path, &m.name), leaves) {
                        fields.push((m.name.clone(), n));
                    }
                }
                (!fields.is_empty()).then_some(Node::Struct { fields })
            }
        }
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The header columns of one table.
#[derive(Debug, Default)]
struct HeaderCols {
    template_id: Vec<u32>,
    schema_id: Vec<u32>,
    version: Vec<u32>,
    block_length: Vec<u32>,
    offset: Vec<u64>,
    timestamp: Vec<i64>,
    timestamp_valid: Vec<bool>,
}

/// One message template's table.
#[derive(Debug)]
struct Table {
    name: String,
    template_id: u32,
    schema: SchemaRef,
    header: HeaderCols,
    root: BlockCols,
    /// Group entries buffered, all levels (bounds the list offsets and the work per batch).
    entries: usize,
}

/// Every message template of a schema as an Arrow table, filled message by message.
#[derive(Debug)]
pub struct SbeColumns {
    layout: Layout,
    options: Options,
    tables: Vec<Table>,
    by_id: HashMap<u32, usize>,
    ready: Vec<(usize, RecordBatch)>,
    /// Tables whose batch is full, cut by the next [`SbeColumns::drain`].
    full: Vec<usize>,
    /// Text values in the batches cut so far that took the Latin-1 fallback.
    fallbacks: u64,
}

impl SbeColumns {
    /// Compiles `layout` into one table per message template.
    pub fn new(layout: &Layout, options: Options) -> SbeColumns {
        let mut tables = Vec::with_capacity(layout.messages.len());
        let mut by_id = HashMap::new();
        for m in &layout.messages {
            let mut planner = Planner {
                layout,
                constants: Vec::new(),
            };
            let root = planner.block(&m.block, "");
            let mut fields = vec![
                Field::new("_template_id", DataType::UInt32, false),
                Field::new("_schema_id", DataType::UInt32, false),
                Field::new("_acting_version", DataType::UInt32, false),
                Field::new("_block_length", DataType::UInt32, false),
                Field::new("_offset", DataType::UInt64, false),
            ];
            if options.timestamp {
                fields.push(Field::new(
                    "_timestamp",
                    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
                    true,
                ));
            }
            fields.extend(root.fields());
            let mut meta: HashMap<String, String> = planner
                .constants
                .into_iter()
                .map(|(k, v)| (format!("sbe.constant.{k}"), v))
                .collect();
            meta.insert("sbe.package".into(), layout.package.clone());
            meta.insert("sbe.schema.id".into(), layout.id.to_string());
            meta.insert("sbe.schema.version".into(), layout.version.to_string());
            meta.insert("sbe.message".into(), m.name.clone());
            meta.insert("sbe.template_id".into(), m.id.to_string());
            by_id.insert(m.id, tables.len());
            tables.push(Table {
                name: m.name.clone(),
                template_id: m.id,
                schema: Arc::new(Schema::new_with_metadata(fields, meta)),
                header: HeaderCols::default(),
                root,
                entries: 0,
            });
        }
        SbeColumns {
            layout: layout.clone(),
            options,
            tables,
            by_id,
            ready: Vec::new(),
            full: Vec::new(),
            fallbacks: 0,
        }
    }

    /// Text values (chars, char arrays, text var data) in the batches cut so far that were not
    /// valid in their declared character encoding and were read one byte per code point
    /// (Latin-1), by the rule of [`sbekit_otf::text`] that `sbekit decode` prints by. Rows
    /// still buffered are counted when their batch is cut ([`SbeColumns::flush`]).
    pub fn text_fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// (template id, message name, Arrow schema) of every table.
    pub fn tables(&self) -> impl Iterator<Item = (u32, &str, &SchemaRef)> {
        self.tables
            .iter()
            .map(|t| (t.template_id, t.name.as_str(), &t.schema))
    }

    /// The Arrow schema of the message with template id `id`.
    pub fn schema(&self, id: u32) -> Option<&SchemaRef> {
        self.by_id.get(&id).map(|&i| &self.tables[i].schema)
    }

    /// Decodes the message (header first) at the start of `bytes` into its table; `offset` is
    /// its position in the input (the `_offset` column) and `timestamp` the framing's time in
    /// ns (the `_timestamp` column, when [`Options::timestamp`] is on). Returns the message's
    /// length. A message that fails leaves no row behind; errors carry offsets from the start
    /// of `bytes`.
    pub fn append(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Result<usize, DecodeError> {
        let big = self.layout.byte_order == ByteOrder::BigEndian;
        let h = &self.layout.header;
        let head = take(bytes, 0, h.size as u64, "messageHeader")?;
        let order = self.layout.byte_order;
        let rd = |s: &IntSlot| s.read(head, order).unwrap_or(0);
        let (block_length, template_id, schema_id, version) = (
            rd(&h.block_length),
            rd(&h.template_id),
            rd(&h.schema_id),
            rd(&h.version),
        );
        if h.schema_id.constant.is_none() && schema_id != u64::from(self.layout.id) {
            return Err(err(
                h.schema_id.offset,
                "",
                ErrorKind::SchemaMismatch {
                    found: schema_id,
                    expected: u64::from(self.layout.id),
                },
            ));
        }
        let Some(&ti) = u32::try_from(template_id)
            .ok()
            .and_then(|id| self.by_id.get(&id))
        else {
            return Err(err(
                h.template_id.offset,
                "",
                ErrorKind::UnknownTemplate(template_id),
            ));
        };
        let table = &mut self.tables[ti];
        let mut cx = Cx {
            buf: bytes,
            version: u32::try_from(version).unwrap_or(u32::MAX),
            big,
            budget: EntryBudget::new(self.options.limits),
            entries: 0,
        };
        let rows = table.root.rows;
        let end = match table.root.decode(&mut cx, h.size, block_length) {
            Ok(end) => end,
            Err(e) => {
                table.root.truncate(rows);
                return Err(within(e, &table.name));
            }
        };
        let hc = &mut table.header;
        hc.template_id.push(template_id as u32);
        hc.schema_id.push(schema_id as u32);
        hc.version.push(cx.version);
        hc.block_length
            .push(u32::try_from(block_length).unwrap_or(u32::MAX));
        hc.offset.push(offset);
        if self.options.timestamp {
            hc.timestamp.push(timestamp.unwrap_or(0));
            hc.timestamp_valid.push(timestamp.is_some());
        }
        table.entries = table
            .entries
            .saturating_add(usize::try_from(cx.entries).unwrap_or(usize::MAX));
        let weight = table.root.rows + table.entries;
        if (weight >= self.options.batch_rows.saturating_mul(16)
            || table.root.rows >= self.options.batch_rows
            || (table.root.rows % 1024 == 0 && table.root.bytes() >= self.options.batch_bytes))
            && !self.full.contains(&ti)
        {
            self.full.push(ti);
        }
        Ok(end)
    }

    /// Cuts every table's buffered rows into a batch.
    pub fn flush(&mut self) -> Result<(), Error> {
        let big = self.layout.byte_order == ByteOrder::BigEndian;
        for (i, t) in self.tables.iter_mut().enumerate() {
            if t.root.rows > 0 {
                let b = finish_table(t, self.options.timestamp, big, &mut self.fallbacks)?;
                self.ready.push((i, b));
            }
        }
        self.full.clear();
        Ok(())
    }

    /// Takes the batches completed so far (tables that reached the batch size), with their
    /// message names.
    pub fn drain(&mut self) -> Result<Vec<(String, RecordBatch)>, Error> {
        let big = self.layout.byte_order == ByteOrder::BigEndian;
        for ti in std::mem::take(&mut self.full) {
            let t = &mut self.tables[ti];
            if t.root.rows > 0 {
                let b = finish_table(t, self.options.timestamp, big, &mut self.fallbacks)?;
                self.ready.push((ti, b));
            }
        }
        Ok(std::mem::take(&mut self.ready)
            .into_iter()
            .map(|(i, b)| (self.tables[i].name.clone(), b))
            .collect())
    }

    /// True when some table's batch is full: call [`SbeColumns::drain`].
    pub fn has_full(&self) -> bool {
        !self.full.is_empty()
    }

    /// Bytes buffered in all tables (for memory accounting).
    pub fn buffered_bytes(&self) -> usize {
        self.tables.iter().map(|t| t.root.bytes()).sum()
    }
}

fn finish_table(
    t: &mut Table,
    with_ts: bool,
    big: bool,
    fallbacks: &mut u64,
) -> Result<RecordBatch, Error> {
    let hc = std::mem::take(&mut t.header);
    let mut cols: Vec<ArrayRef> = vec![
        prim::<UInt32Type, u32>(hc.template_id, None),
        prim::<UInt32Type, u32>(hc.schema_id, None),
        prim::<UInt32Type, u32>(hc.version, None),
        prim::<UInt32Type, u32>(hc.block_length, None),
        prim::<UInt64Type, u64>(hc.offset, None),
    ];
    if with_ts {
        let valid: NullBuffer = hc.timestamp_valid.into();
        let nulls = (valid.null_count() > 0).then_some(valid);
        let ts = PrimitiveArray::<TimestampNanosecondType>::new(hc.timestamp.into(), nulls)
            .with_timezone("UTC");
        cols.push(Arc::new(ts));
    }
    cols.extend(t.root.finish(big, fallbacks)?);
    t.entries = 0;
    RecordBatch::try_new(t.schema.clone(), cols)
        .map_err(|e| Error::Arrow(format!("{}: {e}", t.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension() {
        assert_eq!(sign_extend(0xff, 1), -1);
        assert_eq!(sign_extend(0x7f, 1), 127);
        assert_eq!(sign_extend(0xfffe, 2), -2);
    }

    #[test]
    fn text_var_data_is_judged_value_by_value() {
        // "a\xC3" then "\xA9b": the concatenation is valid UTF-8 ("aéb"), the values are not.
        let mut n = 0;
        let a = var_array(
            true,
            Encoding::Utf8,
            vec![0, 2, 4],
            b"a\xC3\xA9b".to_vec(),
            &mut n,
        )
        .expect("array");
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        assert_eq!(a.value(0), "a\u{c3}");
        assert_eq!(a.value(1), "\u{a9}b");
        assert_eq!(n, 2);
        let mut n = 0;
        let a = var_array(true, Encoding::Utf8, vec![0, 3], "é!".into(), &mut n).expect("array");
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        assert_eq!((a.value(0), n), ("é!", 0));
    }
}

/// What exporting one SBE stream did.
#[derive(Debug, Default)]
pub struct StreamExport {
    /// Messages decoded into tables.
    pub decoded: u64,
    /// Bad messages (each reported through `on_error`).
    pub errors: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// How [`export_stream`] reads its input.
#[derive(Debug, Clone, Copy)]
pub struct StreamOptions {
    /// How messages are delimited.
    pub framing: sbekit_otf::framing::Framing,
    /// Largest message accepted.
    pub max_message: usize,
    /// Bytes after a message inside its frame are an error rather than padding.
    pub strict_frames: bool,
    /// Go on after a bad frame where the framing allows it.
    pub keep_going: bool,
    /// Only this template.
    pub template: Option<u64>,
}

/// Decodes every message of `input` into `cols` and writes full batches to `out` under
/// `type=<message name>` (after `partition`, e.g. `[("input", "a")]`), in bounded memory.
/// `decoder` (the OTF plan of the same layout) splits back-to-back messages. Bad messages are
/// passed to `on_error`; the stream stops at the first unless `keep_going`.
#[allow(clippy::too_many_arguments)]
pub fn export_stream<R: std::io::Read>(
    input: R,
    decoder: &sbekit_otf::Decoder,
    cols: &mut SbeColumns,
    opts: StreamOptions,
    partition: &[(&str, &str)],
    out: &mut crate::sink::PartitionedWriter,
    progress: &mut dyn FnMut(u64),
    on_error: &mut dyn FnMut(&sbekit_otf::framing::StreamError),
) -> Result<StreamExport, Error> {
    use sbekit_otf::framing::{MessageStream, StreamError};
    let mut stream =
        MessageStream::new(input, opts.framing, opts.max_message).strict_frames(opts.strict_frames);
    let mut report = StreamExport::default();
    let write = |cols: &mut SbeColumns,
                 out: &mut crate::sink::PartitionedWriter,
                 flush: bool|
     -> Result<(), Error> {
        if flush {
            cols.flush()?;
        }
        for (name, batch) in cols.drain()? {
            let mut p: Vec<(&str, &str)> = partition.to_vec();
            p.push(("type", &name));
            out.write(&p, &name, &batch)?;
        }
        Ok(())
    };
    loop {
        let r = stream.next_with(decoder, opts.template, |bytes, _, offset| {
            cols.append(bytes, offset, None)
        });
        match r {
            Ok(Some(info)) => {
                report.decoded += u64::from(info.decoded);
                if cols.has_full() {
                    write(cols, out, false)?;
                    progress(stream.offset());
                }
            }
            Ok(None) => break,
            Err(StreamError::Io(e)) => {
                return Err(Error::Io {
                    path: "input".into(),
                    source: e,
                })
            }
            Err(e @ StreamError::Message { resumable, .. }) => {
                report.errors += 1;
                on_error(&e);
                if !opts.keep_going || !resumable {
                    break;
                }
            }
        }
    }
    write(cols, out, true)?;
    report.bytes = stream.offset();
    progress(report.bytes);
    Ok(report)
}
