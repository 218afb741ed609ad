//! Differential parity with the reference SBE tool (sbe-all 1.38.1): helpers for the suite in
//! `tests/parity.rs` (run it with `scripts/parity.sh`).
//!
//! The reference side is `java/Parity.java`, compiled against the reference jar at test time
//! and run in one JVM per batch: it writes the reference's `.sbeir` for schemas and decodes
//! framed messages to JSON lines with the reference's `OtfMessageDecoder` + `JsonTokenListener`.
//!
//! `tests/generated.rs` compares generated code: `java/GenParity.java` generates the reference's
//! Java codecs at test time, writes random messages with its encoders and reads messages with
//! its decoders into the canonical form of [`canonical`], which sbekit's OTF decoder and the
//! `Debug` text of sbekit's generated Rust (`sbekit-codegen-all`) are compared with.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod canonical;
pub mod irdiff;
pub mod java;
pub mod values;
