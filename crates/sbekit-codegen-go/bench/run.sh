#!/usr/bin/env bash
# Car and MD encode/decode in Go: sbekit's generated Go against the reference's Go (struct
# generator, and flyweights with -Dsbe.go.generate.generate.flyweights=true), in one
# `go test -bench` run, compared with benchstat. Generates everything into a scratch module
# (nothing is committed from the reference's output).
#
#   crates/sbekit-codegen-go/bench/run.sh [count]      # default 10
#
# Needs go, java, the reference jar (~/.m2/.../sbe-all-1.38.1.jar) and ../shared; benchstat
# from `go install golang.org/x/perf/cmd/benchstat@latest` if available.
set -euo pipefail
cd "$(dirname "$0")/../../.."
COUNT="${1:-10}"
REF=../shared/conformance/reference-sbe
CAR="$REF/sbe-samples/src/main/resources/example-schema.xml"
MD="$REF/sbe-benchmarks/src/main/resources/fix-message-samples.xml"
JAR="$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar"
HERE=crates/sbekit-codegen-go/bench
OUT="${CARGO_TARGET_DIR:-$PWD/target}/go-bench"
rm -rf "$OUT"
mkdir -p "$OUT/mod" "$OUT/gen"
cargo build -q -p sbekit-codegen-go --example generate
GEN="${CARGO_TARGET_DIR:-$PWD/target}/debug/examples/generate"
"$GEN" "$CAR" "$OUT/gen/car"
"$GEN" "$MD" "$OUT/gen/md"
M="$OUT/mod"
printf 'module bench\n\ngo 1.21\n' > "$M/go.mod"
cp -r "$OUT/gen/car/baseline" "$M/car"
cp -r "$OUT/gen/md/uk_co_real_logic_sbe_benchmarks_fix" "$M/md"
sed -i 's/^package baseline$/package car/' "$M"/car/*.go
sed -i 's/^package uk_co_real_logic_sbe_benchmarks_fix$/package md/' "$M"/md/*.go
cp crates/sbekit-codegen-go/tests/go/car_test.go "$M/car/"
cp "$HERE/md_test.go" "$M/md/"
for fly in "" true; do
  dir="$OUT/ref$fly"
  flags=(-Dsbe.target.language=Golang -Dsbe.output.dir="$dir")
  if [ -n "$fly" ]; then flags+=(-Dsbe.go.generate.generate.flyweights=true); fi
  java -Dsbe.xinclude.aware=true "${flags[@]}" -jar "$JAR" "$CAR" >/dev/null
  java "${flags[@]}" -jar "$JAR" "$MD" >/dev/null
done
mkdir -p "$M/refcar" "$M/refcarfly" "$M/refmd" "$M/refmdfly"
cp "$OUT"/ref/baseline/*.go "$M/refcar/"
cp "$OUT"/reftrue/baseline/*.go "$M/refcarfly/"
cp "$OUT"/ref/uk_co_real_logic_sbe_benchmarks_fix/*.go "$M/refmd/"
cp "$OUT"/reftrue/uk_co_real_logic_sbe_benchmarks_fix/*.go "$M/refmdfly/"
for p in refcar refcarfly refmd refmdfly; do cp "$HERE/${p}_test.go" "$M/$p/bench_test.go"; done
(cd "$M" && go test -count=1 -run Test ./car ./md)
(cd "$M" && go test -run XXX -bench '^BenchmarkGo$' -benchmem -benchtime 300ms -count "$COUNT" \
  ./car ./md ./refcar ./refcarfly ./refmd ./refmdfly) | tee "$OUT/bench.txt"
BENCHSTAT="$(command -v benchstat || echo "$HOME/go/bin/benchstat")"
if [ -x "$BENCHSTAT" ]; then
  "$BENCHSTAT" -ignore pkg -row /msg,/op -col /impl "$OUT/bench.txt"
fi
