#!/usr/bin/env bash
# Trade store benchmark (issue 7): one synthetic file, one session.
#
#   bench/trades.sh                 # 100 million rows (about 7.3 GB of CSV, 4 GB of records)
#   ROWS=20000000 bench/trades.sh   # smaller
#
# Builds sbekit (release), installs DuckDB and Polars from PyPI into a virtualenv, writes the
# synthetic CSV, converts it (lossless layout) and exports Parquet, then runs on the same files:
# the memory-bandwidth baseline, a bare CSV scan with the csv crate, our easy and hard queries
# (1 and all threads), the same queries over the CSV in Rust, and the same queries in DuckDB and
# Polars over the CSV and the Parquet file. Every result is checked against ours to 1e-9
# relative; a Markdown table of times, rows/s, peak memory and the target ratios is printed
# and saved as $WORK/report.md (raw figures in $WORK/results.json).
#
# Environment: ROWS (default 100000000), SEED (1), REPEAT (best of, default 3), WORK (scratch
# directory, default /tmp/sbekit-trades-bench; needs about 2.2x the CSV size free),
# CARGO_TARGET_DIR (cargo's default if unset), KEEP=1 keeps the data files for a rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS="${ROWS:-100000000}"
SEED="${SEED:-1}"
REPEAT="${REPEAT:-3}"
WORK="${WORK:-/tmp/sbekit-trades-bench}"
mkdir -p "$WORK"

echo "== build (release)" >&2
cargo build --release -q -p sbekit
TARGET="${CARGO_TARGET_DIR:-$(pwd)/target}"
SBEKIT="$TARGET/release/sbekit"

echo "== python: duckdb, polars" >&2
if [ ! -x "$WORK/venv/bin/python" ]; then
  python3 -m venv "$WORK/venv"
fi
"$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check duckdb polars

exec "$WORK/venv/bin/python" bench/trades_bench.py \
  --sbekit "$SBEKIT" --rows "$ROWS" --seed "$SEED" --repeat "$REPEAT" --work "$WORK" \
  ${KEEP:+--keep}
