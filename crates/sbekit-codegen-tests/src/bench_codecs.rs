//! The benchmark messages through the generated codecs, computing the same checksum as
//! [`crate::handwritten`] so both read every field.

use crate::car_bench as cb;
use crate::fix_samples as fx;
use crate::handwritten::{Car, Md};
use sbekit_runtime::EncodeError;

/// Encodes the Car with the generated encoder.
#[inline]
pub fn encode_car(c: &Car, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let mut e = cb::CarEncoder::new(buf)?;
    e.serial_number(c.serial_number)
        .model_year(c.model_year)
        .available(cb::BooleanType::from_raw(c.available))
        .code(cb::Model::from_raw(c.code))
        .some_numbers(c.some_numbers)
        .vehicle_code(&c.vehicle_code)
        .extras(cb::OptionalExtras::from_bits(c.extras));
    e.engine()
        .capacity(c.capacity)
        .num_cylinders(c.num_cylinders)
        .manufacturer_code(&c.manufacturer_code);
    e.fuel_figures(|g| {
        for (s, m) in &c.fuel {
            g.entry(|x| {
                x.speed(*s).mpg(*m);
                Ok(())
            })?;
        }
        Ok(())
    })?;
    e.performance_figures(|g| {
        for (o, acc) in &c.perf {
            g.entry(|x| {
                x.octane_rating(*o).acceleration(|a| {
                    for (mph, s) in acc {
                        a.entry(|y| {
                            y.mph(*mph).seconds(*s);
                            Ok(())
                        })?;
                    }
                    Ok(())
                })?;
                Ok(())
            })?;
        }
        Ok(())
    })?;
    e.manufacturer(c.manufacturer.as_bytes())?
        .model(c.model.as_bytes())?;
    e.finish()
}

/// Decodes the Car with the generated decoder and sums every field.
#[inline]
pub fn decode_car(buf: &[u8]) -> Option<u64> {
    let d = cb::CarDecoder::decode(buf).ok()?;
    let mut sum = u64::from(d.serial_number());
    sum += u64::from(d.model_year());
    sum += u64::from(d.available().to_raw()) + u64::from(d.code().to_raw());
    for n in d.some_numbers() {
        sum += n as u64;
    }
    sum += d.vehicle_code().iter().map(|&x| u64::from(x)).sum::<u64>();
    sum += u64::from(d.extras().bits());
    let e = d.engine();
    sum += u64::from(e.capacity()) + u64::from(e.num_cylinders());
    sum += e
        .manufacturer_code()
        .iter()
        .map(|&x| u64::from(x))
        .sum::<u64>();
    for f in d.fuel_figures() {
        sum += u64::from(f.speed());
        sum += u64::from(f.mpg().to_bits());
    }
    for p in d.performance_figures() {
        sum += u64::from(p.octane_rating());
        for a in p.acceleration() {
            sum += u64::from(a.mph());
            sum += u64::from(a.seconds().to_bits());
        }
    }
    for v in [d.manufacturer(), d.model()] {
        sum += v.len() as u64 + u64::from(*v.first().unwrap_or(&0));
    }
    Some(sum)
}

/// Encodes the market data message with the generated encoder.
#[inline]
pub fn encode_md(m: &Md, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let mut e = fx::MarketDataIncrementalRefreshTradesEncoder::new(buf)?;
    e.transact_time(m.transact_time)
        .event_time_delta(m.event_time_delta)
        .match_event_indicator(fx::MatchEventIndicator::from_raw(m.match_event));
    e.md_inc_grp(|g| {
        for t in &m.trades {
            g.entry(|x| {
                x.trade_id(t.trade_id).security_id(t.security_id);
                x.md_entry_px().mantissa(t.px);
                x.md_entry_size().mantissa(t.size);
                x.number_of_orders(t.orders)
                    .md_update_action(fx::MdUpdateAction::from_raw(t.action))
                    .rpt_seq(t.rpt_seq)
                    .aggressor_side(fx::Side::from_raw(t.side));
                Ok(())
            })?;
        }
        Ok(())
    })?;
    e.finish()
}

/// Decodes the market data message with the generated decoder and sums every field.
#[inline]
pub fn decode_md(buf: &[u8]) -> Option<u64> {
    let d = fx::MarketDataIncrementalRefreshTradesDecoder::decode(buf).ok()?;
    let mut sum = d.transact_time();
    sum += u64::from(d.event_time_delta()) + u64::from(d.match_event_indicator().to_raw());
    for t in d.md_inc_grp() {
        sum += t.trade_id();
        sum += t.security_id();
        sum += t.md_entry_px().mantissa() as u64;
        sum += t.md_entry_size().mantissa() as u64;
        sum += u64::from(t.number_of_orders());
        sum += u64::from(t.md_update_action().to_raw()) + u64::from(t.rpt_seq());
        sum += u64::from(t.aggressor_side().to_raw());
    }
    Some(sum)
}
