//! Protocol Buffers (prost 0.14; code from prost-build with the schema compiled by protox, so
//! no protoc): the 2019 shape with a oneof of trade and quote.
//!
//! Writing fills one reused `MultiMessage` (entries and their symbol `String`s are reused;
//! surplus entries are parked, not dropped) and encodes it with a varint length prefix
//! straight into the output (`encode_length_delimited`): no allocation in the steady state.
//! Reading merges into one reused `MultiMessage` (`merge_length_delimited`); prost owns what it
//! decodes, so every entry's symbol is a fresh `String`: one allocation per IEX message that
//! prost cannot avoid (clearing the struct frees them).

use super::{Codec, CodecError};
use crate::agg::{text_key, Aggregates};
use crate::data::{Entry, Kind};
use crate::generated::proto as g;
use prost::Message as _;

/// The Protocol Buffers codec.
#[derive(Default)]
pub struct Protobuf {
    out: g::MultiMessage,
    spare: Vec<g::Message>,
    input: g::MultiMessage,
}

impl Codec for Protobuf {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        let msg = &mut self.out;
        msg.sequence_number = sequence;
        // Keep exactly `entries.len()` messages, moving surplus ones aside and back so their
        // strings keep their capacity.
        while msg.messages.len() > entries.len() {
            if let Some(m) = msg.messages.pop() {
                self.spare.push(m);
            }
        }
        while msg.messages.len() < entries.len() {
            msg.messages.push(self.spare.pop().unwrap_or_default());
        }
        for (m, e) in msg.messages.iter_mut().zip(entries) {
            m.timestamp = e.timestamp;
            m.symbol.clear();
            m.symbol.push_str(e.symbol_str());
            m.body = Some(match e.kind {
                Kind::Trade => g::message::Body::Trade(g::Trade {
                    price: e.price as u64,
                    size: e.size,
                }),
                Kind::Bid | Kind::Ask => g::message::Body::Quote(g::Quote {
                    price: e.price as u64,
                    size: e.size,
                    flags: u32::from(e.flags),
                    side: if e.kind == Kind::Bid {
                        g::Side::Buy as i32
                    } else {
                        g::Side::Sell as i32
                    },
                }),
            });
        }
        let mut rest = out
            .get_mut(pos..)
            .ok_or_else(|| CodecError("Protocol Buffers: output buffer full".into()))?;
        let before = rest.len();
        msg.encode_length_delimited(&mut rest)
            .map_err(|e| CodecError::from_display("Protocol Buffers encode", e))?;
        Ok(pos + before - rest.len())
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
        let msg = &mut self.input;
        msg.clear();
        msg.merge_length_delimited(&mut slice)
            .map_err(|e| CodecError::from_display("Protocol Buffers decode", e))?;
        agg.batch();
        for m in &msg.messages {
            let key = text_key(m.symbol.as_bytes());
            match &m.body {
                Some(g::message::Body::Trade(t)) => agg.trade(key, t.size),
                Some(g::message::Body::Quote(q)) => {
                    agg.quote(key, q.price as i64, q.side == g::Side::Buy as i32)
                }
                None => return Err(CodecError("Protocol Buffers: message without body".into())),
            }
        }
        Ok(pos + before - slice.len())
    }
}
