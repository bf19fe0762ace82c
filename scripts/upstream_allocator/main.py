"""Writes upstream's allocator unit-test scenarios as conformance cases.

    python3 scripts/upstream_allocator/main.py [OUTDIR]

The scenarios (part1.py ... in the order of upstream's table) are written in
the terms of upstream's test helpers (dsl.py), each with its features, claims,
inventory, node and expected allocation or error; emit.py turns them into
cases of testdata/conformance/FORMAT.md. judge.py runs a directory of cases
through a built kubectl-dra without cargo (handy while porting).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from emit import write  # noqa: E402

for part in sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("part") and f.endswith(".py")):
    __import__(part)

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "testdata", "conformance", "upstream")
write(os.path.normpath(out))
