//! The crate's errors: what failed loading a side, and what stopped the oracle.

use std::path::PathBuf;

/// Why one side of a comparison could not be loaded. [`LoadError::is_invalid_schema`] tells
/// a schema that is wrong (the CLI's exit 1) from one that could not be read (exit 2).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A `git:` spec without `REV:path`.
    #[error("'{0}': expected git:REV:path")]
    Spec(String),
    /// `git` could not be run, or the revision or path is not in the repository.
    #[error("{0}")]
    Git(String),
    /// A temporary copy of a revision's files could not be written.
    #[error("{what}: {source}")]
    Scratch {
        /// What was being written.
        what: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The XML schema does not compile.
    #[error("{label} has errors:{}", lines(diagnostics))]
    Schema {
        /// The side's label.
        label: String,
        /// The compiler's diagnostics.
        diagnostics: Vec<sbekit_schema::Diagnostic>,
    },
    /// The IR (a `.sbeir` file, or what the schema compiled to) is not a valid layout.
    #[error("{label}: {message}")]
    Ir {
        /// The side's label.
        label: String,
        /// What is wrong.
        message: String,
    },
}

impl LoadError {
    /// True when the input was read and is not a valid schema; false when it could not be
    /// read at all.
    pub fn is_invalid_schema(&self) -> bool {
        matches!(self, LoadError::Schema { .. } | LoadError::Ir { .. })
    }
}

fn lines(diags: &[sbekit_schema::Diagnostic]) -> String {
    diags.iter().map(|d| format!("\n{d}")).collect()
}

/// Why the oracle could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OracleError {
    /// The on-the-fly decoder cannot be built from a side's IR.
    #[error("{label}: {message}")]
    Decoder {
        /// The side's label.
        label: String,
        /// What the decoder said.
        message: String,
    },
    /// A random message could not be read back with its own schema (a bug in the oracle or the
    /// decoder, never a verdict about the schemas).
    #[error("oracle: the writer's own schema cannot decode its message '{message}': {reason}")]
    SelfCheck {
        /// The message's name.
        message: String,
        /// The decoder's error.
        reason: String,
    },
}
