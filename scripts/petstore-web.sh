#!/usr/bin/env bash
# The pet store page (examples/petstore-web): builds it on the generated client's wasm build
# and serves it on loopback.
#
#   scripts/petstore-web.sh [--build-only] [PORT]      (PORT: default 8000)
#
# 1. wasm-bindgen-cli at the release of Cargo.lock (scripts/wasm-bindgen-cli.sh installs it);
# 2. `cargo build -p petstore-web --target wasm32-unknown-unknown`, then `wasm-bindgen
#    --target web` writes the module and its JS glue to target/petstore-web/pkg/, beside a copy
#    of examples/petstore-web/static/index.html;
# 3. unless --build-only: serves target/petstore-web/ at http://127.0.0.1:PORT/ with Python's
#    http.server until Ctrl-C.
#
# The page calls the service named by its `?api=` parameter (default
# http://127.0.0.1:8080/v1), which must allow the page's origin:
#   cargo run -p petstore-service -- --cors-origin http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=""
port="8000"
for arg in "$@"; do
    case "$arg" in
        --build-only) build_only=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) port="$arg" ;;
    esac
done

target="${CARGO_TARGET_DIR:-target}"
out="$target/petstore-web"

bash scripts/wasm-bindgen-cli.sh
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
    || rustup target add wasm32-unknown-unknown
cargo build --quiet -p petstore-web --target wasm32-unknown-unknown
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
    "$target/wasm32-unknown-unknown/debug/petstore_web.wasm"
cp examples/petstore-web/static/index.html "$out/"
echo "== the page is in $out/" >&2

if [[ -z "$build_only" ]]; then
    echo "== serving it at http://127.0.0.1:$port/ (Ctrl-C stops)" >&2
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
fi
