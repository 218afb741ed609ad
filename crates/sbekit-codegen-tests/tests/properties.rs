//! Property tests of generated code: random messages round-trip; truncated, corrupted and
//! random buffers give errors (or, for corruption that stays well-formed, readable values),
//! never a panic; encoders report small buffers as errors.
#![cfg(has_reference)]

use proptest::prelude::*;
use sbekit_codegen_tests::baseline::*;

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
    hp: u8,
    fuel: Vec<(u16, f32, Vec<u8>)>,
    perf: Vec<(u8, Vec<(u16, f32)>)>,
    manufacturer: Vec<u8>,
    model: Vec<u8>,
    activation: Vec<u8>,
}

fn car() -> impl Strategy<Value = Car> {
    let head = (
        any::<u64>(),
        any::<u16>(),
        any::<u8>(),
        any::<u8>(),
        any::<[u32; 4]>(),
        any::<[u8; 6]>(),
        any::<u8>(),
        any::<u16>(),
        any::<u8>(),
        any::<[u8; 3]>(),
        any::<i8>(),
        any::<u8>(),
    );
    let tail = (
        any::<u8>(),
        any::<u8>(),
        prop::collection::vec(
            (
                any::<u16>(),
                any::<f32>(),
                prop::collection::vec(any::<u8>(), 0..20),
            ),
            0..9,
        ),
        prop::collection::vec(
            (
                any::<u8>(),
                prop::collection::vec((any::<u16>(), any::<f32>()), 0..4),
            ),
            0..9,
        ),
        prop::collection::vec(any::<u8>(), 0..40),
        prop::collection::vec(any::<u8>(), 0..40),
        prop::collection::vec(any::<u8>(), 0..40),
    );
    (head, tail).prop_map(|(h, t)| Car {
        serial: h.0,
        year: h.1,
        available: h.2,
        code: h.3,
        numbers: h.4,
        vehicle: h.5,
        extras: h.6,
        capacity: h.7,
        cylinders: h.8,
        maker: h.9,
        efficiency: h.10,
        booster_enabled: h.11,
        boost: t.0,
        hp: t.1,
        fuel: t.2,
        perf: t.3,
        manufacturer: t.4,
        model: t.5,
        activation: t.6,
    })
}

fn encode(c: &Car, buf: &mut [u8]) -> Result<usize, sbekit_runtime::EncodeError> {
    let mut e = CarEncoder::new(buf)?;
    e.serial_number(c.serial)
        .model_year(c.year)
        .available(BooleanType::from_raw(c.available))
        .code(Model::from_raw(c.code))
        .some_numbers(c.numbers)
        .vehicle_code(&c.vehicle)
        .extras(OptionalExtras::from_bits(c.extras));
    e.engine()
        .capacity(c.capacity)
        .num_cylinders(c.cylinders)
        .manufacturer_code(&c.maker)
        .efficiency(c.efficiency)
        .booster_enabled(BooleanType::from_raw(c.booster_enabled))
        .booster()
        .boost_type(BoostType::from_raw(c.boost))
        .horse_power(c.hp);
    e.fuel_figures(|g| {
        for (s, m, u) in &c.fuel {
            g.entry(|x| {
                x.speed(*s).mpg(*m).usage_description(u)?;
                Ok(())
            })?;
        }
        Ok(())
    })?;
    e.performance_figures(|g| {
        for (o, acc) in &c.perf {
            g.entry(|x| {
                x.octane_rating(*o).acceleration(|a| {
                    for (mph, s) in acc {
                        a.entry(|y| {
                            y.mph(*mph).seconds(*s);
                            Ok(())
                        })?;
                    }
                    Ok(())
                })?;
                Ok(())
            })?;
        }
        Ok(())
    })?;
    e.manufacturer(&c.manufacturer)?
        .model(&c.model)?
        .activation_code(&c.activation)?;
    e.finish()
}

fn check(c: &Car, d: &CarDecoder<'_>) {
    assert_eq!(d.serial_number(), c.serial);
    assert_eq!(d.model_year(), c.year);
    assert_eq!(d.available().to_raw(), c.available);
    assert_eq!(d.code().to_raw(), c.code);
    assert_eq!(d.some_numbers(), c.numbers);
    assert_eq!(d.vehicle_code(), &c.vehicle);
    assert_eq!(d.extras().bits(), c.extras);
    let e = d.engine();
    assert_eq!(e.capacity(), c.capacity);
    assert_eq!(e.num_cylinders(), c.cylinders);
    assert_eq!(e.manufacturer_code(), &c.maker);
    assert_eq!(e.efficiency(), c.efficiency);
    assert_eq!(e.booster_enabled().to_raw(), c.booster_enabled);
    assert_eq!(e.booster().boost_type().to_raw(), c.boost);
    assert_eq!(e.booster().horse_power(), c.hp);
    let fuel: Vec<_> = d
        .fuel_figures()
        .map(|f| (f.speed(), f.mpg().to_bits(), f.usage_description().to_vec()))
        .collect();
    let want: Vec<_> = c
        .fuel
        .iter()
        .map(|(s, m, u)| (*s, m.to_bits(), u.clone()))
        .collect();
    assert_eq!(fuel, want);
    let perf: Vec<_> = d
        .performance_figures()
        .map(|p| {
            let acc: Vec<_> = p
                .acceleration()
                .map(|a| (a.mph(), a.seconds().to_bits()))
                .collect();
            (p.octane_rating(), acc)
        })
        .collect();
    let want: Vec<_> = c
        .perf
        .iter()
        .map(|(o, a)| {
            (
                *o,
                a.iter().map(|(m, s)| (*m, s.to_bits())).collect::<Vec<_>>(),
            )
        })
        .collect();
    assert_eq!(perf, want);
    assert_eq!(d.manufacturer(), &c.manufacturer[..]);
    assert_eq!(d.model(), &c.model[..]);
    assert_eq!(d.activation_code(), &c.activation[..]);
}

