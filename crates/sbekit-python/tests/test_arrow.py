"""Arrow output: read() equals decode() message by message; Polars, DuckDB and pyarrow agree."""

import struct
import subprocess

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import sbekit
from conftest import SHARED, md_messages, need, reference, sbekit_cli
from test_decode import CASES

HEADER_COLS = {"_template_id", "_schema_id", "_acting_version", "_block_length", "_offset"}


def rows_without_header(table):
    return [{k: v for k, v in r.items() if k not in HEADER_COLS}
            for r in pa.table(table).to_pylist()]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def agree(got, want, consts, path="", old=False):
    """Arrow row == decode dict, up to the mapping's documented differences: constants are
    schema metadata (``sbe.constant.<path>``), not columns; fields newer than an older
    writer's version are null (decode gives their null values, as the reference does);
    float32 values come out of Arrow widened exactly, out of decode as their shortest text
    (compared as float32)."""
    if got is None and old:
        return
    if isinstance(want, dict):
        assert isinstance(got, dict), path
        for k, v in want.items():
            p = f"{path}.{k}" if path else k
            if k not in got:
                assert p in consts, f"{p} missing and not a constant"
                continue
            agree(got[k], v, consts, p, old)
        assert set(got) <= set(want), path
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for g, w in zip(got, want):
            agree(g, w, consts, path, old)
    elif isinstance(want, float) and isinstance(got, float):
        assert f32(got) == f32(want) or got == want, path
    else:
        assert got == want, path


def constants(table):
    meta = pa.table(table).schema.metadata or {}
    return {k.decode()[len("sbe.constant."):] for k in meta if k.startswith(b"sbe.constant.")}


def test_read_equals_decode_own(md_schema, tmp_path):
    msgs = md_messages(2000, seed=21)
    buf = b"".join(msgs)
    t = md_schema.read(buf)
    assert len(t) == len(msgs)
    assert rows_without_header(t) == [md_schema.decode(m) for m in msgs]
    offsets = pa.table(t).column("_offset").to_pylist()
    assert offsets[1] == len(msgs[0])
    # From a file (streamed) and with a length-prefixed framing: the same rows.
    p = tmp_path / "md.sbe"
    p.write_bytes(buf)
    assert pa.table(md_schema.read(p)).equals(pa.table(t))
    framed = b"".join(struct.pack("<H", len(m)) + m for m in msgs)
    assert rows_without_header(md_schema.read(framed, framing="u16le")) == rows_without_header(t)
    assert list(md_schema.read_all(buf)) == ["MarketUpdates"]


@pytest.mark.parametrize("vector,schema,golden", CASES)
def test_read_equals_decode_reference(vector, schema, golden):
    s = sbekit.Schema(reference(f"derived/sbeir/{schema}.sbeir"))
    buf = reference(vector).read_bytes()
    t = s.read(buf * 5, template="Car")
    want = s.decode(buf)
    consts = constants(t)
    rows = rows_without_header(t)
    assert len(rows) == 5
    old = s.header(buf)["version"] < s.version
    # decode names an older writer's version in "$version"; Arrow carries it per row in the
    # `_acting_version` column, so the two must agree.
    version = want.pop("$version", None)
    assert (version is not None) == old
    acting = pa.table(t).column("_acting_version").to_pylist()
    assert acting == [s.header(buf)["version"]] * 5
    if old:
        assert version == acting[0]
    for row in rows:
        agree(row, want, consts, old=old)


def test_engines_agree(md_schema):
    t = md_schema.read(b"".join(md_messages(5000, seed=8)))
    # The same object read three times by three engines (the table is not one-shot).
    by_polars = pl.DataFrame(t).select(
        pl.col("trades").list.len().sum().alias("n"),
        pl.col("trades").list.eval(pl.element().struct.field("price")).list.sum().sum().alias("px"),
    ).row(0)
    by_duckdb = duckdb.sql(
        "select count(*), sum(t.price) from (select unnest(trades) as t from t)").fetchall()[0]
    pt = pa.table(t)
    flat = pc.list_flatten(pt.column("trades"))
    by_pyarrow = (len(flat), pc.sum(pc.struct_field(flat, [2])).as_py())
    assert tuple(by_polars) == tuple(by_duckdb) == by_pyarrow
    assert by_polars[0] > 0


def test_read_errors(md_schema):
    msgs = md_messages(10, seed=1)
    bad = b"".join(msgs)[:-5]
    with pytest.raises(sbekit.DecodeError) as e:
        md_schema.read(bad)
    assert e.value.index == 9
    with pytest.raises(OSError):
        md_schema.read("/nonexistent/file.sbe")
    s = sbekit.Schema.from_xml((md_schema_path := None) or open(
        __import__("conftest").SCHEMAS / "market-data.xml").read())
    assert len(s.read(b"")) == 0


def test_read_memory_flat(md_schema):
    from test_memory import flat

    buf = b"".join(md_messages(500, seed=3))
    flat(lambda: pl.DataFrame(md_schema.read(buf)))


@pytest.mark.parametrize("rel", ["go-iex/DEEP10.pcap.gz", "go-iex/TOPS16.pcapng.gz"])
def test_iex_read_counts(rel):
    path = need(SHARED / "data" / "iex" / rel, "IEX captures")
    stats = sbekit.iex.stats(path)
    if stats["error"]:
        with pytest.warns(RuntimeWarning, match="ended early"):
            tables = sbekit.iex.read(path)
    else:
        tables = sbekit.iex.read(path)
    total = sum(len(t) for t in tables.values())
    assert total == stats["messages"]
    for name, t in tables.items():
        assert pl.DataFrame(t).height == len(t) == duckdb.sql("select count(*) from t").fetchall()[0][0]


def test_trades(tmp_path):
    cli = sbekit_cli()
    csv = tmp_path / "t.csv"
    sbet = tmp_path / "t.sbet"
    subprocess.run([str(cli), "trades", "synth", "--rows", "200000", "--seed", "3", "-o", str(csv)],
                   check=True, capture_output=True)
    subprocess.run([str(cli), "trades", "convert", str(csv), "-o", str(sbet)], check=True,
                   capture_output=True)
    f = sbekit.trades.open(sbet)
    assert len(f) == 200000
    df = pl.DataFrame(f.table())
    want = pl.read_csv(csv)
    assert df.height == want.height
    assert abs(df["amount"].sum() - want["amount"].sum()) < 1e-6 * abs(want["amount"].sum())
    easy = pl.DataFrame(f.easy())
    out = subprocess.run([str(cli), "trades", "query", "easy", str(sbet)], check=True,
                         capture_output=True, text=True).stdout
    assert easy.height == len(out.strip().splitlines()) - 1
    hard = pl.DataFrame(f.hard())
    assert hard.width == 4 and hard.height > 0
