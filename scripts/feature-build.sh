#!/usr/bin/env bash
# A large document's client built with one tag's feature (issue 46): api.github.com's client,
# generated with a copy of the runtime, checked with `default-features = false` and the
# `issues` feature alone, warnings as errors (the operations and types of the other 30 tags
# are left out by `cfg`; what is left must build clean on its own).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/features
rm -rf "$out"
cargo xtask codegen --spec ../shared/openapi-corpus/progenitor/api.github.com.json --out "$out" --vendor-runtime
rm -rf "$out/server"
cat >"$out/Cargo.toml" <<'TOML'
# Written by scripts/feature-build.sh.
[workspace]
resolver = "3"
members = ["client"]
TOML
cp Cargo.lock "$out/"
grep -q '^issues = \[\]' "$out/client/Cargo.toml" || { echo "the client has no feature issues" >&2; exit 1; }
# The vendored step's target directory: the same dependencies, built already.
CARGO_TARGET_DIR=target/corpus/target cargo clippy --manifest-path "$out/Cargo.toml" --no-default-features --features issues -- -D warnings
echo "api.github.com's client builds warning-free with the feature issues alone ($(grep -c ' = \[\]$' "$out/client/Cargo.toml") tag features)"
