//! Hand-written, fixed-offset codecs for the two benchmark messages: the practical limit for
//! safe Rust (`from_le_bytes` / `copy_from_slice` at constant offsets, one bounds check per
//! variable-length part). They write exactly the bytes the generated encoders write.

/// Values of the `Car` benchmark message (`car.xml`).
#[derive(Debug, Clone, PartialEq)]
pub struct Car {
    /// `serialNumber`.
    pub serial_number: u32,
    /// `modelYear`.
    pub model_year: u16,
    /// `available` (raw).
    pub available: u8,
    /// `code` (raw).
    pub code: u8,
    /// `someNumbers`.
    pub some_numbers: [i32; 5],
    /// `vehicleCode`.
    pub vehicle_code: [u8; 6],
    /// `extras` (raw bits).
    pub extras: u8,
    /// `engine.capacity`.
    pub capacity: u16,
    /// `engine.numCylinders`.
    pub num_cylinders: u8,
    /// `engine.manufacturerCode`.
    pub manufacturer_code: [u8; 3],
    /// `fuelFigures`: speed, mpg.
    pub fuel: [(u16, f32); 3],
    /// `performanceFigures`: octane rating and 3 accelerations (mph, seconds).
    pub perf: [(u8, [(u16, f32); 3]); 2],
    /// `manufacturer`.
    pub manufacturer: &'static str,
    /// `model`.
    pub model: &'static str,
}

/// The values the reference benchmarks use.
pub const CAR: Car = Car {
    serial_number: 1234,
    model_year: 2013,
    available: 1,
    code: b'A',
    some_numbers: [0, 1, 2, 3, 4],
    vehicle_code: *b"abcdef",
    extras: 0b110,
    capacity: 2000,
    num_cylinders: 4,
    manufacturer_code: *b"123",
    fuel: [(30, 35.9), (55, 49.0), (75, 40.0)],
    perf: [
        (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
        (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
    ],
    manufacturer: "Honda",
    model: "Civic VTi",
};

/// Encodes `c` (3 fuel figures, 2 performance figures of 3 accelerations); `None` if `buf`
/// is too short.
#[inline]
pub fn encode_car(c: &Car, buf: &mut [u8]) -> Option<usize> {
    let fixed = 8 + 41 + 4 + 3 * 6 + 4 + 2 * (1 + 4 + 3 * 6);
    let total = fixed + 4 + c.manufacturer.len() + 4 + c.model.len();
    let b = buf.get_mut(..total)?;
    let (h, rest) = b.split_first_chunk_mut::<{ 8 + 41 + 4 + 3 * 6 + 4 }>()?;
    h[0..2].copy_from_slice(&41u16.to_le_bytes());
    h[2..4].copy_from_slice(&1u16.to_le_bytes());
    h[4..6].copy_from_slice(&1u16.to_le_bytes());
    h[6..8].copy_from_slice(&1u16.to_le_bytes());
    h[8..12].copy_from_slice(&c.serial_number.to_le_bytes());
    h[12..14].copy_from_slice(&c.model_year.to_le_bytes());
    h[14] = c.available;
    h[15] = c.code;
    for (i, n) in c.some_numbers.iter().enumerate() {
        h[16 + i * 4..20 + i * 4].copy_from_slice(&n.to_le_bytes());
    }
    h[36..42].copy_from_slice(&c.vehicle_code);
    h[42] = c.extras;
    h[43..45].copy_from_slice(&c.capacity.to_le_bytes());
    h[45] = c.num_cylinders;
    h[46..49].copy_from_slice(&c.manufacturer_code);
    h[49..51].copy_from_slice(&6u16.to_le_bytes());
    h[51..53].copy_from_slice(&3u16.to_le_bytes());
    for (i, (s, m)) in c.fuel.iter().enumerate() {
        let o = 53 + i * 6;
        h[o..o + 2].copy_from_slice(&s.to_le_bytes());
        h[o + 2..o + 6].copy_from_slice(&m.to_le_bytes());
    }
    h[71..73].copy_from_slice(&1u16.to_le_bytes());
    h[73..75].copy_from_slice(&2u16.to_le_bytes());
    let (p, rest) = rest.split_first_chunk_mut::<{ 2 * 23 }>()?;
    for (i, (o, acc)) in c.perf.iter().enumerate() {
        let e = i * 23;
        p[e] = *o;
        p[e + 1..e + 3].copy_from_slice(&6u16.to_le_bytes());
        p[e + 3..e + 5].copy_from_slice(&3u16.to_le_bytes());
        for (j, (mph, s)) in acc.iter().enumerate() {
            let a = e + 5 + j * 6;
            p[a..a + 2].copy_from_slice(&mph.to_le_bytes());
            p[a + 2..a + 6].copy_from_slice(&s.to_le_bytes());
        }
    }
    let m = c.manufacturer.as_bytes();
    let (l, rest) = rest.split_first_chunk_mut::<4>()?;
    *l = (m.len() as u32).to_le_bytes();
    let (d, rest) = rest.split_at_mut_checked(m.len())?;
    d.copy_from_slice(m);
    let m = c.model.as_bytes();
    let (l, rest) = rest.split_first_chunk_mut::<4>()?;
    *l = (m.len() as u32).to_le_bytes();
    rest.get_mut(..m.len())?.copy_from_slice(m);
    Some(total)
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(*b.get(o..)?.first_chunk()?))
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(*b.get(o..)?.first_chunk()?))
}

