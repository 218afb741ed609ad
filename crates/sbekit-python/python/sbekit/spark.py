"""SBE streams and captures into Spark DataFrames, decoded by sbekit on the executors.

::

    from pyspark.sql import SparkSession
    import sbekit.spark

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    updates = sbekit.spark.read(spark, ["day1.bin", "day2.bin"], schema="market-data.xml",
                                framing="u32le", message="MarketUpdates")
    iex = sbekit.spark.read(spark, "captures/", profile="iex")       # {"trade": DataFrame, ...}

Needs PySpark (``pip install sbekit[spark]``: PySpark and pyarrow); ``import sbekit`` does not
import it. The executors' Python must have sbekit installed, and every file (and the schema)
must be readable at the same path on every executor (a local path in ``local[N]`` mode, a
shared mount such as ``/dbfs/...`` or NFS on a cluster).

**How it runs.** One Spark task per file: a task opens its file and decodes it with sbekit
into Arrow (``mapInArrow``). Files are never split: none of the framings (back-to-back SBE,
length prefixes, SOFH) nor the captures (pcap, pcap-ng, gzip) have a marker from which a
reader could start in the middle, so a split could only be found by reading the file from its
start. Parallelism is therefore the number of files; give Spark many files rather than one big
one. The decoded tables travel between the decoding stage and the DataFrames as Arrow IPC.

**Columns.** The Spark schema comes from the Arrow mapping of ``Schema.read`` and
``sbekit.iex.read`` (the one the Parquet output uses): composites and sets as structs, groups
as arrays of structs, enums as strings, decimals as decimals. Spark has no unsigned integers
and no nanosecond timestamps, so the values are widened losslessly: ``uint8`` to short,
``uint16`` to int, ``uint32`` to long, ``uint64`` to ``decimal(20,0)``; timestamps in
nanoseconds (IEX) stay long nanoseconds since the epoch (``timestamp_micros(ts div 1000)``
gives a Spark timestamp).

**Errors.** A file that cannot be read fails its task (and so the Spark job) with sbekit's
error naming the file, the byte offset and the element path. With ``on_error="skip"`` the
result is a dict that also holds ``"_errors"``: one row per bad file (``file``, ``offset``,
``path``, ``index``, ``error``, ``rows_kept``). A bad file's rows are left out of the tables,
except where the reader goes on past the error: with ``profile="iex"`` the rows before it
are kept (as ``sbekit.iex.read`` keeps them), and with a capture profile the rows of every
good packet (``sbekit.capture.read`` skips bad packets; here the file is then an error that
counts them and locates the first). ``rows_kept`` says which.
"""

from __future__ import annotations

import glob
import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _sbekit
from ._errors import DecodeError, SbekitError


def _require_extra() -> None:
    """Fails the import, naming the extra to install, when a module of ``sbekit[spark]`` is
    missing (a bare ``ModuleNotFoundError`` from deep inside a Spark job says nothing). Looks
    the modules up without importing them: ``import sbekit.spark`` stays cheap."""
    import importlib.util

    missing = []
    for name in ("pyspark", "pyarrow", "pandas"):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    if missing:
        raise ModuleNotFoundError(
            f"sbekit.spark needs {', '.join(missing)}: pip install 'sbekit[spark]'",
            name=missing[0],
        )


_require_extra()

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import DataType

PathLike = Union[str, "os.PathLike[str]"]

#: The framings ``framing=`` takes (as ``Schema.read``).
FRAMINGS = ("sbe", "u16le", "u32le", "sofh")

#: The profile of IEX captures (``sbekit.iex.read``); every other profile is a capture profile
#: of ``sbekit.capture`` (``cme-mdp3``, ``b3-umdf``, ``coinbase-derivatives``, ``sofh-le``,
#: ``sofh``, ``optiq-mdg`` or a TOML file) and needs ``schema=``.
IEX = "iex"

#: The name of the error table in the result of ``on_error="skip"``.
ERRORS = "_errors"

# Rows per Arrow batch shipped from the decoding stage (bounds one IPC value's size).
_BATCH_ROWS = 65_536


@dataclass(frozen=True)
class _Job:
    """What each task needs: picklable, small (no compiled schema; each worker compiles it)."""

    schema: Optional[str]
    framing: Optional[str]
    profile: Optional[str]
    on_error: str
    # Table name -> the Arrow schema its batches are cast to (Spark's types), as IPC bytes.
    targets: Dict[str, bytes]


