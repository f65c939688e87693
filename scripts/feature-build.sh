#!/usr/bin/env bash
# A large document's server, client and command line built with one tag's feature (issue 46):
# api.github.com's crates, generated with a copy of the runtime, checked with
# `default-features = false` and the `issues` feature alone (the server with its mock too),
# warnings as errors (the operations, types, handlers, routes and commands of the other 30
# tags are left out by `cfg`; what is left must build clean on its own); the CLI then offers
# the issues commands and no other.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/features
rm -rf "$out"
cargo xtask codegen --spec ../shared/openapi-corpus/progenitor/api.github.com.json --out "$out" --vendor-runtime --cli
cat >"$out/Cargo.toml" <<'TOML'
# Written by scripts/feature-build.sh.
[workspace]
resolver = "3"
members = ["server", "client", "cli"]
TOML
cp Cargo.lock "$out/"
for side in server client; do
    grep -q '^issues = \[\]' "$out/$side/Cargo.toml" || { echo "the $side has no feature issues" >&2; exit 1; }
done
grep -q '^issues = \["api-github-com-client/issues"\]' "$out/cli/Cargo.toml" || { echo "the CLI does not pass the feature issues on" >&2; exit 1; }
# The vendored step's target directory: the same dependencies, built already.
export CARGO_TARGET_DIR=target/corpus/target
cargo clippy --manifest-path "$out/Cargo.toml" --workspace --no-default-features --features issues,api-github-com-server/mock -- -D warnings
echo "api.github.com's server (with its mock), client and CLI build warning-free with the feature issues alone ($(grep ' = \[\]$' "$out/client/Cargo.toml" | grep -vc '^unused-schemas') tag features)"
# No tag at all (`default-features = false` alone, as a crate that uses the types only does):
# the router and the command line are left with no operation, and build clean too.
cargo clippy --manifest-path "$out/Cargo.toml" --workspace --no-default-features -- -D warnings
echo "api.github.com's server, client and CLI build warning-free with no tag feature at all"
cargo build --manifest-path "$out/Cargo.toml" -p api-github-com-cli --no-default-features --features issues
help=$("$CARGO_TARGET_DIR/debug/api-github-com-cli" --help)
grep -q '^  issues-list-for-repo ' <<<"$help" || { echo "the issues CLI lacks issues-list-for-repo:" >&2; echo "$help" >&2; exit 1; }
if grep -q '^  repos-get ' <<<"$help"; then
    echo "the issues CLI offers repos-get, a command of another tag" >&2
    exit 1
fi
echo "its CLI offers $(grep -c '^  issues-' <<<"$help") issues commands and no repos ones"
# A second document, whose types are shared in other ways: the OpenAI 3.1 client with `chat`
# alone (a type no operation reaches holds types that other tags reach: they compile too).
openai=target/features-openai
rm -rf "$openai"
cargo xtask codegen --spec ../shared/openapi-corpus-31/openai/openapi.yaml --out "$openai" --vendor-runtime >"$openai.log" 2>&1 || { cat "$openai.log" >&2; exit 1; }
rm -rf "$openai/server"
printf '# Written by scripts/feature-build.sh.\n[workspace]\nresolver = "3"\nmembers = ["client"]\n' >"$openai/Cargo.toml"
cp Cargo.lock "$openai/"
cargo clippy --manifest-path "$openai/Cargo.toml" --no-default-features --features chat -- -D warnings
echo "openai's client builds warning-free with the feature chat alone"
# The issues-only server serves the issues operations and no other: its mock, on a free
# loopback port, answers an issues route and 404s a route of another tag, as a path the
# document lacks (book/src/guide/large-api.md).
cargo build --manifest-path "$out/Cargo.toml" -p api-github-com-server --no-default-features --features issues,mock --bin api-github-com-server-mock
log="$out/mock.log"
"$CARGO_TARGET_DIR/debug/api-github-com-server-mock" --port 0 --key feature-build >"$log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q 'listening on' "$log" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$log")
[ -n "$base" ] || { echo "the issues-only mock did not start:" >&2; cat "$log" >&2; exit 1; }
python3 - "$base" <<'PY'
import sys, urllib.request, urllib.error
base = sys.argv[1].rstrip('/')
def status(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer feature-build"})
    try:
        return urllib.request.urlopen(request).status
    except urllib.error.HTTPError as e:
        return e.code
issues, repo = status("/repos/octo/hello/issues"), status("/repos/octo/hello")
if issues != 200 or repo != 404:
    sys.exit(f"the issues-only mock answered {issues} to an issues route (200 expected) and {repo} to repos-get (404 expected)")
print(f"the issues-only server answers {issues} to GET /repos/octo/hello/issues and {repo} to GET /repos/octo/hello")
PY
