#!/usr/bin/env python3
"""Driver of bench/trades.sh: runs every contender on one synthetic trade file, checks that
all results agree to 1e-9 relative, and prints a Markdown table with the issue's target ratios.

Each measurement runs in a fresh process (DuckDB and Polars in a child Python that times only
the query, not the import); the best of --repeat runs is kept. Wall time is what counts; CPU
time (user + system of all threads) is shown too because the build machine is shared, and a
single-threaded run's CPU time is its wall time without the waits for a core.
"""

import argparse
import json
import math
import os
import platform
import re
import resource
import subprocess
import sys
import time

H = 3_600_000_000_000
STEP = 10_000_000_000
CSV_COLUMNS = {
    "time": "BIGINT",
    "amount": "DOUBLE",
    "exch": "VARCHAR",
    "price": "DOUBLE",
    "server_time": "BIGINT",
    "side": "VARCHAR",
    "ticker": "VARCHAR",
}


# --------------------------------------------------------------------------------------------
# Engine side (runs in a child process: `trades_bench.py engine NAME QUERY FORMAT PATH OUT`)

def duckdb_query(query, fmt, path):
    import duckdb

    con = duckdb.connect()
    if fmt == "csv":
        cols = ", ".join(f"'{k}': '{v}'" for k, v in CSV_COLUMNS.items())
        src = f"read_csv('{path}', header = true, columns = {{{cols}}})"
    else:
        src = f"read_parquet('{path}')"
    bmex = "exch = 'bmex' AND ticker = 'btc_usd'"
    gdax = "exch = 'gdax' AND ticker = 'btc_usd'"
    unit = H if query == "easy" else STEP
    agg = f"""
        SELECT time // {unit} AS k,
          sum(price * amount) FILTER (WHERE {bmex}) AS bpv,
          sum(amount) FILTER (WHERE {bmex}) AS bv,
          count(*) FILTER (WHERE {bmex}) AS bn,
          sum(price * amount) FILTER (WHERE {gdax}) AS gpv,
          sum(amount) FILTER (WHERE {gdax}) AS gv,
          count(*) FILTER (WHERE {gdax}) AS gn
        FROM {src} GROUP BY k"""
    grid = "SELECT range AS k FROM range((SELECT min(k) FROM agg), (SELECT max(k) FROM agg) + 1)"
    if query == "easy":
        sql = f"""
            WITH agg AS ({agg}), grid AS ({grid})
            SELECT grid.k * {H} AS hour,
              CASE WHEN bn > 0 AND gn > 0 THEN (bpv / bv) / (gpv / gv) END AS ratio
            FROM grid LEFT JOIN agg USING (k) ORDER BY grid.k"""
    else:
        def win(w, n):
            return (f"sum(bpv) OVER {w} AS bpv{n}, sum(bv) OVER {w} AS bv{n}, "
                    f"sum(bn) OVER {w} AS bn{n}, sum(gpv) OVER {w} AS gpv{n}, "
                    f"sum(gv) OVER {w} AS gv{n}, sum(gn) OVER {w} AS gn{n}")

        def ratio(n):
            return (f"CASE WHEN bn{n} > 0 AND gn{n} > 0 THEN (bpv{n} / bv{n}) / (gpv{n} / gv{n}) "
                    f"END AS ratio_{n}m")

        sql = f"""
            WITH agg AS ({agg}), grid AS ({grid}),
            steps AS (
              SELECT grid.k, coalesce(bpv, 0) AS bpv, coalesce(bv, 0) AS bv, coalesce(bn, 0) AS bn,
                coalesce(gpv, 0) AS gpv, coalesce(gv, 0) AS gv, coalesce(gn, 0) AS gn
              FROM grid LEFT JOIN agg USING (k)),
            w AS (
              SELECT k, {win('w5', 5)}, {win('w15', 15)}, {win('w60', 60)} FROM steps
              WINDOW w5 AS (ORDER BY k ROWS BETWEEN 29 PRECEDING AND CURRENT ROW),
                     w15 AS (ORDER BY k ROWS BETWEEN 89 PRECEDING AND CURRENT ROW),
                     w60 AS (ORDER BY k ROWS BETWEEN 359 PRECEDING AND CURRENT ROW))
            SELECT (k + 1) * {STEP} AS time, {ratio(5)}, {ratio(15)}, {ratio(60)}
            FROM w ORDER BY k"""
    return con.execute(sql).fetchall()


