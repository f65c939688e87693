#!/usr/bin/env bash
# Makes sure `wasm-bindgen` and `wasm-bindgen-test-runner` are the release of the wasm-bindgen
# crate in Cargo.lock (both refuse a module made by another), installing it from crates.io if
# not:
#
#   scripts/wasm-bindgen-cli.sh
#
# The install is `cargo install --locked --no-default-features` (about 5 minutes of CPU
# time, book/src/guide/browser.md): --locked builds exactly what that release was tested with, and the
# default features only add a TLS stack the runner needs for drivers on https addresses, which
# ours (chromedriver on loopback) never is. Cargo.lock holds 0.2.129, the newest release whose
# own lock file resolves on crates.io (0.2.130's asks for a webpki-roots release that is not
# there): move the wasm-bindgen pins of tests/browser and examples/petstore-web with it.
set -euo pipefail
cd "$(dirname "$0")/.."

want="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)"
if [[ -z "$want" ]]; then
    echo "wasm-bindgen-cli.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
have="$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2 || true)"
runner="$(wasm-bindgen-test-runner --version 2>/dev/null | cut -d' ' -f2 || true)"
if [[ "$have" == "$want" && "$runner" == "$want" ]]; then
    exit 0
fi
echo "== installing wasm-bindgen-cli $want (found: ${have:-none})" >&2
started=$SECONDS
cargo install --quiet --locked --no-default-features wasm-bindgen-cli --version "$want"
echo "== wasm-bindgen-cli $want installed in $((SECONDS - started)) s" >&2
