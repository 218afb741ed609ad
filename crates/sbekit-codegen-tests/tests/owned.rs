//! Owned values (`EvolvingOwned`, `AnyOwned`) of this crate's own versioned schema: random values
//! written by `encode_into` decode back to equal values and are the bytes the flyweights'
//! `reencode` writes for them, at the schema's version and at the older one.

use proptest::prelude::*;
use sbekit_codegen_tests::{versioned_v0 as v0, versioned_v1 as v1};

/// A random `Evolving` at `acting_version` 1 or 0 (then everything newer is absent).
fn evolving() -> impl Strategy<Value = v1::EvolvingOwned> {
    let bytes = || prop::collection::vec(any::<u8>(), 0..24);
    (
        0..2_u64,
        any::<u32>(),
        // `b` is optional: u32::MAX is its null value, which reads back as `None`.
        prop::option::of(0..u32::MAX),
        any::<u8>(),
        prop::collection::vec((any::<i16>(), any::<i64>()), 0..6),
        bytes(),
        bytes(),
    )
        .prop_map(|(v, a, b, c, g, d, e)| {
            let new = v >= 1;
            v1::EvolvingOwned {
                acting_version: v,
                a,
                b: b.filter(|_| new),
                c: new.then(|| v1::Color::from_raw(c)),
                g: g.into_iter()
                    .map(|(x, y)| v1::EvolvingGOwned {
                        x,
                        y: new.then_some(y),
                    })
                    .collect(),
                d,
                e: if new { e } else { Vec::new() },
            }
        })
}

proptest! {
    #[test]
    fn owned_values_round_trip_as_the_flyweights_write_them(o in evolving()) {
        let mut buf = vec![0u8; 1024];
        let n = o.encode_into(&mut buf).expect("fits");
        let bytes = &buf[..n];
        // Back to an equal value, at the same version.
        let back = v1::EvolvingOwned::decode(bytes).expect("decodes");
        prop_assert_eq!(&back, &o);
        prop_assert_eq!(v1::AnyOwned::decode(bytes).expect("decodes"), v1::AnyOwned::Evolving(o.clone()));
        // The flyweights write the same bytes for what they read.
        let mut again = vec![0u8; 1024];
        let m = v1::AnyMessage::decode(bytes).expect("decodes");
        let k = v1::reencode(&m, &mut again).expect("fits");
        prop_assert_eq!(&again[..k], bytes);
        // A reader of the older schema sees the fields it knows.
        let old = v0::EvolvingOwned::decode(bytes).expect("an older reader decodes it");
        prop_assert_eq!(old.a, o.a);
        prop_assert_eq!(old.g.iter().map(|x| x.x).collect::<Vec<_>>(), o.g.iter().map(|x| x.x).collect::<Vec<_>>());
        prop_assert_eq!(&old.d, &o.d);
        // A buffer too small is an error, never a panic or a partial success.
        let mut small = vec![0u8; n - 1];
        prop_assert!(o.encode_into(&mut small).is_err());
    }
}

/// An older writer's message comes back as that version: its newer members are absent, and
/// writing it again gives the older bytes.
#[test]
fn an_older_writers_message_keeps_its_version() {
    let old = v0::EvolvingOwned {
        acting_version: 0,
        a: 7,
        g: vec![v0::EvolvingGOwned { x: -3 }, v0::EvolvingGOwned { x: 9 }],
        d: b"older".to_vec(),
    };
    let mut buf = vec![0u8; 256];
    let n = old.encode_into(&mut buf).unwrap();
    let o = v1::EvolvingOwned::decode(&buf[..n]).unwrap();
    assert_eq!(o.acting_version, 0);
    assert_eq!((o.a, o.b, o.c), (7, None, None));
    assert_eq!(
        o.g.iter().map(|x| (x.x, x.y)).collect::<Vec<_>>(),
        [(-3, None), (9, None)]
    );
    assert_eq!((o.d.as_slice(), o.e.as_slice()), (&b"older"[..], &b""[..]));
    let mut again = vec![0u8; 256];
    let k = o.encode_into(&mut again).unwrap();
    assert_eq!(&again[..k], &buf[..n]);
}

