#!/usr/bin/env bash
# Browser tests: the generated client's wasm build in headless Chromium against the reference
# service on another loopback origin, then the pet store page driven through WebDriver.
#
#   scripts/browser-test.sh
#
# Needs Debian's chromium and chromium-driver (`apt-get install chromium chromium-driver`;
# .ci/run installs them). What it does:
#   1. wasm-bindgen-cli at the release of Cargo.lock (scripts/wasm-bindgen-cli.sh);
#   2. starts tests/browser's `browser-harness` (the reference service with the test keys
#      and a 3-second window for the burst key) at http://127.0.0.1:API_PORT, allowing only
#      the origin the tests are served from, http://127.0.0.1:TESTS_PORT;
#   3. `cargo test --target wasm32-unknown-unknown -p petstore-browser-tests --test client`:
#      wasm-bindgen-test-runner serves the tests on TESTS_PORT and drives Chromium through
#      chromedriver (flags in tests/browser/webdriver.json);
#   4. builds the page (scripts/petstore-web.sh --build-only) and runs tests/browser's page
#      test, which serves the page and the service on two more ports of its own; its
#      screenshot is target/tmp/petstore-web.png;
#   5. stops the harness on exit, whatever happened.
# The harness's log is target/browser/harness.log.
set -euo pipefail
# Every server this talks to is one it starts on loopback: never through a proxy the
# environment names (the suite passes with HTTP_PROXY set; issue 18).
export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"
export no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver || true)}"
target="${CARGO_TARGET_DIR:-target}"
out="$target/browser"

say() { printf '== %s\n' "$*" >&2; }

# 1. the programs
if [[ ! -x "$CHROMIUM" || -z "$CHROMEDRIVER" ]]; then
    say "needs Chromium and its driver: apt-get install chromium chromium-driver"
    exit 1
fi
say "$("$CHROMIUM" --version 2>/dev/null | head -1); $("$CHROMEDRIVER" --version | cut -d' ' -f1-2)"
bash scripts/wasm-bindgen-cli.sh
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
    || rustup target add wasm32-unknown-unknown

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
api_port="$(free_port)"
tests_port="$(free_port)"
while [[ "$tests_port" == "$api_port" ]]; do tests_port="$(free_port)"; done
api="http://127.0.0.1:$api_port/v1"

# 2. the harness
say "building the harness"
cargo build --quiet -p petstore-browser-tests --bin browser-harness
mkdir -p "$out"
harness_pid=""
cleanup() {
    if [[ -n "$harness_pid" ]] && kill -0 "$harness_pid" 2>/dev/null; then
        kill -TERM "$harness_pid" 2>/dev/null || true
        wait "$harness_pid" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$target/debug/browser-harness" "127.0.0.1:$api_port" "http://127.0.0.1:$tests_port" \
    >"$out/harness.log" 2>&1 &
harness_pid=$!
for _ in $(seq 1 100); do
    grep -q '^browser-harness listening' "$out/harness.log" && break
    if ! kill -0 "$harness_pid" 2>/dev/null; then
        say "the harness exited early; its log:"
        cat "$out/harness.log" >&2
        exit 1
    fi
    sleep 0.1
done
grep -q '^browser-harness listening' "$out/harness.log" || { say "the harness did not start"; exit 1; }
say "harness at $api, allowing http://127.0.0.1:$tests_port"

# 3. the client in the browser
say "wasm client tests in headless Chromium (tests served from http://127.0.0.1:$tests_port)"
PETSTORE_BROWSER_API="$api" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER="$CHROMEDRIVER" \
WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/tests/browser/webdriver.json" \
WASM_BINDGEN_TEST_ADDRESS="127.0.0.1:$tests_port" \
WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}" \
    cargo test -p petstore-browser-tests --target wasm32-unknown-unknown --test client

# 4. the page
say "building the page"
bash scripts/petstore-web.sh --build-only
say "page test in headless Chromium through chromedriver"
PETSTORE_WEB_DIR="$(cd "$target/petstore-web" && pwd)" CHROMIUM="$CHROMIUM" CHROMEDRIVER="$CHROMEDRIVER" \
    cargo test -p petstore-browser-tests --test page -- --ignored --nocapture
