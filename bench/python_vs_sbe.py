"""sbekit (Python package) against PyPI `sbe` (pure Python), same schema, same 100k messages.

    pip install ./crates/sbekit-python sbe==0.4.3 polars
    python bench/python_vs_sbe.py [--messages 100000] [--runs 3]

Schemas: market-data (schemas/market-data.xml) and Car (the reference tool's benchmark schema,
../shared/conformance/reference-sbe/sbe-benchmarks/src/main/resources/car.xml). PyPI `sbe`
cannot parse either as written (fields typed directly by a primitive, and character encodings
other than "ASCII", raise), so it is given a copy with each primitive-typed field moved to a
named type of the same primitive and the encodings renamed: the wire format is the same, and
both read the same bytes. Messages are encoded with sbekit from dicts made here.

Dict decode: one message per call, bytes -> dict (PyPI `sbe`: `.decode(m).value`).
Table read: the whole stream -> a Polars DataFrame (sbekit: `polars.DataFrame(schema.read(buf))`;
PyPI `sbe`: decode each message to a dict, then `polars.DataFrame(list_of_dicts)`).
"""

import argparse
import io
import random
import re
import statistics
import sys
import time
from pathlib import Path

import polars as pl
import sbe

import sbekit

REPO = Path(__file__).resolve().parents[1]
CAR = REPO.parent / "shared/conformance/reference-sbe/sbe-benchmarks/src/main/resources/car.xml"


def for_pypi_sbe(xml: bytes) -> bytes:
    prim = rb"(?:u?int(?:8|16|32|64)|char|float|double)"
    prims = sorted(set(re.findall(rb'<field [^>]*type="(' + prim + rb')"', xml)))
    decl = b"".join(b'<type name="P_%s" primitiveType="%s"/>' % (p, p) for p in prims)
    xml = re.sub(rb'(<field [^>]*type=")(' + prim + rb')"', rb"\1P_\2" b'"', xml)
    xml = xml.replace(b"<types>", b"<types>" + decl, 1)
    return re.sub(rb'characterEncoding="[^"]*"', b'characterEncoding="ASCII"', xml)


def md_dict(rng, i):
    sym = lambda: rng.choice(["AAPL    ", "MSFT    ", "SPY     ", "QQQ     "])
    return {
        "sequenceNumber": i,
        "trades": [{"timestamp": 1_700_000_000_000_000_000 + i, "symbol": sym(),
                    "price": rng.randint(1, 5_000_000), "size": rng.randint(1, 10_000),
                    "flags": rng.randint(0, 255)} for _ in range(rng.randint(0, 4))],
        "levelUpdates": [{"timestamp": 1_700_000_000_000_000_000 + i, "symbol": sym(),
                          "price": rng.randint(1, 5_000_000), "size": rng.randint(0, 10_000),
                          "flags": rng.randint(0, 255), "side": rng.choice(["Buy", "Sell"])}
                         for _ in range(rng.randint(0, 6))],
    }


def car_dict(rng, i):
    return {
        "serialNumber": i, "modelYear": 2000 + i % 25, "available": rng.choice(["T", "F"]),
        "code": rng.choice("ABC"), "someNumbers": [rng.randint(0, 1000) for _ in range(5)],
        "vehicleCode": "abcdef", "extras": ["sunRoof"] if i % 2 else ["cruiseControl"],
        "engine": {"capacity": 2000, "numCylinders": 4, "manufacturerCode": "123"},
        "fuelFigures": [{"speed": 30 + 10 * k, "mpg": 35.5 + k} for k in range(3)],
        "performanceFigures": [
            {"octaneRating": 95 + k,
             "acceleration": [{"mph": 30 * (j + 1), "seconds": 4.0 + j} for j in range(3)]}
            for k in range(2)],
        "manufacturer": "Honda", "model": "Civic VTi",
    }


def timed(fn, runs):
    out, times = None, []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, statistics.median(times)


def bench(name, xml_path, make, n, runs):
    xml = Path(xml_path).read_bytes()
    ours = sbekit.Schema(xml_path)
    theirs = sbe.Schema.parse(io.BytesIO(for_pypi_sbe(xml)))
    rng = random.Random(1)
    msg_name = ours.messages[0].name
    msgs = [ours.encode(msg_name, make(rng, i)) for i in range(n)]
    buf = b"".join(msgs)
    d_ours, t_ours = timed(lambda: [ours.decode(m) for m in msgs], runs)
    r_ours, tr_ours = timed(lambda: pl.DataFrame(ours.read(buf)), runs)
    assert len(d_ours) == r_ours.height == n
    try:
        # Both read the same values (PyPI sbe strips trailing spaces of char arrays and gives
        # sets as lists: compare a field both give alike).
        key = "sequenceNumber" if name == "market-data" else "serialNumber"
        assert theirs.decode(msgs[7]).value[key] == 7
    except Exception as e:  # noqa: BLE001 (report whatever the peer raises)
        print(f"| {name} | {n:,} | dict decode | {n / t_ours:,.0f} | fails: {type(e).__name__} | - |")
        print(f"| {name} | {n:,} | table read (Polars DataFrame) | {n / tr_ours:,.0f} | fails | - |")
        return
    d_theirs, t_theirs = timed(lambda: [theirs.decode(m).value for m in msgs], 1)
    r_theirs, tr_theirs = timed(lambda: pl.DataFrame([theirs.decode(m).value for m in msgs]), 1)
    assert len(d_theirs) == r_theirs.height == n
    print(f"| {name} | {n:,} | dict decode | {n / t_ours:,.0f} | {n / t_theirs:,.0f} "
          f"| {t_theirs / t_ours:.0f}x |")
    print(f"| {name} | {n:,} | table read (Polars DataFrame) | {n / tr_ours:,.0f} "
          f"| {n / tr_theirs:,.0f} | {tr_theirs / tr_ours:.0f}x |")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    print(f"sbekit {sbekit.__version__}, sbe {sbe.__version__ if hasattr(sbe, '__version__') else '0.4.3'}, "
          f"polars {pl.__version__}, Python {sys.version.split()[0]}")
    print("| schema | messages | what | sbekit msg/s | PyPI sbe msg/s | speed-up |")
    print("|---|---|---|---|---|---|")
    bench("market-data", REPO / "schemas/market-data.xml", md_dict, a.messages, a.runs)
    if CAR.exists():
        bench("Car", CAR, car_dict, a.messages, a.runs)
    else:
        print(f"(Car skipped: {CAR} not found)")


if __name__ == "__main__":
    main()
