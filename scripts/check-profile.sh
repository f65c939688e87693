#!/usr/bin/env bash
# Where `cargo check` of a large document's generated crates spends its time, by kind of
# generated code (issue 46; written to docs/reports/check-profile.md): each crate is
# checked alone (its dependencies built, not incremental) under rustc's `-Z self-profile`,
# and scripts/check-profile/ sorts the self time of every query into serde impls, per-operation
# code, checks, expansion and crate-wide work. Not part of CI (several minutes). With no
# arguments it profiles GitHub's client and server and OpenAI's 3.1 client and writes
# docs/reports/check-profile.md; `bash scripts/check-profile.sh DOC SIDE...` prints one document's.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=target/check-profile
export CARGO_TARGET_DIR=$root/target/corpus/target
cargo build -q --release --manifest-path scripts/check-profile/Cargo.toml --target-dir target/check-profile-tool
reader=$root/target/check-profile-tool/release/check-profile
profile() { # DOC SIDE...
    local doc=$1 dir
    shift
    dir=$out/$(basename "$doc" | tr '.' '-')
    rm -rf "$dir"
    cargo xtask codegen --spec "$doc" --out "$dir" --vendor-runtime >"$dir.log" 2>&1 || { cat "$dir.log" >&2; exit 1; }
    local members=""
    for side in "$@"; do members="$members\"$side\", "; done
    printf '# Written by scripts/check-profile.sh.\n[workspace]\nresolver = "3"\nmembers = [%s]\n' "$members" >"$dir/Cargo.toml"
    cp Cargo.lock "$dir/"
    for side in "$@"; do
        local package data
        package=$(sed -n 's/^name = "\(.*\)"/\1/p' "$dir/$side/Cargo.toml" | head -1)
        cargo check -q --manifest-path "$dir/Cargo.toml" -p "$package" # dependencies built
        data=$root/$dir/$side.profile
        rm -rf "$data" && mkdir -p "$data"
        touch "$dir/$side/src/lib.rs"
        local start=$SECONDS
        CARGO_INCREMENTAL=0 RUSTC_BOOTSTRAP=1 cargo rustc -q --manifest-path "$dir/Cargo.toml" -p "$package" --lib --profile check -- -Z self-profile="$data" -Z self-profile-events=default,query-keys
        echo
        echo "### \`$package\` ($doc), profiled check $((SECONDS - start)) s"
        echo
        "$reader" "$data"/*.mm_profdata >"$data.tsv"
        python3 scripts/check-profile/classify.py "$data.tsv" "${package//-/_}"
        rm -rf "$data"
    done
}
mkdir -p "$out"
if [ $# -gt 0 ]; then
    profile "$@"
    exit 0
fi
{
    echo "# Where a check's time goes"
    echo
    echo "Written by \`bash scripts/check-profile.sh\`; do not edit by hand, rerun it."
    echo "Each crate's \`cargo check\` alone (dependencies built, not incremental, every feature on)"
    echo "under rustc's \`-Z self-profile\`; the self time of each query (its time less the queries"
    echo "it called) is put to the kind of generated code its item is (\`scripts/check-profile/classify.py\`)."
    echo "Profiling slows rustc down; the shares are what to read."
    echo
    echo "- **date**: $(date -u '+%Y-%m-%d %H:%M') (UTC)"
    echo "- **commit**: \`$(git rev-parse --short HEAD)\`"
    echo "- **machine**: $(nproc) core(s); load average $(cut -d' ' -f1-3 /proc/loadavg) before"
    echo "- **rustc**: $(rustc --version)"
    profile ../shared/openapi-corpus/progenitor/api.github.com.json client server
    profile ../shared/openapi-corpus-31/openai/openapi.yaml client
} >"$out/check-profile.md"
cp "$out/check-profile.md" docs/reports/check-profile.md
echo "wrote docs/reports/check-profile.md"
