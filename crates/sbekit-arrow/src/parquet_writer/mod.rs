//! A Parquet writer of our own: pages encoded straight from Arrow arrays, for the types the
//! exports produce.
//!
//! arrow-rs's `ArrowWriter` is general (every Arrow type, page indexes, bloom filters, many
//! encodings) and spends most of an export's CPU on it: per-value dictionary interning
//! through generic traits, level computation and mini-batches. This writer does less, more
//! directly: Parquet format version 1 data pages; definition and repetition levels in the
//! RLE / bit-packed hybrid; values PLAIN, `DELTA_BINARY_PACKED` (integers) or dictionary
//! encoded (`RLE_DICTIONARY`, a dictionary page per chunk, falling back to PLAIN past 1 MiB);
//! snappy or no compression; chunk statistics (null counts; min and max of integer columns);
//! no page index, no bloom filters. The schema (Parquet's, and the `ARROW:schema` key that
//! lets arrow-rs restore the Arrow types) is arrow-rs's own conversion, so both writers'
//! files read back the same.
//!
//! Handled Arrow types ([`FileWriter::supports`]): booleans, integers of every width, floats,
//! timestamps, `Decimal128`, `Utf8`, `Binary`, `Dictionary(Int32, Utf8)`, and structs, lists
//! and fixed-size lists of those. Anything else (maps, large lists, views, dates...) makes
//! [`FileWriter::supports`] false, and the sink writes that file with `ArrowWriter`.

mod column;
mod encode;
mod levels;
mod thrift;

use crate::sink::Codec;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
pub(crate) use column::hash_bytes;
use column::{ChunkMeta, Column, Kind, Mode, Physical};
use parquet::arrow::ArrowSchemaConverter;
use parquet::basic::{ConvertedType, LogicalType, TimeUnit, Type as PhysicalType};
use parquet::schema::types::{SchemaDescriptor, Type};
use std::io::Write;
use thrift::T;

/// Parquet encodings used (the format's codes).
#[derive(Debug, Clone, Copy)]
#[repr(u16)]
pub(crate) enum Encoding {
    Plain = 0,
    Rle = 3,
    DeltaBinaryPacked = 5,
    RleDictionary = 8,
}

/// How a leaf column is encoded, per [`FileWriter::new`]'s caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnEncoding {
    /// PLAIN values.
    Plain,
    /// `DELTA_BINARY_PACKED` (integer columns; others are written plain).
    Delta,
    /// A dictionary page and `RLE_DICTIONARY` indices (not for booleans and fixed-length
    /// decimals, which are written plain).
    Dictionary,
}

/// The writer's settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// Page compression.
    pub codec: Codec,
    /// A row group is closed at this many rows.
    pub row_group_rows: usize,
    /// A row group is closed once its encoded pages hold this many bytes.
    pub row_group_bytes: usize,
    /// The `created_by` of the footer.
    pub created_by: String,
}

/// What a file's footer says about a row group.
struct RowGroupMeta {
    chunks: Vec<ChunkMeta>,
    rows: usize,
}

/// Writes one Parquet file of `schema`'s batches to `W` (see the module docs).
pub struct FileWriter<W: Write> {
    out: W,
    at: u64,
    schema: SchemaRef,
    descr: SchemaDescriptor,
    columns: Vec<Column>,
    options: Options,
    groups: Vec<RowGroupMeta>,
    rows: usize,
}

impl<W: Write> FileWriter<W> {
    /// Whether this writer handles every column of `schema`.
    pub fn supports(schema: &arrow_schema::Schema) -> bool {
        let mut levels = Vec::new();
        schema
            .fields()
            .iter()
            .all(|f| levels::max_levels(f, 0, 0, &mut levels).is_some())
    }

