"""sbekit.spark against DuckDB over sbekit's Parquet export of the same files (issue 25).

Needs PySpark (``pip install sbekit[spark]``, Java 17) and the sbekit CLI (for the synthetic
IEX captures and the Parquet export); skipped loudly without them, failing under ``CI=true``.
Spark runs as ``local[2]``; its Python workers are this interpreter.
"""

from __future__ import annotations

import os
import random
import struct
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any, List

import pytest

import sbekit
from conftest import SCHEMAS, is_ci, md_message, run_readme_example, sbekit_cli

MD = SCHEMAS / "market-data.xml"

try:
    import sbekit.spark
except ModuleNotFoundError:
    # Without the extra the `spark` fixture skips loudly (a failure under CI=true).
    pass


def _need_module(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        msg = f"{name} is not installed (pip install sbekit[spark])"
        if is_ci():
            pytest.fail(msg + " (CI=true makes this a failure)")
        print(f"\n*** SKIPPED {msg} ***", file=sys.stderr)
        pytest.skip(msg)


@pytest.fixture(scope="module")
def spark():
    _need_module("pyspark")
    from pyspark.sql import SparkSession

    # The executors' Python is this one (same virtualenv, same sbekit).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    s = (SparkSession.builder.master("local[2]").appName("sbekit-tests")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.sql.session.timeZone", "UTC")
         .getOrCreate())
    yield s
    s.stop()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Three u32le-framed market-data files, two synthetic IEX captures, and sbekit's Parquet
    export of each set (the CLI: `sbekit decode --to parquet`, `sbekit iex export`)."""
    cli = str(sbekit_cli())
    root = tmp_path_factory.mktemp("spark")
    md_files = []
    for k in range(3):
        rng = random.Random(100 + k)
        frames = []
        for i in range(400 + 150 * k):
            m = md_message(rng, k * 10_000 + i)
            frames.append(struct.pack("<I", len(m)) + m)
        p = root / f"md{k}.bin"
        p.write_bytes(b"".join(frames))
        md_files.append(p)
    iex_files = []
    for seed in (1, 2):
        p = root / f"iex{seed}.pcapng"
        subprocess.run([cli, "iex", "synth", "--seed", str(seed), "--messages", "20000",
                        "-o", str(p)], check=True, capture_output=True)
        iex_files.append(p)
    subprocess.run([cli, "decode", "-s", str(MD), "--framing", "u32le", "--to", "parquet",
                    str(root / "md_parquet"), *map(str, md_files)], check=True,
                   capture_output=True)
    subprocess.run([cli, "iex", "export", *map(str, iex_files), "--to", "parquet",
                    str(root / "iex_parquet")], check=True, capture_output=True)
    return {"root": root, "md": md_files, "iex": iex_files}


def _duck(sql: str):
    """DuckDB's answer as a pyarrow Table."""
    import pyarrow as pa

    duckdb = _need_module("duckdb")
    out = duckdb.sql(sql).arrow()
    return out.read_all() if isinstance(out, pa.RecordBatchReader) else out


def _rows(arrow_table) -> List[Any]:
    """Rows as sorted, comparable values, after Spark's type mapping (so both sides are held
    alike: unsigned widened, enums as strings, nanosecond timestamps as int64)."""
    import pyarrow as pa

    from sbekit.spark import spark_arrow_schema

    t = arrow_table.cast(spark_arrow_schema(arrow_table.schema))
    return sorted((_norm(r) for r in t.to_pylist()), key=repr)


def _norm(v: Any) -> Any:
    if isinstance(v, dict):
        return tuple((k, _norm(x)) for k, x in v.items())
    if isinstance(v, list):
        return tuple(_norm(x) for x in v)
    if isinstance(v, Decimal):
        return v.normalize()
    return v


def _parquet(dir_: Path, table: str) -> str:
    """DuckDB's read of one table of a Parquet export (the partition columns left out)."""
    files = sorted(dir_.glob(f"**/type={table}/*.parquet"))
    assert files, f"no Parquet for {table} under {dir_}"
    listed = ", ".join(f"'{f}'" for f in files)
    return f"read_parquet([{listed}], hive_partitioning=false)"


