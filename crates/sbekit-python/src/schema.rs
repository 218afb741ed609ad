//! `sbekit.Schema`: a compiled schema that decodes and encodes messages.

use crate::dict::DictBuilder;
use crate::errors;
use crate::input::Input;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use sbekit_encode::Encoder;
use sbekit_ir::layout::Layout;
use sbekit_ir::ByteOrder;
use sbekit_otf::framing::{
    Framing, MessageInfo, MessageSink, MessageStream, StreamError, DEFAULT_MAX_MESSAGE,
};
use sbekit_otf::{DecodeError, Decoder, MessageHeader};
use sbekit_schema::outline::{presence_label, FieldOutline, GroupOutline, MessageOutline, Outline};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

/// Everything compiled from one schema; shared with readers that outlive a call.
pub struct Compiled {
    pub layout: Layout,
    pub decoder: Decoder,
    pub encoder: Encoder,
    pub keys: crate::dict::Keys,
    pub source: String,
}

/// A compiled SBE schema (XML or the reference tool's `.sbeir`).
///
/// Build one from a file with `Schema(path)` or from XML text with `Schema.from_xml(text)`;
/// the schema is checked as `sbekit check` checks it, and a bad one raises `SchemaError`
/// naming the file, line and column. A Schema is immutable and can be shared between threads.
///
/// Decode one message to a dict (the same values `sbekit decode` prints as JSON; 64-bit
/// integers are Python ints, enums their names, sets dicts of booleans, groups lists of dicts,
/// character data str and raw var data bytes)::
///
///     car = schema.decode(buf)               # the message at buf[0:]
///     cars = schema.decode_all(buf)          # every message of a stream
///
/// Encode a dict of that shape back to bytes::
///
///     buf = schema.encode("Car", car)
///
/// Read a whole stream as an Arrow table (polars, pyarrow, DuckDB and pandas take it without
/// copying)::
///
///     table = schema.read("cars.sbe", template="Car")
///     polars.DataFrame(table)
///
/// Malformed bytes raise `DecodeError` with the byte `.offset` and element `.path`; they never
/// crash the interpreter.
#[pyclass(frozen, module = "sbekit")]
pub struct Schema {
    pub inner: Arc<Compiled>,
}

fn compiled_from(py: Python<'_>, c: sbekit_schema::Compiled, source: String) -> PyResult<Schema> {
    let Some(ir) = c.ir else {
        let errors: Vec<String> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == sbekit_schema::Severity::Error)
            .map(ToString::to_string)
            .collect();
        let msg = if errors.is_empty() {
            format!("{source}: the schema is not valid")
        } else {
            errors.join("\n")
        };
        return Err(errors::schema_error(py, &msg, &c.diagnostics));
    };
    let layout = Layout::from_ir(&ir)
        .map_err(|e| errors::schema_error(py, &format!("{source}: {e}"), &[]))?;
    let decoder = Decoder::from_layout(&layout)
        .map_err(|e| errors::schema_error(py, &format!("{source}: {e}"), &[]))?;
    let encoder = Encoder::new(&layout);
    let keys = crate::dict::Keys::new(py, &decoder);
    Ok(Schema {
        inner: Arc::new(Compiled {
            layout,
            decoder,
            encoder,
            keys,
            source,
        }),
    })
}

/// An `offset=` argument: an int (else `TypeError`); one that is negative or too large for the
/// platform is outside every buffer, a `DecodeError` like an offset past the end (rather than
/// pyo3's `OverflowError`).
fn offset_arg(py: Python<'_>, offset: Option<&Bound<'_, PyAny>>, len: usize) -> PyResult<usize> {
    let Some(offset) = offset else {
        return Ok(0);
    };
    if !offset.is_instance_of::<pyo3::types::PyInt>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "offset must be an int, got {}",
            offset.get_type().name()?
        )));
    }
    offset.extract::<usize>().map_err(|_| {
        errors::decode_error(
            py,
            &format!("offset {offset} is outside the {len}-byte buffer"),
            None,
            "",
            None,
        )
    })
}

