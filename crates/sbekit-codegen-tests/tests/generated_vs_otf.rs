//! Random Car messages encoded by the *generated* codecs (issue 3's code generator, via
//! `sbekit-codegen-tests`) decode through OTF to exactly the values given to the encoder: with
//! the v0 and v1 schemas, and a v1 writer read by a v0 reader.
#![cfg(has_reference)]

use proptest::prelude::*;
use sbekit_codegen_tests::{baseline, extension};
use sbekit_ir::{sbeir, Ir};
use sbekit_otf::random::Expected;
use sbekit_otf::{
    Decoder, FieldNode, GroupPlan, MessageHeader, MessagePlan, Origin, Value, VarDataPlan, Visitor,
};

/// Loads `derived/sbeir/{name}.sbeir`, or `None` (skipped loudly) when the material is missing.
fn load_ir(name: &str, test: &str) -> Option<Ir> {
    let path = sbekit_testdata::require_reference(&format!("derived/sbeir/{name}.sbeir"), test)?;
    Some(sbeir::decode(&std::fs::read(path).unwrap()).unwrap())
}

/// Records every element the decoder reports as (path, value), like `random::RandomMessage`.
#[derive(Default)]
struct Collector {
    stack: Vec<String>,
    events: Vec<(String, Expected)>,
}

impl Collector {
    fn path(&self, leaf: &str) -> String {
        let mut p = self.stack.join(".");
        p.push('.');
        p.push_str(leaf);
        p
    }
}

fn expected_value(v: Value<'_>) -> Expected {
    match v {
        Value::Int(i) => Expected::Int(i.into()),
        Value::UInt(u) => Expected::Int(u.into()),
        Value::Float(f) => Expected::Float(f64::from(f).to_bits()),
        Value::Double(d) => Expected::Float(d.to_bits()),
        Value::Char(c) => Expected::Char(c),
        Value::Chars(b) => Expected::Chars(b.to_vec()),
        Value::Array(a) => Expected::Array(a.iter().map(expected_value).collect()),
        Value::Enum(e) => Expected::Enum(e.raw, e.name.map(str::to_string)),
        Value::Set(s) => Expected::Set(s.raw),
    }
}

impl Visitor for Collector {
    fn begin_message(&mut self, message: &MessagePlan, _header: &MessageHeader) {
        self.stack.push(message.name.clone());
    }
    fn end_message(&mut self, _message: &MessagePlan) {
        self.stack.pop();
    }
    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, _origin: Origin) {
        let p = self.path(&node.name);
        self.events.push((p, expected_value(value)));
    }
    fn begin_composite(&mut self, node: &FieldNode) {
        self.stack.push(node.name.clone());
    }
    fn end_composite(&mut self, _begin: &FieldNode) {
        self.stack.pop();
    }
    fn begin_group(&mut self, group: &GroupPlan, count: u64) {
        let p = self.path(&group.name);
        self.events.push((p, Expected::Count(count)));
        self.stack.push(group.name.clone());
    }
    fn begin_entry(&mut self, group: &GroupPlan, index: u64) {
        if let Some(top) = self.stack.last_mut() {
            *top = format!("{}[{index}]", group.name);
        }
    }
    fn end_group(&mut self, _group: &GroupPlan) {
        self.stack.pop();
    }
    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], _origin: Origin) {
        let p = self.path(&field.name);
        self.events.push((p, Expected::Data(data.to_vec())));
    }
}

#[derive(Debug, Clone)]
struct Car {
    serial: u64,
    year: u16,
    available: u8,
    code: u8,
    numbers: [u32; 4],
    vehicle: [u8; 6],
    extras: u8,
    capacity: u16,
    cylinders: u8,
    maker: [u8; 3],
    efficiency: i8,
    booster_enabled: u8,
    boost: u8,
    horse_power: u8,
    fuel: Vec<(u16, f32, Vec<u8>)>,
    performance: Vec<(u8, Vec<(u16, f32)>)>,
    manufacturer: Vec<u8>,
    model: Vec<u8>,
    activation: Vec<u8>,
    uuid: [i64; 2],
    cup_holders: Option<u8>,
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0x20u8..0x7f, 0..20)
}

fn float() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(f32::from_bits)
}

