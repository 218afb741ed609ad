//! The columnar (Arrow) decoder against the JSON printer: for any bytes, both accept the same
//! messages with the same lengths and reject the same ones, cutting batches never fails (no
//! `Error::Arrow` from input bytes), every accepted message is one row, and both count the same
//! text values that took the Latin-1 fallback (`sbekit_otf::text`).
//!
//! The first input byte picks a schema (the repo's own `mapping.xml` and `market-data.xml`, and
//! the reference Car schemas' IR embedded from `../shared`), a batch size, and a mode: the rest is
//! either a stream of back-to-back messages as it is, or a seed for random valid messages that
//! the rest of the input then mutates (overwrites, truncation, invalid UTF-8 in text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbekit_arrow::sbe::{Options as ArrowOptions, SbeColumns};
use sbekit_ir::layout::Layout;
use sbekit_ir::Ir;
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{Decoder, JsonPrinter};
use std::sync::OnceLock;

const XML: [&str; 2] = [
    include_str!("../../crates/sbekit-arrow/tests/mapping.xml"),
    include_str!("../../schemas/market-data.xml"),
];
const IR: [&[u8]; 2] = [
    include_bytes!("../../../shared/conformance/reference-sbe/derived/sbeir/example-schema.sbeir"),
    include_bytes!("../../../shared/conformance/reference-sbe/derived/sbeir/car.sbeir"),
];

fn schemas() -> &'static [(Ir, Layout, Decoder)] {
    static S: OnceLock<Vec<(Ir, Layout, Decoder)>> = OnceLock::new();
    S.get_or_init(|| {
        let own = XML.iter().map(|x| {
            sbekit_schema::compile_str(x, "own.xml", &Default::default())
                .ir
                .expect("own schema")
        });
        let reference = IR
            .iter()
            .map(|b| sbekit_ir::sbeir::decode(b).expect("reference IR"));
        own.chain(reference)
            .map(|ir| {
                let layout = Layout::from_ir(&ir).expect("layout");
                let decoder = Decoder::from_layout(&layout).expect("plan");
                (ir, layout, decoder)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (ir, layout, decoder) = &schemas()[usize::from(selector & 3)];
    let stream: Vec<u8> = if selector & 4 == 0 {
        rest.to_vec()
    } else {
        // Random valid messages, then the input's edits: (position, byte) pairs, where a
        // position byte of 0xFF truncates instead.
        let seed = rest.iter().take(8).fold(0u64, |s, &b| s << 8 | u64::from(b));
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..1 + seed % 4 {
            let m = (rng.next_u64() % ir.messages.len() as u64) as usize;
            let opts = Options {
                writer_version: Some((rng.next_u64() % (ir.version as u64 + 1)) as u32),
                ..Options::default()
            };
            out.extend(random_message(ir, &ir.messages[m], &mut rng, &opts).bytes);
        }
        for edit in rest.get(8..).unwrap_or_default().chunks_exact(2) {
            let at = usize::from(edit[0]) * out.len() / 255;
            if edit[0] == 0xFF {
                out.truncate(usize::from(edit[1]) * out.len() / 255);
            } else if let Some(b) = out.get_mut(at) {
                *b = edit[1];
            }
        }
        out
    };
    let options = ArrowOptions {
        batch_rows: if selector & 8 == 0 { 65_536 } else { 2 },
        ..ArrowOptions::default()
    };
    let mut cols = SbeColumns::new(layout, options);
    let mut printer = JsonPrinter::new(false);
    let (mut pos, mut rows, mut arrow_rows) = (0usize, 0usize, 0usize);
    let count = |batches: Vec<(String, arrow_array::RecordBatch)>| -> usize {
        batches.iter().map(|(_, b)| b.num_rows()).sum()
    };
    while pos < stream.len() && rows < 64 {
        let buf = &stream[pos..];
        let json = decoder.decode(buf, &mut printer);
        let arrow = cols.append(buf, pos as u64, None);
        match (json, arrow) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "message lengths at {pos}");
                assert!(a > 0 && a <= buf.len());
                pos += a;
                rows += 1;
            }
            (Err(_), Err(_)) => break,
            (j, a) => panic!("JSON {j:?} but Arrow {a:?} at {pos}"),
        }
        if cols.has_full() {
            arrow_rows += count(cols.drain().expect("cutting a batch never fails on input"));
        }
    }
    cols.flush().expect("cutting a batch never fails on input");
    arrow_rows += count(cols.drain().expect("batches"));
    assert_eq!(arrow_rows, rows, "one row per accepted message");
    assert_eq!(cols.text_fallbacks(), printer.text_fallbacks());
});
