//! Python exceptions. The classes live in `sbekit/_errors.py` (so they have real constructors,
//! attributes and docstrings); Rust builds instances of them here.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sbekit_schema::{Diagnostic, Severity};

fn build<'py>(py: Python<'py>, class: &str, args: Bound<'py, PyTuple>) -> PyErr {
    match py
        .import("sbekit._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args))
    {
        Ok(e) => PyErr::from_value(e),
        // Only if the package's Python half is missing: still raise something useful.
        Err(e) => e,
    }
}

/// `sbekit.DecodeError(message, offset, path, index)`.
pub fn decode_error(
    py: Python<'_>,
    message: &str,
    offset: Option<u64>,
    path: &str,
    index: Option<u64>,
) -> PyErr {
    match (message, offset, path, index).into_pyobject(py) {
        Ok(args) => build(py, "DecodeError", args),
        Err(e) => e,
    }
}

/// A decoding error of `sbekit_otf`, its offset moved by `base` (where the message starts).
pub fn from_otf(
    py: Python<'_>,
    e: &sbekit_otf::DecodeError,
    base: u64,
    index: Option<u64>,
) -> PyErr {
    let offset = base + e.offset as u64;
    // The text repeats the offset relative to the caller's buffer, not to the message.
    let what = e.to_string();
    let why = what.split_once(": ").map_or(what.as_str(), |(_, w)| w);
    let mut message = format!("at byte {offset}");
    if !e.path.is_empty() {
        message.push_str(&format!(" ({})", e.path));
    }
    message.push_str(": ");
    message.push_str(why);
    decode_error(py, &message, Some(offset), &e.path, index)
}

/// A stream error (frame or message) of `sbekit_otf::framing`.
pub fn from_stream(py: Python<'_>, e: &sbekit_otf::framing::StreamError) -> PyErr {
    use sbekit_otf::framing::{MessageError, StreamError};
    match e {
        StreamError::Io(io) => pyo3::exceptions::PyOSError::new_err(io.to_string()),
        StreamError::Message {
            index,
            offset,
            error,
            ..
        } => {
            let (at, path) = match error {
                MessageError::Decode(d) => (d.offset as u64, d.path.as_str()),
                MessageError::Frame(_) => (*offset, ""),
            };
            decode_error(py, &e.to_string(), Some(at), path, Some(*index))
        }
    }
}

/// `sbekit.EncodeError(message, path)`.
pub fn encode_error(py: Python<'_>, message: &str, path: &str) -> PyErr {
    match (message, path).into_pyobject(py) {
        Ok(args) => build(py, "EncodeError", args),
        Err(e) => e,
    }
}

/// A diagnostic as `sbekit.Diagnostic` takes it: severity, rule, message, file, line, column.
type DiagTuple<'a> = (
    &'a str,
    &'a str,
    &'a str,
    Option<String>,
    Option<u32>,
    Option<u32>,
);

/// `sbekit.SchemaError(message, diagnostics)`, where each diagnostic is a tuple
/// `(severity, rule, message, file, line, column)`.
pub fn schema_error(py: Python<'_>, message: &str, diagnostics: &[Diagnostic]) -> PyErr {
    let diags: Vec<DiagTuple<'_>> = diagnostics
        .iter()
        .map(|d| {
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let loc = d.location.as_ref();
            (
                sev,
                d.rule,
                d.message.as_str(),
                loc.map(|l| l.file.to_string()),
                loc.map(|l| l.line),
                loc.map(|l| l.column),
            )
        })
        .collect();
    match (message, diags).into_pyobject(py) {
        Ok(args) => build(py, "SchemaError", args),
        Err(e) => e,
    }
}
