#!/usr/bin/env bash
# A large document's client and command line built with one tag's feature (issue 46):
# api.github.com's client and CLI, generated with a copy of the runtime, checked with
# `default-features = false` and the `issues` feature alone, warnings as errors (the
# operations, types and commands of the other 30 tags are left out by `cfg`; what is left must
# build clean on its own); the CLI then offers the issues commands and no other.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/features
rm -rf "$out"
cargo xtask codegen --spec ../shared/openapi-corpus/progenitor/api.github.com.json --out "$out" --vendor-runtime --cli
rm -rf "$out/server"
cat >"$out/Cargo.toml" <<'TOML'
# Written by scripts/feature-build.sh.
[workspace]
resolver = "3"
members = ["client", "cli"]
TOML
cp Cargo.lock "$out/"
grep -q '^issues = \[\]' "$out/client/Cargo.toml" || { echo "the client has no feature issues" >&2; exit 1; }
grep -q '^issues = \["api-github-com-client/issues"\]' "$out/cli/Cargo.toml" || { echo "the CLI does not pass the feature issues on" >&2; exit 1; }
# The vendored step's target directory: the same dependencies, built already.
export CARGO_TARGET_DIR=target/corpus/target
cargo clippy --manifest-path "$out/Cargo.toml" --workspace --no-default-features --features issues -- -D warnings
echo "api.github.com's client and CLI build warning-free with the feature issues alone ($(grep -c ' = \[\]$' "$out/client/Cargo.toml") tag features)"
cargo build --manifest-path "$out/Cargo.toml" -p api-github-com-cli --no-default-features --features issues
help=$("$CARGO_TARGET_DIR/debug/api-github-com-cli" --help)
grep -q '^  issues-list-for-repo ' <<<"$help" || { echo "the issues CLI lacks issues-list-for-repo:" >&2; echo "$help" >&2; exit 1; }
if grep -q '^  repos-get ' <<<"$help"; then
    echo "the issues CLI offers repos-get, a command of another tag" >&2
    exit 1
fi
echo "its CLI offers $(grep -c '^  issues-' <<<"$help") issues commands and no repos ones"
