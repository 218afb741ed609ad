//! The up-front check as a program: [`Message::checks`](crate::Message::checks) lowered to
//! primitive steps ([`Step`]) that a generator renders one for one through [`CheckSyntax`].
//!
//! The algorithm lives here once: which bytes must be there before a read, which comparisons
//! are made and in which order, when a product is exact in 64 bits (multiply, never divide),
//! where a failure is reported and with which error. A generator supplies only its syntax:
//! names of locals, how a slot is loaded, how unsigned comparisons and failures are written.
//! [`render`] writes the statements in the C family's shape (`if (c) stmt`, blocks in braces);
//! a language of another shape overrides the statement methods of [`CheckSyntax`].

use crate::checks::{Check, CheckError};
use crate::names::BodyNames;
use crate::{Body, Message, Section, Slot};

/// A value the program keeps while it checks (generators name them: [`CheckSyntax::local`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Local {
    /// The root block length from the header.
    RootBlock,
    /// The acting version from the header.
    Version,
    /// The entry block length of the group at this nesting depth (1 for the root's groups).
    Block(usize),
    /// The count of the group at this depth.
    Count(usize),
    /// The entry index of the group at this depth.
    Index(usize),
    /// The length of the var data at this depth.
    Length(usize),
    /// What is left of the empty-entry budget.
    Budget,
}

/// Where a failure is reported, as a byte offset from the message start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// A fixed offset (0: the message start; a header member's offset).
    Offset(usize),
    /// The cursor (where the structure being checked starts).
    Cursor,
    /// The cursor plus a member's offset inside the structure.
    CursorPlus(usize),
}

/// A failed step: the error, where, and the element's path (`Car.fuelFigures`, or the message
/// name for the header and root block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fail {
    /// The error raised.
    pub error: CheckError,
    /// Where.
    pub at: At,
    /// The element path.
    pub path: String,
}

/// A header member's value: its constant (not read from the wire) or its slot.
#[derive(Debug, Clone, PartialEq)]
pub enum HeaderValue {
    /// A constant member's value (its wire bits).
    Constant(u64),
    /// A slot of the header, read at the message start.
    Slot(Slot),
}

impl HeaderValue {
    fn of(slot: &Slot) -> HeaderValue {
        match slot.constant {
            Some(c) => HeaderValue::Constant(c),
            None => HeaderValue::Slot(*slot),
        }
    }
}

/// The head of the next section (a group's dimensions, a var-data length prefix: the bytes
/// it needs before anything is read), checked with the test before it: `length + bytes` bytes
/// must be left, one test on the way that succeeds. It is merged only where the sum is exact
/// in 64 bits and both tests always run (sections present at every version); the [`Step::Need`]
/// it stands for is marked `merged`.
#[derive(Debug, Clone, PartialEq)]
pub struct Then {
    /// The head's size.
    pub bytes: usize,
    /// The failure the head's own test raises (where the section starts).
    pub fail: Fail,
}