/// Reads every value (Debug walks all fields, groups and var data).
fn read_all(buf: &[u8]) {
    if let Ok(m) = AnyMessage::decode(buf) {
        let _ = format!("{m:?}");
    }
    if let Ok(c) = CarDecoder::decode(buf) {
        assert!(c.encoded_length() <= buf.len());
        let _ = format!("{c:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_cars_round_trip(c in car()) {
        let mut buf = vec![0u8; 4096];
        let n = encode(&c, &mut buf).unwrap();
        let d = CarDecoder::decode(&buf[..n]).unwrap();
        prop_assert_eq!(d.encoded_length(), n);
        check(&c, &d);
        // The dispatcher agrees.
        prop_assert!(matches!(AnyMessage::decode(&buf[..n]), Ok(AnyMessage::Car(_))));
    }

    #[test]
    fn every_truncated_prefix_is_an_error(c in car()) {
        let mut buf = vec![0u8; 4096];
        let n = encode(&c, &mut buf).unwrap();
        for k in 0..n {
            prop_assert!(CarDecoder::decode(&buf[..k]).is_err(), "prefix {} of {} accepted", k, n);
            prop_assert!(AnyMessage::decode(&buf[..k]).is_err());
        }
    }

    #[test]
    fn corrupted_messages_never_panic(c in car(), flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut buf = vec![0u8; 4096];
        let n = encode(&c, &mut buf).unwrap();
        let mut bad = buf[..n].to_vec();
        for (i, v) in flips {
            let i = i.index(n);
            bad[i] = v;
        }
        read_all(&bad);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        read_all(&bytes);
        let mut with_header = bytes.clone();
        if with_header.len() >= 8 {
            with_header[2..8].copy_from_slice(&[1, 0, 1, 0, 0, 0]);
        }
        read_all(&with_header);
    }

    #[test]
    fn small_buffers_are_encode_errors(c in car()) {
        let mut buf = vec![0u8; 4096];
        let n = encode(&c, &mut buf).unwrap();
        for k in 0..n {
            let mut small = vec![0u8; k];
            let e = encode(&c, &mut small).unwrap_err();
            let too_short = matches!(e.kind, sbekit_runtime::EncodeErrorKind::BufferTooShort { .. });
            prop_assert!(too_short, "{:?}", e);
        }
    }
}

#[test]
fn all_207_prefixes_of_the_reference_vector_are_errors() {
    let Some(p) =
        sbekit_testdata::require_reference("rust/car_example_baseline_data.sbe", "prefixes")
    else {
        return;
    };
    let bytes = std::fs::read(p).unwrap();
    assert_eq!(bytes.len(), 207);
    for k in 0..bytes.len() {
        let e = CarDecoder::decode(&bytes[..k]).unwrap_err();
        assert!(
            matches!(
                e.kind,
                sbekit_runtime::DecodeErrorKind::BufferTooShort { .. }
            ),
            "{k}: {e}"
        );
    }
    assert!(CarDecoder::decode(&bytes).is_ok());
}

#[test]
fn sections_out_of_order_are_rejected_and_skipped_ones_written_empty() {
    let mut buf = [0u8; 256];
    let mut e = CarEncoder::new(&mut buf).unwrap();
    e.model(b"Civic").unwrap();
    let Err(err) = e.manufacturer(b"Honda") else {
        panic!("out-of-order section accepted")
    };
    assert!(matches!(
        err.kind,
        sbekit_runtime::EncodeErrorKind::OutOfOrder {
            section: 2,
            next_allowed: 4
        }
    ));
    let n = e.finish().unwrap();
    let d = CarDecoder::decode(&buf[..n]).unwrap();
    assert_eq!(d.fuel_figures().len(), 0);
    assert_eq!(d.performance_figures().len(), 0);
    assert_eq!(d.manufacturer(), b"");
    assert_eq!(d.model(), b"Civic");
    assert_eq!(d.activation_code(), b"");
}

#[test]
fn enums_keep_unknown_values_and_parse_names() {
    assert!(!Model::from_raw(b'Z').is_known());
    assert!(Model::B.is_known());
    assert_eq!(format!("{:?}", Model::from_raw(b'Z')), "Unknown(90)");
    assert_eq!(format!("{:?}", Model::B), "B");
    // A `match` on the constants, as on the variants of a closed enum.
    let label = |m: Model| match m {
        Model::A => "a",
        Model::B => "b",
        _ => "other",
    };
    assert_eq!(
        (label(Model::B), label(Model::from_raw(b'Z'))),
        ("b", "other")
    );
    assert_eq!(Model::from_raw(b'Z').to_raw(), b'Z');
    assert_eq!("B".parse::<Model>(), Ok(Model::B));
    assert!("Q".parse::<Model>().is_err());
    assert_eq!(BoostType::Nitrous.name(), Some("NITROUS"));
    assert_eq!(BooleanType::NULL_VALUE, 255);
    let x = OptionalExtras::SPORTS_PACK | OptionalExtras::CRUISE_CONTROL;
    assert!(x.sports_pack() && !x.sun_roof());
    assert_eq!(x.with_sun_roof(true).bits(), 0b111);
}