def read(
    spark: "SparkSession",
    paths: Union[PathLike, Sequence[PathLike]],
    schema: Optional[PathLike] = None,
    framing: Optional[str] = None,
    profile: Optional[str] = None,
    message: Optional[str] = None,
    on_error: str = "raise",
) -> Union["DataFrame", Dict[str, "DataFrame"]]:
    """SBE files or captures as Spark DataFrames, decoded by sbekit in one task per file.

    ``paths``: a file, a directory (its files, sorted; hidden ones left out), a glob pattern,
    or a list of these. ``schema``: the SBE schema file (XML or ``.sbeir``). Give either
    ``framing`` (``"sbe"``, ``"u16le"``, ``"u32le"`` or ``"sofh"``, as ``Schema.read``) or
    ``profile`` (``"iex"`` for IEX captures, without ``schema``; or a capture profile of
    :mod:`sbekit.capture`, with ``schema``).

    ``message`` (a message name, or an IEX table name such as ``"trade"``) returns that one
    DataFrame; without it the result is a dict from name to DataFrame (every template of the
    schema, or every IEX table, empty ones included). With ``on_error="skip"`` the result is
    always a dict, holding ``"_errors"`` besides (see the module's documentation); with
    ``"raise"`` (the default) a bad file fails the Spark job with sbekit's error (file, byte
    offset, element path). Without ``message``, or with ``on_error="skip"``, the decoded
    files are cached (``persist``) once, so that the DataFrames returned share one decode of
    each file. Every message of a file is decoded even with ``message=``, so that a bad
    message of another template is not passed over.
    """
    import pyarrow as pa  # noqa: F401 (PySpark's mapInArrow needs it; fail early if absent)

    if on_error not in ("raise", "skip"):
        raise ValueError(f'on_error must be "raise" or "skip", got {on_error!r}')
    if (framing is None) == (profile is None):
        raise ValueError('give one of framing= ("sbe", "u16le", "u32le", "sofh") or profile=')
    if framing is not None and framing not in FRAMINGS:
        raise ValueError(f"unknown framing {framing!r} (expected one of {', '.join(FRAMINGS)})")
    if profile == IEX and schema is not None:
        raise ValueError('profile="iex" reads IEX captures: it takes no schema=')
    if profile != IEX and schema is None:
        raise ValueError("schema= is needed to read SBE files and captures")
    schema_path = os.path.abspath(os.fspath(schema)) if schema is not None else None
    files = _expand(paths)
    if not files:
        raise ValueError(f"no files in {paths!r}")

    arrow = _arrow_schemas(schema_path, profile)
    if message is not None and message not in arrow:
        raise ValueError(f"no table {message!r} (there are {', '.join(arrow)})")
    names = [message] if message is not None else list(arrow)
    targets = {n: spark_arrow_schema(arrow[n]) for n in names}
    targets[ERRORS] = _errors_schema()
    job = _Job(schema_path, framing, profile, on_error,
               {n: s.serialize().to_pybytes() for n, s in targets.items()})

    # One partition, hence one task, per file: row i of spark.range names files[i] (range
    # splits evenly, and works on Spark Connect too, unlike sparkContext.parallelize).
    listing = spark.range(0, len(files), 1, len(files))
    decoded = listing.mapInArrow(lambda it: _decode(it, job, files), "table string, ipc binary")
    if message is None or on_error == "skip":
        decoded = decoded.persist()

    def frame(name: str) -> "DataFrame":
        target = targets[name]
        part = decoded.where(decoded["table"] == name)
        return part.mapInArrow(lambda it: _unpack(it, target), spark_schema(target))

    if message is not None and on_error == "raise":
        return frame(message)
    out = {n: frame(n) for n in names}
    if on_error == "skip":
        out[ERRORS] = frame(ERRORS)
    return out


def _expand(paths: Union[PathLike, Sequence[PathLike]]) -> List[str]:
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out: List[str] = []
    for p in items:
        p = os.fspath(p)
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p)
                          if not f.startswith(".") and os.path.isfile(os.path.join(p, f)))
        elif glob.has_magic(p):
            out += sorted(f for f in glob.glob(p) if os.path.isfile(f))
        else:
            out.append(p)
    return [os.path.abspath(f) for f in out]


