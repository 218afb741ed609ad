#!/usr/bin/env bash
# Differential parity suite against the reference SBE tool (issue 10): fetches
# uk.co.real-logic:sbe-all:1.38.1 with Maven (cached in ~/.m2) and runs crates/sbekit-parity:
# .sbeir byte for byte and random messages value for value over the 80 schemas the reference
# accepts, and generated code (the reference's generated Java codecs against sbekit's OTF and
# generated Rust, tests/generated.rs). Needs Java 17+ (java, javac), Maven and ../shared. Prints
# its figures on stderr.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${SBEKIT_SBE_JAR:-$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar}
if [ ! -f "$JAR" ]; then
    mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get \
        -Dartifact=uk.co.real-logic:sbe-all:1.38.1
fi
cd "$ROOT"
cargo test --release --locked -p sbekit-parity -- --nocapture "$@"