/// The framing names `sbekit decode --framing` takes.
pub fn parse_framing(name: &str) -> PyResult<Framing> {
    match name {
        "sbe" => Ok(Framing::Sbe),
        "u16le" => Ok(Framing::U16Le),
        "u32le" => Ok(Framing::U32Le),
        "sofh" => Ok(Framing::Sofh),
        other => Err(PyValueError::new_err(format!(
            "unknown framing {other:?} (expected \"sbe\", \"u16le\", \"u32le\" or \"sofh\")"
        ))),
    }
}

impl Schema {
    /// A template id from a message name or id (None: every template).
    pub fn template_id(&self, template: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
        let Some(t) = template else { return Ok(None) };
        if t.is_none() {
            return Ok(None);
        }
        let layout = &self.inner.layout;
        if let Ok(id) = t.extract::<u64>() {
            if layout.messages.iter().any(|m| u64::from(m.id) == id) {
                return Ok(Some(id));
            }
            return Err(PyValueError::new_err(format!(
                "no message with template id {id}"
            )));
        }
        let name: String = t.extract()?;
        layout
            .messages
            .iter()
            .find(|m| m.name == name)
            .map(|m| Some(u64::from(m.id)))
            .ok_or_else(|| {
                let names: Vec<&str> = layout.messages.iter().map(|m| m.name.as_str()).collect();
                PyValueError::new_err(format!(
                    "no message named {name:?} (the schema has {})",
                    names.join(", ")
                ))
            })
    }
}