/// One primitive step. "Left" is what the input holds from the cursor on; every comparison
/// of lengths is unsigned.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The input holds `size` bytes (the header), or `fail`.
    NeedHeader {
        /// Header size.
        size: usize,
        /// Raised when it does not.
        fail: Fail,
    },
    /// A header member equals `expected`, or `fail`.
    HeaderEquals {
        /// The member.
        value: HeaderValue,
        /// The value it must have.
        expected: u64,
        /// Raised when it does not.
        fail: Fail,
    },
    /// `local` takes a header member's value.
    LetHeader {
        /// The local declared.
        local: Local,
        /// The member.
        value: HeaderValue,
    },
    /// `block` covers the fields of the acting version (`required`: `(version, bytes)` in
    /// ascending versions), or `fail`; with `unless_empty`, only checked when that count is
    /// not zero (an empty group's block length describes no bytes).
    BlockCovers {
        /// The block length.
        block: Local,
        /// What each version needs (never all zero: the step is left out then).
        required: Vec<(u32, usize)>,
        /// The count that must not be zero for the check to apply.
        unless_empty: Option<Local>,
        /// Raised when it does not.
        fail: Fail,
    },
    /// `block` is `bytes`, the length this schema version writes, or `fail` (the usual
    /// message's check, [`usual_of_message`], in place of [`Step::BlockCovers`]).
    BlockIs {
        /// The block length.
        block: Local,
        /// The length it must have.
        bytes: usize,
        /// Raised when it has another.
        fail: Fail,
    },
    /// The root block fits after the header (`block > length - header` fails).
    RootFits {
        /// The root block length.
        block: Local,
        /// Header size.
        header: usize,
        /// Raised when it does not.
        fail: Fail,
        /// The first section's head, which a merging syntax checks in the same test.
        then: Option<Then>,
    },
    /// The cursor starts after the root block (`header + block`).
    StartCursor {
        /// Header size.
        header: usize,
        /// The root block length.
        block: Local,
    },
    /// The empty-entry budget starts full (only for messages with groups).
    StartBudget,
    /// Section `index` of the root starts at the cursor (kept until every step passed).
    MarkSection {
        /// The section's index among the root's sections.
        index: usize,
    },
    /// Steps of a section present from `since` on (`None`: always); a scope for its locals.
    Scope {
        /// `sinceVersion` when above 0.
        since: Option<u32>,
        /// The section's steps.
        steps: Vec<Step>,
    },
    /// `bytes` are left, or `fail`.
    Need {
        /// How many.
        bytes: usize,
        /// Raised when they are not.
        fail: Fail,
        /// Checked already by the test before it (its [`Then`]) when the syntax merges.
        merged: bool,
    },
    /// `local` takes the value of `slot` of the structure at the cursor.
    Load {
        /// The local declared.
        local: Local,
        /// The slot, its offset inside the structure.
        slot: Slot,
    },
    /// `local` is at most `max`, or `fail`.
    AtMost {
        /// The value.
        local: Local,
        /// Its largest valid value.
        max: u64,
        /// Raised when it is larger.
        fail: Fail,
    },
    /// The cursor moves `bytes` on.
    Advance {
        /// How far.
        bytes: usize,
    },
    /// When `block` is 0, `count` is charged to the budget (more than is left fails).
    ChargeEmpty {
        /// The entry block length.
        block: Local,
        /// The count.
        count: Local,
        /// Raised when the budget is exceeded.
        fail: Fail,
        /// True when the entries need a block of at least one byte at every version: the
        /// [`Step::BlockCovers`] before it already refused a zero block with entries, so the
        /// charge is of 0 entries and a syntax may leave it out
        /// ([`CheckSyntax::drops_covered_charges`]).
        covered: bool,
    },
    /// `count` entries of `block` bytes are left: with `exact`, their product (both slots
    /// under 2^32, so exact in 64 bits) against what is left; else `count` against what is
    /// left divided by a non-zero `block`.
    EntriesFit {
        /// The entry block length.
        block: Local,
        /// The count.
        count: Local,
        /// True when the product is exact in 64 unsigned bits.
        exact: bool,
        /// Raised when they are not left.
        fail: Fail,
        /// The next section's head, checked in the same test by a merging syntax (only
        /// with `exact`).
        then: Option<Then>,
    },
    /// The cursor moves past `count` entries of `block` bytes.
    AdvanceEntries {
        /// The entry block length.
        block: Local,
        /// The count.
        count: Local,
    },
    /// `steps` once per entry, `index` from 0 to `count`.
    Repeat {
        /// The index declared.
        index: Local,
        /// The count.
        count: Local,
        /// Each entry's steps.
        steps: Vec<Step>,
    },
    /// `local` bytes are left after `skip` more, or `fail`.
    Fits {
        /// The length.
        local: Local,
        /// Bytes before them (a var-data length prefix).
        skip: usize,
        /// Raised when they are not left.
        fail: Fail,
        /// The head of the section after them, checked in the same test by a merging syntax.
        then: Option<Then>,
    },
    /// The cursor moves `skip + local` bytes on.
    AdvanceBy {
        /// The length.
        local: Local,
        /// Bytes before it.
        skip: usize,
    },
}

/// The check program of a message, in wire order.
pub fn of_message(m: &Message) -> Vec<Step> {
    let name = &m.body.name;
    let mode = Mode::Full;
    let fail = |error, at| Fail {
        error,
        at,
        path: name.clone(),
    };
    let has_groups = m.checks.iter().any(|c| matches!(c, Check::Group { .. }));
    let sections: Vec<&Check> = m.checks.iter().filter(|c| is_section(c)).collect();
    let mut out = Vec::new();
    let mut header = 0;
    let mut section = 0;
    // Whether the section's head was merged into the test before it.
    let mut merged = false;
    for c in &m.checks {
        match c {
            Check::Header { size } => {
                header = *size;
                out.push(Step::NeedHeader {
                    size: *size,
                    fail: fail(CheckError::Truncated, At::Offset(0)),
                });
            }
            // A constant schema id is the schema's by definition.
            Check::SchemaId { slot, .. } if slot.constant.is_some() => {}
            Check::SchemaId { slot, expected } => out.push(Step::HeaderEquals {
                value: HeaderValue::of(slot),
                expected: *expected,
                fail: fail(CheckError::WrongSchemaId, At::Offset(slot.offset)),
            }),
            Check::TemplateId { slot, expected } => out.push(Step::HeaderEquals {
                value: HeaderValue::of(slot),
                expected: *expected,
                fail: fail(CheckError::WrongTemplateId, At::Offset(slot.offset)),
            }),
            Check::RootBlock {
                block_length,
                version,
                required,
            } => {
                out.push(Step::LetHeader {
                    local: Local::RootBlock,
                    value: HeaderValue::of(block_length),
                });
                out.push(Step::LetHeader {
                    local: Local::Version,
                    value: HeaderValue::of(version),
                });
                if required.iter().any(|r| r.1 > 0) {
                    out.push(Step::BlockCovers {
                        block: Local::RootBlock,
                        required: required.to_vec(),
                        unless_empty: None,
                        fail: fail(
                            CheckError::BlockLengthTooShort,
                            At::Offset(block_length.offset),
                        ),
                    });
                }
                // The sum of a block length and a head is exact below 2^32.
                let narrow = block_length.width() <= 4 || block_length.constant.is_some();
                let then = head(sections.first().copied(), mode).filter(|_| narrow);
                merged = then.is_some();
                out.push(Step::RootFits {
                    block: Local::RootBlock,
                    header,
                    fail: fail(CheckError::Truncated, At::Offset(header)),
                    then,
                });
                out.push(Step::StartCursor {
                    header,
                    block: Local::RootBlock,
                });
                if has_groups {
                    out.push(Step::StartBudget);
                }
            }
            Check::Group { .. } | Check::VarData { .. } => {
                out.push(Step::MarkSection { index: section });
                section += 1;
                let next = head(sections.get(section).copied(), mode);
                let (step, next_merged) = section_steps(c, 1, merged, next, mode);
                out.push(step);
                merged = next_merged;
            }
        }
    }
    out
}