fn car() -> impl Strategy<Value = Car> {
    let block = (
        any::<u64>(),
        any::<u16>(),
        prop_oneof![Just(0u8), Just(1), any::<u8>()],
        prop_oneof![Just(b'A'), Just(b'B'), Just(b'C'), any::<u8>()],
        any::<[u32; 4]>(),
        any::<[u8; 6]>(),
        any::<u8>(),
        (any::<u16>(), any::<u8>(), any::<[u8; 3]>(), any::<i8>()),
        (
            prop_oneof![Just(0u8), Just(1), any::<u8>()],
            prop_oneof![Just(b'T'), Just(b'S'), Just(b'N'), Just(b'K'), any::<u8>()],
            any::<u8>(),
        ),
    );
    let rest = (
        proptest::collection::vec((any::<u16>(), float(), text()), 0..4),
        proptest::collection::vec(
            (
                any::<u8>(),
                proptest::collection::vec((any::<u16>(), float()), 0..4),
            ),
            0..3,
        ),
        (text(), text(), text()),
        any::<[i64; 2]>(),
        any::<Option<u8>>(),
    );
    (block, rest).prop_map(|(b, r)| Car {
        serial: b.0,
        year: b.1,
        available: b.2,
        code: b.3,
        numbers: b.4,
        vehicle: b.5,
        extras: b.6,
        capacity: b.7 .0,
        cylinders: b.7 .1,
        maker: b.7 .2,
        efficiency: b.7 .3,
        booster_enabled: b.8 .0,
        boost: b.8 .1,
        horse_power: b.8 .2,
        fuel: r.0,
        performance: r.1,
        manufacturer: r.2 .0,
        model: r.2 .1,
        activation: r.2 .2,
        uuid: r.3,
        cup_holders: r.4.filter(|&c| c != u8::MAX),
    })
}

/// Encodes `car` with the generated encoder of module `$m`; `v1` also writes the v1 fields.
macro_rules! encode {
    ($m:ident, $car:expr, $ext:tt) => {{
        use $m::*;
        let v: &Car = $car;
        let mut buf = vec![0u8; 4096];
        let mut c = CarEncoder::new(&mut buf).unwrap();
        c.serial_number(v.serial)
            .model_year(v.year)
            .available(BooleanType::from_raw(v.available))
            .code(Model::from_raw(v.code))
            .some_numbers(v.numbers)
            .vehicle_code(&v.vehicle)
            .extras(OptionalExtras::from_bits(v.extras));
        c.engine()
            .capacity(v.capacity)
            .num_cylinders(v.cylinders)
            .manufacturer_code(&v.maker)
            .efficiency(v.efficiency)
            .booster_enabled(BooleanType::from_raw(v.booster_enabled))
            .booster()
            .boost_type(BoostType::from_raw(v.boost))
            .horse_power(v.horse_power);
        encode!(@ext c, v, $ext);
        c.fuel_figures(|g| {
            for (speed, mpg, text) in &v.fuel {
                g.entry(|x| {
                    x.speed(*speed).mpg(*mpg);
                    x.usage_description(text)?;
                    Ok(())
                })?;
            }
            Ok(())
        })
        .unwrap();
        c.performance_figures(|g| {
            for (octane, accel) in &v.performance {
                g.entry(|x| {
                    x.octane_rating(*octane);
                    x.acceleration(|a| {
                        for (mph, secs) in accel {
                            a.entry(|y| {
                                y.mph(*mph).seconds(*secs);
                                Ok(())
                            })?;
                        }
                        Ok(())
                    })?;
                    Ok(())
                })?;
            }
            Ok(())
        })
        .unwrap();
        c.manufacturer(&v.manufacturer).unwrap();
        c.model(&v.model).unwrap();
        c.activation_code(&v.activation).unwrap();
        let n = c.finish().unwrap();
        buf.truncate(n);
        buf
    }};
    (@ext $c:ident, $v:ident, v0) => {};
    (@ext $c:ident, $v:ident, v1) => {
        $c.uuid($v.uuid).cup_holder_count($v.cup_holders);
    };
}

