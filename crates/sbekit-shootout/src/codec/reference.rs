//! SBE through the reference tool's generated Rust (sbe-all 1.38.1), for the same two schemas
//! as sbekit's rows, behind the `reference-sbe` feature.
//!
//! The reference API passes encoders and decoders by value from parent to group and back; it
//! writes in place into the output and reads in place, allocation free. Its decoders do not
//! check lengths up front: reading past the buffer panics (slice indexing) instead of
//! returning an error, so it does less work than sbekit's `decode`, which validates the whole
//! message first.

use super::{Codec, CodecError};
use crate::agg::{symbol_key, text_key, Aggregates};
use crate::data::{Entry, Kind};
use crate::reference_sbe::{md, s2019};

fn err(e: impl std::fmt::Debug) -> CodecError {
    CodecError(format!("reference SBE: {e:?}"))
}

/// The message's template id and schema id, checked before decoding.
fn check_header(buf: &[u8], template: u16, schema: u16) -> Result<(), CodecError> {
    match buf.get(..8) {
        Some(h)
            if u16::from_le_bytes([h[2], h[3]]) == template
                && u16::from_le_bytes([h[4], h[5]]) == schema =>
        {
            Ok(())
        }
        _ => Err(CodecError(
            "reference SBE: unexpected message header".into(),
        )),
    }
}

/// `schemas/market-data.xml` through the reference codec.
#[derive(Debug, Default)]
pub struct RefSbeMarketData;

impl Codec for RefSbeMarketData {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        use md::market_updates_codec::encoder::{LevelUpdatesEncoder, TradesEncoder};
        use md::market_updates_codec::MarketUpdatesEncoder;
        use md::Encoder as _;
        let buf = out.get_mut(pos..).unwrap_or_default();
        let trades = entries.iter().filter(|e| e.kind == Kind::Trade).count();
        let mut m = MarketUpdatesEncoder::default()
            .wrap(
                md::WriteBuf::new(buf),
                md::message_header_codec::ENCODED_LENGTH,
            )
            .header(0)
            .parent()
            .map_err(err)?;
        m.sequence_number(sequence);
        let mut g = m.trades_encoder(trades as u16, TradesEncoder::default());
        for e in entries.iter().filter(|e| e.kind == Kind::Trade) {
            g.advance().map_err(err)?;
            g.timestamp(e.timestamp)
                .symbol(&e.symbol)
                .price(e.price)
                .size(e.size)
                .flags(e.flags);
        }
        let m = g.parent().map_err(err)?;
        let mut g = m.level_updates_encoder(
            (entries.len() - trades) as u16,
            LevelUpdatesEncoder::default(),
        );
        for e in entries.iter().filter(|e| e.kind != Kind::Trade) {
            g.advance().map_err(err)?;
            g.timestamp(e.timestamp)
                .symbol(&e.symbol)
                .price(e.price)
                .size(e.size)
                .flags(e.flags)
                .side(if e.kind == Kind::Bid {
                    md::side::Side::Buy
                } else {
                    md::side::Side::Sell
                });
        }
        let m = g.parent().map_err(err)?;
        Ok(pos + m.get_limit())
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        use md::market_updates_codec::MarketUpdatesDecoder;
        use md::message_header_codec::MessageHeaderDecoder;
        use md::Decoder as _;
        let buf = buf.get(pos..).unwrap_or_default();
        check_header(buf, 1, md::SBE_SCHEMA_ID)?;
        let header = MessageHeaderDecoder::default().wrap(md::ReadBuf::new(buf), 0);
        let m = MarketUpdatesDecoder::default().header(header, 0);
        agg.batch();
        let mut g = m.trades_decoder();
        while g.advance().map_err(err)?.is_some() {
            agg.trade(symbol_key(&g.symbol()), g.size());
        }
        let m = g.parent().map_err(err)?;
        let mut g = m.level_updates_decoder();
        while g.advance().map_err(err)?.is_some() {
            agg.quote(
                symbol_key(&g.symbol()),
                g.price(),
                g.side() == md::side::Side::Buy,
            );
        }
        let m = g.parent().map_err(err)?;
        Ok(pos + m.get_limit())
    }
}