/// Which program [`section_steps`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every message the decoders accept ([`of_message`]).
    Full,
    /// Only the usual one ([`usual_of_message`]): every section present, every block as long
    /// as this schema version writes it.
    Usual,
}

/// The check program of the usual message: written by this schema's encoders at the schema's
/// version, so that its header equals the one they write (one load against one constant) and
/// every block, root and entries, has the length they write. The other checks are the full
/// program's ([`of_message`]): counts, var-data lengths and what is left after each, with
/// every section present (no version gates) and no empty-entry budget (every entry takes a
/// byte or more). A message this program accepts, the full program accepts too, and it leaves
/// the same locals and section marks: a decoder may run it first and fall back to the full
/// program, which names the error, on any failure. It is much shorter, so a JIT can inline it.
///
/// `version` is the schema's. `None` when the message has no such program: a header with a
/// constant member or whose members are not one 2-, 4- or 8-byte load, or a group whose
/// entries this version writes with a block of 0 bytes.
pub fn usual_of_message(m: &Message, version: u32) -> Option<Vec<Step>> {
    let mode = Mode::Usual;
    let name = &m.body.name;
    let fail = |error, at| Fail {
        error,
        at,
        path: name.clone(),
    };
    let sections: Vec<&Check> = m.checks.iter().filter(|c| is_section(c)).collect();
    if !sections.iter().all(|c| writes_blocks(c)) {
        return None;
    }
    let (mut size, mut members) = (0, Vec::new());
    for c in &m.checks {
        match c {
            Check::Header { size: s } => size = *s,
            Check::SchemaId { slot, expected } | Check::TemplateId { slot, expected } => {
                members.push((*slot, *expected))
            }
            Check::RootBlock {
                block_length,
                version: v,
                ..
            } => {
                members.push((*block_length, m.body.block_length as u64));
                members.push((*v, u64::from(version)));
            }
            Check::Group { .. } | Check::VarData { .. } => {}
        }
    }
    let (slot, expected) = written_header(size, &mut members)?;
    let first = head(sections.first().copied(), mode);
    let block = m.body.block_length;
    let mut out = vec![
        Step::NeedHeader {
            size: size + block + first.as_ref().map_or(0, |t| t.bytes),
            fail: fail(CheckError::Truncated, At::Offset(0)),
        },
        Step::HeaderEquals {
            value: HeaderValue::Slot(slot),
            expected,
            fail: fail(CheckError::WrongTemplateId, At::Offset(0)),
        },
        Step::LetHeader {
            local: Local::RootBlock,
            value: HeaderValue::Constant(block as u64),
        },
        Step::LetHeader {
            local: Local::Version,
            value: HeaderValue::Constant(u64::from(version)),
        },
        Step::StartCursor {
            header: size,
            block: Local::RootBlock,
        },
    ];
    let mut merged = first.is_some();
    for (i, c) in sections.iter().enumerate() {
        out.push(Step::MarkSection { index: i });
        let next = head(sections.get(i + 1).copied(), mode);
        let (step, next_merged) = section_steps(c, 1, merged, next, mode);
        out.push(step);
        merged = next_merged;
    }
    Some(out)
}

/// True when a section's groups, its own and nested, are written with entry blocks of a
/// byte or more (so that no entry is free and no budget is needed).
fn writes_blocks(c: &Check) -> bool {
    match c {
        Check::Group { block, entry, .. } => *block > 0 && entry.iter().all(writes_blocks),
        _ => true,
    }
}

/// The header the encoders write, as one load: the slot spanning the `size` bytes and its
/// value, from its members and their values; `None` unless the members are on the wire, fill
/// the header and make one 2-, 4- or 8-byte load ([`crate::one_store`]).
fn written_header(size: usize, members: &mut [(Slot, u64)]) -> Option<(Slot, u64)> {
    members.sort_by_key(|m| m.0.offset);
    let first = members.first()?.0;
    let fits = |(s, v): &(Slot, u64)| {
        s.constant.is_none() && s.width() <= 8 && (s.width() == 8 || *v >> (8 * s.width()) == 0)
    };
    if first.offset != 0 || !members.iter().all(fits) {
        return None;
    }
    let parts: Vec<(usize, usize)> = members.iter().map(|m| (m.0.offset, m.0.width())).collect();
    let (ty, shifts) = crate::one_store(&parts, first.order)?;
    if ty.size() != size {
        return None;
    }
    let value = members
        .iter()
        .zip(shifts)
        .fold(0u64, |acc, (m, shift)| acc | m.1 << shift);
    let slot = Slot {
        ty,
        offset: 0,
        order: first.order,
        max: u64::MAX,
        constant: None,
    };
    Some((slot, value))
}

/// True for the checks of a group or var-data section.
fn is_section(c: &Check) -> bool {
    matches!(c, Check::Group { .. } | Check::VarData { .. })
}

