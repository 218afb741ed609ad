//! Field values of hand-checked messages from the real samples.
//!
//! How the expected values were obtained: the message bytes were dumped as hex, and each field
//! was decoded independently of this crate with Python's `struct.unpack_from('<I'/'<q', ...)` at
//! the offsets of the spec tables in `shared/docs/iex-format.md` (prices divided by 10,000 by
//! hand). Plausibility checks: TSLA $250.64 on 2023-10-02 and AAPL $148.91 on 2017-07-10 match
//! those days' market prices; the DEEP10 / TOPS16 test-symbol prices are arbitrary lab values.
//! Messages are addressed by their index in the file's flat message order.

use sbekit_iex::{Capture, Message, ReadOptions};

fn nth(file: &str, test: &str, idx: usize) -> Option<(Capture, usize)> {
    let p = sbekit_testdata::require(&format!("data/iex/{file}"), test)?;
    Some((Capture::open(p).unwrap(), idx))
}

fn get<'a>(cap: &'a Capture, idx: usize) -> Message<'a> {
    cap.messages(ReadOptions::default())
        .unwrap()
        .nth(idx)
        .unwrap()
        .unwrap()
}

#[test]
fn deep10_messages() {
    let Some((cap, _)) = nth("go-iex/DEEP10.pcap.gz", "deep10_messages", 0) else {
        return;
    };
    // 53 4f cecb846635acb814: System Event 'O' (start of messages).
    let Message::SystemEvent(s) = get(&cap, 0) else {
        panic!()
    };
    assert_eq!(s.event(), b'O');
    assert_eq!(s.timestamp(), 1_493_132_621_826_542_542);
    // H 'T' A, blank reason.
    let Message::TradingStatus(h) = get(&cap, 1) else {
        panic!()
    };
    assert_eq!(
        (h.status(), h.symbol().as_str(), h.reason()),
        (b'T', "A", *b"    ")
    );
    // O 'N' A.
    let Message::OperationalHaltStatus(o) = get(&cap, 2) else {
        panic!()
    };
    assert_eq!((o.status(), o.symbol().as_str()), (b'N', "A"));
    // P 0 A detail ' '.
    let Message::ShortSalePriceTestStatus(p) = get(&cap, 3) else {
        panic!()
    };
    assert_eq!((p.status(), p.detail()), (0, b' '));
    // 35 01 ... ZXIET size 0x2aa price 0x0aac6c: sell PLU 682 @ 69.95.
    let Message::PriceLevelUpdate(u) = get(&cap, 23_411) else {
        panic!()
    };
    assert!(!u.is_buy());
    assert_eq!(u.event_flags(), 1);
    assert_eq!(u.symbol().as_str(), "ZXIET");
    assert_eq!(u.size(), 682);
    assert_eq!(u.price().raw(), 699_500);
    assert_eq!(u.price().to_string(), "69.9500");
    assert_eq!(u.timestamp(), 1_493_132_712_550_145_608);
    // 38 01 ... ZIEXT 400 @ 19.96: buy PLU.
    let Message::PriceLevelUpdate(u) = get(&cap, 23_413) else {
        panic!()
    };
    assert!(u.is_buy());
    assert_eq!(
        (u.symbol().as_str(), u.size(), u.price().raw()),
        ("ZIEXT", 400, 199_600)
    );
    // 54 c0 ... MSFT 390 @ 36.70 trade id 110587, ISO + extended hours.
    let Message::TradeReport(t) = get(&cap, 23_419) else {
        panic!()
    };
    assert_eq!(t.sale_condition(), 0xc0);
    assert_eq!(t.symbol().as_str(), "MSFT");
    assert_eq!(t.size(), 390);
    assert_eq!(t.price().raw(), 367_000);
    assert_eq!(t.trade_id(), 110_587);
    assert_eq!(t.timestamp(), 1_493_132_714_395_755_096);
    // 45 4f ... ZXIET: Security Event opening process complete.
    let Message::SecurityEvent(e) = get(&cap, 24_635) else {
        panic!()
    };
    assert_eq!((e.event(), e.symbol().as_str()), (b'O', "ZXIET"));
    // 42 d0 ... AA 220 @ 49.98 trade id 130839.
    let Message::TradeBreak(b) = get(&cap, 310_651) else {
        panic!()
    };
    assert_eq!(b.sale_condition(), 0xd0);
    assert_eq!(
        (b.symbol().as_str(), b.size(), b.price().raw(), b.trade_id()),
        ("AA", 220, 499_800, 130_839)
    );
}

