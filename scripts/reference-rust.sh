#!/usr/bin/env bash
# Benchmarks sbekit's generated Rust against the reference tool's generated Rust and
# hand-written code in one criterion run (issue 3).
#
# Downloads uk.co.real-logic:sbe-all:1.38.1 with Maven, generates the reference Rust for
# car.xml and fix-message-samples.xml into $OUT (default: $CARGO_TARGET_DIR/reference-rust or
# target/reference-rust), writes a throwaway bench crate there around
# crates/sbekit-codegen-tests/reference/vs_reference.rs, and runs it. Nothing it generates is
# committed. Extra arguments go to criterion (e.g. --measurement-time 5). Afterwards, if
# `perf` is installed, cycles and instructions per operation are counted for each codec.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=${OUT:-$TARGET/reference-rust}
SHARED=${SBEKIT_SHARED_DIR:-$ROOT/../shared}
SCHEMAS=$SHARED/conformance/reference-sbe/sbe-benchmarks/src/main/resources
JAR=$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar
if [ ! -f "$JAR" ]; then
    mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get \
        -Dartifact=uk.co.real-logic:sbe-all:1.38.1
fi
rm -rf "$OUT/gen"
mkdir -p "$OUT/gen" "$OUT/bench"
java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Dsbe.target.language=Rust \
    -Dsbe.output.dir="$OUT/gen" -jar "$JAR" "$SCHEMAS/car.xml" "$SCHEMAS/fix-message-samples.xml"
cat > "$OUT/bench/Cargo.toml" <<TOML
[package]
name = "sbekit-vs-reference"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
uk_co_real_logic_sbe_benchmarks = { path = "$OUT/gen/uk_co_real_logic_sbe_benchmarks" }
uk_co_real_logic_sbe_benchmarks_fix = { path = "$OUT/gen/uk_co_real_logic_sbe_benchmarks_fix" }
sbekit-codegen-tests = { path = "$ROOT/crates/sbekit-codegen-tests" }
criterion = { version = "0.5", default-features = false, features = ["cargo_bench_support"] }

[[example]]
name = "cycles"
path = "$ROOT/crates/sbekit-codegen-tests/reference/cycles.rs"

[[bench]]
name = "vs_reference"
path = "$ROOT/crates/sbekit-codegen-tests/reference/vs_reference.rs"
harness = false

[profile.bench]
debug = 1
TOML
mkdir -p "$OUT/bench/src" && echo "" > "$OUT/bench/src/lib.rs"
cd "$OUT/bench"
CARGO_TARGET_DIR="$OUT/target" cargo bench --bench vs_reference -- "$@"

# Cycles and instructions per operation (perf stat counts only this process, so unlike wall
# time they hold up on a busy machine).
if command -v perf >/dev/null; then
    CARGO_TARGET_DIR="$OUT/target" cargo build --release --example cycles
    N=20000000
    printf '%-22s %10s %10s\n' codec cycles/op instr/op
    for m in car-encode car-decode md-encode md-decode; do
        for w in sbekit hand reference; do
            perf stat -x, -e cycles,instructions "$OUT/target/release/examples/cycles" "$m-$w" $N \
                2>"$OUT/perf.txt" >/dev/null
            awk -F, -v n=$N -v name="$m-$w" \
                '$3 ~ /^cycles/ {c=$1/n} $3 ~ /^instructions/ {i=$1/n} END {printf "%-22s %10.1f %10.1f\n", name, c, i}' \
                "$OUT/perf.txt"
        done
    done
fi
