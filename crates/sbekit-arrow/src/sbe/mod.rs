//! Any SBE stream to Arrow: a columnar decode plan compiled from the layout model.
//!
//! [`SbeColumns::new`] compiles a [`Layout`] into one Arrow schema and one set of column
//! buffers per message template. [`SbeColumns::append`] walks one message's framing (header,
//! group dimensions, var-data lengths, through `sbekit_ir::wire`) and stages each block's bytes
//! in its block's buffer: one copy per block, one per run of fixed-size group entries (a
//! message whose 8 header bytes repeat the last one's, when that one took the flattest walk,
//! skips the header's decisions: one compare of the bytes as a word). Every 128 messages of
//! a table, and when [`SbeColumns::flush`] or the batch size cuts a batch,
//! the staged rows are gathered into their columns a tile at a time, each column in one
//! strided pass over the tile (its width and the byte order decided once per column), so that
//! the staging stays small; a cut batch's columns are then interpreted column at a time (null
//! values, version gating, enum names, set bits, text) into [`RecordBatch`]es. See the crate
//! documentation for the mapping of each construct.
//!
//! The module is split along its seams: `plan.rs` compiles the layout into column buffers
//! (`columns.rs`: the leaves, the staging buffers and the strided gathers), `walk.rs` stages a
//! message into them, `arrays.rs` turns them into Arrow arrays (`text.rs`: char arrays and text
//! into strings; `trusted.rs`: the constructors that skip Arrow's re-validation), and
//! `stream.rs` exports whole streams.

mod arrays;
mod columns;
mod plan;
mod stream;
mod text;
mod trusted;
mod walk;

use arrays::*;
use columns::*;
use plan::*;
pub use stream::{export_stream, StreamExport, StreamOptions};
use text::*;
use trusted::*;
use walk::*;