#[test]
fn tops16_messages() {
    let Some((cap, _)) = nth("go-iex/TOPS16.pcapng.gz", "tops16_messages", 0) else {
        return;
    };
    // 51 40 ... A, all sizes and prices zero, pre-market flag.
    let Message::QuoteUpdate(q) = get(&cap, 4) else {
        panic!()
    };
    assert_eq!(q.flags(), 0x40);
    assert_eq!(q.symbol().as_str(), "A");
    assert_eq!(
        (
            q.bid_size(),
            q.bid_price().raw(),
            q.ask_price().raw(),
            q.ask_size()
        ),
        (0, 0, 0, 0)
    );
    // 44 80 ... ZEXIT lot 100 poc 0x0186a0 tier 0: test security.
    let Message::SecurityDirectory(d) = get(&cap, 31_157) else {
        panic!()
    };
    assert_eq!(d.flags(), 0x80);
    assert_eq!(d.symbol().as_str(), "ZEXIT");
    assert_eq!(d.round_lot_size(), 100);
    assert_eq!(d.adjusted_poc_price().raw(), 100_000);
    assert_eq!(d.luld_tier(), 0);
    // AAPL 283 @ 148.91, trade id 128140.
    let Message::TradeReport(t) = get(&cap, 31_216) else {
        panic!()
    };
    assert_eq!(
        (t.symbol().as_str(), t.size(), t.price().raw(), t.trade_id()),
        ("AAPL", 283, 1_489_100, 128_140)
    );
    // Auction 'O' ZEXIT: every field of the 80-byte layout.
    let Message::AuctionInformation(a) = get(&cap, 31_593) else {
        panic!()
    };
    assert_eq!(a.auction_type(), b'O');
    assert_eq!(a.symbol().as_str(), "ZEXIT");
    assert_eq!(a.paired_shares(), 0);
    assert_eq!(a.reference_price().raw(), 99_600);
    assert_eq!(a.indicative_clearing_price().raw(), 100_200);
    assert_eq!(a.imbalance_shares(), 3_008);
    assert_eq!(a.imbalance_side(), b'B');
    assert_eq!(a.extension_number(), 0);
    // 1499715000 s = 2017-07-10 19:30:00 UTC = 15:30 ET, a plausible auction time.
    assert_eq!(a.scheduled_auction_time(), 1_499_715_000);
    assert_eq!(a.auction_book_clearing_price().raw(), 100_400);
    assert_eq!(a.collar_reference_price().raw(), 99_550);
    assert_eq!(a.lower_auction_collar().raw(), 89_600);
    assert_eq!(a.upper_auction_collar().raw(), 109_500);
    // Break ZXIET 3860 @ 29.99, id 171978, flags 0x18.
    let Message::TradeBreak(b) = get(&cap, 42_432) else {
        panic!()
    };
    assert_eq!(
        (b.sale_condition(), b.size(), b.price().raw(), b.trade_id()),
        (0x18, 3_860, 299_900, 171_978)
    );
}