#[pymethods]
impl Schema {
    /// Schema(path) -> Schema
    ///
    /// Compiles the schema at `path`: an XML schema (XIncludes resolved relative to it) or an
    /// `.sbeir` file, told apart by content. Raises `SchemaError` if it is not valid.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let source = path.display().to_string();
        let c = py
            .detach(|| sbekit_schema::compile_any_file(&path, &sbekit_schema::Options::default()));
        compiled_from(py, c, source)
    }

    /// Schema.from_xml(text, name="<string>") -> Schema
    ///
    /// Compiles schema XML given as text. `name` is the file name diagnostics use, and the
    /// base that XIncludes resolve against.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<string>"))]
    fn from_xml(py: Python<'_>, text: &str, name: &str) -> PyResult<Self> {
        let c = sbekit_schema::compile_str(text, name, &sbekit_schema::Options::default());
        compiled_from(py, c, name.to_string())
    }

    /// The schema's package name.
    #[getter]
    fn package(&self) -> &str {
        &self.inner.layout.package
    }

    /// The schema id (`id` attribute).
    #[getter]
    fn id(&self) -> u32 {
        self.inner.layout.id
    }

    /// The schema version (`version` attribute).
    #[getter]
    fn version(&self) -> u32 {
        self.inner.layout.version
    }

    /// `"little"` or `"big"`.
    #[getter]
    fn byte_order(&self) -> &'static str {
        match self.inner.layout.byte_order {
            ByteOrder::LittleEndian => "little",
            ByteOrder::BigEndian => "big",
        }
    }

    /// The messages, in template-id order: each a `Message` with `.name`, `.id`,
    /// `.block_length`, `.fields`, `.groups` and `.var_data`.
    #[getter]
    fn messages(&self) -> Vec<Message> {
        // The same typed outline `sbekit inspect` prints.
        Outline::new(&self.inner.layout)
            .messages
            .iter()
            .map(Message::from_message)
            .collect()
    }

    /// decode(buf, offset=0) -> dict
    ///
    /// Decodes the message (header included) that starts at `buf[offset]`. `buf` is bytes,
    /// bytearray, memoryview or anything else with the buffer protocol. Returns a dict with
    /// one member per field in schema order: the values `sbekit decode` prints as JSON
    /// (`None` for JSON's null; NaN stays a float NaN; var data without a character encoding
    /// is bytes). A message written at an older version than the schema's starts with a key
    /// `"$version"` (that version), which `encode` honours, so `encode(name, decode(buf))`
    /// gives `buf` back at every version. Raises `DecodeError` (with `.offset` counted from
    /// the start of `buf`, and `.path`) if the bytes are not a valid message.
    #[pyo3(signature = (buf, offset = None), text_signature = "(self, buf, offset=0)")]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        buf: &Bound<'py, PyAny>,
        offset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let input = Input::from_object(buf)?;
        let bytes = input.bytes();
        let offset = offset_arg(py, offset, bytes.len())?;
        let Some(msg) = bytes.get(offset..) else {
            return Err(errors::decode_error(
                py,
                &format!(
                    "offset {offset} is past the end of the {}-byte buffer",
                    bytes.len()
                ),
                Some(offset as u64),
                "",
                None,
            ));
        };
        let mut b = DictBuilder::new(py, &self.inner.keys, self.inner.decoder.schema_version());
        match self.inner.decoder.decode(msg, &mut b) {
            Ok(_) => b.finish(),
            Err(e) => Err(errors::from_otf(py, &e, offset as u64, None)),
        }
    }

    /// header(buf, offset=0) -> dict
    ///
    /// The message header at `buf[offset]`: `block_length`, `template_id`, `schema_id` and
    /// `version` (the writer's acting version; pass it to `encode` to write the same bytes).
    /// The message name is added as `name` when the schema has the template.
    #[pyo3(signature = (buf, offset = None), text_signature = "(self, buf, offset=0)")]
    fn header<'py>(
        &self,
        py: Python<'py>,
        buf: &Bound<'py, PyAny>,
        offset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let input = Input::from_object(buf)?;
        let offset = offset_arg(py, offset, input.bytes().len())?;
        let msg = input.bytes().get(offset..).unwrap_or_default();
        let h = self
            .inner
            .decoder
            .read_header(msg)
            .map_err(|e| errors::from_otf(py, &e, offset as u64, None))?;
        let d = PyDict::new(py);
        d.set_item("block_length", h.block_length)?;
        d.set_item("template_id", h.template_id)?;
        d.set_item("schema_id", h.schema_id)?;
        d.set_item("version", h.version)?;
        if let Some(m) = self.inner.decoder.message_by_id(h.template_id) {
            d.set_item("name", &m.name)?;
        }
        Ok(d)
    }

    /// decode_all(buf, framing="sbe", template=None) -> list[dict]
    ///
    /// Decodes every message of a stream to dicts, as `decode` does one. `framing` is how
    /// messages are delimited: `"sbe"` (back to back), `"u16le"` / `"u32le"` (little-endian
    /// length prefixes) or `"sofh"` (Simple Open Framing Header). `template` (a message name or
    /// id) keeps only that message's dicts. A bad message raises `DecodeError` with its
    /// `.index` in the stream, its `.offset` and `.path`.
    #[pyo3(signature = (buf, framing = "sbe", template = None))]
    fn decode_all<'py>(
        &self,
        py: Python<'py>,
        buf: &Bound<'py, PyAny>,
        framing: &str,
        template: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let framing = parse_framing(framing)?;
        let template = self.template_id(template)?;
        let input = Input::from_object(buf)?;
        let mut stream = MessageStream::new(input.bytes(), framing, DEFAULT_MAX_MESSAGE);
        let decoder = &self.inner.decoder;
        let mut sink = Dicts {
            decoder,
            builder: DictBuilder::new(py, &self.inner.keys, decoder.schema_version()),
            out: PyList::empty(py),
            error: None,
        };
        let run = stream.run(decoder, template, false, &mut sink);
        if let Some(e) = sink.error {
            return Err(e);
        }
        run.map_err(|e| errors::from_stream(py, &StreamError::Io(e)))?;
        Ok(sink.out)
    }

    /// encode(name, value, version=None, *, validate=False) -> bytes
    ///
    /// Encodes one message, header included, from a dict of the shape `decode` returns:
    /// enums by name (or raw number), sets as a list of the choices that are on (or a dict of
    /// booleans), char data as str, raw var data as bytes or str, groups as lists of dicts,
    /// omitted optional fields and None as the null value, constants checked and not written.
    /// `name` is the message's name or template id (None: the schema's only message, or the
    /// only one with every key of `value`). `version` writes as that older version's writer
    /// would (newer fields, groups and var data left out). Raises `EncodeError` naming the
    /// value's path (`Car.fuelFigures[2].speed: 70000 does not fit uint16`).
    ///
    /// Without `validate`, anything the wire can hold is written (so `decode`'s dicts go back
    /// as they came). `validate=True` also refuses values outside the schema's rules, with
    /// `EncodeError` and its path: an integer outside the field's minValue..maxValue (by
    /// default the type's range without its null value), a float outside bounds the schema
    /// gives, a required integer or enum field given its null value or None, an enum number
    /// the schema does not list. Optional fields may be None or hold their null value; char
    /// data, sets and constants are not checked. Groups and var data must fit their count and
    /// length fields' maxValue either way.
    #[pyo3(signature = (name, value, version = None, *, validate = false))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        name: Option<&Bound<'py, PyAny>>,
        value: &Bound<'py, PyAny>,
        version: Option<u32>,
        validate: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let template = match name {
            None => None,
            Some(n) if n.is_none() => None,
            Some(n) => Some(match n.extract::<u64>() {
                Ok(id) => id.to_string(),
                Err(_) => n.extract::<String>()?,
            }),
        };
        let mut path = template.clone().unwrap_or_default();
        let json = crate::convert::from_python(value, &mut path, 0)
            .map_err(|e| errors::encode_error(py, &e.value(py).to_string(), &path))?;
        let mut out = Vec::with_capacity(256);
        let checked;
        let encoder = if validate {
            // A clone shares the compiled plan: only a reference count and a flag.
            checked = self.inner.encoder.clone().with_validation(true);
            &checked
        } else {
            &self.inner.encoder
        };
        encoder
            .encode(&json, template.as_deref(), version, &mut out)
            .map_err(|e| errors::encode_error(py, &e.to_string(), &e.path))?;
        Ok(PyBytes::new(py, &out))
    }

    /// read(source, framing="sbe", template=None) -> Arrow table
    ///
    /// Decodes a stream of messages into an Arrow table, one row per message. `source` is a
    /// file path (str or PathLike; streamed, not loaded whole) or bytes-like. `template` (a
    /// message name or id) picks the message type; it may be left out when the schema has one
    /// message (use `read_all` for every type at once). `framing` is as for `decode_all`.
    ///
    /// The result implements `__arrow_c_stream__`: `polars.DataFrame(t)`, `pyarrow.table(t)`,
    /// `duckdb.sql("select * from t")` take it without copying, as often as needed. Columns:
    /// `_template_id`, `_schema_id`, `_acting_version`, `_block_length`, `_offset` (the
    /// message's byte offset), then the fields (composites and sets as structs, enums as
    /// dictionary-encoded names, groups as lists of structs, var data as strings or binary).
    /// Values equal what `decode` gives for each message. Runs without the GIL; a bad message
    /// raises `DecodeError` with its index, offset and path.
    #[pyo3(signature = (source, framing = "sbe", template = None))]
    fn read(
        &self,
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        framing: &str,
        template: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        crate::arrow::read(self, py, source, framing, template)
    }

    /// read_all(source, framing="sbe") -> dict[str, Arrow table]
    ///
    /// Like `read`, for every message type at once: a dict from message name to table (every
    /// message of the schema, empty tables included).
    #[pyo3(signature = (source, framing = "sbe"))]
    fn read_all<'py>(
        &self,
        py: Python<'py>,
        source: &Bound<'py, PyAny>,
        framing: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        crate::arrow::read_all(self, py, source, framing)
    }

    fn __repr__(&self) -> String {
        let l = &self.inner.layout;
        format!(
            "<sbekit.Schema {} (id {}, version {}, {} messages) from {}>",
            l.package,
            l.id,
            l.version,
            l.messages.len(),
            self.inner.source
        )
    }
}