    /// A writer of `schema` into `out`; `encoding` picks each leaf column's encoding (in
    /// Parquet's column order). Fails on a schema [`FileWriter::supports`] refuses.
    pub fn new(
        mut out: W,
        schema: SchemaRef,
        encoding: impl Fn(usize, &parquet::schema::types::ColumnDescriptor) -> ColumnEncoding,
        options: Options,
    ) -> Result<Self, String> {
        let mut levels = Vec::new();
        for f in schema.fields() {
            levels::max_levels(f, 0, 0, &mut levels).ok_or_else(|| {
                format!("column {} has a type this writer does not handle", f.name())
            })?;
        }
        let descr = ArrowSchemaConverter::new()
            .convert(&schema)
            .map_err(|e| e.to_string())?;
        if descr.num_columns() != levels.len() {
            return Err("the Parquet schema's leaves do not match the Arrow schema's".into());
        }
        let mut kinds = Vec::new();
        for f in schema.fields() {
            leaf_kinds(f.data_type(), &mut kinds);
        }
        let mut columns = Vec::with_capacity(levels.len());
        for (i, ((c, (def, rep)), kind)) in
            descr.columns().iter().zip(&levels).zip(kinds).enumerate()
        {
            if c.max_def_level() as u16 != *def || c.max_rep_level() as u16 != *rep {
                return Err(format!("levels of {} do not match", c.path()));
            }
            let physical = match c.physical_type() {
                PhysicalType::BOOLEAN => Physical::Boolean,
                PhysicalType::INT32 => Physical::Number {
                    wide: false,
                    float: false,
                },
                PhysicalType::INT64 => Physical::Number {
                    wide: true,
                    float: false,
                },
                PhysicalType::FLOAT => Physical::Number {
                    wide: false,
                    float: true,
                },
                PhysicalType::DOUBLE => Physical::Number {
                    wide: true,
                    float: true,
                },
                PhysicalType::BYTE_ARRAY => Physical::ByteArray,
                PhysicalType::FIXED_LEN_BYTE_ARRAY if kind == Kind::Decimal => {
                    Physical::Fixed(c.type_length().clamp(1, 16) as usize)
                }
                t => return Err(format!("{}: physical type {t} not handled", c.path())),
            };
            let unsigned = matches!(
                c.logical_type_ref(),
                Some(LogicalType::Integer(i)) if !i.is_signed
            );
            let mode = match encoding(i, c) {
                ColumnEncoding::Plain => Mode::Plain,
                ColumnEncoding::Delta => Mode::Delta,
                ColumnEncoding::Dictionary => Mode::Dictionary,
            };
            columns.push(Column::new(
                kind,
                physical,
                unsigned,
                *def,
                *rep,
                mode,
                options.codec,
            ));
        }
        out.write_all(b"PAR1").map_err(|e| e.to_string())?;
        Ok(FileWriter {
            out,
            at: 4,
            schema,
            descr,
            columns,
            options,
            groups: Vec::new(),
            rows: 0,
        })
    }

