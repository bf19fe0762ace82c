#!/usr/bin/env bash
# docs/rules-by-release.md is generated from lint's own output, messages
# included: CI checks that the committed table is current, so a change in
# what a rule reports (its path, type or wording) shows in review. PyYAML,
# which the generator reads the fixtures with, comes from PyPI into a
# virtual environment under target/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/docs-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import yaml" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q "PyYAML==6.0.2"
fi
cargo build --quiet --manifest-path "$root/Cargo.toml"
cd "$root"
"$venv/bin/python" scripts/rules_by_release.py --check
