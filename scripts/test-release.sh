#!/usr/bin/env bash
# Builds the krew archive with scripts/release.sh and checks it as krew would
# use it: every `from:` of plugin.yaml is in the archive, the binary runs,
# the completion shim answers kubectl's protocol, the man page and the shell
# completions are there.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(scripts/release.sh | sed -n 1p)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$archive"
version="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
grep -q "version: $version" plugin.yaml || { echo "plugin.yaml is not at $version"; exit 1; }
for from in $(sed -n 's/^ *- from: //p' plugin.yaml); do
    [ -e "$tmp/$from" ] || { echo "plugin.yaml names $from, which the archive lacks"; exit 1; }
done
dir="$tmp/$(basename "$archive" .tar.gz)"
"$dir/kubectl-dra" --version | grep -q "kubectl-dra" || { echo "the archived binary does not run"; exit 1; }
# As kubectl calls it: the words after `kubectl dra`, no `__complete`.
PATH="$dir:$PATH" "$dir/kubectl_complete-dra" "" | grep -q "^lint" || { echo "the completion shim does not answer"; exit 1; }
grep -q '^.TH' "$dir/kubectl-dra.1" || { echo "no man page"; exit 1; }
for sh in bash zsh fish; do [ -s "$dir/kubectl-dra.$sh" ] || { echo "no $sh completion"; exit 1; }; done
"$dir/kubectl-dra" lint examples/ > /dev/null
echo "release archive OK: $archive"
