#!/usr/bin/env bash
# Builds the krew archive and manifest with scripts/release.sh and checks them
# as krew would use them: the manifest names the plugin `dra`, is at the
# crate's version and carries each archive's real sha256 and name; every
# `from:` is in the archive; the binary runs, the completion shim answers
# kubectl's protocol, the man page and the shell completions are there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(scripts/release.sh)
archive=$(echo "$out" | sed -n 1p)
manifest=$(echo "$out" | tail -n 1)
[ "$manifest" = dist/dra.yaml ] || { echo "release.sh wrote no dist/dra.yaml"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$archive"
version="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
grep -q "^  name: dra$" "$manifest" || { echo "the manifest does not name the plugin dra"; exit 1; }
grep -q "^  version: $version$" "$manifest" || { echo "the manifest is not at $version"; exit 1; }
grep -q "@@" "$manifest" && { echo "the manifest keeps a placeholder"; exit 1; }
sha=$(sha256sum "$archive" | cut -d' ' -f1)
grep -q "sha256: \"$sha\"" "$manifest" || { echo "the manifest's sha256 is not the archive's ($sha)"; exit 1; }
grep -q "uri: .*/releases/download/$version/$(basename "$archive")$" "$manifest" || { echo "the manifest's uri does not name $(basename "$archive")"; exit 1; }
for from in $(sed -n 's/^ *- from: //p' "$manifest"); do
    [ -e "$tmp/$from" ] || { echo "the manifest names $from, which the archive lacks"; exit 1; }
done
# The same sources give the same archive bytes (the sha256 can be checked).
again=$(scripts/release.sh | sed -n 1p)
[ "$(sha256sum "$again" | cut -d' ' -f1)" = "$sha" ] || { echo "the archive is not reproducible"; exit 1; }
dir="$tmp/$(basename "$archive" .tar.gz)"
"$dir/kubectl-dra" --version | grep -q "kubectl-dra" || { echo "the archived binary does not run"; exit 1; }
# As kubectl calls it: the words after `kubectl dra`, no `__complete`.
PATH="$dir:$PATH" "$dir/kubectl_complete-dra" "" | grep -q "^lint" || { echo "the completion shim does not answer"; exit 1; }
grep -q '^.TH' "$dir/kubectl-dra.1" || { echo "no man page"; exit 1; }
for sh in bash zsh fish; do [ -s "$dir/kubectl-dra.$sh" ] || { echo "no $sh completion"; exit 1; }; done
"$dir/kubectl-dra" lint examples/ > /dev/null
echo "release archive OK: $archive, manifest $manifest"