/// A group the older version lacks is empty in its owned value, and is not written at that
/// version even when the value holds entries (as the flyweights' older-version copy does).
#[test]
fn a_newer_group_is_left_out_at_an_older_version() {
    let o = v1::NewGroupOwned {
        acting_version: 0,
        a: 1,
        g: vec![v1::NewGroupGOwned { x: 2 }],
        h: vec![v1::NewGroupHOwned { z: 3 }],
        d: b"x".to_vec(),
    };
    let mut buf = vec![0u8; 256];
    let n = o.encode_into(&mut buf).unwrap();
    let back = v1::NewGroupOwned::decode(&buf[..n]).unwrap();
    assert_eq!(back.acting_version, 0);
    assert!(back.h.is_empty());
    assert_eq!((back.a, back.g.len(), back.d.as_slice()), (1, 1, &b"x"[..]));
    let mut cur = o.clone();
    cur.acting_version = 1;
    let m = cur.encode_into(&mut buf).unwrap();
    assert_eq!(v1::NewGroupOwned::decode(&buf[..m]).unwrap(), cur);
}

/// `validate` names the first rule a value breaks and where; `encode_into` refuses what the
/// wire cannot hold (never truncating), and writes values out of range as they are.
#[test]
fn validation_names_each_broken_rule() {
    use sbekit_runtime::{ValidationError, ValidationErrorKind as K};
    let ok = v1::EvolvingOwned {
        acting_version: 1,
        a: 1,
        b: Some(2),
        c: Some(v1::Color::Red),
        g: vec![v1::EvolvingGOwned { x: 1, y: Some(2) }],
        d: b"d".to_vec(),
        e: b"e".to_vec(),
    };
    assert_eq!(ok.validate(), Ok(()));
    assert_eq!(v1::AnyOwned::Evolving(ok.clone()).validate(), Ok(()));
    let err = |path, kind| Err(ValidationError { path, kind });
    // The optional u32's null value is outside its range: `None` is how it is absent.
    let bad = v1::EvolvingOwned {
        b: Some(u32::MAX),
        ..ok.clone()
    };
    assert_eq!(bad.validate(), err("Evolving.b", K::OutOfRange));
    // An optional value may not hold its null value either (it would read back as `None`),
    // even where that is inside the range: orders-be's `qty` (null 0) and `ratio` (NaN).
    let order = sbekit_codegen_tests::orders_be::OrderOwned::decode(&{
        let mut b = vec![0u8; 256];
        let n = sbekit_codegen_tests::orders_be::OrderEncoder::new(&mut b)
            .unwrap()
            .finish()
            .unwrap();
        b.truncate(n);
        b
    })
    .unwrap();
    let held = |qty, ratio| sbekit_codegen_tests::orders_be::OrderOwned {
        qty,
        ratio,
        side: sbekit_codegen_tests::orders_be::Side::Buy,
        venue: None,
        ..order.clone()
    };
    assert_eq!(held(Some(5), Some(0.5)).validate(), Ok(()));
    assert_eq!(held(None, None).validate(), Ok(()));
    assert_eq!(
        held(Some(0), None).validate(),
        err("Order.qty", K::OutOfRange)
    );
    assert_eq!(
        held(None, Some(f64::NAN)).validate(),
        err("Order.ratio", K::OutOfRange)
    );
    let bad = v1::EvolvingOwned {
        c: Some(v1::Color::from_raw(9)),
        ..ok.clone()
    };
    assert_eq!(bad.validate(), err("Evolving.c", K::UnknownEnumValue));
    let many = vec![v1::EvolvingGOwned { x: 0, y: Some(0) }; 65_536];
    let bad = v1::EvolvingOwned {
        g: many,
        ..ok.clone()
    };
    assert_eq!(
        bad.validate(),
        err(
            "Evolving.g",
            K::TooManyEntries {
                count: 65_536,
                maximum: 65_534
            }
        )
    );
    let mut buf = vec![0u8; 1 << 20];
    let refused = bad.encode_into(&mut buf).unwrap_err();
    assert!(
        matches!(
            refused.kind,
            sbekit_runtime::EncodeErrorKind::GroupCountTooLarge { .. }
        ),
        "{refused}"
    );
    let bad = v1::EvolvingOwned {
        d: vec![b'x'; 65_536],
        ..ok.clone()
    };
    assert_eq!(
        bad.validate(),
        err(
            "Evolving.d",
            K::TooLong {
                length: 65_536,
                maximum: 65_534
            }
        )
    );
    assert!(
        bad.encode_into(&mut buf).is_err(),
        "var data too long is refused"
    );
    // A value out of range is still written as it is (a message read from the wire goes back
    // as it came): validation is the caller's check.
    let out_of_range = v1::EvolvingOwned {
        c: Some(v1::Color::from_raw(9)),
        ..ok
    };
    let n = out_of_range.encode_into(&mut buf).unwrap();
    assert_eq!(v1::EvolvingOwned::decode(&buf[..n]).unwrap(), out_of_range);
}
