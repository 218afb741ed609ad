//! The usual message's check program (`program::usual_of_message`) against the full one
//! (`program::of_message`), both run by an interpreter of the steps: on messages written as
//! this schema's encoders write them, and on thousands of damaged copies, whatever the usual
//! program accepts the full program accepts too, leaving the same cursor, section marks and
//! header values; and neither program reads a byte outside the input.

use sbekit_ir::ByteOrder;
use sbekit_plan::program::{self, HeaderValue, Local, Step};
use sbekit_plan::{Check, Message, Plan, Slot};
use std::collections::{BTreeMap, HashMap};

mod common;
use common::plan;

const SCHEMAS: [&str; 6] = [
    "crates/sbekit-codegen-tests/schemas/orders-be.xml",
    "crates/sbekit-codegen-tests/schemas/hostile-names.xml",
    "crates/sbekit-codegen-tests/schemas/versioned-v1.xml",
    "schemas/market-data.xml",
    "schemas/shootout-2019.xml",
    "schemas/trades.xml",
];

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What a program that passed leaves behind.
#[derive(Debug, PartialEq)]
struct Passed {
    cursor: u64,
    marks: BTreeMap<usize, u64>,
    root_block: u64,
    version: u64,
}

/// The interpreter: the semantics `program::render` gives the steps with a merging syntax (a
/// `then` tested with the test that carries it, a merged `Need` left out), lengths unsigned.
struct Machine<'a> {
    input: &'a [u8],
    cursor: u64,
    locals: HashMap<Local, u64>,
    budget: u64,
    marks: BTreeMap<usize, u64>,
}

/// The empty-entry budget the interpreter starts with.
const BUDGET: u64 = 1 << 16;

impl Machine<'_> {
    fn run(input: &[u8], steps: &[Step]) -> Option<Passed> {
        let mut m = Machine {
            input,
            cursor: 0,
            locals: HashMap::new(),
            budget: 0,
            marks: BTreeMap::new(),
        };
        m.steps(steps)?;
        Some(Passed {
            cursor: m.cursor,
            marks: m.marks,
            root_block: m.locals[&Local::RootBlock],
            version: m.locals[&Local::Version],
        })
    }

    fn n(&self) -> u64 {
        self.input.len() as u64
    }

    /// What is left after the cursor and `skip` more bytes; a program that lets it go below
    /// zero has read past its own checks.
    fn left(&self, skip: u64) -> u64 {
        let left = self.n().checked_sub(self.cursor + skip);
        left.expect("the cursor passed the input's end")
    }

    fn load(&self, slot: &Slot, at: u64) -> u64 {
        let start = (at + slot.offset as u64) as usize;
        let bytes = self
            .input
            .get(start..start + slot.width())
            .unwrap_or_else(|| panic!("a load at {start} past the input ({})", self.n()));
        let mut v = 0u64;
        for i in 0..bytes.len() {
            let b = match slot.order {
                ByteOrder::LittleEndian => bytes[bytes.len() - 1 - i],
                ByteOrder::BigEndian => bytes[i],
            };
            v = v << 8 | u64::from(b);
        }
        v
    }

    fn header(&self, v: &HeaderValue) -> u64 {
        match v {
            HeaderValue::Constant(c) => *c,
            HeaderValue::Slot(s) => self.load(s, 0),
        }
    }

    fn get(&self, l: Local) -> u64 {
        self.locals[&l]
    }

    fn steps(&mut self, steps: &[Step]) -> Option<()> {
        for s in steps {
            self.step(s)?;
        }
        Some(())
    }

    fn step(&mut self, s: &Step) -> Option<()> {
        let pass = |ok: bool| ok.then_some(());
        match s {
            Step::NeedHeader { size, .. } => pass(self.n() >= *size as u64)?,
            Step::HeaderEquals {
                value, expected, ..
            } => pass(self.header(value) == *expected)?,
            Step::LetHeader { local, value } => {
                let v = self.header(value);
                self.locals.insert(*local, v);
            }
            Step::BlockCovers {
                block,
                required,
                unless_empty,
                ..
            } => {
                let (base, changes) = program::required_changes(required);
                let version = self.get(Local::Version);
                let need = changes
                    .iter()
                    .rfind(|c| version >= u64::from(c.0))
                    .map_or(base, |c| c.1);
                let empty = unless_empty.is_some_and(|c| self.get(c) == 0);
                pass(empty || self.get(*block) >= need as u64)?;
            }
            Step::BlockIs { block, bytes, .. } => pass(self.get(*block) == *bytes as u64)?,
            Step::RootFits {
                block,
                header,
                then,
                ..
            } => {
                let room = self.n().checked_sub(*header as u64)?;
                let extra = then.as_ref().map_or(0, |t| t.bytes as u64);
                pass(u128::from(self.get(*block)) + u128::from(extra) <= u128::from(room))?;
            }
            Step::StartCursor { header, block } => self.cursor = *header as u64 + self.get(*block),
            Step::StartBudget => self.budget = BUDGET,
            Step::MarkSection { index } => {
                self.marks.insert(*index, self.cursor);
            }
            Step::Scope { since, steps } => {
                if since.is_none_or(|v| self.get(Local::Version) >= u64::from(v)) {
                    self.steps(steps)?;
                }
            }
            Step::Need { merged: true, .. } => {}
            Step::Need { bytes, .. } => pass(self.left(0) >= *bytes as u64)?,
            Step::Load { local, slot } => {
                let v = self.load(slot, self.cursor);
                self.locals.insert(*local, v);
            }
            Step::AtMost { local, max, .. } => pass(self.get(*local) <= *max)?,
            Step::Advance { bytes } => self.cursor += *bytes as u64,
            Step::ChargeEmpty { block, count, .. } => {
                if self.get(*block) == 0 {
                    let n = self.get(*count);
                    pass(n <= self.budget)?;
                    self.budget -= n;
                }
            }
            Step::EntriesFit {
                block,
                count,
                exact,
                then,
                ..
            } => {
                let bytes = u128::from(self.get(*block)) * u128::from(self.get(*count));
                let extra = match (exact, then) {
                    (true, Some(t)) => t.bytes as u128,
                    _ => 0,
                };
                pass(bytes + extra <= u128::from(self.left(0)))?;
            }
            Step::AdvanceEntries { block, count } => {
                self.cursor += self.get(*block) * self.get(*count);
            }
            Step::Repeat {
                index,
                count,
                steps,
            } => {
                for i in 0..self.get(*count) {
                    self.locals.insert(*index, i);
                    self.steps(steps)?;
                }
            }
            Step::Fits {
                local, skip, then, ..
            } => {
                let extra = then.as_ref().map_or(0, |t| t.bytes as u64);
                let room = u128::from(self.left(*skip as u64));
                pass(u128::from(self.get(*local)) + u128::from(extra) <= room)?;
            }
            Step::AdvanceBy { local, skip } => self.cursor += *skip as u64 + self.get(*local),
        }
        Some(())
    }
}

