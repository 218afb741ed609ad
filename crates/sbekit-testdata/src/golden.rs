//! Golden files: a generator's output for a fixed input, checked in so that every change to the
//! generator shows up as a diff in review.

use std::path::Path;

/// Compares `generated` with the golden file at `path`, or rewrites the file when the test runs
/// with `UPDATE_GOLDEN=1`. On a difference it panics naming the first line that differs, both
/// versions of it, and how to accept the change; `what` names the input in that message (for
/// example the schema's path).
pub fn check_golden(path: &Path, generated: &str, what: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(path, generated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let want = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if let Some(line) = first_difference(&want, generated) {
        panic!(
            "generated code for {what} differs from {} at line {}:\n  golden:    {}\n  generated: {}\n(UPDATE_GOLDEN=1 rewrites the golden file)",
            path.display(),
            line + 1,
            want.lines().nth(line).unwrap_or("<end>"),
            generated.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

/// The 0-based index of the first line where `a` and `b` differ, or `None` when they are equal.
fn first_difference(a: &str, b: &str) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or_else(|| a.lines().count().min(b.lines().count())),
    )
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nc\n"), Some(1));
        // One text is a prefix of the other: the first missing line.
        assert_eq!(first_difference("a\n", "a\nb\n"), Some(1));
        // Equal lines, different line endings at the end.
        assert_eq!(first_difference("a", "a\n"), Some(1));
    }
}
