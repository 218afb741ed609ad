//! What every generated package shares, whatever its language: its files ([`GeneratedFile`]),
//! why it could not be generated ([`GenError`]), and how it reaches a directory (each file
//! replaced atomically, [`write_files`]).

use crate::{Plan, PlanError};
use sbekit_ir::layout::Layout;
use std::fmt;
use std::path::{Path, PathBuf};

/// One generated file: a path relative to the output directory and its text.
pub use sbekit_fs::GeneratedFile;

/// Why a package could not be generated or written.
#[derive(Debug)]
pub enum GenError {
    /// The schema's codec plan could not be built.
    Plan(PlanError),
    /// An option names what the language refuses (a package, namespace or protocol name); the
    /// text says what and why.
    Option(String),
    /// The schema uses something the generator cannot express in its language (the language,
    /// and what).
    Unsupported(&'static str, String),
    /// The generator produced source that does not parse: a bug in the generator (the
    /// language, and the parser's message).
    Malformed(&'static str, String),
    /// Writing a file failed.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Plan(e) => write!(f, "{e}"),
            GenError::Option(m) => write!(f, "{m}"),
            GenError::Unsupported(lang, m) => write!(f, "cannot generate {lang}: {m}"),
            GenError::Malformed(lang, m) => {
                write!(f, "generated {lang} does not parse (a bug in sbekit): {m}")
            }
            GenError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for GenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenError::Plan(e) => Some(e),
            GenError::Io(_, e) => Some(e),
            GenError::Option(_) | GenError::Unsupported(..) | GenError::Malformed(..) => None,
        }
    }
}

/// `layout`'s codec plan, rendered by `render`: how every generator goes from a layout to its
/// files.
pub fn render_layout<T>(
    layout: &Layout,
    render: impl FnOnce(&Plan) -> Result<T, GenError>,
) -> Result<T, GenError> {
    render(&Plan::new(layout).map_err(GenError::Plan)?)
}

/// Writes `files` under `dir`, creating directories as needed, each file atomically
/// ([`sbekit_fs::write_tree`]): a failed run leaves every file either as it was or whole.
pub fn write_files(dir: &Path, files: &[GeneratedFile]) -> Result<(), GenError> {
    sbekit_fs::write_tree(dir, files).map_err(|e| GenError::Io(dir.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_written_under_the_directory_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let files = [GeneratedFile {
            path: "a/b.txt".into(),
            text: "hi".into(),
        }];
        write_files(dir.path(), &files).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b.txt")).unwrap(),
            "hi"
        );
        // A file where a directory must go: the error names the path that failed.
        let e = write_files(&dir.path().join("a/b.txt"), &files).unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
        assert!(e.to_string().contains("b.txt"), "{e}");
    }
}
