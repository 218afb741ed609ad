//! Schema evolution through generated code: old writer / new reader sees `None` for newer
//! fields, group entry fields, groups and var data; new writer / old reader skips them. Also
//! Rust keywords as names, and a custom `headerType`.

use sbekit_codegen_tests::{keywords, versioned_v0 as v0, versioned_v1 as v1};
use sbekit_runtime::DecodeErrorKind;

fn write_v0(buf: &mut [u8]) -> usize {
    let mut e = v0::EvolvingEncoder::new(buf).unwrap();
    e.a(7);
    e.g(|g| {
        for x in [1, -2] {
            g.entry(|e| {
                e.x(x);
                Ok(())
            })?;
        }
        Ok(())
    })
    .unwrap();
    e.d(b"old").unwrap();
    e.finish().unwrap()
}

fn write_v1(buf: &mut [u8]) -> usize {
    let mut e = v1::EvolvingEncoder::new(buf).unwrap();
    e.a(7).b(Some(8)).c(v1::Color::Green);
    e.g(|g| {
        for (x, y) in [(1, 10), (-2, 20)] {
            g.entry(|e| {
                e.x(x).y(y);
                Ok(())
            })?;
        }
        Ok(())
    })
    .unwrap();
    e.d(b"old").unwrap().e(b"new").unwrap();
    e.finish().unwrap()
}

#[test]
fn new_reader_old_writer_sees_none_for_newer_parts() {
    let mut buf = [0u8; 128];
    let n = write_v0(&mut buf);
    let d = v1::EvolvingDecoder::decode(&buf[..n]).unwrap();
    assert_eq!(d.acting_version(), 0);
    assert_eq!(d.a(), 7);
    assert_eq!(d.b(), None);
    assert_eq!(d.c(), None);
    let g: Vec<_> = d.g().map(|e| (e.x(), e.y())).collect();
    assert_eq!(g, [(1, None), (-2, None)]);
    assert_eq!(d.d_str(), Ok("old"));
    assert_eq!(d.e(), None);
    assert_eq!(d.encoded_length(), n);
}

#[test]
fn old_reader_new_writer_skips_newer_parts() {
    let mut buf = [0u8; 128];
    let n = write_v1(&mut buf);
    let d = v0::EvolvingDecoder::decode(&buf[..n]).unwrap();
    assert_eq!(d.acting_version(), 1);
    assert_eq!(d.a(), 7);
    let g: Vec<_> = d.g().map(|e| e.x()).collect();
    assert_eq!(g, [1, -2]);
    assert_eq!(d.d(), b"old");
    // The old reader's message ends before the var data it does not know.
    assert_eq!(d.encoded_length(), n - 2 - 3);
    let d1 = v1::EvolvingDecoder::decode(&buf[..n]).unwrap();
    assert_eq!(
        (d1.b(), d1.c(), d1.e()),
        (Some(8), Some(v1::Color::Green), Some(&b"new"[..]))
    );
    let g: Vec<_> = d1.g().map(|e| e.y()).collect();
    assert_eq!(g, [Some(10), Some(20)]);
}

#[test]
fn group_newer_than_acting_version_is_absent() {
    let mut buf = [0u8; 64];
    let mut e = v0::NewGroupEncoder::new(&mut buf).unwrap();
    e.a(1);
    e.g(|g| {
        g.entry(|e| {
            e.x(5);
            Ok(())
        })?;
        Ok(())
    })
    .unwrap();
    e.d(b"z").unwrap();
    let n = e.finish().unwrap();
    let d = v1::NewGroupDecoder::decode(&buf[..n]).unwrap();
    assert!(d.h().is_none());
    assert_eq!(d.g().len(), 1);
    assert_eq!(d.d(), b"z");
    // Claiming version 1 without the group's bytes is caught up front.
    buf[6] = 1;
    assert!(v1::NewGroupDecoder::decode(&buf[..n]).is_err());
}

#[test]
fn short_block_for_the_acting_version_is_rejected() {
    let mut buf = [0u8; 128];
    let n = write_v0(&mut buf);
    buf[0] = 2; // block length 2 < 4 bytes of field `a`
    let e = v1::EvolvingDecoder::decode(&buf[..n]).unwrap_err();
    assert_eq!(
        e.kind,
        DecodeErrorKind::BlockLengthTooShort {
            minimum: 4,
            found: 2
        }
    );
    assert_eq!(e.offset, 8);
}

#[test]
fn keywords_as_names_round_trip() {
    use keywords::*;
    let mut buf = [0u8; 64];
    let mut e = TypeEncoder::new(&mut buf).unwrap();
    e.r#match(1)
        .self_(2)
        .self_field(Enum::Self_)
        .r#struct(Struct::TYPE | Struct::EMPTY)
        .decode(-3);
    e.result().crate_(-4).some(5);
    e.r#loop(|g| {
        g.entry(|e| {
            e.super_(6);
            Ok(())
        })?;
        Ok(())
    })
    .unwrap();
    e.r#async(b"await").unwrap();
    let n = e.finish().unwrap();
    let d = TypeDecoder::decode(&buf[..n]).unwrap();
    assert_eq!((d.r#match(), d.self_(), d.decode_field()), (1, 2, -3));
    assert_eq!(d.self_field(), Enum::Self_);
    assert_eq!(d.self_field().name(), Some("Self"));
    assert_eq!("None".parse::<Enum>(), Ok(Enum::None));
    assert!(d.r#struct().r#type() && d.r#struct().empty_field() && !d.r#struct().bits_field());
    assert_eq!((d.result().crate_(), d.result().some()), (-4, 5));
    assert_eq!(d.r#loop().map(|e| e.super_()).collect::<Vec<_>>(), [6]);
    assert_eq!(d.r#async(), b"await");
    assert!(matches!(
        AnyMessage::decode(&buf[..n]),
        Ok(AnyMessage::Type(_))
    ));
}

#[test]
fn keywords_with_suffix_style() {
    use sbekit_codegen_tests::keywords_suffix::*;
    let mut buf = [0u8; 64];
    let mut e = TypeEncoder::new(&mut buf).unwrap();
    e.match_(1).self_(2).struct_(Struct::TYPE);
    e.async_(b"x").unwrap();
    let n = e.finish().unwrap();
    let d = TypeDecoder::decode(&buf[..n]).unwrap();
    assert_eq!((d.match_(), d.self_()), (1, 2));
    assert!(d.struct_().type_());
    assert_eq!(d.async_(), b"x");
}

/// Needs the reference's `custom-header-type.xml`.
#[cfg(has_reference)]
#[test]
fn custom_header_type() {
    use sbekit_codegen_tests::custom_header::*;
    let mut buf = [0u8; 32];
    let mut e = AlternativeRealityEncoder::new(&mut buf).unwrap();
    e.x(-42);
    let n = e.finish().unwrap();
    assert_eq!(n, HEADER_LENGTH + 4);
    let h = HeaderFields::read(&buf).unwrap();
    assert_eq!((h.template_id, h.schema_id), (1, 2));
    assert_eq!(
        AlternativeRealityDecoder::decode(&buf[..n]).unwrap().x(),
        -42
    );
    // The header composite itself is generated under its own name.
    assert_eq!(FooDecoder::new(buf.first_chunk().unwrap()).template_id(), 1);
}

#[cfg(not(has_reference))]
#[test]
fn custom_header_type() {
    // Skips loudly here, fails under CI=true.
    let _ = sbekit_testdata::require_reference(
        "sbe-tool/src/test/resources/custom-header-type.xml",
        "custom_header_type",
    );
}
