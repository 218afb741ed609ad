//! `sbekit.capture`: SBE feed captures through a framing profile (`sbekit-feed`).

use crate::convert;
use crate::schema::Schema;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3_arrow::PyTable;
use sbekit_arrow::capture::{CaptureColumns, Output};
use sbekit_feed::profile::Profile;
use sbekit_feed::read::{ReadOptions, Reader, Validate};
use std::path::PathBuf;
use std::sync::Arc;

fn load(path: &PathBuf) -> PyResult<sbekit_capture::CaptureBytes> {
    sbekit_capture::load(path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}

/// capture_read(paths, schema, profile, arbitrate=False) -> dict[str, table]
#[pyfunction]
#[pyo3(signature = (paths, schema, profile, arbitrate = false))]
pub fn capture_read<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    schema: PyRef<'py, Schema>,
    profile: &str,
    arbitrate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c: Arc<crate::schema::Compiled> = schema.inner.clone();
    let profile =
        Profile::resolve(profile, &[]).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let captures = paths.iter().map(load).collect::<PyResult<Vec<_>>>()?;
    let r = py.detach(|| {
        let views: Vec<&[u8]> = captures.iter().map(|v| &v[..]).collect();
        let mut cols = CaptureColumns::new(
            &c.layout,
            sbekit_arrow::Options::default(),
            Output::Collect(Default::default()),
        );
        let mut reader = Reader::new(
            profile,
            &c.decoder,
            ReadOptions {
                arbitrate,
                keep_bad: 0,
            },
        );
        reader.read(&views, &mut cols);
        cols.finish()?;
        Ok::<_, sbekit_arrow::Error>((cols.schemas()?, cols.take_collected()))
    });
    let (schemas, mut batches) = r.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    for (name, schema) in schemas {
        let b = batches.remove(&name).unwrap_or_default();
        if b.is_empty() {
            continue;
        }
        d.set_item(&name, Py::new(py, PyTable::try_new(b, schema)?)?)?;
    }
    Ok(d)
}

/// capture_schemas(schema, profile) -> dict[str, table]: every template's table as
/// `capture_read` gives it, empty (its Arrow schema).
#[pyfunction]
pub fn capture_schemas<'py>(
    py: Python<'py>,
    schema: PyRef<'py, Schema>,
    profile: &str,
) -> PyResult<Bound<'py, PyDict>> {
    Profile::resolve(profile, &[]).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let cols = CaptureColumns::new(
        &schema.inner.layout,
        sbekit_arrow::Options::default(),
        Output::Collect(Default::default()),
    );
    let schemas = cols
        .schemas()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    for (name, schema) in schemas {
        d.set_item(&name, Py::new(py, PyTable::try_new(Vec::new(), schema)?)?)?;
    }
    Ok(d)
}

/// capture_stats(paths, schema, profile, arbitrate=False, validate=False) -> dict: what
/// `sbekit capture stats --json` prints.
#[pyfunction]
#[pyo3(signature = (paths, schema, profile, arbitrate = false, validate = false))]
pub fn capture_stats(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    schema: PyRef<'_, Schema>,
    profile: &str,
    arbitrate: bool,
    validate: bool,
) -> PyResult<Py<PyAny>> {
    let c: Arc<crate::schema::Compiled> = schema.inner.clone();
    let profile =
        Profile::resolve(profile, &[]).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let captures = paths.iter().map(load).collect::<PyResult<Vec<_>>>()?;
    let v = py.detach(|| {
        let views: Vec<&[u8]> = captures.iter().map(|v| &v[..]).collect();
        let opts = ReadOptions {
            arbitrate,
            keep_bad: 100,
        };
        let mut reader = Reader::new(profile, &c.decoder, opts);
        if validate {
            reader.read(&views, &mut Validate(&c.decoder));
        } else {
            reader.read(&views, &mut sbekit_feed::read::HeadersOnly);
        }
        reader.stats.to_json()
    });
    Ok(convert::to_python(py, &v)?.unbind())
}
