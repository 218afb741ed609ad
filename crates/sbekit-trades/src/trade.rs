//! The [`Trade`] value and the two record layouts, both encoded and decoded by the codecs
//! generated from `schemas/trades.xml`.
//!
//! Records are stored as bare SBE message blocks (the file header names the template once).
//! The generated decoders read a block that follows an 8-byte message header, so a record view
//! is made from a slice that starts [`HEADER_LENGTH`] bytes *before* the record
//! ([`RecordLayout::view`]); those 8 bytes are never read (the header fields come from a
//! constant). Files put the first record at offset 64, so every record has 8 bytes before it.

use crate::codec::{
    self, Currency, Exchange, HeaderFields, Side, TradeCompactDecoder, TradeCompactEncoder,
    TradeLosslessDecoder, TradeLosslessEncoder,
};
use std::fmt;
use std::str::FromStr;

pub use crate::codec::HEADER_LENGTH;

/// One trade, as a CSV row holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trade {
    /// Receive time, nanoseconds since the Unix epoch.
    pub time: u64,
    /// Traded quantity of the base currency.
    pub amount: f64,
    /// Venue.
    pub exchange: Exchange,
    /// Price in the quote currency.
    pub price: f64,
    /// The exchange's own time in nanoseconds, if it sent one (the CSV writes 0 when not).
    pub server_time: Option<u64>,
    /// Aggressor side ([`Side::None`] for the CSV's `na`).
    pub side: Side,
    /// Base currency of the ticker (`btc` in `btc_usd`).
    pub base: Currency,
    /// Quote currency of the ticker (`usd` in `btc_usd`).
    pub quote: Currency,
}

/// A [`Trade`] with its exchange, currencies and side as raw schema codes: what the CSV reader
/// produces and the writer encodes. Enum values are made from the codes (`from_raw`) right
/// where the generated encoder takes them, so the compiler folds the round trip away; encoding
/// a stored enum instead costs an indirect jump per field (mispredicted on varied data).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawTrade {
    /// Receive time in ns.
    pub time: u64,
    /// Amount.
    pub amount: f64,
    /// Price.
    pub price: f64,
    /// Server time in ns, 0 when missing.
    pub server_time: u64,
    /// [`Exchange`] code.
    pub exchange: u8,
    /// [`Currency`] code of the base.
    pub base: u8,
    /// [`Currency`] code of the quote.
    pub quote: u8,
    /// [`Side`] code.
    pub side: u8,
}

impl From<&Trade> for RawTrade {
    fn from(t: &Trade) -> Self {
        RawTrade {
            time: t.time,
            amount: t.amount,
            price: t.price,
            server_time: t.server_time.unwrap_or(0),
            exchange: t.exchange.to_raw(),
            base: t.base.to_raw(),
            quote: t.quote.to_raw(),
            side: t.side.to_raw(),
        }
    }
}

impl RawTrade {
    /// The trade with its codes as enums.
    #[inline]
    pub fn trade(&self) -> Trade {
        Trade {
            time: self.time,
            amount: self.amount,
            exchange: Exchange::from_raw(self.exchange),
            price: self.price,
            server_time: (self.server_time != 0).then_some(self.server_time),
            side: Side::from_raw(self.side),
            base: Currency::from_raw(self.base),
            quote: Currency::from_raw(self.quote),
        }
    }
}

/// Which record layout a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LayoutKind {
    /// [`Lossless`]: 40 bytes, every CSV value kept exactly (the default).
    #[default]
    Lossless,
    /// [`Compact`]: 32 bytes, server time as a millisecond delta.
    Compact,
}

