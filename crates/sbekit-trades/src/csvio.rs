//! The CSV side: `time,amount,exch,price,server_time,side,ticker`, one trade per row.
//!
//! * `time`, `server_time`: nanoseconds since the Unix epoch as unsigned integers;
//!   `server_time` is `0` when the exchange sent none.
//! * `amount`, `price`: decimal numbers, finite and not negative.
//! * `exch`: one of the [`Exchange`] names (`gdax`, `bmex`, ...).
//! * `side`: `na`, `bid` or `ask`.
//! * `ticker`: `base_quote` with [`Currency`] names (`btc_usd`).
//!
//! Numbers are written back with Rust's shortest round-trip formatting, so a file written by
//! [`write_row`] (as `sbekit trades synth` does) survives CSV -> records -> CSV byte for byte.
//! Other spellings of the same values (`1.50`, `1.5e3`) come back in that canonical form.

use crate::codec::{Currency, Exchange, Side};
use crate::trade::Trade;
use std::io::Write;

/// The header line, in the column order [`write_row`] uses.
pub const HEADER: &str = "time,amount,exch,price,server_time,side,ticker";

/// Column names in [`HEADER`] order.
pub const COLUMNS: [&str; 7] = [
    "time",
    "amount",
    "exch",
    "price",
    "server_time",
    "side",
    "ticker",
];

/// Where each column is in the rows of one file (files may order columns differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    idx: [usize; 7],
    width: usize,
}

impl Columns {
    /// The columns named by a header row. Every name in [`COLUMNS`] must appear exactly once;
    /// other columns are ignored.
    pub fn from_header(fields: &[&[u8]]) -> Result<Self, String> {
        let mut idx = [usize::MAX; 7];
        for (i, f) in fields.iter().enumerate() {
            let name = trim(f);
            if let Some(c) = COLUMNS.iter().position(|c| c.as_bytes() == name) {
                if idx[c] != usize::MAX {
                    return Err(format!(
                        "column '{}' appears twice in the header",
                        COLUMNS[c]
                    ));
                }
                idx[c] = i;
            }
        }
        let missing: Vec<&str> = COLUMNS
            .iter()
            .zip(idx)
            .filter(|(_, i)| *i == usize::MAX)
            .map(|(c, _)| *c)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "header lacks column(s) {} (expected a header line like '{HEADER}')",
                missing.join(", ")
            ));
        }
        Ok(Columns {
            idx,
            width: fields.len(),
        })
    }

    /// The standard order of [`HEADER`].
    pub const fn standard() -> Self {
        Columns {
            idx: [0, 1, 2, 3, 4, 5, 6],
            width: 7,
        }
    }

    /// Parses one data row.
    pub fn parse(&self, rec: &csv::ByteRecord) -> Result<Trade, String> {
        self.parse_with(rec.len(), |i| rec.get(i).unwrap_or(b""))
    }

    /// Parses one data row given as its fields.
    pub fn parse_fields<F: AsRef<[u8]>>(&self, fields: &[F]) -> Result<Trade, String> {
        self.parse_with(fields.len(), |i| {
            fields.get(i).map_or(&b""[..], AsRef::as_ref)
        })
    }

    fn parse_with<'a>(
        &self,
        len: usize,
        field: impl Fn(usize) -> &'a [u8],
    ) -> Result<Trade, String> {
        if len != self.width {
            return Err(format!("expected {} fields, found {len}", self.width));
        }
        let f = |c: usize| field(self.idx[c]);
        let time = parse_u64(f(0)).map_err(|e| format!("time: {e}"))?;
        let amount = parse_f64(f(1)).map_err(|e| format!("amount: {e}"))?;
        let exchange = parse_exchange(f(2))?;
        let price = parse_f64(f(3)).map_err(|e| format!("price: {e}"))?;
        let server_time = parse_u64(f(4)).map_err(|e| format!("server_time: {e}"))?;
        let side = parse_side(f(5))?;
        let (base, quote) = parse_ticker(f(6))?;
        Ok(Trade {
            time,
            amount,
            exchange,
            price,
            server_time: (server_time != 0).then_some(server_time),
            side,
            base,
            quote,
        })
    }
}

