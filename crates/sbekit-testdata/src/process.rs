//! Small helpers for tests that run programs and look at what they leave on disk.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `cmd` with `stdin` as its standard input (written from a thread, so a program that
/// answers before reading everything cannot deadlock the test) and collects its output.
///
/// Panics if the program cannot be started: this is for tests.
pub fn output_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // A program that exits early closes the pipe; that is its business, not the test's.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("waiting for {cmd:?}: {e}"));
    let _ = writer.join();
    out
}

/// The names in `dir` (hidden files included), sorted.
///
/// Panics if the directory cannot be read: this is for tests.
pub fn dir_entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.sort();
    v
}
