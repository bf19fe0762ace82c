#!/bin/sh
# Runs every cargo-fuzz target for a fixed time from the committed seeds.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (default: 600 s, all targets)
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# The seeds in fuzz/corpus/<target> stay small: each run works in a scratch
# copy (fuzz/work/<target>, ignored by git). A crash leaves its input in
# fuzz/artifacts/<target>/; turn it into a regression test: copy it to
# testdata/fuzz-regressions/<target>/<what-it-found> (replayed by
# tests/fuzz_regressions.rs and tests/alloc_props.rs), fix, and commit both.
set -eu
cd "$(dirname "$0")/../fuzz"
seconds="${1:-600}"
[ $# -gt 0 ] && shift
targets="${*:-lint_bytes lint_manifest cel_expr allocate yaml_paths cli_args kubeconfig http_page}"
for t in $targets; do
    mkdir -p "work/$t" "artifacts/$t"
    cp -n corpus/"$t"/* "work/$t/" 2>/dev/null || true
    echo "== $t for ${seconds}s"
    cargo +nightly fuzz run "$t" "work/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 2>&1 | tail -20
done