def _arrow_schemas(schema: Optional[str], profile: Optional[str]) -> Dict[str, "pa.Schema"]:
    """Each table's Arrow schema as sbekit gives it, from an empty read."""
    import pyarrow as pa

    if profile == IEX:
        empty = _sbekit.iex_schemas()
    elif profile is not None:
        empty = _sbekit.capture_schemas(_schema(schema), profile)
    else:
        empty = _schema(schema).read_all(b"")
    return {name: pa.table(t).schema for name, t in empty.items()}


def _errors_schema() -> "pa.Schema":
    import pyarrow as pa

    return pa.schema([("file", pa.string()), ("offset", pa.int64()), ("path", pa.string()),
                      ("index", pa.int64()), ("error", pa.string()),
                      ("rows_kept", pa.bool_())])


def _spark_arrow_type(t: "pa.DataType") -> "pa.DataType":
    """The Arrow type Spark holds ``t`` as (see the module's documentation)."""
    import pyarrow as pa
    import pyarrow.types as pt

    widen = {pa.uint8(): pa.int16(), pa.uint16(): pa.int32(), pa.uint32(): pa.int64(),
             pa.uint64(): pa.decimal128(20, 0)}
    if t in widen:
        return widen[t]
    if pt.is_dictionary(t):
        return _spark_arrow_type(t.value_type)
    if pt.is_string(t) or pt.is_large_string(t):
        return pa.string()
    if pt.is_binary(t) or pt.is_large_binary(t) or pt.is_fixed_size_binary(t):
        return pa.binary()
    if pt.is_timestamp(t):
        # Spark's timestamps are microseconds: nanoseconds stay exact as a long.
        return pa.int64() if t.unit == "ns" else pa.timestamp("us", tz="UTC")
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t):
        return pa.list_(_spark_arrow_field(t.value_field))
    if pt.is_struct(t):
        return pa.struct([_spark_arrow_field(t.field(i)) for i in range(t.num_fields)])
    if pt.is_decimal(t) and t.precision > 38:
        raise TypeError(f"{t}: Spark decimals hold at most 38 digits")
    return t


def _spark_arrow_field(f: "pa.Field") -> "pa.Field":
    import pyarrow as pa

    # Spark's columns are nullable.
    return pa.field(f.name, _spark_arrow_type(f.type), nullable=True)


def spark_arrow_schema(schema: "pa.Schema") -> "pa.Schema":
    """The Arrow schema sbekit's table ``schema`` is cast to for Spark: unsigned integers
    widened, enums (dictionaries) as strings, nanosecond timestamps as int64, all nullable."""
    import pyarrow as pa

    return pa.schema([_spark_arrow_field(f) for f in schema])


def spark_schema(schema: "pa.Schema") -> Any:
    """The Spark ``StructType`` of an Arrow schema made by :func:`spark_arrow_schema`."""
    from pyspark.sql.types import StructField, StructType

    return StructType([StructField(f.name, _spark_type(f.type), True) for f in schema])


def _spark_type(t: "pa.DataType") -> "DataType":
    import pyarrow.types as pt
    from pyspark.sql import types as st

    simple = [(pt.is_boolean, st.BooleanType), (pt.is_int8, st.ByteType),
              (pt.is_int16, st.ShortType), (pt.is_int32, st.IntegerType),
              (pt.is_int64, st.LongType), (pt.is_float32, st.FloatType),
              (pt.is_float64, st.DoubleType), (pt.is_string, st.StringType),
              (pt.is_binary, st.BinaryType), (pt.is_date32, st.DateType),
              (pt.is_timestamp, st.TimestampType), (pt.is_null, st.NullType)]
    for test, cls in simple:
        if test(t):
            return cls()
    if pt.is_decimal(t):
        return st.DecimalType(t.precision, t.scale)
    if pt.is_list(t):
        return st.ArrayType(_spark_type(t.value_type), True)
    if pt.is_struct(t):
        return st.StructType([st.StructField(t.field(i).name, _spark_type(t.field(i).type), True)
                              for i in range(t.num_fields)])
    raise TypeError(f"no Spark type for Arrow {t}")


def _ipc(batch: "pa.RecordBatch") -> bytes:
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as w:
        w.write_batch(batch)
    return sink.getvalue().to_pybytes()


def _row(table: str, batch: "pa.RecordBatch") -> "pa.RecordBatch":
    import pyarrow as pa

    return pa.RecordBatch.from_pydict({"table": [table], "ipc": [_ipc(batch)]},
                                      schema=pa.schema([("table", pa.string()),
                                                        ("ipc", pa.binary())]))