/// `schemas/shootout-2019.xml` through the reference codec.
#[derive(Debug, Default)]
pub struct RefSbe2019;

impl Codec for RefSbe2019 {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        use s2019::multi_message_codec::encoder::MessagesEncoder;
        use s2019::multi_message_codec::MultiMessageEncoder;
        use s2019::Encoder as _;
        let buf = out.get_mut(pos..).unwrap_or_default();
        let mut m = MultiMessageEncoder::default()
            .wrap(
                s2019::WriteBuf::new(buf),
                s2019::message_header_codec::ENCODED_LENGTH,
            )
            .header(0)
            .parent()
            .map_err(err)?;
        m.sequence_number(sequence);
        let mut g = m.messages_encoder(entries.len() as u16, MessagesEncoder::default());
        for e in entries {
            g.advance().map_err(err)?;
            g.timestamp(e.timestamp);
            // The composite not in use is zeroed, as in sbekit's 2019 codec.
            let (trade, quote, side) = match e.kind {
                Kind::Trade => {
                    g.msg_type(s2019::msg_type::MsgType::Trade);
                    ((e.price as u64, e.size), (0, 0, 0), s2019::side::Side::Buy)
                }
                Kind::Bid | Kind::Ask => {
                    g.msg_type(s2019::msg_type::MsgType::Quote);
                    let side = if e.kind == Kind::Bid {
                        s2019::side::Side::Buy
                    } else {
                        s2019::side::Side::Sell
                    };
                    ((0, 0), (e.price as u64, e.size, e.flags), side)
                }
            };
            let mut t = g.trade_encoder();
            t.price(trade.0).size(trade.1);
            g = t.parent().map_err(err)?;
            let mut q = g.quote_encoder();
            q.price(quote.0).size(quote.1).flags(quote.2).side(side);
            g = q.parent().map_err(err)?;
            g.symbol(e.symbol_text());
        }
        let m = g.parent().map_err(err)?;
        Ok(pos + m.get_limit())
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        use s2019::message_header_codec::MessageHeaderDecoder;
        use s2019::msg_type::MsgType;
        use s2019::multi_message_codec::MultiMessageDecoder;
        use s2019::Decoder as _;
        let buf = buf.get(pos..).unwrap_or_default();
        check_header(buf, 1, s2019::SBE_SCHEMA_ID)?;
        let header = MessageHeaderDecoder::default().wrap(s2019::ReadBuf::new(buf), 0);
        let m = MultiMessageDecoder::default().header(header, 0);
        agg.batch();
        let mut g = m.messages_decoder();
        while g.advance().map_err(err)?.is_some() {
            let kind = g.msg_type();
            // The composites must be read before the var data, which moves the position on.
            let (size, price, buy) = match kind {
                MsgType::Trade => {
                    let mut t = g.trade_decoder();
                    let r = (t.size(), 0, false);
                    g = t.parent().map_err(err)?;
                    r
                }
                MsgType::Quote => {
                    let mut q = g.quote_decoder();
                    let r = (
                        q.size(),
                        q.price() as i64,
                        q.side() == s2019::side::Side::Buy,
                    );
                    g = q.parent().map_err(err)?;
                    r
                }
                other => return Err(err(other)),
            };
            let (at, len) = g.symbol_decoder();
            let key = text_key(buf.get(at..at + len).unwrap_or_default());
            if kind == MsgType::Trade {
                agg.trade(key, size);
            } else {
                agg.quote(key, price, buy);
            }
        }
        let m = g.parent().map_err(err)?;
        Ok(pos + m.get_limit())
    }
}