/// The head of a section present at every version, as a [`Then`]; `None` for a section gated
/// by a version (its test does not always run; in the usual program every section is
/// present) or none.
fn head(c: Option<&Check>, mode: Mode) -> Option<Then> {
    let (path, bytes) = match c {
        Some(Check::Group {
            path,
            since,
            dim_size,
            ..
        }) if *since == 0 || mode == Mode::Usual => (path, *dim_size),
        Some(Check::VarData {
            path,
            since,
            data_offset,
            ..
        }) if *since == 0 || mode == Mode::Usual => (path, *data_offset),
        _ => return None,
    };
    Some(Then {
        bytes,
        fail: Fail {
            error: CheckError::Truncated,
            at: At::Cursor,
            path: path.clone(),
        },
    })
}

/// The steps of one section (a group or var data) at nesting `depth`. `merged`: its head was
/// checked by the test before it. `next`: the head of the section after it, which its last
/// test carries where that is exact. Returns the section's scope and whether `next` was taken.
fn section_steps(
    c: &Check,
    depth: usize,
    merged: bool,
    next: Option<Then>,
    mode: Mode,
) -> (Step, bool) {
    // Only a section present at every version carries the next head: its test always runs.
    let next = match c {
        _ if mode == Mode::Usual => next,
        Check::Group { since: 0, .. } | Check::VarData { since: 0, .. } => next,
        _ => None,
    };
    let mut took = false;
    let at = |path: &str, error, at| Fail {
        error,
        at,
        path: path.to_string(),
    };
    let mut steps = Vec::new();
    let since = match c {
        Check::Group {
            path,
            since,
            dim_size,
            block_length,
            count,
            block: written,
            required,
            entry,
            ..
        } => {
            let (block, n) = (Local::Block(depth), Local::Count(depth));
            steps.push(Step::Need {
                bytes: *dim_size,
                fail: at(path, CheckError::Truncated, At::Cursor),
                merged,
            });
            steps.push(Step::Load {
                local: block,
                slot: *block_length,
            });
            steps.push(Step::Load {
                local: n,
                slot: *count,
            });
            if count.max != u64::MAX {
                steps.push(Step::AtMost {
                    local: n,
                    max: count.max,
                    fail: at(
                        path,
                        CheckError::InvalidDimension,
                        At::CursorPlus(count.offset),
                    ),
                });
            }
            let short = at(
                path,
                CheckError::BlockLengthTooShort,
                At::CursorPlus(block_length.offset),
            );
            if mode == Mode::Usual {
                steps.push(Step::BlockIs {
                    block,
                    bytes: *written,
                    fail: short,
                });
                steps.push(Step::Advance { bytes: *dim_size });
            } else {
                if required.iter().any(|r| r.1 > 0) {
                    steps.push(Step::BlockCovers {
                        block,
                        required: required.to_vec(),
                        unless_empty: Some(n),
                        fail: short,
                    });
                }
                steps.push(Step::Advance { bytes: *dim_size });
                let (base, changes) = required_changes(required);
                steps.push(Step::ChargeEmpty {
                    block,
                    count: n,
                    fail: at(path, CheckError::EmptyEntryBudget, At::Cursor),
                    covered: base > 0 && changes.iter().all(|c| c.1 > 0),
                });
            }
            let truncated = at(path, CheckError::Truncated, At::Cursor);
            if entry.is_empty() {
                // Below 2^32 each, the product is exact in 64 unsigned bits: no division.
                let exact = block_length.width() <= 4 && count.width() <= 4;
                let then = next.filter(|_| exact);
                took = then.is_some();
                steps.push(Step::EntriesFit {
                    block,
                    count: n,
                    exact,
                    fail: truncated,
                    then,
                });
                steps.push(Step::AdvanceEntries { block, count: n });
            } else {
                let inner: Vec<&Check> = entry.iter().filter(|e| is_section(e)).collect();
                // The entry's block and its first section's head in one test, below 2^32.
                let then = head(inner.first().copied(), mode).filter(|_| block_length.width() <= 4);
                let mut done = then.is_some();
                let mut each = vec![
                    Step::Fits {
                        local: block,
                        skip: 0,
                        fail: truncated,
                        then,
                    },
                    Step::AdvanceBy {
                        local: block,
                        skip: 0,
                    },
                ];
                for (j, e) in inner.iter().enumerate() {
                    let next = head(inner.get(j + 1).copied(), mode);
                    let (step, next_done) = section_steps(e, depth + 1, done, next, mode);
                    each.push(step);
                    done = next_done;
                }
                steps.push(Step::Repeat {
                    index: Local::Index(depth),
                    count: n,
                    steps: each,
                });
            }
            *since
        }
        Check::VarData {
            path,
            since,
            length,
            data_offset,
        } => {
            let len = Local::Length(depth);
            let l = *data_offset;
            steps.push(Step::Need {
                bytes: l,
                fail: at(path, CheckError::Truncated, At::Cursor),
                merged,
            });
            steps.push(Step::Load {
                local: len,
                slot: *length,
            });
            if length.max != u64::MAX {
                steps.push(Step::AtMost {
                    local: len,
                    max: length.max,
                    fail: at(
                        path,
                        CheckError::InvalidDimension,
                        At::CursorPlus(length.offset),
                    ),
                });
            }
            // A length checked below 2^32 is small enough to add the next head to it.
            let then = next.filter(|_| length.max <= u64::from(u32::MAX));
            took = then.is_some();
            steps.push(Step::Fits {
                local: len,
                skip: l,
                fail: at(path, CheckError::Truncated, At::CursorPlus(l)),
                then,
            });
            steps.push(Step::AdvanceBy {
                local: len,
                skip: l,
            });
            *since
        }
        _ => unreachable!("only sections nest"),
    };
    (
        Step::Scope {
            since: (since > 0 && mode == Mode::Full).then_some(since),
            steps,
        },
        took,
    )
}