fn put(buf: &mut [u8], slot: &Slot, at: usize, v: u64) {
    let start = at + slot.offset;
    let w = slot.width();
    for i in 0..w {
        let byte = (v >> (8 * i)) as u8;
        match slot.order {
            ByteOrder::LittleEndian => buf[start + i] = byte,
            ByteOrder::BigEndian => buf[start + w - 1 - i] = byte,
        }
    }
}

/// A count or length the generator wrote: where its structure starts, its slot, the bytes
/// each unit takes (an entry's block, or 1), the value written and where its data ends (for
/// groups of fixed-size entries and var data only).
struct Dim {
    at: usize,
    slot: Slot,
    unit: usize,
    value: u64,
    end: usize,
}

/// A message as this schema's encoders write it: the header at the schema's version, blocks
/// of the lengths they write (random bytes), a few entries per group and short var data; and
/// its counts and lengths that [`too_many`] may change.
fn usual_message(p: &Plan, m: &Message, rng: &mut Rng) -> (Vec<u8>, Vec<Dim>) {
    let mut out = vec![0u8; p.header.size];
    for c in &m.checks {
        match c {
            Check::SchemaId { slot, expected } | Check::TemplateId { slot, expected }
                if slot.constant.is_none() =>
            {
                put(&mut out, slot, 0, *expected)
            }
            Check::RootBlock {
                block_length,
                version,
                ..
            } => {
                put(&mut out, block_length, 0, m.body.block_length as u64);
                put(&mut out, version, 0, u64::from(p.version));
            }
            _ => {}
        }
    }
    out.extend((0..m.body.block_length).map(|_| rng.next() as u8));
    let mut dims = Vec::new();
    sections(&m.checks, rng, &mut out, &mut dims);
    (out, dims)
}

fn sections(checks: &[Check], rng: &mut Rng, out: &mut Vec<u8>, dims: &mut Vec<Dim>) {
    for c in checks {
        match c {
            Check::Group {
                dim_size,
                block_length,
                count,
                block,
                entry,
                ..
            } => {
                let n = rng.below(4);
                let at = out.len();
                out.resize(at + dim_size, 0);
                put(out, block_length, at, *block as u64);
                put(out, count, at, n);
                for _ in 0..n {
                    out.extend((0..*block).map(|_| rng.next() as u8));
                    sections(entry, rng, out, dims);
                }
                if entry.is_empty() {
                    let (slot, unit, value, end) = (*count, *block, n, out.len());
                    dims.push(Dim {
                        at,
                        slot,
                        unit,
                        value,
                        end,
                    });
                }
            }
            Check::VarData {
                length,
                data_offset,
                ..
            } => {
                let n = rng.below(6);
                let at = out.len();
                out.resize(at + data_offset, 0);
                put(out, length, at, n);
                out.extend((0..n).map(|_| rng.next() as u8));
                let (slot, end) = (*length, out.len());
                dims.push(Dim {
                    at,
                    slot,
                    unit: 1,
                    value: n,
                    end,
                });
            }
            _ => {}
        }
    }
}