/// What OTF must report for `car`, with the v1 fields when `with_v1`.
fn expected(car: &Car, with_v1: bool) -> Vec<(String, Expected)> {
    let e = |v: i128| Expected::Int(v);
    let en = |raw: u8, names: &[(u8, &str)]| {
        let name = names.iter().find(|n| n.0 == raw).map(|n| n.1.to_string());
        Expected::Enum(i64::from(raw), name)
    };
    let boolean = [(0, "F"), (1, "T")];
    let model = [(b'A', "A"), (b'B', "B"), (b'C', "C")];
    let boost = [
        (b'T', "TURBO"),
        (b'S', "SUPERCHARGER"),
        (b'N', "NITROUS"),
        (b'K', "KERS"),
    ];
    let fl = |f: f32| Expected::Float(f64::from(f).to_bits());
    let mut x: Vec<(String, Expected)> = vec![
        ("serialNumber".into(), e(car.serial.into())),
        ("modelYear".into(), e(car.year.into())),
        ("available".into(), en(car.available, &boolean)),
        ("code".into(), en(car.code, &model)),
        (
            "someNumbers".into(),
            Expected::Array(car.numbers.iter().map(|&n| e(n.into())).collect()),
        ),
        ("vehicleCode".into(), Expected::Chars(car.vehicle.to_vec())),
        ("extras".into(), Expected::Set(car.extras.into())),
        ("discountedModel".into(), en(b'C', &model)),
        ("engine.capacity".into(), e(car.capacity.into())),
        ("engine.numCylinders".into(), e(car.cylinders.into())),
        ("engine.maxRpm".into(), e(9000)),
        (
            "engine.manufacturerCode".into(),
            Expected::Chars(car.maker.to_vec()),
        ),
        ("engine.fuel".into(), Expected::Chars(b"Petrol".to_vec())),
        ("engine.efficiency".into(), e(car.efficiency.into())),
        (
            "engine.boosterEnabled".into(),
            en(car.booster_enabled, &boolean),
        ),
        ("engine.booster.BoostType".into(), en(car.boost, &boost)),
        (
            "engine.booster.horsePower".into(),
            e(car.horse_power.into()),
        ),
    ];
    if with_v1 {
        x.push((
            "uuid".into(),
            Expected::Array(car.uuid.iter().map(|&n| e(n.into())).collect()),
        ));
        x.push((
            "cupHolderCount".into(),
            e(car.cup_holders.unwrap_or(u8::MAX).into()),
        ));
    }
    x.push(("fuelFigures".into(), Expected::Count(car.fuel.len() as u64)));
    for (i, (speed, mpg, text)) in car.fuel.iter().enumerate() {
        x.push((format!("fuelFigures[{i}].speed"), e((*speed).into())));
        x.push((format!("fuelFigures[{i}].mpg"), fl(*mpg)));
        x.push((
            format!("fuelFigures[{i}].usageDescription"),
            Expected::Data(text.clone()),
        ));
    }
    x.push((
        "performanceFigures".into(),
        Expected::Count(car.performance.len() as u64),
    ));
    for (i, (octane, accel)) in car.performance.iter().enumerate() {
        let p = format!("performanceFigures[{i}]");
        x.push((format!("{p}.octaneRating"), e((*octane).into())));
        x.push((
            format!("{p}.acceleration"),
            Expected::Count(accel.len() as u64),
        ));
        for (j, (mph, secs)) in accel.iter().enumerate() {
            x.push((format!("{p}.acceleration[{j}].mph"), e((*mph).into())));
            x.push((format!("{p}.acceleration[{j}].seconds"), fl(*secs)));
        }
    }
    x.push((
        "manufacturer".into(),
        Expected::Data(car.manufacturer.clone()),
    ));
    x.push(("model".into(), Expected::Data(car.model.clone())));
    x.push((
        "activationCode".into(),
        Expected::Data(car.activation.clone()),
    ));
    x.into_iter()
        .map(|(p, v)| (format!("Car.{p}"), v))
        .collect()
}

fn decoders() -> Option<(Decoder, Decoder)> {
    let v0 = load_ir("example-schema", "generated_code")?;
    let v1 = load_ir("example-extension-schema", "generated_code")?;
    Some((Decoder::new(&v0).unwrap(), Decoder::new(&v1).unwrap()))
}

fn otf(decoder: &Decoder, bytes: &[u8]) -> Vec<(String, Expected)> {
    let mut c = Collector::default();
    let len = decoder.decode(bytes, &mut c).unwrap();
    assert_eq!(len, bytes.len());
    c.events
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_encoders_and_otf_agree(car in car()) {
        let Some((v0, v1)) = decoders() else { return Ok(()) };
        // v0 writer, v0 reader.
        let bytes = encode!(baseline, &car, v0);
        prop_assert_eq!(otf(&v0, &bytes), expected(&car, false));
        // v1 writer, v1 reader.
        let bytes = encode!(extension, &car, v1);
        prop_assert_eq!(otf(&v1, &bytes), expected(&car, true));
        // v1 writer, v0 reader: the 17 unknown block bytes are skipped.
        prop_assert_eq!(otf(&v0, &bytes), expected(&car, false));
        // And the generated decoder agrees with OTF about the message length.
        prop_assert_eq!(extension::CarDecoder::decode(&bytes).unwrap().encoded_length(), bytes.len());
    }
}