    /// Writes `batch` (of the writer's schema), closing row groups at the limits.
    pub fn write(&mut self, batch: &RecordBatch) -> std::io::Result<()> {
        if batch.schema_ref().fields() != self.schema.fields() {
            return Err(std::io::Error::other(
                "batch schema differs from the file's",
            ));
        }
        let mut at = 0;
        let mut leaves = Vec::new();
        while at < batch.num_rows() {
            let n = (self.options.row_group_rows.max(1) - self.rows).min(batch.num_rows() - at);
            let part = batch.slice(at, n);
            leaves.clear();
            for (f, a) in part.schema_ref().fields().iter().zip(part.columns()) {
                levels::shred(f, a, &mut leaves);
            }
            for (c, leaf) in self.columns.iter_mut().zip(leaves.drain(..)) {
                c.append(leaf);
            }
            self.rows += n;
            at += n;
            if self.rows >= self.options.row_group_rows.max(1)
                || self.memory_size() >= self.options.row_group_bytes
            {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Bytes held for the open row group.
    pub fn memory_size(&self) -> usize {
        self.columns.iter().map(Column::memory).sum()
    }

    /// Row groups written so far.
    pub fn row_groups(&self) -> usize {
        self.groups.len()
    }

    /// Column chunks written so far (whose metadata the footer will hold).
    pub fn chunks(&self) -> usize {
        self.groups.len() * self.columns.len()
    }

    /// Closes the open row group (if it has rows).
    pub fn flush(&mut self) -> std::io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut chunks = Vec::with_capacity(self.columns.len());
        for c in &mut self.columns {
            let out = &mut self.out;
            let at = &mut self.at;
            let start = *at;
            let meta = c.finish_chunk(start, &mut |b: &[u8]| {
                out.write_all(b)?;
                *at += b.len() as u64;
                Ok(())
            })?;
            chunks.push(meta);
        }
        self.groups.push(RowGroupMeta {
            chunks,
            rows: self.rows,
        });
        self.rows = 0;
        Ok(())
    }

    /// Closes the open row group, writes the footer and returns the output.
    pub fn into_inner(mut self) -> std::io::Result<W> {
        self.flush()?;
        let footer = self.footer();
        self.out.write_all(&footer)?;
        self.out.write_all(&(footer.len() as u32).to_le_bytes())?;
        self.out.write_all(b"PAR1")?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// The thrift `FileMetaData`.
    fn footer(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = thrift::Writer::new(&mut out);
        w.i32(1, 1);
        let mut elements = 0;
        count_elements(self.descr.root_schema(), &mut elements);
        w.list(2, T::Struct, elements);
        schema_elements(&mut w, self.descr.root_schema(), true);
        let rows: usize = self.groups.iter().map(|g| g.rows).sum();
        w.i64(3, rows as i64);
        w.list(4, T::Struct, self.groups.len());
        for g in &self.groups {
            w.elem_begin();
            w.list(1, T::Struct, g.chunks.len());
            for (c, (col, descr)) in g
                .chunks
                .iter()
                .zip(self.columns.iter().zip(self.descr.columns()))
            {
                w.elem_begin();
                w.i64(2, c.start as i64);
                w.begin(3);
                w.i32(1, col.physical().code());
                let encodings: Vec<i32> = (0..16).filter(|b| c.encodings & (1 << b) != 0).collect();
                w.list(2, T::I32, encodings.len());
                for e in encodings {
                    w.elem_i32(e);
                }
                let path = descr.path().parts();
                w.list(3, T::Binary, path.len());
                for p in path {
                    w.elem_binary(p.as_bytes());
                }
                w.i32(
                    4,
                    match self.options.codec {
                        Codec::None => 0,
                        Codec::Snappy => 1,
                    },
                );
                w.i64(5, c.num_values);
                w.i64(6, c.uncompressed as i64);
                w.i64(7, c.compressed as i64);
                w.i64(9, c.data_offset as i64);
                if let Some(d) = c.dictionary_offset {
                    w.i64(11, d as i64);
                }
                w.begin(12);
                w.i64(3, c.null_count);
                if let Some((min, max)) = &c.min_max {
                    w.binary(5, max).binary(6, min);
                }
                w.end();
                w.end();
                w.end();
            }
            let total: u64 = g.chunks.iter().map(|c| c.uncompressed).sum();
            let compressed: u64 = g.chunks.iter().map(|c| c.compressed).sum();
            w.i64(2, total as i64);
            w.i64(3, g.rows as i64);
            w.i64(5, g.chunks.first().map_or(0, |c| c.start) as i64);
            w.i64(6, compressed as i64);
            w.end();
        }
        w.list(5, T::Struct, 1);
        w.elem_begin()
            .binary(1, parquet::arrow::ARROW_SCHEMA_META_KEY.as_bytes())
            .binary(
                2,
                parquet::arrow::encode_arrow_schema(&self.schema).as_bytes(),
            )
            .end();
        w.binary(6, self.options.created_by.as_bytes());
        w.list(7, T::Struct, self.columns.len());
        for _ in &self.columns {
            // TYPE_ORDER: min and max compare by the logical type.
            w.elem_begin().begin(1).end().end();
        }
        w.finish();
        out
    }
}

/// The leaf kinds of a column of type `t`, depth first.
fn leaf_kinds(t: &arrow_schema::DataType, out: &mut Vec<Kind>) {
    use arrow_schema::DataType;
    match t {
        DataType::Struct(children) => children.iter().for_each(|c| leaf_kinds(c.data_type(), out)),
        DataType::List(item) | DataType::FixedSizeList(item, _) => {
            leaf_kinds(item.data_type(), out)
        }
        t => out.extend(Kind::of(t)),
    }
}

fn count_elements(t: &Type, n: &mut usize) {
    *n += 1;
    if t.is_group() {
        t.get_fields().iter().for_each(|f| count_elements(f, n));
    }
}

/// The schema's `SchemaElement`s, depth first.
fn schema_elements(w: &mut thrift::Writer<'_>, t: &Type, root: bool) {
    let info = t.get_basic_info();
    w.elem_begin();
    if !t.is_group() {
        let code = match t.get_physical_type() {
            PhysicalType::BOOLEAN => 0,
            PhysicalType::INT32 => 1,
            PhysicalType::INT64 => 2,
            PhysicalType::INT96 => 3,
            PhysicalType::FLOAT => 4,
            PhysicalType::DOUBLE => 5,
            PhysicalType::BYTE_ARRAY => 6,
            PhysicalType::FIXED_LEN_BYTE_ARRAY => 7,
        };
        w.i32(1, code);
        if t.get_physical_type() == PhysicalType::FIXED_LEN_BYTE_ARRAY {
            if let Type::PrimitiveType { type_length, .. } = t {
                w.i32(2, *type_length);
            }
        }
    }
    if !root && info.has_repetition() {
        w.i32(3, info.repetition() as i32);
    }
    w.binary(4, info.name().as_bytes());
    if t.is_group() {
        w.i32(5, t.get_fields().len() as i32);
    }
    let converted = info.converted_type();
    if converted != ConvertedType::NONE {
        w.i32(6, converted as i32);
    }
    if !t.is_group() && t.get_scale() >= 0 && t.get_precision() > 0 {
        w.i32(7, t.get_scale()).i32(8, t.get_precision());
    }
    if info.has_id() {
        w.i32(9, info.id());
    }
    if let Some(l) = info.logical_type_ref() {
        w.begin(10);
        match l {
            LogicalType::String => {
                w.begin(1).end();
            }
            LogicalType::Map => {
                w.begin(2).end();
            }
            LogicalType::List => {
                w.begin(3).end();
            }
            LogicalType::Enum => {
                w.begin(4).end();
            }
            LogicalType::Decimal(d) => {
                w.begin(5).i32(1, d.scale).i32(2, d.precision).end();
            }
            LogicalType::Timestamp(t) => {
                let u = match t.unit {
                    TimeUnit::MILLIS => 1,
                    TimeUnit::MICROS => 2,
                    TimeUnit::NANOS => 3,
                };
                w.begin(8)
                    .bool(1, t.is_adjusted_to_u_t_c)
                    .begin(2)
                    .begin(u)
                    .end()
                    .end()
                    .end();
            }
            LogicalType::Integer(i) => {
                w.begin(10).byte(1, i.bit_width).bool(2, i.is_signed).end();
            }
            _ => {
                // Not produced for the handled types (see `Kind`).
                w.begin(11).end();
            }
        }
        w.end();
    }
    w.end();
    if t.is_group() {
        for f in t.get_fields() {
            schema_elements(w, f, false);
        }
    }
}
