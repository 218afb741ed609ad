//! A fast reader of trade CSV: one pass over the bytes that splits and parses at once.
//!
//! Rows in the standard column order ([`csvio::HEADER`]) with plain fields are parsed straight
//! from the read buffer: integers eight digits at a time (SWAR), decimals by Clinger's exact
//! fast path, names by comparing a few bytes. Any row the fast path does not handle (quoted
//! fields, exponents, bad values, other column orders) goes through the `csv` crate and
//! [`Columns::parse`], so results and error messages are the same either way; the fast path
//! only ever says "not mine", never "bad". Quoted fields may not span lines.

use crate::codec::{Currency, Exchange, Side};
use crate::csvio::{self, Columns};
use crate::error::{Error, Result};
use crate::trade::{RawTrade, Trade};
use std::io::Read;

const BUF: usize = 1 << 20;
const MAX_LINE: usize = 64 << 20;

/// Reads trades from CSV text, a row at a time.
pub struct TradeReader<R: Read> {
    inner: R,
    name: String,
    buf: Vec<u8>,
    /// Next unread byte.
    pos: usize,
    /// End of the last complete line in `buf`.
    complete: usize,
    /// End of the data in `buf`.
    filled: usize,
    eof: bool,
    /// Line number of the next line.
    line: u64,
    /// Bytes consumed before `buf[0]`.
    base: u64,
    cols: Columns,
    standard: bool,
    exchanges: NameTable,
    currencies: NameTable,
}

/// Up to 8 bytes as a little-endian integer (the lookup key of a short name).
fn key(b: &[u8]) -> Option<u64> {
    if b.is_empty() || b.len() > 8 {
        return None;
    }
    let mut k = [0u8; 8];
    k[..b.len()].copy_from_slice(b);
    Some(u64::from_le_bytes(k))
}

/// Names (of at most 8 bytes) to raw codes by a perfect hash: one multiply, one load, one
/// compare, no data-dependent branch.
struct NameTable {
    mul: u64,
    slots: [(u64, u8); 64],
}

impl NameTable {
    const EMPTY: u64 = u64::MAX;

    fn new(names: Vec<(&str, u8)>) -> Self {
        let keys: Vec<(u64, u8)> = names
            .iter()
            .filter_map(|(n, c)| Some((key(n.as_bytes())?, *c)))
            .collect();
        // Find a multiplier that sends every key to its own slot (a few tries at most for a
        // dozen keys in 64 slots); fall back to the last one tried, with lookups then
        // missing some names, which only sends their rows down the slow path.
        let mut mul = 0x9E37_79B9_7F4A_7C15u64;
        let mut slots = [(Self::EMPTY, 0u8); 64];
        for _ in 0..10_000 {
            slots = [(Self::EMPTY, 0u8); 64];
            let mut ok = true;
            for &(k, c) in &keys {
                let i = (k.wrapping_mul(mul) >> 58) as usize;
                if slots[i].0 != Self::EMPTY {
                    ok = false;
                    break;
                }
                slots[i] = (k, c);
            }
            if ok {
                break;
            }
            mul = mul
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407)
                | 1;
        }
        NameTable { mul, slots }
    }

    /// The code of the name whose [`key`] is `k`.
    #[inline(always)]
    fn get(&self, k: u64) -> Option<u8> {
        let (sk, c) = self.slots[(k.wrapping_mul(self.mul) >> 58) as usize];
        (sk == k).then_some(c)
    }
}

const SIDE_BID: u32 = u32::from_le_bytes(*b"bid,");
const SIDE_ASK: u32 = u32::from_le_bytes(*b"ask,");
const SIDE_NA: u32 = u32::from_le_bytes(*b"na,\0");

/// Per-byte flags (high nibble set) for bytes of `x` that are not ASCII digits.
#[inline(always)]
fn non_digits(x: u64) -> u64 {
    const HI: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    ((x & HI) ^ ZEROS) | ((x.wrapping_add(0x0606_0606_0606_0606) & HI) ^ ZEROS)
}

