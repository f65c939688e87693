"""Sorts check-profile's self times (NANOSECONDS, QUERY, KEY lines) into the kinds of
generated code they were spent on, for scripts/check-profile.sh (issue 46).

A query whose key names an item of the crate is that item's kind (read from its path:
serde's impls, the client's or server's per-operation code, checks); the others are
crate-wide work (expansion, name resolution, HIR, lints) or trait solving no item is named
for. The profiler's own bookkeeping is left out.
"""
import collections
import re
import sys

KINDS = [
    # serde's derive, and since 6791c6e the impls of the runtime's `Object` (structs: `read`,
    # `index`) and `Tagged` (discriminated unions: `variant`, `untagged`) that replaced most of
    # it; rustc names those `types::{{impl}}[N]::read`.
    (r"deserializ|visit_|__Field|__Visitor|::\{\{impl\}\}\[\d+\]::(read|index|variant|untagged)\b",
     "`Deserialize` impls (serde's derive, `Object`, `Tagged`)"),
    (r"::serialize|Serialize|__S\b", "serde `Serialize` impls"),
    (r"[Vv]alidat|::check", "validation checks (`Validate`)"),
    (r"::client::|::operations::", "per-operation client code (methods, options, answers)"),
    (r"::router::|::api::", "per-operation server code (trait, handlers, routes)"),
    (r"::mock::", "mock answers"),
    (r"::types::", "other type items (Display, FromStr, ToParam, builders, derived traits)"),
    (r"::runtime::", "the vendored runtime"),
]


def kind(query, key, crate):
    if crate not in key:
        if query.startswith("expand"):
            return "expansion (derive macros, macros)"
        if "Canonical" in key or query in ("evaluate_obligation", "type_op_prove_predicate"):
            return "trait solving no item is named for"
        return "crate-wide (name resolution, HIR, lints, privacy, metadata)"
    for pattern, name in KINDS:
        if re.search(pattern, key):
            return name
    return "other items"


def main():
    path, crate = sys.argv[1], sys.argv[2]
    total = collections.Counter()
    deser = collections.Counter()
    for line in open(path, encoding="utf-8"):
        ns, query, key = line.rstrip("\n").split("\t", 2)
        if query.startswith("self_profile"):
            continue
        k = kind(query, key, crate)
        total[k] += int(ns)
        if k.startswith("`Deserialize`"):
            m = re.search(r"visit_seq|visit_map|::read\b|::index\b|::variant\b|::untagged\b", key)
            deser[m.group(0) if m else "the rest"] += int(ns)
    whole = sum(total.values())
    print(f"| kind of code | self time | share |\n|---|---:|---:|")
    for k, ns in total.most_common():
        print(f"| {k} | {ns / 1e9:.1f} s | {100 * ns / whole:.1f} % |")
    print(f"| **total** (profiled: slower than a plain check) | {whole / 1e9:.1f} s | 100 % |")
    d = sum(deser.values()) or 1
    parts = ", ".join(f"`{k}` {100 * v / d:.0f} %" for k, v in deser.most_common())
    print(f"\nOf the `Deserialize` impls' time: {parts}.")


main()
