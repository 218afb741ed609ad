//! Every profile on synthetic captures: counts per template equal what the generator wrote,
//! gaps and duplicates appear in the statistics, A/B arbitration with known losses, custom
//! profiles, and hostile captures (truncations, bit flips) that never panic or hang.

use proptest::prelude::*;
use sbekit_feed::profile::{Profile, BUILT_IN};
use sbekit_feed::read::{ReadOptions, Reader, Validate};
use sbekit_feed::synth::{generate, SynthConfig, SynthSummary};
use sbekit_ir::Ir;
use sbekit_otf::Decoder;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

struct Schema {
    ir: Ir,
    decoder: Decoder,
}

fn load(rel: &str) -> Schema {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let ir = sbekit_schema::load_ir(&path).expect("schema");
    let layout = sbekit_schema::load_layout(&path).expect("layout");
    Schema {
        ir,
        decoder: Decoder::from_layout(&layout).expect("decoder"),
    }
}

fn cme() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    S.get_or_init(|| load("tests/schemas/Cme.Futures.Mdp3.Sbe.v1.12.xml"))
}

fn coinbase() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    S.get_or_init(|| load("tests/schemas/Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml"))
}

/// The schema a profile's synthetic capture is written with: Coinbase's for its profile (its
/// header holds the frame length), CME's for every other.
fn schema_for(profile: &str) -> &'static Schema {
    if profile == "coinbase-derivatives" {
        coinbase()
    } else {
        cme()
    }
}

fn synth(profile: &Profile, s: &Schema, cfg: &SynthConfig) -> (Vec<u8>, SynthSummary) {
    let mut out = Vec::new();
    let summary = generate(&s.ir, profile, cfg, &mut out).expect("synth");
    (out, summary)
}

fn read(
    profile: &Profile,
    s: &Schema,
    captures: &[&[u8]],
    arbitrate: bool,
) -> sbekit_feed::stats::Stats {
    let mut r = Reader::new(
        profile.clone(),
        &s.decoder,
        ReadOptions {
            arbitrate,
            keep_bad: 50,
        },
    );
    r.read(captures, &mut Validate(&s.decoder));
    r.stats
}

fn by_template(stats: &sbekit_feed::stats::Stats) -> BTreeMap<u64, u64> {
    stats
        .templates
        .values()
        .map(|t| (t.id, t.messages))
        .collect()
}

#[test]
fn every_profile_reads_back_what_synth_wrote() {
    for name in BUILT_IN {
        let profile = Profile::built_in(name).unwrap();
        let s = schema_for(name);
        for compress in [false, true] {
            if compress && profile.lz4_flag.is_none() {
                continue;
            }
            let cfg = SynthConfig {
                messages: 600,
                seed: 7,
                compress,
                ..SynthConfig::default()
            };
            let (capture, summary) = synth(&profile, s, &cfg);
            let stats = read(&profile, s, &[&capture], false);
            assert_eq!(stats.bad_count, 0, "{name}: {:?}", stats.bad);
            assert_eq!(stats.messages, 600, "{name}");
            assert_eq!(by_template(&stats), summary.by_template, "{name}");
            assert!(summary.by_template.len() > 5, "{name}: several templates");
            if profile.seq.is_some() {
                assert_eq!(stats.gaps(), (0, 0), "{name}");
                assert_eq!(stats.duplicates(), 0, "{name}");
            }
        }
    }
}

#[test]
fn gaps_and_duplicates_appear_in_the_stats() {
    for name in ["cme-mdp3", "b3-umdf", "coinbase-derivatives", "optiq-mdg"] {
        let profile = Profile::built_in(name).unwrap();
        let s = schema_for(name);
        let cfg = SynthConfig {
            messages: 400,
            drop: [5, 9, 10, 40].into(),
            duplicate: [3, 20].into(),
            ..SynthConfig::default()
        };
        let (capture, summary) = synth(&profile, s, &cfg);
        let stats = read(&profile, s, &[&capture], false);
        // Drops at 5, 9-10 and 40: three gaps, four numbers missing.
        assert_eq!(stats.gaps(), (3, 4), "{name}");
        assert_eq!(stats.duplicates(), 2, "{name}");
        // Duplicated packets are read twice without arbitration.
        assert_eq!(stats.packets, summary.packets, "{name}");
        assert_eq!(stats.bad_count, 0, "{name}");
        let json = stats.to_json();
        assert_eq!(json["gaps"], 3);
        assert_eq!(json["missing"], 4);
        assert_eq!(json["duplicates"], 2);
    }
}

#[test]
fn tcp_streams_report_gaps_and_keep_what_follows() {
    for name in ["sofh-le", "sofh"] {
        let profile = Profile::built_in(name).unwrap();
        let s = cme();
        let cfg = SynthConfig {
            messages: 300,
            drop: [7].into(),
            duplicate: [12].into(),
            ..SynthConfig::default()
        };
        let (capture, summary) = synth(&profile, s, &cfg);
        let stats = read(&profile, s, &[&capture], false);
        assert_eq!(stats.tcp_gaps, 1, "{name}");
        assert_eq!(stats.tcp_retransmitted, 1, "{name}");
        // Every message of the segments that were captured, once.
        assert_eq!(stats.messages, summary.messages, "{name}");
        assert_eq!(by_template(&stats), summary.by_template, "{name}");
        assert_eq!(stats.bad_by_kind.get("tcp-gap"), Some(&1), "{name}");
    }
}

