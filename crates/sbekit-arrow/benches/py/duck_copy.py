# DuckDB COPY ... TO parquet of sbekit's IEX tables from Arrow tables held in memory.
# python duck_copy.py ARROW_DIR THREADS OUT_DIR   (ARROW_DIR: what 'sbekit iex export --to arrow' wrote)
import os, sys, time, glob, statistics
import pyarrow as pa, pyarrow.ipc as ipc, duckdb
src, threads, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
tables = {}
for f in sorted(glob.glob(f"{src}/*/type=*/part-*.arrows")):
    t = f.split("type=")[1].split("/")[0]
    tables[t] = ipc.open_stream(f).read_all()
rows = sum(t.num_rows for t in tables.values())
con = duckdb.connect()
con.execute(f"SET threads={threads}")
con.execute("SET preserve_insertion_order=true")
for n, t in tables.items():
    con.register(n, t)
runs = []
for r in range(3):
    t0 = time.perf_counter()
    for n in tables:
        con.execute(f"COPY (SELECT * FROM {n}) TO '{out}/{n}.parquet' (FORMAT parquet, COMPRESSION snappy)")
    runs.append(time.perf_counter() - t0)
print(f"duckdb {duckdb.__version__} threads={threads}: {rows} rows, {len(tables)} tables, runs {[round(x,2) for x in runs]}, median {statistics.median(runs):.2f} s")