/// The bytes a block needs at version 0, and each later version at which that changes with
/// its new length, in ascending versions (`required` is the layout's `(version, bytes)` table;
/// a version that adds only constants, or fields inside the old extent, changes nothing).
pub fn required_changes(required: &[(u32, usize)]) -> (usize, Vec<(u32, usize)>) {
    let mut base = 0;
    let mut changes: Vec<(u32, usize)> = Vec::new();
    for &(v, len) in required {
        if v == 0 {
            base = len;
        } else if changes.last().map_or(base, |c| c.1) != len {
            changes.push((v, len));
        }
    }
    (base, changes)
}

/// The block length needed at the acting version, built from `bytes(n)` literals and
/// `pick(version, then, otherwise)` for each version at which it changes
/// ([`required_changes`]); `None` when it is 0 at every version.
pub fn required_expr(
    required: &[(u32, usize)],
    bytes: impl Fn(usize) -> String,
    pick: impl Fn(u32, &str, &str) -> String,
) -> Option<String> {
    let (base, changes) = required_changes(required);
    if base == 0 && changes.is_empty() {
        return None;
    }
    let mut e = bytes(base);
    for (v, len) in changes {
        e = pick(v, &bytes(len), &e);
    }
    Some(e)
}

/// What a language supplies to render a check program: expressions, names and the
/// statements whose shape is its own. The defaults write C-family statements over the locals
/// `sbe_*`, the message at `sbe_o` of `sbe_b`, `sbe_n` bytes long, and the cursor `sbe_q`,
/// lengths as unsigned integers.
pub trait CheckSyntax {
    /// The statement that raises `f` at offset `at` (an expression from [`CheckSyntax::at`]
    /// or [`CheckSyntax::at_expr`]).
    fn fail_at(&self, f: &Fail, at: &str) -> String;
    /// The statement that raises `f`.
    fn fail(&self, f: &Fail) -> String {
        self.fail_at(f, &self.at(f.at))
    }
    /// An offset expression as [`CheckSyntax::fail_at`] takes it.
    fn at_expr(&self, expr: &str) -> String {
        expr.to_string()
    }
    /// True when the syntax checks a section's head with the test before it (see [`Then`]).
    fn merges(&self) -> bool {
        false
    }
    /// True when every failure is the same statement (the usual program's way out to the full
    /// one, [`usual_of_message`]): a merged test then needs no second test to tell which
    /// check failed.
    fn fails_alike(&self) -> bool {
        false
    }
    /// True when the syntax leaves out the empty-entry charges that can only be of 0 entries
    /// (`covered` in [`Step::ChargeEmpty`]); its budget may then go unused.
    fn drops_covered_charges(&self) -> bool {
        false
    }
    /// A length widened to 64 bits, so that adding a head to it is exact.
    fn widen(&self, expr: &str) -> String {
        expr.to_string()
    }
    /// `block * count` (both below 2^32) as a 64-bit product.
    fn product(&self, block: &str, count: &str) -> String {
        format!("{block} * {count}")
    }
    /// `a op b`, `a` and `b` compared as unsigned 64-bit integers (as they are, where lengths
    /// are unsigned).
    fn unsigned(&self, a: &str, op: &str, b: &str) -> String {
        format!("{a} {op} {b}")
    }
    /// `a / b` as unsigned 64-bit integers.
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("({a}) / {b}")
    }
    /// A literal of a 64-bit value compared with a header member.
    fn literal(&self, v: u64) -> String;
    /// A slot's value as a 64-bit integer, the structure starting at `pos` of the input.
    fn load_at(&self, slot: &Slot, pos: &str) -> String;
    /// The empty-entry budget's starting value (the schema's constant).
    fn budget_max(&self) -> String;
    /// A literal of a 64-bit value in an unsigned comparison (a slot's `max`).
    fn unsigned_literal(&self, v: u64) -> String {
        self.literal(v)
    }
    /// Where a failure is reported, as an expression of the offset from the message start.
    fn at(&self, a: At) -> String {
        self.at_expr(&match a {
            At::Offset(n) => n.to_string(),
            At::Cursor => self.cursor(),
            At::CursorPlus(k) => format!("{} + {k}", self.cursor()),
        })
    }
    /// What the names of the program's locals start with (`sbe_`, clear of schema names).
    fn prefix(&self) -> &'static str {
        "sbe_"
    }
    /// A local's name.
    fn local(&self, l: Local) -> String {
        let p = self.prefix();
        match l {
            Local::RootBlock => format!("{p}bl"),
            Local::Version => format!("{p}av"),
            Local::Block(d) => format!("{p}bl{d}"),
            Local::Count(d) => format!("{p}c{d}"),
            Local::Index(d) => format!("{p}i{d}"),
            Local::Length(d) => format!("{p}l{d}"),
            Local::Budget => format!("{p}budget"),
        }
    }
    /// The type that declares a 64-bit local that does not change (`long`, `final long`).
    fn fixed_long(&self) -> &'static str {
        "long"
    }
    /// The type that declares an `int` local that does not change.
    fn fixed_int(&self) -> &'static str {
        "int"
    }
    /// Where the message starts in the input.
    fn message_start(&self) -> String {
        "sbe_o".into()
    }
    /// A header member's value at the message start.
    fn header_value(&self, v: &HeaderValue) -> String {
        match v {
            HeaderValue::Constant(c) => self.literal(*c),
            HeaderValue::Slot(s) => self.load_at(s, &self.message_start()),
        }
    }
    /// A slot of the structure at the cursor.
    fn load(&self, slot: &Slot) -> String {
        self.load_at(
            slot,
            &format!("{} + {}", self.message_start(), self.cursor()),
        )
    }
    /// The statement declaring `local` with a 64-bit value.
    fn declare(&self, local: Local, value: &str) -> String {
        format!("{} {} = {value};", self.fixed_long(), self.local(local))
    }
    /// The statement that notes where section `index` starts: a local until every step
    /// passed, so that a failed check changes nothing.
    fn mark_section(&self, index: usize) -> String {
        format!(
            "{} sbe_s{index} = sbe_o + {};",
            self.fixed_int(),
            self.cursor()
        )
    }
    /// The statement that starts the empty-entry budget.
    fn start_budget(&self) -> String {
        format!(
            "long {} = {};",
            self.local(Local::Budget),
            self.budget_max()
        )
    }
    /// The input's length from the message start.
    fn length(&self) -> String {
        format!("{}n", self.prefix())
    }
    /// The cursor (bytes from the message start).
    fn cursor(&self) -> String {
        format!("{}q", self.prefix())
    }
    /// True when lengths are signed 64-bit integers compared as unsigned (Java's and C#'s
    /// `long`) and the cursor is a 32-bit `int`; false for unsigned lengths and cursor.
    fn signed_lengths(&self) -> bool {
        false
    }
    /// `expr` (a local, or a product of two) as the cursor's integer type.
    fn to_cursor(&self, expr: &str) -> String {
        match (self.signed_lengths(), expr.contains(' ')) {
            (false, _) => expr.to_string(),
            (true, false) => format!("(int) {expr}"),
            (true, true) => format!("(int) ({expr})"),
        }
    }
    /// What ends a statement.
    fn end(&self) -> &'static str {
        ";"
    }
    /// `len` bytes are more than `room` (unsigned): the test of a length against what is left.
    fn exceeds(&self, len: &str, room: &str) -> String {
        if self.signed_lengths() {
            self.unsigned(len, ">", room)
        } else {
            format!("{room} < {len}")
        }
    }
    /// `entries * block` bytes are more than `room`, the product exact in 64 bits.
    fn product_exceeds(&self, block: &str, count: &str, room: &str) -> String {
        self.unsigned(&self.product(block, count), ">", room)
    }
    /// A number of bytes, as the block length's type.
    fn bytes(&self, n: usize) -> String {
        n.to_string()
    }
    /// The block length needed at the acting version (`None` when 0 at every version).
    fn required(&self, block: Local, required: &[(u32, usize)]) -> Option<String> {
        let _ = block;
        required_expr(required, |n| self.bytes(n), |v, b, e| self.pick(v, b, e))
    }
    /// The statement that declares the cursor at `value`.
    fn declare_cursor(&self, value: &str) -> String {
        format!("int {} = {value};", self.cursor())
    }
    /// A version number as a literal compared with the acting version (`2`, `2u`).
    fn version_literal(&self, version: u32) -> String {
        version.to_string()
    }
    /// `local >= since` for the acting version.
    fn since(&self, since: u32) -> String {
        format!(
            "{} >= {}",
            self.local(Local::Version),
            self.version_literal(since)
        )
    }
    /// The expression for `(av >= version) ? bytes : otherwise`.
    fn pick(&self, version: u32, bytes: &str, otherwise: &str) -> String {
        format!("({} ? {bytes} : {otherwise})", self.since(version))
    }
    /// One statement run when `cond` holds (lines may be split by `\n`).
    fn when(&self, cond: &str, stmt: &str) -> String {
        format!("if ({cond}) {stmt}")
    }
    /// Opens a block run when `cond` holds (`None`: always).
    fn open(&self, cond: Option<&str>) -> String {
        match cond {
            Some(c) => format!("if ({c}) {{"),
            None => "{".to_string(),
        }
    }
    /// Closes a block.
    fn close(&self) -> String {
        "}".to_string()
    }
    /// The type of a loop's index (`long`, `size_t`).
    fn index_type(&self) -> &'static str {
        "long"
    }
    /// Opens a loop of `index` over `0..count`.
    fn open_loop(&self, index: Local, count: Local) -> String {
        let (i, c, t) = (self.local(index), self.local(count), self.index_type());
        match self.signed_lengths() {
            true => format!(
                "for ({t} {i} = 0; {}; {i}++) {{",
                self.unsigned(&i, "<", &c)
            ),
            false => format!("for ({t} {i} = 0; {i} < {c}; ++{i}) {{"),
        }
    }
    /// `count` is not zero.
    fn nonzero(&self, count: &str) -> String {
        if self.signed_lengths() {
            format!("{count} != 0")
        } else {
            format!("{count} > 0")
        }
    }
    /// `a + b`, bytes.
    fn plus(&self, a: &str, b: &str) -> String {
        format!("{a} + {b}")
    }
    /// `a * b`, bytes.
    fn times(&self, a: &str, b: &str) -> String {
        format!("{a} * {b}")
    }
    /// `a - b`, bytes.
    fn minus(&self, a: &str, b: &str) -> String {
        format!("{a} - {b}")
    }
}

