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
    Ok(read_tables(py, &paths, &schema, profile, arbitrate, 0)?.0)
}

/// `capture_read_checked`'s answer: the tables, the bad packets' count, the first bad one.
type Checked<'py> = (Bound<'py, PyDict>, u64, Option<(u64, String)>);

/// capture_read_checked(paths, schema, profile) -> (dict[str, table], bad_count, first_bad):
/// `capture_read`, plus how many packets were bad and the first one as `(byte offset, text)`
/// (None when none was), for readers that must not pass over them (`sbekit.spark`).
#[pyfunction]
pub fn capture_read_checked<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    schema: PyRef<'py, Schema>,
    profile: &str,
) -> PyResult<Checked<'py>> {
    let (d, stats) = read_tables(py, &paths, &schema, profile, false, 1)?;
    let first = stats.bad.first().map(|b| (b.offset, b.to_string()));
    Ok((d, stats.bad_count, first))
}

/// Every message of the captures, one table per template that has rows, and the reader's
/// statistics (keeping the first `keep_bad` bad packets).
fn read_tables<'py>(
    py: Python<'py>,
    paths: &[PathBuf],
    schema: &Schema,
    profile: &str,
    arbitrate: bool,
    keep_bad: usize,
) -> PyResult<(Bound<'py, PyDict>, sbekit_feed::stats::Stats)> {
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
                keep_bad,
            },
        );
        reader.read(&views, &mut cols);
        cols.finish()?;
        Ok::<_, sbekit_arrow::Error>((cols.schemas()?, cols.take_collected(), reader.stats))
    });
    let (schemas, mut batches, stats) = r.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    for (name, schema) in schemas {
        let b = batches.remove(&name).unwrap_or_default();
        if b.is_empty() {
            continue;
        }
        d.set_item(&name, Py::new(py, PyTable::try_new(b, schema)?)?)?;
    }
    Ok((d, stats))
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