impl LayoutKind {
    /// Bytes per record.
    pub const fn record_size(self) -> usize {
        match self {
            LayoutKind::Lossless => Lossless::SIZE,
            LayoutKind::Compact => Compact::SIZE,
        }
    }
    /// The schema's `Layout` value, as the file header stores it.
    pub const fn to_codec(self) -> codec::Layout {
        match self {
            LayoutKind::Lossless => codec::Layout::Lossless,
            LayoutKind::Compact => codec::Layout::Compact,
        }
    }
    /// The layout a header value names, if it is one this code knows.
    pub const fn from_codec(l: codec::Layout) -> Option<Self> {
        match l {
            codec::Layout::Lossless => Some(LayoutKind::Lossless),
            codec::Layout::Compact => Some(LayoutKind::Compact),
            _ => None,
        }
    }
    /// `lossless` or `compact`.
    pub const fn name(self) -> &'static str {
        match self {
            LayoutKind::Lossless => "lossless",
            LayoutKind::Compact => "compact",
        }
    }
}

impl fmt::Display for LayoutKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LayoutKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "lossless" => Ok(LayoutKind::Lossless),
            "compact" => Ok(LayoutKind::Compact),
            _ => Err(format!(
                "unknown layout '{s}' (expected lossless or compact)"
            )),
        }
    }
}

/// Nanoseconds per unit of the compact layout's server-time delta (one millisecond).
pub const DELTA_UNIT_NS: i64 = 1_000_000;

/// The compact layout's server-time delta for a trade: `server_time - time` in milliseconds,
/// rounded to the nearest millisecond (ties away from zero). `None` when the delta does not
/// fit (more than 2147483647 ms, about 24.8 days, either way) or when converting back would
/// not give a server time above zero.
pub fn server_time_delta_ms(time: u64, server_time: u64) -> Option<i32> {
    let d = i128::from(server_time) - i128::from(time);
    let unit = i128::from(DELTA_UNIT_NS);
    let q = (d.abs() + unit / 2) / unit;
    let q = if d < 0 { -q } else { q };
    let delta = i32::try_from(q).ok().filter(|&v| v != i32::MIN)?;
    server_time_from_delta(time, delta).map(|_| delta)
}

/// The server time a compact record stands for: `time + delta` ms, if that is above zero and
/// fits in `u64`.
pub fn server_time_from_delta(time: u64, delta_ms: i32) -> Option<u64> {
    let v = i128::from(time) + i128::from(delta_ms) * i128::from(DELTA_UNIT_NS);
    u64::try_from(v).ok().filter(|&v| v > 0)
}

/// Why a trade cannot be written in a layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EncodeError {}

/// Read access to one record, whatever its layout.
pub trait RecordView: Copy {
    /// Receive time in ns.
    fn time(&self) -> u64;
    /// Price.
    fn price(&self) -> f64;
    /// Amount.
    fn amount(&self) -> f64;
    /// Venue.
    fn exchange(&self) -> Exchange;
    /// Base currency.
    fn base(&self) -> Currency;
    /// Quote currency.
    fn quote(&self) -> Currency;
    /// The whole trade (for the compact layout, server time as [`server_time_from_delta`]
    /// gives it; a delta that gives no valid time reads as missing).
    fn trade(&self) -> Trade;
}

/// A record layout: its size and how the generated codec reads and writes it.
pub trait RecordLayout: Copy + Default + Send + Sync + 'static {
    /// Which layout this is.
    const KIND: LayoutKind;
    /// Bytes per record (the message's block length).
    const SIZE: usize;
    /// The generated decoder.
    type View<'a>: RecordView;
    /// Reads the record that starts [`HEADER_LENGTH`] bytes into `buf`; `None` if `buf` is
    /// shorter than `HEADER_LENGTH + SIZE`. The first `HEADER_LENGTH` bytes are not read.
    fn view(buf: &[u8]) -> Option<Self::View<'_>>;
    /// Writes `t` as one record into `out` (exactly `SIZE` bytes).
    fn encode(t: &Trade, out: &mut [u8]) -> Result<(), EncodeError>;
    /// Appends `t` as one record to `out`, encoding in place: the generated encoder writes a
    /// whole message, so the last [`HEADER_LENGTH`] bytes already in `out` serve as room for
    /// its header and are restored afterwards. `out` must hold at least that many bytes.
    fn append(t: &RawTrade, out: &mut Vec<u8>) -> Result<(), EncodeError>;
}

