#!/usr/bin/env bash
# Builds the libFuzzer target on generated C decoders and runs it (by hand, not in CI):
#   crates/sbekit-codegen-c/fuzz/run.sh [RUNS]      # default 10,000,000 runs
# Needs clang (apt-get install clang) and a built sbekit (cargo build -p sbekit).
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(cd ../../.. && pwd)"
RUNS="${1:-10000000}"
SBEKIT="${SBEKIT:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/sbekit}"
WORK="${WORK:-$(mktemp -d)}"
CAR="$ROOT/../shared/conformance/reference-sbe/sbe-samples/src/main/resources/example-schema.xml"
[ -f "$CAR" ] || CAR="$ROOT/schemas/market-data.xml"
"$SBEKIT" generate --lang c "$ROOT/crates/sbekit-codegen-tests/schemas/orders-be.xml" -o "$WORK/orders" --crate-name orders
"$SBEKIT" generate --lang c "$CAR" -o "$WORK/car" --crate-name car
# A small empty-entry budget: the default (a million entries of empty-block groups per message)
# is sound but makes printing such messages slow, which would starve the fuzzer.
clang -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DSBEKIT_MAX_EMPTY_ENTRIES=4096u \
  -I"$WORK/orders/include" -I"$WORK/car/include" decode_fuzz.c -o "$WORK/decode_fuzz"
mkdir -p "$WORK/corpus"
# Seeds: the reference car vector when present.
V="$ROOT/../shared/conformance/reference-sbe/rust/car_example_baseline_data.sbe"
[ -f "$V" ] && cp "$V" "$WORK/corpus/"
cd "$WORK"
# ASan's default 256 MB quarantine alone would reach the 256 MB RSS limit: keep it small.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16}"
time ./decode_fuzz -runs="$RUNS" -timeout=2 -rss_limit_mb=256 -print_final_stats=1 corpus
