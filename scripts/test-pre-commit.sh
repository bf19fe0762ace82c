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
# A repository shaped like a real one: its own .pre-commit-config.yaml naming
# this hook, a workflow, a Helm chart (Chart.yaml, values.yaml, templates with
# Go template syntax) and manifests. The documented setup must let a commit
# through; a broken manifest must still stop it.
real="$(mktemp -d)"
trap 'rm -rf "$sample" "$real"' EXIT
cd "$real"
git init -q
mkdir -p .github/workflows chart/templates manifests
cat > .pre-commit-config.yaml <<EOF2
repos:
- repo: $root
  rev: $(git -C "$root" rev-parse HEAD)
  hooks:
  - id: kubectl-dra-system
EOF2
cat > .github/workflows/ci.yaml <<'EOF2'
name: ci
on: [push]
jobs:
  test: {runs-on: ubuntu-latest, steps: [{run: make}]}
EOF2
printf 'apiVersion: v2\nname: gpu\nversion: 0.1.0\n' > chart/Chart.yaml
printf 'replicas: 1\nimage: {repository: x, tag: "1"}\n' > chart/values.yaml
cat > chart/templates/claim.yaml <<'EOF2'
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: {{ .Release.Name }}-gpu
spec:
  spec:
    devices:
      requests:
      {{- range .Values.gpus }}
      - name: {{ . }}
      {{- end }}
EOF2
cp "$root"/examples/*.yaml manifests/
# Its .kubectl-dra.yaml leaves legacy/ out: pre-commit names the broken file
# there, and the configuration's exclude still applies (docs/config.md).
mkdir -p legacy
cp "$root/testdata/fixtures/render/slices.yaml" legacy/broken.yaml
printf 'kubernetesVersion: "1.37"\nextendExclude: [legacy]\n' > .kubectl-dra.yaml
git add -A
# Both the working tree's hooks (try-repo) and the committed ones (a real
# commit through `pre-commit install`) pass this repository.
pre-commit try-repo "$root" kubectl-dra-system --all-files >/dev/null || {
  pre-commit try-repo "$root" kubectl-dra-system --all-files >&2; exit 1; }
pre-commit install >/dev/null
git -c user.email=ci@example.com -c user.name=ci commit -qm "first commit" >/dev/null 2>&1 || {
  echo "the documented pre-commit setup blocks a commit of a normal repository:" >&2
  git -c user.email=ci@example.com -c user.name=ci commit -qm "first commit" >&2; exit 1; }
cp "$root/testdata/fixtures/render/slices.yaml" manifests/broken.yaml
git add manifests/broken.yaml
if git -c user.email=ci@example.com -c user.name=ci commit -qm broken >/dev/null 2>&1; then
  echo "the pre-commit hook let a broken manifest through" >&2
  exit 1
fi
echo "pre-commit hooks: ok"
