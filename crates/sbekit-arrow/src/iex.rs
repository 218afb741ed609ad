//! IEX-TP captures (DEEP 1.0, TOPS 1.6/1.5, DEEP+) to Arrow: one table per message type.
//!
//! Every table starts with the same columns:
//!
//! | column | Arrow type | what |
//! | --- | --- | --- |
//! | `timestamp` | `Timestamp(ns, UTC)` | the message's event time |
//! | `send_time` | `Timestamp(ns, UTC)` | the IEX-TP segment's send time |
//! | `sequence` | `Int64` | the message's sequence number (the segment's first sequence number plus the message's index in it) |
//! | `session_id` | `UInt32` | the IEX-TP session |
//! | `stream_offset` | `Int64` | the segment's IEX-TP stream offset |
//! | `segment_offset` | `UInt64` | the segment's byte offset in the (decompressed) capture |
//!
//! then the message's own fields, named as in `sbekit_iex::msg`. Prices are
//! `Decimal128(18, 4)`: the feed sends them as integers with 4 implied decimals, so the
//! decimal is exact (sums and equality in SQL give the exchange's own figures, where Float64
//! would round `0.1`-style prices and make sums order-dependent) and Parquet stores it as a
//! plain `INT64`, as compact as the wire. Symbols and the 4-byte reason codes are `Utf8`
//! with the padding spaces removed; one-byte codes (`status`, `side`, `auction_type`...) are
//! one-character `Utf8`; flag bytes are `UInt8`; sizes `UInt32`; ids `Int64`. The auction's
//! `scheduled_auction_time` (seconds on the wire) is `Timestamp(s, UTC)`. Price level updates
//! of both sides share one table with a `side` column (`B` for type `8`, `S` for `5`).
//! Messages of a type this reader does not know go to the `unknown` table with their type
//! byte and raw bytes.

use crate::sbe::{AsciiText, Pool};
use crate::sink::PartitionedWriter;
use crate::Error;
use arrow_array::builder::StringBuilder;
use arrow_array::types::{Int64Type, TimestampNanosecondType, TimestampSecondType, UInt32Type};
use arrow_array::{
    ArrayRef, BinaryArray, Decimal128Array, PrimitiveArray, RecordBatch, UInt8Array,
};
use arrow_buffer::{ArrowNativeType, Buffer};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use sbekit_iex::tp::Segment;
use sbekit_iex::{IexErrorKind, ReadOptions};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// How a message field is read and typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A flag byte: `UInt8`.
    U8,
    /// A one-byte code: one-character `Utf8`.
    Char,
    /// `UInt32`.
    U32,
    /// `Int64`.
    I64,
    /// A price: `Decimal128(18, 4)`.
    Price,
    /// Seconds since the epoch (`u32`): `Timestamp(s, UTC)`.
    Seconds,
    /// An 8-byte space-padded symbol: `Utf8`.
    Symbol,
    /// A 4-byte space-padded code: `Utf8`.
    Text4,
    /// The price level update's side from its type byte: `B` or `S`.
    Side,
}

struct Col {
    name: &'static str,
    at: usize,
    kind: Kind,
}

const fn c(name: &'static str, at: usize, kind: Kind) -> Col {
    Col { name, at, kind }
}

struct Spec {
    table: &'static str,
    types: &'static [u8],
    len: usize,
    cols: &'static [Col],
}

use Kind::*;

