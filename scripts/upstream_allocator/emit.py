import os, sys, yaml, json
from dsl import *

FEATURE_GATES = {
    "AdminAccess": ["DRAAdminAccess"],
    "PrioritizedList": ["DRAPrioritizedList"],
    "PartitionableDevices": ["DRAPartitionableDevices"],
    "DeviceTaints": ["DRADeviceTaints"],
    # upstream's incubating/experimental allocators run these cases; the
    # scheduler picks them only with device status on too
    "DeviceBindingAndStatus": ["DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"],
    "ConsumableCapacity": ["DRAConsumableCapacity"],
    "ListTypeAttributes": ["DRAListTypeAttributes"],
}
FORCED = ["DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints",
          "DRADeviceBindingConditions", "DRAConsumableCapacity", "DRAListTypeAttributes"]
# (exists, locked-to) per release, from crates/dra-core/src/gates.rs
LOCKS = {
    "1.37": {"DRAAdminAccess": True, "DRAPrioritizedList": True, "DRAResourceClaimDeviceStatus": True},
    "1.36": {"DRAAdminAccess": True},
    "1.35": {},
    "1.34": {},
}
MISSING = {"1.34": {"DRAListTypeAttributes"}, "1.35": {"DRAListTypeAttributes"}, "1.36": set(), "1.37": set()}

def pick_version(want):
    for v in ("1.37", "1.36", "1.35"):
        ok = all(LOCKS[v].get(g, on) == on for g, on in want.items()) and not any(want.get(g) for g in MISSING[v])
        if ok:
            return v, {g: on for g, on in want.items() if g not in MISSING[v] and g not in LOCKS[v]}
    raise Exception(f"no release can run {want}")

CASES = {}
SKIPPED = {}

def skip(name, why):
    SKIPPED[name] = why

def case(name, about=None, reason=None, features=(), claims=(), allocated=(), allocated_shared=(), allocated_capacity=(),
         classes=(), slices=(), node=None, results=None, error=None, any_order=False, note=None):
    assert name not in CASES, name
    want = {g: False for g in FORCED}
    for f in features:
        for g in FEATURE_GATES[f]:
            want[g] = True
    # Off only matters for a claim that uses the feature: where it does
    # not, the newest release (which may lock the gate on) can run the case.
    text = json.dumps(claims)
    if not want["DRAAdminAccess"] and '"adminAccess"' not in text:
        del want["DRAAdminAccess"]
    if not want["DRAPrioritizedList"] and '"firstAvailable"' not in text:
        del want["DRAPrioritizedList"]
    version, gates = pick_version(want)
    objects = [dc(c) for c in classes] + [dc(s) for s in slices]
    if node is not None:
        objects.append(dc(node))
    holders = []
    def holder(i, res):
        return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": {"name": f"allocated-{i}", "namespace": "default"},
                "spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": classA}}]}},
                "status": {"allocation": {"devices": {"results": res}}}}
    if allocated:
        holders.append(holder(len(holders), [{"request": "req", "driver": d, "pool": p, "device": n} for d, p, n in allocated]))
    for d, p, n, share in allocated_shared:
        holders.append(holder(len(holders), [{"request": "req", "driver": d, "pool": p, "device": n, "shareID": share}]))
    for d, p, n, consumed in allocated_capacity:
        holders.append(holder(len(holders), [{"request": "req", "driver": d, "pool": p, "device": n,
                                               "shareID": "bbbbbbbb-bbbb-bbbb-bbbb-%012d" % len(holders),
                                               "consumedCapacity": consumed}]))
    objects += holders
    names = []
    for c in claims:
        c = dc(c)
        objects.append(c)
        names.append(f"default/{c['metadata']['name']}")
    assert len(set(names)) == len(names), f"{name}: duplicate claim names"
    doc = {"name": "upstream-" + name,
           "about": about or f"upstream allocator test scenario {name!r}",
           "source": f"allocatortesting/allocator_testing.go (kubernetes 1.37 line): {name!r}" + (f"; {note}" if note else ""),
           "kubernetesVersion": version,
           "featureGates": gates,
           "objects": objects,
           "allocate": {"claims": names, "node": node["metadata"]["name"] if node else None}}
    if error is not None:
        # klog.KObj prints namespace/name; upstream's test claims have no
        # namespace, the ones here live in "default".
        import re
        error = re.sub(r"\bclaim (claim-\d)", r"claim default/\1", error)
        doc["expect"] = {"error": error}
    elif not results:
        doc["expect"] = {"unsatisfiable": True}
        if reason:
            doc["expect"]["reason"] = reason
    else:
        assert len(results) == len(claims), f"{name}: {len(results)} results for {len(claims)} claims"
        alloc = []
        for c, r in zip(claims, results):
            # upstream's allocationResult matcher: this node selector (nil
            # included) and no config; allocationResultWithConfigs: these.
            e = {"claim": f"default/{c['metadata']['name']}", "results": r["results"],
                 "nodeSelector": r.get("nodeSelector"), "config": r.get("config") or []}
            alloc.append(e)
        doc["expect"] = {"allocation": alloc}
        if any_order:
            doc["expect"]["anyOrder"] = True
    CASES[name] = doc

def write(outdir):
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if f.endswith(".yaml"):
            os.remove(os.path.join(outdir, f))
    class D(yaml.SafeDumper):
        pass
    def str_rep(dumper, data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="'" if yaml.safe_load(data) != data or data in ("y","n","yes","no","on","off") else None)
    for name, doc in CASES.items():
        with open(os.path.join(outdir, f"upstream-{name}.yaml"), "w") as fh:
            yaml.dump(doc, fh, Dumper=D, sort_keys=False, default_flow_style=False)
    with open(os.path.join(outdir, "SKIPPED.md"), "w") as fh:
        fh.write("# Upstream scenarios not ported, and why\n\n")
        for n, why in SKIPPED.items():
            fh.write(f"- `{n}`: {why}\n")
    print(f"{len(CASES)} cases, {len(SKIPPED)} skipped", file=sys.stderr)