/// Decodes a Car written by [`encode_car`] and sums every field into a checksum (so the
/// optimiser cannot skip reads). Group counts and lengths are read from the buffer and
/// checked, as any real decoder must; block offsets are constants.
#[inline]
pub fn decode_car(buf: &[u8]) -> Option<u64> {
    let h = buf.first_chunk::<{ 8 + 41 }>()?;
    if u16_at(h, 2)? != 1 || u16_at(h, 4)? != 1 || u16_at(h, 0)? != 41 {
        return None;
    }
    let mut sum = u64::from(u32::from_le_bytes([h[8], h[9], h[10], h[11]]));
    sum += u64::from(u16::from_le_bytes([h[12], h[13]]));
    sum += u64::from(h[14]) + u64::from(h[15]);
    for i in 0..5 {
        let o = 16 + i * 4;
        sum += i32::from_le_bytes([h[o], h[o + 1], h[o + 2], h[o + 3]]) as u64;
    }
    sum += h[36..42].iter().map(|&x| u64::from(x)).sum::<u64>();
    sum += u64::from(h[42]);
    sum += u64::from(u16::from_le_bytes([h[43], h[44]])) + u64::from(h[45]);
    sum += h[46..49].iter().map(|&x| u64::from(x)).sum::<u64>();
    let mut p = 49;
    let bl = usize::from(u16_at(buf, p)?);
    let n = usize::from(u16_at(buf, p + 2)?);
    p += 4;
    let g = buf.get(p..p.checked_add(bl.checked_mul(n)?)?)?;
    for e in g.chunks_exact(bl.max(1)).take(n) {
        let e = e.first_chunk::<6>()?;
        sum += u64::from(u16::from_le_bytes([e[0], e[1]]));
        sum += u64::from(f32::from_le_bytes([e[2], e[3], e[4], e[5]]).to_bits());
    }
    p += bl * n;
    let bl = usize::from(u16_at(buf, p)?);
    let n = usize::from(u16_at(buf, p + 2)?);
    p += 4;
    for _ in 0..n {
        sum += u64::from(*buf.get(p)?);
        p += bl;
        let abl = usize::from(u16_at(buf, p)?);
        let an = usize::from(u16_at(buf, p + 2)?);
        p += 4;
        let g = buf.get(p..p.checked_add(abl.checked_mul(an)?)?)?;
        for e in g.chunks_exact(abl.max(1)).take(an) {
            let e = e.first_chunk::<6>()?;
            sum += u64::from(u16::from_le_bytes([e[0], e[1]]));
            sum += u64::from(f32::from_le_bytes([e[2], e[3], e[4], e[5]]).to_bits());
        }
        p += abl * an;
    }
    for _ in 0..2 {
        let l = u32_at(buf, p)? as usize;
        p += 4;
        let d = buf.get(p..p.checked_add(l)?)?;
        sum += d.len() as u64 + u64::from(*d.first().unwrap_or(&0));
        p += l;
    }
    Some(sum)
}

/// One entry of `MarketDataIncrementalRefreshTrades`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trade {
    /// `TradeId`.
    pub trade_id: u64,
    /// `SecurityId`.
    pub security_id: u64,
    /// `MdEntryPx.mantissa`.
    pub px: i64,
    /// `MdEntrySize.mantissa`.
    pub size: i32,
    /// `NumberOfOrders`.
    pub orders: u16,
    /// `MdUpdateAction` (raw).
    pub action: u8,
    /// `RptSeq`.
    pub rpt_seq: u8,
    /// `AggressorSide` (raw).
    pub side: u8,
}