/// The tables, one per message type (both price level update types share one).
const SPECS: &[Spec] = &[
    Spec {
        table: "system_event",
        types: b"S",
        len: 10,
        cols: &[c("event", 1, Char)],
    },
    Spec {
        table: "security_directory",
        types: b"D",
        len: 31,
        cols: &[
            c("flags", 1, U8),
            c("symbol", 10, Symbol),
            c("round_lot_size", 18, U32),
            c("adjusted_poc_price", 22, Price),
            c("luld_tier", 30, U8),
        ],
    },
    Spec {
        table: "trading_status",
        types: b"H",
        len: 22,
        cols: &[
            c("status", 1, Char),
            c("symbol", 10, Symbol),
            c("reason", 18, Text4),
        ],
    },
    Spec {
        table: "retail_liquidity_indicator",
        types: b"I",
        len: 18,
        cols: &[c("indicator", 1, Char), c("symbol", 10, Symbol)],
    },
    Spec {
        table: "operational_halt_status",
        types: b"O",
        len: 18,
        cols: &[c("status", 1, Char), c("symbol", 10, Symbol)],
    },
    Spec {
        table: "short_sale_price_test_status",
        types: b"P",
        len: 19,
        cols: &[
            c("status", 1, U8),
            c("symbol", 10, Symbol),
            c("detail", 18, Char),
        ],
    },
    Spec {
        table: "security_event",
        types: b"E",
        len: 18,
        cols: &[c("event", 1, Char), c("symbol", 10, Symbol)],
    },
    Spec {
        table: "price_level_update",
        types: b"85",
        len: 30,
        cols: &[
            c("side", 0, Side),
            c("event_flags", 1, U8),
            c("symbol", 10, Symbol),
            c("size", 18, U32),
            c("price", 22, Price),
        ],
    },
    Spec {
        table: "quote_update",
        types: b"Q",
        len: 42,
        cols: &[
            c("flags", 1, U8),
            c("symbol", 10, Symbol),
            c("bid_size", 18, U32),
            c("bid_price", 22, Price),
            c("ask_price", 30, Price),
            c("ask_size", 38, U32),
        ],
    },
    Spec {
        table: "trade",
        types: b"T",
        len: 38,
        cols: &[
            c("sale_condition", 1, U8),
            c("symbol", 10, Symbol),
            c("size", 18, U32),
            c("price", 22, Price),
            c("trade_id", 30, I64),
        ],
    },
    Spec {
        table: "trade_break",
        types: b"B",
        len: 38,
        cols: &[
            c("sale_condition", 1, U8),
            c("symbol", 10, Symbol),
            c("size", 18, U32),
            c("price", 22, Price),
            c("trade_id", 30, I64),
        ],
    },
    Spec {
        table: "official_price",
        types: b"X",
        len: 26,
        cols: &[
            c("price_type", 1, Char),
            c("symbol", 10, Symbol),
            c("official_price", 18, Price),
        ],
    },
    Spec {
        table: "auction_information",
        types: b"A",
        len: 80,
        cols: &[
            c("auction_type", 1, Char),
            c("symbol", 10, Symbol),
            c("paired_shares", 18, U32),
            c("reference_price", 22, Price),
            c("indicative_clearing_price", 30, Price),
            c("imbalance_shares", 38, U32),
            c("imbalance_side", 42, Char),
            c("extension_number", 43, U8),
            c("scheduled_auction_time", 44, Seconds),
            c("auction_book_clearing_price", 48, Price),
            c("collar_reference_price", 56, Price),
            c("lower_auction_collar", 64, Price),
            c("upper_auction_collar", 72, Price),
        ],
    },
    Spec {
        table: "add_order",
        types: b"a",
        len: 38,
        cols: &[
            c("side", 1, Char),
            c("symbol", 10, Symbol),
            c("order_id", 18, I64),
            c("size", 26, U32),
            c("price", 30, Price),
        ],
    },
    Spec {
        table: "order_modify",
        types: b"M",
        len: 38,
        cols: &[
            c("modify_flags", 1, U8),
            c("symbol", 10, Symbol),
            c("order_id", 18, I64),
            c("size", 26, U32),
            c("price", 30, Price),
        ],
    },
    Spec {
        table: "order_delete",
        types: b"R",
        len: 26,
        cols: &[c("symbol", 10, Symbol), c("order_id", 18, I64)],
    },
    Spec {
        table: "order_executed",
        types: b"L",
        len: 46,
        cols: &[
            c("sale_condition", 1, U8),
            c("symbol", 10, Symbol),
            c("order_id", 18, I64),
            c("size", 26, U32),
            c("price", 30, Price),
            c("trade_id", 38, I64),
        ],
    },
    Spec {
        table: "clear_book",
        types: b"C",
        len: 18,
        cols: &[c("symbol", 10, Symbol)],
    },
];

/// The name of the table holding messages of unknown types.
pub const UNKNOWN_TABLE: &str = "unknown";

/// The table a message type byte goes to.
pub fn table_of(msg_type: u8) -> &'static str {
    SPECS
        .iter()
        .find(|s| s.types.contains(&msg_type))
        .map_or(UNKNOWN_TABLE, |s| s.table)
}

