//! Arrow output: `Schema.read`, `Schema.read_all`, `sbekit.iex.read` and trade files, as
//! pyo3-arrow tables (`__arrow_c_stream__`; re-readable, since a table keeps its batches).

use crate::errors;
use crate::input::Input;
use crate::schema::{parse_framing, Schema};
use arrow_array::{Float64Array, RecordBatch, TimestampNanosecondArray};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef, TimeUnit};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3_arrow::PyTable;
use sbekit_arrow::iex::{table_names, IexColumns};
use sbekit_arrow::{Options, SbeColumns};
use sbekit_iex::ReadOptions;
use sbekit_otf::framing::{
    Framing, MessageInfo, MessageSink, MessageStream, StreamError, DEFAULT_MAX_MESSAGE,
};
use sbekit_otf::{DecodeError, MessageHeader};
use std::collections::BTreeMap;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

/// Messages per batch of `Schema.read` and `read_all`: small enough that a batch's column
/// builders stay in the CPU caches while they fill (reading 100,000 market-data messages into a
/// Polars DataFrame, alternated in one process: 8,192 rows 4.49 M msg/s, 16,384 4.35 M, the
/// crate's default of 65,536 3.15 M); Polars, pyarrow and DuckDB take the batches as chunks.
const READ_BATCH_ROWS: usize = 8_192;

/// Rows per batch of the IEX tables.
const IEX_BATCH_ROWS: usize = 65_536;

/// Where a read gets its bytes.
enum Source {
    File(PathBuf),
    Bytes(Input),
}

impl Source {
    fn from_object(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        if obj.is_instance_of::<pyo3::types::PyString>() || obj.hasattr("__fspath__")? {
            return Ok(Source::File(obj.extract()?));
        }
        Ok(Source::Bytes(Input::from_object(obj)?))
    }
}

enum ReadError {
    Open(PathBuf, std::io::Error),
    Stream(StreamError),
    Arrow(String),
}

impl ReadError {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            ReadError::Open(p, e) => PyOSError::new_err(format!("{}: {e}", p.display())),
            ReadError::Stream(e) => errors::from_stream(py, &e),
            // Cutting a batch does not fail on input bytes (text follows `sbekit_otf::text`);
            // should it, the read's failure is still a `DecodeError`, never a bare ValueError.
            ReadError::Arrow(m) => errors::decode_error(py, &m, None, "", None),
        }
    }
}

/// Decodes the whole stream into per-message batches (without the GIL).
fn columns<R: Read>(
    schema: &Schema,
    reader: R,
    framing: Framing,
    template: Option<u64>,
) -> Result<(SbeColumns, BTreeMap<String, Vec<RecordBatch>>), ReadError> {
    let c = &schema.inner;
    let options = Options {
        batch_rows: READ_BATCH_ROWS,
        ..Options::default()
    };
    let mut cols = SbeColumns::new(&c.layout, options);
    let mut stream = MessageStream::new(reader, framing, DEFAULT_MAX_MESSAGE);
    let mut sink = Tables {
        cols: &mut cols,
        out: BTreeMap::new(),
        error: None,
    };
    stream
        .run(&c.decoder, template, false, &mut sink)
        .map_err(|e| ReadError::Stream(StreamError::Io(e)))?;
    if let Some(e) = sink.error.take() {
        return Err(e);
    }
    sink.drain(true)?;
    let out = sink.out;
    Ok((cols, out))
}

/// `read`'s part of the shared stream loop: messages into the tables, full batches kept.
struct Tables<'a> {
    cols: &'a mut SbeColumns,
    out: BTreeMap<String, Vec<RecordBatch>>,
    /// The first bad message, or a batch that could not be cut.
    error: Option<ReadError>,
}

impl Tables<'_> {
    /// Takes the batches that are full (all of them when `flush`).
    fn drain(&mut self, flush: bool) -> Result<(), ReadError> {
        let arrow = |e: sbekit_arrow::Error| ReadError::Arrow(e.to_string());
        if flush {
            self.cols.flush().map_err(arrow)?;
        }
        for (name, b) in self.cols.drain().map_err(arrow)? {
            self.out.entry(name).or_default().push(b);
        }
        Ok(())
    }
}