/// One field of a message or group, as the schema describes it.
#[pyclass(frozen, get_all, module = "sbekit")]
#[derive(Clone)]
pub struct Field {
    /// Field name.
    name: String,
    /// Field id (-1 for composite members).
    id: i32,
    /// Type name in the schema (`uint16`, `Model`, `Engine`, ...).
    type_name: String,
    /// `"primitive"`, `"enum"`, `"set"` or `"composite"`.
    kind: &'static str,
    /// Offset in the block, in bytes.
    offset: usize,
    /// Size in bytes (0 for a constant).
    size: usize,
    /// `"required"`, `"optional"` or `"constant"`.
    presence: &'static str,
    /// `sinceVersion`.
    since_version: u32,
    /// Members of a composite (empty otherwise).
    members: Vec<Field>,
}

#[pymethods]
impl Field {
    fn __repr__(&self) -> String {
        format!(
            "<Field {} {} ({}) at {}, {} bytes, {}>",
            self.name, self.type_name, self.kind, self.offset, self.size, self.presence
        )
    }
}

impl Field {
    fn from_outline(f: &FieldOutline) -> Field {
        Field {
            name: f.name.clone(),
            id: f.id,
            type_name: f.type_name.clone(),
            kind: f.kind.as_str(),
            offset: f.offset,
            size: f.size,
            presence: presence_label(f.presence),
            since_version: f.since_version,
            members: f.members.iter().map(Field::from_outline).collect(),
        }
    }
}

