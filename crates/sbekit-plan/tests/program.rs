//! The check program (`sbekit_plan::program`) of our own schemas: every merged head is carried
//! by the test just before it, a non-merging syntax still tests every head, and the rendered
//! statements follow the checks' order.

use sbekit_plan::program::{self, At, CheckSyntax, Fail, Local, Step, Then};
use sbekit_plan::{Check, CheckError, Slot};

mod common;
use common::plan;

const SCHEMAS: [&str; 3] = [
    "crates/sbekit-codegen-tests/schemas/orders-be.xml",
    "schemas/market-data.xml",
    "crates/sbekit-codegen-tests/schemas/hostile-names.xml",
];

/// The steps in the order they run (pre-order), scopes and loops entered.
fn flatten<'a>(steps: &'a [Step], out: &mut Vec<&'a Step>) {
    for s in steps {
        out.push(s);
        match s {
            Step::Scope { steps, .. } | Step::Repeat { steps, .. } => flatten(steps, out),
            _ => {}
        }
    }
}

fn then_of(s: &Step) -> Option<&Then> {
    match s {
        Step::RootFits { then, .. } | Step::EntriesFit { then, .. } | Step::Fits { then, .. } => {
            then.as_ref()
        }
        _ => None,
    }
}

#[test]
fn every_merged_head_is_carried_by_the_test_before_it() {
    let mut merged_heads = 0;
    for schema in SCHEMAS {
        for m in &plan(schema).messages {
            let steps = program::of_message(m);
            let mut flat = Vec::new();
            flatten(&steps, &mut flat);
            // A head carried by a test must be the next `Need` to run, marked merged, with the
            // same size and path; and a merged `Need` must have such a carrier.
            let mut pending: Option<&Then> = None;
            for s in &flat {
                if let Step::Need {
                    bytes,
                    fail,
                    merged,
                } = s
                {
                    match pending.take() {
                        Some(t) => {
                            assert!(*merged, "{}: {} not marked merged", m.body.name, fail.path);
                            assert_eq!((t.bytes, &t.fail.path), (*bytes, &fail.path));
                            merged_heads += 1;
                        }
                        None => assert!(
                            !merged,
                            "{}: {} merged into nothing",
                            m.body.name, fail.path
                        ),
                    }
                }
                if let Some(t) = then_of(s) {
                    assert!(pending.is_none(), "two heads in flight in {}", m.body.name);
                    pending = Some(t);
                }
            }
            assert!(
                pending.is_none(),
                "{}: a head carried past the end",
                m.body.name
            );
        }
    }
    assert!(merged_heads > 5, "only {merged_heads} merged heads");
}

#[test]
fn sections_gated_by_a_version_never_carry_or_lose_a_head() {
    for schema in SCHEMAS {
        for m in &plan(schema).messages {
            let steps = program::of_message(m);
            let mut flat = Vec::new();
            flatten(&steps, &mut flat);
            for s in flat {
                if let Step::Scope {
                    since: Some(_),
                    steps,
                } = s
                {
                    // Its own head is tested inside it (the test before may not have run it)...
                    assert!(
                        matches!(steps.first(), Some(Step::Need { merged: false, .. })),
                        "{}: {steps:?}",
                        m.body.name
                    );
                    // ...and its tests carry no head of the section after it.
                    assert!(
                        steps.iter().all(|s| then_of(s).is_none()),
                        "{}",
                        m.body.name
                    );
                }
            }
        }
    }
}

/// A small syntax: the defaults, failures as `fail(ERROR, at, path)`.
struct Plain {
    merges: bool,
}

impl CheckSyntax for Plain {
    fn fail_at(&self, f: &Fail, at: &str) -> String {
        format!("fail({}, {at}, {});", f.error.screaming(), f.path)
    }
    fn unsigned(&self, a: &str, op: &str, b: &str) -> String {
        format!("{a} {op} {b}")
    }
    fn unsigned_div(&self, a: &str, b: &str) -> String {
        format!("({a}) / {b}")
    }
    fn literal(&self, v: u64) -> String {
        v.to_string()
    }
    fn load_at(&self, slot: &Slot, pos: &str) -> String {
        format!("load{}({pos} + {})", slot.width(), slot.offset)
    }
    fn budget_max(&self) -> String {
        "MAX".into()
    }
    fn merges(&self) -> bool {
        self.merges
    }
}

