//! Messages written by the generated *encoders*, for tests that hand them to other decoders
//! (the parity suite's reference Java decoders). Written by hand against the generated API, so
//! only for the schemas listed in [`crate::encoder_samples`].

use crate::s03_car as car;

/// Deterministic random values from the project's one PRNG crate (`rand_xoshiro`'s SplitMix64).
struct Rng(rand_xoshiro::SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        use rand_xoshiro::rand_core::SeedableRng;
        Rng(rand_xoshiro::SplitMix64::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        use rand_xoshiro::rand_core::Rng as _;
        self.0.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn text<const N: usize>(&mut self) -> [u8; N] {
        let len = self.below(N as u64 + 1) as usize;
        core::array::from_fn(|i| {
            if i < len {
                0x20 + self.below(0x5f) as u8
            } else {
                0
            }
        })
    }
    fn data(&mut self) -> Vec<u8> {
        (0..self.below(17)).map(|_| self.next() as u8).collect()
    }
}

/// `n` random `Car` messages (`car.xml`) written by the generated `CarEncoder`.
pub fn car(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| one_car(&mut r)).collect()
}

fn one_car(r: &mut Rng) -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let mut c = car::CarEncoder::new(&mut buf).expect("buffer holds a header and block");
    let models = [car::Model::A, car::Model::B, car::Model::C];
    c.serial_number(r.next() as u32)
        .model_year(r.next() as u16)
        .available(if r.below(2) == 0 {
            car::BooleanType::F
        } else {
            car::BooleanType::T
        })
        .code(models[r.below(3) as usize])
        .some_numbers(core::array::from_fn(|_| r.next() as i32))
        .vehicle_code(&r.text::<6>())
        .extras(car::OptionalExtras::from_bits(r.below(8) as u8));
    c.engine()
        .capacity(r.next() as u16)
        .num_cylinders(r.next() as u8)
        .manufacturer_code(&r.text::<3>());
    let fuel: Vec<(u16, f32)> = (0..r.below(4))
        .map(|_| (r.next() as u16, f32::from_bits(r.next() as u32)))
        .collect();
    let performance: Vec<(u8, Vec<(u16, f32)>)> = (0..r.below(4))
        .map(|_| {
            let accel = (0..r.below(4))
                .map(|_| (r.next() as u16, r.below(100_000) as f32 / 100.0))
                .collect();
            (r.next() as u8, accel)
        })
        .collect();
    let (manufacturer, model) = (r.data(), r.data());
    c.fuel_figures(|g| {
        for (speed, mpg) in &fuel {
            g.entry(|e| {
                e.speed(*speed).mpg(*mpg);
                Ok(())
            })?;
        }
        Ok(())
    })
    .expect("fuelFigures fits");
    c.performance_figures(|g| {
        for (octane, accel) in &performance {
            g.entry(|e| {
                e.octane_rating(*octane);
                e.acceleration(|a| {
                    for (mph, seconds) in accel {
                        a.entry(|x| {
                            x.mph(*mph).seconds(*seconds);
                            Ok(())
                        })?;
                    }
                    Ok(())
                })?;
                Ok(())
            })?;
        }
        Ok(())
    })
    .expect("performanceFigures fits");
    c.manufacturer(&manufacturer).expect("manufacturer fits");
    c.model(&model).expect("model fits");
    let n = c.finish().expect("complete message");
    buf.truncate(n);
    buf
}