/// A message (or a repeating group inside one): its fields, groups and var data.
#[pyclass(frozen, get_all, module = "sbekit")]
#[derive(Clone)]
pub struct Message {
    /// `"message"` or `"group"`.
    kind: &'static str,
    /// Name.
    name: String,
    /// Template id (messages) or group id.
    id: i64,
    /// `sinceVersion`.
    since_version: u32,
    /// Description from the schema, if any.
    description: Option<String>,
    /// Fixed block length in bytes (at the schema's version).
    block_length: usize,
    /// The fixed fields, in schema order.
    fields: Vec<Field>,
    /// Repeating groups.
    groups: Vec<Message>,
    /// Names of the variable-length data fields.
    var_data: Vec<String>,
}

impl Message {
    fn from_message(m: &MessageOutline) -> Message {
        Message {
            kind: "message",
            name: m.name.clone(),
            id: i64::from(m.id),
            since_version: m.since_version,
            description: m.description.clone(),
            block_length: m.block_length,
            fields: m.fields.iter().map(Field::from_outline).collect(),
            groups: m.groups.iter().map(Message::from_group).collect(),
            var_data: m.data.iter().map(|d| d.name.clone()).collect(),
        }
    }

    fn from_group(g: &GroupOutline) -> Message {
        Message {
            kind: "group",
            name: g.name.clone(),
            id: i64::from(g.id),
            since_version: g.since_version,
            description: g.description.clone(),
            block_length: g.block_length,
            fields: g.fields.iter().map(Field::from_outline).collect(),
            groups: g.groups.iter().map(Message::from_group).collect(),
            var_data: g.data.iter().map(|d| d.name.clone()).collect(),
        }
    }
}

#[pymethods]
impl Message {
    /// The names of the fields, groups and var data, in wire order.
    fn names(&self) -> Vec<String> {
        self.fields
            .iter()
            .map(|f| f.name.clone())
            .chain(self.groups.iter().map(|g| g.name.clone()))
            .chain(self.var_data.iter().cloned())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<{} {} (id {}): {} fields, {} groups, {} var data, block {} bytes>",
            if self.kind == "message" {
                "Message"
            } else {
                "Group"
            },
            self.name,
            self.id,
            self.fields.len(),
            self.groups.len(),
            self.var_data.len(),
            self.block_length
        )
    }
}

/// `decode_all`'s part of the shared stream loop: each message into a dict, appended to a list.
struct Dicts<'py, 'k, 'd> {
    decoder: &'d Decoder,
    builder: DictBuilder<'py, 'k>,
    out: Bound<'py, PyList>,
    /// The first error: a bad message, or a failure building its dict.
    error: Option<PyErr>,
}

impl MessageSink for Dicts<'_, '_, '_> {
    fn decode(
        &mut self,
        bytes: &[u8],
        _header: &MessageHeader,
        _offset: u64,
    ) -> Result<usize, DecodeError> {
        self.decoder.decode(bytes, &mut self.builder)
    }

    fn decoded(&mut self, info: &MessageInfo) -> ControlFlow<()> {
        if !info.decoded {
            return ControlFlow::Continue(());
        }
        match self.builder.finish().and_then(|d| self.out.append(d)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    fn failed(&mut self, error: &StreamError, _resumes: bool) {
        self.builder.reset();
        let py = self.out.py();
        self.error
            .get_or_insert_with(|| errors::from_stream(py, error));
    }
}
