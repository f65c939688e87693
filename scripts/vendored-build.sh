#!/usr/bin/env bash
# The pet store's crates generated with `--vendor-runtime` (a copy of the runtime in each, no
# dependency on this checkout) build and lint clean on their own, in a throwaway workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/vendored
rm -rf "$out"
cargo xtask codegen --spec spec/petstore.yaml --out "$out" --vendor-runtime --cli
if grep -rn "apigen-.*-runtime\|path = \"\.\./\.\./" "$out"/*/Cargo.toml; then
    echo "vendored crates must not depend on the runtime crates" >&2
    exit 1
fi
cat >"$out/Cargo.toml" <<'TOML'
# Written by scripts/vendored-build.sh.
[workspace]
resolver = "3"
members = ["server", "client", "cli"]
TOML
# The repository's versions: nothing new from the registry, and the corpus's target directory
# (same versions) has most of them built already.
cp Cargo.lock "$out/"
CARGO_TARGET_DIR=target/corpus/target cargo clippy --manifest-path "$out/Cargo.toml" --workspace --all-targets -- -D warnings
echo "vendored crates build warning-free: $(ls "$out"/server/src/runtime | wc -l) server runtime files, $(ls "$out"/client/src/runtime | wc -l) client runtime files, cli/src/support.rs and $(ls "$out"/cli/src/support | wc -l) files in cli/src/support/"
