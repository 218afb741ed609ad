//! The native half of the `sbekit` Python package (`sbekit._sbekit`).
//!
//! The Python half (`python/sbekit/`) re-exports these classes and functions, defines the
//! exception classes and carries the type stubs. Decoding builds Python objects directly from
//! the on-the-fly decoder's visitor calls; long reads run without the GIL.

#![warn(missing_docs)]

mod arrow;
mod capture;
mod convert;
mod dict;
mod errors;
mod iex;
mod input;
mod schema;

use pyo3::prelude::*;

/// The native module; see the `sbekit` package for the documented API.
#[pymodule]
fn _sbekit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<schema::Schema>()?;
    m.add_class::<schema::Message>()?;
    m.add_class::<schema::Field>()?;
    m.add_class::<arrow::TradeFile>()?;
    m.add_function(wrap_pyfunction!(iex::iex_stats, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::iex_read, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::iex_schemas, m)?)?;
    m.add_function(wrap_pyfunction!(capture::capture_schemas, m)?)?;
    m.add_function(wrap_pyfunction!(capture::capture_read_checked, m)?)?;
    m.add_function(wrap_pyfunction!(capture::capture_read, m)?)?;
    m.add_function(wrap_pyfunction!(capture::capture_stats, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
