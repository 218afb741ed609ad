"""DuckDB's own Parquet write of the rows of an export, the anchor of issue 36.

    python duck_rewrite.py EXPORT_DIR snappy

Loads every Parquet file under EXPORT_DIR into a DuckDB table in memory (one thread), then
times COPY ... TO Parquet of all of them, three times: CPU seconds, rows per CPU-second, size.
Writes ./duckout/.
"""
import duckdb, glob, os, resource, shutil, sys, time
con = duckdb.connect()
con.sql("SET threads=1")
files = sorted(glob.glob(sys.argv[1] + '/**/*.parquet', recursive=True))
rows = 0
for i, f in enumerate(files):
    con.sql(f"CREATE TABLE t{i} AS SELECT * FROM read_parquet('{f}')")
    rows += con.sql(f"SELECT count(*) FROM t{i}").fetchall()[0][0]
shutil.rmtree('duckout', ignore_errors=True); os.makedirs('duckout')
for run in range(3):
    r0 = resource.getrusage(resource.RUSAGE_SELF); w0 = time.time()
    for i in range(len(files)):
        con.sql(f"COPY t{i} TO 'duckout/t{i}.parquet' (FORMAT parquet, COMPRESSION {sys.argv[2]})")
    r1 = resource.getrusage(resource.RUSAGE_SELF); w1 = time.time()
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    size = sum(os.path.getsize(os.path.join('duckout', x)) for x in os.listdir('duckout'))
    print(f"duckdb {duckdb.__version__} threads=1 {sys.argv[2]}: {rows} rows, wall {w1-w0:.2f} s, CPU {cpu:.2f} s, {rows/cpu/1e6:.2f} M rows/CPU-s, {size/1e6:.0f} MB")
