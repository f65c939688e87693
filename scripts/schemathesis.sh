#!/usr/bin/env bash
# Installs schemathesis (PyPI) into .venv/ at the repository root, or reuses it, and prints
# the path of its `st` command. Used by scripts/conformance.sh and `cargo xtask serve-corpus`.
#
# Environment (optional): PYTHON, the interpreter that creates the venv (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION="4.32.5" # the version the conformance runs and their configs were checked with
PYTHON="${PYTHON:-python3}"

say() { printf '== %s\n' "$*" >&2; }

if [[ ! -x .venv/bin/python ]]; then
    say "creating .venv/"
    "$PYTHON" -m venv .venv
fi
installed="$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true)"
if [[ "$installed" != "$SCHEMATHESIS_VERSION" ]]; then
    say "installing schemathesis $SCHEMATHESIS_VERSION into .venv/ (found: ${installed:-none})"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
fi
echo "$PWD/.venv/bin/st"