/// The lossless layout (message `TradeLossless`, 40 bytes).
#[derive(Debug, Clone, Copy, Default)]
pub struct Lossless;

/// The compact layout (message `TradeCompact`, 32 bytes).
#[derive(Debug, Clone, Copy, Default)]
pub struct Compact;

const LOSSLESS_HEADER: HeaderFields = HeaderFields {
    block_length: TradeLosslessDecoder::BLOCK_LENGTH as u16,
    template_id: TradeLosslessDecoder::TEMPLATE_ID,
    schema_id: codec::SCHEMA_ID,
    version: codec::SCHEMA_VERSION,
};

const COMPACT_HEADER: HeaderFields = HeaderFields {
    block_length: TradeCompactDecoder::BLOCK_LENGTH as u16,
    template_id: TradeCompactDecoder::TEMPLATE_ID,
    schema_id: codec::SCHEMA_ID,
    version: codec::SCHEMA_VERSION,
};

fn encode_error(e: impl fmt::Debug) -> EncodeError {
    EncodeError(format!("record encoder failed: {e:?}"))
}

fn copy_block(block: &[u8], out: &mut [u8]) -> Result<(), EncodeError> {
    if out.len() != block.len() {
        return Err(EncodeError(format!(
            "record buffer is {} bytes, expected {}",
            out.len(),
            block.len()
        )));
    }
    out.copy_from_slice(block);
    Ok(())
}

impl RecordView for TradeLosslessDecoder<'_> {
    #[inline(always)]
    fn time(&self) -> u64 {
        TradeLosslessDecoder::time(self)
    }
    #[inline(always)]
    fn price(&self) -> f64 {
        TradeLosslessDecoder::price(self)
    }
    #[inline(always)]
    fn amount(&self) -> f64 {
        TradeLosslessDecoder::amount(self)
    }
    #[inline(always)]
    fn exchange(&self) -> Exchange {
        TradeLosslessDecoder::exchange(self)
    }
    #[inline(always)]
    fn base(&self) -> Currency {
        TradeLosslessDecoder::base(self)
    }
    #[inline(always)]
    fn quote(&self) -> Currency {
        TradeLosslessDecoder::quote(self)
    }
    fn trade(&self) -> Trade {
        Trade {
            time: self.time(),
            amount: self.amount(),
            exchange: self.exchange(),
            price: self.price(),
            server_time: self.server_time(),
            side: self.side(),
            base: self.base(),
            quote: self.quote(),
        }
    }
}

impl RecordView for TradeCompactDecoder<'_> {
    #[inline(always)]
    fn time(&self) -> u64 {
        TradeCompactDecoder::time(self)
    }
    #[inline(always)]
    fn price(&self) -> f64 {
        TradeCompactDecoder::price(self)
    }
    #[inline(always)]
    fn amount(&self) -> f64 {
        TradeCompactDecoder::amount(self)
    }
    #[inline(always)]
    fn exchange(&self) -> Exchange {
        TradeCompactDecoder::exchange(self)
    }
    #[inline(always)]
    fn base(&self) -> Currency {
        TradeCompactDecoder::base(self)
    }
    #[inline(always)]
    fn quote(&self) -> Currency {
        TradeCompactDecoder::quote(self)
    }
    fn trade(&self) -> Trade {
        let time = self.time();
        Trade {
            time,
            amount: self.amount(),
            exchange: self.exchange(),
            price: self.price(),
            server_time: self
                .server_time_delta()
                .and_then(|d| server_time_from_delta(time, d)),
            side: self.side(),
            base: self.base(),
            quote: self.quote(),
        }
    }
}

impl RecordLayout for Lossless {
    const KIND: LayoutKind = LayoutKind::Lossless;
    const SIZE: usize = TradeLosslessEncoder::BLOCK_LENGTH;
    type View<'a> = TradeLosslessDecoder<'a>;