/// Every table name, in a fixed order (the unknown table last).
pub fn table_names() -> impl Iterator<Item = &'static str> {
    SPECS.iter().map(|s| s.table).chain([UNKNOWN_TABLE])
}

fn ts_ns() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}

fn col_type(k: Kind) -> DataType {
    match k {
        U8 => DataType::UInt8,
        Char | Symbol | Text4 | Side => DataType::Utf8,
        U32 => DataType::UInt32,
        I64 => DataType::Int64,
        Price => DataType::Decimal128(18, 4),
        Seconds => DataType::Timestamp(TimeUnit::Second, Some("UTC".into())),
    }
}

/// The common columns, then `cols` (or the unknown table's `msg_type`, `raw`).
fn schema_of(spec: Option<&Spec>) -> SchemaRef {
    let mut fields = vec![
        Field::new("timestamp", ts_ns(), false),
        Field::new("send_time", ts_ns(), false),
        Field::new("sequence", DataType::Int64, false),
        Field::new("session_id", DataType::UInt32, false),
        Field::new("stream_offset", DataType::Int64, false),
        Field::new("segment_offset", DataType::UInt64, false),
    ];
    match spec {
        Some(s) => fields.extend(
            s.cols
                .iter()
                .map(|c| Field::new(c.name, col_type(c.kind), false)),
        ),
        None => {
            fields.push(Field::new("msg_type", DataType::UInt8, false));
            fields.push(Field::new("raw", DataType::Binary, false));
        }
    }
    Arc::new(Schema::new(fields))
}

/// Raw values of one column until the batch is cut.
enum Buf {
    B1(Vec<u8>),
    B4(Vec<u32>),
    B8(Vec<i64>),
}

struct Table {
    spec: Option<&'static Spec>,
    schema: SchemaRef,
    timestamp: Vec<i64>,
    send_time: Vec<i64>,
    sequence: Vec<i64>,
    session: Vec<u32>,
    stream_offset: Vec<i64>,
    segment_offset: Vec<u64>,
    cols: Vec<Buf>,
    /// The unknown table's raw bytes and offsets.
    raw: Vec<u8>,
    raw_offsets: Vec<i32>,
}

impl Table {
    fn new(spec: Option<&'static Spec>) -> Table {
        let cols = spec.map_or(vec![Buf::B1(Vec::new())], |s| {
            s.cols
                .iter()
                .map(|c| match c.kind {
                    U8 | Char | Side => Buf::B1(Vec::new()),
                    U32 | Seconds | Text4 => Buf::B4(Vec::new()),
                    I64 | Price | Symbol => Buf::B8(Vec::new()),
                })
                .collect()
        });
        Table {
            spec,
            schema: schema_of(spec),
            timestamp: Vec::new(),
            send_time: Vec::new(),
            sequence: Vec::new(),
            session: Vec::new(),
            stream_offset: Vec::new(),
            segment_offset: Vec::new(),
            cols,
            raw: Vec::new(),
            raw_offsets: vec![0],
        }
    }

    fn rows(&self) -> usize {
        self.sequence.len()
    }

    /// The rows so far as a batch; the columns start again on memory from `pool` (the
    /// buffers of batches written and dropped), with room for as many rows.
    fn finish(&mut self, pool: &mut Pool) -> Result<RecordBatch, Error> {
        let n = self.rows();
        let ts = |b: Buffer| -> ArrayRef {
            Arc::new(
                PrimitiveArray::<TimestampNanosecondType>::new(b.into(), None).with_timezone("UTC"),
            )
        };
        let mut arrays: Vec<ArrayRef> = vec![
            ts(renew(&mut self.timestamp, pool, n)),
            ts(renew(&mut self.send_time, pool, n)),
            Arc::new(PrimitiveArray::<Int64Type>::new(
                renew(&mut self.sequence, pool, n).into(),
                None,
            )),
            Arc::new(PrimitiveArray::<UInt32Type>::new(
                renew(&mut self.session, pool, n).into(),
                None,
            )),
            Arc::new(PrimitiveArray::<Int64Type>::new(
                renew(&mut self.stream_offset, pool, n).into(),
                None,
            )),
            Arc::new(arrow_array::UInt64Array::new(
                renew(&mut self.segment_offset, pool, n).into(),
                None,
            )),
        ];
        match self.spec {
            Some(spec) => {
                for (col, buf) in spec.cols.iter().zip(&mut self.cols) {
                    arrays.push(finish_col(col.kind, buf, pool)?);
                }
            }
            None => {
                let Buf::B1(types) = &mut self.cols[0] else {
                    return Err(Error::Arrow("unknown table".into()));
                };
                arrays.push(Arc::new(UInt8Array::from(std::mem::take(types))));
                let offsets = std::mem::replace(&mut self.raw_offsets, vec![0]);
                arrays.push(Arc::new(BinaryArray::new(
                    arrow_buffer::OffsetBuffer::new(offsets.into()),
                    std::mem::take(&mut self.raw).into(),
                    None,
                )));
            }
        }
        RecordBatch::try_new(self.schema.clone(), arrays).map_err(|e| Error::Arrow(e.to_string()))
    }
}

