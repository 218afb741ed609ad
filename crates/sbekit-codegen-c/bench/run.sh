#!/usr/bin/env bash
# The C benchmark (issue 23): Car and MD encode/decode with sbekit's generated C, the reference's
# generated C (sbe-all 1.38.1, -Dsbe.target.language=C, generated here and never committed) and
# hand-written C, in one process. Prints wall-clock medians (15 runs of 1 M messages each), then
# valgrind instruction counts per message (callgrind totals of 200,000 iterations minus 0
# iterations, divided by 200,000). `sbekit-loop` is sbekit with the group entries written by loops
# over tables (as the hand-written code does) instead of written out (as the C++ benchmark does).
# `sbekit` and `sbekit-loop` start groups of fixed-size entries with their count (`_n`: one
# capacity check for the dimensions and every entry); `sbekit-next` and `sbekit-next-loop` add
# those entries one by one through the writer (`_next`, a check per entry), as before issue 38.
#   crates/sbekit-codegen-c/bench/run.sh        # needs java, maven's jar cache, gcc, valgrind
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=${OUT:-$TARGET/c-bench}
SBEKIT=${SBEKIT:-$TARGET/release/sbekit}
[ -x "$SBEKIT" ] || SBEKIT=$TARGET/debug/sbekit
SHARED=${SBEKIT_SHARED_DIR:-$ROOT/../shared}
SCHEMAS=$SHARED/conformance/reference-sbe/sbe-benchmarks/src/main/resources
JAR=$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar
if [ ! -f "$JAR" ]; then
    mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact=uk.co.real-logic:sbe-all:1.38.1
fi
rm -rf "$OUT"
mkdir -p "$OUT"
java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Dsbe.target.language=C \
    -Dsbe.output.dir="$OUT/ref" -jar "$JAR" "$SCHEMAS/car.xml" "$SCHEMAS/fix-message-samples.xml"
"$SBEKIT" generate --lang c "$SCHEMAS/car.xml" -o "$OUT/sk/car" --crate-name car_sbekit
"$SBEKIT" generate --lang c "$SCHEMAS/fix-message-samples.xml" -o "$OUT/sk/md" --crate-name md_sbekit
CC=${CC:-gcc}
"$CC" -std=c11 -O2 -I"$OUT/sk/car/include" -I"$OUT/sk/md/include" -I"$OUT/ref" \
    "$ROOT/crates/sbekit-codegen-c/bench/bench.c" -o "$OUT/bench"
"$CC" --version | head -1
"$OUT/bench"
if command -v valgrind >/dev/null 2>&1; then
    echo
    printf "%-16s %-12s %12s\n" impl op "instr/msg"
    N=200000
    ir() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$OUT/bench" "$1" "$2" "$3" 2>&1 \
            | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    for op in car-encode car-decode md-encode md-decode; do
        for impl in sbekit reference hand sbekit-loop sbekit-next sbekit-next-loop; do
            [ "${impl#sbekit-}" = "$impl" ] || [ "${op#*-}" = encode ] || continue
            a=$(ir "$impl" "$op" 0)
            b=$(ir "$impl" "$op" "$N")
            printf "%-16s %-12s %12.1f\n" "$impl" "$op" "$(echo "($b - $a) / $N" | bc -l)"
        done
    done
fi
