"""Shared helpers for the sbekit Python tests.

Tests that read the reference vectors or IEX captures in ``../shared`` skip loudly when it is
absent, and fail instead under ``CI=true`` (so a green CI run means they ran). The rest use
the project's own schemas (``schemas/*.xml``) and messages built here.
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import sys
from pathlib import Path
from typing import List, Optional

import pytest

REPO = Path(__file__).resolve().parents[3]
SCHEMAS = REPO / "schemas"
SHARED = Path(os.environ.get("SBEKIT_SHARED_DIR", REPO.parent / "shared"))
REFERENCE = SHARED / "conformance" / "reference-sbe"


def is_ci() -> bool:
    return os.environ.get("CI") in ("true", "1")


def need(path: Path, what: str) -> Path:
    """``path`` if it exists; else fail under CI, or skip with a loud notice."""
    if path.exists():
        return path
    msg = f"{what}: required test material {path} is missing"
    if is_ci():
        pytest.fail(msg + " (CI=true makes this a failure)")
    print(f"\n*** SKIPPED {msg}. Put shared/ beside the checkout or set SBEKIT_SHARED_DIR. ***",
          file=sys.stderr)
    pytest.skip(msg)


def reference(rel: str) -> Path:
    return need(REFERENCE / rel, "reference vectors")


def sbekit_cli() -> Path:
    """The `sbekit` command-line tool built by cargo (release preferred)."""
    if os.environ.get("SBEKIT_BIN"):
        return Path(os.environ["SBEKIT_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("release", "debug"):
        p = target / profile / "sbekit"
        if p.exists():
            return p
    found = shutil.which("sbekit")
    return need(Path(found) if found else target / "release" / "sbekit", "the sbekit CLI")


def run_readme_example(marker: str, cwd: Path) -> "tuple[str, str]":
    """Runs the README's ```python block after ``<!-- marker``, in ``cwd``, with the repo's
    ``schemas/`` paths made absolute; returns the block and what it printed."""
    import contextlib
    import io
    import re

    text = (REPO / "README.md").read_text()
    found = re.search(rf"<!-- {marker}.*?```python\n(.*?)```", text, re.S)
    assert found, f"README.md has no <!-- {marker} --> block"
    block = found.group(1)
    code = block.replace('"schemas/', f'"{REPO}/schemas/')
    out = io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(before)
    return block, out.getvalue()


# The market-data schema (schemas/market-data.xml): little-endian, header of four uint16.
MD_TRADE = struct.Struct("<q8sqIB")       # timestamp, symbol, price, size, flags
MD_LEVEL = struct.Struct("<q8sqIBB")      # ... and side
SYMBOLS = [b"AAPL    ", b"MSFT    ", b"SPY     ", b"ZVZZT   ", b"QQQ     "]


def md_message(rng: random.Random, seq: int, trades: Optional[int] = None,
               levels: Optional[int] = None) -> bytes:
    """One MarketUpdates message of market-data.xml, built by hand with struct."""
    nt = rng.randint(0, 4) if trades is None else trades
    nl = rng.randint(0, 6) if levels is None else levels
    out = [struct.pack("<HHHH", 8, 1, 42, 0), struct.pack("<Q", seq)]
    out.append(struct.pack("<HH", MD_TRADE.size, nt))
    t0 = 1_700_000_000_000_000_000 + seq * 1000
    for i in range(nt):
        out.append(MD_TRADE.pack(t0 + i, rng.choice(SYMBOLS), rng.randint(1, 5_000_000),
                                 rng.randint(1, 10_000), rng.randint(0, 255)))
    out.append(struct.pack("<HH", MD_LEVEL.size, nl))
    for i in range(nl):
        out.append(MD_LEVEL.pack(t0 + i, rng.choice(SYMBOLS), rng.randint(1, 5_000_000),
                                 rng.randint(0, 10_000), rng.randint(0, 255), rng.randint(0, 1)))
    return b"".join(out)


def md_messages(n: int, seed: int = 1) -> List[bytes]:
    rng = random.Random(seed)
    return [md_message(rng, i) for i in range(n)]


def md_expected(buf: bytes) -> dict:
    """What decoding one market-data message must give, computed with struct (the oracle)."""
    pos = 8
    (seq,) = struct.unpack_from("<Q", buf, pos)
    pos += 8
    out = {"sequenceNumber": seq, "trades": [], "levelUpdates": []}
    _, n = struct.unpack_from("<HH", buf, pos)
    pos += 4
    for _ in range(n):
        ts, sym, px, size, flags = MD_TRADE.unpack_from(buf, pos)
        pos += MD_TRADE.size
        out["trades"].append({"timestamp": ts, "symbol": sym.decode().split("\0")[0],
                              "price": px, "size": size, "flags": flags})
    _, n = struct.unpack_from("<HH", buf, pos)
    pos += 4
    for _ in range(n):
        ts, sym, px, size, flags, side = MD_LEVEL.unpack_from(buf, pos)
        pos += MD_LEVEL.size
        out["levelUpdates"].append({"timestamp": ts, "symbol": sym.decode().split("\0")[0],
                                    "price": px, "size": size, "flags": flags,
                                    "side": ["Buy", "Sell"][side]})
    return out


@pytest.fixture(scope="session")
def md_schema():
    import sbekit

    return sbekit.Schema(SCHEMAS / "market-data.xml")
