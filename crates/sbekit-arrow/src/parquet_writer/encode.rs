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
            out.extend_from_slice(&acc.to_le_bytes()[..w]);
        } else {
            let mut acc: u128 = 0;
            let mut bits = 0;
            for x in g {
                acc |= u128::from(x) << bits;
                bits += w;
                if bits >= 64 {
                    out.extend_from_slice(&(acc as u64).to_le_bytes());
                    acc >>= 64;
                    bits -= 64;
                }
            }
            out.extend_from_slice(&(acc as u64).to_le_bytes()[..bits / 8]);
        }
    }
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
    while i < n {
        let v = values[i];
        let j = run_end(values, i);
        let len = j - i;
        if len >= 8 {
            // Literal groups hold multiples of eight: the run lends the pending ones its
            // first values, and what is left, if still a run, is run-length encoded.
            let lend = (8 - (i - lit) % 8) % 8;
            if len - lend >= 8 {
                literals(out, lit, i + lend);
                run(out, v, len - lend);
                lit = j;
            }
        }
        i = j;
    }
    literals(out, lit, n);
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
            let max = part
                .iter()
                .map(|d| (d.wrapping_sub(min) as u64) & mask)
                .max()
                .unwrap_or(0);
            *w = bit_width(max);
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

    /// A reader of the hybrid, for the tests (the writer's contract, independently stated).
    fn read_hybrid(mut data: &[u8], width: u8, n: usize) -> Vec<u64> {
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
        let mut out = Vec::new();
        while out.len() < n {
            let h = uleb(&mut data);
            if h & 1 == 1 {
                let count = (h >> 1) as usize * 8;
                let bytes = count * usize::from(width) / 8;
                let (packed, rest) = data.split_at(bytes);
                for k in 0..count {
                    let mut v = 0u64;
                    for b in 0..usize::from(width) {
                        let bit = k * usize::from(width) + b;
                        v |= u64::from((packed[bit / 8] >> (bit % 8)) & 1) << b;
                    }
                    out.push(v);
                }
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

    #[test]
    fn bit_widths() {
        assert_eq!(bit_width(0), 0);
        assert_eq!(bit_width(1), 1);
        assert_eq!(bit_width(255), 8);
        assert_eq!(bit_width(256), 9);
    }
}
