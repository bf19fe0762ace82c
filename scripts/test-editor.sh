#!/usr/bin/env bash
# Tests `kubectl-dra server` with a real LSP client: pygls' client (from
# PyPI, pinned, in a virtual environment under target/) opens a document of
# testdata/editor, checks the diagnostics against `lint -o json`, hovers,
# applies a quick fix and "fix all" (scripts/editor/lsp_e2e.py).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/lsp-e2e-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pygls" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q "pygls==1.3.1" "lsprotocol==2023.0.1" "cattrs==26.2.1"
fi
cargo build --quiet --manifest-path "$root/Cargo.toml"
timeout 300 "$venv/bin/python" "$root/scripts/editor/lsp_e2e.py" "$root/target/debug/kubectl-dra" "$root"
