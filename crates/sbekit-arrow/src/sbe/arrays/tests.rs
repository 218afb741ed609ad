//! Unit tests of the Arrow array building (beside `arrays.rs`, which holds the code).

use super::*;
use arrow_array::Array;

/// A block of one 8-byte char array at offset 1 of 10-byte rows and one uint8 after it.
fn chars_block() -> BlockCols {
    let leaves = vec![
        Leaf::new(1, 0, PrimitiveType::Char, 8),
        Leaf::new(9, 0, PrimitiveType::Uint8, 1),
    ];
    let nodes = vec![
        (
            "symbol".to_string(),
            Node::Leaf {
                leaf: 0,
                kind: LeafKind::Chars {
                    encoding: Encoding::Latin1,
                },
            },
        ),
        (
            "n".to_string(),
            Node::Leaf {
                leaf: 1,
                kind: LeafKind::Int {
                    ty: PrimitiveType::Uint8,
                    null: None,
                },
            },
        ),
    ];
    BlockCols::new(
        leaves,
        nodes,
        Vec::new(),
        Vec::new(),
        RequiredLengths::default(),
    )
}

#[test]
fn rows_gathered_in_parts_make_the_same_columns() {
    // Row i: a symbol (ASCII, cut at a NUL, or with a Latin-1 byte from row 700 on),
    // then i as a byte. Gathered after every `every` rows, in tiles, and at the end.
    let symbol = |i: usize| -> [u8; 8] {
        match i % 3 {
            _ if i >= 700 && i % 50 == 0 => *b"CAF\xc9\0\0\0\0",
            0 => *b"AAPL\0\0X\0",
            1 => *b"MSFT0001",
            _ => [b'A' + (i % 26) as u8; 8],
        }
    };
    let want = |i: usize| -> String {
        let s = symbol(i);
        let cut = s.iter().position(|&c| c == 0).unwrap_or(8);
        s[..cut].iter().map(|&c| char::from(c)).collect()
    };
    for every in [1, 100, 300, 1000, usize::MAX] {
        let mut b = chars_block();
        let mut pool = Pool::default();
        for batch in 0..2 {
            let rows = if batch == 0 { 1000 } else { 500 };
            for i in 0..rows {
                let mut row = vec![b'x'];
                row.extend_from_slice(&symbol(i));
                row.push(i as u8);
                b.staged.extend_from_slice(&row);
                b.rows += 1;
                if b.rows % every == 0 {
                    b.gather_pending(false, &mut pool);
                }
            }
            let mut fallbacks = 0;
            let mut cut = Cut {
                big: false,
                fallbacks: &mut fallbacks,
                pool: &mut pool,
            };
            let out = b.finish(&mut cut).expect("columns");
            let text = out[0].as_any().downcast_ref::<StringArray>().expect("text");
            let n = out[1]
                .as_any()
                .downcast_ref::<PrimitiveArray<UInt8Type>>()
                .expect("bytes");
            assert_eq!((text.len(), n.len()), (rows, rows), "every {every}");
            for i in 0..rows {
                assert_eq!(text.value(i), want(i), "row {i}, every {every}");
                assert_eq!(n.value(i), i as u8, "row {i}, every {every}");
            }
            // Latin-1 is valid in its encoding: no fallback counted.
            assert_eq!(fallbacks, 0);
        }
    }
}