/// The check program of message `m` rendered through `syntax`, one line each.
pub fn lines(m: &Message, syntax: &dyn CheckSyntax) -> Vec<String> {
    let mut out = Vec::new();
    render(&of_message(m), syntax, &mut out);
    split_lines(out)
}

/// The usual message's check program ([`usual_of_message`]) of `m` rendered through `syntax`,
/// one line each; `None` when the message has none.
pub fn usual_lines(m: &Message, version: u32, syntax: &dyn CheckSyntax) -> Option<Vec<String>> {
    let mut out = Vec::new();
    render(&usual_of_message(m, version)?, syntax, &mut out);
    Some(split_lines(out))
}

fn split_lines(out: Vec<String>) -> Vec<String> {
    out.iter()
        .filter(|l| !l.is_empty())
        .flat_map(|l| l.split('\n'))
        .map(str::to_string)
        .collect()
}

/// Renders `steps` as lines through `syntax`.
pub fn render(steps: &[Step], s: &dyn CheckSyntax, out: &mut Vec<String>) {
    let left = || s.minus(&s.length(), &s.cursor());
    for step in steps {
        match step {
            Step::NeedHeader { size, fail } => {
                out.push(s.when(&format!("{} < {size}", s.length()), &s.fail(fail)))
            }
            Step::HeaderEquals {
                value,
                expected,
                fail,
            } => out.push(s.when(
                &format!("{} != {}", s.header_value(value), s.literal(*expected)),
                &s.fail(fail),
            )),
            Step::LetHeader { local, value } => out.push(s.declare(*local, &s.header_value(value))),
            Step::BlockCovers {
                block,
                required,
                unless_empty,
                fail,
            } => {
                let Some(req) = s.required(*block, required) else {
                    continue;
                };
                let short = s.unsigned(&s.local(*block), "<", &req);
                let cond = match unless_empty {
                    Some(n) => format!("{} && {short}", s.nonzero(&s.local(*n))),
                    None => short,
                };
                out.push(s.when(&cond, &s.fail(fail)));
            }
            Step::BlockIs { block, bytes, fail } => out.push(s.when(
                &format!("{} != {}", s.local(*block), s.bytes(*bytes)),
                &s.fail(fail),
            )),
            Step::RootFits {
                block,
                header,
                fail,
                then,
            } => {
                let (b, room) = (s.local(*block), s.minus(&s.length(), &header.to_string()));
                let test = s.exceeds(&b, &room);
                match then.as_ref().filter(|_| s.merges()) {
                    Some(t) => {
                        let end = s.plus(&header.to_string(), &b);
                        merged(s, out, &s.widen(&b), &room, &test, fail, t, &end);
                    }
                    None => out.push(s.when(&test, &s.fail(fail))),
                }
            }
            Step::StartCursor { header, block } => {
                out.push(s.declare_cursor(&format!("{header} + {}", s.to_cursor(&s.local(*block)))))
            }
            Step::StartBudget => out.push(s.start_budget()),
            Step::MarkSection { index } => out.push(s.mark_section(*index)),
            Step::Scope { since, steps } => {
                out.push(s.open(since.map(|v| s.since(v)).as_deref()));
                render(steps, s, out);
                out.push(s.close());
            }
            Step::Need { merged: true, .. } if s.merges() => {}
            Step::Need { bytes, fail, .. } => {
                out.push(s.when(&format!("{} < {bytes}", left()), &s.fail(fail)))
            }
            Step::Load { local, slot } => out.push(s.declare(*local, &s.load(slot))),
            Step::AtMost { local, max, fail } => out.push(s.when(
                &s.unsigned(&s.local(*local), ">", &s.unsigned_literal(*max)),
                &s.fail(fail),
            )),
            Step::Advance { bytes } => out.push(format!("{} += {bytes}{}", s.cursor(), s.end())),
            Step::ChargeEmpty { covered: true, .. } if s.drops_covered_charges() => {}
            Step::ChargeEmpty {
                block, count, fail, ..
            } => {
                let (b, n, budget) = (s.local(*block), s.local(*count), s.local(Local::Budget));
                out.push(s.open(Some(&format!("{b} == 0"))));
                out.push(s.when(&s.unsigned(&n, ">", &budget), &s.fail(fail)));
                out.push(format!("{budget} -= {n}{}", s.end()));
                out.push(s.close());
            }
            Step::EntriesFit {
                block,
                count,
                exact,
                fail,
                then,
            } => {
                let (b, n) = (s.local(*block), s.local(*count));
                let cond = if *exact {
                    s.product_exceeds(&b, &n, &left())
                } else {
                    format!(
                        "{b} != 0 && {}",
                        s.unsigned(&n, ">", &s.unsigned_div(&left(), &b))
                    )
                };
                match then.as_ref().filter(|_| s.merges() && *exact) {
                    Some(t) => {
                        let end = s.plus(&s.cursor(), &s.times(&b, &n));
                        merged(s, out, &s.product(&b, &n), &left(), &cond, fail, t, &end);
                    }
                    None => out.push(s.when(&cond, &s.fail(fail))),
                }
            }
            Step::AdvanceEntries { block, count } => out.push(format!(
                "{} += {}{}",
                s.cursor(),
                s.to_cursor(&format!("{} * {}", s.local(*block), s.local(*count))),
                s.end()
            )),
            Step::Repeat {
                index,
                count,
                steps,
            } => {
                out.push(s.open_loop(*index, *count));
                render(steps, s, out);
                out.push(s.close());
            }
            Step::Fits {
                local,
                skip,
                fail,
                then,
            } => {
                let l = s.local(*local);
                let (room, end) = match skip {
                    0 => (left(), s.plus(&s.cursor(), &l)),
                    k => (
                        s.minus(&left(), &k.to_string()),
                        s.plus(&s.plus(&s.cursor(), &k.to_string()), &l),
                    ),
                };
                let test = s.exceeds(&l, &room);
                match then.as_ref().filter(|_| s.merges()) {
                    Some(t) => merged(s, out, &s.widen(&l), &room, &test, fail, t, &end),
                    None => out.push(s.when(&test, &s.fail(fail))),
                }
            }
            Step::AdvanceBy { local, skip } => {
                let by = s.to_cursor(&s.local(*local));
                out.push(match skip {
                    0 => format!("{} += {by}{}", s.cursor(), s.end()),
                    k => format!("{} += {k} + {by}{}", s.cursor(), s.end()),
                });
            }
        }
    }
}