#[test]
fn arbitration_of_a_pair_with_known_losses() {
    let profile = Profile::built_in("cme-mdp3").unwrap();
    let s = cme();
    let base = SynthConfig {
        messages: 500,
        seed: 11,
        ..SynthConfig::default()
    };
    // A loses 3, 4, 8 and 30-32; B loses 4, 7, 8 and 31. Neither has 4, 8 or 31.
    let a_cfg = SynthConfig {
        drop: [3, 4, 8, 30, 31, 32].into(),
        ..base.clone()
    };
    let b_cfg = SynthConfig {
        drop: [4, 7, 8, 31].into(),
        channel: sbekit_feed::read::Channel {
            addr: [239, 1, 2, 1],
            port: 20_001,
        },
        ..base.clone()
    };
    let (a, a_sum) = synth(&profile, s, &a_cfg);
    let (b, _) = synth(&profile, s, &b_cfg);
    let (_, all) = synth(&profile, s, &base);
    let (_, lost) = synth(
        &profile,
        s,
        &SynthConfig {
            drop: [4, 8, 31].into(),
            ..base.clone()
        },
    );
    let packets = a_sum.seq_range.1;

    let stats = read(&profile, s, &[&a, &b], true);
    let arb = stats.arbitration.clone().expect("arbitration ran");
    assert_eq!(arb.unfilled, vec![(4, 4), (8, 8), (31, 31)]);
    assert_eq!(arb.unfilled_count, 3);
    assert_eq!(arb.from_side.iter().sum::<u64>(), packets - 3);
    // B filled 3, 7 is A's, 30 and 32: B delivered exactly 3, 30 and 32 (A came first on ties).
    assert_eq!(arb.from_side[1], 3);
    assert_eq!(stats.messages, lost.messages);
    assert_eq!(by_template(&stats), lost.by_template);
    assert!(lost.messages < all.messages);

    // One capture holding both sides (A then B, concatenated in time order by the reader).
    let both = merge_pcapng(&a, &b);
    let stats = read(&profile, s, &[&both], true);
    let arb = stats.arbitration.expect("arbitration ran");
    assert_eq!(arb.unfilled, vec![(4, 4), (8, 8), (31, 31)]);
    assert_eq!(stats.messages, lost.messages);
}

/// The packet blocks of `b` appended to `a` (both written by the same pcap-ng writer, so the
/// section and interface headers are identical).
fn merge_pcapng(a: &[u8], b: &[u8]) -> Vec<u8> {
    let headers = header_len(b);
    let mut v = a.to_vec();
    v.extend_from_slice(&b[headers..]);
    v
}

fn header_len(cap: &[u8]) -> usize {
    let shb = u32::from_le_bytes(cap[4..8].try_into().unwrap()) as usize;
    let idb = u32::from_le_bytes(cap[shb + 4..shb + 8].try_into().unwrap()) as usize;
    shb + idb
}

#[test]
fn a_custom_profile_reads_what_the_built_in_one_does() {
    let built_in = Profile::built_in("b3-umdf").unwrap();
    let custom = Profile::from_toml(
        "name = \"my-b3\"\nheader_size = 16\nseq = { offset = 4, width = 4 }\n\
         time = { offset = 8, width = 8 }\nlength_width = 2\nlength_counts_itself = true\n\
         before_sbe = 4\n",
    )
    .unwrap();
    let s = cme();
    let cfg = SynthConfig {
        messages: 200,
        drop: [6].into(),
        ..SynthConfig::default()
    };
    let (capture, summary) = synth(&built_in, s, &cfg);
    let stats = read(&custom, s, &[&capture], false);
    assert_eq!(stats.messages, summary.messages);
    assert_eq!(stats.gaps(), (1, 1));
    assert_eq!(stats.bad_count, 0);
}

#[test]
fn another_schema_id_is_counted_never_fatal() {
    // Coinbase messages read with CME's schema (other id): all counted as unknown, with their
    // packets located; nothing is decoded and nothing panics.
    let profile = Profile::built_in("cme-mdp3").unwrap();
    let (capture, summary) = synth(&profile, cme(), &SynthConfig::default());
    let other = coinbase();
    let stats = read(&profile, other, &[&capture], false);
    assert_eq!(stats.messages, 0);
    let unknown: u64 = stats.unknown.values().sum();
    assert!(unknown > 0 && unknown <= summary.messages);
    assert!(stats.bad_count >= unknown);
    assert!(stats.bad.iter().all(|b| b.offset > 0));
}

fn hostile_case(name: &str, cut: usize, flips: &[(usize, u8)]) {
    let profile = Profile::built_in(name).unwrap();
    let s = schema_for(name);
    let cfg = SynthConfig {
        messages: 40,
        compress: profile.lz4_flag.is_some(),
        ..SynthConfig::default()
    };
    let (mut capture, _) = synth(&profile, s, &cfg);
    for &(at, bit) in flips {
        let at = at % capture.len();
        capture[at] ^= 1 << (bit % 8);
    }
    capture.truncate(cut % (capture.len() + 1));
    let stats = read(&profile, s, &[&capture], false);
    // Whatever was found is counted once: messages and problems never exceed the input.
    assert!(stats.messages <= 40 * 2);
    let stats = read(&profile, s, &[&capture, &capture], true);
    assert!(stats.messages <= 40 * 2);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, timeout: 20_000, ..ProptestConfig::default() })]

    /// Truncated and bit-flipped synthetic captures of every profile: errors counted, never a
    /// panic, never a hang (each case must finish within the timeout).
    #[test]
    fn hostile_synthetic_captures_never_panic(
        profile in 0usize..BUILT_IN.len(),
        cut in any::<usize>(),
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8),
    ) {
        hostile_case(BUILT_IN[profile], cut, &flips);
    }
}