def test_sbe_files_same_rows_as_duckdb_over_parquet(spark, inputs):
    got = sbekit.spark.read(spark, [str(p) for p in inputs["md"]], schema=MD, framing="u32le")
    assert set(got) == {"MarketUpdates"}
    df = got["MarketUpdates"]
    # One task per file.
    assert df.rdd.getNumPartitions() == len(inputs["md"])
    want = _rows(_duck(f"select * from {_parquet(inputs['root'] / 'md_parquet', 'MarketUpdates')}"))
    have = _rows(df.toArrow())
    assert len(have) == sum(400 + 150 * k for k in range(3))
    assert have == want
    # message= gives the one DataFrame, and Spark SQL sees the groups as arrays of structs.
    one = sbekit.spark.read(spark, inputs["root"] / "md*.bin", schema=MD, framing="u32le",
                            message="MarketUpdates")
    one.createOrReplaceTempView("md")
    n = spark.sql("select sum(size(trades)) as t, count(*) as c from md").collect()[0]
    duck = _duck(f"select sum(len(trades)) as t, count(*) as c from "
                 f"{_parquet(inputs['root'] / 'md_parquet', 'MarketUpdates')}").to_pylist()[0]
    assert (n["t"], n["c"]) == (duck["t"], duck["c"])


def test_iex_captures_same_rows_as_duckdb_over_parquet(spark, inputs):
    got = sbekit.spark.read(spark, [str(p) for p in inputs["iex"]], profile="iex")
    pq = inputs["root"] / "iex_parquet"
    compared = 0
    for name, df in got.items():
        files = sorted(pq.glob(f"**/type={name}/*.parquet"))
        have = _rows(df.toArrow())
        if not files:
            assert have == [], name
            continue
        want = _rows(_duck(f"select * from {_parquet(pq, name)}"))
        assert have == want, name
        compared += len(want)
    assert compared > 20_000 and "trade" in got


CME = SCHEMAS.parent / "crates/sbekit-feed/tests/schemas/Cme.Futures.Mdp3.Sbe.v1.12.xml"


def test_capture_profile_same_rows_as_duckdb_over_parquet(spark, tmp_path):
    # Two synthetic CME MDP 3.0 captures (a capture profile of sbekit.capture), against
    # `sbekit capture export` of the same files.
    cli = str(sbekit_cli())
    files = []
    for seed in (1, 2):
        p = tmp_path / f"cme{seed}.pcapng"
        subprocess.run([cli, "capture", "synth", "-p", "cme-mdp3", "-s", str(CME), "--seed",
                        str(seed), "--messages", "3000", "-o", str(p)], check=True,
                       capture_output=True)
        files.append(p)
    out = tmp_path / "cme_parquet"
    subprocess.run([cli, "capture", "export", "-p", "cme-mdp3", "-s", str(CME), "--to",
                    "parquet", str(out), *map(str, files)], check=True, capture_output=True)
    got = sbekit.spark.read(spark, files, schema=CME, profile="cme-mdp3")
    compared = 0
    for name, df in got.items():
        have = _rows(df.toArrow())
        if not list(out.glob(f"**/type={name}/*.parquet")):
            assert have == [], name
            continue
        want = _rows(_duck(f"select * from {_parquet(out, name)}"))
        assert have == want, name
        compared += len(want)
    assert compared == 6000


def test_bad_packets_of_a_capture_are_errors_not_passed_over(spark, tmp_path):
    # sbekit.capture.read skips bad packets; sbekit.spark makes the file an error (raise, or
    # an _errors row with the good packets' rows kept).
    whole = tmp_path / "cme.pcapng"
    subprocess.run([str(sbekit_cli()), "capture", "synth", "-p", "cme-mdp3", "-s", str(CME),
                    "--messages", "2000", "-o", str(whole)], check=True, capture_output=True)
    cut = tmp_path / "cut.pcapng"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2 + 5])
    got = sbekit.spark.read(spark, [cut], schema=CME, profile="cme-mdp3", on_error="skip")
    errors = got.pop("_errors").collect()
    assert len(errors) == 1
    e = errors[0]
    assert e["file"] == str(cut) and e["rows_kept"] and "1 bad packet" in e["error"]
    assert e["offset"] is not None and 0 < e["offset"] < len(data) // 2 + 5
    import pyarrow as pa

    alone = sbekit.capture.read(cut, CME, "cme-mdp3")
    assert {n: df.count() for n, df in got.items() if df.count()} == \
        {n: pa.table(t).num_rows for n, t in alone.items()}
    with pytest.raises(Exception, match="cut.pcapng"):
        sbekit.spark.read(spark, [cut], schema=CME, profile="cme-mdp3",
                          message=next(iter(alone))).collect()