fn trim(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

fn show(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    if s.chars().count() > 40 {
        format!("'{}...'", s.chars().take(40).collect::<String>())
    } else {
        format!("'{s}'")
    }
}

/// The value of 8 ASCII digits (the first one most significant), or `None` if any byte is
/// not a digit. Branch-free SWAR: all 8 bytes are checked and combined in a few integer
/// operations.
#[inline(always)]
fn eight_digits(chunk: [u8; 8]) -> Option<u64> {
    const HI: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    let x = u64::from_le_bytes(chunk);
    // Every byte is 0x30..=0x3F, and adding 6 does not leave that range: 0x30..=0x39.
    if x & HI != ZEROS || x.wrapping_add(0x0606_0606_0606_0606) & HI != ZEROS {
        return None;
    }
    let v = x - ZEROS; // one digit per byte, the first digit in the lowest byte
    let v = v.wrapping_mul(10).wrapping_add(v >> 8); // pairs: 10*d[2i] + d[2i+1] in byte 2i
    let lo = (v & 0x0000_00FF_0000_00FF).wrapping_mul(100 + (1_000_000 << 32));
    let hi = ((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32));
    Some(lo.wrapping_add(hi) >> 32)
}

/// An unsigned decimal integer (digits only, at most `u64::MAX`).
pub fn parse_u64(b: &[u8]) -> Result<u64, String> {
    // Up to 19 digits cannot overflow: take 8 digits at a time.
    if !b.is_empty() && b.len() <= 19 {
        let mut v = 0u64;
        let mut rest = b;
        while let Some((chunk, r)) = rest.split_first_chunk::<8>() {
            match eight_digits(*chunk) {
                Some(d) => v = v * 100_000_000 + d,
                None => return parse_u64_slow(b),
            }
            rest = r;
        }
        for &c in rest {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                return parse_u64_slow(b);
            }
            v = v * 10 + u64::from(d);
        }
        return Ok(v);
    }
    parse_u64_slow(b)
}

fn parse_u64_slow(b: &[u8]) -> Result<u64, String> {
    if b.is_empty() {
        return Err("empty".into());
    }
    let mut v: u64 = 0;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(format!("{} is not an unsigned integer", show(b)));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or_else(|| format!("{} is too large", show(b)))?;
    }
    Ok(v)
}

/// Exact powers of ten as f64 (10^22 is the largest that is exact).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `digits[.digits]` with a mantissa of at most 2^53 and at most 22 decimals, as the
/// correctly rounded f64: both the mantissa and the power of ten are exact doubles, and one
/// IEEE division rounds correctly (Clinger's fast path), so this equals what `str::parse`
/// gives. `None` for anything else (left to `str::parse`).
#[inline]
fn parse_f64_fast(b: &[u8]) -> Option<f64> {
    let (mut m, mut digits, mut frac, mut dot) = (0u64, 0u32, 0usize, false);
    for &c in b {
        if c == b'.' {
            if dot {
                return None;
            }
            dot = true;
            continue;
        }
        let d = c.wrapping_sub(b'0');
        if d > 9 || digits >= 19 {
            return None;
        }
        m = m * 10 + u64::from(d);
        digits += 1;
        frac += usize::from(dot);
    }
    if digits == 0 || m > 1 << 53 {
        return None;
    }
    Some(m as f64 / *POW10.get(frac)?)
}

/// A finite, non-negative decimal number.
pub fn parse_f64(b: &[u8]) -> Result<f64, String> {
    if let Some(v) = parse_f64_fast(b) {
        return Ok(v);
    }
    let s = std::str::from_utf8(b).map_err(|_| format!("{} is not a number", show(b)))?;
    if s.is_empty() {
        return Err("empty".into());
    }
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{} is not a number", show(b)))?;
    if !v.is_finite() {
        return Err(format!("{} is not finite", show(b)));
    }
    if v < 0.0 {
        return Err(format!("{} is negative", show(b)));
    }
    Ok(v)
}

/// An exchange by its name in the schema.
pub fn parse_exchange(b: &[u8]) -> Result<Exchange, String> {
    Exchange::ALL
        .into_iter()
        .find(|e| e.name().is_some_and(|n| n.as_bytes() == b))
        .ok_or_else(|| {
            format!(
                "exch: unknown exchange {} (known: {})",
                show(b),
                names(Exchange::ALL.iter().filter_map(|e| e.name()))
            )
        })
}