#[test]
fn char_arrays_are_cut_at_their_first_nul() {
    for value in [
        &b""[..],
        b"\0",
        b"AAPL\0\0\0\0",
        b"ABCDEFGH",
        b"ABCDEFGHIJ\0L",
        b"A\0C\0",
        b"\x80\0\x01",
        b"\x01\x01\x00\xff\xff\xff\xff\xff",
        b"ABCDEFG\0IJKLMNOP",
    ] {
        let expected = value.iter().position(|&c| c == 0).unwrap_or(value.len());
        assert_eq!(nul_cut(value), expected, "{value:?}");
    }
    // Three 8-byte values compacted in place: cut, moved left, offsets between them.
    let mut v = b"AAPL\0\0\0\0MSFT0001\0\0\0\0\0\0\0\0".to_vec();
    assert!(all_kept(&v, 8, Encoding::Ascii));
    let mut offsets = Vec::new();
    compact_chars(&mut v, 8, &mut offsets);
    assert_eq!(offsets, [0, 4, 12, 12]);
    assert_eq!(v, b"AAPLMSFT0001");
    // The same straight out of rows of 10 bytes (the values at offset 1), and the first
    // value that is not ASCII stops it.
    let rows: Vec<u8> = [&b"xAAPL\0\0\0\0y"[..], b"xMSFT0001y", b"x\0\0\0\0\0\0\0\0y"].concat();
    for w in [8, 9] {
        let mut text = AsciiText::new(Vec::new(), Vec::new());
        assert!(ascii_from_rows(&rows, 10, 1, w, 3, &mut text));
        let a = text.finish(&mut Pool::default());
        let a = a.as_any().downcast_ref::<StringArray>().expect("strings");
        let got: Vec<&str> = a.iter().map(|v| v.unwrap_or("null")).collect();
        // Nine bytes take in the row's last byte.
        let want = if w == 8 {
            ["AAPL", "MSFT0001", ""]
        } else {
            ["AAPL", "MSFT0001y", ""]
        };
        assert_eq!(got, want);
    }
    let rows = [&b"xAB\0\xff\0\0\0\0y"[..], b"xMSFT0001y"].concat();
    for w in [8, 9] {
        let mut text = AsciiText::new(Vec::new(), Vec::new());
        assert!(!ascii_from_rows(&rows, 10, 1, w, 2, &mut text));
    }
    // Bytes after the NUL do not count; a non-ASCII value does, unless it is UTF-8.
    assert!(all_kept(b"AB\0\xff", 4, Encoding::Ascii));
    assert!(!all_kept(b"A\xc3\xa9\0", 4, Encoding::Ascii));
    assert!(all_kept(b"A\xc3\xa9\0", 4, Encoding::Utf8));
}

#[test]
fn text_appended_as_the_otf_rule_decodes_it() {
    let samples: [&[u8]; 6] = [
        b"",
        b"AAPL",
        b"\xe9t\xe9",
        b"caf\xc3\xa9",
        b"\xff\x80",
        b"a\xc3",
    ];
    for encoding in [Encoding::Utf8, Encoding::Latin1, Encoding::Ascii] {
        let mut b = StringBuilder::new();
        let mut scratch = String::new();
        let mut want = Vec::new();
        for bytes in samples {
            let t = sbekit_otf::text::decode(bytes, encoding);
            let fallback = append_text(&mut b, &mut scratch, bytes, encoding);
            assert_eq!(fallback, t.fallback, "{bytes:?} {encoding:?}");
            want.push(t.text.into_owned());
        }
        let got = b.finish();
        let got: Vec<&str> = got.iter().map(|v| v.unwrap_or("null")).collect();
        assert_eq!(got, want, "{encoding:?}");
    }
}

#[test]
fn enum_keys_known_unknown_null_and_absent() {
    let bits = [0u64, 1, 300];
    let mut keys = EnumKeys {
        bits: &bits,
        dict: vec!["A".into(), "B".into(), "C".into()],
        unknown: HashMap::new(),
        null: 255,
        signed_width: None,
        keys: Vec::new(),
    };
    let absent: NullBuffer = vec![true, true, true, true, true, false].into();
    keys.extend(&[1u16, 300, 255, 7, 7, 0], Some(&absent));
    let (k, nulls, dict) = keys.finish();
    assert_eq!(k, [1, 2, 0, 3, 3, 0]);
    let valid: Vec<bool> = nulls.expect("nulls").iter().collect();
    assert_eq!(valid, [true, true, false, true, true, false]);
    assert_eq!(dict, ["A", "B", "C", "7"]);
}

#[test]
fn enum_keys_gathered_through_the_table_agree_with_raw_values() {
    // Known values (one listed twice), the null value, unknown values, every byte value,
    // in rows of 7 bytes with the enum at offset 3; signed and unsigned display.
    let bits = [0u64, 1, 1, 200, 300];
    let names: Vec<String> = ["A", "B", "B2", "C", "D"].map(String::from).into();
    let raw: Vec<u8> = (0..=255u8).chain([1, 255, 7, 7, 200, 0]).collect();
    let mut staged = vec![0xEEu8; raw.len() * 7 + 8];
    for (i, &b) in raw.iter().enumerate() {
        staged[i * 7 + 3] = b;
    }
    for signed_width in [None, Some(1)] {
        let kind = LeafKind::Enum {
            bits: bits.to_vec(),
            names: names.clone(),
            null: 255,
            signed_width,
        };
        let mut keys = TableKeys::new(Vec::new());
        let table = KeyTable::new(&bits, 255);
        // In two parts, as the gathers take them.
        keys.extend(&table, &staged, 7, 3, 100);
        keys.extend(&table, &staged[700..], 7, 3, raw.len() - 100);
        assert_eq!(keys.len(), raw.len());
        let (mut fallbacks, mut pool) = (0, Pool::default());
        let mut cut = Cut {
            big: false,
            fallbacks: &mut fallbacks,
            pool: &mut pool,
        };
        let got = keys_array(&kind, keys, &mut cut).expect("keys");
        let want =
            leaf_array(&kind, Store::W1(raw.clone()), None, raw.len(), &mut cut).expect("raw");
        assert_eq!(got.to_data(), want.to_data(), "{signed_width:?}");
        assert!(got.to_data().validate_full().is_ok());
        let d = got
            .as_any()
            .downcast_ref::<DictionaryArray<Int32Type>>()
            .expect("dictionary");
        // 5 names and one entry per unknown byte value (256 less 0, 1, 200 and null 255).
        assert_eq!(d.values().len(), 5 + 252);
        assert_eq!(d.null_count(), 2);
    }
    // Rows that do not hold the values (which the gathers never ask for): a zero byte's key.
    let mut keys = TableKeys::new(vec![9]);
    keys.nulls(1);
    keys.extend(&KeyTable::new(&bits, 255), &staged[..5], 7, 3, 2);
    assert_eq!(keys.into_vec(), [-1, 0, 0]);
}

