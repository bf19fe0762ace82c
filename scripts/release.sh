#!/usr/bin/env bash
# Builds the release archives krew installs and writes their manifest.
#   scripts/release.sh [TARGET...]   (default: the host target)
# For each target: dist/kubectl-dra-<version>-<target>.tar.gz (the binary,
# kubectl_complete-dra, README.md, LICENSE, the man page and completions).
# Then dist/dra.yaml: scripts/krew/dra.yaml.tmpl with one platform per archive
# and its real sha256, named as krew-index wants it (plugins/dra.yaml).
# Prints the archives, then the manifest's path.
set -euo pipefail
cd "$(dirname "$0")/.."
version="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
repo=$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
[ $# -gt 0 ] || set -- "$(rustc -vV | sed -n 's/^host: //p')"
mkdir -p dist
platforms=""
for target in "$@"; do
    case "$target" in
        x86_64-unknown-linux-*) os=linux; arch=amd64 ;;
        aarch64-unknown-linux-*) os=linux; arch=arm64 ;;
        x86_64-apple-darwin) os=darwin; arch=amd64 ;;
        aarch64-apple-darwin) os=darwin; arch=arm64 ;;
        x86_64-pc-windows-*) os=windows; arch=amd64 ;;
        *) echo "no krew platform for $target" >&2; exit 1 ;;
    esac
    exe=""; [ "$os" = windows ] && exe=".exe"
    cargo build --locked --release --target "$target" >&2
    name="kubectl-dra-${version}-${target}"
    out="dist/$name"
    rm -rf "$out" && mkdir -p "$out"
    bin="target/$target/release/kubectl-dra$exe"
    cp "$bin" kubectl_complete-dra README.md LICENSE "$out/"
    # The man page and completions come from the host's build when the
    # target's binary cannot run here.
    gen="$bin"; "$gen" --version >/dev/null 2>&1 || gen="target/release/kubectl-dra"
    "$gen" man > "$out/kubectl-dra.1"
    for sh in bash zsh fish; do "$gen" completion "$sh" > "$out/kubectl-dra.$sh"; done
    # Reproducible archive bytes: fixed order, owner and time, no gzip name.
    tar -C dist --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - "$name" | gzip -n > "$out.tar.gz"
    sha=$(sha256sum "$out.tar.gz" | cut -d' ' -f1)
    echo "$out.tar.gz"
    platforms+="  - selector:
      matchLabels:
        os: $os
        arch: $arch
    uri: $repo/releases/download/$version/$name.tar.gz
    sha256: \"$sha\"
    bin: kubectl-dra$exe
    files:
    - from: $name/kubectl-dra$exe
      to: .
    - from: $name/kubectl_complete-dra
      to: .
    - from: $name/README.md
      to: .
    - from: $name/LICENSE
      to: .
"
done
# The template's own header comment is not part of the manifest.
sed -n '/^apiVersion:/,$p' scripts/krew/dra.yaml.tmpl \
    | sed "s|@@VERSION@@|$version|g" \
    | awk -v p="$platforms" '$0 == "@@PLATFORMS@@" { printf "%s", p; next } { print }' > dist/dra.yaml
echo "dist/dra.yaml"