def test_corrupt_file_skipped_into_errors(spark, inputs, tmp_path):
    good = inputs["md"]
    bad = tmp_path / "corrupt.bin"
    data = bytearray(good[0].read_bytes())
    # The 11th frame's message header names a template the schema does not have.
    pos = 0
    for _ in range(10):
        (n,) = struct.unpack_from("<I", data, pos)
        pos += 4 + n
    struct.pack_into("<H", data, pos + 4 + 2, 999)
    bad.write_bytes(bytes(data))
    got = sbekit.spark.read(spark, [*map(str, good), str(bad)], schema=MD, framing="u32le",
                            on_error="skip")
    assert set(got) == {"MarketUpdates", "_errors"}
    errors = got["_errors"].collect()
    assert len(errors) == 1
    e = errors[0]
    assert e["file"] == str(bad) and e["offset"] is not None and e["offset"] >= pos
    assert e["index"] == 10 and "999" in e["error"] and e["rows_kept"] is False
    have = _rows(got["MarketUpdates"].toArrow())
    want = _rows(_duck(f"select * from {_parquet(inputs['root'] / 'md_parquet', 'MarketUpdates')}"))
    assert have == want
    # Without skip, the job fails with sbekit's error naming the file and offset.
    with pytest.raises(Exception) as info:
        sbekit.spark.read(spark, [str(bad)], schema=MD, framing="u32le",
                          message="MarketUpdates").collect()
    text = str(info.value)
    assert "DecodeError" in text and str(bad) in text and f"offset {e['offset']}" in text


def test_truncated_iex_capture_keeps_rows_before_the_error(spark, inputs, tmp_path):
    whole = inputs["iex"][0]
    cut = tmp_path / "cut.pcapng"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2 + 7])
    got = sbekit.spark.read(spark, [str(cut)], profile="iex", message="trade", on_error="skip")
    errors = got["_errors"].collect()
    assert len(errors) == 1 and errors[0]["file"] == str(cut) and errors[0]["rows_kept"]
    kept = got["trade"].count()
    full = sbekit.spark.read(spark, [str(whole)], profile="iex", message="trade").count()
    assert 0 < kept < full
    with pytest.raises(Exception, match="cut.pcapng"):
        sbekit.spark.read(spark, [str(cut)], profile="iex", message="trade").collect()


VWAP = ("select symbol, sum(price * size) as notional, sum(size) as volume, "
        "cast(sum(price * size) as double) / sum(size) as vwap "
        "from {} group by symbol order by symbol")


def test_vwap_per_symbol_spark_sql_equals_duckdb(spark, inputs):
    trades = sbekit.spark.read(spark, inputs["root"] / "iex*.pcapng", profile="iex",
                               message="trade")
    trades.createOrReplaceTempView("trades")
    have = [(r["symbol"], r["notional"], r["volume"], r["vwap"])
            for r in spark.sql(VWAP.format("trades")).collect()]
    duck = _duck(VWAP.format(_parquet(inputs["root"] / "iex_parquet", "trade")))
    want = [(r["symbol"], r["notional"], r["volume"], r["vwap"]) for r in duck.to_pylist()]
    assert len(have) > 3
    assert [h[:3] for h in have] == [w[:3] for w in want]
    assert [h[3] for h in have] == pytest.approx([w[3] for w in want], rel=1e-12)


def test_import_sbekit_does_not_import_pyspark():
    out = subprocess.run([sys.executable, "-c",
                          "import sys, sbekit, sbekit.spark; "
                          "print('pyspark' in sys.modules, 'pyarrow' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_bad_arguments_are_value_errors(spark, inputs):
    with pytest.raises(ValueError, match="one of framing"):
        sbekit.spark.read(spark, inputs["md"], schema=MD)
    with pytest.raises(ValueError, match="no table"):
        sbekit.spark.read(spark, inputs["md"], schema=MD, framing="u32le", message="Nope")
    with pytest.raises(ValueError, match="on_error"):
        sbekit.spark.read(spark, inputs["md"], schema=MD, framing="u32le", on_error="ignore")


def test_readme_spark_example(spark, tmp_path):
    block, printed = run_readme_example("spark-example", tmp_path)
    expected = [line.rsplit("#", 1)[1].strip() for line in block.splitlines()
                if "collect()" in line and "#" in line]
    assert printed.split() == expected == ["1900000.0"]


def test_missing_schema_is_a_schema_error(spark, inputs, tmp_path):
    with pytest.raises(sbekit.SchemaError):
        sbekit.spark.read(spark, inputs["md"], schema=tmp_path / "none.xml", framing="u32le")
