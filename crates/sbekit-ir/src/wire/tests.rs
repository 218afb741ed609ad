//! Unit tests of the wire vocabulary (kept beside it, out of `wire.rs`, which holds the code).

use super::*;

fn slot(offset: usize, ty: PrimitiveType) -> IntSlot {
    IntSlot {
        offset,
        ty,
        max: ty_max(ty),
        constant: None,
    }
}

fn ty_max(ty: PrimitiveType) -> u64 {
    match ty.size() {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

/// Every layout a pair can have (the two fast shapes, constants, gaps, wide or swapped
/// slots) reads what its two slots read one by one, at every buffer length.
#[test]
fn slot_pairs_read_what_their_slots_read() {
    use PrimitiveType::{Uint16 as U16, Uint32 as U32, Uint8 as U8};
    let constant = IntSlot {
        constant: Some(7),
        ..slot(0, U16)
    };
    let pairs = [
        (slot(0, U16), slot(2, U16), "u16 u16"),
        (slot(0, U16), slot(2, U8), "u16 u8"),
        (slot(4, U16), slot(6, U16), "u16 u16 at 4"),
        (slot(0, U16), slot(3, U16), "a gap"),
        (slot(0, U32), slot(4, U16), "wide first"),
        (slot(2, U16), slot(0, U16), "swapped"),
        (slot(0, U16), slot(2, U32), "wide second"),
        (constant, slot(0, U16), "constant first"),
        (slot(0, U16), constant, "constant second"),
    ];
    let bytes: Vec<u8> = (1..=12u8).map(|b| b.wrapping_mul(37)).collect();
    for (first, second, what) in pairs {
        let pair = SlotPair::new(first, second);
        for n in 0..=bytes.len() {
            let b = &bytes[..n];
            let one_by_one = |o: ByteOrder| Some((first.read(b, o)?, second.read(b, o)?));
            assert_eq!(
                pair.read_in::<Le>(b),
                one_by_one(ByteOrder::LittleEndian),
                "{what}, {n} bytes, LE"
            );
            assert_eq!(
                pair.read_in::<Be>(b),
                one_by_one(ByteOrder::BigEndian),
                "{what}, {n} bytes, BE"
            );
        }
    }
    assert!(matches!(
        SlotPair::new(slot(0, U16), slot(2, U8)).shape,
        PairShape::U16U8 { at: 0 }
    ));
    assert!(matches!(
        SlotPair::new(slot(4, U16), slot(6, U16)).shape,
        PairShape::U16U16 { at: 4 }
    ));
    assert_eq!(
        SlotPair::new(constant, slot(2, U16)).shape,
        PairShape::Slots
    );
}

#[test]
fn slots_read_and_write_both_orders() {
    for order in [ByteOrder::LittleEndian, ByteOrder::BigEndian] {
        for ty in [
            PrimitiveType::Uint8,
            PrimitiveType::Uint16,
            PrimitiveType::Uint32,
            PrimitiveType::Uint64,
        ] {
            let s = slot(1, ty);
            let mut buf = [0u8; 10];
            let v = ty_max(ty) / 3;
            assert_eq!(s.write(&mut buf, order, v), Some(()));
            assert_eq!(buf[0], 0, "nothing before the slot is written");
            assert_eq!(s.read(&buf, order), Some(v), "{ty:?} {order:?}");
            assert_eq!(s.write(&mut buf[..ty.size()], order, v), None);
            assert_eq!(s.read(&buf[..ty.size()], order), None);
        }
    }
}

#[test]
fn signed_slots_sign_extend() {
    let b = [0xfe, 0xff];
    assert_eq!(
        read_uint(&b, PrimitiveType::Int16, ByteOrder::LittleEndian),
        Some(-2i64 as u64)
    );
    assert_eq!(
        read_uint(&b, PrimitiveType::Int8, ByteOrder::LittleEndian),
        Some(-2i64 as u64)
    );
    assert_eq!(
        read_uint(&b, PrimitiveType::Float, ByteOrder::BigEndian),
        None
    );
}

#[test]
fn raw_bits_round_trip() {
    for order in [ByteOrder::LittleEndian, ByteOrder::BigEndian] {
        for size in 1..=8usize {
            let bits = 0x8877_6655_4433_2211u64 >> (64 - 8 * size as u32);
            let mut buf = [0u8; 9];
            write_bits(&mut buf, size, order, bits).unwrap();
            assert_eq!(read_bits(&buf, size, order), Some(bits));
            assert_eq!(read_bits(&buf[..size - 1], size, order), None);
        }
    }
    let mut buf = [0u8; 2];
    write_bits(&mut buf, 2, ByteOrder::BigEndian, 0x0102).unwrap();
    assert_eq!(buf, [1, 2]);
}

#[test]
fn write_refuses_values_above_max() {
    let mut s = slot(0, PrimitiveType::Uint16);
    s.max = 100;
    let mut buf = [0u8; 2];
    assert_eq!(s.write(&mut buf, ByteOrder::LittleEndian, 101), None);
    assert_eq!(s.write(&mut buf, ByteOrder::LittleEndian, 100), Some(()));
}

#[test]
fn constant_slots_are_not_on_the_wire() {
    let mut s = slot(0, PrimitiveType::Uint16);
    s.constant = Some(7);
    assert_eq!(s.read(&[], ByteOrder::LittleEndian), Some(7));
    let mut buf = [9u8; 2];
    assert_eq!(s.write(&mut buf, ByteOrder::LittleEndian, 3), Some(()));
    assert_eq!(buf, [9, 9]);
}

#[test]
fn required_length_at_each_version() {
    let r = RequiredLengths(vec![(0, 8), (2, 12), (5, 13)]);
    assert_eq!(r.at(0), 8);
    assert_eq!(r.at(1), 8);
    assert_eq!(r.at(2), 12);
    assert_eq!(r.at(4), 12);
    assert_eq!(r.at(5), 13);
    assert_eq!(r.at(u64::MAX), 13);
    assert_eq!(RequiredLengths(vec![(3, 4)]).at(2), 0);
    assert_eq!(RequiredLengths::default().at(9), 0);
}

fn dim() -> DimensionSlots {
    DimensionSlots {
        size: 4,
        block_length: slot(0, PrimitiveType::Uint16),
        count: slot(2, PrimitiveType::Uint16),
    }
}

#[test]
fn group_counts_are_bounded_by_the_bytes_left() {
    let mut budget = EntryBudget::new(Limits::default());
    // blockLength 4, count 2, then 8 bytes: fits.
    let mut buf = vec![4, 0, 2, 0];
    buf.extend_from_slice(&[0; 8]);
    let h = read_group::<Le>(&buf, 0, &dim(), &mut budget, "g").unwrap();
    assert_eq!((h.block_length, h.count, h.entries), (4, 2, 4));
    // One byte short.
    let e = read_group::<Le>(&buf[..11], 0, &dim(), &mut budget, "g").unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::Truncated {
            needed: 8,
            available: 7
        }
    );
    assert_eq!((e.offset, e.path.as_str()), (4, "g"));
    // A dimension cut short.
    let e = read_group::<Le>(&buf[..3], 0, &dim(), &mut budget, "g").unwrap_err();
    assert!(e.is_truncation());
}

#[test]
fn entry_blocks_are_the_entries_back_to_back() {
    let mut budget = EntryBudget::new(Limits::default());
    // blockLength 3, count 2, six entry bytes, then a trailing byte that is not an entry.
    let buf = [3, 0, 2, 0, 1, 2, 3, 4, 5, 6, 9];
    let h = read_group::<Le>(&buf, 0, &dim(), &mut budget, "g").unwrap();
    assert_eq!(entry_blocks(&buf, &h, "g").unwrap(), &[1, 2, 3, 4, 5, 6]);
    // No entries, or empty ones: no bytes.
    let none = GroupHeader { count: 0, ..h };
    assert!(entry_blocks(&buf, &none, "g").unwrap().is_empty());
    let empty = GroupHeader {
        block_length: 0,
        count: 1 << 40,
        ..h
    };
    assert!(entry_blocks(&buf, &empty, "g").unwrap().is_empty());
    // A header that overruns the buffer (or whose size overflows) is refused, not sliced.
    let e = entry_blocks(&buf[..9], &h, "g").unwrap_err();
    assert_eq!((e.offset, e.path.as_str()), (4, "g"));
    assert!(e.is_truncation());
    let huge = GroupHeader {
        block_length: u64::MAX,
        count: 3,
        ..h
    };
    assert!(entry_blocks(&buf, &huge, "g").unwrap_err().is_truncation());
}

#[test]
fn empty_entries_spend_the_budget() {
    let mut budget = EntryBudget::new(Limits {
        max_empty_entries: 10,
    });
    let buf = [0, 0, 6, 0];
    read_group::<Le>(&buf, 0, &dim(), &mut budget, "g").unwrap();
    let e = read_group::<Le>(&buf, 0, &dim(), &mut budget, "g").unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooManyEntries { limit: 10 });
    // Entries with a block cost nothing: the buffer bounds them.
    budget.charge(1, 1 << 40, 0, "g").unwrap();
}

