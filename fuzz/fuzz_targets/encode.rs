//! Any JSON given to the encoder yields a message or an error, never a panic; whatever encodes
//! decodes, and encoding the decoded JSON again gives the same bytes.
//!
//! The first input byte picks one of the reference schemas (IR embedded from `../shared`) and a
//! mode: the rest is either JSON text as it is, or a seed for a random message whose decoded
//! JSON is then spliced with the rest of the input (random structure, fuzzed values).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbekit_encode::{Doc, Encoder};
use sbekit_ir::Ir;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{message_to_json, Decoder};
use std::sync::OnceLock;

const IR: [&[u8]; 4] = [
    include_bytes!("../../../shared/conformance/reference-sbe/derived/sbeir/example-schema.sbeir"),
    include_bytes!(
        "../../../shared/conformance/reference-sbe/derived/sbeir/example-extension-schema.sbeir"
    ),
    include_bytes!("../../../shared/conformance/reference-sbe/derived/sbeir/car.sbeir"),
    include_bytes!(
        "../../../shared/conformance/reference-sbe/derived/sbeir/fix-message-samples.sbeir"
    ),
];

fn schemas() -> &'static [(Ir, Encoder, Decoder)] {
    static S: OnceLock<Vec<(Ir, Encoder, Decoder)>> = OnceLock::new();
    S.get_or_init(|| {
        IR.iter()
            .map(|b| {
                let ir = sbekit_ir::sbeir::decode(b).expect("reference IR");
                let layout = sbekit_ir::layout::Layout::from_ir(&ir).expect("layout");
                let encoder = Encoder::new(&layout);
                let decoder = Decoder::new(&ir).expect("plan");
                (ir, encoder, decoder)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (ir, encoder, decoder) = &schemas()[usize::from(selector & 3)];
    let version = (selector & 4 != 0).then_some(0);
    let json: Vec<u8> = if selector & 8 == 0 {
        rest.to_vec()
    } else {
        // Random structure: a random message's JSON with part of it replaced by the input.
        let seed = rest.iter().take(8).fold(0u64, |s, &b| s << 8 | u64::from(b));
        let m = (seed % ir.messages.len() as u64) as usize;
        let msg = random_message(ir, &ir.messages[m], &mut Rng::new(seed), &Options::default());
        let Ok((text, _)) = message_to_json(decoder, &msg.bytes, false) else {
            return;
        };
        let mut text = text.into_bytes();
        let tail = rest.get(8..).unwrap_or_default();
        let at = usize::from(selector >> 4) * text.len() / 16;
        let end = (at + tail.len()).min(text.len());
        text.splice(at..end, tail.iter().copied());
        text
    };
    let mut doc = Doc::new();
    let mut out = vec![7u8];
    match encoder.encode_json(&json, None, version, &mut doc, &mut out) {
        Ok(()) => {
            let bytes = &out[1..];
            let (text, len) = message_to_json(decoder, bytes, false).expect("encoded bytes decode");
            assert_eq!(len, bytes.len());
            let mut again = Vec::new();
            encoder
                .encode_json(text.as_bytes(), None, version, &mut doc, &mut again)
                .expect("decoded JSON encodes");
            assert_eq!(again, bytes, "encode(decode(encode(x))) == encode(x)");
        }
        Err(_) => assert_eq!(out, [7], "nothing written for a failed message"),
    }
});