fn currency(b: &[u8]) -> Option<Currency> {
    Currency::ALL
        .into_iter()
        .find(|c| c.name().is_some_and(|n| n.as_bytes() == b))
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// A ticker `base_quote`.
pub fn parse_ticker(b: &[u8]) -> Result<(Currency, Currency), String> {
    let split = b.iter().position(|&c| c == b'_');
    let (base, quote) = match split {
        Some(i) => (&b[..i], &b[i + 1..]),
        None => {
            return Err(format!(
                "ticker: {} is not base_quote (like btc_usd)",
                show(b)
            ))
        }
    };
    let known = || names(Currency::ALL.iter().filter_map(|c| c.name()));
    let base = currency(base).ok_or_else(|| {
        format!(
            "ticker: unknown currency {} (known: {})",
            show(base),
            known()
        )
    })?;
    let quote = currency(quote).ok_or_else(|| {
        format!(
            "ticker: unknown currency {} (known: {})",
            show(quote),
            known()
        )
    })?;
    Ok((base, quote))
}

/// A side: `na`, `bid` or `ask`.
pub fn parse_side(b: &[u8]) -> Result<Side, String> {
    match b {
        b"na" => Ok(Side::None),
        b"bid" => Ok(Side::Bid),
        b"ask" => Ok(Side::Ask),
        _ => Err(format!("side: {} is not na, bid or ask", show(b))),
    }
}

/// The CSV spelling of a side.
pub fn side_name(s: Side) -> Option<&'static str> {
    match s {
        Side::None => Some("na"),
        Side::Bid => Some("bid"),
        Side::Ask => Some("ask"),
        _ => None,
    }
}

fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends one row (with its newline) in [`HEADER`] order. Fails only for codes that have no
/// name (a record holding an unknown exchange, currency or side).
pub fn write_row(out: &mut Vec<u8>, t: &Trade) -> Result<(), String> {
    let exch = t
        .exchange
        .name()
        .ok_or_else(|| format!("unknown exchange code {}", t.exchange.to_raw()))?;
    let base = t
        .base
        .name()
        .ok_or_else(|| format!("unknown currency code {}", t.base.to_raw()))?;
    let quote = t
        .quote
        .name()
        .ok_or_else(|| format!("unknown currency code {}", t.quote.to_raw()))?;
    let side = side_name(t.side).ok_or_else(|| format!("unknown side code {}", t.side.to_raw()))?;
    push_u64(out, t.time);
    out.push(b',');
    let _ = write!(out, "{}", t.amount);
    out.push(b',');
    out.extend_from_slice(exch.as_bytes());
    out.push(b',');
    let _ = write!(out, "{}", t.price);
    out.push(b',');
    push_u64(out, t.server_time.unwrap_or(0));
    out.push(b',');
    out.extend_from_slice(side.as_bytes());
    out.push(b',');
    out.extend_from_slice(base.as_bytes());
    out.push(b'_');
    out.extend_from_slice(quote.as_bytes());
    out.push(b'\n');
    Ok(())
}

