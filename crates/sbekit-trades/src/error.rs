//! Errors of the trade store. Every message names the file and, for CSV rows, the line.

use std::path::Path;

/// Anything that can go wrong reading, writing or checking trade data.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An operating-system error on a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A CSV row that cannot become a trade.
    #[error("{path}: line {line}: {reason}")]
    BadRow {
        /// The CSV file.
        path: String,
        /// 1-based line number of the row.
        line: u64,
        /// Why the row was rejected.
        reason: String,
    },
    /// A trade file whose header, size or checksum is wrong.
    #[error("{path}: {reason}")]
    BadFile {
        /// The trade file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A request that cannot be carried out (bad option values and the like).
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// A bad trade file at `path`.
    pub fn bad_file(path: &Path, reason: impl Into<String>) -> Self {
        Error::BadFile {
            path: path.display().to_string(),
            reason: reason.into(),
        }
    }
}

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
