#!/usr/bin/env bash
# Car and MD encode/decode: sbekit's generated C# against hand-written C# over the same bytes, in
# one Mono process (medians of alternated rounds), then 10M operations of each sbekit codec with
# GC counters (gen-0 collections, GC.GetAllocatedBytesForCurrentThread).
#   crates/sbekit-codegen-csharp/bench/run.sh [ROUNDS [OPS]]   (default 11 1000000)
# Needs Mono (mcs, mono), cargo and ../shared (the reference's benchmark schemas). The reference's
# own C# (sbe-all 1.38.1, -Dsbe.target.language=uk.co.real_logic.sbe.generation.csharp.CSharp)
# needs Span<byte> (System.Memory) and its Org.SbeTool.Sbe.Dll runtime from NuGet, which this
# Mono lacks, so the baseline is hand-written C#.
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPO=$PWD
REF=${SBEKIT_SHARED_DIR:-$REPO/../shared}/conformance/reference-sbe/sbe-benchmarks/src/main/resources
W=${SBEKIT_BENCH_DIR:-$(mktemp -d)}
cargo build -q -p sbekit
SBEKIT=${CARGO_TARGET_DIR:-$REPO/target}/debug/sbekit
"$SBEKIT" generate --lang csharp "$REF/car.xml" -o "$W/car" --namespace Bench.Car 2>/dev/null
"$SBEKIT" generate --lang csharp "$REF/fix-message-samples.xml" -o "$W/fix" --namespace Bench.Fix 2>/dev/null
mcs -langversion:7.2 -optimize+ -nologo -nowarn:1591 -out:"$W/Bench.exe" \
  "$W"/car/src/*.cs "$W"/fix/src/*.cs crates/sbekit-codegen-csharp/bench/Bench.cs
mono --version | head -1
mono "$W/Bench.exe" "$@"
