//! rkyv 0.8: the 2019 shape as plain Rust types (an enum for trade or quote), archived
//! zero-copy.
//!
//! Writing fills one reused `MultiMessage` (entries and symbol `String`s reused, surplus
//! entries parked) and serializes it straight into the output with the low-level API, a reused
//! arena for scratch space and no sharing map: no allocation in the steady state. Each message
//! is framed as a u32 length at an 8-byte aligned position, then 4 bytes of padding, then the
//! archive (rkyv's default format needs its archives 8-byte aligned). Reading is in place: the
//! validated row checks every message with bytecheck (`access`), the unchecked row reads with
//! `access_unchecked` after the whole buffer was validated once, untimed.

// The archived types rkyv derives (`ArchivedBody`...) have undocumented fields.
#![allow(missing_docs)]

use super::{Codec, CodecError};
use crate::agg::{text_key, Aggregates};
use crate::data::{Entry, Kind};
use rkyv::rancor::Error as RkyvError;
use rkyv::ser::allocator::Arena;
use rkyv::ser::writer::Buffer;
use rkyv::{Archive, Serialize};

/// Side of a price level update.
#[derive(Archive, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[rkyv(compare(PartialEq))]
pub enum Side {
    /// Bid.
    Buy,
    /// Ask.
    Sell,
}

/// A trade or a price level update.
#[derive(Archive, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// An execution.
    Trade {
        /// Price, 4 implied decimals.
        price: u64,
        /// Shares.
        size: u32,
    },
    /// A price level update.
    Quote {
        /// Price, 4 implied decimals.
        price: u64,
        /// Shares at the level.
        size: u32,
        /// Event flags.
        flags: u8,
        /// Book side.
        side: Side,
    },
}

/// One IEX message.
#[derive(Archive, Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Event time, ns since the epoch.
    pub timestamp: i64,
    /// Ticker without padding.
    pub symbol: String,
    /// Trade or quote.
    pub body: Body,
}

/// The messages of one IEX-TP segment.
#[derive(Archive, Serialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct MultiMessage {
    /// Sequence number of the segment's first message.
    pub sequence_number: u64,
    /// The trades and price level updates.
    pub messages: Vec<Message>,
}

const ALIGN: usize = 8;
const _: () = assert!(std::mem::align_of::<ArchivedMultiMessage>() <= ALIGN);

/// Serializes `msg` into `out` at `pos`: `[u32 length][pad 4][archive]`, all 8-byte aligned.
#[inline]
fn write(
    msg: &MultiMessage,
    arena: &mut Arena,
    out: &mut [u8],
    pos: usize,
) -> Result<usize, CodecError> {
    let start = pos.next_multiple_of(ALIGN);
    let body = start + ALIGN;
    let dst = out
        .get_mut(body..)
        .ok_or_else(|| CodecError("rkyv: output buffer full".into()))?;
    let written = rkyv::api::low::to_bytes_in_with_alloc::<_, _, RkyvError>(
        msg,
        Buffer::from(dst),
        arena.acquire(),
    )
    .map_err(|e| CodecError::from_display("rkyv serialize", e))?
    .len();
    out[start..start + 4].copy_from_slice(&(written as u32).to_le_bytes());
    out[start + 4..body].fill(0);
    Ok(body + written)
}

