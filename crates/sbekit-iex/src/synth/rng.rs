//! The generator's randomness and the float functions it needs, deterministic on every
//! platform: the pinned xoshiro256** and IEEE-exact `ln`/`exp`.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;

// PRNG and deterministic math

/// xoshiro256** (Blackman and Vigna) from the pinned `rand_xoshiro`, its state expanded from
/// the seed by SplitMix64.
pub(super) struct Rng(pub(super) Xoshiro256StarStar);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(Xoshiro256StarStar::seed_from_u64(seed))
    }

    #[inline]
    pub(super) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift (bias below 2^-32 for our n).
    #[inline]
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `p` (given as a threshold from [`prob`]).
    #[inline]
    pub(super) fn chance(&mut self, threshold: u64) -> bool {
        self.next() < threshold
    }

    /// Uniform float in [0, 1).
    #[inline]
    pub(super) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Geometric number of failures before a success of probability `p` (threshold), capped.
    #[inline]
    pub(super) fn geometric(&mut self, threshold: u64, cap: u32) -> u32 {
        let mut k = 0;
        while k < cap && !self.chance(threshold) {
            k += 1;
        }
        k
    }
}

/// A probability as a u64 threshold for [`Rng::chance`].
pub(super) fn prob(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else if p <= 0.0 {
        0
    } else {
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

/// Natural logarithm from basic IEEE operations only (deterministic everywhere), x > 0.
pub(super) fn ln(x: f64) -> f64 {
    let mut m = x;
    let mut e = 0i32;
    while m > 1.5 {
        m /= 2.0;
        e += 1;
    }
    while m < 0.75 {
        m *= 2.0;
        e -= 1;
    }
    // ln(m) = 2 atanh((m-1)/(m+1)), a fast-converging odd series for m in [0.75, 1.5].
    let y = (m - 1.0) / (m + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 60.0 {
        sum += term / k;
        term *= y2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// e^x from basic IEEE operations only.
pub(super) fn exp(x: f64) -> f64 {
    // Halve until small, sum the Taylor series, square back.
    let mut r = x;
    let mut halvings = 0;
    while r.abs() > 0.5 {
        r /= 2.0;
        halvings += 1;
    }
    let mut sum = 1.0;
    let mut term = 1.0;
    for k in 1..24 {
        term *= r / k as f64;
        sum += term;
    }
    for _ in 0..halvings {
        sum *= sum;
    }
    sum
}

// ---------------------------------------------------------------------------------------------
// Wire constants
