//! Typed, zero-copy views of DEEP 1.0, TOPS 1.6 / 1.5 and DEEP+ messages.
//!
//! Each view borrows the message bytes and reads fields on demand (little-endian, at the offsets
//! of the IEX specifications). A view is only built when the message is at least as long as its
//! specification says; longer messages are accepted, as the specs allow messages to grow at the
//! end. Message types share one byte space across the three feeds, so dispatch needs only the
//! type byte.

use std::fmt;

/// A price: signed 64-bit fixed point with 4 implied decimal places (`990500` is $99.05).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Price(pub i64);

impl Price {
    /// The raw fixed-point value (price × 10,000).
    #[inline]
    pub fn raw(self) -> i64 {
        self.0
    }

    /// The price as a float (lossy for very large values).
    #[inline]
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 10_000.0
    }
}

impl fmt::Display for Price {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let v = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:04}", v / 10_000, v % 10_000)
    }
}

/// An 8-byte, left-justified, space-padded ASCII symbol.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol<'a>(pub &'a [u8; 8]);

impl<'a> Symbol<'a> {
    /// The raw 8 bytes, padding included.
    #[inline]
    pub fn bytes(&self) -> &'a [u8; 8] {
        self.0
    }

    /// The symbol without trailing spaces (or NULs). Symbols are ASCII; should a byte not be,
    /// the text stops before the first byte that is not valid UTF-8.
    #[inline]
    pub fn as_str(&self) -> &'a str {
        let b: &'a [u8] = self.0;
        let mut end = b.len();
        while end > 0 && (b[end - 1] == b' ' || b[end - 1] == 0) {
            end -= 1;
        }
        let b = &b[..end];
        match std::str::from_utf8(b) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or(""),
        }
    }
}

impl fmt::Debug for Symbol<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symbol({:?})", self.as_str())
    }
}

impl fmt::Display for Symbol<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// Field readers over fixed-size arrays: with the constant offsets used below, the compiler sees
// that every index is in bounds and emits plain loads.
#[inline(always)]
fn u32_at<const N: usize>(b: &[u8; N], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
#[inline(always)]
fn i64_at<const N: usize>(b: &[u8; N], at: usize) -> i64 {
    i64::from_le_bytes([
        b[at],
        b[at + 1],
        b[at + 2],
        b[at + 3],
        b[at + 4],
        b[at + 5],
        b[at + 6],
        b[at + 7],
    ])
}
const BLANK: [u8; 8] = [b' '; 8];
#[inline(always)]
fn sym_at<const N: usize>(b: &[u8; N], at: usize) -> Symbol<'_> {
    Symbol(b[at..at + 8].try_into().unwrap_or(&BLANK))
}
#[inline(always)]
fn arr4_at<const N: usize>(b: &[u8; N], at: usize) -> [u8; 4] {
    [b[at], b[at + 1], b[at + 2], b[at + 3]]
}