    #[inline(always)]
    fn view(buf: &[u8]) -> Option<Self::View<'_>> {
        TradeLosslessDecoder::decode_body(buf, &LOSSLESS_HEADER).ok()
    }

    fn encode(t: &Trade, out: &mut [u8]) -> Result<(), EncodeError> {
        copy_block(&lossless_message(t)?[HEADER_LENGTH..], out)
    }

    #[inline]
    fn append(t: &RawTrade, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        append_in_place(out, Self::SIZE, |msg| {
            let mut e = TradeLosslessEncoder::new(msg).map_err(encode_error)?;
            lossless_fields(&mut e, t);
            e.finish().map_err(encode_error).map(|_| ())
        })
    }
}

/// Sets every field of a `TradeLossless` block.
#[inline(always)]
fn lossless_fields(e: &mut TradeLosslessEncoder<'_>, t: &RawTrade) {
    e.exchange(Exchange::from_raw(t.exchange))
        .base(Currency::from_raw(t.base))
        .quote(Currency::from_raw(t.quote))
        .side(Side::from_raw(t.side))
        .reserved(0)
        .time(t.time)
        .server_time((t.server_time != 0).then_some(t.server_time))
        .price(t.price)
        .amount(t.amount);
}

/// `t` as a whole `TradeLossless` message (header and block), by the generated encoder.
fn lossless_message(t: &Trade) -> Result<[u8; HEADER_LENGTH + Lossless::SIZE], EncodeError> {
    let mut scratch = [0u8; HEADER_LENGTH + Lossless::SIZE];
    let mut e = TradeLosslessEncoder::new(&mut scratch).map_err(encode_error)?;
    lossless_fields(&mut e, &RawTrade::from(t));
    e.finish().map_err(encode_error)?;
    Ok(scratch)
}

/// Grows `out` by `size` bytes and lets `write` put a whole message (header and block) over
/// the last [`HEADER_LENGTH`] old bytes and the new ones; then puts the old bytes back.
#[inline(always)]
fn append_in_place(
    out: &mut Vec<u8>,
    size: usize,
    write: impl FnOnce(&mut [u8]) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let at = out.len();
    let Some(room) = at.checked_sub(HEADER_LENGTH) else {
        return Err(EncodeError(format!(
            "append needs {HEADER_LENGTH} bytes already in the buffer"
        )));
    };
    let saved: [u8; HEADER_LENGTH] = match out.get(room..at).and_then(|s| s.first_chunk()) {
        Some(s) => *s,
        None => [0; HEADER_LENGTH],
    };
    out.resize(at + size, 0);
    let r = write(&mut out[room..]);
    out[room..at].copy_from_slice(&saved);
    if r.is_err() {
        out.truncate(at);
    }
    r
}

impl RecordLayout for Compact {
    const KIND: LayoutKind = LayoutKind::Compact;
    const SIZE: usize = TradeCompactEncoder::BLOCK_LENGTH;
    type View<'a> = TradeCompactDecoder<'a>;

    #[inline(always)]
    fn view(buf: &[u8]) -> Option<Self::View<'_>> {
        TradeCompactDecoder::decode_body(buf, &COMPACT_HEADER).ok()
    }

    fn encode(t: &Trade, out: &mut [u8]) -> Result<(), EncodeError> {
        copy_block(&compact_message(t)?[HEADER_LENGTH..], out)
    }

    #[inline]
    fn append(t: &RawTrade, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let delta = compact_delta(t)?;
        append_in_place(out, Self::SIZE, |msg| {
            let mut e = TradeCompactEncoder::new(msg).map_err(encode_error)?;
            compact_fields(&mut e, t, delta);
            e.finish().map_err(encode_error).map(|_| ())
        })
    }
}

