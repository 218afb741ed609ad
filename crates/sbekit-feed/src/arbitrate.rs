//! A/B arbitration: two copies of one feed merged by packet sequence number, each number
//! delivered once, from whichever side brought it first.

use serde::Serialize;
use std::collections::BTreeSet;

/// Sequence numbers held above the settled floor before the lowest missing ones are declared
/// lost by both sides (bounds memory on a feed with a permanent hole).
const WINDOW: usize = 1 << 16;

/// Decides, packet by packet, which sequence numbers are new; see the module docs.
#[derive(Debug, Default)]
pub struct Arbiter {
    /// Every number below it was delivered or declared lost.
    floor: Option<u64>,
    /// Delivered numbers at or above the floor.
    delivered: BTreeSet<u64>,
    from_side: Vec<u64>,
    duplicates: u64,
    unfilled: Vec<(u64, u64)>,
}

/// What arbitration did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Arbitration {
    /// Packets delivered from each side (A first: the first file, or the first channel seen).
    pub from_side: Vec<u64>,
    /// Packets dropped because the other side (or a retransmission) had delivered them.
    pub duplicates_dropped: u64,
    /// Ranges of sequence numbers (inclusive) that neither side delivered.
    pub unfilled: Vec<(u64, u64)>,
    /// How many sequence numbers neither side delivered.
    pub unfilled_count: u64,
}

impl Arbiter {
    /// True if `seq` is new (deliver it), false if it was delivered already.
    pub fn offer(&mut self, seq: u64, side: usize) -> bool {
        let floor = *self.floor.get_or_insert(seq);
        if seq < floor || !self.delivered.insert(seq) {
            self.duplicates += 1;
            return false;
        }
        if self.from_side.len() <= side {
            self.from_side.resize(side + 1, 0);
        }
        self.from_side[side] += 1;
        self.settle();
        if self.delivered.len() > WINDOW {
            self.skip_hole();
        }
        true
    }

    /// Moves the floor over delivered numbers.
    fn settle(&mut self) {
        while let Some(f) = self.floor {
            if self.delivered.first() != Some(&f) {
                return;
            }
            self.delivered.pop_first();
            self.floor = Some(f + 1);
        }
    }

    /// Declares the numbers below the lowest delivered one lost.
    fn skip_hole(&mut self) {
        let (Some(f), Some(&low)) = (self.floor, self.delivered.first()) else {
            return;
        };
        if low > f {
            self.unfilled.push((f, low - 1));
        }
        self.floor = Some(low);
        self.settle();
    }

    /// The summary; holes still open are unfilled.
    pub fn finish(mut self) -> Arbitration {
        while !self.delivered.is_empty() {
            self.skip_hole();
        }
        let unfilled_count = self.unfilled.iter().map(|(a, b)| b - a + 1).sum();
        Arbitration {
            from_side: self.from_side,
            duplicates_dropped: self.duplicates,
            unfilled: self.unfilled,
            unfilled_count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_number_once_and_holes_reported() {
        let mut a = Arbiter::default();
        // A has 1..=10 but 3, 4 and 8; B has 1..=10 but 4, 7 and 8.
        let mut got = Vec::new();
        for s in 1..=10u64 {
            if ![3, 4, 8].contains(&s) && a.offer(s, 0) {
                got.push(s);
            }
            if ![4, 7, 8].contains(&s) && a.offer(s, 1) {
                got.push(s);
            }
        }
        assert_eq!(got, vec![1, 2, 3, 5, 6, 7, 9, 10]);
        let r = a.finish();
        assert_eq!(r.from_side, vec![7, 1]);
        assert_eq!(r.duplicates_dropped, 6);
        assert_eq!(r.unfilled, vec![(4, 4), (8, 8)]);
        assert_eq!(r.unfilled_count, 2);
    }
}
