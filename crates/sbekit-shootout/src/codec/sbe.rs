//! SBE through sbekit's generated codecs, for both shootout schemas.
//!
//! Both write straight into the output buffer (no builder, no copy) and read straight from it:
//! `decode` checks the whole message once (every group and var-data length within the buffer),
//! after which the accessors are plain loads. SBE messages are self-delimiting once decoded
//! (`encoded_length`), so no length prefix is added.

use super::{Codec, CodecError};
use crate::agg::{symbol_key, text_key, Aggregates};
use crate::data::{Entry, Kind};
use crate::{sbe_2019 as s19, sbe_md as md};

fn enc_err(e: sbekit_runtime::EncodeError) -> CodecError {
    CodecError::from_display("SBE encode", e)
}

fn dec_err(e: sbekit_runtime::DecodeError) -> CodecError {
    CodecError::from_display("SBE decode", e)
}

/// `schemas/market-data.xml`: one group of trades and one of price level updates, fixed-size
/// entries with 8-byte symbols.
#[derive(Debug, Default)]
pub struct SbeMarketData;

impl Codec for SbeMarketData {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        let buf = out.get_mut(pos..).unwrap_or_default();
        let mut m = md::MarketUpdatesEncoder::new(buf).map_err(enc_err)?;
        m.sequence_number(sequence);
        m.trades(|g| {
            for e in entries.iter().filter(|e| e.kind == Kind::Trade) {
                g.entry(|t| {
                    t.timestamp(e.timestamp)
                        .symbol(&e.symbol)
                        .price(e.price)
                        .size(e.size)
                        .flags(e.flags);
                    Ok(())
                })?;
            }
            Ok(())
        })
        .map_err(enc_err)?;
        m.level_updates(|g| {
            for e in entries.iter().filter(|e| e.kind != Kind::Trade) {
                let side = if e.kind == Kind::Bid {
                    md::Side::Buy
                } else {
                    md::Side::Sell
                };
                g.entry(|q| {
                    q.timestamp(e.timestamp)
                        .symbol(&e.symbol)
                        .price(e.price)
                        .size(e.size)
                        .flags(e.flags)
                        .side(side);
                    Ok(())
                })?;
            }
            Ok(())
        })
        .map_err(enc_err)?;
        Ok(pos + m.finish().map_err(enc_err)?)
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let d = md::MarketUpdatesDecoder::decode(buf.get(pos..).unwrap_or_default())
            .map_err(dec_err)?;
        agg.batch();
        for t in d.trades() {
            agg.trade(symbol_key(t.symbol()), t.size());
        }
        for q in d.level_updates() {
            agg.quote(symbol_key(q.symbol()), q.price(), q.side() == md::Side::Buy);
        }
        Ok(pos + d.encoded_length())
    }
}

/// `schemas/shootout-2019.xml`: the original's shape (one group of tagged entries with room for
/// both a trade and a quote, and the symbol as var data).
#[derive(Debug, Default)]
pub struct Sbe2019;

impl Codec for Sbe2019 {
    #[inline]
    fn serialize(
        &mut self,
        sequence: u64,
        entries: &[Entry],
        out: &mut [u8],
        pos: usize,
    ) -> Result<usize, CodecError> {
        let buf = out.get_mut(pos..).unwrap_or_default();
        let mut m = s19::MultiMessageEncoder::new(buf).map_err(enc_err)?;
        m.sequence_number(sequence);
        m.messages(|g| {
            for e in entries {
                g.entry(|w| {
                    w.timestamp(e.timestamp);
                    // The composite that is not in use is zeroed rather than left holding
                    // whatever the buffer had there.
                    match e.kind {
                        Kind::Trade => {
                            w.msg_type(s19::MsgType::Trade);
                            w.trade().price(e.price as u64).size(e.size);
                            w.quote().price(0).size(0).flags(0).side(s19::Side::Buy);
                        }
                        Kind::Bid | Kind::Ask => {
                            let side = if e.kind == Kind::Bid {
                                s19::Side::Buy
                            } else {
                                s19::Side::Sell
                            };
                            w.msg_type(s19::MsgType::Quote);
                            w.trade().price(0).size(0);
                            w.quote()
                                .price(e.price as u64)
                                .size(e.size)
                                .flags(e.flags)
                                .side(side);
                        }
                    }
                    w.symbol(e.symbol_text())?;
                    Ok(())
                })?;
            }
            Ok(())
        })
        .map_err(enc_err)?;
        Ok(pos + m.finish().map_err(enc_err)?)
    }

    #[inline]
    fn deserialize(
        &mut self,
        buf: &[u8],
        pos: usize,
        agg: &mut Aggregates,
    ) -> Result<usize, CodecError> {
        let d = s19::MultiMessageDecoder::decode(buf.get(pos..).unwrap_or_default())
            .map_err(dec_err)?;
        agg.batch();
        for m in d.messages() {
            let key = text_key(m.symbol());
            match m.msg_type() {
                s19::MsgType::Trade => agg.trade(key, m.trade().size()),
                s19::MsgType::Quote => {
                    let q = m.quote();
                    agg.quote(key, q.price() as i64, q.side() == s19::Side::Buy);
                }
                t => {
                    return Err(CodecError(format!(
                        "SBE decode: unknown msgType {}",
                        t.to_raw()
                    )))
                }
            }
        }
        Ok(pos + d.encoded_length())
    }
}