/// The value of the first `n` (1..=8) digit bytes of `x` (first byte most significant).
#[inline(always)]
fn digits_value(x: u64, n: u32) -> u64 {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    let d = x.wrapping_sub(ZEROS);
    // Keep the n digit bytes and move them to the top: the bytes below become leading zeros.
    let d = if n >= 8 { d } else { d << (8 * (8 - n)) };
    let v = d.wrapping_mul(10).wrapping_add(d >> 8);
    let lo = (v & 0x0000_00FF_0000_00FF).wrapping_mul(100 + (1_000_000 << 32));
    let hi = ((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32));
    lo.wrapping_add(hi) >> 32
}

const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// 10^0 ..= 10^19.
const POW10_U64_ALL: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A cursor over `b` (which may extend past the current line; `end` bounds the line).
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    end: usize,
}

impl Cursor<'_> {
    /// Digits at the cursor: (value, count); at most 19 digits (else `None`).
    #[inline(always)]
    fn digits(&mut self) -> Option<(u64, u32)> {
        let (mut v, mut count) = (0u64, 0u32);
        loop {
            let chunk = self.b.get(self.i..).and_then(|s| s.first_chunk::<8>());
            let (x, avail) = match chunk {
                Some(c) => (u64::from_le_bytes(*c), 8),
                None => {
                    // Near the end of the buffer: pad with a non-digit.
                    let rest = self.b.get(self.i..).unwrap_or(&[]);
                    let mut k = [b','; 8];
                    k[..rest.len()].copy_from_slice(rest);
                    (u64::from_le_bytes(k), rest.len() as u32)
                }
            };
            let n = (non_digits(x).trailing_zeros() / 8).min(avail);
            if n == 0 {
                break;
            }
            v = v
                .wrapping_mul(POW10_U64[n as usize])
                .wrapping_add(digits_value(x, n));
            count += n;
            self.i += n as usize;
            if count > 19 {
                return None;
            }
            if n < 8 {
                break;
            }
        }
        (self.i <= self.end).then_some((v, count))
    }

    #[inline(always)]
    fn comma(&mut self) -> Option<()> {
        if self.i < self.end && self.b.get(self.i) == Some(&b',') {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    /// An unsigned integer field and its comma.
    #[inline(always)]
    fn u64_field(&mut self) -> Option<u64> {
        let (v, n) = self.digits()?;
        if n == 0 {
            return None;
        }
        self.comma()?;
        Some(v)
    }

    /// A `digits[.digits]` field and its comma, by the exact fast path.
    #[inline(always)]
    fn f64_field(&mut self) -> Option<f64> {
        let (int, ni) = self.digits()?;
        let (mut m, mut frac, mut total) = (int, 0u32, ni);
        if self.i < self.end && self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            let (f, nf) = self.digits()?;
            total += nf;
            if total > 19 {
                return None;
            }
            m = int
                .checked_mul(*POW10_U64_ALL.get(nf as usize)?)?
                .checked_add(f)?;
            frac = nf;
        }
        if total == 0 || total > 19 || m > 1 << 53 {
            return None;
        }
        self.comma()?;
        Some(m as f64 / *POW10_F64.get(frac as usize)?)
    }

    /// Bytes up to the next comma (exclusive), consuming the comma.
    #[inline(always)]
    fn word(&mut self, max: usize) -> Option<&[u8]> {
        let start = self.i;
        let limit = (start + max + 1).min(self.end);
        let rel = self.b.get(start..limit)?.iter().position(|&c| c == b',')?;
        self.i = start + rel + 1;
        self.b.get(start..start + rel)
    }
}

impl<R: Read> TradeReader<R> {
    /// Reads the header line of `inner` (named `name` in errors).
    pub fn new(inner: R, name: &str) -> Result<Self> {
        let mut r = TradeReader {
            inner,
            name: name.to_string(),
            buf: vec![0u8; BUF],
            pos: 0,
            complete: 0,
            filled: 0,
            eof: false,
            line: 1,
            base: 0,
            cols: Columns::standard(),
            standard: true,
            exchanges: NameTable::new(
                Exchange::ALL
                    .iter()
                    .filter_map(|e| Some((e.name()?, e.to_raw())))
                    .collect(),
            ),
            currencies: NameTable::new(
                Currency::ALL
                    .iter()
                    .filter_map(|c| Some((c.name()?, c.to_raw())))
                    .collect(),
            ),
        };
        let Some((line, start, end)) = r.next_line()? else {
            return Err(r.bad(
                1,
                format!("empty input: expected a header line '{}'", csvio::HEADER),
            ));
        };
        let text = r.buf[start..end].to_vec();
        let fields = split_line(&text).map_err(|e| r.bad(line, e))?;
        let refs: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
        r.cols = Columns::from_header(&refs).map_err(|e| r.bad(line, e))?;
        r.standard = r.cols == Columns::standard();
        Ok(r)
    }