#[test]
fn var_data_prefix_and_bytes() {
    let slots = VarDataSlots {
        length: slot(0, PrimitiveType::Uint16),
        data_offset: 2,
    };
    let buf = [0, 3, b'a', b'b', b'c', 9];
    let (data, end) = read_var_data::<Be>(&buf, 0, &slots, "v").unwrap();
    assert_eq!((data, end), (&b"abc"[..], 5));
    let e = read_var_data::<Be>(&buf[..4], 0, &slots, "v").unwrap_err();
    assert_eq!(
        (e.offset, e.kind),
        (
            2,
            ErrorKind::Truncated {
                needed: 3,
                available: 2
            }
        )
    );
}

#[test]
fn block_check_names_the_need() {
    let r = RequiredLengths(vec![(0, 8), (1, 10)]);
    assert!(check_block(&r, 0, 5, 8).is_ok());
    let e = check_block(&r, 1, 5, 8).unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::BlockTooShort {
            block_length: 8,
            required: 10
        }
    );
    assert_eq!(e.offset, 5);
}

#[test]
fn u16_pair_offset_only_for_two_adjacent_wire_u16s() {
    let u16s = SlotPair::new(
        slot(2, PrimitiveType::Uint16),
        slot(4, PrimitiveType::Uint16),
    );
    assert_eq!(u16s.u16_pair_at(), Some(2));
    // The two u16s of the word at that offset are what `read_in` reads, in both orders.
    let bytes = [9, 9, 0x34, 0x12, 0x78, 0x56];
    let at = u16s.u16_pair_at().unwrap_or(usize::MAX);
    assert_eq!(read_u16_pair::<Le>(&bytes, at), Some((0x1234, 0x5678)));
    assert_eq!(read_u16_pair::<Be>(&bytes, at), Some((0x3412, 0x7856)));
    // Not all four bytes there (or an offset that would wrap): none.
    assert_eq!(read_u16_pair::<Le>(&bytes[..5], at), None);
    assert_eq!(read_u16_pair::<Le>(&bytes, usize::MAX), None);
    assert_eq!(u16s.read_in::<Le>(&bytes), Some((0x1234, 0x5678)));
    assert_eq!(u16s.read_in::<Be>(&bytes), Some((0x3412, 0x7856)));
    for other in [
        SlotPair::new(
            slot(0, PrimitiveType::Uint16),
            slot(2, PrimitiveType::Uint8),
        ),
        SlotPair::new(
            slot(0, PrimitiveType::Uint16),
            slot(3, PrimitiveType::Uint16),
        ),
        SlotPair::new(
            slot(0, PrimitiveType::Uint32),
            slot(4, PrimitiveType::Uint16),
        ),
        SlotPair::new(
            slot(0, PrimitiveType::Uint16),
            slot(2, PrimitiveType::Uint32),
        ),
    ] {
        assert_eq!(other.u16_pair_at(), None);
    }
    let mut constant = slot(2, PrimitiveType::Uint16);
    constant.constant = Some(7);
    let with_constant = SlotPair::new(slot(0, PrimitiveType::Uint16), constant);
    assert_eq!(with_constant.u16_pair_at(), None);
}