#[test]
fn listed_keys_become_the_dictionary_as_they_are() {
    let bits = [3u64, 9, 4];
    let names: Vec<String> = ["A", "B", "C"].map(String::from).into();
    let table = KeyTable::new(&bits, 255);
    // Rows of 2 bytes: listed values only, then one more row each of null and unlisted.
    let staged = [3u8, 0, 9, 0, 4, 0, 3, 0, 255, 0, 7, 0, 0, 0];
    let mut pool = Pool::default();
    let mut keys = TableKeys::new(Vec::new());
    keys.extend(&table, &staged, 2, 0, 4);
    let a = listed_dictionary(keys, &names, &mut pool).expect("all listed");
    assert!(a.to_data().validate_full().is_ok());
    let d = a
        .as_any()
        .downcast_ref::<DictionaryArray<Int32Type>>()
        .expect("dictionary");
    assert_eq!(d.keys().values().to_vec(), [0, 1, 2, 0]);
    for (rows, want) in [(5, vec![0, 1, 2, 0, -1]), (6, vec![0, 1, 2, 0, -1, -9])] {
        let mut keys = TableKeys::new(Vec::new());
        keys.extend(&table, &staged, 2, 0, rows);
        assert_eq!(listed_dictionary(keys, &names, &mut pool).err(), Some(want));
    }
    // A table listing more values than the names: refused, keys back.
    let mut keys = TableKeys::new(Vec::new());
    keys.extend(&table, &staged, 2, 0, 1);
    assert_eq!(
        listed_dictionary(keys, &names[..2], &mut pool).err(),
        Some(vec![0])
    );
}

/// `value_nulls` by whole words: nulls at every position of a word, in a short last word,
/// with and without absent rows (which stay null), and none at all (the absent mask as is).
#[test]
fn value_nulls_by_words_match_value_by_value() {
    for len in [1usize, 63, 64, 65, 130, 200] {
        let values: Vec<u16> = (0..len as u16).map(|i| (i * 7) % 11).collect();
        let absent_mask: Vec<bool> = (0..len).map(|i| i % 5 != 3).collect();
        for absent in [None, Some(NullBuffer::from(absent_mask.clone()))] {
            let got = value_nulls(&values, 4, absent.clone());
            let want: Vec<bool> = (0..len)
                .map(|i| values[i] != 4 && absent.as_ref().is_none_or(|_| absent_mask[i]))
                .collect();
            let got_valid: Vec<bool> = (0..len)
                .map(|i| got.as_ref().is_none_or(|n| n.is_valid(i)))
                .collect();
            assert_eq!(got_valid, want, "len {len}, absent {}", absent.is_some());
            // With the null value present, a null buffer only where some row is null.
            if values.contains(&4) {
                assert_eq!(got.is_some(), want.contains(&false));
            }
        }
        // No value is the null value: the absent mask comes back as it was.
        let absent = Some(NullBuffer::from(absent_mask.clone()));
        assert_eq!(value_nulls(&values, 99, absent.clone()), absent);
        assert_eq!(value_nulls(&values, 99, None), None);
    }
}

/// `nulls_where` masks the absent rows after the test, and an absent mask longer than the
/// rows is cut to them.
#[test]
fn nulls_where_masks_absent_rows() {
    let absent = NullBuffer::from(vec![true, false, true, true, false, true]);
    let got = nulls_where(4, Some(absent), |i| i == 2).expect("nulls");
    let valid: Vec<bool> = (0..4).map(|i| got.is_valid(i)).collect();
    assert_eq!(valid, [true, false, false, true]);
    assert_eq!(got.len(), 4);
    assert!(nulls_where(4, None, |_| false).is_none());
}
