#!/usr/bin/env python3
"""Writes crates/dra-core/src/schema/core_types.txt: the JSON fields of the
workload kinds kube-apiserver decodes strictly (core/v1 Pod, PodTemplate,
ReplicationController; apps/v1 Deployment, StatefulSet, DaemonSet,
ReplicaSet; batch/v1 Job, CronJob), with the releases that have each field.

It reads the Go types of kubernetes/api at each release's branch (a bare
clone: `fetch github:kubernetes/api`, or any clone given as the argument) and
keeps only field names and JSON types: which fields exist, what decodes
into them. Run it again when a release is added; the output is checked in.

    python3 scripts/gen_core_schema.py /work/.mirror/kubernetes+api/repo
"""

import re
import subprocess
import sys
from pathlib import Path

RELEASES = [
    (34, "release-1.34"),
    (35, "release-1.35"),
    (36, "release-1.36"),
    # The 1.37 line: kubernetes/api master of 2026-07-24 (10b39a39), the
    # newest snapshot at hand, past v0.37.0-beta.0 (which lacks Job pod-group
    # scheduling and eviction responders). Two 1.37 DRA fields came later
    # (tests/api_fixtures.rs names them); later pod fields would be missing.
    (37, "master"),
]
FILES = ["core/v1/types.go", "apps/v1/types.go", "batch/v1/types.go"]
# The scheduling API a Job's pod groups use (1.37), read where a release has
# it; its types are named `scheduling.X` apart from core's.
SCHEDULING = ["scheduling/v1alpha2/types.go", "scheduling/v1alpha3/types.go"]
ROOTS = [
    "Pod",
    "PodTemplate",
    "ReplicationController",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "CronJob",
]
# apimachinery's types the workload kinds use, by their JSON shape.
META = {
    "metav1.ObjectMeta": "ObjectMeta",
    "metav1.Time": "time",
    "metav1.MicroTime": "time",
    "types.UID": "string",
    "resource.Quantity": "quantity",
    "intstr.IntOrString": "intorstring",
    "runtime.RawExtension": "any",
    "byte": "string",
}
# Structs of apimachinery, written out (meta/v1 types.go).
META_STRUCTS = {
    "TypeMeta": [("apiVersion", "string"), ("kind", "string")],
    "LabelSelector": [
        ("matchLabels", "map[string]"),
        ("matchExpressions", "[]LabelSelectorRequirement"),
    ],
    "LabelSelectorRequirement": [
        ("key", "string"),
        ("operator", "string"),
        ("values", "[]string"),
    ],
    "Condition": [
        ("type", "string"),
        ("status", "string"),
        ("observedGeneration", "int64"),
        ("lastTransitionTime", "time"),
        ("reason", "string"),
        ("message", "string"),
    ],
}
SCALARS = {"string", "bool", "int32", "int64", "quantity", "time", "intorstring", "any"}

STRUCT_RE = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.M | re.S)
NAMED_RE = re.compile(r"^type (\w+) ([^\s{][^\n]*)$", re.M)
FIELD_RE = re.compile(r"^\s*(?:(\w+)\s+)?([\w.\[\]*]+)\s+`([^`]*)`")


def go_type(t, named, pkg=""):
    """A Go type as our notation: []T, map[T], a scalar or a struct name.
    `pkg` is "scheduling." for a field of a scheduling type."""
    t = t.lstrip("*")
    for prefix in ("schedulingv1alpha2.", "schedulingv1alpha3."):
        if t.startswith(prefix):
            t, pkg = t[len(prefix) :], "scheduling."
    if pkg and "." not in t and pkg + t in named:
        return go_type(named[pkg + t], named, pkg)
    if pkg and "." not in t and pkg + t in SCHEDULING_STRUCTS:
        return pkg + t
    if t.startswith("[]"):
        inner = t[2:]
        if inner == "byte":
            return "string"  # []byte is a base64 string
        return "[]" + go_type(inner, named, pkg)
    if t.startswith("map["):
        value = t[t.index("]") + 1 :]
        return "map[" + go_type(value, named, pkg) + "]"
    for prefix in ("metav1.", "v1.", "corev1.", "types.", "resource.", "intstr.", "runtime."):
        if t.startswith(prefix) and t not in META:
            if prefix in ("v1.", "corev1."):
                t = t[len(prefix) :]
            elif t == "metav1.LabelSelector" or t == "metav1.Condition":
                return t[len("metav1.") :]
            elif t == "metav1.TypeMeta":
                return "TypeMeta"
            elif t == "metav1.OwnerReference":
                return "OwnerReference"
            else:
                raise SystemExit(f"unknown type {t}")
    if t in META:
        return META[t]
    if t in ("string", "bool", "int32", "int64"):
        return t
    if t in named:
        return go_type(named[t], named)
    return t


SCHEDULING_STRUCTS = set()