/// The market data message of the benchmark: two trades.
#[derive(Debug, Clone, PartialEq)]
pub struct Md {
    /// `TransactTime`.
    pub transact_time: u64,
    /// `EventTimeDelta`.
    pub event_time_delta: u16,
    /// `MatchEventIndicator` (raw).
    pub match_event: u8,
    /// The entries.
    pub trades: [Trade; 2],
}

/// Values like the reference md benchmark's.
pub const MD: Md = Md {
    transact_time: 1234,
    event_time_delta: 0,
    match_event: b'3',
    trades: [
        Trade {
            trade_id: 1234,
            security_id: 56789,
            px: 50,
            size: 10,
            orders: 1,
            action: 0,
            rpt_seq: 1,
            side: b'1',
        },
        Trade {
            trade_id: 1234,
            security_id: 56789,
            px: 50,
            size: 10,
            orders: 1,
            action: 0,
            rpt_seq: 1,
            side: b'1',
        },
    ],
};

/// Encodes `m`; `None` if `buf` is too short.
#[inline]
pub fn encode_md(m: &Md, buf: &mut [u8]) -> Option<usize> {
    let b = buf.first_chunk_mut::<{ 8 + 11 + 4 + 2 * 33 }>()?;
    b[0..2].copy_from_slice(&11u16.to_le_bytes());
    b[2..4].copy_from_slice(&2u16.to_le_bytes());
    b[4..6].copy_from_slice(&1u16.to_le_bytes());
    b[6..8].copy_from_slice(&1u16.to_le_bytes());
    b[8..16].copy_from_slice(&m.transact_time.to_le_bytes());
    b[16..18].copy_from_slice(&m.event_time_delta.to_le_bytes());
    b[18] = m.match_event;
    b[19..21].copy_from_slice(&33u16.to_le_bytes());
    b[21..23].copy_from_slice(&2u16.to_le_bytes());
    for (i, t) in m.trades.iter().enumerate() {
        let o = 23 + i * 33;
        b[o..o + 8].copy_from_slice(&t.trade_id.to_le_bytes());
        b[o + 8..o + 16].copy_from_slice(&t.security_id.to_le_bytes());
        b[o + 16..o + 24].copy_from_slice(&t.px.to_le_bytes());
        b[o + 24..o + 28].copy_from_slice(&t.size.to_le_bytes());
        b[o + 28..o + 30].copy_from_slice(&t.orders.to_le_bytes());
        b[o + 30] = t.action;
        b[o + 31] = t.rpt_seq;
        b[o + 32] = t.side;
    }
    Some(8 + 11 + 4 + 2 * 33)
}

/// Decodes a market data message and sums every field.
#[inline]
pub fn decode_md(buf: &[u8]) -> Option<u64> {
    let h = buf.first_chunk::<{ 8 + 11 + 4 }>()?;
    if u16_at(h, 2)? != 2 || u16_at(h, 4)? != 1 || u16_at(h, 0)? != 11 {
        return None;
    }
    let mut sum = u64::from_le_bytes(*h[8..].first_chunk::<8>()?);
    sum += u64::from(u16::from_le_bytes([h[16], h[17]])) + u64::from(h[18]);
    let bl = usize::from(u16::from_le_bytes([h[19], h[20]]));
    let n = usize::from(u16::from_le_bytes([h[21], h[22]]));
    if bl < 33 {
        return None;
    }
    let g = buf.get(23..23usize.checked_add(bl.checked_mul(n)?)?)?;
    for e in g.chunks_exact(bl).take(n) {
        let e = e.first_chunk::<33>()?;
        sum += u64::from_le_bytes(*e[0..].first_chunk::<8>()?);
        sum += u64::from_le_bytes(*e[8..].first_chunk::<8>()?);
        sum += i64::from_le_bytes(*e[16..].first_chunk::<8>()?) as u64;
        sum += i32::from_le_bytes(*e[24..].first_chunk::<4>()?) as u64;
        sum += u64::from(u16::from_le_bytes([e[28], e[29]]));
        sum += u64::from(e[30]) + u64::from(e[31]) + u64::from(e[32]);
    }
    Some(sum)
}
