#!/usr/bin/env bash
# Where `apigen::generate` spends its instructions on a large document, by phase (issue 46's
# codegen target: under 0.5 s for api.github.com and OpenAI; written to
# docs/reports/codegen-profile.md).
# Counts instructions with callgrind, which a busy machine does not move (seconds it would), over
# every thread of one call of the release library, as `petstore-codegen` makes it (mimalloc, as
# `cargo xtask codegen`). Not part of CI (a few minutes per document).
#   bash scripts/codegen-profile.sh [DOC...]   # default: api.github.com and OpenAI 3.1
set -euo pipefail
cd "$(dirname "$0")/.."
docs=("$@")
[ ${#docs[@]} -gt 0 ] || docs=(../shared/openapi-corpus/progenitor/api.github.com.json ../shared/openapi-corpus-31/openai/openapi.yaml)
cargo build -q --release -p petstore-bench --bin petstore-codegen
out=target/codegen-profile
mkdir -p "$out"
echo "Commit $(git rev-parse --short HEAD), $(valgrind --version), $(date -u '+%Y-%m-%d')."
for doc in "${docs[@]}"; do
    data=$out/$(basename "$doc").callgrind
    valgrind --tool=callgrind --callgrind-out-file="$data" target/release/petstore-codegen "$doc" profile "$(basename "$doc")" 0 >/dev/null 2>"$data.log"
    echo
    echo "### \`$doc\`"
    echo
    callgrind_annotate --inclusive=yes --threshold=100 "$data" 2>/dev/null | python3 -c '
import re, sys
inclusive = {}
total = None
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
    if not m:
        continue
    count = int(m.group(1).replace(",", ""))
    name = re.sub(r"^\?\?\?:|^\S+:(?=[a-z<_])", "", m.group(2)).rsplit(" [", 1)[0]
    if name == "PROGRAM TOTALS":
        total = count
    inclusive.setdefault(name, count)
def of(*names):
    return sum(inclusive.get(n, 0) for n in names)
parse = of("syn::item::parsing::<impl syn::parse::Parse for syn::item::Item>::parse")
pretty = of("prettyplease::unparse")
imports = of("apigen::emit::imports")
build = of("apigen::emit_all::{{closure}}", "apigen::emit_all_cli::{{closure}}") - imports
rows = [
    ("reading the document (YAML/JSON, $refs, normalising)", of("apigen::load::read")),
    ("lowering to the IR (types, operations, mock answers)", of("apigen::lower::lower_with")),
    ("deciding held checks and features", of("apigen::lower::held::decide", "apigen::lower::features::decide")),
    ("building token streams (quote!)", build),
    ("choosing imports (a walk over every token)", imports),
    ("parsing the tokens back (syn)", parse),
    ("printing them (prettyplease)", pretty),
    ("the served document literal (document.rs)", of("apigen::emit::document::document_rs")),
]
print("| phase | instructions | share |")
print("|---|---:|---:|")
for label, count in rows:
    print(f"| {label} | {count/1e9:.2f} G | {100*count/total:.1f} % |")
rest = total - sum(c for _, c in rows)
print(f"| the rest (spacing, doc lines, files, allocation outside the above) | {rest/1e9:.2f} G | {100*rest/total:.1f} % |")
print(f"| **all threads** | **{total/1e9:.2f} G** | 100 % |")
'
done
