#!/usr/bin/env bash
# Builds the release archive krew installs (plugin.yaml), and prints its sha256.
#   scripts/release.sh [TARGET]   (default: the host target)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-$(rustc -vV | sed -n 's/^host: //p')}"
version="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
cargo build --release --target "$target"
out="dist/kubectl-dra-${version}-${target}"
rm -rf "$out" && mkdir -p "$out"
cp "target/$target/release/kubectl-dra" kubectl_complete-dra README.md LICENSE "$out/"
"target/$target/release/kubectl-dra" man > "$out/kubectl-dra.1"
for sh in bash zsh fish; do "target/$target/release/kubectl-dra" completion "$sh" > "$out/kubectl-dra.$sh"; done
tar -C dist -czf "$out.tar.gz" "$(basename "$out")"
sha=$(sha256sum "$out.tar.gz" | cut -d' ' -f1)
echo "$out.tar.gz"
echo "sha256: $sha   (put it in plugin.yaml)"
