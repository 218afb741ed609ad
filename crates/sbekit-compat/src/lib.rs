//! Schema-evolution checking for SBE: is a new schema version compatible with an old one?
//!
//! [`check()`] compares two schemas' layout models ([`sbekit_ir::layout::Layout`]) rule by rule
//! ([`rules::ALL`]); each finding says what it does to *backward* compatibility (new readers,
//! old messages) and *forward* compatibility (old readers, new messages). [`oracle::run`]
//! proves a verdict by execution: random messages of one version read with the other's decoder,
//! every shared element compared.
//!
//! ```no_run
//! let old = sbekit_compat::load("old.xml").unwrap();
//! let new = sbekit_compat::load("new.xml").unwrap();
//! let report = sbekit_compat::check(&old, &new, &Default::default());
//! for d in &report.diagnostics {
//!     eprintln!("{d}"); // new.xml:41:9: error[field-moved]: 'Car.x' moved ... (old: old.xml:38:9)
//! }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
mod error;
mod locate;
pub mod oracle;
pub mod rules;
mod source;

pub use check::{Comparison, Elem, Finding};
pub use error::{LoadError, OracleError};
pub use locate::SourceIndex;
pub use rules::{Effect, Rule, Tier};
pub use source::{load, load_file, load_git, Schema};

use sbekit_schema::Location;
use serde::Serialize;
use std::fmt;

/// Which readers to protect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// New readers reading old messages.
    Backward,
    /// Old readers reading new messages.
    Forward,
    /// Both.
    #[default]
    Full,
}

/// How to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Options {
    /// `Wire` (bytes only) or `Api` (also generated code: renames, type changes that keep bytes).
    pub tier: Tier,
    /// Which direction counts.
    pub direction: Direction,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tier: Tier::Wire,
            direction: Direction::Full,
        }
    }
}

/// How serious a diagnostic is for the chosen direction and tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A compatible change, reported for information.
    Note,
    /// Compatible, but worth a look (fatal with `-W`).
    Warning,
    /// Breaking.
    Error,
}

/// One finding as reported for the chosen options.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// The rule's stable name.
    pub rule: &'static str,
    /// What changed.
    pub message: String,
    /// Where the element is in the new schema (or where it would be).
    pub new: Option<Location>,
    /// Where it was in the old schema.
    pub old: Option<Location>,
    /// Effect on new readers of old messages.
    pub backward: Effect,
    /// Effect on old readers of new messages.
    pub forward: Effect,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.new.as_ref().or(self.old.as_ref()) {
            write!(f, "{loc}: ")?;
        }
        let sev = match self.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}[{}]: {}", self.rule, self.message)?;
        if let (Some(_), Some(old)) = (&self.new, &self.old) {
            write!(f, " (old: {old})")?;
        }
        Ok(())
    }
}

/// The overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No error and no warning.
    Compatible,
    /// Warnings only.
    Warnings,
    /// At least one breaking change.
    Breaking,
}

/// The result of [`check()`].
#[derive(Debug, Clone)]
pub struct Report {
    /// The diagnostics for the chosen options (api-tier rules only with `Tier::Api`).
    pub diagnostics: Vec<Diagnostic>,
    /// The raw comparison (all findings, and the renames the oracle pairs elements with).
    pub comparison: Comparison,
    /// The verdict for the chosen options.
    pub verdict: Verdict,
}

impl check::Attributes for SourceIndex {
    fn alignment(&self, path: &str) -> Option<String> {
        SourceIndex::alignment(self, path).map(str::to_string)
    }

    fn has_text(&self) -> bool {
        !self.is_empty()
    }
}

/// The effect of a finding for a direction.
pub fn effect_for(f: &Finding, direction: Direction) -> Effect {
    match direction {
        Direction::Backward => f.backward,
        Direction::Forward => f.forward,
        Direction::Full => f.backward.max(f.forward),
    }
}

/// Compares `old` with `new`.
pub fn check(old: &Schema, new: &Schema, options: &Options) -> Report {
    let comparison = check::compare(&old.layout, &new.layout, &old.index, &new.index);
    let mut diagnostics = Vec::new();
    let mut verdict = Verdict::Compatible;
    for f in &comparison.findings {
        if f.rule.tier == Tier::Api && options.tier == Tier::Wire {
            continue;
        }
        let severity = match effect_for(f, options.direction) {
            Effect::Ok => Severity::Note,
            Effect::Warn => {
                verdict = verdict.max(Verdict::Warnings);
                Severity::Warning
            }
            Effect::Break => {
                verdict = Verdict::Breaking;
                Severity::Error
            }
        };
        // A side without text (`.sbeir`) has no positions.
        let at = |idx: &SourceIndex, e: &Option<Elem>| e.as_ref().and_then(|e| idx.locate(e.key()));
        diagnostics.push(Diagnostic {
            severity,
            rule: f.rule.name,
            message: f.message.clone(),
            new: at(&new.index, &f.new),
            old: at(&old.index, &f.old),
            backward: f.backward,
            forward: f.forward,
        });
    }
    Report {
        diagnostics,
        comparison,
        verdict,
    }
}

/// The oracle's verdict for a direction: the worst effect over the ways it covers.
pub fn oracle_effect(report: &oracle::OracleReport, direction: Direction) -> Effect {
    match direction {
        Direction::Backward => report.backward.effect,
        Direction::Forward => report.forward.effect,
        Direction::Full => report.backward.effect.max(report.forward.effect),
    }
}
