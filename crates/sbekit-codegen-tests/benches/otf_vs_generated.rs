//! OTF walking versus the generated decoders: the same message walked by `sbekit_otf` (values
//! summed by a visitor, so nothing is optimised away) and read field by field through the
//! generated codecs, for the reference Car message and the FIX-like market-data message
//! (`MarketDataIncrementalRefreshTrades` with two entries). OTF's JSON printing is measured by
//! `cargo bench -p sbekit-otf --bench otf`.
//!
//! Needs the reference material in `../shared`; without it the benches print a notice and
//! measure nothing.
//!
//! ```sh
//! CARGO_TARGET_DIR=/work/target-otf cargo bench -p sbekit-codegen-tests --bench otf_vs_generated
//! ```

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sbekit_ir::{sbeir, Ir};
use sbekit_otf::random::{random_message, Expected, Options, Rng};
use sbekit_otf::{Decoder, FieldNode, Origin, Value, VarDataPlan, Visitor};

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
    let path = sbekit_testdata::require_reference(
        &format!("derived/sbeir/{name}.sbeir"),
        "otf_vs_generated bench",
    )?;
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
        sbekit_testdata::require_reference(
            "rust/car_example_baseline_data.sbe",
            "otf_vs_generated bench",
        ),
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
        #[cfg(has_reference)]
        g.bench_function(format!("{name}/generated"), |b| {
            let f = if *name == "car" {
                generated::car
            } else {
                generated::market_data
            };
            assert_eq!(f(bytes).1, bytes.len());
            b.iter(|| black_box(f(black_box(bytes))))
        });
    }
    g.finish();
}

/// The same work through the generated codecs: decode, then read and sum every field.
#[cfg(has_reference)]
mod generated {
    use sbekit_codegen_tests::{baseline, fix_samples};

    pub fn car(bytes: &[u8]) -> (u64, usize) {
        let d = baseline::CarDecoder::decode(bytes).expect("decodes");
        let mut s = d.serial_number();
        s = s.wrapping_add(u64::from(d.model_year()));
        s = s.wrapping_add(u64::from(d.available().to_raw()));
        s = s.wrapping_add(u64::from(d.code().to_raw()));
        for n in d.some_numbers() {
            s = s.wrapping_add(u64::from(n));
        }
        s = s.wrapping_add(d.vehicle_code().len() as u64);
        s = s.wrapping_add(u64::from(d.extras().bits()));
        s = s.wrapping_add(u64::from(d.discounted_model().to_raw()));
        let e = d.engine();
        s = s.wrapping_add(u64::from(e.capacity()) + u64::from(e.num_cylinders()));
        s = s.wrapping_add(u64::from(e.max_rpm()) + e.manufacturer_code().len() as u64);
        s = s.wrapping_add(e.fuel().len() as u64 + e.efficiency() as u64);
        s = s.wrapping_add(u64::from(e.booster_enabled().to_raw()));
        s = s.wrapping_add(u64::from(e.booster().boost_type().to_raw()));
        s = s.wrapping_add(u64::from(e.booster().horse_power()));
        for f in d.fuel_figures() {
            s = s.wrapping_add(u64::from(f.speed()) + u64::from(f.mpg().to_bits()));
            s = s.wrapping_add(f.usage_description().len() as u64);
        }
        for p in d.performance_figures() {
            s = s.wrapping_add(u64::from(p.octane_rating()));
            for a in p.acceleration() {
                s = s.wrapping_add(u64::from(a.mph()) + u64::from(a.seconds().to_bits()));
            }
        }
        s = s.wrapping_add(d.manufacturer().len() as u64 + d.model().len() as u64);
        s = s.wrapping_add(d.activation_code().len() as u64);
        (s, d.encoded_length())
    }

    pub fn market_data(bytes: &[u8]) -> (u64, usize) {
        let d =
            fix_samples::MarketDataIncrementalRefreshTradesDecoder::decode(bytes).expect("decodes");
        let mut s = d.transact_time();
        s = s.wrapping_add(u64::from(d.event_time_delta()));
        s = s.wrapping_add(u64::from(d.match_event_indicator().to_raw()));
        for e in d.md_inc_grp() {
            s = s.wrapping_add(e.trade_id()).wrapping_add(e.security_id());
            let px = e.md_entry_px();
            s = s
                .wrapping_add(px.mantissa() as u64)
                .wrapping_add(px.exponent() as u64);
            let qty = e.md_entry_size();
            s = s
                .wrapping_add(qty.mantissa() as u64)
                .wrapping_add(qty.exponent() as u64);
            s = s.wrapping_add(u64::from(e.number_of_orders()));
            s = s.wrapping_add(u64::from(e.md_update_action().to_raw()));
            s = s.wrapping_add(u64::from(e.rpt_seq()));
            s = s.wrapping_add(u64::from(e.aggressor_side().to_raw()));
            s = s.wrapping_add(u64::from(e.md_entry_type().to_raw()));
        }
        (s, d.encoded_length())
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
