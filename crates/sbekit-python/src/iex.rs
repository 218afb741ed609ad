//! `sbekit.iex`: IEX captures.

use crate::convert;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use sbekit_iex::report::{stats_file, stats_json};
use sbekit_iex::ReadOptions;
use std::path::PathBuf;

/// iex_stats(path, keep_going) -> dict: what `sbekit iex stats --json` prints.
#[pyfunction]
#[pyo3(signature = (path, keep_going = false))]
pub fn iex_stats(py: Python<'_>, path: PathBuf, keep_going: bool) -> PyResult<Py<PyAny>> {
    let report = py
        .detach(|| stats_file(&path, ReadOptions { keep_going }, &mut |_, _| {}))
        .map_err(|e| match e.kind {
            sbekit_iex::IexErrorKind::Io(_) => {
                PyOSError::new_err(format!("{}: {e}", path.display()))
            }
            _ => crate::errors::decode_error(
                py,
                &format!("{}: {e}", path.display()),
                Some(e.offset),
                "",
                None,
            ),
        })?;
    let mut v = stats_json(&report);
    v["file"] = serde_json::Value::String(path.display().to_string());
    Ok(convert::to_python(py, &v)?.unbind())
}
