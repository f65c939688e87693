#!/usr/bin/env bash
# First use, as the README's "Use apigen in your project" section tells it: the section's
# shell lines and Rust files, run as written, in a new Cargo workspace outside this checkout,
# with the apigen crates as `cargo package` makes them (the .crate files, unpacked; nothing in
# that workspace points into the checkout).
#
#   scripts/first-use.sh
#
# What it does:
#   1. `cargo package` the five publishable crates (apigen-codegen, apigen-cli and the three
#      runtimes) into target/package/, and unpack them into a temporary directory;
#   2. makes that directory stand in for crates.io: its .cargo/config.toml patches crates-io
#      with the unpacked crates (what the README tells users to do with a clone until the crates
#      are published; afterwards cargo finds them itself);
#   3. makes a workspace there (an existing Cargo.toml with one comment, the pet store's
#      document as openapi.yaml, a git repository with one commit) and runs the README section
#      in one shell: each ```sh line as written, each ```rust block that starts with
#      `// FILE: path` written to that path. Two lines are adapted, and only these:
#      - `cargo install --path apigen-cli` installs from the unpacked apigen-cli (the package
#        users would get) into the temporary directory, which goes first on PATH;
#      - before step 5 (`apigen generate`), an optional property is added to the document,
#        the edit that step is about;
#      a line marked "# in another terminal" runs in the background, the next line once its
#      port answers; PETSTORE_ADDR is a free loopback port that replaces 127.0.0.1:8080 (the
#      README's code reads it, its shell lines name it); background jobs are stopped at the end;
#   4. checks what the user would see: the call prints the pet the service implemented, the CLI
#      lists it, the edit regenerates and still compiles, `apigen check` passes; and prints the
#      time from `cargo install` to the first answer of the service.
#
# Environment (optional): KEEP=1 keeps the temporary directory (its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"
export no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"
say() { printf '== first-use: %s\n' "$*" >&2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/apigen-first-use.XXXXXX")"
cleanup() {
    local status=$?
    if [[ -n "${KEEP:-}" ]]; then say "kept $work"; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT

# 1. The packaged crates.
crates=(apigen-codegen apigen-cli apigen-server-runtime apigen-client-runtime apigen-cli-runtime)
say "cargo package ${crates[*]}"
package_args=()
for c in "${crates[@]}"; do package_args+=(-p "$c"); done
# --no-verify: the workspace below builds every one of them from its .crate, as a user would.
cargo package --quiet --no-verify --allow-dirty "${package_args[@]}"
mkdir -p "$work/registry" "$work/.cargo"
{
    echo "# crates.io as it will be: the apigen crates from their .crate files (scripts/first-use.sh)"
    echo "[patch.crates-io]"
} >"$work/.cargo/config.toml"
versions="$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    print(p["name"], p["version"])')"
for c in "${crates[@]}"; do
    version="$(awk -v c="$c" '$1 == c {print $2}' <<<"$versions")"
    tar xzf "target/package/$c-$version.crate" -C "$work/registry"
    echo "$c = { path = \"$work/registry/$c-$version\" }" >>"$work/.cargo/config.toml"
    if [[ "$c" == apigen-cli ]]; then cli_crate="$work/registry/$c-$version"; fi
done

# 2. The README section: its shell lines and files, in order, as one script.
section="$(awk '/^## Use apigen in your project/{on=1; next} on && /^## /{exit} on' README.md)"
[[ -n "$section" ]] || { say "README.md has no 'Use apigen in your project' section"; exit 1; }
steps="$work/steps.sh"
{
    echo 'set -euo pipefail'
    echo 'trap '"'"'kill $(jobs -p) 2>/dev/null || true'"'"' EXIT'
} >"$steps"
echo "$section" | awk -v cli_crate="$cli_crate" -v home="$work/home" '
    /^```sh$/ { mode = "sh"; next }
    /^```rust$/ { mode = "rust"; file = ""; next }
    /^```$/ {
        if (mode == "rust" && file != "") print "APIGEN_README_EOF"
        mode = ""; next
    }
    mode == "sh" {
        line = $0
        gsub(/127\.0\.0\.1:8080/, "$PETSTORE_ADDR", line)
        if (line ~ /^cargo install --path apigen-cli/) {
            print "echo \"INSTALL-START $(date +%s)\""
            line = "cargo install --quiet --path " cli_crate " --root " home
        } else if (line ~ /^apigen generate/) {
            print "edit_the_document"
        }
        if (line ~ /# in another terminal/) {
            # Another terminal: in the background, and the next line waits until it answers.
            sub(/ *# in another terminal.*$/, "", line)
            print line " &"
            print "wait_for_port"
            next
        }
        print line
        if (line ~ /^cargo run --package petstore-call/) print "echo \"ANSWERED $(date +%s)\""
        next
    }
    mode == "rust" && file == "" && /^\/\/ FILE: / {
        file = substr($0, 10)
        print "mkdir -p \"$(dirname " file ")\" && cat > " file " <<'"'"'APIGEN_README_EOF'"'"'"
        next
    }
    mode == "rust" && file != "" { print }
' >>"$steps"
grep -q INSTALL-START "$steps" || { say "the section has no 'cargo install --path apigen-cli' line"; exit 1; }
grep -q ANSWERED "$steps" || { say "the section has no 'cargo run --package petstore-call' line"; exit 1; }

# 3. A workspace as a team has one: a manifest, the document, a git history.
ws="$work/ws"
mkdir -p "$ws"
printf '# The team'"'"'s workspace.\n[workspace]\nresolver = "3"\nmembers = []\n' >"$ws/Cargo.toml"
cp spec/petstore.yaml "$ws/openapi.yaml"
git -C "$ws" init --quiet
git -C "$ws" -c user.name=ci -c user.email=ci@example.invalid add -A
git -C "$ws" -c user.name=ci -c user.email=ci@example.invalid commit --quiet -m "our API"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

say "running the README's steps in $ws (log: $work/steps.log)"
start=$(date +%s)
set +e
(
    cd "$ws"
    export PATH="$work/home/bin:$PATH" PETSTORE_ADDR="127.0.0.1:$port"
    # Step 5's edit: an optional property on NewPet (additive: nothing breaks).
    edit_the_document() {
        python3 - <<'PY'
import re
text = open("openapi.yaml").read()
at = text.index("\n    NewPet:\n")
props = text.index("      properties:\n", at) + len("      properties:\n")
text = text[:props] + "        nickname: {type: string, description: A nickname.}\n" + text[props:]
open("openapi.yaml", "w").write(text)
PY
    }
    export -f edit_the_document
    # "In another terminal": the service's port answers (it may have to compile first).
    wait_for_port() {
        python3 - <<'PY'
import os, socket, sys, time
host, port = os.environ["PETSTORE_ADDR"].split(":")
deadline = time.time() + 600
while time.time() < deadline:
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.2)
sys.exit("nothing answered on " + os.environ["PETSTORE_ADDR"] + " within 600 s")
PY
    }
    export -f wait_for_port
    bash -x "$steps"
) >"$work/steps.log" 2>&1
status=$?
set -e
end=$(date +%s)
if [[ $status -ne 0 ]]; then
    tail -n 60 "$work/steps.log" >&2
    KEEP=1
    say "the README's steps failed (exit $status)"
    exit 1
fi

# 4. What the user would have seen.
fail() { tail -n 40 "$work/steps.log" >&2; KEEP=1; say "$*"; exit 1; }
grep -q '^Rex (id 1)$' "$work/steps.log" || fail "petstore-call did not print the pet the service serves"
# (grep reads to the end: with -q it would stop early, and pipefail would take sed's SIGPIPE
# for a failure)
sed -n '/petstore-cli -- list-pets/,$p' "$work/steps.log" | grep '^[^+]*Rex' >/dev/null \
    || fail "petstore-cli list-pets did not list the pet"
grep -q 'pub nickname: Option<String>' "$ws/petstore/server/src/types.rs" \
    || fail "apigen generate did not add the edited property"
[[ "$(grep -c 'generated files are up to date' "$work/steps.log")" -ge 2 ]] \
    || fail "apigen check and cargo xtask codegen --check did not both pass"
if grep -rq --include=Cargo.toml --include=config.toml "$root" "$ws" "$work/.cargo"; then
    fail "the workspace points into the checkout ($root)"
fi
installed=$(sed -n 's/^INSTALL-START \([0-9]*\)$/\1/p' "$work/steps.log" | head -1)
answered=$(sed -n 's/^ANSWERED \([0-9]*\)$/\1/p' "$work/steps.log" | head -1)
say "passed: install, init, implement, call (service, client, CLI), edit and regenerate, check (apigen and the xtask)"
say "from cargo install to the service's first answer: $((answered - installed)) s; the whole walk-through: $((end - start)) s"
