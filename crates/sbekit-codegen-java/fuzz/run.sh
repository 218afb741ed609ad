#!/usr/bin/env bash
# Fuzzes sbekit's generated Java decoders with Jazzer (Maven Central, fetched into ~/.m2 when
# missing): fuzz/SbeFuzz.java over the module generated for orders-be.xml.
#   crates/sbekit-codegen-java/fuzz/run.sh [libFuzzer options, default: -runs=1000000]
# Needs JDK 17+, Maven and cargo; nothing from ../shared.
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPO=$PWD
M2=$HOME/.m2/repository
fetch() { # group:artifact:version -> jar path
  local g=${1%%:*} rest=${1#*:}; local a=${rest%%:*} v=${rest#*:}
  local jar="$M2/${g//.//}/$a/$v/$a-$v.jar"
  if [ ! -f "$jar" ]; then
    mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact="$1" >&2
  fi
  echo "$jar"
}
AGRONA=$(fetch org.agrona:agrona:2.6.0)
JAZZER=$(fetch com.code-intelligence:jazzer:0.30.0)
JAZZER_API=$(fetch com.code-intelligence:jazzer-api:0.30.0)
W=${SBEKIT_FUZZ_DIR:-$(mktemp -d)}
mkdir -p "$W/classes" "$W/corpus"
cargo build -q -p sbekit
SBEKIT=${CARGO_TARGET_DIR:-$REPO/target}/debug/sbekit
"$SBEKIT" generate --lang java crates/sbekit-codegen-tests/schemas/orders-be.xml -o "$W/orders" --java-package orders 2>/dev/null
find "$W/orders/src/main" crates/sbekit-codegen-java/fuzz -name '*.java' > "$W/sources.txt"
javac --release 17 -encoding UTF-8 -nowarn -cp "$AGRONA" -d "$W/classes" @"$W/sources.txt"
# Seeds: valid messages of every type and version, written by the generated encoders.
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$W/classes:$AGRONA" SbeFuzz "$W/corpus"
ARGS=("$@")
if [ ${#ARGS[@]} -eq 0 ]; then ARGS=(-runs=1000000); fi
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$JAZZER:$JAZZER_API:$W/classes:$AGRONA" \
  com.code_intelligence.jazzer.Jazzer --target_class=SbeFuzz --instrumentation_includes='orders.**' \
  "${ARGS[@]}" "$W/corpus"
