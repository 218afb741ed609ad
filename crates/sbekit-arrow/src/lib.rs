//! SBE streams, IEX captures and trade-store files to Arrow RecordBatches, and from there to
//! Parquet or Arrow IPC in Hive-style partitioned directories that DuckDB, Polars, Spark,
//! Trino or DataFusion read as one table.
//!
//! * [`sbe`]: any SBE stream, driven by the schema's layout model (no generated code).
//! * [`iex`]: IEX-TP captures (DEEP, TOPS, DEEP+), one table per message type.
//! * [`trades`]: the trade store's records (what `sbekit trades export --parquet` writes).
//! * [`sink`]: partitioned, atomic Parquet / Arrow IPC output with bounded memory.
//!
//! # SBE to Arrow: the mapping
//!
//! Every message template is one table. Its columns are the header columns, then the root
//! block's fields in schema order, then its groups, then its var data.
//!
//! | SBE construct | Arrow type | notes |
//! | --- | --- | --- |
//! | `int8`..`int64`, `uint8`..`uint64` | `Int8`..`Int64`, `UInt8`..`UInt64` | width and signedness kept |
//! | `float`, `double` | `Float32`, `Float64` | |
//! | `char` (one) | `Utf8` | a one-character string, NUL included (as `sbekit decode` prints it); text rule below |
//! | `char` array | `Utf8` | cut at the first NUL; text rule below |
//! | other fixed arrays (`uint8[4]`) | `FixedSizeList<T>` | elements in the schema's byte order, decoded |
//! | enum | `Dictionary<Int32, Utf8>` | the valid value's name; a value the schema does not list is kept as its number in decimal (`"7"`, `"-1"`), a dictionary entry of its own; the enum's null value is null |
//! | enum null listed as a valid value ([`EnumDef::null_listed_as_value`]) | null | as the reference decoder reports it |
//! | set | `Struct<choice: Boolean, ...>` | one column per choice, in schema order |
//! | composite | `Struct` | members as fields, recursively |
//! | optional field (`presence="optional"`) | the type above, nullable | null where the wire holds the null value (NaN for floats) |
//! | constant (`presence="constant"`, also in composites and groups) | schema metadata | key `sbe.constant.<path>` (`sbe.constant.engine.maxRpm`), value as text; not a column, since it is the same in every row |
//! | field newer than the acting version | null | (the sinceVersion rule) |
//! | repeating group | `List<Struct>` | nested as deep as the schema goes; absent at the acting version: an empty list |
//! | group entry with no fields (constants only) | `Struct<_present: Boolean>` | Parquet cannot store a struct without fields |
//! | var data with a character encoding (or `char`) | `Utf8` | text rule below, each value on its own bytes |
//! | var data without one | `Binary` | |
//! | header | `_template_id`, `_schema_id`, `_acting_version`, `_block_length` (`UInt32`), `_offset` (`UInt64`, the message's byte offset in the input) | the reader's schema id and version are schema metadata (`sbe.schema.id`, `sbe.schema.version`) |
//! | framing timestamp | `_timestamp`: `Timestamp(ns, UTC)` | only with [`sbe::Options::timestamp`] (none of the SBE framings carries a time; IEX tables have their own) |
//!
//! [`EnumDef::null_listed_as_value`]: sbekit_ir::layout::EnumDef::null_listed_as_value
//!
//! **Text** follows [`sbekit_otf::text`], the rule `sbekit decode` prints by: a value valid in
//! the field's declared `characterEncoding` is kept (UTF-8 only where the field declares UTF-8;
//! ASCII for `US-ASCII` and encodings sbekit does not decode; any byte for `ISO-8859-1`);
//! anything else, e.g. a var-data value that ends inside a multi-byte sequence, is read one
//! byte per code point (Latin-1), so no message is lost over its text and JSON and Arrow give
//! the same string. [`SbeColumns::text_fallbacks`] counts the values read that way (the rows
//! written, not the bytes), and `sbekit decode --to` prints the count on stderr.
//!
//! `tests/mapping.rs` checks the Arrow type and the values of every row of this table on one
//! schema holding every construct (`tests/mapping.xml`).
//!
//! Hostile input: group counts are checked against the bytes left and bounded per message by
//! [`sbekit_otf::Limits`] (the same budget the OTF decoder enforces), var-data lengths against
//! the buffer, and a message that fails half-way leaves no row behind. Cutting a batch does not
//! fail on any input bytes (`tests/differential.rs` and the `arrow_decode` fuzz target hold the
//! rows to the JSON printer's messages, value for value). Batches are cut at
//! [`sbe::Options::batch_rows`] messages or [`sbe::Options::batch_bytes`] bytes, whichever
//! comes first, so memory stays bounded whatever the input size.

#![warn(missing_docs)]

pub mod capture;
pub mod iex;
pub mod parquet_writer;
pub mod sbe;
pub mod sink;
pub mod trades;

pub use sbe::{Options, SbeColumns};

/// What can go wrong turning data into Arrow or writing it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Building an array or a batch failed (a bug or an impossible schema).
    #[error("arrow: {0}")]
    Arrow(String),
    /// The Parquet or IPC writer failed.
    #[error("{path}: {message}")]
    Write {
        /// The file being written.
        path: String,
        /// What failed.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The input is invalid (a message or capture that does not decode).
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
