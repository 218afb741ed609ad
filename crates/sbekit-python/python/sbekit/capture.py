"""SBE market-data captures (CME MDP 3.0, B3 UMDF, Coinbase Derivatives, SOFH over TCP,
Euronext Optiq, custom framings) read from the schema alone.

::

    import sbekit.capture
    tables = sbekit.capture.read("feed.pcap", schema="mdp3.xml", profile="cme-mdp3")
    # {"MDIncrementalRefreshBook46": <Arrow table>, ...}
    stats = sbekit.capture.stats("feed.pcap", schema="mdp3.xml", profile="cme-mdp3")

Profiles: ``cme-mdp3``, ``b3-umdf``, ``coinbase-derivatives``, ``sofh-le``, ``sofh``,
``optiq-mdg``, or the path of a TOML file describing a custom one (see the guide's
captures page, docs/guide/captures.md).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Sequence, Union

from . import _sbekit

PathLike = Union[str, "os.PathLike[str]"]


def _schema(schema: Union[PathLike, "_sbekit.Schema"]) -> "_sbekit.Schema":
    if isinstance(schema, _sbekit.Schema):
        return schema
    return _sbekit.Schema(os.fspath(schema))


def _paths(path: Union[PathLike, Sequence[PathLike]]) -> list:
    if isinstance(path, (str, os.PathLike)):
        return [os.fspath(path)]
    return [os.fspath(p) for p in path]


def read(
    path: Union[PathLike, Sequence[PathLike]],
    schema: Union[PathLike, "_sbekit.Schema"],
    profile: str,
    arbitrate: bool = False,
) -> Dict[str, Any]:
    """Every message of a capture (or of several), as one Arrow table per message template.

    Returns a dict from message name to an object implementing ``__arrow_c_stream__`` (give it
    to ``polars.DataFrame``, ``pyarrow.table`` or DuckDB), as ``Schema.read_all`` does;
    templates with no message are left out. Columns: the header columns, the message's fields
    (price composites with a constant exponent as decimals), then ``_capture_time``,
    ``_channel``, ``_seq``, ``_sending_time`` and ``_msg_index``. With ``arbitrate``, the
    captures (or the channels of one) are the A and B sides of one feed: each packet sequence
    number is read once. Bad packets are skipped (``stats`` counts and locates them). A file
    that cannot be read raises ``OSError``, an unknown profile ``ValueError``. Runs without
    the GIL.
    """
    return _sbekit.capture_read(_paths(path), _schema(schema), profile, arbitrate)


def stats(
    path: Union[PathLike, Sequence[PathLike]],
    schema: Union[PathLike, "_sbekit.Schema"],
    profile: str,
    arbitrate: bool = False,
    validate: bool = False,
) -> Dict[str, Any]:
    """What ``sbekit capture stats --json`` prints: packets and messages per template and per
    channel, sequence gaps and duplicates, bad packets with their location, throughput."""
    return _sbekit.capture_stats(_paths(path), _schema(schema), profile, arbitrate, validate)
