#!/usr/bin/env bash
# Tests the pre-commit hooks for real: `pre-commit try-repo` of this repository
# on a sample repository, with the kubectl-dra built by `cargo build` on PATH
# (the `language: system` hook; the `language: rust` hook runs the same entry
# after `cargo install`, which a CI run skips for time).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v pre-commit >/dev/null || python3 -m pip install -q pre-commit
cargo build --quiet --manifest-path "$root/Cargo.toml"
sample="$(mktemp -d)"
trap 'rm -rf "$sample"' EXIT
cd "$sample"
git init -q
cp "$root"/examples/*.yaml .
git add -A
git -c user.email=ci@example.com -c user.name=ci commit -qm sample
export PATH="$root/target/debug:$PATH"
# Valid manifests pass...
pre-commit try-repo "$root" kubectl-dra-system --all-files >/dev/null
# ...and a broken one fails the hook, naming the rule.
cp "$root/testdata/fixtures/render/slices.yaml" broken.yaml
git add broken.yaml
if out="$(pre-commit try-repo "$root" kubectl-dra-system --all-files 2>&1)"; then
  echo "pre-commit passed a broken manifest" >&2
  exit 1
fi
grep -q "DRA-V015" <<<"$out" || { echo "$out" >&2; exit 1; }
# The fix hook edits a fixable file (and fails, so that it can be reviewed).
git rm -q --cached broken.yaml && rm broken.yaml
cp "$root/testdata/fixtures/fix/dra-a001-deprecated-version.yaml" old.yaml
git add old.yaml
if pre-commit try-repo "$root" kubectl-dra-fix-system --files old.yaml >/dev/null 2>&1; then
  echo "the fix hook left a fixable file as it was" >&2
  exit 1
fi
grep -q "^apiVersion: resource.k8s.io/v1$" old.yaml || { cat old.yaml >&2; exit 1; }
echo "pre-commit hooks: ok"
