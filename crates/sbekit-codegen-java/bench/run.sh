#!/usr/bin/env bash
# JMH: Car and MarketData encode/decode, sbekit's generated Java against the reference's generated
# Java (sbe-all 1.38.1, generated here, never committed), both in one JVM, with `-prof gc`.
#   crates/sbekit-codegen-java/bench/run.sh [JMH options, default: -f 1 -wi 5 -w 1s -i 10 -r 1s]
#   crates/sbekit-codegen-java/bench/run.sh alternate [benchmark prefix [rounds [operations]]]
# The second form times the same codecs in alternation (java/Alternate.java): ratios from
# slices that ran side by side, for a machine whose load moves.
# Needs JDK 17+, Maven (~/.m2: sbe-all 1.38.1, Agrona 2.6.0, JMH 1.37, fetched when missing),
# cargo, and ../shared (the reference's benchmark schemas).
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPO=$PWD
REF=${SBEKIT_SHARED_DIR:-$REPO/../shared}/conformance/reference-sbe/sbe-benchmarks/src/main/resources
M2=$HOME/.m2/repository
fetch() { # group:artifact:version -> jar path
  local g=${1%%:*} rest=${1#*:}; local a=${rest%%:*} v=${rest#*:}
  local jar="$M2/${g//.//}/$a/$v/$a-$v.jar"
  if [ ! -f "$jar" ]; then
    mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact="$1" >&2
  fi
  echo "$jar"
}
SBE=$(fetch uk.co.real-logic:sbe-all:1.38.1)
AGRONA=$(fetch org.agrona:agrona:2.6.0)
JMH=$(fetch org.openjdk.jmh:jmh-core:1.37)
JMH_AP=$(fetch org.openjdk.jmh:jmh-generator-annprocess:1.37)
JOPT=$(fetch net.sf.jopt-simple:jopt-simple:5.0.4)
MATH=$(fetch org.apache.commons:commons-math3:3.6.1)
W=${SBEKIT_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$W/src" "$W/classes"
cargo build -q -p sbekit
SBEKIT=${CARGO_TARGET_DIR:-$REPO/target}/debug/sbekit
"$SBEKIT" generate --lang java "$REF/car.xml" -o "$W/kit-car" --java-package sbekit.bench.car 2>/dev/null
"$SBEKIT" generate --lang java "$REF/fix-message-samples.xml" -o "$W/kit-fix" --java-package sbekit.bench.fix 2>/dev/null
java -Dsbe.output.dir="$W/ref" -Dsbe.validation.suppress.output=true -jar "$SBE" "$REF/car.xml" "$REF/fix-message-samples.xml" >/dev/null
CP="$AGRONA:$JMH:$JOPT:$MATH"
find "$W/kit-car/src/main" "$W/kit-fix/src/main" "$W/ref" crates/sbekit-codegen-java/bench/java -name '*.java' > "$W/sources.txt"
javac --release 17 -encoding UTF-8 -nowarn -cp "$CP:$JMH_AP" -processorpath "$JMH_AP:$JMH:$JOPT:$MATH" -d "$W/classes" @"$W/sources.txt"
java -version 2>&1 | head -1
if [ "${1:-}" = alternate ]; then
  shift
  exec java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$W/classes:$CP" bench.Alternate "$@"
fi
ARGS=("$@")
if [ ${#ARGS[@]} -eq 0 ]; then ARGS=(-f 1 -wi 5 -w 1s -i 10 -r 1s); fi
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$W/classes:$CP" org.openjdk.jmh.Main \
  -jvmArgs "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED" -prof gc -tu ns -bm avgt "${ARGS[@]}" 'bench\..*Benchmark'
