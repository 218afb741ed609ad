//! Any SBE stream to Arrow: a columnar decode plan compiled from the layout model.
//!
//! [`SbeColumns::new`] compiles a [`Layout`] into one Arrow schema and one set of column
//! buffers per message template. [`SbeColumns::append`] walks one message's framing (header,
//! group dimensions, var-data lengths, through `sbekit_ir::wire`) and stages each block's bytes
//! in its block's buffer: one copy per block, one per run of fixed-size group entries. When
//! [`SbeColumns::flush`] or the batch size cuts a batch, each column is gathered out of the
//! staged rows in one strided pass (its width and the byte order decided once per column),
//! then interpreted column at a time (null values, version gating, enum names, set bits,
//! text) into [`RecordBatch`]es. See the crate documentation for the mapping of each construct.
//!
//! The module is split along its seams: `plan.rs` compiles the layout into column buffers
//! (`columns.rs`: the leaves, the staging buffers and the strided gathers), `walk.rs` stages a
//! message into them, `arrays.rs` turns them into Arrow arrays, and `stream.rs` exports whole
//! streams.

mod arrays;
mod columns;
mod plan;
mod stream;
mod walk;

use arrays::*;
use columns::*;
use plan::*;
pub use stream::{export_stream, StreamExport, StreamOptions};
use walk::*;

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
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use sbekit_ir::layout::{Block, Field as LField, FieldKind, IntSlot, Layout};
use sbekit_ir::wire::{
    self, take, truncated, Be, DimensionSlots, EntryBudget, GroupHeader, Le, Order,
    RequiredLengths, VarDataSlots,
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

impl HeaderCols {
    fn with_capacity(rows: usize, with_ts: bool) -> HeaderCols {
        let ts = if with_ts { rows } else { 0 };
        HeaderCols {
            template_id: Vec::with_capacity(rows),
            schema_id: Vec::with_capacity(rows),
            version: Vec::with_capacity(rows),
            block_length: Vec::with_capacity(rows),
            offset: Vec::with_capacity(rows),
            timestamp: Vec::with_capacity(ts),
            timestamp_valid: Vec::with_capacity(ts),
        }
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
    /// Table index + 1 by template id, for schemas whose ids are small (the usual case): one
    /// load per message instead of a hash.
    dense: Vec<u32>,
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
        SbeColumns {
            layout: layout.clone(),
            options,
            tables,
            by_id,
            dense,
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
        // The byte order is decided here, once, and is a type below.
        match self.layout.byte_order {
            ByteOrder::LittleEndian => self.append_in::<Le>(bytes, offset, timestamp),
            ByteOrder::BigEndian => self.append_in::<Be>(bytes, offset, timestamp),
        }
    }

    fn append_in<O: Order>(
        &mut self,
        bytes: &[u8],
        offset: u64,
        timestamp: Option<i64>,
    ) -> Result<usize, DecodeError> {
        let h = &self.layout.header;
        let head = take(bytes, 0, h.size as u64, "messageHeader")?;
        let rd = |s: &IntSlot| s.read_in::<O>(head).unwrap_or(0);
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
        let mut cx = Cx {
            buf: bytes,
            version: u32::try_from(version).unwrap_or(u32::MAX),
            budget: EntryBudget::new(self.options.limits),
            entries: 0,
        };
        let rows = table.root.rows;
        let end = match table.root.decode::<O>(&mut cx, h.size, block_length) {
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
    // The next batch is likely as large: allocate once instead of growing by doubling.
    let hc = std::mem::replace(
        &mut t.header,
        HeaderCols::with_capacity(t.root.rows, with_ts),
    );
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