    fn bad(&self, line: u64, reason: String) -> Error {
        Error::BadRow {
            path: self.name.clone(),
            line,
            reason,
        }
    }

    /// Bytes of input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Makes sure `buf[pos..complete]` holds at least one complete line, unless at the end.
    fn fill(&mut self) -> Result<()> {
        while self.pos >= self.complete && !self.eof {
            // Move the partial line to the front and read more.
            self.buf.copy_within(self.pos..self.filled, 0);
            self.base += self.pos as u64;
            self.filled -= self.pos;
            self.complete = 0;
            self.pos = 0;
            if self.filled == self.buf.len() {
                if self.buf.len() >= MAX_LINE {
                    return Err(self.bad(self.line, format!("line longer than {MAX_LINE} bytes")));
                }
                self.buf.resize(self.buf.len() * 2, 0);
            }
            let n = loop {
                match self.inner.read(&mut self.buf[self.filled..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        return Err(Error::Io {
                            path: self.name.clone(),
                            source: e,
                        })
                    }
                }
            };
            if n == 0 {
                self.eof = true;
                self.complete = self.filled;
            } else {
                let start = self.filled;
                self.filled += n;
                if let Some(nl) = self.buf[start..self.filled]
                    .iter()
                    .rposition(|&c| c == b'\n')
                {
                    self.complete = start + nl + 1;
                }
            }
        }
        Ok(())
    }

    /// The next non-blank line (without its line ending): its number and byte range in `buf`.
    fn next_line(&mut self) -> Result<Option<(u64, usize, usize)>> {
        loop {
            self.fill()?;
            if self.pos >= self.complete {
                return Ok(None);
            }
            let rest = &self.buf[self.pos..self.complete];
            let len = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            let start = self.pos;
            self.pos += (len + 1).min(rest.len());
            let line = self.line;
            self.line += 1;
            let mut end = start + len;
            if end > start && self.buf[end - 1] == b'\r' {
                end -= 1;
            }
            if end > start {
                return Ok(Some((line, start, end)));
            }
        }
    }

    /// Looks up the name `buf[start..end]` (loaded as one 8-byte word when the buffer
    /// allows, so no copy).
    #[inline(always)]
    fn lookup(table: &NameTable, buf: &[u8], start: usize, end: usize) -> Option<u8> {
        let len = end.checked_sub(start)?;
        if len == 0 || len > 8 {
            return None;
        }
        let k = match buf.get(start..).and_then(|s| s.first_chunk::<8>()) {
            Some(w) => u64::from_le_bytes(*w) & (u64::MAX >> (64 - 8 * len)),
            None => key(buf.get(start..end)?)?,
        };
        table.get(k)
    }

    /// The fast path over the line starting at `start`: the trade and where the next line
    /// starts, or `None` when it does not apply.
    #[inline(always)]
    fn fast(&self, start: usize) -> Option<(RawTrade, usize)> {
        let buf = &self.buf[..self.filled];
        let mut c = Cursor {
            b: buf,
            i: start,
            end: self.complete,
        };
        let time = c.u64_field()?;
        let amount = c.f64_field()?;
        let e0 = c.i;
        c.word(8)?;
        let exchange = Self::lookup(&self.exchanges, buf, e0, c.i - 1)?;
        let price = c.f64_field()?;
        let server_time = c.u64_field()?;
        // Side without a data-dependent branch: bid and ask are equally common.
        let w = u32::from_le_bytes(*buf.get(c.i..)?.first_chunk::<4>()?);
        let (bid, ask, na) = (w == SIDE_BID, w == SIDE_ASK, w & 0x00FF_FFFF == SIDE_NA);
        if !(bid | ask | na) || c.i + 3 >= self.complete {
            return None;
        }
        let side = u8::from(bid) * Side::Bid.to_raw()
            + u8::from(ask) * Side::Ask.to_raw()
            + u8::from(na) * Side::None.to_raw();
        c.i += 3 + usize::from(bid | ask);
        // The ticker runs to the newline, which is before `complete` in a complete line.
        let t0 = c.i;
        let tail = buf.get(t0..self.complete)?;
        let nl = tail.iter().take(20).position(|&b| b == b'\n')?;
        let mut t1 = t0 + nl;
        if nl > 0 && buf[t1 - 1] == b'\r' {
            t1 -= 1;
        }
        let us = buf.get(t0..t1)?.iter().position(|&b| b == b'_')? + t0;
        let base = Self::lookup(&self.currencies, buf, t0, us)?;
        let quote = Self::lookup(&self.currencies, buf, us + 1, t1)?;
        Some((
            RawTrade {
                time,
                amount,
                price,
                server_time,
                exchange,
                base,
                quote,
                side,
            },
            t0 + nl + 1,
        ))
    }

