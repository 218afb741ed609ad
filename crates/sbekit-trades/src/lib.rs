//! sbekit's trade store: crypto trades from CSV to fixed-size SBE records, queried from a
//! memory map.
//!
//! * [`codec`]: the record and file-header codecs, generated at build time by sbekit's own Rust
//!   generator from `schemas/trades.xml` (no hand-written offsets).
//! * [`trade`]: the [`Trade`] value and the two record layouts ([`Lossless`], 40 bytes, the
//!   default; [`Compact`], 32 bytes).
//! * [`csvio`]: the CSV schema `time,amount,exch,price,server_time,side,ticker`: parsing with
//!   line-numbered errors and exact formatting.
//! * [`file`](mod@file): the file format (header, checksum, atomic writer, reader, verification).
//! * [`convert`], [`synth`], [`query`], [`stats`], [`export`], [`results`]: what the
//!   `sbekit trades` commands run.
//!
//! The crate has no `unsafe` code: its memory maps come from `sbekit_fs`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Codecs generated from `schemas/trades.xml` (package `sbekit_trades`, schema id 7).
#[allow(missing_docs, clippy::all)]
pub mod codec {
    include!(concat!(env!("OUT_DIR"), "/trades_codec.rs"));
}

pub mod convert;
pub mod csvio;
pub mod error;
pub mod export;
pub mod file;
pub mod mem;
pub mod query;
pub mod reader;
pub mod results;
pub mod stats;
pub mod synth;
pub mod trade;

pub use error::Error;
pub use trade::{Compact, LayoutKind, Lossless, RawTrade, RecordLayout, Trade};