def polars_query(query, fmt, path):
    import polars as pl

    if fmt == "csv":
        dtypes = {"BIGINT": pl.Int64, "DOUBLE": pl.Float64, "VARCHAR": pl.Utf8}
        lf = pl.scan_csv(path, schema={k: dtypes[v] for k, v in CSV_COLUMNS.items()})
    else:
        lf = pl.scan_parquet(path)
    unit = H if query == "easy" else STEP
    btc = pl.col("ticker") == "btc_usd"
    mb = btc & (pl.col("exch") == "bmex")
    mg = btc & (pl.col("exch") == "gdax")
    pv = pl.col("price") * pl.col("amount")
    agg = (
        lf.group_by((pl.col("time") // unit).alias("k"))
        .agg(
            pv.filter(mb).sum().alias("bpv"),
            pl.col("amount").filter(mb).sum().alias("bv"),
            mb.sum().alias("bn"),
            pv.filter(mg).sum().alias("gpv"),
            pl.col("amount").filter(mg).sum().alias("gv"),
            mg.sum().alias("gn"),
        )
        .collect()
    )
    lo, hi = agg["k"].min(), agg["k"].max()
    grid = pl.DataFrame({"k": pl.int_range(lo, hi + 1, eager=True, dtype=pl.Int64)})
    steps = grid.join(agg, on="k", how="left").sort("k").fill_null(0)

    def ratio(b, bv, bn, g, gv, gn):
        return pl.when((bn > 0) & (gn > 0)).then((b / bv) / (g / gv)).otherwise(None)

    if query == "easy":
        out = steps.select(
            (pl.col("k") * H).alias("hour"),
            ratio(*(pl.col(c) for c in ("bpv", "bv", "bn", "gpv", "gv", "gn"))).alias("ratio"),
        )
    else:
        cols = [(pl.col("k") + 1) * STEP]
        for n, w in ((5, 30), (15, 90), (60, 360)):
            r = [pl.col(c).rolling_sum(window_size=w, min_samples=1)
                 for c in ("bpv", "bv", "bn", "gpv", "gv", "gn")]
            cols.append(ratio(*r).alias(f"ratio_{n}m"))
        out = steps.select(cols[0].alias("time"), *cols[1:])
    return out.rows()


def engine_main(argv):
    name, query, fmt, path, out = argv
    fn = {"duckdb": duckdb_query, "polars": polars_query}[name]
    # Import outside the timed region.
    __import__(name)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = fn(query, fmt, path)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    with open(out, "w") as f:
        for r in rows:
            f.write(",".join("NaN" if v is None else repr(v) for v in r) + "\n")
    print(json.dumps({
        "wall": wall,
        "cpu": cpu,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


# --------------------------------------------------------------------------------------------
# Driver

def run(cmd, stdout=None):
    """Runs cmd; returns (wall, cpu, stderr text)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=stdout or subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stderr


def peak_rss(stderr):
    m = re.search(r"peak RSS ([0-9.]+) MB", stderr)
    return float(m.group(1)) if m else None


def read_rows(path, skip_header):
    rows = []
    with open(path) as f:
        if skip_header:
            next(f)
        for line in f:
            rows.append([float(x) for x in line.strip().split(",")])
    return rows


def agree(ours, theirs, rel=1e-9):
    """None if equal to `rel`, else a description of the first difference."""
    if len(ours) != len(theirs):
        return f"{len(theirs)} rows, ours {len(ours)}"
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if len(a) != len(b):
            return f"row {i}: {len(b)} columns, ours {len(a)}"
        if int(a[0]) != int(b[0]):
            return f"row {i}: time {int(b[0])}, ours {int(a[0])}"
        for x, y in zip(a[1:], b[1:]):
            if math.isnan(x) or math.isnan(y):
                if not (math.isnan(x) and math.isnan(y)):
                    return f"row {i}: {y}, ours {x}"
            elif abs(x - y) > rel * max(abs(x), abs(y)):
                return f"row {i}: {y!r}, ours {x!r} (rel {abs(x - y) / max(abs(x), abs(y)):.2e})"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sbekit", required=True)
    ap.add_argument("--rows", type=int, default=100_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", required=True)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    S, W, N = a.sbekit, a.work, a.rows
    csv = os.path.join(W, f"trades-{N}-{a.seed}.csv")
    sbe = os.path.join(W, f"trades-{N}-{a.seed}.sbe")
    pq = os.path.join(W, f"trades-{N}-{a.seed}.parquet")
    cores = os.cpu_count()
    results = []

    def note(msg):
        print(msg, file=sys.stderr, flush=True)

    def record(name, rows, wall, cpu, rss=None, threads=1, extra=None):
        r = {"name": name, "rows": rows, "wall": wall, "cpu": cpu, "rss_mb": rss,
             "threads": threads}
        r.update(extra or {})
        results.append(r)
        note(f"   {name}: {wall:.3f} s wall, {cpu:.3f} s cpu, {rows / wall / 1e6:.1f} M rows/s"
             + (f", peak RSS {rss:.0f} MB" if rss else ""))
        return r

    def best(name, cmd, rows, threads=1, stdout_path=None):
        runs = []
        for _ in range(a.repeat):
            if stdout_path:
                with open(stdout_path, "w") as out:
                    runs.append(run(cmd, stdout=out))
            else:
                runs.append(run(cmd))
        wall, cpu, err = min(runs, key=lambda r: r[0])
        return record(name, rows, wall, cpu, peak_rss(err), threads)

    load0 = os.getloadavg()
    note(f"== data: {N} rows, seed {a.seed}, in {W}")
    if not os.path.exists(csv):
        w, c, _ = run([S, "trades", "synth", "--rows", str(N), "--seed", str(a.seed), "-o", csv])
        record("synth (write CSV)", N, w, c)
    csv_bytes = os.path.getsize(csv)

    note("== conversion")
    scan = best("bare CSV scan (csv crate)", [S, "trades", "baseline", "--csv", csv], N)
    conv = None
    for _ in range(a.repeat):
        # Replacing an existing output would time the file system freeing the old one.
        if os.path.exists(sbe):
            os.remove(sbe)
        subprocess.run(["sync"])
        w, c, err = run([S, "trades", "convert", csv, "-o", sbe])
        if conv is None or w < conv[0]:
            conv = (w, c, err)
    conv = record("convert CSV -> records (lossless)", N, conv[0], conv[1])
    w, c, _ = run([S, "trades", "verify", sbe], stdout=subprocess.DEVNULL)
    record("verify (CRC + full decode)", N, w, c)
    w, c, _ = run([S, "trades", "export", "--parquet", sbe, "-o", pq])
    record("export Parquet", N, w, c)
    sizes = {"csv": csv_bytes, "sbe": os.path.getsize(sbe), "parquet": os.path.getsize(pq)}

    note("== scans over the memory-mapped records (warm cache)")
    run([S, "trades", "baseline", sbe])  # warm the page cache
    base1 = best("baseline: sum one u64 per record, 1 thread", [S, "trades", "baseline", sbe], N)
    base_all = best(f"baseline, {cores} threads",
                    [S, "trades", "baseline", "--threads", str(cores), sbe], N, cores)
    outs = {}
    for q in ("easy", "hard"):
        outs[q] = os.path.join(W, f"ours-{q}.csv")
        best(f"sbekit {q}, 1 thread", [S, "trades", "query", q, sbe], N, 1, outs[q])
        p = os.path.join(W, f"ours-{q}-mt.csv")
        best(f"sbekit {q}, {cores} threads", [S, "trades", "query", q, "--threads", str(cores), sbe],
             N, cores, p)
        diff = agree(read_rows(outs[q], True), read_rows(p, True))
        if diff:
            sys.exit(f"sbekit {q} with threads disagrees: {diff}")
    p = os.path.join(W, "ours-easy-branchy.csv")
    best("sbekit easy, 1 thread, match kernel (not branch-free)",
         [S, "trades", "query", "easy", "--kernel", "branchy", sbe], N, 1, p)

    note("== the same queries over the CSV in Rust")
    for q in ("easy", "hard"):
        p = os.path.join(W, f"csv-{q}.csv")
        best(f"Rust over CSV: {q}", [S, "trades", "query", q, "--csv", csv], N, 1, p)
        diff = agree(read_rows(outs[q], True), read_rows(p, True))
        if diff:
            sys.exit(f"Rust over CSV {q} disagrees: {diff}")

    note("== DuckDB and Polars")
    versions = {}
    for eng in ("duckdb", "polars"):
        versions[eng] = subprocess.run(
            [sys.executable, "-c", f"import {eng}; print({eng}.__version__)"],
            capture_output=True, text=True).stdout.strip()
        for fmt, path in (("parquet", pq), ("csv", csv)):
            for q in ("easy", "hard"):
                out = os.path.join(W, f"{eng}-{fmt}-{q}.csv")
                runs = []
                for _ in range(a.repeat):
                    p = subprocess.run(
                        [sys.executable, __file__, "engine", eng, q, fmt, path, out],
                        capture_output=True, text=True)
                    if p.returncode != 0:
                        sys.exit(f"{eng} {q} over {fmt} failed:\n{p.stderr}")
                    runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
                r = min(runs, key=lambda r: r["wall"])
                record(f"{eng} {versions[eng]} {q} over {fmt}", N, r["wall"], r["cpu"],
                       r["rss_mb"], cores)
                diff = agree(read_rows(outs[q], True), read_rows(out, False))
                if diff:
                    sys.exit(f"{eng} {q} over {fmt} disagrees with sbekit: {diff}")
                note(f"   agrees with sbekit to 1e-9 ({len(read_rows(out, False))} rows)")

    load1 = os.getloadavg()
    by = {r["name"]: r for r in results}
    rate = lambda r: r["rows"] / r["wall"]  # noqa: E731
    easy1 = by["sbekit easy, 1 thread"]
    hard1 = by["sbekit hard, 1 thread"]
    engines_easy = [r for r in results if re.match(r"(duckdb|polars) .* easy", r["name"])]
    fastest_engine = min(engines_easy, key=lambda r: r["wall"])
    ratios = [
        ("easy query / memory-bandwidth baseline, rows/s, 1 thread, warm", ">= 0.70",
         rate(easy1) / rate(base1), rate(easy1) / rate(base1) >= 0.70),
        ("easy query (CPU time) / baseline (CPU time), 1 thread", "(same, load-free)",
         base1["cpu"] / easy1["cpu"], None),
        (f"fastest engine on easy ({fastest_engine['name']}, {cores} threads) / sbekit easy 1 "
         f"thread, time", "> 1", fastest_engine["wall"] / easy1["wall"],
         fastest_engine["wall"] > easy1["wall"]),
        ("Rust over CSV easy / sbekit easy, time", ">= 30",
         by["Rust over CSV: easy"]["wall"] / easy1["wall"],
         by["Rust over CSV: easy"]["wall"] / easy1["wall"] >= 30),
        ("convert / bare csv-crate scan, time", "<= 1.5", conv["wall"] / scan["wall"],
         conv["wall"] / scan["wall"] <= 1.5),
        ("convert / bare csv-crate scan, CPU time", "(same, load-free)",
         conv["cpu"] / scan["cpu"], None),
        ("peak RSS of sbekit easy / hard (MB)", "tens of MB, independent of size",
         f"{easy1['rss_mb']:.0f} / {hard1['rss_mb']:.0f}",
         max(easy1["rss_mb"], hard1["rss_mb"]) < 100),
    ]

    lines = []
    cpu_model = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu_model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lines.append(f"{N} rows (seed {a.seed}): CSV {sizes['csv'] / 1e9:.2f} GB, records "
                 f"{sizes['sbe'] / 1e9:.2f} GB (lossless, 40 B), Parquet "
                 f"{sizes['parquet'] / 1e9:.2f} GB. {cpu_model}, {cores} cores, "
                 f"{platform.python_version()} Python, DuckDB {versions['duckdb']}, "
                 f"Polars {versions['polars']}; load average {load0[0]:.1f} at the start, "
                 f"{load1[0]:.1f} at the end; best of {a.repeat}.")
    lines.append("")
    lines.append("| run | threads | wall s | CPU s | M rows/s (wall) | peak RSS MB |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        rss = f"{r['rss_mb']:.0f}" if r["rss_mb"] else ""
        lines.append(f"| {r['name']} | {r['threads']} | {r['wall']:.3f} | {r['cpu']:.3f} | "
                     f"{rate(r) / 1e6:.1f} | {rss} |")
    lines.append("")
    lines.append("All query results (sbekit 1 and all threads, Rust over CSV, DuckDB and Polars "
                 "over CSV and Parquet) agree with sbekit's to 1e-9 relative, NaN for NaN.")
    lines.append("")
    lines.append("| target | wanted | measured | met |")
    lines.append("| --- | --- | --- | --- |")
    for name, want, got, ok in ratios:
        got_s = f"{got:.2f}" if isinstance(got, float) else str(got)
        ok_s = "" if ok is None else ("yes" if ok else "**no**")
        lines.append(f"| {name} | {want} | {got_s} | {ok_s} |")
    report = "\n".join(lines)
    print(report)
    with open(os.path.join(W, "report.md"), "w") as f:
        f.write(report + "\n")
    with open(os.path.join(W, "results.json"), "w") as f:
        json.dump({"results": results, "sizes": sizes, "versions": versions,
                   "load": [load0, load1]}, f, indent=1)
    if not a.keep:
        for p in (csv, sbe, pq):
            os.remove(p)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "engine":
        engine_main(sys.argv[2:])
    else:
        main()