/// A test that also covers the next section's head: `len + head > room` fails when either
/// does; on that (cold) branch `test` tells which, so the error is the one the two tests in
/// turn would give (`end`: where the next section starts).
#[allow(clippy::too_many_arguments)]
fn merged(
    s: &dyn CheckSyntax,
    out: &mut Vec<String>,
    len: &str,
    room: &str,
    test: &str,
    fail: &Fail,
    then: &Then,
    end: &str,
) {
    let fast = s.unsigned(&s.plus(len, &then.bytes.to_string()), ">", room);
    if s.fails_alike() {
        out.push(s.when(&fast, &s.fail(fail)));
        return;
    }
    out.push(s.open(Some(&fast)));
    out.push(s.when(test, &s.fail(fail)));
    out.push(s.fail_at(&then.fail, &s.at_expr(end)));
    out.push(s.close());
}

impl CheckError {
    /// The error's name in upper camel case (`BlockLengthTooShort`).
    pub fn name(self) -> &'static str {
        match self {
            CheckError::Truncated => "Truncated",
            CheckError::WrongSchemaId => "WrongSchemaId",
            CheckError::WrongTemplateId => "WrongTemplateId",
            CheckError::BlockLengthTooShort => "BlockLengthTooShort",
            CheckError::InvalidDimension => "InvalidDimension",
            CheckError::EmptyEntryBudget => "EmptyEntryBudget",
        }
    }

    /// The error's name in `SCREAMING_SNAKE` case (`BLOCK_LENGTH_TOO_SHORT`).
    pub fn screaming(self) -> &'static str {
        match self {
            CheckError::Truncated => "TRUNCATED",
            CheckError::WrongSchemaId => "WRONG_SCHEMA_ID",
            CheckError::WrongTemplateId => "WRONG_TEMPLATE_ID",
            CheckError::BlockLengthTooShort => "BLOCK_LENGTH_TOO_SHORT",
            CheckError::InvalidDimension => "INVALID_DIMENSION",
            CheckError::EmptyEntryBudget => "EMPTY_ENTRY_BUDGET",
        }
    }
}

