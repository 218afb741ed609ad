//! Profiling aid: walks one message many times (`walk_loop SCHEMA.sbeir MESSAGE.sbe N [gen]`);
//! with `gen`, reads every field through the generated codec instead (the bench's code), for
//! comparison. `MESSAGE.sbe` may be `md` for the bench's market-data message.
use sbekit_otf::{FieldNode, Origin, Value, VarDataPlan, Visitor};

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
    #[cfg(has_reference)]
    if args.get(4).is_some() {
        let f = if args[2] == "md" {
            generated::market_data
        } else {
            generated::car
        };
        for _ in 0..n {
            let (sum, _) = f(std::hint::black_box(&bytes));
            s.0 = s.0.wrapping_add(sum);
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
