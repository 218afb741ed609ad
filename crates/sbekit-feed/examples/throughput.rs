//! Throughput of reading a synthetic capture, in memory, one thread:
//! a plain pass over the bytes, framing only (every message's header checked), and framing
//! with every message validated by decoding it (what `sbekit capture stats` does).
//!
//! cargo run --release -p sbekit-feed --example throughput -- [MESSAGES] [PROFILE]

use sbekit_feed::profile::Profile;
use sbekit_feed::read::{HeadersOnly, ReadOptions, Reader, Validate};
use sbekit_feed::synth::{generate, SynthConfig};
use sbekit_otf::Decoder;
use std::path::Path;
use std::time::Instant;

fn best<F: FnMut() -> u64>(runs: usize, mut f: F) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut out = 0;
    for _ in 0..runs {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let messages: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let profile_name = args.get(2).map_or("cme-mdp3", |s| s.as_str());
    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/Cme.Futures.Mdp3.Sbe.v1.12.xml");
    let ir = sbekit_schema::load_ir(&schema).expect("schema");
    let layout = sbekit_schema::load_layout(&schema).expect("schema");
    let decoder = Decoder::from_layout(&layout).expect("decoder");
    let profile = Profile::built_in(profile_name).expect("profile");
    let cfg = SynthConfig {
        messages,
        max_per_packet: 8,
        max_group: 2,
        ..SynthConfig::default()
    };
    let mut capture = Vec::new();
    let summary = generate(&ir, &profile, &cfg, &mut capture).expect("synth");
    let gb = capture.len() as f64 / 1e9;
    println!(
        "{profile_name}: {} messages, {} packets, {:.1} MB",
        summary.messages,
        summary.packets,
        capture.len() as f64 / 1e6
    );
    let (t, sum) = best(5, || {
        let bytes = std::hint::black_box(&capture[..]);
        let sum = bytes.chunks_exact(8).fold(0u64, |a, c| {
            a.wrapping_add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]))
        });
        std::hint::black_box(sum)
    });
    println!(
        "plain read (sum of bytes {sum}):       {:>7.2} GB/s",
        gb / t
    );
    let (t, n) = best(5, || {
        let mut r = Reader::new(profile.clone(), &decoder, ReadOptions::default());
        r.read(&[&capture], &mut HeadersOnly);
        r.stats.messages
    });
    println!(
        "framing + headers ({n} messages):    {:>7.2} GB/s, {:>6.2} M msg/s",
        gb / t,
        n as f64 / t / 1e6
    );
    let (t, n) = best(5, || {
        let mut r = Reader::new(profile.clone(), &decoder, ReadOptions::default());
        r.read(&[&capture], &mut Validate(&decoder));
        r.stats.messages
    });
    println!(
        "stats (every message validated):   {:>7.2} GB/s, {:>6.2} M msg/s",
        gb / t,
        n as f64 / t / 1e6
    );
}