/// The archive at `pos` and the position after it.
#[inline]
fn frame(buf: &[u8], pos: usize) -> Result<(&[u8], usize), CodecError> {
    let start = pos.next_multiple_of(ALIGN);
    let len = buf
        .get(start..start + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or_else(|| CodecError("rkyv: truncated length".into()))?;
    let body = start + ALIGN;
    let archive = buf
        .get(body..body + len)
        .ok_or_else(|| CodecError("rkyv: message past the end of the buffer".into()))?;
    Ok((archive, body + len))
}

#[inline]
fn aggregate(m: &ArchivedMultiMessage, agg: &mut Aggregates) {
    agg.batch();
    for msg in m.messages.iter() {
        let key = text_key(msg.symbol.as_bytes());
        match &msg.body {
            ArchivedBody::Trade { size, .. } => agg.trade(key, size.to_native()),
            ArchivedBody::Quote { price, side, .. } => {
                agg.quote(key, price.to_native() as i64, *side == Side::Buy)
            }
        }
    }
}

/// The shared writer: a reused message and arena.
#[derive(Default)]
struct Writer {
    msg: MultiMessage,
    spare: Vec<Message>,
    arena: Arena,
}

impl Writer {
    #[inline]
    fn write(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        let msg = &mut self.msg;
        msg.sequence_number = sequence;
        while msg.messages.len() > entries.len() {
            if let Some(m) = msg.messages.pop() {
                self.spare.push(m);
            }
        }
        while msg.messages.len() < entries.len() {
            msg.messages
                .push(self.spare.pop().unwrap_or_else(|| Message {
                    timestamp: 0,
                    symbol: String::with_capacity(8),
                    body: Body::Trade { price: 0, size: 0 },
                }));
        }
        for (m, e) in msg.messages.iter_mut().zip(entries) {
            m.timestamp = e.timestamp;
            m.symbol.clear();
            m.symbol.push_str(e.symbol_str());
            m.body = match e.kind {
                Kind::Trade => Body::Trade {
                    price: e.price as u64,
                    size: e.size,
                },
                Kind::Bid | Kind::Ask => Body::Quote {
                    price: e.price as u64,
                    size: e.size,
                    flags: e.flags,
                    side: if e.kind == Kind::Bid {
                        Side::Buy
                    } else {
                        Side::Sell
                    },
                },
            };
        }
        write(msg, &mut self.arena, out, pos)
    }
}

/// Reads with bytecheck validation of every message.
#[derive(Default)]
pub struct Rkyv {
    writer: Writer,
}

impl Codec for Rkyv {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        self.writer.write(sequence, entries, out, pos)
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let (archive, end) = frame(buf, pos)?;
        let m = rkyv::api::low::access::<ArchivedMultiMessage, RkyvError>(archive)
            .map_err(|e| CodecError::from_display("rkyv validation", e))?;
        aggregate(m, agg);
        Ok(end)
    }
}

/// Reads without validation (after validating the whole buffer once, untimed).
#[derive(Default)]
pub struct RkyvUnchecked {
    writer: Writer,
    /// Address and extent of the buffer region validated by `prepare_read`.
    verified: Option<(usize, usize)>,
}

impl Codec for RkyvUnchecked {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        self.verified = None;
        self.writer.write(sequence, entries, out, pos)
    }

    fn prepare_read(&mut self, buf: &[u8], end: usize) -> Result<(), CodecError> {
        let mut pos = 0;
        while pos < end {
            let (archive, next) = frame(buf, pos)?;
            rkyv::api::low::access::<ArchivedMultiMessage, RkyvError>(archive)
                .map_err(|e| CodecError::from_display("rkyv validation", e))?;
            pos = next;
        }
        self.verified = Some((buf.as_ptr() as usize, end));
        Ok(())
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let (archive, end) = frame(buf, pos)?;
        match self.verified {
            Some((addr, upto)) if addr == buf.as_ptr() as usize && end <= upto => {}
            _ => {
                return Err(CodecError(
                    "rkyv unchecked: message not validated by prepare_read".into(),
                ))
            }
        }
        aggregate(access_validated(archive), agg);
        Ok(end)
    }
}

/// The one unchecked access of this format.
#[allow(unsafe_code)]
#[inline]
fn access_validated(archive: &[u8]) -> &ArchivedMultiMessage {
    // SAFETY: `archive` is one archive of the buffer that `prepare_read` validated with
    // `rkyv::api::low::access` (bytecheck), archive by archive, after the last serializing pass
    // and in the same run; `deserialize` checked that it lies inside that validated region of
    // the same buffer, at the same (8-byte aligned) position. The harness does not write to the
    // buffer between `prepare_read` and the reads (the next write goes through `serialize`,
    // which clears the validated mark).
    unsafe { rkyv::access_unchecked::<ArchivedMultiMessage>(archive) }
}