def parse(ref, repo):
    structs, named = {}, {}
    SCHEDULING_STRUCTS.clear()
    for f in FILES + SCHEDULING:
        shown = subprocess.run(
            ["git", "-C", repo, "show", f"{ref}:{f}"], capture_output=True, text=True
        )
        if shown.returncode != 0:
            if f in FILES:
                raise SystemExit(f"{ref}:{f}: {shown.stderr}")
            continue
        src = shown.stdout
        pkg = "scheduling." if f in SCHEDULING else ""
        for m in NAMED_RE.finditer(src):
            definition = m.group(2).split("//")[0].strip()
            if not definition.startswith("struct"):
                named[pkg + m.group(1)] = definition
        for m in STRUCT_RE.finditer(src):
            fields = []
            for line in m.group(2).splitlines():
                if line.strip().startswith("//"):
                    continue
                fm = FIELD_RE.match(line)
                if not fm:
                    continue
                name, ty, tag = fm.groups()
                jm = re.search(r'json:"([^"]*)"', tag)
                if not jm:
                    continue
                jname = jm.group(1).split(",")[0]
                if jname == "-":
                    continue
                if name is None and jname == "":
                    fields.append(("", ty))  # embedded: its fields are promoted
                elif name is None:
                    fields.append((jname, ty))
                else:
                    fields.append((jname, ty))
            structs[pkg + m.group(1)] = fields
            if pkg:
                SCHEDULING_STRUCTS.add(pkg + m.group(1))
    return structs, named


def resolve(structs, named):
    """Each reachable struct's JSON fields, embedded structs promoted."""
    out = {}

    def fields_of(s):
        if s in META_STRUCTS:
            return list(META_STRUCTS[s])
        res = []
        pkg = "scheduling." if s.startswith("scheduling.") else ""
        for jname, ty in structs[s]:
            t = go_type(ty, named, pkg)
            if jname == "":
                res.extend(fields_of(t))
            else:
                res.append((jname, t))
        return res

    todo = list(ROOTS)
    while todo:
        s = todo.pop()
        if s in out or s in ("ObjectMeta", "OwnerReference"):
            continue
        out[s] = fields_of(s)
        for _, t in out[s]:
            base = t
            while base.startswith("[]") or base.startswith("map["):
                base = base[2:] if base.startswith("[]") else base[4:-1]
            if base not in SCALARS and base not in out:
                todo.append(base)
    return out


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/kubernetes+api/repo"
    per_release = {minor: resolve(*parse(ref, repo)) for minor, ref in RELEASES}
    minors = [m for m, _ in RELEASES]
    names = sorted(set().union(*per_release.values()))
    # Leaves first: a struct is written after every struct it refers to.
    deps = {}
    for s in names:
        d = set()
        for minor in minors:
            for _, t in per_release[minor].get(s, []):
                base = t
                while base.startswith("[]") or base.startswith("map["):
                    base = base[2:] if base.startswith("[]") else base[4:-1]
                if base not in SCALARS and base != "ObjectMeta":
                    d.add(base)
        deps[s] = d
    order, done, visiting = [], set(), set()

    def visit(s):
        if s in done:
            return
        if s in visiting:
            raise SystemExit(f"recursive type {s}")
        visiting.add(s)
        for d in sorted(deps[s]):
            visit(d)
        visiting.discard(s)
        done.add(s)
        order.append(s)

    for s in names:
        visit(s)
    lines = [
        "# Generated by scripts/gen_core_schema.py from kubernetes/api "
        + ", ".join(ref for _, ref in RELEASES)
        + f" ({', '.join(FILES)}); do not edit.",
        "# A struct's name, then one JSON field per line: name, type, and the",
        "# first and last minor releases that have it when not all of 1.34-1.37.",
    ]
    for s in order:
        lines.append(s)
        seen = []
        for minor in minors:
            for jname, t in per_release[minor].get(s, []):
                if jname not in [n for n, _ in seen]:
                    seen.append((jname, t))
        for jname, t in seen:
            have = [m for m in minors if any(n == jname for n, _ in per_release[m].get(s, []))]
            types = {t2 for m in have for n, t2 in per_release[m][s] if n == jname}
            if len(types) > 1:
                raise SystemExit(f"{s}.{jname} changes type: {types}")
            span = "" if have == minors else f" {have[0]}-{have[-1]}"
            if have != list(range(have[0], have[-1] + 1)):
                raise SystemExit(f"{s}.{jname} comes and goes: {have}")
            lines.append(f"  {jname} {t}{span}")
    out = Path(__file__).resolve().parent.parent / "crates/dra-core/src/schema/core_types.txt"
    out.write_text("\n".join(lines) + "\n")
    print(f"{out}: {len(order)} structs, {len(lines)} lines")


if __name__ == "__main__":
    main()
