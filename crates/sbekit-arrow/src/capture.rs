//! SBE feed captures (read by `sbekit-feed` through a framing profile) to Arrow tables: one
//! table per message template, with the message's columns (as [`crate::sbe`] maps them), the
//! packet columns, and price composites as decimals; written Hive-partitioned by date and
//! channel (`DIR/date=2026-01-02/channel=239.1.1.1_20001/type=Name/part-00000.parquet`).
//!
//! Packet columns, after the message's own: `_capture_time` and `_sending_time`
//! (`Timestamp(ns, UTC)`, null when the capture or the profile has none), `_channel` (`Utf8`,
//! the destination address:port), `_seq` (`UInt64`, the packet's sequence number, null when
//! the profile has none) and `_msg_index` (`UInt32`, the message's index in its packet).
//!
//! A composite of a `mantissa` and a constant `exponent` (CME's `PRICE9`, B3's `Price`...),
//! anywhere in the message (groups included), becomes `Decimal128(38, -exponent)`: the
//! mantissa's value at the scale the exponent gives, null where the mantissa is null. Composites
//! whose exponent is on the wire stay structs.

use crate::sbe::{Options, SbeColumns};
use crate::sink::PartitionedWriter;
use crate::Error;
use arrow_array::types::{TimestampNanosecondType, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, Decimal128Array, Int64Array, ListArray, PrimitiveArray, RecordBatch,
    StringArray, StructArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, TimeUnit};
use sbekit_feed::read::{Channel, FeedMessage, PacketMeta, Sink};
use sbekit_ir::layout::Layout;
use sbekit_otf::DecodeError;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A nullable column's buffered values: the values (a null's as the default), and which are
/// valid only once some value was null (a column without nulls keeps no mask).
#[derive(Debug, Default)]
struct Nullable<T> {
    values: Vec<T>,
    valid: Option<Vec<bool>>,
}

impl<T: Copy + Default> Nullable<T> {
    /// Appends a value (in line: a value while no null came, the usual case), or a null.
    #[inline(always)]
    fn push(&mut self, v: Option<T>) {
        match (v, &self.valid) {
            (Some(x), None) => self.values.push(x),
            _ => self.push_masked(v),
        }
    }

    #[inline(never)]
    fn push_masked(&mut self, v: Option<T>) {
        let valid = self
            .valid
            .get_or_insert_with(|| vec![true; self.values.len()]);
        valid.push(v.is_some());
        self.values.push(v.unwrap_or_default());
    }

    /// The first `n` values, and their validity when some value was ever null (the rest are
    /// kept).
    fn take(&mut self, n: usize) -> (Vec<T>, Option<NullBuffer>) {
        let values = take_front(&mut self.values, n);
        let nulls = self.valid.as_mut().map(|v| {
            let taken: BooleanBuffer = v.drain(..n).collect();
            NullBuffer::new(taken)
        });
        (values, nulls)
    }
}

/// The first `n` of `v` (the rest kept). All of them are moved out whole, and `v` starts
/// again with as much room, so the next batch does not grow it by doubling (as a drained
/// vector kept its room before).
fn take_front<T>(v: &mut Vec<T>, n: usize) -> Vec<T> {
    if n == v.len() {
        let room = v.capacity();
        std::mem::replace(v, Vec::with_capacity(room))
    } else {
        v.drain(..n).collect()
    }
}

/// The packet columns' buffered values of one table.
#[derive(Debug, Default)]
struct PacketCols {
    capture: Nullable<i64>,
    seq: Nullable<u64>,
    sending: Nullable<i64>,
    index: Vec<u32>,
}

impl PacketCols {
    /// The first `n` rows as arrays (and keeps the rest); `channel` is the partition's.
    fn take(&mut self, n: usize, channel: &str) -> Vec<ArrayRef> {
        let n = n.min(self.index.len());
        let ts = |(v, nulls): (Vec<i64>, Option<NullBuffer>)| -> ArrayRef {
            Arc::new(
                PrimitiveArray::<TimestampNanosecondType>::new(v.into(), nulls)
                    .with_timezone("UTC"),
            )
        };
        let capture = self.capture.take(n);
        let sending = self.sending.take(n);
        let (seq, seq_nulls) = self.seq.take(n);
        let index = take_front(&mut self.index, n);
        vec![
            ts(capture),
            Arc::new(repeated(channel, n)),
            Arc::new(PrimitiveArray::<UInt64Type>::new(seq.into(), seq_nulls)),
            ts(sending),
            Arc::new(PrimitiveArray::<UInt32Type>::from(index)),
        ]
    }
}