pub(crate) use columns::Pool;
pub(crate) use trusted::AsciiText;

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
use arrow_buffer::{
    ArrowNativeType, BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use sbekit_ir::layout::{Block, Field as LField, FieldKind, Layout};
use sbekit_ir::wire::{
    self, take, truncated, Be, DimensionSlots, EntryBudget, GroupHeader, Le, Order,
    RequiredLengths, SlotPair, VarDataSlots,
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

/// Messages of a table staged before their rows are gathered into the columns.
const GATHER_EVERY: usize = 128;

/// Names of the header columns every message table starts with.
pub const HEADER_COLUMNS: [&str; 5] = [
    "_template_id",
    "_schema_id",
    "_acting_version",
    "_block_length",
    "_offset",
];

/// The header columns of one table. `_template_id` and `_schema_id` are the same in every row
/// (the table's template, the schema's id), and `_acting_version` and `_block_length` change
/// only where a writer changes: those are kept as runs, not row by row.
#[derive(Debug, Default)]
struct HeaderCols {
    offset: Vec<u64>,
    timestamp: Vec<i64>,
    timestamp_valid: Vec<bool>,
    /// (first row, acting version, block length) of each run of rows that share them.
    runs: Vec<(usize, u32, u32)>,
}

impl HeaderCols {
    fn with_capacity(rows: usize, with_ts: bool, pool: &mut Pool) -> HeaderCols {
        let ts = if with_ts { rows } else { 0 };
        HeaderCols {
            offset: pool.vec(rows),
            timestamp: pool.vec(ts),
            timestamp_valid: Vec::with_capacity(ts),
            runs: Vec::new(),
        }
    }

    /// Appends a message's `_offset` and, `with_ts`, its `_timestamp`.
    #[inline(always)]
    fn push(&mut self, offset: u64, timestamp: Option<i64>, with_ts: bool) {
        self.offset.push(offset);
        if with_ts {
            self.timestamp.push(timestamp.unwrap_or(0));
            self.timestamp_valid.push(timestamp.is_some());
        }
    }

    /// Drops the `_offset` and `_timestamp` of every row from `rows` on (a message that
    /// failed half-way; its header run is pushed only once it succeeds).
    fn truncate(&mut self, rows: usize) {
        self.offset.truncate(rows);
        self.timestamp.truncate(rows);
        self.timestamp_valid.truncate(rows);
    }

    /// The column of `rows` values that the runs stand for: a shared buffer of one value
    /// repeated when there is one run (the usual case), else each run's value filled in.
    fn column(
        &self,
        rows: usize,
        value: impl Fn(&(usize, u32, u32)) -> u32,
        repeats: &mut Repeats,
    ) -> ScalarBuffer<u32> {
        match self.runs.as_slice() {
            [one] => repeats.get(value(one), rows),
            runs => {
                let mut v = Vec::with_capacity(rows);
                for (k, run) in runs.iter().enumerate() {
                    let end = runs.get(k + 1).map_or(rows, |next| next.0);
                    v.resize(end.max(v.len()), value(run));
                }
                v.resize(rows, 0);
                v.into()
            }
        }
    }
}

/// Columns of one value repeated, built once and shared (Arrow buffers are immutable and
/// reference-counted): the header columns that every row of a batch holds the same value in
/// cost no work and no memory per batch.
#[derive(Debug, Default)]
struct Repeats {
    /// A few values, each with the longest column of it built so far.
    built: Vec<(u32, ScalarBuffer<u32>)>,
}

impl Repeats {
    /// At most this many values are kept: a table's template id, schema id, version and block
    /// length, and one spare.
    const KEPT: usize = 5;

    /// `rows` copies of `value`, a slice of a shared buffer when one long enough exists.
    fn get(&mut self, value: u32, rows: usize) -> ScalarBuffer<u32> {
        if let Some((_, b)) = self
            .built
            .iter()
            .find(|(v, b)| *v == value && b.len() >= rows)
        {
            return b.slice(0, rows);
        }
        let b = ScalarBuffer::from(vec![value; rows]);
        self.built.retain(|(v, _)| *v != value);
        if self.built.len() >= Self::KEPT {
            self.built.remove(0);
        }
        self.built.push((value, b.clone()));
        b
    }
}

/// One message template's table.
#[derive(Debug)]
struct Table {
    name: String,
    template_id: u32,
    schema: SchemaRef,
    header: HeaderCols,
    root: BlockCols,
    /// The root's groups all hold fixed-size entries: the plain walk applies to messages
    /// acting at `newest` or later.
    plain: bool,
    /// Moreover no var data in the root and no version-gated field anywhere: the plain walk
    /// takes its flattest form (`BlockCols::decode_flat`).
    flat: bool,
    /// Moreover every group's dimension is two adjacent wire `uint16`s
    /// (`BlockCols::decode_flat_u16`).
    flat_u16: bool,
    /// The newest `sinceVersion` in the message.
    newest: u32,
    repeats: Repeats,
    /// Messages that may still come before `SbeColumns::row_checks` must run (its tests by
    /// rows cannot turn true sooner), and the weight (1 + its group entries, all levels, each)
    /// that they may add before its test by weight can; 0 after a cut (checked at the next
    /// message).
    countdown: usize,
    weight_room: usize,
}

impl Table {
    /// Counts a message once its blocks are staged: `weight` is at least 1 + its group
    /// entries, all levels (`row_checks` counts them exactly). True when the batch-cut test
    /// and the gather every [`GATHER_EVERY`] messages (`SbeColumns::row_checks`) may be due.
    #[inline(always)]
    fn counted(&mut self, weight: usize) -> bool {
        // The usual message: too soon for any test of `row_checks` to turn true.
        if self.countdown > 1 && weight < self.weight_room {
            self.countdown -= 1;
            self.weight_room -= weight;
            return false;
        }
        true
    }
}

/// Every message template of a schema as an Arrow table, filled message by message.
#[derive(Debug)]
pub struct SbeColumns {
    layout: Layout,
    /// The `_schema_id` of every row.
    schema_id: u32,
    /// The header read as two pairs: (blockLength, templateId) and (schemaId, version).
    head: (SlotPair, SlotPair),
    options: Options,
    tables: Vec<Table>,
    by_id: HashMap<u32, usize>,
    /// Table index + 1 by template id, for schemas whose ids are small (the usual case): one
    /// load per message instead of a hash.
    dense: Vec<u32>,
    ready: Vec<(usize, RecordBatch)>,
    /// Tables whose batch is full, cut by the next [`SbeColumns::drain`].
    full: Vec<usize>,
    /// Text values in the batches cut so far that took the Latin-1 fallback.
    fallbacks: u64,
    /// Memory of the output buffers of earlier batches, for the next ones.
    pool: Pool,
    /// The header is 8 bytes: two headers with the same bytes decode alike.
    word_header: bool,
    /// The last message, when it took the flat walk and its table's batch was not cut since.
    hot: Option<Hot>,
}

/// What the header of the last message decided, kept for the next message with the same 8
/// header bytes (the usual case: a stream of one template): its table, version and block
/// length, the schema id accepted, the flat walk chosen, and the table's last header run
/// already (version, block length).
#[derive(Debug, Clone, Copy)]
struct Hot {
    /// The header's 8 bytes as one word (in memory order: compared, never read as a number).
    word: u64,
    table: usize,
    block_length: u64,
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
            let plain = root
                .groups
                .iter()
                .all(|g| g.body.is_fixed() && g.body.need > 0);
            let flat = plain
                && root.vars.is_empty()
                && !root.gated
                && root.groups.iter().all(|g| !g.body.gated);
            let flat_u16 = flat && root.groups.iter().all(|g| g.pair_at.is_some());
            tables.push(Table {
                flat_u16,
                name: m.name.clone(),
                template_id: m.id,
                schema: Arc::new(Schema::new_with_metadata(fields, meta)),
                header: HeaderCols::default(),
                plain,
                flat,
                newest: root.newest(),
                root,
                countdown: 0,
                weight_room: 0,
                repeats: Repeats::default(),
            });
        }
        let max_id = by_id.keys().copied().max().unwrap_or(0);
        let mut dense = Vec::new();
        if max_id < 4096 {
            dense.resize(max_id as usize + 1, 0);
            for (&id, &i) in &by_id {
                if let Some(d) = dense.get_mut(id as usize) {
                    *d = i as u32 + 1;
                }
            }
        }
        // A schema id that is not on the wire is its constant; one on the wire must be the
        // schema's (`append` refuses others): the column is the same in every row.
        let schema_id = layout
            .header
            .schema_id
            .constant
            .map_or(layout.id, |c| c as u32);
        let h = &layout.header;
        let head = (
            SlotPair::new(h.block_length, h.template_id),
            SlotPair::new(h.schema_id, h.version),
        );
        SbeColumns {
            schema_id,
            head,
            layout: layout.clone(),
            options,
            tables,
            by_id,
            dense,
            ready: Vec::new(),
            full: Vec::new(),
            fallbacks: 0,
            pool: Pool::default(),
            word_header: h.size == 8,
            hot: None,
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
    #[inline]
    pub fn append(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Result<usize, DecodeError> {
        // The byte order is decided here, once, and is a type below.
        match self.layout.byte_order {
            ByteOrder::LittleEndian => self.append_in::<Le>(bytes, offset, timestamp),
            ByteOrder::BigEndian => self.append_in::<Be>(bytes, offset, timestamp),
        }
    }

    #[inline(always)]
    fn append_in<O: Order>(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Result<usize, DecodeError> {
        match self.repeat::<O>(bytes, offset, timestamp) {
            Some((end, due)) => {
                if let (true, Some(hot)) = (due, self.hot) {
                    self.row_checks(hot.table);
                }
                Ok(end)
            }
            None => self.append_new::<O>(bytes, offset, timestamp),
        }
    }

    /// The usual message: the same header bytes as the last one, which took the flat walk.
    /// One compare decides the table, the walk and the header run. `None` (no row left
    /// behind) for anything else, which [`Self::append_new`] decodes from scratch; else the
    /// message's end, and whether `row_checks` is due ([`Table::counted`]). A function
    /// of its own, out of line (and `append` inline in its caller), so that the registers of
    /// this path are allocated for it alone: inlined into one function with the others, its
    /// group loop kept its offsets on the stack (~50 instructions a message more).
    #[inline(never)]
    fn repeat<O: Order>(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Option<(usize, bool)> {
        let hot = self.hot?;
        if u64::from_ne_bytes(*bytes.first_chunk::<8>()?) != hot.word {
            return None;
        }
        let with_ts = self.options.timestamp;
        let table = self.tables.get_mut(hot.table)?;
        let rows = table.root.rows;
        // Before the walk, so that neither is held through it.
        table.header.push(offset, timestamp, with_ts);
        let done = if table.flat_u16 {
            table.root.decode_flat_u16::<O>(bytes, 8, hot.block_length)
        } else {
            table.root.decode_flat::<O>(bytes, 8, hot.block_length)
        };
        if let Some(end) = done {
            // Every entry of the flat walk is at least a byte after the header: the
            // message's length bounds its weight.
            return Some((end, table.counted(end)));
        }
        table.root.truncate(rows);
        table.header.truncate(rows);
        None
    }

    /// A message that [`Self::repeat`] did not take: its header decides its table and walk.
    #[inline(never)]
    fn append_new<O: Order>(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Result<usize, DecodeError> {
        self.hot = None;
        let h = &self.layout.header;
        let head = take(bytes, 0, h.size as u64, "messageHeader")?;
        // Two pairs: (blockLength, templateId) and (schemaId, version), each read at a fixed
        // offset for the standard header. `take` checked the header's size.
        let (block_length, template_id) = self.head.0.read_in::<O>(head).unwrap_or((0, 0));
        let (schema_id, version) = self.head.1.read_in::<O>(head).unwrap_or((0, 0));
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
        let found = match usize::try_from(template_id)
            .ok()
            .and_then(|id| self.dense.get(id))
        {
            Some(&i) => i.checked_sub(1).map(|i| i as usize),
            None if self.dense.is_empty() => u32::try_from(template_id)
                .ok()
                .and_then(|id| self.by_id.get(&id).copied()),
            None => None,
        };
        let Some(ti) = found else {
            return Err(err(
                h.template_id.offset,
                "",
                ErrorKind::UnknownTemplate(template_id),
            ));
        };
        let table = &mut self.tables[ti];
        let version = u32::try_from(version).unwrap_or(u32::MAX);
        let rows = table.root.rows;
        // The usual message first (every field present, blocks no shorter than their fields,
        // fixed-size entries): the same rows, fewer checks. Anything else takes the walk that
        // checks and reports everything, from scratch.
        let mut flat = false;
        // The plain walks' entries are each at least a byte after the header: the message's
        // length bounds its weight.
        let plain = if table.plain && version >= table.newest {
            let done = if table.flat {
                flat = true;
                table.root.decode_flat::<O>(bytes, h.size, block_length)
            } else {
                table
                    .root
                    .decode_plain::<O>(bytes, h.size, block_length, version)
            };
            let done = done.map(|end| (end, end));
            match done {
                Some(done) => Some(done),
                None => {
                    table.root.truncate(rows);
                    None
                }
            }
        } else {
            None
        };
        let (end, weight) = match plain {
            Some(done) => done,
            None => {
                flat = false;
                checked_walk::<O>(
                    table,
                    bytes,
                    h.size,
                    block_length,
                    version,
                    self.options.limits,
                )?
            }
        };
        let hc = &mut table.header;
        let bl = u32::try_from(block_length).unwrap_or(u32::MAX);
        if hc
            .runs
            .last()
            .is_none_or(|&(_, v, b)| (v, b) != (version, bl))
        {
            hc.runs.push((rows, version, bl));
        }
        if flat && self.word_header {
            if let Some(word) = bytes.first_chunk::<8>() {
                self.hot = Some(Hot {
                    word: u64::from_ne_bytes(*word),
                    table: ti,
                    block_length,
                });
            }
        }
        self.row_done(ti, offset, timestamp, weight);
        Ok(end)
    }

    /// The rest of a message's row once its blocks are staged: its `_offset` and
    /// `_timestamp`, its weight ([`Table::counted`]), and the batch-cut test and gather when
    /// they are due.
    fn row_done(&mut self, ti: usize, offset: u64, timestamp: Option<i64>, weight: usize) {
        let with_ts = self.options.timestamp;
        let Some(table) = self.tables.get_mut(ti) else {
            return;
        };
        table.header.push(offset, timestamp, with_ts);
        if table.counted(weight) {
            self.row_checks(ti);
        }
    }

    /// The batch-cut test and the gather every [`GATHER_EVERY`] messages, then how soon they
    /// can next turn true (`Table::countdown`).
    #[inline(never)]
    fn row_checks(&mut self, ti: usize) {
        let Some(table) = self.tables.get_mut(ti) else {
            return;
        };
        let (rows, limit) = (table.root.rows, self.options.batch_rows);
        let weight = rows.saturating_add(table.root.entries());
        let heavy = limit.saturating_mul(16);
        if (weight >= heavy
            || rows >= limit
            || (rows % 1024 == 0 && table.root.bytes() >= self.options.batch_bytes))
            && !self.full.contains(&ti)
        {
            self.full.push(ti);
        }
        // Every few hundred messages the staged rows go to their columns while they are
        // still in L1 (a whole batch of staging would not be).
        if rows - table.root.done >= GATHER_EVERY {
            let big = self.layout.byte_order == ByteOrder::BigEndian;
            table.root.gather_all_pending(big, &mut self.pool);
        }
        // Each message adds one row: the tests by rows are this many messages away (at
        // least the next one), the test by weight this much weight away.
        let next = [
            GATHER_EVERY - (rows - table.root.done).min(GATHER_EVERY),
            limit.saturating_sub(rows),
            1024 - rows % 1024,
        ];
        table.countdown = next.into_iter().min().unwrap_or(0);
        table.weight_room = heavy.saturating_sub(weight);
    }

    /// Cuts every table's buffered rows into a batch.
    pub fn flush(&mut self) -> Result<(), Error> {
        let mut cut = Cut {
            big: self.layout.byte_order == ByteOrder::BigEndian,
            fallbacks: &mut self.fallbacks,
            pool: &mut self.pool,
        };
        // A cut table's header runs start again: the next message decides its header anew.
        self.hot = None;
        for (i, t) in self.tables.iter_mut().enumerate() {
            if t.root.rows > 0 {
                let b = finish_table(t, self.schema_id, self.options.timestamp, &mut cut)?;
                self.ready.push((i, b));
            }
        }
        self.full.clear();
        Ok(())
    }

    /// Takes the batches completed so far (tables that reached the batch size), with their
    /// message names.
    pub fn drain(&mut self) -> Result<Vec<(String, RecordBatch)>, Error> {
        let mut cut = Cut {
            big: self.layout.byte_order == ByteOrder::BigEndian,
            fallbacks: &mut self.fallbacks,
            pool: &mut self.pool,
        };
        self.hot = None;
        for ti in std::mem::take(&mut self.full) {
            let t = &mut self.tables[ti];
            if t.root.rows > 0 {
                let b = finish_table(t, self.schema_id, self.options.timestamp, &mut cut)?;
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

    /// (table index, rows, bytes) of every table holding rows: what a caller bounding the
    /// memory of many tables weighs before [`SbeColumns::cut`].
    pub fn table_sizes(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.tables
            .iter()
            .enumerate()
            .filter(|(_, t)| t.root.rows > 0)
            .map(|(i, t)| (i, t.root.rows, t.root.bytes()))
    }

    /// Marks table `ti` full whatever its size: the next [`SbeColumns::drain`] cuts it.
    pub fn cut(&mut self, ti: usize) {
        if self.tables.get(ti).is_some_and(|t| t.root.rows > 0) && !self.full.contains(&ti) {
            self.full.push(ti);
        }
    }
}

/// The walk that checks and reports everything (older writers, short blocks, nested groups,
/// malformations): out of line and cold, so that the plain walk's code stays small.
#[cold]
#[inline(never)]
fn checked_walk<O: Order>(
    table: &mut Table,
    bytes: &[u8],
    start: usize,
    block_length: u64,
    version: u32,
    limits: Limits,
) -> Result<(usize, usize), DecodeError> {
    let rows = table.root.rows;
    let mut cx = Cx {
        buf: bytes,
        version,
        budget: EntryBudget::new(limits),
        entries: 0,
    };
    match table.root.decode::<O>(&mut cx, start, block_length) {
        Ok(end) => Ok((
            end,
            usize::try_from(cx.entries.saturating_add(1)).unwrap_or(usize::MAX),
        )),
        Err(e) => {
            table.root.truncate(rows);
            Err(within(e, &table.name))
        }
    }
}

fn finish_table(
    t: &mut Table,
    schema_id: u32,
    with_ts: bool,
    cut: &mut Cut,
) -> Result<RecordBatch, Error> {
    let rows = t.root.rows;
    // The next batch is likely as large: allocate once instead of growing by doubling.
    let next = HeaderCols::with_capacity(rows, with_ts, cut.pool);
    let hc = std::mem::replace(&mut t.header, next);
    let r = &mut t.repeats;
    let u32s =
        |b: ScalarBuffer<u32>| Arc::new(PrimitiveArray::<UInt32Type>::new(b, None)) as ArrayRef;
    let mut cols: Vec<ArrayRef> = vec![
        u32s(r.get(t.template_id, rows)),
        u32s(r.get(schema_id, rows)),
        u32s(hc.column(rows, |&(_, v, _)| v, r)),
        u32s(hc.column(rows, |&(_, _, b)| b, r)),
        prim::<UInt64Type, u64>(hc.offset, None, cut.pool),
    ];
    if with_ts {
        let valid: NullBuffer = hc.timestamp_valid.into();
        let nulls = (valid.null_count() > 0).then_some(valid);
        let ts = cut.pool.buffer(hc.timestamp);
        let ts =
            PrimitiveArray::<TimestampNanosecondType>::new(ts.into(), nulls).with_timezone("UTC");
        cols.push(Arc::new(ts));
    }
    cols.extend(t.root.finish(cut)?);
    t.countdown = 0;
    t.weight_room = 0;
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
        let (mut n, mut pool) = (0, Pool::default());
        let mut cut = Cut {
            big: false,
            fallbacks: &mut n,
            pool: &mut pool,
        };
        let a = var_array(
            true,
            Encoding::Utf8,
            vec![0, 2, 4],
            b"a\xC3\xA9b".to_vec(),
            &mut cut,
        )
        .expect("array");
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        assert_eq!(a.value(0), "a\u{c3}");
        assert_eq!(a.value(1), "\u{a9}b");
        assert_eq!(n, 2);
        let mut n = 0;
        let mut cut = Cut {
            big: false,
            fallbacks: &mut n,
            pool: &mut pool,
        };
        let a = var_array(true, Encoding::Utf8, vec![0, 3], "é!".into(), &mut cut).expect("array");
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        assert_eq!((a.value(0), n), ("é!", 0));
    }
}

#[cfg(test)]
mod header_tests {
    use super::*;

    #[test]
    fn header_runs_become_columns() {
        let mut r = Repeats::default();
        let h = HeaderCols {
            runs: vec![(0, 1, 40), (2, 2, 48), (5, 2, 40)],
            ..HeaderCols::default()
        };
        let v = h.column(6, |&(_, v, _)| v, &mut r);
        assert_eq!(&v[..], [1, 1, 2, 2, 2, 2]);
        let b = h.column(6, |&(_, _, b)| b, &mut r);
        assert_eq!(&b[..], [40, 40, 48, 48, 48, 40]);
        // One run: a shared column of one value, sliced to the rows.
        let one = HeaderCols {
            runs: vec![(0, 3, 8)],
            ..HeaderCols::default()
        };
        let a = one.column(10, |&(_, v, _)| v, &mut r);
        let b = one.column(4, |&(_, v, _)| v, &mut r);
        assert_eq!((&a[..], &b[..]), (&[3; 10][..], &[3; 4][..]));
        assert_eq!(a.inner().as_ptr(), b.inner().as_ptr());
    }
}