#[test]
fn sai271828_messages() {
    let Some((cap, _)) = nth("sai271828-iex-parser/test.pcap.gz", "sai271828_messages", 0) else {
        return;
    };
    // 49 20 ... A: Retail Liquidity Indicator, none.
    let Message::RetailLiquidityIndicator(i) = get(&cap, 4) else {
        panic!()
    };
    assert_eq!((i.indicator(), i.symbol().as_str()), (b' ', "A"));
    assert_eq!(i.timestamp(), 1_696_246_475_036_572_612);
    // ZEXIT with LULD tier 1.
    let Message::SecurityDirectory(d) = get(&cap, 45_001) else {
        panic!()
    };
    assert_eq!((d.symbol().as_str(), d.luld_tier()), ("ZEXIT", 1));
    // TBF buy 2982 @ 25.20, then sell 2982 @ 25.40.
    let Message::PriceLevelUpdate(b) = get(&cap, 45_536) else {
        panic!()
    };
    let Message::PriceLevelUpdate(s) = get(&cap, 45_537) else {
        panic!()
    };
    assert!(b.is_buy() && !s.is_buy());
    assert_eq!(
        (b.size(), b.price().raw(), s.price().raw()),
        (2_982, 252_000, 254_000)
    );
    // TSLA 10 @ 250.64, id 1477663, flags 0x60 (extended hours, odd lot).
    let Message::TradeReport(t) = get(&cap, 46_004) else {
        panic!()
    };
    assert_eq!(
        (
            t.sale_condition(),
            t.symbol().as_str(),
            t.size(),
            t.price().raw(),
            t.trade_id()
        ),
        (0x60, "TSLA", 10, 2_506_400, 1_477_663)
    );
}

#[test]
fn deep_plus_messages() {
    let Some((cap, _)) = nth(
        "omi-data-packets/Iex/DeepPlus.IexTp.1.0.2/all_message_types.pcap",
        "deep_plus_messages",
        0,
    ) else {
        return;
    };
    // B: TFC 100 @ 42.20 id 27866022694355438.
    let Message::TradeBreak(b) = get(&cap, 0) else {
        panic!()
    };
    assert_eq!(
        (b.symbol().as_str(), b.size(), b.price().raw(), b.trade_id()),
        ("TFC", 100, 422_000, 27_866_022_694_355_438)
    );
    // L: IBKR order 27866022694354957 executed 100 @ 138.00, trade 27866022694354968.
    let Message::OrderExecuted(l) = get(&cap, 236) else {
        panic!()
    };
    assert_eq!(l.sale_condition(), 0x40);
    assert_eq!(l.symbol().as_str(), "IBKR");
    assert_eq!(l.order_id(), 27_866_022_694_354_957);
    assert_eq!(
        (l.size(), l.price().raw(), l.trade_id()),
        (100, 1_380_000, 27_866_022_694_354_968)
    );
    // M: order 27866022694355118 now 200 @ 138.33, priority reset.
    let Message::OrderModify(m) = get(&cap, 239) else {
        panic!()
    };
    assert_eq!(
        (m.modify_flags(), m.order_id(), m.size(), m.price().raw()),
        (0, 27_866_022_694_355_118, 200, 1_383_300)
    );
    // R: delete order 27866022694354954.
    let Message::OrderDelete(r) = get(&cap, 374) else {
        panic!()
    };
    assert_eq!(
        (r.symbol().as_str(), r.order_id()),
        ("IBKR", 27_866_022_694_354_954)
    );
    // T (non-displayed trade): 100 @ 137.33 id 27866022694355088.
    let Message::TradeReport(t) = get(&cap, 442) else {
        panic!()
    };
    assert_eq!(
        (t.size(), t.price().raw(), t.trade_id()),
        (100, 1_373_300, 27_866_022_694_355_088)
    );
    // a: sell order 27866022694354954 for 100 @ 136.50 (the order R deletes above).
    let Message::AddOrder(a) = get(&cap, 446) else {
        panic!()
    };
    assert_eq!(
        (
            a.side(),
            a.symbol().as_str(),
            a.order_id(),
            a.size(),
            a.price().raw()
        ),
        (b'5', "IBKR", 27_866_022_694_354_954, 100, 1_365_000)
    );
    assert_eq!(a.timestamp(), 1_727_787_282_503_661_342);
    // E, D, S from the same file.
    let Message::SecurityEvent(e) = get(&cap, 67) else {
        panic!()
    };
    assert_eq!((e.event(), e.symbol().as_str()), (b'O', "A"));
    let Message::SecurityDirectory(d) = get(&cap, 47) else {
        panic!()
    };
    assert_eq!(
        (
            d.symbol().as_str(),
            d.round_lot_size(),
            d.adjusted_poc_price().raw(),
            d.luld_tier()
        ),
        ("ZEXIT", 100, 100_000, 1)
    );
    let Message::SystemEvent(s) = get(&cap, 102) else {
        panic!()
    };
    assert_eq!(s.event(), b'O');
}