/// `v`'s values as a buffer (kept by `pool` for reuse); `v` starts again on pooled memory
/// with room for `n` values (growing a fresh vector by doubling cost copies and page faults).
fn renew<T: ArrowNativeType>(v: &mut Vec<T>, pool: &mut Pool, n: usize) -> Buffer {
    let next = pool.vec(n);
    pool.buffer(std::mem::replace(v, next))
}

fn trim(b: &[u8]) -> &str {
    std::str::from_utf8(&b[..trimmed(b)]).unwrap_or("\u{fffd}")
}

/// A string column of `values`, each appended by `put` (copied into the array's buffer: no
/// `String` per value, which cost ~8% of an export's CPU in allocation and copies).
fn strings<T>(
    values: impl ExactSizeIterator<Item = T>,
    mut put: impl FnMut(T, &mut StringBuilder),
) -> ArrayRef {
    let n = values.len();
    // Most values are short: symbols up to 8 bytes, the rest 1-4.
    let mut out = StringBuilder::with_capacity(n, n * 4);
    values.for_each(|x| put(x, &mut out));
    Arc::new(out.finish())
}

/// A string column of `values`, each turned into its bytes by `text`: built without a check
/// per value when every value is ASCII (symbols, codes and sides are), else with
/// [`strings`] and `put` (the same values: `put` writes `text`'s bytes when they are UTF-8).
fn texts<T: Copy>(
    values: &[T],
    pool: &mut Pool,
    text: impl Fn(&T, &mut [u8; 8]) -> usize,
    put: impl FnMut(T, &mut StringBuilder),
) -> ArrayRef {
    let n = values.len();
    let mut out = AsciiText::new(pool.vec(n.saturating_mul(4)), pool.vec(n + 1));
    let mut b = [0u8; 8];
    if values.iter().all(|x| {
        let len = text(x, &mut b);
        out.push_whole(&b[..len])
    }) {
        return out.finish(pool);
    }
    strings(values.iter().copied(), put)
}

/// The length of `b` without its padding (trailing spaces and NULs).
fn trimmed(b: &[u8]) -> usize {
    b.iter()
        .rposition(|&c| c != b' ' && c != 0)
        .map_or(0, |i| i + 1)
}

