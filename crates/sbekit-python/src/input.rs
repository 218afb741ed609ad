//! Bytes from Python: `bytes` without a copy, anything else with the buffer protocol copied
//! once (so the bytes cannot change under a decode that runs without the GIL).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes};

/// Bytes that live as long as needed and can cross a GIL release: a `bytes` object
/// (borrowed), a `bytearray` (copied), or a copy of another buffer (memoryview, array, mmap,
/// numpy) made through `memoryview.tobytes`.
pub struct Input(PyBackedBytes);

impl Input {
    /// `bytes`, `bytearray`, or any object with the buffer protocol.
    pub fn from_object(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
        if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
            return Ok(Input(obj.extract()?));
        }
        // Through `memoryview` rather than PyO3's `PyBuffer`, which the stable ABI (abi3) of
        // Python 3.9 and 3.10 lacks: the same one copy, and only buffers of bytes are taken.
        let py = obj.py();
        let not_bytes = || -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "expected bytes, bytearray or a buffer of bytes, got {}",
                obj.get_type().name()?
            )))
        };
        let view = match py.import("builtins")?.getattr("memoryview")?.call1((obj,)) {
            Ok(v) => v,
            Err(_) => return Err(not_bytes()?),
        };
        let format: String = view.getattr("format")?.extract()?;
        // Unsigned bytes or chars, as `PyBuffer::<u8>` accepts (the "@" prefix is native order).
        if !matches!(format.trim_start_matches('@'), "B" | "c") {
            return Err(not_bytes()?);
        }
        // `tobytes` makes the one copy (contiguous whatever the view's strides); the new
        // `bytes` is then held without another.
        Ok(Input(view.call_method0("tobytes")?.extract()?))
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}