    /// The next row: `Ok(None)` at the end of the input, else its line number and the trade
    /// or why the row is not one. I/O errors are `Err`.
    #[inline]
    pub fn next_row(&mut self) -> Result<Option<(u64, std::result::Result<Trade, String>)>> {
        Ok(self
            .next_raw()?
            .map(|(line, r)| (line, r.map(|t| t.trade()))))
    }

    /// [`Self::next_row`] with the codes left raw (see [`RawTrade`]).
    #[inline]
    pub fn next_raw(&mut self) -> Result<Option<(u64, std::result::Result<RawTrade, String>)>> {
        if self.pos >= self.complete {
            self.fill()?;
        }
        if self.standard && self.pos < self.complete {
            if let Some((t, next)) = self.fast(self.pos) {
                self.pos = next;
                let line = self.line;
                self.line += 1;
                return Ok(Some((line, Ok(t))));
            }
        }
        let cols = self.cols;
        match self.next_line()? {
            None => Ok(None),
            Some((line, start, end)) => Ok(Some((
                line,
                split_line(&self.buf[start..end])
                    .and_then(|f| cols.parse_fields(&f))
                    .map(|t| RawTrade::from(&t)),
            ))),
        }
    }
}

/// Splits one line with the `csv` crate (quotes and all).
fn split_line(text: &[u8]) -> std::result::Result<Vec<Vec<u8>>, String> {
    if text.iter().filter(|&&c| c == b'"').count() % 2 != 0 {
        return Err("unbalanced quotes (quoted fields cannot span lines)".into());
    }
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text);
    let mut rec = csv::ByteRecord::new();
    match rdr.read_byte_record(&mut rec) {
        Ok(true) => Ok(rec.iter().map(<[u8]>::to_vec).collect()),
        Ok(false) => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read CSV: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<(u64, std::result::Result<Trade, String>)> {
        let mut r = TradeReader::new(text.as_bytes(), "t.csv").unwrap();
        let mut out = Vec::new();
        while let Some(x) = r.next_row().unwrap() {
            out.push(x);
        }
        out
    }

    fn slow(line: &str) -> std::result::Result<Trade, String> {
        split_line(line.as_bytes()).and_then(|f| Columns::standard().parse_fields(&f))
    }

    #[test]
    fn fast_and_slow_paths_agree() {
        let rows = [
            "1527811200123456789,0.015,bmex,7512.5,1527811200100000000,ask,btc_usd",
            "1,1,gdax,1,0,na,eth_btc",
            "12345678,123456789.123456789,krkn,0.000000001,99999999,bid,xrp_usd",
            "1,1.5e3,gdax,1,0,na,btc_usd",
            "1,\"1.5\",\"gdax\",1,0,na,btc_usd",
            "1,1,gdax,1,0,na,btc_usd,extra",
            "1,1,gdax,1,0,na",
            "1,1,nyse,1,0,na,btc_usd",
            "1,1,gdax,1,0,buy,btc_usd",
            "1,1,gdax,1,0,na,btc_doge",
            "1,1,gdax,1,0,na,btcusd",
            "x,1,gdax,1,0,na,btc_usd",
            "99999999999999999999,1,gdax,1,0,na,btc_usd",
            "18446744073709551615,1,gdax,1,18446744073709551615,na,btc_usd",
            "1,9007199254740993,gdax,1,0,na,btc_usd",
            "1,0.12345678901234567891,gdax,1,0,na,btc_usd",
            "1,-1,gdax,1,0,na,btc_usd",
            "1,,gdax,1,0,na,btc_usd",
            "1,1.,gdax,.5,0,na,btc_usd",
            "1,1..2,gdax,1,0,na,btc_usd",
            "1,1,gdax,1,0,na,btc_usd\r",
            "1,1,gdax,1,0,\"unbalanced,btc_usd",
        ];
        let text = format!("{}\n{}\n", csvio::HEADER, rows.join("\n"));
        let got = all(&text);
        assert_eq!(got.len(), rows.len());
        for ((line, g), (i, row)) in got.iter().zip(rows.iter().enumerate()) {
            assert_eq!(*line, i as u64 + 2);
            let want = if row.contains("\"unbalanced") {
                Err("unbalanced quotes (quoted fields cannot span lines)".to_string())
            } else {
                slow(row.trim_end_matches('\r'))
            };
            match (g, &want) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.time, b.time, "{row}");
                    assert_eq!(a.amount.to_bits(), b.amount.to_bits(), "{row}");
                    assert_eq!(a.price.to_bits(), b.price.to_bits(), "{row}");
                    assert_eq!(a, b, "{row}");
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{row}"),
                _ => panic!("{row}: {g:?} vs {want:?}"),
            }
        }
    }

    #[test]
    fn line_numbers_blank_lines_and_crlf() {
        let text = format!(
            "{}\r\n\r\n1,1,gdax,1,0,na,btc_usd\r\n\n2,1,gdax,1,0,oops,btc_usd\n3,1,gdax,1,0,na,btc_usd",
            csvio::HEADER
        );
        let got = all(&text);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].0, 3);
        assert!(got[0].1.is_ok());
        assert_eq!(got[1].0, 5);
        assert!(got[1].1.as_ref().unwrap_err().contains("side: 'oops'"));
        assert_eq!(got[2].0, 6, "last line without a newline");
        assert_eq!(got[2].1.as_ref().unwrap().time, 3);
    }

    #[test]
    fn other_column_orders_use_the_slow_path() {
        let text = "ticker,time,exch,amount,price,side,server_time\nbtc_usd,5,bmex,2,3,ask,0\n";
        let got = all(text);
        let t = got[0].1.as_ref().unwrap();
        assert_eq!((t.time, t.amount, t.price), (5, 2.0, 3.0));
    }

    #[test]
    fn long_input_across_buffer_refills() {
        let mut text = format!("{}\n", csvio::HEADER);
        let n = 60_000;
        for i in 0..n {
            text.push_str(&format!(
                "{i},0.{i},okex,{}.25,{},bid,eth_usd\n",
                i * 3,
                i * 7
            ));
        }
        let got = all(&text);
        assert_eq!(got.len(), n);
        for (i, (line, t)) in got.iter().enumerate() {
            let t = t.as_ref().unwrap();
            assert_eq!(*line, i as u64 + 2);
            assert_eq!(t.time, i as u64);
            assert_eq!(t.amount, format!("0.{i}").parse::<f64>().unwrap());
            assert_eq!(t.price, (i * 3) as f64 + 0.25);
            assert_eq!(t.server_time, (i > 0).then_some(i as u64 * 7));
        }
    }

    #[test]
    fn name_tables_are_perfect() {
        let r = TradeReader::new(csvio::HEADER.as_bytes(), "t").unwrap();
        for e in Exchange::ALL {
            let k = key(e.name().unwrap().as_bytes()).unwrap();
            assert_eq!(r.exchanges.get(k), Some(e.to_raw()));
        }
        for c in Currency::ALL {
            let k = key(c.name().unwrap().as_bytes()).unwrap();
            assert_eq!(r.currencies.get(k), Some(c.to_raw()));
        }
        assert_eq!(r.exchanges.get(key(b"nyse").unwrap()), None);
        assert_eq!(r.currencies.get(key(b"btc").unwrap() ^ 1), None);
    }

    #[test]
    fn header_errors() {
        assert!(TradeReader::new(&b""[..], "e.csv")
            .err()
            .unwrap()
            .to_string()
            .contains("e.csv: line 1: empty input"));
        let e = TradeReader::new(&b"a,b\n1,2\n"[..], "h.csv").err().unwrap();
        assert!(
            e.to_string().contains("line 1: header lacks column(s)"),
            "{e}"
        );
    }
}
