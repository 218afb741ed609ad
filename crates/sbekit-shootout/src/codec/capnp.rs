//! Cap'n Proto (capnp 0.27, code from capnpc 0.27 with capnp 0.9.2): the 2019 shape with an
//! anonymous union of trade and quote structs, unpacked and packed.
//!
//! Builders cannot be reset, so each message gets a new `message::Builder`, backed by a reused,
//! 8-byte aligned scratch segment (`ScratchSpaceHeapAllocator`, which only re-zeroes the words
//! used); the builder still allocates its small segment list on the heap once per message, which
//! the crate offers no way around (short of giving up its `alloc` feature). The standard stream
//! framing (segment table) is written into the output by `serialize::write_message` (copying
//! the segment) or `serialize_packed::write_message` (packing while copying).
//!
//! Reading unpacked messages is in place and allocation free
//! (`read_message_from_flat_slice_no_alloc`); packed messages are unpacked into a reused,
//! aligned buffer (`serialize_packed::read_message_no_alloc`). Cap'n Proto checks pointers
//! lazily, as fields are read, within the reader's traversal limit.

use super::{Codec, CodecError};
use crate::agg::{text_key, Aggregates};
use crate::data::{Entry, Kind};
use crate::shootout_capnp::{message, multi_message, Side};
use capnp::message::{ReaderOptions, ScratchSpaceHeapAllocator};
use capnp::Word;

fn err(e: capnp::Error) -> CodecError {
    CodecError::from_display("Cap'n Proto", e)
}

/// Words of the scratch segment: enough for any IEX-TP segment (at most ~2,300 messages of
/// at most 8 words each), so the heap fallback never runs.
const SCRATCH_WORDS: usize = 32 * 1024;

/// The shared writer.
struct Writer {
    scratch: Vec<Word>,
}

impl Default for Writer {
    fn default() -> Self {
        Writer {
            scratch: Word::allocate_zeroed_vec(SCRATCH_WORDS),
        }
    }
}

impl Writer {
    #[inline]
    fn write(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
        packed: bool,
    ) -> Result<usize, CodecError> {
        // Only the words a message can use need zeroing when the allocator is created (it
        // zeroes all it is given, and re-zeroes what was used when the builder is dropped).
        let words = (4 + 8 * entries.len()).min(SCRATCH_WORDS);
        let scratch = Word::words_to_bytes_mut(&mut self.scratch[..words]);
        let mut builder = capnp::message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
        {
            let mut root = builder.init_root::<multi_message::Builder<'_>>();
            root.set_sequence_number(sequence);
            let mut list = root.init_messages(entries.len() as u32);
            for (i, e) in entries.iter().enumerate() {
                let mut m = list.reborrow().get(i as u32);
                m.set_timestamp(e.timestamp);
                m.set_symbol(e.symbol_str());
                match e.kind {
                    Kind::Trade => {
                        let mut t = m.init_trade();
                        t.set_price(e.price as u64);
                        t.set_size(e.size);
                    }
                    Kind::Bid | Kind::Ask => {
                        let mut q = m.init_quote();
                        q.set_price(e.price as u64);
                        q.set_size(e.size);
                        q.set_flags(e.flags);
                        q.set_side(if e.kind == Kind::Bid {
                            Side::Buy
                        } else {
                            Side::Sell
                        });
                    }
                }
            }
        }
        let mut rest = out
            .get_mut(pos..)
            .ok_or_else(|| CodecError("Cap'n Proto: output buffer full".into()))?;
        let before = rest.len();
        if packed {
            capnp::serialize_packed::write_message(&mut rest, &builder).map_err(err)?;
        } else {
            capnp::serialize::write_message(&mut rest, &builder).map_err(err)?;
        }
        Ok(pos + before - rest.len())
    }
}

#[inline]
fn aggregate(root: multi_message::Reader<'_>, agg: &mut Aggregates) -> Result<(), CodecError> {
    agg.batch();
    for m in root.get_messages().map_err(err)? {
        let key = text_key(m.get_symbol().map_err(err)?.as_bytes());
        match m.which() {
            Ok(message::Trade(t)) => agg.trade(key, t.map_err(err)?.get_size()),
            Ok(message::Quote(q)) => {
                let q = q.map_err(err)?;
                let buy = q.get_side() == Ok(Side::Buy);
                agg.quote(key, q.get_price() as i64, buy);
            }
            Err(e) => return Err(CodecError::from_display("Cap'n Proto", e)),
        }
    }
    Ok(())
}

/// Unpacked: the segment table and the segment as they are in memory.
#[derive(Default)]
pub struct Capnp {
    writer: Writer,
}

impl Codec for Capnp {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        self.writer.write(sequence, entries, out, pos, false)
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let mut slice = buf.get(pos..).unwrap_or_default();
        let before = slice.len();
        let reader = capnp::serialize::read_message_from_flat_slice_no_alloc(
            &mut slice,
            ReaderOptions::new(),
        )
        .map_err(err)?;
        aggregate(reader.get_root().map_err(err)?, agg)?;
        Ok(pos + before - slice.len())
    }
}

/// Packed: zero bytes run-length encoded, read by unpacking into a reused buffer.
pub struct CapnpPacked {
    writer: Writer,
    unpacked: Vec<Word>,
}

impl Default for CapnpPacked {
    fn default() -> Self {
        CapnpPacked {
            writer: Writer::default(),
            unpacked: Word::allocate_zeroed_vec(SCRATCH_WORDS + 8),
        }
    }
}

impl Codec for CapnpPacked {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        self.writer.write(sequence, entries, out, pos, true)
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let mut slice = buf.get(pos..).unwrap_or_default();
        let before = slice.len();
        let reader = capnp::serialize_packed::read_message_no_alloc(
            &mut slice,
            Word::words_to_bytes_mut(&mut self.unpacked),
            ReaderOptions::new(),
        )
        .map_err(err)?;
        aggregate(reader.get_root().map_err(err)?, agg)?;
        Ok(pos + before - slice.len())
    }
}
