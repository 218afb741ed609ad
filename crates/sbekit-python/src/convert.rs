//! Conversions between Python objects and `serde_json::Value` (the encoder's input shape, and
//! the IEX statistics' output shape).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Nesting deeper than this is refused (a cycle, or input no schema can describe).
const MAX_DEPTH: usize = 64;

/// A JSON value as Python objects: objects become dicts, arrays lists, numbers ints or floats.
pub fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_python(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, x) in o {
                dict.set_item(k, to_python(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// A Python value as JSON, for the encoder. `path` names the value in errors.
///
/// dicts (string keys), lists and tuples, str, bytes (one code point per byte, as `decode`
/// gives raw var data back as bytes), bool, int (64-bit signed or unsigned), float (NaN and
/// infinities as null, which the encoder writes as the null value) and None.
pub fn from_python(v: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "{path}: nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(u) = v.extract::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        return Err(PyTypeError::new_err(format!(
            "{path}: {} does not fit a 64-bit integer",
            v.repr()?
        )));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Ok(Number::from_f64(f.value()).map_or(Value::Null, Value::Number));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(Value::String(
            b.as_bytes().iter().map(|&c| char::from(c)).collect(),
        ));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, x) in d.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{path}: dict keys must be str, got {}",
                    k.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&key);
            let value = from_python(&x, path, depth + 1)?;
            path.truncate(len);
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (i, x) in v.try_iter()?.enumerate() {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            out.push(from_python(&x?, path, depth + 1)?);
            path.truncate(len);
        }
        return Ok(Value::Array(out));
    }
    Err(PyTypeError::new_err(format!(
        "{path}: cannot encode a value of type {}",
        v.get_type().name()?
    )))
}