impl MessageSink for Tables<'_> {
    fn decode(
        &mut self,
        bytes: &[u8],
        _header: &MessageHeader,
        offset: u64,
    ) -> Result<usize, DecodeError> {
        self.cols.append(bytes, offset, None)
    }

    fn decoded(&mut self, _info: &MessageInfo) -> ControlFlow<()> {
        if self.cols.has_full() {
            if let Err(e) = self.drain(false) {
                self.error = Some(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    fn failed(&mut self, error: &StreamError, _resumes: bool) {
        if self.error.is_none() {
            self.error = Some(ReadError::Stream(clone_stream_error(error)));
        }
    }
}

/// A copy of a stream error (`io::Error` is not `Clone`; only message errors reach a sink).
fn clone_stream_error(e: &StreamError) -> StreamError {
    match e {
        StreamError::Io(io) => StreamError::Io(std::io::Error::new(io.kind(), io.to_string())),
        StreamError::Message {
            index,
            offset,
            error,
            resumable,
        } => StreamError::Message {
            index: *index,
            offset: *offset,
            error: error.clone(),
            resumable: *resumable,
        },
    }
}

fn run(
    py: Python<'_>,
    schema: &Schema,
    source: &Bound<'_, PyAny>,
    framing: &str,
    template: Option<u64>,
) -> PyResult<(SbeColumns, BTreeMap<String, Vec<RecordBatch>>)> {
    let framing = parse_framing(framing)?;
    let source = Source::from_object(source)?;
    let r = py.detach(|| match &source {
        Source::File(p) => {
            let f = std::fs::File::open(p).map_err(|e| ReadError::Open(p.clone(), e))?;
            columns(schema, f, framing, template)
        }
        Source::Bytes(b) => columns(schema, b.bytes(), framing, template),
    });
    r.map_err(|e| e.into_py(py))
}

fn table(py: Python<'_>, batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, PyTable::try_new(batches, schema)?)?.into_any())
}

/// The message tables of a read, by name (every template of the schema, empty ones too).
fn tables<'py>(
    py: Python<'py>,
    cols: &SbeColumns,
    mut batches: BTreeMap<String, Vec<RecordBatch>>,
    only: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (id, name, schema) in cols.tables() {
        if only.is_some_and(|t| t != u64::from(id)) {
            continue;
        }
        let b = batches.remove(name).unwrap_or_default();
        d.set_item(name, table(py, b, schema.clone())?)?;
    }
    Ok(d)
}

/// `Schema.read`: one message type's table.
pub fn read(
    schema: &Schema,
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    framing: &str,
    template: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let id = match schema.template_id(template)? {
        Some(id) => id,
        None => match schema.inner.layout.messages.as_slice() {
            [only] => u64::from(only.id),
            _ => {
                return Err(PyValueError::new_err(
                    "the schema has several messages: pass template= (a name or id), or \
                     use read_all() for one table per message",
                ))
            }
        },
    };
    let (cols, batches) = run(py, schema, source, framing, Some(id))?;
    let d = tables(py, &cols, batches, Some(id))?;
    match d.values().iter().next() {
        Some(t) => Ok(t.unbind()),
        None => Err(PyValueError::new_err(format!("no table for template {id}"))),
    }
}

/// `Schema.read_all`: every message type's table.
pub fn read_all<'py>(
    schema: &Schema,
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    framing: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let (cols, batches) = run(py, schema, source, framing, None)?;
    tables(py, &cols, batches, None)
}

/// iex_read(path, keep_going=False) -> dict[str, table]: one table per IEX message type.
#[pyfunction]
#[pyo3(signature = (path, keep_going = false))]
pub fn iex_read<'py>(
    py: Python<'py>,
    path: PathBuf,
    keep_going: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = ReadOptions { keep_going };
    type Read = (IexColumns, Vec<(&'static str, RecordBatch)>, Option<String>);
    let r = py.detach(|| -> Result<Read, String> {
        let file = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut cols = IexColumns::new(IEX_BATCH_ROWS);
        let mut out = Vec::new();
        let (mut segs, _) = sbekit_iex::stream_from_reader(file, opts)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // As `sbekit iex stats`: an error inside the capture ends reading; the tables keep
        // everything before it (with keep_going, bad segments are skipped).
        let mut stopped = None;
        let mut n = 0u64;
        while let Some(s) = segs.next_segment() {
            let r = s.and_then(|seg| cols.add_segment(&seg, keep_going));
            if let Err(e) = r {
                if keep_going {
                    continue;
                }
                stopped = Some(format!("{}: input ended early: {e}", path.display()));
                break;
            }
            n += 1;
            if n % 4096 == 0 {
                out.extend(cols.take_batches(false).map_err(|e| e.to_string())?);
            }
        }
        out.extend(cols.take_batches(true).map_err(|e| e.to_string())?);
        Ok((cols, out, stopped))
    });
    let (cols, batches, stopped) = r.map_err(|m| {
        if m.contains("No such file") || m.contains("Permission denied") {
            PyOSError::new_err(m)
        } else {
            errors::decode_error(py, &m, None, "", None)
        }
    })?;
    if let Some(m) = stopped {
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        let msg = std::ffi::CString::new(m.replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, &category, &msg, 1)?;
    }
    let mut by_name: BTreeMap<&str, Vec<RecordBatch>> = BTreeMap::new();
    for (name, b) in batches {
        by_name.entry(name).or_default().push(b);
    }
    let d = PyDict::new(py);
    for name in table_names() {
        let b = by_name.remove(name).unwrap_or_default();
        if b.is_empty() {
            continue;
        }
        if let Some(schema) = cols.schema(name) {
            d.set_item(name, table(py, b, schema)?)?;
        }
    }
    Ok(d)
}

/// iex_schemas() -> dict[str, table]: every IEX table, empty (its Arrow schema, for readers
/// such as `sbekit.spark` that need the columns before any file is read).
#[pyfunction]
pub fn iex_schemas(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let cols = IexColumns::new(1);
    let d = PyDict::new(py);
    for name in table_names() {
        if let Some(schema) = cols.schema(name) {
            d.set_item(name, table(py, Vec::new(), schema)?)?;
        }
    }
    Ok(d)
}

/// A trade file written by `sbekit trades convert`, memory-mapped.
///
/// `len(f)` is its record count; `f.table()` all records as an Arrow table (time, amount,
/// exch, price, server_time, side, ticker); `f.easy()` and `f.hard()` the two queries of
/// `sbekit trades query` as Arrow tables. Work runs without the GIL.
#[pyclass(frozen, module = "sbekit.trades")]
pub struct TradeFile {
    file: Arc<sbekit_trades::file::TradeFile>,
}

fn trades_error(py: Python<'_>, e: sbekit_trades::Error) -> PyErr {
    let m = e.to_string();
    match e {
        sbekit_trades::Error::Io { .. } => PyOSError::new_err(m),
        _ => errors::decode_error(py, &m, None, "", None),
    }
}

fn threads(n: usize) -> usize {
    if n > 0 {
        n
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

#[pymethods]
impl TradeFile {
    /// TradeFile(path): opens and checks the header and size (`DecodeError` if it is not a
    /// trade file, `OSError` if it cannot be opened).
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let f = py
            .detach(|| sbekit_trades::file::TradeFile::open(&path))
            .map_err(|e| trades_error(py, e))?;
        Ok(TradeFile { file: Arc::new(f) })
    }

    fn __len__(&self) -> usize {
        usize::try_from(self.file.len()).unwrap_or(usize::MAX)
    }

    /// table() -> Arrow table of every record.
    fn table(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let f = self.file.clone();
        let b = py
            .detach(|| sbekit_arrow::trades::to_batches(&f))
            .map_err(|e| trades_error(py, e))?;
        table(py, b, sbekit_arrow::trades::parquet_schema())
    }

    /// easy(threads=0) -> Arrow table (hour: timestamp, ratio: float64): the hourly
    /// bmex/gdax btc_usd VWAP ratio, as `sbekit trades query easy`. 0 threads: all cores.
    #[pyo3(signature = (threads = 0))]
    fn easy(&self, py: Python<'_>, threads: usize) -> PyResult<Py<PyAny>> {
        let f = self.file.clone();
        let n = self::threads(threads);
        let rows = py
            .detach(|| sbekit_trades::query::easy(&f, n, Default::default()))
            .map_err(|e| trades_error(py, e))?;
        let schema = Arc::new(ArrowSchema::new(vec![
            Field::new("hour", ts_type(), false),
            Field::new("ratio", DataType::Float64, false),
        ]));
        let hours = TimestampNanosecondArray::from_iter_values(rows.iter().map(|r| r.hour as i64))
            .with_timezone("UTC");
        let ratio = Float64Array::from_iter_values(rows.iter().map(|r| r.ratio));
        let b = RecordBatch::try_new(schema.clone(), vec![Arc::new(hours), Arc::new(ratio)])
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        table(py, vec![b], schema)
    }

    /// hard(threads=0) -> Arrow table (time, ratio_5m, ratio_15m, ratio_60m): every 10 s,
    /// the ratio over the trailing 5, 15 and 60 minutes, as `sbekit trades query hard`.
    #[pyo3(signature = (threads = 0))]
    fn hard(&self, py: Python<'_>, threads: usize) -> PyResult<Py<PyAny>> {
        let f = self.file.clone();
        let n = self::threads(threads);
        let rows = py
            .detach(|| {
                let mut rows = Vec::new();
                sbekit_trades::query::hard(&f, n, &mut |r| {
                    rows.extend_from_slice(r);
                    Ok(())
                })
                .map(|_| rows)
            })
            .map_err(|e| trades_error(py, e))?;
        let schema = Arc::new(ArrowSchema::new(vec![
            Field::new("time", ts_type(), false),
            Field::new("ratio_5m", DataType::Float64, false),
            Field::new("ratio_15m", DataType::Float64, false),
            Field::new("ratio_60m", DataType::Float64, false),
        ]));
        let time = TimestampNanosecondArray::from_iter_values(rows.iter().map(|r| r.time as i64))
            .with_timezone("UTC");
        let col = |i: usize| {
            Arc::new(Float64Array::from_iter_values(
                rows.iter().map(|r| r.ratio[i]),
            ))
        };
        let b = RecordBatch::try_new(schema.clone(), vec![Arc::new(time), col(0), col(1), col(2)])
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        table(py, vec![b], schema)
    }

    fn __repr__(&self) -> String {
        format!(
            "<sbekit.trades.TradeFile {} ({} records)>",
            self.file.path().display(),
            self.file.len()
        )
    }
}

fn ts_type() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}
