#!/usr/bin/env bash
# Builds the libFuzzer target on generated C++ decoders and runs it (by hand, not in CI):
#   crates/sbekit-codegen-cpp/fuzz/run.sh [RUNS]      # default 10,000,000 runs
# Needs clang++ (apt-get install clang) and a built sbekit (cargo build -p sbekit).
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(cd ../../.. && pwd)"
RUNS="${1:-10000000}"
SBEKIT="${SBEKIT:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/sbekit}"
WORK="${WORK:-$(mktemp -d)}"
CAR="$ROOT/../shared/conformance/reference-sbe/sbe-samples/src/main/resources/example-schema.xml"
[ -f "$CAR" ] || CAR="$ROOT/schemas/market-data.xml"
"$SBEKIT" generate --lang cpp "$ROOT/crates/sbekit-codegen-tests/schemas/orders-be.xml" -o "$WORK/orders" --crate-name orders
"$SBEKIT" generate --lang cpp "$CAR" -o "$WORK/car" --crate-name car
clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$WORK/orders/include" -I"$WORK/car/include" decode_fuzz.cpp -o "$WORK/decode_fuzz"
mkdir -p "$WORK/corpus"
# Seeds: the reference car vector when present.
V="$ROOT/../shared/conformance/reference-sbe/rust/car_example_baseline_data.sbe"
[ -f "$V" ] && cp "$V" "$WORK/corpus/"
cd "$WORK"
time ./decode_fuzz -runs="$RUNS" -timeout=2 -rss_limit_mb=256 -print_final_stats=1 corpus
