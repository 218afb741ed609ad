#!/usr/bin/env bash
# The TypeScript codec benchmark: Car and MD (the reference SBE benchmarks' schemas) in Node,
# against JSON.parse / JSON.stringify of the same data.
#
#   crates/sbekit-codegen-ts/bench/run.sh
#
# Needs ../shared (the reference schemas) and `npm ci` in crates/sbekit-codegen-ts/tests/node
# (the pinned tsc). Prints one table; the figures in docs/BENCHMARKS.md come from it.
set -euo pipefail
cd "$(dirname "$0")/../../.."
res="${SBEKIT_SHARED_DIR:-../shared}/conformance/reference-sbe/sbe-benchmarks/src/main/resources"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cargo build -q -p sbekit
sbekit="${CARGO_TARGET_DIR:-target}/debug/sbekit"
"$sbekit" generate --lang ts "$res/car.xml" -o "$out/car" 2>/dev/null
"$sbekit" generate --lang ts "$res/fix-message-samples.xml" -o "$out/md" 2>/dev/null
tsc=crates/sbekit-codegen-ts/tests/node/node_modules/.bin/tsc
"$tsc" -p "$out/car"
"$tsc" -p "$out/md"
node --version
node crates/sbekit-codegen-ts/bench/bench.mjs "$out"