/// A string column of `n` rows, each `value` (one copy of the bytes, offsets counted out:
/// a builder appended each row by a `memcpy` call). A batch's rows times a channel's name
/// stay far below `i32::MAX` (as the builder's offsets needed too).
fn repeated(value: &str, n: usize) -> StringArray {
    let len = value.len();
    let offsets: Vec<i32> = (0..=n).map(|i| (i * len) as i32).collect();
    let offsets = OffsetBuffer::new(offsets.into());
    StringArray::new(offsets, value.repeat(n).into_bytes().into(), None)
}

fn packet_fields() -> [Field; 5] {
    let ts = DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()));
    [
        Field::new("_capture_time", ts.clone(), true),
        Field::new("_channel", DataType::Utf8, false),
        Field::new("_seq", DataType::UInt64, true),
        Field::new("_sending_time", ts, true),
        Field::new("_msg_index", DataType::UInt32, false),
    ]
}

/// A partition: the capture day (days since the epoch, UTC; `None` without a capture time) and
/// the channel. Cheap to compare per message; the directory names are made when writing.
type PartKey = (Option<i64>, Channel);

/// One partition's (date and channel's) tables.
struct Part {
    cols: SbeColumns,
    /// By template id, below [`DENSE_IDS`] (the usual ids): one index per message, where a
    /// hash of the id cost as much as a tenth of the message's decode.
    dense: Vec<PacketCols>,
    /// By template id, the others.
    sparse: HashMap<u64, PacketCols>,
}

/// Template ids below this have their packet columns in [`Part::dense`].
const DENSE_IDS: u64 = 1024;

impl Part {
    fn new(cols: SbeColumns) -> Part {
        Part {
            cols,
            dense: Vec::new(),
            sparse: HashMap::new(),
        }
    }

    /// The packet columns of template `id`, made empty if new.
    #[inline]
    fn packets(&mut self, id: u64) -> &mut PacketCols {
        if id < DENSE_IDS {
            let i = id as usize;
            if i >= self.dense.len() {
                self.dense.resize_with(i + 1, PacketCols::default);
            }
            &mut self.dense[i]
        } else {
            self.sparse.entry(id).or_default()
        }
    }
}

/// Where full batches go.
pub enum Output<'w> {
    /// Written under `date=/channel=/type=` partitions.
    Writer(&'w mut PartitionedWriter),
    /// Kept in memory, by message name (partitions concatenated).
    Collect(BTreeMap<String, Vec<RecordBatch>>),
}

/// A [`Sink`] that fills tables per (date, channel) partition and writes full batches; see the
/// module docs.
pub struct CaptureColumns<'w> {
    layout: Layout,
    options: Options,
    /// Template id by message name.
    ids: HashMap<String, u64>,
    /// The partitions, in the order first seen; `index` finds them by key (and orders them).
    parts: Vec<Part>,
    index: BTreeMap<PartKey, usize>,
    /// The last message's partition (the usual next one: a capture is mostly one day and
    /// few channels), compared before the map is searched.
    last: Option<(PartKey, usize)>,
    out: Output<'w>,
    /// Rows written per table name.
    pub rows: BTreeMap<String, u64>,
    /// The first write error (writing stops there; the read goes on and is reported).
    pub error: Option<Error>,
    /// The most bytes all tables of all partitions may stage together (see
    /// [`CaptureColumns::with_staging`]).
    staging: usize,
    /// Messages until the staging is weighed again.
    weigh_in: usize,
}

/// Bytes a staged row's packet columns take (`PacketCols`: three optional 8-byte values and
/// an index), counted with the tables' own bytes.
const PACKET_ROW_BYTES: usize = 3 * 16 + 4;

/// Messages between two weighings of the staging: often enough that it cannot overshoot the
/// budget by much (a message adds at most a few KiB), rarely enough to cost nothing.
const WEIGH_EVERY: usize = 1024;

