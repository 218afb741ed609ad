"""Trade files written by ``sbekit trades convert``: fixed-size SBE records, memory-mapped.

::

    import sbekit.trades
    f = sbekit.trades.open("trades.sbet")
    polars.DataFrame(f.table())      # time, amount, exch, price, server_time, side, ticker
    polars.DataFrame(f.easy())       # hourly bmex/gdax btc_usd VWAP ratio
    polars.DataFrame(f.hard())       # every 10 s, trailing 5/15/60 minute windows
"""

from __future__ import annotations

import os
from typing import Any, Union

from . import _sbekit

PathLike = Union[str, "os.PathLike[str]"]


def open(path: PathLike) -> Any:  # noqa: A001 (the module's verb)
    """Opens a trade file, checking its header and size (``SbekitError`` if it is not one).

    Returns a ``TradeFile`` with ``len()``, ``.table()`` (Arrow), ``.easy()`` and ``.hard()``.
    """
    return _sbekit.TradeFile(os.fspath(path))