/// How a language writes the walk that locates a checked body's sections: no tests (the
/// message passed its check program), only where each section starts.
pub trait LocateSyntax {
    /// The statement noting that section `index` (or, for the section count, the body's end)
    /// starts at the cursor.
    fn mark(&self, index: usize) -> String;
    /// The statement moving the cursor past a group whose entries the iterator type `iter`
    /// walks.
    fn skip_group(&self, iter: &str) -> String;
    /// The statement moving the cursor past var data: its `prefix` bytes and the length in
    /// slot `len` of the prefix at the cursor.
    fn skip_var(&self, prefix: usize, len: &Slot) -> String;
    /// `stmt`, run only at acting versions from `since` on.
    fn gated(&self, since: u32, stmt: &str) -> String;
}

/// The walk over `b`'s sections (named `n`) that notes where each starts, one statement a
/// line: a mark and a step per section, then a mark of the end.
pub fn locate(b: &Body, n: &BodyNames, syntax: &dyn LocateSyntax) -> Vec<String> {
    let mut out = Vec::new();
    let mut iters = n.children.iter().map(|c| c.iter.as_str());
    for (i, s) in b.sections.iter().enumerate() {
        out.push(syntax.mark(i));
        let step = match s {
            Section::Group { .. } => syntax.skip_group(iters.next().unwrap_or_default()),
            Section::Var { len, .. } => syntax.skip_var(s.data_offset(), len),
        };
        out.push(match s.since() {
            0 => step,
            since => syntax.gated(since, &step),
        });
    }
    out.push(syntax.mark(b.sections.len()));
    out
}