fn finish_col(kind: Kind, buf: &mut Buf, pool: &mut Pool) -> Result<ArrayRef, Error> {
    let wrong = || Error::Arrow("IEX column of the wrong width".into());
    let n = match buf {
        Buf::B1(v) => v.len(),
        Buf::B4(v) => v.len(),
        Buf::B8(v) => v.len(),
    };
    let a: ArrayRef = match (kind, &mut *buf) {
        (U8, Buf::B1(v)) => Arc::new(UInt8Array::new(renew(v, pool, n).into(), None)),
        (U32, Buf::B4(v)) => Arc::new(arrow_array::UInt32Array::new(
            renew(v, pool, n).into(),
            None,
        )),
        (I64, Buf::B8(v)) => Arc::new(arrow_array::Int64Array::new(renew(v, pool, n).into(), None)),
        // The rest are converted, and their raw vectors kept for the next batch.
        (Char, Buf::B1(v)) => texts(
            v,
            pool,
            |&x, b| {
                b[0] = x;
                1
            },
            |x, out| {
                let mut s = [0u8; 4];
                out.append_value((x as char).encode_utf8(&mut s));
            },
        ),
        (Side, Buf::B1(v)) => texts(
            v,
            pool,
            |&x, b| {
                b[0] = if x == b'8' { b'B' } else { b'S' };
                1
            },
            |x, out| out.append_value(if x == b'8' { "B" } else { "S" }),
        ),
        (Seconds, Buf::B4(v)) => {
            let mut s = pool.vec::<i64>(n);
            s.extend(v.iter().map(|&x| i64::from(x)));
            Arc::new(
                PrimitiveArray::<TimestampSecondType>::new(pool.buffer(s).into(), None)
                    .with_timezone("UTC"),
            )
        }
        (Text4, Buf::B4(v)) => texts(
            v,
            pool,
            |x, b| {
                b[..4].copy_from_slice(&x.to_le_bytes());
                trimmed(&b[..4])
            },
            |x, out| out.append_value(trim(&x.to_le_bytes())),
        ),
        (Price, Buf::B8(v)) => {
            let mut d = pool.vec::<i128>(n);
            d.extend(v.iter().map(|&x| i128::from(x)));
            Arc::new(
                Decimal128Array::new(pool.buffer(d).into(), None)
                    .with_precision_and_scale(18, 4)
                    .map_err(|e| Error::Arrow(e.to_string()))?,
            )
        }
        (Symbol, Buf::B8(v)) => texts(
            v,
            pool,
            |x, b| {
                *b = x.to_le_bytes();
                trimmed(b)
            },
            |x, out| out.append_value(trim(&x.to_le_bytes())),
        ),
        _ => return Err(wrong()),
    };
    match buf {
        Buf::B1(v) => v.clear(),
        Buf::B4(v) => v.clear(),
        Buf::B8(v) => v.clear(),
    }
    Ok(a)
}

/// Every IEX message type as an Arrow table, filled segment by segment.
pub struct IexColumns {
    tables: Vec<Table>,
    /// The memory of written batches, for the next ones.
    pool: Pool,
    /// Table index by type byte.
    by_type: [u8; 256],
    batch_rows: usize,
    /// Messages that could not be read (only with `keep_going`).
    pub message_errors: u64,
}

impl IexColumns {
    /// Empty tables; a table's batch is cut every `batch_rows` rows.
    pub fn new(batch_rows: usize) -> IexColumns {
        let mut by_type = [SPECS.len() as u8; 256];
        for (i, s) in SPECS.iter().enumerate() {
            for &t in s.types {
                by_type[t as usize] = i as u8;
            }
        }
        let mut tables: Vec<Table> = SPECS.iter().map(|s| Table::new(Some(s))).collect();
        tables.push(Table::new(None));
        IexColumns {
            tables,
            pool: Pool::default(),
            by_type,
            batch_rows: batch_rows.max(1),
            message_errors: 0,
        }
    }

    /// The Arrow schema of table `name`.
    pub fn schema(&self, name: &str) -> Option<SchemaRef> {
        table_names()
            .position(|n| n == name)
            .map(|i| self.tables[i].schema.clone())
    }

    /// Adds the messages of one segment. A message error ends the segment with an error,
    /// unless `keep_going` (then it is counted in [`Self::message_errors`], as `iex stats`
    /// counts it).
    pub fn add_segment(
        &mut self,
        seg: &Segment<'_>,
        keep_going: bool,
    ) -> Result<(), sbekit_iex::Error> {
        let send = seg.send_time();
        let first = seg.first_seq();
        let session = seg.session_id();
        let stream = seg.stream_offset();
        let offset = seg.offset();
        for (i, m) in seg.messages().enumerate() {
            let m = match m {
                Ok(m) => m,
                Err(e) => {
                    if keep_going {
                        self.message_errors += 1;
                        if matches!(e.kind, IexErrorKind::MessageTooShort { .. }) {
                            continue;
                        }
                        break;
                    }
                    return Err(e);
                }
            };
            let raw = m.raw();
            let ti = self.by_type[raw[0] as usize] as usize;
            let t = &mut self.tables[ti];
            t.timestamp.push(m.timestamp().unwrap_or(0));
            t.send_time.push(send);
            t.sequence.push(first.saturating_add(i as i64));
            t.session.push(session);
            t.stream_offset.push(stream);
            t.segment_offset.push(offset);
            match t.spec {
                Some(spec) => {
                    for (col, buf) in spec.cols.iter().zip(&mut t.cols) {
                        // `Message::parse` checked the specified length, which covers every column.
                        let at = col.at;
                        match buf {
                            Buf::B1(v) => v.push(raw.get(at).copied().unwrap_or(0)),
                            Buf::B4(v) => v.push(u32::from_le_bytes(
                                raw.get(at..at + 4)
                                    .and_then(|b| b.try_into().ok())
                                    .unwrap_or([0; 4]),
                            )),
                            Buf::B8(v) => v.push(i64::from_le_bytes(
                                raw.get(at..at + 8)
                                    .and_then(|b| b.try_into().ok())
                                    .unwrap_or([0; 8]),
                            )),
                        }
                    }
                    debug_assert!(raw.len() >= spec.len);
                }
                None => {
                    if let Buf::B1(v) = &mut t.cols[0] {
                        v.push(raw[0]);
                    }
                    t.raw.extend_from_slice(raw);
                    t.raw_offsets
                        .push(i32::try_from(t.raw.len()).unwrap_or(i32::MAX));
                }
            }
        }
        Ok(())
    }