/// A CSV reader set up for trade files (large buffer, rows may have any field count so that
/// the row parser can report a wrong count with its line).
pub fn reader<R: std::io::Read>(r: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .buffer_capacity(1 << 20)
        .from_reader(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(s: &str) -> csv::ByteRecord {
        let mut r = reader(s.as_bytes());
        let mut b = csv::ByteRecord::new();
        assert!(r.read_byte_record(&mut b).unwrap());
        b
    }

    #[test]
    fn parses_and_writes_a_row() {
        let line = "1527811200123456789,0.015,bmex,7512.5,1527811200100000000,ask,btc_usd\n";
        let t = Columns::standard().parse(&rec(line)).unwrap();
        assert_eq!(t.time, 1_527_811_200_123_456_789);
        assert_eq!(t.amount, 0.015);
        assert_eq!(t.exchange, Exchange::Bmex);
        assert_eq!(t.price, 7512.5);
        assert_eq!(t.server_time, Some(1_527_811_200_100_000_000));
        assert_eq!(t.side, Side::Ask);
        assert_eq!((t.base, t.quote), (Currency::Btc, Currency::Usd));
        let mut out = Vec::new();
        write_row(&mut out, &t).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), line);
    }

    #[test]
    fn integer_parsing_matches_std() {
        let cases = [
            "0",
            "7",
            "12345678",
            "123456789",
            "1527811200123456789",
            "9999999999999999999",
            "18446744073709551615",
            "00000000000000000001",
            "1234567a",
            "12345678a",
            "1a",
            "",
            "18446744073709551616",
            " 1",
            "+1",
            "-1",
            "12:45678",
            "1234/678",
        ];
        for c in cases {
            assert_eq!(
                parse_u64(c.as_bytes()).ok(),
                c.parse::<u64>().ok().filter(|_| !c.starts_with('+')),
                "{c:?}"
            );
        }
        use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256StarStar::seed_from_u64(1);
        for _ in 0..20_000 {
            let x = rng.next_u64();
            let v = x >> (x % 64);
            assert_eq!(parse_u64(v.to_string().as_bytes()), Ok(v));
        }
    }

    #[test]
    fn float_fast_path_matches_std() {
        let cases = [
            "0",
            "0.0",
            "1",
            "1.",
            ".5",
            "13500.01",
            "0.08807679",
            "0.00000001",
            "2.0001",
            "9007199254740993",
            "9007199254740992",
            "123456789.123456789",
            "1e5",
            "1E-3",
            "0.1234567890123456789012",
            "12345678901234567890",
            "1.2.3",
            ".",
            "",
            "abc",
            "inf",
            "-0",
            "-1.5",
            "0.3",
            "7512.5",
            "0.000000000000000000000001",
        ];
        for c in cases {
            let want = c.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
            let got = parse_f64(c.as_bytes()).ok();
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{c:?}");
        }
        use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
        let mut rng = rand_xoshiro::SplitMix64::seed_from_u64(0x2545_F491_4F6C_DD1D);
        for _ in 0..50_000 {
            let x = rng.next_u64();
            let m = x % (1 << 54);
            let d = (x >> 56) as usize % 24;
            let s = if d == 0 {
                m.to_string()
            } else {
                let t = format!("{m:0>width$}", width = d + 1);
                format!("{}.{}", &t[..t.len() - d], &t[t.len() - d..])
            };
            assert_eq!(
                parse_f64(s.as_bytes()).map(f64::to_bits),
                Ok(s.parse::<f64>().unwrap().to_bits()),
                "{s}"
            );
        }
    }

    #[test]
    fn header_may_reorder_columns() {
        let h = rec("ticker,side,server_time,price,exch,amount,time,extra\n");
        let fields: Vec<&[u8]> = h.iter().collect();
        let c = Columns::from_header(&fields).unwrap();
        let t = c.parse(&rec("eth_btc,na,0,0.07,gdax,2,100,x\n")).unwrap();
        assert_eq!(t.time, 100);
        assert_eq!(t.server_time, None);
        assert_eq!(t.side, Side::None);
        assert_eq!((t.base, t.quote), (Currency::Eth, Currency::Btc));
        let bad = rec("time,amount,exch,price,side,ticker\n");
        let fields: Vec<&[u8]> = bad.iter().collect();
        assert!(Columns::from_header(&fields)
            .unwrap_err()
            .contains("lacks column(s) server_time"));
    }

    #[test]
    fn bad_fields_are_named() {
        let c = Columns::standard();
        let cases = [
            (
                "x1,1,gdax,1,0,na,btc_usd",
                "time: 'x1' is not an unsigned integer",
            ),
            (
                "-1,1,gdax,1,0,na,btc_usd",
                "time: '-1' is not an unsigned integer",
            ),
            ("99999999999999999999,1,gdax,1,0,na,btc_usd", "too large"),
            ("1,abc,gdax,1,0,na,btc_usd", "amount: 'abc' is not a number"),
            ("1,1,gdax,inf,0,na,btc_usd", "price: 'inf' is not finite"),
            ("1,1,gdax,NaN,0,na,btc_usd", "price: 'NaN' is not finite"),
            ("1,-2,gdax,1,0,na,btc_usd", "amount: '-2' is negative"),
            ("1,1,nyse,1,0,na,btc_usd", "exch: unknown exchange 'nyse'"),
            (
                "1,1,gdax,1,0,buy,btc_usd",
                "side: 'buy' is not na, bid or ask",
            ),
            (
                "1,1,gdax,1,0,na,btcusd",
                "ticker: 'btcusd' is not base_quote",
            ),
            ("1,1,gdax,1,0,na,btc_doge", "unknown currency 'doge'"),
            ("1,1,gdax,1,0,na", "expected 7 fields, found 6"),
            ("1,,gdax,1,0,na,btc_usd", "amount: empty"),
        ];
        for (row, want) in cases {
            let e = c.parse(&rec(&format!("{row}\n"))).unwrap_err();
            assert!(e.contains(want), "{row}: got '{e}', want '{want}'");
        }
    }
}
