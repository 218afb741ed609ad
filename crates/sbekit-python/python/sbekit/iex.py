"""IEX market-data captures: pcap / pcap-ng (gzip-compressed or not) of IEX-TP with DEEP,
TOPS or DEEP+ messages.

::

    import sbekit.iex
    tables = sbekit.iex.read("DEEP10.pcap.gz")   # {"QuoteUpdate": <Arrow table>, ...}
    stats = sbekit.iex.stats("DEEP10.pcap.gz")   # what `sbekit iex stats --json` prints
"""

from __future__ import annotations

import os
from typing import Any, Dict, Union

from . import _sbekit

PathLike = Union[str, "os.PathLike[str]"]


def stats(path: PathLike, keep_going: bool = False) -> Dict[str, Any]:
    """Counts by message type, symbols, time spans, sequence gaps and throughput of a capture.

    Returns the same dict that ``sbekit iex stats --json`` prints. An error inside the capture
    does not raise: the statistics cover everything before it and ``stats["error"]`` gives its
    byte offset and message (with ``keep_going``, bad segments are skipped and counted in
    ``skipped_errors``). A file that cannot be opened raises ``OSError``. Runs without the GIL.
    """
    return _sbekit.iex_stats(os.fspath(path), keep_going)


def read(path: PathLike, keep_going: bool = False) -> Dict[str, Any]:
    """Every message of a capture, as one Arrow table per message type.

    Returns a dict from message type name (``"QuoteUpdate"``, ``"TradeReport"``, ...) to an
    object implementing ``__arrow_c_stream__`` (give it to ``polars.DataFrame``,
    ``pyarrow.table`` or DuckDB); types with no message are left out. As with ``stats``, an
    error inside the capture (a truncated last record) ends reading with a ``RuntimeWarning``
    and the tables keep everything before it; ``keep_going`` skips bad segments instead.
    Runs without the GIL.
    """
    return _sbekit.iex_read(os.fspath(path), keep_going)
