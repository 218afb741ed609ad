//! The reference Car vectors decode through generated code to exactly the JSON goldens'
//! values, and re-encoding the decoded values gives byte-identical buffers.
#![cfg(has_reference)]

use sbekit_codegen_tests::{baseline, bigendian, extension};
use serde_json::{json, Value};

fn load(rel: &str, test: &str) -> Option<Vec<u8>> {
    let p = sbekit_testdata::require_reference(rel, test)?;
    Some(std::fs::read(p).expect("read vector"))
}

fn golden(name: &str, test: &str) -> Option<Value> {
    let p = sbekit_testdata::require_reference(&format!("derived/json/{name}"), test)?;
    Some(serde_json::from_str(&std::fs::read_to_string(p).expect("read golden")).expect("json"))
}

/// The golden prints floats through Java's `float` to text, i.e. the shortest decimal that
/// round-trips the f32; Rust's `Display` for f32 is the same.
fn f(v: f32) -> Value {
    let n: f64 = v.to_string().parse().expect("float");
    json!(n)
}

/// Builds the golden's JSON shape from a generated `CarDecoder` of module `$m`. `$ext` adds
/// the version-1 fields, printed with their null values when absent (as the JSON printer does).
macro_rules! car_json {
    ($m:ident, $d:expr, $ext:tt) => {{
        let d = &$d;
        let e = d.engine();
        let x = d.extras();
        let mut v = json!({
            "serialNumber": d.serial_number(),
            "modelYear": d.model_year(),
            "available": d.available().name().unwrap(),
            "code": d.code().name().unwrap(),
            "someNumbers": d.some_numbers().to_vec(),
            "vehicleCode": d.vehicle_code_str().unwrap(),
            "extras": { "sunRoof": x.sun_roof(), "sportsPack": x.sports_pack(), "cruiseControl": x.cruise_control() },
            "discountedModel": d.discounted_model().name().unwrap(),
            "engine": {
                "capacity": e.capacity(),
                "numCylinders": e.num_cylinders(),
                "maxRpm": e.max_rpm(),
                "manufacturerCode": e.manufacturer_code_str().unwrap(),
                "fuel": e.fuel_str(),
                "efficiency": e.efficiency(),
                "boosterEnabled": e.booster_enabled().name().unwrap(),
                "booster": { "BoostType": e.booster().boost_type().name().unwrap(), "horsePower": e.booster().horse_power() }
            },
        });
        let o = v.as_object_mut().unwrap();
        car_json!(@ext o, d, $ext);
        o.insert("fuelFigures".into(), d.fuel_figures().map(|g| json!({
            "speed": g.speed(), "mpg": f(g.mpg()), "usageDescription": g.usage_description_str().unwrap()
        })).collect());
        o.insert("performanceFigures".into(), d.performance_figures().map(|p| json!({
            "octaneRating": p.octane_rating(),
            "acceleration": p.acceleration().map(|a| json!({"mph": a.mph(), "seconds": f(a.seconds())})).collect::<Vec<_>>()
        })).collect());
        o.insert("manufacturer".into(), json!(d.manufacturer_str().unwrap()));
        o.insert("model".into(), json!(d.model_str().unwrap()));
        o.insert("activationCode".into(), json!(d.activation_code_str().unwrap()));
        v
    }};
    (@ext $o:ident, $d:ident, none) => {};
    (@ext $o:ident, $d:ident, v1) => {
        $o.insert("uuid".into(), json!($d.uuid().unwrap_or([i64::MIN; 2]).to_vec()));
        $o.insert("cupHolderCount".into(), json!($d.cup_holder_count().unwrap_or(u8::MAX)));
    };
}

