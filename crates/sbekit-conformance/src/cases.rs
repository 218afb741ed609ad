//! The messages a conformance run sends: random messages of every type at the schema's
//! version, at every older version and from a newer writer, and damaged copies of them.

use sbekit_otf::random::{random_message, Options as RandomOptions, Rng};

/// One input message.
pub(crate) struct Case {
    pub(crate) bytes: Vec<u8>,
    /// Written at the schema's version: re-encoding must be byte-identical, or what `sbekit
    /// encode` writes where the bytes carry what the values cannot (see `verdict`).
    pub(crate) current: bool,
}

/// `per` random messages of each type at the schema's version, half as many padded (longer
/// blocks at the schema's version), at each older version and from a newer writer (longer
/// blocks), then `per` damaged copies ([`mutate`]).
pub(crate) fn random_cases(ir: &sbekit_ir::Ir, seed: u64, per: usize) -> Vec<Case> {
    let mut rng = Rng::new(0x5be_c0f0 ^ seed);
    let version = u32::try_from(ir.version).unwrap_or(0);
    let mut out = Vec::new();
    let half = (per / 2).max(1);
    for msg in &ir.messages {
        let first = out.len();
        for _ in 0..per {
            let m = random_message(ir, msg, &mut rng, &RandomOptions::default());
            out.push(Case {
                bytes: m.bytes,
                current: true,
            });
        }
        // At the schema's version with longer blocks, as a venue that pads writes them: they
        // cannot come back byte for byte (an encoder writes the schema's block lengths).
        for k in 0..half {
            let o = RandomOptions {
                writer_version: Some(version),
                extra_block: 1 + (k % 5),
                ..RandomOptions::default()
            };
            let m = random_message(ir, msg, &mut rng, &o);
            out.push(Case {
                bytes: m.bytes,
                current: true,
            });
        }
        for v in 0..version {
            for _ in 0..half {
                let o = RandomOptions {
                    writer_version: Some(v),
                    ..RandomOptions::default()
                };
                let m = random_message(ir, msg, &mut rng, &o);
                out.push(Case {
                    bytes: m.bytes,
                    current: false,
                });
            }
        }
        for k in 0..half {
            let o = RandomOptions {
                writer_version: Some(version + 1),
                extra_block: 1 + (k % 7),
                ..RandomOptions::default()
            };
            let m = random_message(ir, msg, &mut rng, &o);
            out.push(Case {
                bytes: m.bytes,
                current: false,
            });
        }
        mutate(&mut out, first, per, &mut rng);
    }
    out
}

/// Adds `n` damaged copies of the cases from `first` on (one message type's): one to three
/// bytes set to random values, header slots, block lengths, counts and var-data lengths
/// included. The generated decoder must accept exactly what `sbekit decode` accepts, with the
/// same JSON, and refuse the rest: what random valid messages never show (an empty group
/// with any block length, a count that overruns, a template id of another message).
fn mutate(out: &mut Vec<Case>, first: usize, n: usize, rng: &mut Rng) {
    let valid = out.len() - first;
    if valid == 0 {
        return;
    }
    for _ in 0..n {
        let pick = first + rng.below_or(valid as u64 - 1) as usize;
        let mut bytes = out[pick].bytes.clone();
        if bytes.is_empty() {
            continue;
        }
        for _ in 0..1 + rng.below_or(2) {
            let at = rng.below_or(bytes.len() as u64 - 1) as usize;
            bytes[at] = rng.next_u64() as u8;
        }
        out.push(Case {
            bytes,
            current: false,
        });
    }
}
