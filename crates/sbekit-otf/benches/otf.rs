//! OTF decoding speed: walking a message (values summed by a visitor, so nothing is optimised
//! away) and printing it as JSON, for the reference Car message and the FIX-like market-data
//! message (`MarketDataIncrementalRefreshTrades` with two entries). The comparison with the
//! generated decoders is `cargo bench -p sbekit-codegen-tests --bench otf_vs_generated`.
//!
//! Needs the reference material in `../shared`; without it the benches print a notice and
//! measure nothing.
//!
//! ```sh
//! CARGO_TARGET_DIR=/work/target-otf cargo bench -p sbekit-otf --bench otf
//! ```

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sbekit_ir::{sbeir, Ir};
use sbekit_otf::random::{random_message, Expected, Options, Rng};
use sbekit_otf::{Decoder, FieldNode, JsonPrinter, Origin, Value, VarDataPlan, Visitor};

/// Folds every value into a checksum, as a consumer that uses each field would.
#[derive(Default)]
struct Sum(u64);

impl Visitor for Sum {
    #[inline]
    fn on_value(&mut self, _node: &FieldNode, value: Value<'_>, _origin: Origin) {
        self.0 = self.0.wrapping_add(match value {
            Value::Int(i) => i as u64,
            Value::UInt(u) => u,
            Value::Float(f) => u64::from(f.to_bits()),
            Value::Double(d) => d.to_bits(),
            Value::Char(c) => u64::from(c),
            Value::Chars(b) => b.len() as u64,
            Value::Array(a) => a.iter().count() as u64,
            Value::Enum(e) => e.raw as u64,
            Value::Set(s) => s.raw,
        });
    }

    #[inline]
    fn on_var_data(&mut self, _field: &VarDataPlan, data: &[u8], _origin: Origin) {
        self.0 = self.0.wrapping_add(data.len() as u64);
    }
}

fn load(name: &str) -> Option<Ir> {
    let path =
        sbekit_testdata::require_reference(&format!("derived/sbeir/{name}.sbeir"), "otf bench")?;
    Some(sbeir::decode(&std::fs::read(path).ok()?).expect("reference IR"))
}

/// A market-data message with exactly two entries, built from the IR.
fn market_data(ir: &Ir) -> Vec<u8> {
    let tokens = ir
        .messages
        .iter()
        .find(|m| m[0].name == "MarketDataIncrementalRefreshTrades")
        .expect("market data message");
    let opts = Options {
        max_group: 2,
        ..Options::default()
    };
    (0..)
        .map(|seed| random_message(ir, tokens, &mut Rng::new(seed), &opts))
        .find(|m| {
            m.expected
                .iter()
                .any(|(p, e)| p.ends_with("MdIncGrp") && *e == Expected::Count(2))
        })
        .expect("a two-entry message")
        .bytes
}

fn bench(c: &mut Criterion) {
    let mut cases = Vec::new();
    if let (Some(ir), Some(car)) = (
        load("example-schema"),
        sbekit_testdata::require_reference("rust/car_example_baseline_data.sbe", "otf bench"),
    ) {
        cases.push((
            "car",
            Decoder::new(&ir).expect("plan"),
            std::fs::read(car).expect("car"),
        ));
    }
    if let Some(ir) = load("fix-message-samples") {
        let md = market_data(&ir);
        cases.push(("market_data", Decoder::new(&ir).expect("plan"), md));
    }
    if cases.is_empty() {
        eprintln!("*** otf bench: reference material missing, nothing measured ***");
        return;
    }
    let mut g = c.benchmark_group("otf");
    for (name, decoder, bytes) in &cases {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("{name}/walk"), |b| {
            b.iter(|| {
                let mut v = Sum::default();
                let n = decoder.decode(black_box(bytes), &mut v).expect("decodes");
                black_box((n, v.0))
            })
        });
        let mut printer = JsonPrinter::new(false);
        decoder.decode(bytes, &mut printer).expect("decodes");
        let json_len = printer.len();
        printer.clear();
        eprintln!(
            "{name}: {} message bytes -> {json_len} JSON bytes",
            bytes.len()
        );
        g.bench_function(format!("{name}/json"), |b| {
            b.iter(|| {
                printer.clear();
                decoder
                    .decode(black_box(bytes), &mut printer)
                    .expect("decodes");
                black_box(printer.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
