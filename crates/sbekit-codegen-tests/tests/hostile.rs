//! Hostile counts: a group whose entries take no bytes (their only field is newer than the
//! acting version) may claim billions of entries. Generated decoders hold a message to the
//! budget `sbekit decode` applies (`MAX_EMPTY_ENTRIES`, 2^20 such entries in all its groups),
//! so iterating a decoded message costs a bounded number of steps, and accept what
//! `sbekit decode` accepts.

use sbekit_codegen_tests::orders_be::*;
use sbekit_runtime::DecodeErrorKind;

/// A version-0 `Cancel` (big-endian) whose `hints` group has zero-byte entries.
fn cancel(count: u32) -> Vec<u8> {
    let mut b = Vec::new();
    for v in [8u16, 2, 42, 0] {
        b.extend_from_slice(&v.to_be_bytes()); // blockLength, templateId, schemaId, version
    }
    b.extend_from_slice(&77u64.to_be_bytes()); // orderId
    b.extend_from_slice(&0u16.to_be_bytes()); // hints: blockLength 0
    b.extend_from_slice(&count.to_be_bytes()); // hints: numInGroup
    b
}

#[test]
fn two_billion_zero_byte_entries_are_refused() {
    let bytes = cancel(2_000_000_000);
    let t = std::time::Instant::now();
    let err = CancelDecoder::decode(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DecodeErrorKind::InvalidDimension {
                found: 2_000_000_000
            }
        ),
        "{err:?}"
    );
    assert!(matches!(
        AnyMessage::decode(&bytes),
        Err(e) if matches!(e.kind, DecodeErrorKind::InvalidDimension { .. })
    ));
    assert!(t.elapsed() < std::time::Duration::from_secs(1));
}

#[test]
fn a_count_up_to_the_budget_is_read() {
    let bytes = cancel(3);
    let d = CancelDecoder::decode(&bytes).unwrap();
    assert_eq!(d.order_id(), 77);
    let hints: Vec<Option<u16>> = d.hints().map(|h| h.hint()).collect();
    assert_eq!(hints, [None, None, None]);
    // The bound is the budget, not the input's size: exactly the budget is read, one more is
    // refused.
    let max = u32::try_from(sbekit_runtime::bounds::MAX_EMPTY_ENTRIES).unwrap();
    let (at_budget, over_budget) = (cancel(max), cancel(max + 1));
    let d = CancelDecoder::decode(&at_budget).unwrap();
    assert_eq!(d.hints().count(), sbekit_runtime::bounds::MAX_EMPTY_ENTRIES);
    assert!(CancelDecoder::decode(&over_budget).is_err());
    // `sbekit decode` draws the same line.
    let ir = sbekit_schema::load_ir(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/orders-be.xml"
    )))
    .unwrap();
    let otf = sbekit_otf::Decoder::new(&ir).unwrap();
    assert!(sbekit_otf::message_to_json(&otf, &at_budget, false).is_ok());
    assert!(sbekit_otf::message_to_json(&otf, &over_budget, false).is_err());
}

/// The same at version 1 of a group (`marks`) whose entries' only field came in version 2.
#[test]
fn zero_byte_entries_of_a_versioned_group_are_bounded() {
    let mut buf = [0u8; 128];
    let mut e = OrderEncoder::new(&mut buf).unwrap();
    e.order_id(1);
    let n = e.finish().unwrap();
    let mut bytes = buf[..n].to_vec();
    // Rewrite as version 1 with marks = { blockLength 0, count 2^31 - 1 }: the header says
    // version 1, and the marks group header follows the (empty) fills group.
    bytes[6..8].copy_from_slice(&1u16.to_be_bytes());
    let fills_end = 8 + OrderDecoder::BLOCK_LENGTH + 4;
    let marks = fills_end;
    bytes[marks..marks + 2].copy_from_slice(&0u16.to_be_bytes());
    bytes[marks + 2..marks + 6].copy_from_slice(&0x7fff_ffffu32.to_be_bytes());
    let err = OrderDecoder::decode(&bytes).unwrap_err();
    assert!(
        matches!(err.kind, DecodeErrorKind::InvalidDimension { .. }),
        "{err:?}"
    );
}