macro_rules! field_ty {
    (u8) => { u8 };
    (u32) => { u32 };
    (i64) => { i64 };
    (price) => { Price };
    (symbol) => { Symbol<'a> };
    (bytes4) => { [u8; 4] };
}

macro_rules! field_read {
    (u8, $b:expr, $at:expr) => {
        $b[$at]
    };
    (u32, $b:expr, $at:expr) => {
        u32_at($b, $at)
    };
    (i64, $b:expr, $at:expr) => {
        i64_at($b, $at)
    };
    (price, $b:expr, $at:expr) => {
        Price(i64_at($b, $at))
    };
    (symbol, $b:expr, $at:expr) => {
        sym_at($b, $at)
    };
    (bytes4, $b:expr, $at:expr) => {
        arr4_at($b, $at)
    };
}

macro_rules! view {
    (
        $(#[$m:meta])*
        $name:ident, $len:expr, {
            $( $(#[$fm:meta])* $field:ident : $kind:ident @ $at:expr ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name<'a> {
            fixed: &'a [u8; $len],
            raw: &'a [u8],
        }

        impl<'a> $name<'a> {
            /// Length of this message in its specification (real messages may be longer).
            pub const LEN: usize = $len;

            /// Wraps message bytes (type byte first); `None` if shorter than [`Self::LEN`].
            #[inline]
            pub fn new(raw: &'a [u8]) -> Option<Self> {
                let fixed = raw.get(..$len)?.try_into().ok()?;
                Some(Self { fixed, raw })
            }

            /// All bytes of the message, including any bytes beyond the specified length.
            #[inline]
            pub fn raw(&self) -> &'a [u8] {
                self.raw
            }

            /// The message type byte.
            #[inline]
            pub fn msg_type(&self) -> u8 {
                self.fixed[0]
            }

            /// Event time in nanoseconds since the POSIX epoch (UTC).
            #[inline]
            pub fn timestamp(&self) -> i64 {
                i64_at(self.fixed, 2)
            }

            $(
                $(#[$fm])*
                #[inline]
                pub fn $field(&self) -> field_ty!($kind) {
                    field_read!($kind, self.fixed, $at)
                }
            )*
        }
    };
}

view!(
    /// `S` System Event (10 bytes).
    SystemEvent, 10, {
        /// Event code: `O` start of messages, `S` start of system hours, `R` start of regular
        /// market hours, `M` end of regular hours, `E` end of system hours, `C` end of messages.
        event: u8 @ 1,
    }
);

view!(
    /// `D` Security Directory (31 bytes).
    SecurityDirectory, 31, {
        /// Flags: 0x80 test security, 0x40 when issued, 0x20 ETP.
        flags: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Round lot size.
        round_lot_size: u32 @ 18,
        /// Adjusted previous official closing price.
        adjusted_poc_price: price @ 22,
        /// LULD tier: 0 not applicable, 1 or 2.
        luld_tier: u8 @ 30,
    }
);

view!(
    /// `H` Trading Status (22 bytes).
    TradingStatus, 22, {
        /// `H` halted, `O` order acceptance period, `P` paused, `T` trading.
        status: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Reason code, 4 space-padded ASCII bytes (`T1`, `IPO1`, `MCB3`, `NA`...).
        reason: bytes4 @ 18,
    }
);

view!(
    /// `I` Retail Liquidity Indicator (18 bytes; DEEP 1.07+, TOPS 1.65+).
    RetailLiquidityIndicator, 18, {
        /// `' '` not applicable, `A` buy interest, `B` sell interest, `C` both.
        indicator: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
    }
);

view!(
    /// `O` Operational Halt Status (18 bytes).
    OperationalHaltStatus, 18, {
        /// `O` operationally halted, `N` not halted.
        status: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
    }
);

view!(
    /// `P` Short Sale Price Test Status (19 bytes).
    ShortSalePriceTestStatus, 19, {
        /// 0 not in effect, 1 in effect.
        status: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Detail: `' '`, `A` activated, `C` continued, `D` deactivated, `N` not available.
        detail: u8 @ 18,
    }
);

view!(
    /// `E` Security Event (18 bytes; DEEP and DEEP+).
    SecurityEvent, 18, {
        /// `O` opening process complete, `C` closing process complete.
        event: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
    }
);

view!(
    /// `8` / `5` Price Level Update, buy or sell side (30 bytes; DEEP).
    PriceLevelUpdate, 30, {
        /// Event flags: 1 when the event's processing is complete (the book can be used), 0
        /// while the book is in transition.
        event_flags: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Aggregate size at the level; 0 removes the level.
        size: u32 @ 18,
        /// Price of the level.
        price: price @ 22,
    }
);

impl PriceLevelUpdate<'_> {
    /// True for the buy side (type `8`), false for the sell side (type `5`).
    #[inline]
    pub fn is_buy(&self) -> bool {
        self.fixed[0] == b'8'
    }
}

view!(
    /// `Q` Quote Update (42 bytes; TOPS).
    QuoteUpdate, 42, {
        /// Flags: 0x80 symbol not available (halted, paused...), 0x40 pre/post-market session.
        flags: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Best bid size.
        bid_size: u32 @ 18,
        /// Best bid price.
        bid_price: price @ 22,
        /// Best ask price (note: the ask price comes before the ask size).
        ask_price: price @ 30,
        /// Best ask size.
        ask_size: u32 @ 38,
    }
);

view!(
    /// `T` Trade Report (38 bytes; 42 in TOPS 1.5 with 4 trailing reserved bytes). In DEEP+ this
    /// is the non-displayed "Trade" message with the same layout.
    TradeReport, 38, {
        /// Sale condition bits: 0x80 ISO, 0x40 extended hours, 0x20 odd lot, 0x10 trade-through
        /// exempt, 0x08 single-price cross.
        sale_condition: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Shares traded.
        size: u32 @ 18,
        /// Trade price.
        price: price @ 22,
        /// IEX trade id.
        trade_id: i64 @ 30,
    }
);

view!(
    /// `B` Trade Break (38 bytes; 42 in TOPS 1.5).
    TradeBreak, 38, {
        /// Sale condition bits of the broken trade.
        sale_condition: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Shares of the broken trade.
        size: u32 @ 18,
        /// Price of the broken trade.
        price: price @ 22,
        /// Trade id of the broken trade.
        trade_id: i64 @ 30,
    }
);

view!(
    /// `X` Official Price (26 bytes; DEEP 1.05+ and TOPS 1.6).
    OfficialPrice, 26, {
        /// `Q` official opening price, `M` official closing price.
        price_type: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// The official price.
        official_price: price @ 18,
    }
);

view!(
    /// `A` Auction Information (80 bytes; DEEP and TOPS).
    AuctionInformation, 80, {
        /// `O` opening, `C` closing, `I` IPO, `H` halt, `V` volatility auction.
        auction_type: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Shares paired at the reference price.
        paired_shares: u32 @ 18,
        /// Reference price.
        reference_price: price @ 22,
        /// Indicative clearing price.
        indicative_clearing_price: price @ 30,
        /// Imbalance shares.
        imbalance_shares: u32 @ 38,
        /// Imbalance side: `B` buy, `S` sell, `N` none.
        imbalance_side: u8 @ 42,
        /// Number of extensions the auction has had.
        extension_number: u8 @ 43,
        /// Scheduled auction time, in seconds (not nanoseconds) since the epoch.
        scheduled_auction_time: u32 @ 44,
        /// Auction book clearing price.
        auction_book_clearing_price: price @ 48,
        /// Collar reference price.
        collar_reference_price: price @ 56,
        /// Lower auction collar.
        lower_auction_collar: price @ 64,
        /// Upper auction collar.
        upper_auction_collar: price @ 72,
    }
);

view!(
    /// `a` Add Order (38 bytes; DEEP+).
    AddOrder, 38, {
        /// Side: `8` buy, `5` sell.
        side: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Order id.
        order_id: i64 @ 18,
        /// Displayed size.
        size: u32 @ 26,
        /// Limit price.
        price: price @ 30,
    }
);

view!(
    /// `M` Order Modify (38 bytes; DEEP+).
    OrderModify, 38, {
        /// Modify flags: bit 0 set when priority is kept, clear when reset.
        modify_flags: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Id of the order modified.
        order_id: i64 @ 18,
        /// New total displayed size.
        size: u32 @ 26,
        /// New price.
        price: price @ 30,
    }
);

view!(
    /// `R` Order Delete (26 bytes; DEEP+).
    OrderDelete, 26, {
        /// Security symbol.
        symbol: symbol @ 10,
        /// Id of the order deleted.
        order_id: i64 @ 18,
    }
);

view!(
    /// `L` Order Executed (46 bytes; DEEP+).
    OrderExecuted, 46, {
        /// Sale condition bits.
        sale_condition: u8 @ 1,
        /// Security symbol.
        symbol: symbol @ 10,
        /// Id of the order executed.
        order_id: i64 @ 18,
        /// Executed shares.
        size: u32 @ 26,
        /// Execution price.
        price: price @ 30,
        /// Trade id.
        trade_id: i64 @ 38,
    }
);

view!(
    /// `C` Clear Book (18 bytes; DEEP+).
    ClearBook, 18, {
        /// Security symbol whose book is cleared.
        symbol: symbol @ 10,
    }
);

/// A message of a type this crate does not know (yielded, never fatal).
#[derive(Debug, Clone, Copy)]
pub struct RawMessage<'a>(pub &'a [u8]);

impl<'a> RawMessage<'a> {
    /// The message bytes, type byte first (never empty).
    pub fn raw(&self) -> &'a [u8] {
        self.0
    }
}

/// One decoded message.
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)] // each variant is documented by its view type
pub enum Message<'a> {
    SystemEvent(SystemEvent<'a>),
    SecurityDirectory(SecurityDirectory<'a>),
    TradingStatus(TradingStatus<'a>),
    RetailLiquidityIndicator(RetailLiquidityIndicator<'a>),
    OperationalHaltStatus(OperationalHaltStatus<'a>),
    ShortSalePriceTestStatus(ShortSalePriceTestStatus<'a>),
    SecurityEvent(SecurityEvent<'a>),
    PriceLevelUpdate(PriceLevelUpdate<'a>),
    QuoteUpdate(QuoteUpdate<'a>),
    TradeReport(TradeReport<'a>),
    TradeBreak(TradeBreak<'a>),
    OfficialPrice(OfficialPrice<'a>),
    AuctionInformation(AuctionInformation<'a>),
    AddOrder(AddOrder<'a>),
    OrderModify(OrderModify<'a>),
    OrderDelete(OrderDelete<'a>),
    OrderExecuted(OrderExecuted<'a>),
    ClearBook(ClearBook<'a>),
    /// A type this crate does not know.
    Unknown(RawMessage<'a>),
}

/// Specified minimum length of a known message type, or `None` for unknown types.
#[inline]
pub fn spec_len(msg_type: u8) -> Option<usize> {
    Some(match msg_type {
        b'S' => SystemEvent::LEN,
        b'D' => SecurityDirectory::LEN,
        b'H' => TradingStatus::LEN,
        b'I' => RetailLiquidityIndicator::LEN,
        b'O' => OperationalHaltStatus::LEN,
        b'P' => ShortSalePriceTestStatus::LEN,
        b'E' => SecurityEvent::LEN,
        b'8' | b'5' => PriceLevelUpdate::LEN,
        b'Q' => QuoteUpdate::LEN,
        b'T' => TradeReport::LEN,
        b'B' => TradeBreak::LEN,
        b'X' => OfficialPrice::LEN,
        b'A' => AuctionInformation::LEN,
        b'a' => AddOrder::LEN,
        b'M' => OrderModify::LEN,
        b'R' => OrderDelete::LEN,
        b'L' => OrderExecuted::LEN,
        b'C' => ClearBook::LEN,
        _ => return None,
    })
}

/// A short printable label for a message type byte (`'T'`, or `0x7f`).
pub fn type_label(t: u8) -> String {
    if t.is_ascii_graphic() {
        format!("'{}'", t as char)
    } else {
        format!("{t:#04x}")
    }
}

/// Human name of a message type.
pub fn type_name(t: u8) -> &'static str {
    match t {
        b'S' => "system event",
        b'D' => "security directory",
        b'H' => "trading status",
        b'I' => "retail liquidity indicator",
        b'O' => "operational halt status",
        b'P' => "short sale price test status",
        b'E' => "security event",
        b'8' => "price level update (buy)",
        b'5' => "price level update (sell)",
        b'Q' => "quote update",
        b'T' => "trade report",
        b'B' => "trade break",
        b'X' => "official price",
        b'A' => "auction information",
        b'a' => "add order",
        b'M' => "order modify",
        b'R' => "order delete",
        b'L' => "order executed",
        b'C' => "clear book",
        _ => "unknown",
    }
}

impl<'a> Message<'a> {
    /// Decodes one message (type byte first). Unknown types become [`Message::Unknown`]; a known
    /// type shorter than its specification is `Err(minimum length)`. `raw` must not be empty.
    #[inline]
    pub fn parse(raw: &'a [u8]) -> Result<Message<'a>, usize> {
        macro_rules! v {
            ($var:ident) => {
                match $var::new(raw) {
                    Some(m) => Ok(Message::$var(m)),
                    None => Err($var::LEN),
                }
            };
        }
        match raw.first().copied().unwrap_or(0) {
            b'8' | b'5' => v!(PriceLevelUpdate),
            b'T' => v!(TradeReport),
            b'Q' => v!(QuoteUpdate),
            b'a' => v!(AddOrder),
            b'M' => v!(OrderModify),
            b'R' => v!(OrderDelete),
            b'L' => v!(OrderExecuted),
            b'H' => v!(TradingStatus),
            b'O' => v!(OperationalHaltStatus),
            b'P' => v!(ShortSalePriceTestStatus),
            b'I' => v!(RetailLiquidityIndicator),
            b'E' => v!(SecurityEvent),
            b'S' => v!(SystemEvent),
            b'D' => v!(SecurityDirectory),
            b'B' => v!(TradeBreak),
            b'X' => v!(OfficialPrice),
            b'A' => v!(AuctionInformation),
            b'C' => v!(ClearBook),
            _ => Ok(Message::Unknown(RawMessage(raw))),
        }
    }

    /// All bytes of the message.
    #[inline]
    pub fn raw(&self) -> &'a [u8] {
        match self {
            Message::SystemEvent(m) => m.raw(),
            Message::SecurityDirectory(m) => m.raw(),
            Message::TradingStatus(m) => m.raw(),
            Message::RetailLiquidityIndicator(m) => m.raw(),
            Message::OperationalHaltStatus(m) => m.raw(),
            Message::ShortSalePriceTestStatus(m) => m.raw(),
            Message::SecurityEvent(m) => m.raw(),
            Message::PriceLevelUpdate(m) => m.raw(),
            Message::QuoteUpdate(m) => m.raw(),
            Message::TradeReport(m) => m.raw(),
            Message::TradeBreak(m) => m.raw(),
            Message::OfficialPrice(m) => m.raw(),
            Message::AuctionInformation(m) => m.raw(),
            Message::AddOrder(m) => m.raw(),
            Message::OrderModify(m) => m.raw(),
            Message::OrderDelete(m) => m.raw(),
            Message::OrderExecuted(m) => m.raw(),
            Message::ClearBook(m) => m.raw(),
            Message::Unknown(m) => m.raw(),
        }
    }

    /// The message type byte.
    #[inline]
    pub fn msg_type(&self) -> u8 {
        self.raw().first().copied().unwrap_or(0)
    }

    /// Event timestamp (ns since the epoch), if the message is long enough to carry one.
    #[inline]
    pub fn timestamp(&self) -> Option<i64> {
        let b: &[u8; 10] = self.raw().get(..10)?.try_into().ok()?;
        Some(i64_at(b, 2))
    }

    /// The symbol, for every known type except the System Event (unknown types: `None`).
    #[inline]
    pub fn symbol(&self) -> Option<Symbol<'a>> {
        match self {
            Message::SystemEvent(_) | Message::Unknown(_) => None,
            m => Some(Symbol(m.raw().get(10..18)?.try_into().ok()?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a message of `len` bytes with the common prefix filled in.
    fn msg(t: u8, code: u8, len: usize) -> Vec<u8> {
        let mut m = vec![0u8; len];
        m[0] = t;
        m[1] = code;
        m[2..10].copy_from_slice(&1_234_567_890_123_456_789i64.to_le_bytes());
        if len >= 18 {
            m[10..18].copy_from_slice(b"ZVZZT   ");
        }
        m
    }

    #[test]
    fn every_known_type_dispatches_to_its_view_at_its_spec_length() {
        for t in 0..=255u8 {
            let Some(len) = spec_len(t) else {
                assert!(matches!(
                    Message::parse(&[t, 0, 0]),
                    Ok(Message::Unknown(_))
                ));
                continue;
            };
            let m = msg(t, 1, len);
            let parsed = Message::parse(&m).unwrap();
            assert_eq!(parsed.msg_type(), t);
            assert_eq!(parsed.raw().len(), len);
            assert_eq!(parsed.timestamp(), Some(1_234_567_890_123_456_789));
            assert!(!matches!(parsed, Message::Unknown(_)), "{}", type_label(t));
            assert_eq!(parsed.symbol().is_some(), t != b'S');
            if t != b'S' {
                assert_eq!(parsed.symbol().unwrap().as_str(), "ZVZZT");
            }
            // One byte short is rejected with the minimum length; longer is accepted.
            assert_eq!(Message::parse(&m[..len - 1]).unwrap_err(), len);
            let mut longer = m.clone();
            longer.extend_from_slice(&[9; 7]);
            assert_eq!(Message::parse(&longer).unwrap().raw().len(), len + 7);
            assert_ne!(type_name(t), "unknown");
        }
    }

    #[test]
    fn clear_book_and_order_delete_fields() {
        // DEEP+ 'C' Clear Book: type, reserved, timestamp, symbol (18 bytes).
        let m = msg(b'C', 0, 18);
        let Ok(Message::ClearBook(c)) = Message::parse(&m) else {
            panic!()
        };
        assert_eq!(c.symbol().as_str(), "ZVZZT");
        // 'R' Order Delete: order id at 18.
        let mut m = msg(b'R', 0, 26);
        m[18..26].copy_from_slice(&(-7i64).to_le_bytes());
        let Ok(Message::OrderDelete(r)) = Message::parse(&m) else {
            panic!()
        };
        assert_eq!(r.order_id(), -7);
    }

    #[test]
    fn price_and_symbol_text() {
        assert_eq!(Price(990_500).to_string(), "99.0500");
        assert_eq!(Price(-1).to_string(), "-0.0001");
        assert_eq!(Price(i64::MIN).to_string(), "-922337203685477.5808");
        assert_eq!(Price(100_000_500).to_f64(), 10_000.05);
        assert_eq!(Symbol(b"JPM-A   ").as_str(), "JPM-A");
        assert_eq!(Symbol(b"        ").as_str(), "");
        assert_eq!(Symbol(b"AB\xffC    ").as_str(), "AB");
        assert_eq!(Symbol(b"ABCDEFGH").as_str(), "ABCDEFGH");
    }
}