def _tables(job: _Job, file: str) -> Tuple[Dict[str, Any], Optional[Exception]]:
    """The tables of one file, and an error its reader went on past (IEX: the rows before it
    are kept; captures: the good packets' rows are)."""
    from . import iex

    if job.profile == IEX:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", RuntimeWarning)
            tables = iex.read(file)
        stop = next((w for w in seen if issubclass(w.category, RuntimeWarning)), None)
        return tables, (DecodeError(str(stop.message)) if stop else None)
    schema = _schema(job.schema)
    if job.profile is not None:
        # sbekit.capture.read skips bad packets; here they make the file an error (its other
        # rows kept), so that none is passed over unseen.
        tables, bad, first = _sbekit.capture_read_checked([file], schema, job.profile)
        if not bad:
            return tables, None
        offset, text = first if first is not None else (None, "")
        return tables, DecodeError(f"{bad} bad packet(s); the first: {text}", offset)
    assert job.framing is not None
    # Every message is decoded even with message= (Schema.read's template= would pass over
    # the others unchecked): a bad message of any template is an error of the file.
    return schema.read_all(file, framing=job.framing), None


_SCHEMAS: Dict[Tuple[str, int], Any] = {}


def _schema(path: Optional[str]) -> Any:
    """The compiled schema, once per process (and again if the file changes)."""
    assert path is not None
    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError:
        return _sbekit.Schema(path)  # raises sbekit's SchemaError naming the file
    if key not in _SCHEMAS:
        _SCHEMAS[key] = _sbekit.Schema(path)
    return _SCHEMAS[key]


def _error_row(file: str, e: Exception, rows_kept: bool) -> "pa.RecordBatch":
    import pyarrow as pa

    return pa.RecordBatch.from_pydict(
        {"file": [file], "offset": [getattr(e, "offset", None)], "path": [getattr(e, "path", "")],
         "index": [getattr(e, "index", None)], "error": [f"{type(e).__name__}: {e}"],
         "rows_kept": [rows_kept]}, schema=_errors_schema())


def _where(file: str, e: Exception) -> str:
    """``file: offset N: path: message``, as much of it as is known."""
    parts = [file]
    if getattr(e, "offset", None) is not None:
        parts.append(f"offset {e.offset}")  # type: ignore[attr-defined]
    if getattr(e, "path", ""):
        parts.append(e.path)  # type: ignore[attr-defined]
    return ": ".join(parts + [str(e)])


def _located(file: str, e: Exception) -> Exception:
    """``e`` again, its message naming the file (a DecodeError keeps offset, path, index)."""
    if isinstance(e, DecodeError):
        return DecodeError(_where(file, e), e.offset, e.path, e.index)
    if isinstance(e, OSError):
        return OSError(e.errno, _where(file, e))
    return type(e)(_where(file, e))


def _decode(
    batches: Iterable["pa.RecordBatch"], job: _Job, files: List[str]
) -> Iterator["pa.RecordBatch"]:
    """The decoding stage: each file of the task (by index) into ``(table, Arrow IPC)`` rows."""
    import pyarrow as pa

    targets = {n: pa.ipc.read_schema(pa.py_buffer(s)) for n, s in job.targets.items()}
    for b in batches:
        for file in (files[i] for i in b.column("id").to_pylist()):
            try:
                tables, stopped = _tables(job, file)
            except (SbekitError, OSError, ValueError) as e:
                if job.on_error == "raise":
                    raise _located(file, e) from e
                yield _row(ERRORS, _error_row(file, e, False))
                continue
            if stopped is not None:
                if job.on_error == "raise":
                    raise DecodeError(_where(file, stopped))
                yield _row(ERRORS, _error_row(file, stopped, True))
            for name, t in tables.items():
                if name not in targets or name == ERRORS:
                    continue
                table = pa.table(t).cast(targets[name])
                for rb in table.to_batches(max_chunksize=_BATCH_ROWS):
                    if rb.num_rows:
                        yield _row(name, rb)


def _unpack(batches: Iterable["pa.RecordBatch"], target: "pa.Schema") -> Iterator["pa.RecordBatch"]:
    """The second stage: one table's IPC values back into record batches."""
    import pyarrow as pa

    for b in batches:
        for blob in b.column("ipc").to_pylist():
            for rb in pa.ipc.open_stream(pa.py_buffer(blob)):
                yield rb if rb.schema == target else rb.cast(target)