/// The compact server-time delta of `t`, or why it has none.
#[inline]
fn compact_delta(t: &RawTrade) -> Result<Option<i32>, EncodeError> {
    match t.server_time {
        0 => Ok(None),
        s => server_time_delta_ms(t.time, s).map(Some).ok_or_else(|| {
            EncodeError(format!(
                "server_time {s} is {} ms from time {}: the compact layout holds at most \
                 2147483647 ms either way (use the lossless layout)",
                (i128::from(s) - i128::from(t.time)) / i128::from(DELTA_UNIT_NS),
                t.time
            ))
        }),
    }
}

/// Sets every field of a `TradeCompact` block.
#[inline(always)]
fn compact_fields(e: &mut TradeCompactEncoder<'_>, t: &RawTrade, delta: Option<i32>) {
    e.exchange(Exchange::from_raw(t.exchange))
        .base(Currency::from_raw(t.base))
        .quote(Currency::from_raw(t.quote))
        .side(Side::from_raw(t.side))
        .server_time_delta(delta)
        .time(t.time)
        .price(t.price)
        .amount(t.amount);
}

/// `t` as a whole `TradeCompact` message (header and block), by the generated encoder.
fn compact_message(t: &Trade) -> Result<[u8; HEADER_LENGTH + Compact::SIZE], EncodeError> {
    let t = &RawTrade::from(t);
    let delta = compact_delta(t)?;
    let mut scratch = [0u8; HEADER_LENGTH + Compact::SIZE];
    let mut e = TradeCompactEncoder::new(&mut scratch).map_err(encode_error)?;
    compact_fields(&mut e, t, delta);
    e.finish().map_err(encode_error)?;
    Ok(scratch)
}

/// The bits of a record's first 8 bytes (read little-endian) that hold exchange, base and
/// quote, and the value those bits have for one (exchange, base, quote), derived from the
/// generated encoder rather than from hand-written offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyMask {
    /// Mask over the first 8 bytes.
    pub mask: u64,
    /// Masked value for the wanted exchange and ticker.
    pub key: u64,
}

fn first_word<L: RecordLayout>(t: &Trade) -> Option<u64> {
    let mut rec = vec![0u8; L::SIZE];
    L::encode(t, &mut rec).ok()?;
    Some(u64::from_le_bytes(*rec.first_chunk::<8>()?))
}

