# Q1/Q2 of examples/iex_aggregate.rs with DuckDB and Polars over sbekit's IEX Parquet export.
# POLARS_MAX_THREADS=N python query.py PARQUET_DIR N
import sys, time, statistics, duckdb, polars as pl
d, threads = sys.argv[1], int(sys.argv[2])
tr, lv = f"{d}/*/type=trade/*.parquet", f"{d}/*/type=price_level_update/*.parquet"
con = duckdb.connect(); con.execute(f"SET threads={threads}")
Q = {
 "Q1": f"SELECT symbol, count(*) n, sum(size) v, min(price), max(price) FROM read_parquet('{tr}', hive_partitioning=true) GROUP BY symbol",
 "Q2": f"SELECT symbol, side, count(*) n, sum(size) v, min(price), max(price) FROM read_parquet('{lv}', hive_partitioning=true) GROUP BY symbol, side",
}
def duck(q):
    r = con.execute(Q[q]).fetchall(); k = 1 if q == 'Q1' else 2; return len(r), sum(x[k] for x in r), sum(int(x[k+1]) for x in r)
def polars(q):
    lf = pl.scan_parquet(tr if q == "Q1" else lv)
    keys = ["symbol"] if q == "Q1" else ["symbol", "side"]
    r = lf.group_by(keys).agg(pl.len().alias("n"), pl.col("size").sum().alias("v"), pl.col("price").min().alias("lo"), pl.col("price").max().alias("hi")).collect()
    return r.height, int(r["n"].sum()), int(r["v"].sum())
for name, f in [("duckdb " + duckdb.__version__, duck), ("polars " + pl.__version__, polars)]:
    for q in ["Q1", "Q2"]:
        ts = []
        for _ in range(3):
            t0 = time.perf_counter(); res = f(q); ts.append(time.perf_counter() - t0)
        print(f"{name} threads={threads} {q}: groups {res[0]}, rows {res[1]}, total size {res[2]}, runs {[round(x,3) for x in ts]}, median {statistics.median(ts):.3f} s")