/// The default of [`CaptureColumns::with_staging`].
pub const STAGING: usize = 32 << 20;

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (UTC, the IEX export's date rule);
/// `unknown` without one.
fn day_name(day: Option<i64>) -> String {
    match day {
        Some(day) => crate::iex::utc_date(day.saturating_mul(86_400_000_000_000)),
        None => "unknown".into(),
    }
}

impl<'w> CaptureColumns<'w> {
    /// Tables for `layout`'s messages, written to `out` (or kept, see [`Output`]).
    pub fn new(layout: &Layout, options: Options, out: Output<'w>) -> Self {
        let ids = layout
            .messages
            .iter()
            .map(|m| (m.name.clone(), u64::from(m.id)))
            .collect();
        CaptureColumns {
            layout: layout.clone(),
            options,
            ids,
            parts: Vec::new(),
            index: BTreeMap::new(),
            last: None,
            out,
            rows: BTreeMap::new(),
            error: None,
            staging: STAGING,
            weigh_in: WEIGH_EVERY,
        }
    }

    /// Bounds the rows staged in all tables of all partitions together to about `bytes`
    /// (default [`STAGING`]): past it, the largest tables' batches are cut early until half is
    /// left. Each table's batch is also cut at `Options::batch_bytes`; without this bound a
    /// schema of many tables (31 in CME MDP3), rare ones filling slowly, would hold that much
    /// in every table at once, more the longer the capture.
    pub fn with_staging(mut self, bytes: usize) -> Self {
        self.staging = bytes.max(1);
        self
    }

    /// Every [`WEIGH_EVERY`] messages: cuts the largest tables while the staging is over its
    /// budget (see [`CaptureColumns::with_staging`]).
    fn weigh(&mut self) {
        let mut sizes: Vec<(usize, PartKey, usize)> = Vec::new();
        let mut total = 0usize;
        for (key, &pi) in &self.index {
            for (ti, rows, bytes) in self.parts[pi].cols.table_sizes() {
                let b = bytes.saturating_add(rows.saturating_mul(PACKET_ROW_BYTES));
                total = total.saturating_add(b);
                sizes.push((b, *key, ti));
            }
        }
        if total <= self.staging {
            return;
        }
        sizes.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        let mut cut = Vec::new();
        for (b, key, ti) in sizes {
            if total <= self.staging / 2 {
                break;
            }
            if let Some(part) = self.index.get(&key).map(|&pi| &mut self.parts[pi]) {
                part.cols.cut(ti);
                total -= b;
                if !cut.contains(&key) {
                    cut.push(key);
                }
            }
        }
        for key in cut {
            if self.error.is_none() {
                if let Err(e) = self.write(&key, false) {
                    self.error = Some(e);
                }
            }
        }
    }

    /// Every table's (message name, Arrow schema): the message's columns as
    /// [`SbeColumns`] maps them, decimals, then the packet columns.
    pub fn schemas(&self) -> Result<Vec<(String, arrow_schema::SchemaRef)>, Error> {
        let cols = SbeColumns::new(&self.layout, self.options);
        let mut out = Vec::new();
        for (_, name, schema) in cols.tables() {
            let empty = RecordBatch::new_empty(schema.clone());
            let extra = PacketCols::default().take(0, "");
            let b = decimalize(&with_packet_columns(&empty, extra)?)?;
            out.push((name.to_string(), b.schema()));
        }
        Ok(out)
    }

    /// The batches kept by [`Output::Collect`] (empty for a writer).
    pub fn take_collected(&mut self) -> BTreeMap<String, Vec<RecordBatch>> {
        match &mut self.out {
            Output::Collect(m) => std::mem::take(m),
            Output::Writer(_) => BTreeMap::new(),
        }
    }

    /// Writes every buffered row; call once after the read.
    pub fn finish(&mut self) -> Result<(), Error> {
        let keys: Vec<PartKey> = self.index.keys().copied().collect();
        for k in keys {
            self.write(&k, true)?;
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn write(&mut self, key: &PartKey, flush: bool) -> Result<(), Error> {
        let channel = key.1.to_string();
        let Some(part) = self.index.get(key).map(|&pi| &mut self.parts[pi]) else {
            return Ok(());
        };
        if flush {
            part.cols.flush()?;
        }
        for (name, batch) in part.cols.drain()? {
            let id = self.ids.get(&name).copied().unwrap_or(u64::MAX);
            let extra = part.packets(id).take(batch.num_rows(), &channel);
            let batch = with_packet_columns(&batch, extra)?;
            let batch = decimalize(&batch)?;
            *self.rows.entry(name.clone()).or_default() += batch.num_rows() as u64;
            match &mut self.out {
                Output::Writer(w) => {
                    let channel_dir = channel.replace(':', "_");
                    let date = day_name(key.0);
                    let p = [
                        ("date", date.as_str()),
                        ("channel", channel_dir.as_str()),
                        ("type", name.as_str()),
                    ];
                    w.write(&p, &name, &batch)?;
                }
                Output::Collect(m) => m.entry(name).or_default().push(batch),
            }
        }
        Ok(())
    }
}

impl Sink for CaptureColumns<'_> {
    fn message(&mut self, p: &PacketMeta, m: &FeedMessage<'_>) -> Result<(), DecodeError> {
        let key = (
            p.capture_ns.map(|ns| ns.div_euclid(86_400_000_000_000)),
            p.channel,
        );
        let pi = match self.last {
            Some((k, pi)) if k == key => pi,
            _ => {
                let pi = match self.index.get(&key) {
                    Some(&pi) => pi,
                    None => {
                        let cols = SbeColumns::new(&self.layout, self.options);
                        self.parts.push(Part::new(cols));
                        self.index.insert(key, self.parts.len() - 1);
                        self.parts.len() - 1
                    }
                };
                self.last = Some((key, pi));
                pi
            }
        };
        let part = &mut self.parts[pi];
        part.cols.append(m.bytes, m.offset, None)?;
        let pc = part.packets(m.header.template_id);
        pc.capture.push(p.capture_ns);
        pc.seq.push(p.seq);
        pc.sending.push(p.sending_ns);
        pc.index.push(m.index);
        if part.cols.has_full() && self.error.is_none() {
            if let Err(e) = self.write(&key, false) {
                self.error = Some(e);
            }
        }
        self.weigh_in -= 1;
        if self.weigh_in == 0 {
            self.weigh_in = WEIGH_EVERY;
            self.weigh();
        }
        Ok(())
    }
}

/// `batch` with the packet columns appended.
fn with_packet_columns(batch: &RecordBatch, extra: Vec<ArrayRef>) -> Result<RecordBatch, Error> {
    let schema = batch.schema();
    let mut fields: Vec<FieldRef> = schema.fields().iter().cloned().collect();
    fields.extend(packet_fields().into_iter().map(Arc::new));
    let mut cols = batch.columns().to_vec();
    cols.extend(extra);
    let schema = Schema::new_with_metadata(fields, schema.metadata().clone());
    RecordBatch::try_new(Arc::new(schema), cols).map_err(|e| Error::Arrow(e.to_string()))
}

/// Mantissa-and-constant-exponent composites as `Decimal128` (see the module docs).
pub fn decimalize(batch: &RecordBatch) -> Result<RecordBatch, Error> {
    let schema = batch.schema();
    let meta = schema.metadata();
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut cols = Vec::with_capacity(batch.num_columns());
    for (f, c) in schema.fields().iter().zip(batch.columns()) {
        let (f, c) = convert(f, c, f.name(), meta)?;
        fields.push(f);
        cols.push(c);
    }
    let schema = Schema::new_with_metadata(fields, meta.clone());
    RecordBatch::try_new(Arc::new(schema), cols).map_err(|e| Error::Arrow(e.to_string()))
}

fn convert(
    field: &FieldRef,
    col: &ArrayRef,
    path: &str,
    meta: &std::collections::HashMap<String, String>,
) -> Result<(FieldRef, ArrayRef), Error> {
    match field.data_type() {
        DataType::Struct(children) => {
            let Some(s) = col.as_any().downcast_ref::<StructArray>() else {
                return Ok((field.clone(), col.clone()));
            };
            let exponent = meta
                .get(&format!("sbe.constant.{path}.exponent"))
                .and_then(|e| e.parse::<i8>().ok());
            if let (Some(exp), [only]) = (exponent, children.as_ref()) {
                if only.name() == "mantissa" && exp <= 0 {
                    if let Some(m) = s.column(0).as_any().downcast_ref::<Int64Array>() {
                        let nulls = NullBuffer::union(s.nulls(), m.nulls());
                        let values = m
                            .values()
                            .iter()
                            .map(|&v| i128::from(v))
                            .collect::<Vec<_>>();
                        let scale = -exp;
                        let d = Decimal128Array::new(values.into(), nulls)
                            .with_precision_and_scale(38, scale)
                            .map_err(|e| Error::Arrow(e.to_string()))?;
                        let f = Field::new(field.name(), d.data_type().clone(), true);
                        return Ok((Arc::new(f), Arc::new(d)));
                    }
                }
            }
            let mut fields = Vec::with_capacity(children.len());
            let mut cols = Vec::with_capacity(children.len());
            for (cf, cc) in children.iter().zip(s.columns()) {
                let (f, c) = convert(cf, cc, &format!("{path}.{}", cf.name()), meta)?;
                fields.push(f);
                cols.push(c);
            }
            let fields = Fields::from(fields);
            let s = StructArray::try_new(fields.clone(), cols, s.nulls().cloned())
                .map_err(|e| Error::Arrow(e.to_string()))?;
            let f = Field::new(field.name(), DataType::Struct(fields), field.is_nullable())
                .with_metadata(field.metadata().clone());
            Ok((Arc::new(f), Arc::new(s)))
        }
        DataType::List(item) => {
            let Some(l) = col.as_any().downcast_ref::<ListArray>() else {
                return Ok((field.clone(), col.clone()));
            };
            // A group's entries: members' paths continue from the group's.
            let (item_f, values) = convert(item, l.values(), path, meta)?;
            let l = ListArray::try_new(
                item_f.clone(),
                l.offsets().clone(),
                values,
                l.nulls().cloned(),
            )
            .map_err(|e| Error::Arrow(e.to_string()))?;
            let f = Field::new(field.name(), DataType::List(item_f), field.is_nullable())
                .with_metadata(field.metadata().clone());
            Ok((Arc::new(f), Arc::new(l)))
        }
        _ => Ok((field.clone(), col.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::{day_name, repeated, Nullable, PacketCols};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{TimestampNanosecondType, UInt64Type};
    use arrow_array::Array;

    /// Nullable values keep no mask until a null comes, then one for every row; a take
    /// leaves the rest in order.
    #[test]
    fn nullable_columns_mask_only_once_null() {
        let mut c = Nullable::<i64>::default();
        c.push(Some(1));
        c.push(Some(2));
        let (v, nulls) = c.take(2);
        assert_eq!((v, nulls), (vec![1, 2], None));
        c.push(Some(3));
        c.push(None);
        c.push(Some(5));
        let (v, nulls) = c.take(2);
        assert_eq!(v, [3, 0]);
        let nulls = nulls.expect("a null was pushed");
        assert_eq!((nulls.is_valid(0), nulls.is_valid(1)), (true, false));
        let (v, nulls) = c.take(1);
        assert_eq!(v, [5]);
        assert_eq!(nulls.map(|n| n.null_count()), Some(0));
    }

    /// The packet columns of staged rows, nulls where the packet had none.
    #[test]
    fn packet_columns_as_arrays() {
        let mut p = PacketCols::default();
        for i in 0..3u32 {
            p.capture.push(Some(i64::from(i) * 10));
            p.seq.push((i != 1).then_some(u64::from(i)));
            p.sending.push(None);
            p.index.push(i);
        }
        let cols = p.take(3, "239.1.1.1:20001");
        let capture = cols[0].as_primitive::<TimestampNanosecondType>();
        assert_eq!(capture.values().as_ref(), [0, 10, 20]);
        assert_eq!(capture.null_count(), 0);
        let channel = cols[1].as_string::<i32>();
        assert_eq!(channel.len(), 3);
        assert!(channel.iter().all(|c| c == Some("239.1.1.1:20001")));
        let seq = cols[2].as_primitive::<UInt64Type>();
        assert_eq!(seq.iter().collect::<Vec<_>>(), [Some(0), None, Some(2)]);
        assert_eq!(cols[3].null_count(), 3);
        assert_eq!(cols[4].len(), 3);
        assert!(p.index.is_empty() && p.capture.values.is_empty());
        // The room is kept for the next batch.
        assert!(p.index.capacity() >= 3 && p.seq.values.capacity() >= 3);
    }

    #[test]
    fn repeated_strings() {
        assert_eq!(repeated("ab", 0).len(), 0);
        let a = repeated("ab", 3);
        assert_eq!(a.iter().collect::<Vec<_>>(), [Some("ab"); 3]);
        assert_eq!(repeated("", 2).iter().collect::<Vec<_>>(), [Some(""); 2]);
    }

    #[test]
    fn partition_dates() {
        assert_eq!(day_name(Some(0)), "1970-01-01");
        assert_eq!(day_name(Some(20_455)), "2026-01-02");
        assert_eq!(day_name(Some(11_016)), "2000-02-29");
        assert_eq!(day_name(Some(-1)), "1969-12-31");
        assert_eq!(day_name(None), "unknown");
    }
}
