//! Parquet's value and level encodings: the RLE / bit-packed hybrid (levels, dictionary
//! indices), bit packing and `DELTA_BINARY_PACKED`.

/// Bits needed for values up to `max`.
pub(crate) fn bit_width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

fn uleb(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(out: &mut Vec<u8>, v: i64) {
    uleb(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Bit-packs `values` (a multiple of eight, or the last group padded with zeros), `width`
/// bits each, a group of eight at a time (eight values of `width` bits fill `width` bytes).
fn pack_groups<V: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[V], width: u8) {
    let w = usize::from(width);
    if w == 0 {
        return;
    }
    let groups = values.len().div_ceil(8);
    let start = out.len();
    // Stores are whole eight-byte words (no call per group for a few bytes); the slack
    // after the last group takes the last word's spill and is cut off at the end.
    out.resize(start + groups * w + 8, 0);
    let dst = &mut out[start..];
    let mut at = 0;
    for chunk in values.chunks(8) {
        let mut g = [0u64; 8];
        for (x, v) in g.iter_mut().zip(chunk) {
            *x = (*v).into();
        }
        if w <= 8 {
            let mut acc = 0u64;
            for (x, k) in g.iter().zip(0..8) {
                acc |= x << (k * w);
            }
            dst[at..at + 8].copy_from_slice(&acc.to_le_bytes());
            at += w;
        } else if w <= 16 {
            // Eight values of up to 16 bits fit one 128-bit word: shifted in without a
            // branch per value (dictionary keys of a few hundred to 65,536 entries), stored
            // whole (16 bytes: the slack after the last group holds the 16 - w over).
            let mut acc = 0u128;
            for (x, k) in g.iter().zip(0..8) {
                acc |= u128::from(*x) << (k * w);
            }
            dst[at..at + 16].copy_from_slice(&acc.to_le_bytes());
            at += w;
        } else {
            let mut store =
                |at: usize, word: u64| dst[at..at + 8].copy_from_slice(&word.to_le_bytes());
            let mut acc: u128 = 0;
            let mut bits = 0;
            for x in g {
                acc |= u128::from(x) << bits;
                bits += w;
                if bits >= 64 {
                    store(at, acc as u64);
                    at += 8;
                    acc >>= 64;
                    bits -= 64;
                }
            }
            // Eight values of `w` bits end on a byte boundary.
            store(at, acc as u64);
            at += bits / 8;
        }
    }
    out.truncate(start + at);
}

/// The end of the run of values equal to `values[i]` that starts at `i`.
#[inline]
fn run_end<V: Copy + PartialEq>(values: &[V], i: usize) -> usize {
    let v = values[i];
    let n = values.len();
    let mut j = i + 1;
    // One at a time while the run is short (literals end here at once)...
    while j < n && j < i + 8 {
        if values[j] != v {
            return j;
        }
        j += 1;
    }
    // ...then sixteen at a time, without early exits, which vectorizes (levels come in
    // long runs).
    while let Some(c) = values.get(j..j + 16) {
        if !c.iter().fold(true, |all, x| all & (*x == v)) {
            break;
        }
        j += 16;
    }
    while j < n && values[j] == v {
        j += 1;
    }
    j
}

/// The RLE / bit-packed hybrid of `values` (each below `1 << width`), without a length
/// prefix: runs of eight or more equal values are run-length encoded, the rest bit-packed
/// in groups of eight (the last group padded with zeros).
pub(crate) fn rle_hybrid<V: Copy + Into<u64> + PartialEq>(
    out: &mut Vec<u8>,
    values: &[V],
    width: u8,
) {
    let n = values.len();
    let value_bytes = usize::from(width).div_ceil(8);
    let run = |out: &mut Vec<u8>, v: V, count: usize| {
        uleb(out, (count as u64) << 1);
        let x: u64 = v.into();
        out.extend_from_slice(&x.to_le_bytes()[..value_bytes]);
    };
    let literals = |out: &mut Vec<u8>, from: usize, to: usize| {
        if from < to {
            uleb(out, ((to - from).div_ceil(8) as u64) << 1 | 1);
            pack_groups(out, &values[from..to], width);
        }
    };
    let Some(&first) = values.first() else {
        return;
    };
    // Levels of a column without nulls, and single-valued pages: one run.
    if run_end(values, 0) == n {
        run(out, first, n);
        return;
    }
    let mut lit = 0; // where the pending literals start
    let mut i = 0;
    // Only runs of eight or more matter: found by [`next_run`] (whole words of positions
    // skipped at once), not by looking for a run's end at every position of the literals.
    while let Some(at) = next_run(values, i) {
        let v = values[at];
        let j = run_end(values, at);
        let len = j - at;
        // Literal groups hold multiples of eight: the run lends the pending ones its
        // first values, and what is left, if still a run, is run-length encoded.
        let lend = (8 - (at - lit) % 8) % 8;
        if len - lend >= 8 {
            literals(out, lit, at + lend);
            run(out, v, len - lend);
            lit = j;
        }
        i = j;
    }
    literals(out, lit, n);
}

/// The first position at or after `from` where eight equal values start, if any. When
/// `from` starts a run of equal values (the value before it differs, or there is none), so
/// does the position found: the start of the first run of eight or more after `from`.
fn next_run<V: Copy + PartialEq>(values: &[V], from: usize) -> Option<usize> {
    let n = values.len();
    let mut base = from;
    while base + 8 <= n {
        // Bit k: values `base + k` and `base + k + 1` are equal (k below 70, enough for
        // the windows of the 64 positions from `base`).
        let end = (base + 71).min(n);
        let eq = match values[base..end].split_first_chunk::<65>() {
            // A full word's pairs with fixed bounds and 64-bit shifts (a `u128` shift per
            // pair cost several instructions), then the six pairs after it.
            Some((word, rest)) => {
                let mut lo = 0u64;
                for k in 0..64 {
                    lo |= u64::from(word[k] == word[k + 1]) << k;
                }
                let mut hi = 0u64;
                let mut prev = word[64];
                for (k, &v) in rest.iter().enumerate() {
                    hi |= u64::from(prev == v) << k;
                    prev = v;
                }
                u128::from(lo) | u128::from(hi) << 64
            }
            None => {
                let mut eq = 0u128;
                for (k, w) in values[base..end].windows(2).enumerate() {
                    eq |= u128::from(w[0] == w[1]) << k;
                }
                eq
            }
        };
        // Bit k: the seven pairs from `base + k` are equal, so eight values are.
        let mut all = eq;
        for s in 1..7 {
            all &= eq >> s;
        }
        let all = all as u64;
        if all != 0 {
            return Some(base + all.trailing_zeros() as usize);
        }
        base += 64;
    }
    None
}

/// The hybrid of `count` values all equal to `v`: one run (as [`rle_hybrid`] writes them).
pub(crate) fn rle_run(out: &mut Vec<u8>, v: u16, count: usize, width: u8) {
    uleb(out, (count as u64) << 1);
    out.extend_from_slice(&u64::from(v).to_le_bytes()[..usize::from(width).div_ceil(8)]);
}

/// `DELTA_BINARY_PACKED` of `values`, in the arithmetic of the column's width (`wide`:
/// INT64, else INT32): deltas wrap as the reader's additions do, so a miniblock never needs
/// more bits than the type has.
pub(crate) fn delta_binary_packed(out: &mut Vec<u8>, values: &[i64], wide: bool) {
    const BLOCK: usize = 128;
    const MINIBLOCKS: usize = 4;
    const MINI: usize = BLOCK / MINIBLOCKS;
    uleb(out, BLOCK as u64);
    uleb(out, MINIBLOCKS as u64);
    uleb(out, values.len() as u64);
    let Some(&first) = values.first() else {
        zigzag(out, 0);
        return;
    };
    zigzag(out, first);
    let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
    let mut deltas = [0i64; BLOCK];
    let mut prev = first;
    for block in values[1..].chunks(BLOCK) {
        let mut min = i64::MAX;
        for (d, &v) in deltas.iter_mut().zip(block) {
            *d = if wide {
                v.wrapping_sub(prev)
            } else {
                i64::from((v as i32).wrapping_sub(prev as i32))
            };
            min = min.min(*d);
            prev = v;
        }
        zigzag(out, min);
        let used = block.len().div_ceil(MINI);
        let mut widths = [0u8; MINIBLOCKS];
        for (m, w) in widths.iter_mut().enumerate().take(used) {
            let part = &deltas[m * MINI..(m * MINI + MINI).min(block.len())];
            // The OR has the highest bit of the largest (an unsigned max is a compare and
            // select per value, which baseline x86-64 does not vectorize for 64 bits).
            let any = part
                .iter()
                .fold(0u64, |acc, d| acc | ((d.wrapping_sub(min) as u64) & mask));
            *w = bit_width(any);
        }
        out.extend_from_slice(&widths);
        for (m, &w) in widths.iter().enumerate().take(used) {
            let part = &deltas[m * MINI..(m * MINI + MINI).min(block.len())];
            // A short last miniblock is padded to its full count.
            let mut packed = [0u64; MINI];
            for (p, d) in packed.iter_mut().zip(part) {
                *p = (d.wrapping_sub(min) as u64) & mask;
            }
            pack_groups(out, &packed, w);
        }
    }
}

/// Booleans bit-packed, LSB first (Parquet's PLAIN for BOOLEAN).
pub(crate) fn plain_bools(out: &mut Vec<u8>, values: &[bool]) {
    for chunk in values.chunks(8) {
        let mut b = 0u8;
        for (k, v) in chunk.iter().enumerate() {
            b |= u8::from(*v) << k;
        }
        out.push(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a ULEB128 off the front of `d`.
    fn uleb(d: &mut &[u8]) -> u64 {
        let mut v = 0u64;
        let mut s = 0;
        loop {
            let b = d[0];
            *d = &d[1..];
            v |= u64::from(b & 0x7f) << s;
            s += 7;
            if b < 0x80 {
                return v;
            }
        }
    }

    /// The `k`th value of `width` bits bit-packed LSB first in `packed`.
    fn unpack(packed: &[u8], k: usize, width: usize) -> u64 {
        let mut v = 0u64;
        for b in 0..width {
            let bit = k * width + b;
            v |= u64::from((packed[bit / 8] >> (bit % 8)) & 1) << b;
        }
        v
    }

    /// A reader of the hybrid, for the tests (the writer's contract, independently stated).
    fn read_hybrid(mut data: &[u8], width: u8, n: usize) -> Vec<u64> {
        let mut out = Vec::new();
        while out.len() < n {
            let h = uleb(&mut data);
            if h & 1 == 1 {
                let count = (h >> 1) as usize * 8;
                let bytes = count * usize::from(width) / 8;
                let (packed, rest) = data.split_at(bytes);
                out.extend((0..count).map(|k| unpack(packed, k, usize::from(width))));
                data = rest;
            } else {
                let nb = usize::from(width).div_ceil(8);
                let mut x = [0u8; 8];
                x[..nb].copy_from_slice(&data[..nb]);
                data = &data[nb..];
                out.extend(std::iter::repeat_n(
                    u64::from_le_bytes(x),
                    (h >> 1) as usize,
                ));
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn the_hybrid_round_trips_runs_and_literals() {
        let mut v: Vec<u32> = vec![1, 2, 3];
        v.extend(std::iter::repeat_n(5, 20));
        v.extend([0, 7, 7, 1, 6]);
        v.extend(std::iter::repeat_n(4, 9));
        v.push(3);
        for width in [3u8, 9, 17] {
            let mut out = Vec::new();
            rle_hybrid(&mut out, &v, width);
            let back = read_hybrid(&out, width, v.len());
            assert_eq!(back, v.iter().map(|x| u64::from(*x)).collect::<Vec<_>>());
        }
    }

    /// The hybrid as it was written before `next_run`: every maximal run of equal values
    /// visited in turn (the reference the faster scan must match byte for byte).
    fn hybrid_run_by_run(values: &[u16], width: u8) -> Vec<u8> {
        let mut out = Vec::new();
        let n = values.len();
        let value_bytes = usize::from(width).div_ceil(8);
        let run = |out: &mut Vec<u8>, v: u16, count: usize| {
            uleb_out(out, (count as u64) << 1);
            out.extend_from_slice(&u64::from(v).to_le_bytes()[..value_bytes]);
        };
        let literals = |out: &mut Vec<u8>, from: usize, to: usize| {
            if from < to {
                uleb_out(out, ((to - from).div_ceil(8) as u64) << 1 | 1);
                pack_groups(out, &values[from..to], width);
            }
        };
        if n == 0 {
            return out;
        }
        if run_end(values, 0) == n {
            run(&mut out, values[0], n);
            return out;
        }
        let (mut lit, mut i) = (0, 0);
        while i < n {
            let j = run_end(values, i);
            let len = j - i;
            if len >= 8 {
                let lend = (8 - (i - lit) % 8) % 8;
                if len - lend >= 8 {
                    literals(&mut out, lit, i + lend);
                    run(&mut out, values[i], len - lend);
                    lit = j;
                }
            }
            i = j;
        }
        literals(&mut out, lit, n);
        out
    }

    fn uleb_out(out: &mut Vec<u8>, v: u64) {
        super::uleb(out, v);
    }

    #[test]
    fn the_hybrid_finds_the_runs_a_run_by_run_scan_finds() {
        // Levels-like sequences: runs of every length 1-150 of a few values, runs of 7, 8
        // and 9 at every offset from a word's start, pages of 1 to 700 values.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for case in 0..3000 {
            let n = (next() % 700) as usize + 1;
            let max_run = [2u64, 9, 12, 150][case % 4];
            let mut v = Vec::with_capacity(n);
            while v.len() < n {
                let value = (next() % 3) as u16;
                let len = (next() % max_run) as usize + 1;
                v.extend(std::iter::repeat_n(value, len.min(n - v.len())));
            }
            for width in [2u8, 9] {
                let mut out = Vec::new();
                rle_hybrid(&mut out, &v, width);
                assert_eq!(out, hybrid_run_by_run(&v, width), "case {case}: {v:?}");
                assert_eq!(
                    read_hybrid(&out, width, n),
                    v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>()
                );
            }
        }
        for at in 0..80 {
            for len in [7usize, 8, 9, 64, 65] {
                let mut v: Vec<u16> = (0..200).map(|k| (k % 2) as u16).collect();
                v[at..at + len].fill(3);
                let mut out = Vec::new();
                rle_hybrid(&mut out, &v, 2);
                assert_eq!(out, hybrid_run_by_run(&v, 2), "run of {len} at {at}");
            }
        }
    }

    #[test]
    fn literals_of_every_width_round_trip() {
        // Bit packing stores whole words and cuts the slack: every width, group counts that
        // end short, after bytes already in the buffer.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for width in 1u8..=64 {
            for n in [1usize, 7, 8, 9, 23, 64] {
                let mask = if width == 64 {
                    u64::MAX
                } else {
                    (1 << width) - 1
                };
                let v: Vec<u64> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x & mask
                    })
                    .collect();
                let mut out = vec![0xAA; 3];
                rle_hybrid(&mut out, &v, width);
                assert_eq!(&out[..3], &[0xAA; 3]);
                assert_eq!(
                    read_hybrid(&out[3..], width, n),
                    v,
                    "width {width}, {n} values"
                );
            }
        }
    }

    #[test]
    fn delta_packs_what_a_reader_adds_back() {
        // A DELTA_BINARY_PACKED reader, for the test: header, then blocks of min delta,
        // miniblock widths and packed miniblocks.
        fn read(data: &[u8]) -> Vec<i64> {
            let mut d = data;
            let zz = |u: u64| ((u >> 1) as i64) ^ -((u & 1) as i64);
            let (block, minis, n) = (uleb(&mut d), uleb(&mut d), uleb(&mut d) as usize);
            let mini = (block / minis) as usize;
            let mut out = vec![zz(uleb(&mut d))];
            while out.len() < n {
                let min = zz(uleb(&mut d));
                let widths: Vec<u8> = d[..minis as usize].to_vec();
                d = &d[minis as usize..];
                for w in widths {
                    if out.len() >= n {
                        break;
                    }
                    let bytes = mini * usize::from(w) / 8;
                    for k in 0..mini {
                        let v = unpack(d, k, usize::from(w));
                        if out.len() < n {
                            let last = *out.last().unwrap();
                            out.push(last.wrapping_add(min).wrapping_add(v as i64));
                        }
                    }
                    d = &d[bytes..];
                }
            }
            out
        }
        let mut v: Vec<i64> = (0..1000)
            .map(|i| 1_700_000_000_000_000_000 + i * 37)
            .collect();
        v.extend([i64::MIN, i64::MAX, 0, -5, 3]);
        v.extend((0..300).map(|i| (i * i) % 1013));
        let mut out = Vec::new();
        delta_binary_packed(&mut out, &v, true);
        assert_eq!(read(&out), v);
    }

    #[test]
    fn bit_widths() {
        assert_eq!(bit_width(0), 0);
        assert_eq!(bit_width(1), 1);
        assert_eq!(bit_width(255), 8);
        assert_eq!(bit_width(256), 9);
    }
}
