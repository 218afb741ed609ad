//! The reference tool's generated codecs driven like its own benchmarks do (shared by
//! `vs_reference.rs` and `cycles.rs`; built only by `scripts/reference-rust.sh`).
use sbekit_codegen_tests::handwritten::{Car, Md};

pub type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The reference encoder, used the way its own benchmark uses it.
pub fn encode_car(c: &Car, buf: &mut [u8]) -> Res<usize> {
    use uk_co_real_logic_sbe_benchmarks::car_codec::encoder::*;
    use uk_co_real_logic_sbe_benchmarks::*;
    let mut car = CarEncoder::default();
    car = car.wrap(WriteBuf::new(buf), message_header_codec::ENCODED_LENGTH);
    car = car.header(0).parent()?;
    car.serial_number(c.serial_number);
    car.model_year(c.model_year);
    car.available(boolean_type::BooleanType::from(c.available));
    car.code(model::Model::from(c.code));
    car.some_numbers(&c.some_numbers);
    car.vehicle_code(&c.vehicle_code);
    car.extras(optional_extras::OptionalExtras::new(c.extras));
    let mut engine = car.engine_encoder();
    engine.capacity(c.capacity);
    engine.num_cylinders(c.num_cylinders);
    engine.manufacturer_code(&c.manufacturer_code);
    car = engine.parent()?;
    let mut fuel = car.fuel_figures_encoder(c.fuel.len() as u16, FuelFiguresEncoder::default());
    for (s, m) in &c.fuel {
        fuel.advance()?;
        fuel.speed(*s);
        fuel.mpg(*m);
    }
    car = fuel.parent()?;
    let mut perf = car.performance_figures_encoder(
        c.perf.len() as u16,
        PerformanceFiguresEncoder::default(),
    );
    for (o, acc) in &c.perf {
        perf.advance()?;
        perf.octane_rating(*o);
        let mut a = perf.acceleration_encoder(acc.len() as u16, AccelerationEncoder::default());
        for (mph, s) in acc {
            a.advance()?;
            a.mph(*mph);
            a.seconds(*s);
        }
        perf = a.parent()?;
    }
    car = perf.parent()?;
    car.manufacturer(c.manufacturer.as_bytes());
    car.model(c.model.as_bytes());
    Ok(car.get_limit())
}

/// The reference decoder, reading every field into the same checksum.
pub fn decode_car(buf: &[u8]) -> Res<u64> {
    use uk_co_real_logic_sbe_benchmarks::car_codec::decoder::*;
    use uk_co_real_logic_sbe_benchmarks::message_header_codec::MessageHeaderDecoder;
    use uk_co_real_logic_sbe_benchmarks::*;
    let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
    let mut car = CarDecoder::default().header(header, 0);
    let mut sum = u64::from(car.serial_number());
    sum += u64::from(car.model_year());
    sum += u64::from(u8::from(car.available())) + u64::from(u8::from(car.code()));
    for n in car.some_numbers() {
        sum += n as u64;
    }
    sum += car.vehicle_code().iter().map(|&x| u64::from(x)).sum::<u64>();
    sum += u64::from(car.extras().0);
    let engine = car.engine_decoder();
    sum += u64::from(engine.capacity()) + u64::from(engine.num_cylinders());
    sum += engine.manufacturer_code().iter().map(|&x| u64::from(x)).sum::<u64>();
    let mut engine = engine;
    car = engine.parent()?;
    let mut fuel = car.fuel_figures_decoder();
    while fuel.advance()?.is_some() {
        sum += u64::from(fuel.speed());
        sum += u64::from(fuel.mpg().to_bits());
    }
    car = fuel.parent()?;
    let mut perf = car.performance_figures_decoder();
    while perf.advance()?.is_some() {
        sum += u64::from(perf.octane_rating());
        let mut a = perf.acceleration_decoder();
        while a.advance()?.is_some() {
            sum += u64::from(a.mph());
            sum += u64::from(a.seconds().to_bits());
        }
        perf = a.parent()?;
    }
    car = perf.parent()?;
    let c = car.manufacturer_decoder();
    let m = car.manufacturer_slice(c);
    sum += m.len() as u64 + u64::from(*m.first().unwrap_or(&0));
    let c = car.model_decoder();
    let m = car.model_slice(c);
    sum += m.len() as u64 + u64::from(*m.first().unwrap_or(&0));
    Ok(sum)
}

pub fn encode_md(m: &Md, buf: &mut [u8]) -> Res<usize> {
    use uk_co_real_logic_sbe_benchmarks_fix::market_data_incremental_refresh_trades_codec::encoder::*;
    use uk_co_real_logic_sbe_benchmarks_fix::*;
    let mut md = MarketDataIncrementalRefreshTradesEncoder::default();
    md = md.wrap(WriteBuf::new(buf), message_header_codec::ENCODED_LENGTH);
    md = md.header(0).parent()?;
    md.transact_time(m.transact_time);
    md.event_time_delta(m.event_time_delta);
    md.match_event_indicator(match_event_indicator::MatchEventIndicator::from(m.match_event));
    let mut g = md.md_inc_grp_encoder(m.trades.len() as u16, MdIncGrpEncoder::default());
    for t in &m.trades {
        g.advance()?;
        g.trade_id(t.trade_id);
        g.security_id(t.security_id);
        let mut px = g.md_entry_px_encoder();
        px.mantissa(t.px);
        g = px.parent()?;
        let mut sz = g.md_entry_size_encoder();
        sz.mantissa(t.size);
        g = sz.parent()?;
        g.number_of_orders(t.orders);
        g.md_update_action(md_update_action::MDUpdateAction::from(t.action));
        g.rpt_seq(t.rpt_seq);
        g.aggressor_side(side::Side::from(t.side));
    }
    md = g.parent()?;
    Ok(md.get_limit())
}

pub fn decode_md(buf: &[u8]) -> Res<u64> {
    use uk_co_real_logic_sbe_benchmarks_fix::market_data_incremental_refresh_trades_codec::decoder::*;
    use uk_co_real_logic_sbe_benchmarks_fix::message_header_codec::MessageHeaderDecoder;
    use uk_co_real_logic_sbe_benchmarks_fix::*;
    let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
    let md = MarketDataIncrementalRefreshTradesDecoder::default().header(header, 0);
    let mut sum = md.transact_time();
    sum += u64::from(md.event_time_delta()) + u64::from(u8::from(md.match_event_indicator()));
    let mut g = md.md_inc_grp_decoder();
    while g.advance()?.is_some() {
        sum += g.trade_id();
        sum += g.security_id();
        let px = g.md_entry_px_decoder();
        sum += px.mantissa() as u64;
        let mut px = px;
        g = px.parent()?;
        let sz = g.md_entry_size_decoder();
        sum += sz.mantissa() as u64;
        let mut sz = sz;
        g = sz.parent()?;
        sum += u64::from(g.number_of_orders());
        sum += u64::from(u8::from(g.md_update_action())) + u64::from(g.rpt_seq());
        sum += u64::from(u8::from(g.aggressor_side()));
    }
    Ok(sum)
}
