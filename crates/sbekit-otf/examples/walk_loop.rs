//! Profiling aid: walks one message many times (`walk_loop SCHEMA.sbeir MESSAGE.sbe N [gen]`);
//! with `gen`, decodes the baseline Car with the generated codec instead, for comparison.
use sbekit_otf::{FieldNode, Origin, Value, VarDataPlan, Visitor};

#[derive(Default)]
struct Sum(u64);

impl Visitor for Sum {
    fn on_value(&mut self, _node: &FieldNode, value: Value<'_>, _origin: Origin) {
        self.0 = self.0.wrapping_add(match value {
            Value::Int(i) => i as u64,
            Value::UInt(u) => u,
            Value::Float(f) => u64::from(f.to_bits()),
            Value::Double(d) => d.to_bits(),
            Value::Char(c) => u64::from(c),
            Value::Chars(b) => b.len() as u64,
            Value::Array(a) => a.len() as u64,
            Value::Enum(e) => e.raw as u64,
            Value::Set(s) => s.raw,
        });
    }
    fn on_var_data(&mut self, _field: &VarDataPlan, data: &[u8], _origin: Origin) {
        self.0 = self.0.wrapping_add(data.len() as u64);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ir = sbekit_ir::sbeir::decode(&std::fs::read(&args[1]).expect("read IR")).expect("IR");
    let decoder = sbekit_otf::Decoder::new(&ir).expect("plan");
    // `md` builds the two-entry market-data message the bench uses.
    let bytes = if args[2] == "md" {
        let tokens = ir
            .messages
            .iter()
            .find(|m| m[0].name == "MarketDataIncrementalRefreshTrades")
            .expect("market data message");
        let opts = sbekit_otf::random::Options {
            max_group: 2,
            ..Default::default()
        };
        (0..)
            .map(|seed| {
                sbekit_otf::random::random_message(
                    &ir,
                    tokens,
                    &mut sbekit_otf::random::Rng::new(seed),
                    &opts,
                )
            })
            .find(|m| {
                m.expected.iter().any(|(p, e)| {
                    p.ends_with("MdIncGrp") && *e == sbekit_otf::random::Expected::Count(2)
                })
            })
            .expect("a two-entry message")
            .bytes
    } else {
        std::fs::read(&args[2]).expect("read message")
    };
    let n: u64 = args[3].parse().expect("count");
    let t = std::time::Instant::now();
    let mut s = Sum::default();
    #[cfg(has_generated_codecs)]
    if args.get(4).is_some() {
        for _ in 0..n {
            let d =
                sbekit_codegen_tests::baseline::CarDecoder::decode(std::hint::black_box(&bytes))
                    .expect("decodes");
            s.0 =
                s.0.wrapping_add(d.serial_number() + u64::from(d.model_year()));
            for f in d.fuel_figures() {
                s.0 =
                    s.0.wrapping_add(u64::from(f.speed()) + f.usage_description().len() as u64);
            }
            for p in d.performance_figures() {
                for a in p.acceleration() {
                    s.0 = s.0.wrapping_add(u64::from(a.mph()));
                }
            }
            s.0 =
                s.0.wrapping_add(d.manufacturer().len() as u64 + d.activation_code().len() as u64);
        }
        println!(
            "generated: {} ns/message (sum {})",
            t.elapsed().as_nanos() as f64 / n as f64,
            s.0
        );
        return;
    }
    for _ in 0..n {
        decoder
            .decode(std::hint::black_box(&bytes), &mut s)
            .expect("decodes");
    }
    let el = t.elapsed();
    println!(
        "{} ns/message (sum {})",
        el.as_nanos() as f64 / n as f64,
        s.0
    );
}