/// Re-encodes a decoded Car with the same module's encoder.
macro_rules! car_reencode {
    ($m:ident, $d:expr, $ext:tt) => {{
        use $m::*;
        let d = &$d;
        let mut buf = vec![0u8; 512];
        let mut c = CarEncoder::new(&mut buf).unwrap();
        c.serial_number(d.serial_number())
            .model_year(d.model_year())
            .available(d.available())
            .code(d.code())
            .some_numbers(d.some_numbers())
            .vehicle_code(d.vehicle_code())
            .extras(d.extras());
        let e = d.engine();
        c.engine()
            .capacity(e.capacity())
            .num_cylinders(e.num_cylinders())
            .manufacturer_code(e.manufacturer_code())
            .efficiency(e.efficiency())
            .booster_enabled(e.booster_enabled())
            .booster()
            .boost_type(e.booster().boost_type())
            .horse_power(e.booster().horse_power());
        car_reencode!(@ext c, d, $ext);
        c.fuel_figures(|g| {
            for ff in d.fuel_figures() {
                g.entry(|x| {
                    x.speed(ff.speed()).mpg(ff.mpg());
                    x.usage_description(ff.usage_description())?;
                    Ok(())
                })?;
            }
            Ok(())
        })
        .unwrap();
        c.performance_figures(|g| {
            for pf in d.performance_figures() {
                g.entry(|x| {
                    x.octane_rating(pf.octane_rating());
                    x.acceleration(|a| {
                        for ac in pf.acceleration() {
                            a.entry(|y| {
                                y.mph(ac.mph()).seconds(ac.seconds());
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
        c.manufacturer(d.manufacturer()).unwrap();
        c.model(d.model()).unwrap();
        c.activation_code(d.activation_code()).unwrap();
        let n = c.finish().unwrap();
        buf.truncate(n);
        buf
    }};
    (@ext $c:ident, $d:ident, none) => {};
    (@ext $c:ident, $d:ident, v1) => {
        $c.uuid($d.uuid().unwrap()).cup_holder_count($d.cup_holder_count());
    };
}

#[test]
fn baseline_vector_matches_golden_and_reencodes() {
    let t = "baseline_vector_matches_golden_and_reencodes";
    let (Some(bytes), Some(g)) = (
        load("rust/car_example_baseline_data.sbe", t),
        golden("car_example_baseline_data.example-schema.json", t),
    ) else {
        return;
    };
    let d = baseline::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(car_json!(baseline, d, none), g);
    assert_eq!(d.encoded_length(), bytes.len());
    assert_eq!(car_reencode!(baseline, d, none), bytes);
}

#[test]
fn v0_extension_vector_read_by_v0_and_v1_schemas() {
    let t = "v0_extension_vector_read_by_v0_and_v1_schemas";
    let Some(bytes) = load("rust/car_example_extension_data.sbe", t) else {
        return;
    };
    let Some(g1) = golden(
        "car_example_extension_data.example-extension-schema.json",
        t,
    ) else {
        return;
    };
    // New reader, old writer: the v1 fields read as absent.
    let d1 = extension::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(d1.acting_version(), 0);
    assert_eq!(d1.uuid(), None);
    assert_eq!(d1.cup_holder_count(), None);
    assert_eq!(car_json!(extension, d1, v1), g1);
    // Old reader: same values without the v1 fields; re-encoding at v0 is byte-identical.
    let d0 = baseline::CarDecoder::decode(&bytes).unwrap();
    let mut g0 = g1.clone();
    let o = g0.as_object_mut().unwrap();
    o.remove("uuid");
    o.remove("cupHolderCount");
    assert_eq!(car_json!(baseline, d0, none), g0);
    assert_eq!(car_reencode!(baseline, d0, none), bytes);
}

#[test]
fn v1_writer_vector_read_by_v1_and_v0_schemas() {
    let t = "v1_writer_vector_read_by_v1_and_v0_schemas";
    let Some(bytes) = load("derived/vectors/car_example_extension_v1_data.sbe", t) else {
        return;
    };
    let (Some(g1), Some(g0)) = (
        golden(
            "car_example_extension_v1_data.example-extension-schema.json",
            t,
        ),
        golden("car_example_extension_v1_data.example-schema.json", t),
    ) else {
        return;
    };
    let d1 = extension::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(d1.acting_version(), 1);
    assert_eq!(d1.uuid(), Some([0x0102030405060708, -2]));
    assert_eq!(car_json!(extension, d1, v1), g1);
    assert_eq!(car_reencode!(extension, d1, v1), bytes);
    // Old reader, new writer: the 17 extra block bytes are skipped.
    let d0 = baseline::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(car_json!(baseline, d0, none), g0);
    assert_eq!(d0.encoded_length(), bytes.len());
}

#[test]
fn bigendian_vector_matches_golden_and_reencodes() {
    let t = "bigendian_vector_matches_golden_and_reencodes";
    let (Some(bytes), Some(g)) = (
        load("derived/vectors/car_example_bigendian_data.sbe", t),
        golden(
            "car_example_bigendian_data.example-bigendian-test-schema.json",
            t,
        ),
    ) else {
        return;
    };
    let d = bigendian::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(car_json!(bigendian, d, none), g);
    assert_eq!(car_reencode!(bigendian, d, none), bytes);
}

#[test]
fn dispatcher_picks_the_message_and_debug_prints_it() {
    let Some(bytes) = load("rust/car_example_baseline_data.sbe", "dispatcher") else {
        return;
    };
    match baseline::AnyMessage::decode(&bytes).unwrap() {
        baseline::AnyMessage::Car(c) => {
            let dbg = format!("{c:?}");
            assert!(dbg.contains("manufacturer: \"Honda\""), "{dbg}");
            assert!(dbg.contains("usageDescription: \"Urban Cycle\""), "{dbg}");
            assert!(dbg.contains("sportsPack: true"), "{dbg}");
        }
    }
    let mut other = bytes.clone();
    other[2] = 9; // template id
    let e = baseline::AnyMessage::decode(&other).unwrap_err();
    assert_eq!(
        e.kind,
        sbekit_runtime::DecodeErrorKind::UnknownTemplateId { found: 9 }
    );
    assert_eq!(e.offset, 2);
    let e = baseline::CarDecoder::decode(&other).unwrap_err();
    assert!(matches!(
        e.kind,
        sbekit_runtime::DecodeErrorKind::WrongTemplateId {
            expected: 1,
            found: 9
        }
    ));
}
