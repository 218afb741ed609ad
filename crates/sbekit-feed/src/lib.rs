//! SBE market-data captures read from the schema alone.
//!
//! A capture (pcap or pcap-ng, read by `sbekit-capture`) holds packets of a venue's feed; a
//! [`profile::Profile`] says how the venue frames SBE messages in them (CME MDP 3.0, B3 UMDF,
//! Coinbase Derivatives, SOFH over TCP, Euronext Optiq with LZ4, or a custom layout from TOML).
//! [`read::Reader`] walks packets, packet headers (sequence number, sending time) and messages,
//! and hands each message to a [`read::Sink`]: [`read::Validate`] (statistics),
//! [`json::JsonLines`] (`sbekit capture decode`) or a columnar writer. Everything wrong (short
//! headers, lengths that overrun, unknown schema ids or templates, undecodable messages, TCP
//! gaps) is counted in [`stats::Stats`] with the packet index and byte offset; reading goes on.
//! [`arbitrate`] merges A and B feeds by sequence number; [`synth`] writes deterministic
//! synthetic captures for every profile.
//!
//! ```
//! use sbekit_feed::{profile::Profile, read::{Reader, ReadOptions, Validate}, synth};
//! let layout = sbekit_schema::load_layout(std::path::Path::new(
//!     concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/market-data.xml"))).unwrap();
//! let ir = sbekit_schema::load_ir(std::path::Path::new(
//!     concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/market-data.xml"))).unwrap();
//! let profile = Profile::built_in("cme-mdp3").unwrap();
//! let cfg = synth::SynthConfig { messages: 100, ..synth::SynthConfig::default() };
//! let mut capture = Vec::new();
//! let summary = synth::generate(&ir, &profile, &cfg, &mut capture).unwrap();
//! let decoder = sbekit_otf::Decoder::from_layout(&layout).unwrap();
//! let mut reader = Reader::new(profile, &decoder, ReadOptions::default());
//! reader.read(&[&capture], &mut Validate(&decoder));
//! assert_eq!(reader.stats.messages, summary.messages);
//! assert_eq!(reader.stats.bad_count, 0);
//! ```

#![warn(missing_docs)]

pub mod arbitrate;
pub mod json;
pub mod profile;
pub mod read;
pub mod stats;
pub mod synth;
