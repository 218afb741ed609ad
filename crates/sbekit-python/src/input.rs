//! Bytes from Python: `bytes` without a copy, anything else with the buffer protocol copied
//! once (so the bytes cannot change under a decode that runs without the GIL).

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes};

/// Bytes that live as long as needed and can cross a GIL release.
pub enum Input {
    /// A `bytes` object (borrowed) or a `bytearray` (copied).
    Backed(PyBackedBytes),
    /// A copy of another buffer (memoryview, array, mmap, numpy).
    Owned(Vec<u8>),
}

impl Input {
    /// `bytes`, `bytearray`, or any object with the buffer protocol.
    pub fn from_object(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
        if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
            return Ok(Input::Backed(obj.extract()?));
        }
        match PyBuffer::<u8>::get(obj) {
            Ok(buf) => Ok(Input::Owned(buf.to_vec(obj.py())?)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "expected bytes, bytearray or a buffer of bytes, got {}",
                obj.get_type().name()?
            ))),
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Input::Backed(b) => b,
            Input::Owned(v) => v,
        }
    }
}
