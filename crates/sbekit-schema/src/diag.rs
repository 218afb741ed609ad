//! Diagnostics: errors and warnings with a source location and the rule that produced them.

use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// Where in which file something was found (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file, as given by the user or resolved from an XInclude.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The schema is usable but something looks wrong (fatal with `warnings_as_errors`).
    Warning,
    /// The schema is invalid.
    Error,
}

/// One finding about a schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable kebab-case rule name, e.g. `field-offset-overlap` (see [`crate::rules`]).
    pub rule: &'static str,
    /// What is wrong, naming the element.
    pub message: String,
    /// Where, if known.
    pub location: Option<Location>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}[{}]: {}", self.rule, self.message)
    }
}

/// Collects diagnostics while compiling.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    pub items: Vec<Diagnostic>,
}

impl Sink {
    pub fn error(
        &mut self,
        rule: &'static str,
        loc: Option<&Location>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, rule, loc, message.into());
    }

    pub fn warn(&mut self, rule: &'static str, loc: Option<&Location>, message: impl Into<String>) {
        self.push(Severity::Warning, rule, loc, message.into());
    }

    /// Records a diagnostic once: a shared type checked at each use reports only once.
    fn push(
        &mut self,
        severity: Severity,
        rule: &'static str,
        loc: Option<&Location>,
        message: String,
    ) {
        let d = Diagnostic {
            severity,
            rule,
            message,
            location: loc.cloned(),
        };
        if !self.items.contains(&d) {
            self.items.push(d);
        }
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }
}
