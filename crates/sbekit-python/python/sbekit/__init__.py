"""sbekit: FIX Simple Binary Encoding (SBE) at Rust speed.

Compile a schema, then decode, encode and read messages::

    import sbekit

    schema = sbekit.Schema("car.xml")            # XML or .sbeir; SchemaError if invalid
    car = schema.decode(buf)                     # one message -> dict
    cars = schema.decode_all(buf)                # a stream -> list of dicts
    buf = schema.encode("Car", car)              # dict -> bytes
    table = schema.read("cars.sbe")              # a stream -> Arrow table

``read`` returns an object implementing the Arrow PyCapsule stream interface
(``__arrow_c_stream__``): ``polars.DataFrame(table)``, ``pyarrow.table(table)`` and DuckDB
(``duckdb.sql("select ... from table")``) take it without copying, and it can be read any
number of times.

Submodules:

- :mod:`sbekit.iex`: IEX market-data captures (pcap / pcap-ng, DEEP, TOPS, DEEP+) as one
  Arrow table per message type, and the statistics ``sbekit iex stats`` prints.
- :mod:`sbekit.capture`: SBE feed captures (CME, B3, Coinbase, Euronext, SOFH, custom
  framings) as one Arrow table per template, and the statistics ``sbekit capture stats`` prints.
- :mod:`sbekit.trades`: trade files (``sbekit trades convert``) as Arrow, and their queries.
- :mod:`sbekit.spark`: SBE files and captures as Spark DataFrames, decoded on the executors
  (``pip install sbekit[spark]``; not imported by ``import sbekit``).

Errors are exceptions: :class:`SchemaError` (with ``file``, ``line``, ``column``),
:class:`DecodeError` (with ``offset``, ``path``), :class:`EncodeError` (with ``path``), all
subclasses of :class:`SbekitError` and ``ValueError``. Malformed bytes never crash the
interpreter.
"""

from ._errors import DecodeError, Diagnostic, EncodeError, SbekitError, SchemaError
from ._sbekit import Field, Message, Schema, __version__
from . import capture, iex, trades

__all__ = [
    "Schema",
    "Message",
    "Field",
    "SbekitError",
    "SchemaError",
    "DecodeError",
    "EncodeError",
    "Diagnostic",
    "iex",
    "trades",
    "__version__",
]
