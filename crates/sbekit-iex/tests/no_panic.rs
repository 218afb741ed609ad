//! Property tests: random, truncated and mutated inputs never panic, every error offset lies
//! within the input, and the slice and streaming readers agree.

use proptest::prelude::*;
use sbekit_iex::stats::Stats;
use sbekit_iex::synth::{generate, SynthConfig};
use sbekit_iex::{Message, ReadOptions, Segments, StreamSegments};
use std::sync::OnceLock;

fn sample() -> &'static [u8] {
    static S: OnceLock<Vec<u8>> = OnceLock::new();
    S.get_or_init(|| {
        let mut v = Vec::new();
        let cfg = SynthConfig {
            seed: 5,
            messages: 400,
            heartbeats: false,
            ..SynthConfig::default()
        };
        generate(&cfg, &mut v).unwrap();
        v
    })
}

/// Everything the slice reader yields (message bytes or error offsets), reading every field of
/// every typed view on the way.
fn slice_walk(data: &[u8], keep_going: bool) -> Vec<Result<Vec<u8>, u64>> {
    let mut out = Vec::new();
    let Ok(segs) = Segments::new(data, ReadOptions { keep_going }) else {
        return out;
    };
    for m in segs.messages() {
        match m {
            Ok(m) => {
                touch(&m);
                out.push(Ok(m.raw().to_vec()));
            }
            Err(e) => {
                assert!(e.offset <= data.len() as u64, "{e} beyond {}", data.len());
                let _ = e.to_string();
                out.push(Err(e.offset));
            }
        }
    }
    out
}

fn stream_walk(data: &[u8], keep_going: bool) -> Vec<Result<Vec<u8>, u64>> {
    let mut out = Vec::new();
    let Ok(mut s) = StreamSegments::new(data, ReadOptions { keep_going }) else {
        return out;
    };
    'outer: while let Some(seg) = s.next_segment() {
        match seg {
            Ok(seg) => {
                let mut stats = Stats::default();
                let _ = stats.add_segment(&seg, true);
                for m in seg.messages() {
                    match m {
                        Ok(m) => out.push(Ok(m.raw().to_vec())),
                        Err(e) => {
                            out.push(Err(e.offset));
                            if !keep_going {
                                break 'outer;
                            }
                        }
                    }
                }
            }
            Err(e) => {
                assert!(e.offset <= data.len() as u64);
                out.push(Err(e.offset));
            }
        }
    }
    out
}

fn touch(m: &Message<'_>) {
    let _ = (m.timestamp(), m.symbol().map(|s| s.as_str().len()));
    match m {
        Message::SecurityDirectory(d) => {
            let _ = (d.round_lot_size(), d.adjusted_poc_price(), d.luld_tier());
        }
        Message::AuctionInformation(a) => {
            let _ = (a.upper_auction_collar(), a.scheduled_auction_time());
        }
        Message::OrderExecuted(e) => {
            let _ = (e.trade_id(), e.price());
        }
        Message::QuoteUpdate(q) => {
            let _ = (q.ask_size(), q.ask_price());
        }
        _ => {}
    }
}

fn check(data: &[u8]) {
    for keep_going in [false, true] {
        let a = slice_walk(data, keep_going);
        let b = stream_walk(data, keep_going);
        assert_eq!(a, b, "slice and stream readers disagree");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        check(&data);
    }

    #[test]
    fn random_bytes_behind_each_magic(
        magic in prop_oneof![
            Just(vec![0xd4, 0xc3, 0xb2, 0xa1]),
            Just(vec![0xa1, 0xb2, 0xc3, 0xd4]),
            Just(vec![0x4d, 0x3c, 0xb2, 0xa1]),
            Just(vec![0x0a, 0x0d, 0x0d, 0x0a]),
        ],
        rest in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut data = magic;
        data.extend_from_slice(&rest);
        check(&data);
    }

    #[test]
    fn truncated_capture(cut in 0usize..100_000) {
        let s = sample();
        check(&s[..cut.min(s.len())]);
    }

    #[test]
    fn mutated_capture(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut data = sample().to_vec();
        for (at, v) in flips {
            let i = at.index(data.len());
            data[i] = v;
        }
        let keep = cut.index(data.len() + 1);
        data.truncate(keep.max(data.len() / 2));
        check(&data);
    }

    #[test]
    fn any_message_bytes(raw in proptest::collection::vec(any::<u8>(), 1..100)) {
        if let Ok(m) = Message::parse(&raw) {
            prop_assert_eq!(m.raw(), &raw[..]);
            prop_assert_eq!(m.msg_type(), raw[0]);
            touch(&m);
        }
    }
}
