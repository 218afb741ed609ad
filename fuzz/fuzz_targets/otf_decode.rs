//! Any bytes given to the OTF decoder, the JSON printer or the stream framer yield messages or
//! errors, never a panic; whatever decodes prints as UTF-8 JSON and stays within the input.
//!
//! The first input byte picks one of the reference schemas (IR embedded from `../shared`) and a
//! framing; the rest is the message or stream.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbekit_otf::framing::{Framing, MessageStream};
use sbekit_otf::{Decoder, JsonPrinter};
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

fn decoders() -> &'static [Decoder] {
    static D: OnceLock<Vec<Decoder>> = OnceLock::new();
    D.get_or_init(|| {
        IR.iter()
            .map(|b| {
                Decoder::new(&sbekit_ir::sbeir::decode(b).expect("reference IR")).expect("plan")
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let decoder = &decoders()[usize::from(selector & 3)];
    let mut printer = JsonPrinter::new(selector & 4 != 0);
    match decoder.decode(rest, &mut printer) {
        Ok(len) => {
            assert!(len <= rest.len());
            assert!(std::str::from_utf8(printer.output()).is_ok());
        }
        Err(e) => assert!(e.offset <= rest.len(), "{e}"),
    }
    let framing = [Framing::Sbe, Framing::U16Le, Framing::U32Le, Framing::Sofh]
        [usize::from(selector >> 3 & 3)];
    let mut stream = MessageStream::new(rest, framing, 4096);
    printer.clear();
    for _ in 0..10_000 {
        match stream.next_message(decoder, None, &mut printer) {
            Ok(Some(info)) => assert!(info.offset + info.length as u64 <= rest.len() as u64),
            Ok(None) => break,
            Err(sbekit_otf::framing::StreamError::Message {
                resumable: true, ..
            }) => {}
            Err(_) => break,
        }
        printer.clear();
    }
});