/// A damaged copy: cut short, a byte changed, bytes added after the end, or a dimension or
/// length doubled.
fn damage(msg: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut d = msg.to_vec();
    for _ in 0..=rng.below(3) {
        match rng.below(4) {
            0 if !d.is_empty() => d.truncate(rng.below(d.len() as u64) as usize),
            1 if !d.is_empty() => {
                let i = rng.below(d.len() as u64) as usize;
                d[i] = match rng.below(3) {
                    0 => rng.next() as u8,
                    1 => d[i].wrapping_add(1),
                    _ => d[i].wrapping_sub(1),
                };
            }
            2 => d.extend((0..rng.below(8)).map(|_| rng.next() as u8)),
            _ if !d.is_empty() => {
                let i = rng.below(d.len() as u64) as usize;
                d[i] = d[i].wrapping_mul(2);
            }
            _ => {}
        }
    }
    d
}

/// `msg` with one count or length set one past its largest valid value, and the bytes that
/// many entries or that much data take inserted where its data ends: only that value is
/// wrong (when the slot can hold it and the message stays under a megabyte).
fn too_many(msg: &[u8], dims: &[Dim], rng: &mut Rng) -> Option<Vec<u8>> {
    let d = dims.get(rng.below(dims.len().max(1) as u64) as usize)?;
    let wide = d.slot.width() == 8 || (d.slot.max + 1) >> (8 * d.slot.width()) == 0;
    let more = (d.slot.max + 1 - d.value).checked_mul(d.unit as u64)?;
    if d.slot.max == u64::MAX || !wide || more > 1 << 20 {
        return None;
    }
    let mut out = msg[..d.end].to_vec();
    out.extend((0..more).map(|_| rng.next() as u8));
    out.extend_from_slice(&msg[d.end..]);
    put(&mut out, &d.slot, d.at, d.slot.max + 1);
    Some(out)
}

#[test]
fn the_usual_program_accepts_only_what_the_full_one_accepts_and_leaves_the_same() {
    let mut rng = Rng(0x5BE_C0DE);
    let (mut programs, mut usual_passed, mut full_only, mut too_large) = (0, 0, 0, 0);
    for schema in SCHEMAS {
        let p = plan(schema);
        for m in &p.messages {
            let full = program::of_message(m);
            let Some(usual) = program::usual_of_message(m, p.version) else {
                continue;
            };
            programs += 1;
            for _ in 0..40 {
                let (msg, dims) = usual_message(&p, m, &mut rng);
                let a = Machine::run(&msg, &usual);
                let b = Machine::run(&msg, &full);
                assert!(
                    a.is_some(),
                    "{schema} {}: usual refused {msg:?}",
                    m.body.name
                );
                assert_eq!(a, b, "{schema} {}: {msg:?}", m.body.name);
                if let Some(d) = too_many(&msg, &dims, &mut rng) {
                    too_large += 1;
                    assert_eq!(Machine::run(&d, &usual), None, "{schema} {}", m.body.name);
                    assert_eq!(Machine::run(&d, &full), None, "{schema} {}", m.body.name);
                }
                for _ in 0..60 {
                    let d = damage(&msg, &mut rng);
                    let (a, b) = (Machine::run(&d, &usual), Machine::run(&d, &full));
                    if a.is_some() {
                        usual_passed += 1;
                        assert_eq!(a, b, "{schema} {}: {d:?}", m.body.name);
                    } else if b.is_some() {
                        full_only += 1;
                    }
                }
            }
        }
    }
    assert!(
        programs >= 10,
        "only {programs} messages have a usual program"
    );
    // Both ways are exercised: damaged messages the usual program still takes (bytes added,
    // a field's byte changed), and ones only the full program takes.
    assert!(
        usual_passed > 1000 && full_only > 100,
        "{usual_passed} {full_only}"
    );
    // Counts and lengths one past their largest valid value, with their bytes there.
    assert!(too_large > 100, "{too_large}");
}

#[test]
fn messages_without_a_usual_form_have_no_usual_program() {
    // versioned-v1's header is the standard one; hostile-names has groups whose entries are
    // written with blocks of 0 bytes (no fields), which need the empty-entry budget.
    let p = plan("crates/sbekit-codegen-tests/schemas/hostile-names.xml");
    for m in &p.messages {
        let zero_block = m.checks.iter().any(zero_entries);
        assert_eq!(
            program::usual_of_message(m, p.version).is_none(),
            zero_block,
            "{}",
            m.body.name
        );
    }
}

fn zero_entries(c: &Check) -> bool {
    match c {
        Check::Group { block, entry, .. } => *block == 0 || entry.iter().any(zero_entries),
        _ => false,
    }
}