    /// Cuts the batches of tables that reached the batch size (all non-empty tables with
    /// `all`), with their table names.
    pub fn take_batches(&mut self, all: bool) -> Result<Vec<(&'static str, RecordBatch)>, Error> {
        let mut out = Vec::new();
        for (t, name) in self.tables.iter_mut().zip(table_names()) {
            // The unknown table is also cut by bytes (its raw offsets are 32-bit).
            let full = t.rows() >= self.batch_rows || t.raw.len() >= 1 << 30;
            if t.rows() > 0 && (all || full) {
                out.push((name, t.finish(&mut self.pool)?));
            }
        }
        Ok(out)
    }
}

/// The UTC calendar date (`2017-04-25`) of a time in ns since the epoch.
pub fn utc_date(ns: i64) -> String {
    let days = ns.div_euclid(86_400_000_000_000);
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// What exporting one capture did.
#[derive(Debug, Clone, Default)]
pub struct CaptureExport {
    /// Rows per table.
    pub rows: BTreeMap<String, u64>,
    /// The `date=` partition (UTC date of the first segment's send time).
    pub date: Option<String>,
    /// Decompressed capture bytes read.
    pub bytes: u64,
    /// The error that ended the capture early (its rows before it were written).
    pub error: Option<sbekit_iex::Error>,
    /// Messages skipped as unreadable (with `keep_going`).
    pub message_errors: u64,
}

struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Streams the capture at `path` (pcap or pcap-ng, plain or gzip) into `out`, partitioned
/// `date=YYYY-MM-DD/type=TABLE`, in bounded memory; `progress(bytes)` reports file bytes read
/// (compressed bytes for gzip). The whole capture goes to one date: the UTC date of its first
/// segment's send time (a day's capture stays one partition even where its after-hours
/// session crosses midnight UTC).
pub fn export_capture(
    path: &Path,
    opts: ReadOptions,
    batch_rows: usize,
    out: &mut PartitionedWriter,
    progress: &mut dyn FnMut(u64),
) -> Result<CaptureExport, Error> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut export = Export {
        cols: IexColumns::new(batch_rows),
        report: CaptureExport::default(),
        segments: 0,
    };
    // A plain capture is read in place from a map: streamed, each byte was copied twice
    // (into the read buffer, then the packet's), ~8% of an export's CPU. Gzip is streamed.
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len >= 2 {
        let map = sbekit_fs::map(&file).map_err(|e| Error::io(path, e))?;
        if sbekit_iex::capture::sniff(&map[..2]) != sbekit_iex::capture::Sniffed::Gzip {
            return export.mapped(&map, opts, out, progress);
        }
    }
    let count = Arc::new(AtomicU64::new(0));
    let counting = Counting {
        inner: file,
        count: count.clone(),
    };
    let (mut segs, _) = match sbekit_iex::stream_from_reader(counting, opts) {
        Ok(s) => s,
        Err(e) => {
            export.report.error = Some(e);
            return Ok(export.report);
        }
    };
    while let Some(s) = segs.next_segment() {
        if export.segment(s, opts, out)? {
            break;
        }
        if export.segments % 4096 == 0 {
            progress(count.load(Ordering::Relaxed));
        }
    }
    export.finish(out, segs.position(), || {
        progress(count.load(Ordering::Relaxed))
    })
}