impl KeyMask {
    /// The mask and key for `exchange` and `base`/`quote` in layout `L`; `None` if those fields
    /// are not all within the first 8 bytes or overlap other fields.
    pub fn new<L: RecordLayout>(
        exchange: Exchange,
        base: Currency,
        quote: Currency,
    ) -> Option<Self> {
        let blank = Trade {
            time: 0,
            amount: 0.0,
            exchange: Exchange::from_raw(0),
            price: 0.0,
            server_time: None,
            side: Side::from_raw(0),
            base: Currency::from_raw(0),
            quote: Currency::from_raw(0),
        };
        let ones = Trade {
            exchange: Exchange::from_raw(0xFF),
            base: Currency::from_raw(0xFF),
            quote: Currency::from_raw(0xFF),
            ..blank
        };
        let zero = first_word::<L>(&blank)?;
        let mask = first_word::<L>(&ones)? ^ zero;
        if mask.count_ones() != 24 {
            return None;
        }
        let want = Trade {
            exchange,
            base,
            quote,
            ..blank
        };
        let key = first_word::<L>(&want)? & mask;
        Some(KeyMask { mask, key })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Trade {
        Trade {
            time: 1_527_811_200_123_456_789,
            amount: 0.015,
            exchange: Exchange::Bmex,
            price: 7512.5,
            server_time: Some(1_527_811_200_100_000_000),
            side: Side::Ask,
            base: Currency::Btc,
            quote: Currency::Usd,
        }
    }

    fn roundtrip<L: RecordLayout>(t: &Trade) -> Trade {
        let mut buf = vec![0xAAu8; HEADER_LENGTH + L::SIZE];
        L::encode(t, &mut buf[HEADER_LENGTH..]).unwrap();
        L::view(&buf).unwrap().trade()
    }

    #[test]
    fn append_matches_encode_and_keeps_earlier_bytes() {
        let t = sample();
        let mut out = vec![1, 2, 3, 4, 5, 6, 7, 8, 9];
        Lossless::append(&(&t).into(), &mut out).unwrap();
        Compact::append(&(&t).into(), &mut out).unwrap();
        assert_eq!(&out[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut a = [0u8; 40];
        Lossless::encode(&t, &mut a).unwrap();
        assert_eq!(&out[9..49], &a);
        let mut b = [0u8; 32];
        Compact::encode(&t, &mut b).unwrap();
        assert_eq!(&out[49..], &b);
        let far = Trade {
            server_time: Some(u64::MAX),
            ..t
        };
        assert!(Compact::append(&(&far).into(), &mut out).is_err());
        assert_eq!(out.len(), 81, "nothing appended on error");
        assert!(Lossless::append(&(&t).into(), &mut vec![0; 3]).is_err());
        assert_eq!(RawTrade::from(&t).trade(), t);
    }

    #[test]
    fn sizes_are_the_schema_block_lengths() {
        assert_eq!(Lossless::SIZE, 40);
        assert_eq!(Compact::SIZE, 32);
        assert_eq!(64 % Compact::SIZE, 0, "two compact records per cache line");
    }

    #[test]
    fn lossless_round_trip_is_exact() {
        let t = sample();
        assert_eq!(roundtrip::<Lossless>(&t), t);
        let none = Trade {
            server_time: None,
            side: Side::None,
            ..t
        };
        assert_eq!(roundtrip::<Lossless>(&none), none);
    }

    #[test]
    fn compact_keeps_server_time_to_the_millisecond() {
        let t = sample();
        let back = roundtrip::<Compact>(&t);
        // delta = -23.456789 ms -> -23 ms
        assert_eq!(back.server_time, Some(t.time - 23_000_000));
        assert_eq!(
            Trade {
                server_time: t.server_time,
                ..back
            },
            t
        );
        let none = Trade {
            server_time: None,
            ..t
        };
        assert_eq!(roundtrip::<Compact>(&none), none);
    }

    #[test]
    fn compact_delta_rounding_and_limits() {
        let t = 10_000_000_000_000u64;
        assert_eq!(server_time_delta_ms(t, t), Some(0));
        assert_eq!(server_time_delta_ms(t, t + 499_999), Some(0));
        assert_eq!(server_time_delta_ms(t, t + 500_000), Some(1));
        assert_eq!(server_time_delta_ms(t, t - 500_000), Some(-1));
        assert_eq!(server_time_delta_ms(t, t - 1_499_999), Some(-1));
        let max = i64::from(i32::MAX) * DELTA_UNIT_NS;
        assert_eq!(server_time_delta_ms(t, t + max as u64), Some(i32::MAX));
        assert_eq!(server_time_delta_ms(t, t + max as u64 + 1_000_000), None);
        // Converting back would give 0 (missing) or less: rejected.
        assert_eq!(server_time_delta_ms(2_000_000, 1), None);
        let far = Trade {
            server_time: Some(sample().time + 30 * 86_400 * 1_000_000_000),
            ..sample()
        };
        let mut out = [0u8; 32];
        let e = Compact::encode(&far, &mut out).unwrap_err();
        assert!(e.0.contains("2147483647 ms"), "{e}");
    }

    #[test]
    fn key_mask_covers_exchange_and_ticker_bytes() {
        for k in [
            KeyMask::new::<Lossless>(Exchange::Bmex, Currency::Btc, Currency::Usd).unwrap(),
            KeyMask::new::<Compact>(Exchange::Bmex, Currency::Btc, Currency::Usd).unwrap(),
        ] {
            assert_eq!(k.mask, 0x00FF_FFFF);
            assert_eq!(k.key, 0x0006_0102); // usd=6, btc=1, bmex=2
        }
    }
}