#[test]
fn rendering_follows_the_checks_and_tests_every_head_without_merging() {
    let p = plan("crates/sbekit-codegen-tests/schemas/orders-be.xml");
    for m in &p.messages {
        let plain = program::lines(m, &Plain { merges: false });
        let merged = program::lines(m, &Plain { merges: true });
        let header = p.header.size;
        assert_eq!(
            plain[0],
            format!("if (sbe_n < {header}) fail(TRUNCATED, 0, {});", m.body.name)
        );
        // One head test per section, wherever it sits.
        let sections = m.checks.iter().map(count_sections).sum::<usize>();
        let heads = |lines: &[String]| {
            lines
                .iter()
                .filter_map(|l| l.strip_prefix("if (sbe_n - sbe_q < "))
                // A head's size is a number; a block's or a length's is a local.
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                .count()
        };
        assert_eq!(
            heads(&plain),
            sections,
            "{}:\n{}",
            m.body.name,
            plain.join("\n")
        );
        // Merging drops exactly the carried heads' own tests.
        let mut flat = Vec::new();
        let steps = program::of_message(m);
        flatten(&steps, &mut flat);
        let carried = flat.iter().filter(|s| then_of(s).is_some()).count();
        assert_eq!(heads(&merged), sections - carried, "{}", m.body.name);
        // Both renderings raise the same set of failures.
        let fails = |lines: &[String]| {
            let mut f: Vec<String> = lines
                .iter()
                .filter_map(|l| l.find("fail(").map(|at| l[at..].to_string()))
                .map(|f| f.split(',').next().unwrap_or_default().to_string())
                .collect();
            f.sort();
            f.dedup();
            f
        };
        assert_eq!(fails(&plain), fails(&merged), "{}", m.body.name);
    }
}

fn count_sections(c: &Check) -> usize {
    match c {
        Check::Group { entry, .. } => 1 + entry.iter().map(count_sections).sum::<usize>(),
        Check::VarData { .. } => 1,
        _ => 0,
    }
}

#[test]
fn narrow_fixed_groups_multiply_and_failures_point_at_the_structure() {
    let p = plan("schemas/market-data.xml");
    let mut exact = 0;
    for m in &p.messages {
        let mut flat = Vec::new();
        let steps = program::of_message(m);
        flatten(&steps, &mut flat);
        for s in flat {
            match s {
                Step::EntriesFit {
                    exact: e,
                    fail,
                    block,
                    count,
                    ..
                } => {
                    exact += usize::from(*e);
                    assert_eq!((fail.error, fail.at), (CheckError::Truncated, At::Cursor));
                    assert!(matches!((block, count), (Local::Block(d), Local::Count(e)) if d == e));
                }
                Step::AtMost { fail, .. } => {
                    assert_eq!(fail.error, CheckError::InvalidDimension);
                    assert!(matches!(fail.at, At::CursorPlus(_)));
                }
                _ => {}
            }
        }
    }
    // market-data's groups have uint16 dimensions: their products are exact.
    assert!(exact >= 2, "{exact}");
}

#[test]
fn required_lengths_keep_only_the_versions_that_change_them() {
    let pick = |v: u32, then: &str, otherwise: &str| format!("(av >= {v} ? {then} : {otherwise})");
    // Version 1 adds only a constant: it changes nothing and is left out.
    let table = [(0, 10), (1, 10), (2, 14), (3, 14), (4, 20)];
    assert_eq!(
        program::required_changes(&table),
        (10, vec![(2, 14), (4, 20)])
    );
    assert_eq!(
        program::required_expr(&table, |n| n.to_string(), pick).as_deref(),
        Some("(av >= 4 ? 20 : (av >= 2 ? 14 : 10))")
    );
    // The same length at every version is a literal; nothing needed at any version is none.
    let flat = [(0, 247), (3, 247), (4, 247)];
    assert_eq!(
        program::required_expr(&flat, |n| format!("{n}u"), pick).as_deref(),
        Some("247u")
    );
    assert_eq!(
        program::required_expr(&[(0, 0), (1, 0)], |n| n.to_string(), pick),
        None
    );
    // A table that starts above version 0 needs nothing before its first version.
    assert_eq!(program::required_changes(&[(2, 8)]), (0, vec![(2, 8)]));
}