/// Resident capture bytes kept behind the reader of a mapped capture (the rest is released).
const MAPPED_WINDOW: usize = 8 << 20;

/// One capture's export under way: the tables being filled and the report.
struct Export {
    cols: IexColumns,
    report: CaptureExport,
    /// Segments read (the batches are looked at every 4,096).
    segments: u64,
}

impl Export {
    /// Exports the capture `data` (mapped, pcap or pcap-ng), releasing its pages behind the
    /// reader so that the resident set does not grow with the capture.
    fn mapped(
        mut self,
        data: &sbekit_fs::Mmap,
        opts: ReadOptions,
        out: &mut PartitionedWriter,
        progress: &mut dyn FnMut(u64),
    ) -> Result<CaptureExport, Error> {
        let mut segs = match sbekit_iex::tp::Segments::new(data, opts) {
            Ok(s) => s,
            Err(e) => {
                self.report.error = Some(e);
                return Ok(self.report);
            }
        };
        let mut released = 0usize;
        while let Some(s) = segs.next() {
            if self.segment(s, opts, out)? {
                break;
            }
            if self.segments % 4096 == 0 {
                let at = segs.position();
                progress(at);
                let behind = (at as usize).saturating_sub(MAPPED_WINDOW);
                if behind > released + MAPPED_WINDOW {
                    // Only a hint: a failure leaves the pages resident, nothing else.
                    let _ = sbekit_fs::release(data, released, behind - released);
                    released = behind;
                }
            }
        }
        let at = segs.position();
        self.finish(out, at, || progress(at))
    }

    /// Adds segment `s` (or its error) to the tables; true when the export must stop.
    fn segment(
        &mut self,
        s: Result<Segment<'_>, sbekit_iex::Error>,
        opts: ReadOptions,
        out: &mut PartitionedWriter,
    ) -> Result<bool, Error> {
        match s {
            Ok(seg) => {
                self.report.error = None;
                if self.report.date.is_none() {
                    self.report.date = Some(utc_date(seg.send_time()));
                }
                if let Err(e) = self.cols.add_segment(&seg, opts.keep_going) {
                    self.report.error = Some(e);
                    return Ok(true);
                }
            }
            Err(e) => {
                self.report.error = Some(e);
                return Ok(!opts.keep_going);
            }
        }
        self.segments += 1;
        if self.segments % 4096 == 0 {
            self.write(out, false)?;
        }
        Ok(false)
    }

    /// Writes the tables' full batches (all of them: `all`).
    fn write(&mut self, out: &mut PartitionedWriter, all: bool) -> Result<(), Error> {
        let date = self.report.date.clone().unwrap_or_else(|| {
            if all {
                "unknown".into()
            } else {
                String::new()
            }
        });
        for (name, batch) in self.cols.take_batches(all)? {
            *self.report.rows.entry(name.to_string()).or_default() += batch.num_rows() as u64;
            out.write(&[("date", &date), ("type", name)], name, &batch)?;
        }
        Ok(())
    }