#[test]
fn dfr_messages() {
    let Some((cap, _)) = nth(
        "deterministic-feed-recovery/20170826-iex-deep.pcap.gz",
        "dfr_messages",
        0,
    ) else {
        return;
    };
    // Halt auction on ZXIET: ref = icp = abcp = 99.99, 100 shares imbalance on the sell side,
    // scheduled 1503751800 s; collars zero.
    let Message::AuctionInformation(a) = get(&cap, 25_389) else {
        panic!()
    };
    assert_eq!(a.auction_type(), b'H');
    assert_eq!(
        (
            a.reference_price().raw(),
            a.indicative_clearing_price().raw()
        ),
        (999_900, 999_900)
    );
    assert_eq!(
        (
            a.imbalance_shares(),
            a.imbalance_side(),
            a.scheduled_auction_time()
        ),
        (100, b'S', 1_503_751_800)
    );
    assert_eq!(a.upper_auction_collar().raw(), 0);
    // WWE trade 100 @ 20.90 id 281637.
    let Message::TradeReport(t) = get(&cap, 25_352) else {
        panic!()
    };
    assert_eq!(
        (t.symbol().as_str(), t.size(), t.price().raw(), t.trade_id()),
        ("WWE", 100, 209_000, 281_637)
    );
    // Break of ZIEXT 640 @ 1.09 id 14601771.
    let Message::TradeBreak(b) = get(&cap, 48_630) else {
        panic!()
    };
    assert_eq!(
        (b.sale_condition(), b.size(), b.price().raw(), b.trade_id()),
        (0x58, 640, 10_900, 14_601_771)
    );
}

#[test]
fn omi_quote_official_price_and_symbology() {
    let Some((cap, _)) = nth(
        "omi-data-packets/Iex/Tops.IexTp.v1.6/QuoteUpdateMessage.pcap",
        "omi_quote",
        0,
    ) else {
        return;
    };
    // 51 00 ... ATSG: bid 18773 @ 24.19, ask 24.25 x 60677 (ask price before ask size).
    let Message::QuoteUpdate(q) = get(&cap, 0) else {
        panic!()
    };
    assert_eq!(q.flags(), 0);
    assert_eq!(q.symbol().as_str(), "ATSG");
    assert_eq!((q.bid_size(), q.bid_price().raw()), (18_773, 241_900));
    assert_eq!((q.ask_price().raw(), q.ask_size()), (242_500, 60_677));
    assert_eq!(q.timestamp(), 1_517_065_700_930_439_360);

    let Some((cap, _)) = nth(
        "omi-data-packets/Iex/Tops.IexTp.v1.5/OfficialPriceMessage.pcap",
        "omi_official_price",
        0,
    ) else {
        return;
    };
    // 58 51 ... ZXIET 0x0f4240: official opening price $100.00.
    let Message::OfficialPrice(x) = get(&cap, 0) else {
        panic!()
    };
    assert_eq!((x.price_type(), x.symbol().as_str()), (b'Q', "ZXIET"));
    assert_eq!(x.official_price().raw(), 1_000_000);

    let Some((cap, _)) = nth(
        "omi-data-packets/Iex/DeepPlus.IexTp.1.0.2/H_TradingStatus.pcap",
        "omi_symbology",
        0,
    ) else {
        return;
    };
    // Nasdaq symbology beyond [A-Z]: 41 41 43 2b = "AAC+", 41 41 43 3d = "AAC=".
    let Message::TradingStatus(h) = get(&cap, 23) else {
        panic!()
    };
    assert_eq!(h.symbol().as_str(), "AAC+");
    let Message::TradingStatus(h) = get(&cap, 27) else {
        panic!()
    };
    assert_eq!(h.symbol().as_str(), "AAC=");
    assert_eq!(h.status(), b'T');
}
