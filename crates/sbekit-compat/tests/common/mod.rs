//! Shared helpers: run the checker and the oracle on a pair and say whether they agree.

#![allow(dead_code)]

use sbekit_compat::{oracle, Direction, Effect, Options, Schema, Verdict};

/// Messages per message type and way in tests (kept small for CI time).
pub const MESSAGES: usize = 60;

/// The checker's and the oracle's verdicts for one pair.
pub struct Outcome {
    pub report: sbekit_compat::Report,
    pub oracle: oracle::OracleReport,
}

impl Outcome {
    /// The oracle's worst effect over both ways.
    pub fn oracle_effect(&self) -> Effect {
        sbekit_compat::oracle_effect(&self.oracle, Direction::Full)
    }

    /// Checker and oracle agree: breaking exactly when the oracle finds a difference, and a
    /// warning whenever the oracle sees readers meet unknown values.
    pub fn agrees(&self) -> bool {
        let checker_breaks = self.report.verdict == Verdict::Breaking;
        let oracle_breaks = self.oracle_effect() == Effect::Break;
        checker_breaks == oracle_breaks
            && (self.oracle_effect() != Effect::Warn || self.report.verdict >= Verdict::Warnings)
    }

    /// A description for assertion messages.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "checker: {:?}; oracle: backward {:?}, forward {:?}\n",
            self.report.verdict, self.oracle.backward.effect, self.oracle.forward.effect
        );
        for d in &self.report.diagnostics {
            s.push_str(&format!("  {d}\n"));
        }
        for c in [&self.oracle.backward, &self.oracle.forward]
            .into_iter()
            .filter_map(|w| w.counterexample.as_ref())
        {
            s.push_str(&format!(
                "  counterexample {:?} {} v{} at {}: writer {} reader {}\n    w {}\n    r {}\n",
                c.way,
                c.message,
                c.writer_version,
                c.path,
                c.writer,
                c.reader,
                c.writer_json,
                c.reader_json
            ));
        }
        s
    }

    /// True when a finding of `rule` was reported (any tier).
    pub fn has(&self, rule: &str) -> bool {
        self.report
            .comparison
            .findings
            .iter()
            .any(|f| f.rule.name == rule)
    }
}

/// Checks `old` against `new` (wire tier, both directions) and runs the oracle.
pub fn run(old: &Schema, new: &Schema, messages: usize) -> Outcome {
    let report = sbekit_compat::check(old, new, &Options::default());
    let oracle = oracle::run(old, new, &report.comparison.renames, messages, 7)
        .unwrap_or_else(|e| panic!("oracle failed: {e}"));
    Outcome { report, oracle }
}

/// Compiles schema text (panics with the diagnostics if it does not compile).
pub fn schema(label: &str, text: &str) -> Schema {
    Schema::from_xml_str(label, text).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies `(from, to)` replacements (each must match) to `text`.
pub fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    let mut t = text.to_string();
    for (from, to) in edits {
        assert!(t.contains(from), "edit target not found: {from}");
        t = t.replacen(from, to, 1);
    }
    t
}