    /// Writes what is left; `bytes` is the capture bytes read.
    fn finish(
        mut self,
        out: &mut PartitionedWriter,
        bytes: u64,
        progress: impl FnOnce(),
    ) -> Result<CaptureExport, Error> {
        self.write(out, true)?;
        progress();
        self.report.bytes = bytes;
        self.report.message_errors = self.cols.message_errors;
        Ok(self.report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01");
        // 2017-04-25T13:30:00Z
        assert_eq!(utc_date(1_493_127_000_000_000_000), "2017-04-25");
        assert_eq!(utc_date(951_782_400 * 1_000_000_000), "2000-02-29");
    }

    #[test]
    fn every_type_has_one_table() {
        for t in 0..=255u8 {
            let n = SPECS.iter().filter(|s| s.types.contains(&t)).count();
            assert!(n <= 1);
            if let Some(len) = sbekit_iex::msg::spec_len(t) {
                let s = SPECS.iter().find(|s| s.types.contains(&t)).expect("table");
                assert_eq!(s.len, len, "{}", s.table);
                for c in s.cols {
                    let w = match c.kind {
                        U8 | Char | Side => 1,
                        U32 | Seconds | Text4 => 4,
                        I64 | Price | Symbol => 8,
                    };
                    assert!(c.at + w <= len, "{}.{}", s.table, c.name);
                }
            }
        }
    }

    /// The strings of a column as `finish_col` makes them of the raw values in `buf`.
    fn texts_of(kind: Kind, buf: Buf, pool: &mut Pool) -> Vec<String> {
        let mut buf = buf;
        let a = finish_col(kind, &mut buf, pool).expect("column");
        let s = a
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .expect("Utf8");
        assert_eq!(s.null_count(), 0);
        s.iter().map(|v| v.expect("value").to_string()).collect()
    }

    /// Symbols, codes, sides and one-byte codes: the all-ASCII path (no check per value) and
    /// the fallback (a value not ASCII: UTF-8 kept, anything else replaced) give what `trim`
    /// and the one-byte rules say, batch after batch on pooled memory.
    #[test]
    fn text_columns_ascii_and_not() {
        let word = |b: &[u8]| {
            let mut w = [b' '; 8];
            w[..b.len()].copy_from_slice(b);
            i64::from_le_bytes(w)
        };
        let code = |b: &[u8]| {
            let mut w = [b' '; 4];
            w[..b.len()].copy_from_slice(b);
            u32::from_le_bytes(w)
        };
        let mut pool = Pool::default();
        for round in 0..3 {
            let ascii = vec![
                word(b"AAPL"),
                word(b"ZIEXT"),
                word(b""),
                word(b"ABCDEFGH"),
                word(b"A\0B \0\0"),
            ];
            assert_eq!(
                texts_of(Symbol, Buf::B8(ascii), &mut pool),
                ["AAPL", "ZIEXT", "", "ABCDEFGH", "A\0B"]
            );
            let utf8 = word("É".as_bytes());
            let bad = word(&[b'A', 0xff]);
            assert_eq!(
                texts_of(Symbol, Buf::B8(vec![word(b"IBM"), utf8, bad]), &mut pool),
                ["IBM", "É", "\u{fffd}"]
            );
            assert_eq!(
                texts_of(
                    Text4,
                    Buf::B4(vec![code(b"MWCB"), code(b"X"), code(b"")]),
                    &mut pool
                ),
                ["MWCB", "X", ""]
            );
            assert_eq!(
                texts_of(
                    Text4,
                    Buf::B4(vec![code(b"T1"), code(&[0xc3, 0xa9])]),
                    &mut pool
                ),
                ["T1", "é"]
            );
            assert_eq!(
                texts_of(Side, Buf::B1(vec![b'8', b'5', b'8']), &mut pool),
                ["B", "S", "B"]
            );
            assert_eq!(
                texts_of(Char, Buf::B1(vec![b'T', b' ', 0]), &mut pool),
                ["T", " ", "\0"]
            );
            // A byte above 0x7F is its Latin-1 character.
            assert_eq!(
                texts_of(Char, Buf::B1(vec![b'T', 0xe9]), &mut pool),
                ["T", "é"],
                "round {round}"
            );
        }
    }

    /// Numbers keep their values through pooled buffers, batch after batch, and the raw
    /// vectors start again empty.
    #[test]
    fn number_columns_on_pooled_memory() {
        let mut pool = Pool::default();
        for round in 0..3i64 {
            let mut b = Buf::B8(vec![1 + round, -2, i64::MAX]);
            let a = finish_col(Price, &mut b, &mut pool).expect("price");
            let d = a
                .as_any()
                .downcast_ref::<Decimal128Array>()
                .expect("decimal");
            assert_eq!(
                d.values().to_vec(),
                [i128::from(1 + round), -2, i128::from(i64::MAX)]
            );
            assert!(matches!(&b, Buf::B8(v) if v.is_empty()));
            let mut b = Buf::B4(vec![7, u32::MAX]);
            let a = finish_col(Seconds, &mut b, &mut pool).expect("seconds");
            let t = a.as_primitive::<TimestampSecondType>();
            assert_eq!(t.values().to_vec(), [7, i64::from(u32::MAX)]);
            let mut b = Buf::B8(vec![round, 5]);
            let a = finish_col(I64, &mut b, &mut pool).expect("i64");
            assert_eq!(a.as_primitive::<Int64Type>().values().to_vec(), [round, 5]);
            drop(a);
        }
    }
}
