"""Builders mirroring the helpers of upstream's allocator test table
(k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting),
so each scenario can be written down as data in the same terms."""
import copy

region1, region2 = "region-1", "region-2"
node1, node2 = "node-1", "node-2"
classA, classB = "class-a", "class-b"
driverA, driverB = "driver-a", "driver-b"
pool1, pool2, pool3, pool4 = "pool-1", "pool-2", "pool-3", "pool-4"
req0, req1, req2, req3 = "req-0", "req-1", "req-2", "req-3"
subReq0, subReq1 = "subReq-0", "subReq-1"
req0SubReq0, req0SubReq1 = "req-0/subReq-0", "req-0/subReq-1"
req1SubReq0, req1SubReq1 = "req-1/subReq-0", "req-1/subReq-1"
req2SubReq0, req2SubReq1 = "req-2/subReq-0", "req-2/subReq-1"
claim0, claim1 = "claim-0", "claim-1"
slice1, slice2, slice3, slice4 = "slice-1", "slice-2", "slice-3", "slice-4"
device0, device1, device2, device3, device4 = [f"device-{i}" for i in range(5)]
counterSet1, counterSet2 = "counter-set-1", "counter-set-2"
capacity0, capacity1 = "capacity-0", "capacity-1"
fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"
zero, one, two, three, four = "0", "1", "2", "3", "4"
fieldNameKey, regionKey, planetKey, planetValueEarth = "metadata.name", "region", "planet", "earth"
nodeSelectionAll, nodeSelectionPerDevice = "nodeSelectionAll", "nodeSelectionPerDevice"
fromCounters = "fromCounters"
nonExistentAttribute = driverA + "/NonExistentAttribute"
boolAttribute = driverA + "/boolAttribute"
stringAttribute = driverA + "/stringAttribute"
versionAttribute = driverA + "/driverVersion"
intAttribute = driverA + "/numa"
taintKey, taintValue, taintValue2 = "taint-key", "taint-value", "taint-value-2"
taintNone = {"key": taintKey, "value": taintValue, "effect": "None"}
taintNoSchedule = {"key": taintKey, "value": taintValue, "effect": "NoSchedule"}
taintNoExecute = {"key": taintKey, "value": taintValue2, "effect": "NoExecute"}
tolerationNoSchedule = {"operator": "Exists", "key": taintKey, "effect": "NoSchedule"}
tolerationNoExecute = {"operator": "Equal", "key": taintKey, "value": taintValue2, "effect": "NoExecute"}
tolerationNoScheduleKey1 = {"operator": "Exists", "key": "key1", "effect": "NoSchedule"}

def dc(x):
    return copy.deepcopy(x)

def node(name, region):
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {regionKey: region, planetKey: planetValueEarth}}}

def sel(expr):
    return {"cel": {"expression": expr}}

def cls(name, driver):
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": name},
            "spec": {"selectors": [sel(f'device.driver == "{driver}"')]}}

def classWithAllowMultipleAllocations(name, driver, multi):
    c = cls(name, driver)
    c["spec"]["selectors"] = [sel(f'device.driver == "{driver}" && device.allowMultipleAllocations == {"true" if multi else "false"}')]
    return c

def deviceConfiguration(driver, attribute):
    return {"opaque": {"driver": driver, "parameters": {attribute: attribute + "Value"}}}

def classWithConfig(name, driver, attribute):
    c = cls(name, driver)
    c["spec"]["config"] = [deviceConfiguration(driver, attribute)]
    return c

def request(name, klass, count, *selectors):
    ex = {"count": count, "allocationMode": "ExactCount", "deviceClassName": klass}
    if selectors:
        ex["selectors"] = list(selectors)
    return {"name": name, "exactly": ex}

def deviceRequest(name, klass, count):
    return request(name, klass, count)

def allDeviceRequest(name, klass):
    return {"name": name, "exactly": {"allocationMode": "All", "deviceClassName": klass}}

def subRequest(name, klass, count, *fields):
    s = {"name": name, "count": count, "allocationMode": "ExactCount", "deviceClassName": klass}
    for f in fields:
        if "cel" in f:
            s.setdefault("selectors", []).append(f)
        else:
            s.setdefault("tolerations", []).append(f)
    return s

def withAllocationMode(s, mode):
    s = dc(s); s["allocationMode"] = mode; return s

def capacityRequests(q):
    return {"requests": ({capacity0: q} if q is not None else {})}

def withCapacityRequest(r, q):
    r = dc(r)
    (r["exactly"] if "exactly" in r else r)["capacity"] = capacityRequests(q)
    return r

def withSelectors(r, *s):
    r = dc(r); r["exactly"]["selectors"] = list(s); return r

def requestWithPrioritizedList(name, *subs):
    return {"name": name, "firstAvailable": [dc(s) for s in subs]}

def claimWithRequests(name, constraints, *requests):
    devs = {"requests": [dc(r) for r in requests]}
    if constraints:
        devs["constraints"] = list(constraints)
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": "default"}, "spec": {"devices": devs}}

def claimWithRequest(name, req, klass, *constraints):
    return claimWithRequests(name, list(constraints), request(req, klass, 1))

def claim(name):
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": "default"}, "spec": {"devices": {}}}

def withTolerations(c, *t):
    c = dc(c)
    for r in c["spec"]["devices"].get("requests", []):
        r["exactly"].setdefault("tolerations", []).extend(dc(list(t)))
    return c

def withRequests(c, *rs):
    c = dc(c); c["spec"]["devices"]["requests"] = [dc(r) for r in rs]; return c

def withConstraints(c, *cs):
    c = dc(c); c["spec"]["devices"]["constraints"] = list(cs); return c

def withConfigs(c, configs):
    c = dc(c); c["spec"]["devices"]["config"] = list(configs); return c

def claimWithDeviceConfig(name, req, klass, driver, attribute):
    c = claimWithRequest(name, req, klass)
    c["spec"]["devices"]["config"] = [deviceConfiguration(driver, attribute)]
    return c

def deviceClaimConfig(requests, cfg):
    d = dc(cfg)
    if requests:
        d["requests"] = list(requests)
    return d

def exactly(c, i=0):
    return c["spec"]["devices"]["requests"][i]["exactly"]

def device(name, capacity=None, attributes=None):
    d = {"name": name}
    if attributes:
        d["attributes"] = dc(attributes)
    if isinstance(capacity, dict):
        d["capacity"] = {k: {"value": v} for k, v in capacity.items()}
    elif capacity == fromCounters:
        d["_fromCounters"] = True
    return d

def _clean(d):
    d = dc(d); d.pop("_fromCounters", None); return d

def withTaints(d, *t):
    d = dc(d); d.setdefault("taints", []).extend(dc(list(t))); return _clean(d)

def deviceCounterConsumption(cs, counters):
    return {"counterSet": cs, "counters": {k: {"value": v} for k, v in (counters or {}).items()}}

def withDeviceCounterConsumption(d, *dcc):
    d = dc(d)
    d.setdefault("consumesCounters", []).extend(dc(list(dcc)))
    if d.get("_fromCounters"):
        cap = {}
        for c in d["consumesCounters"]:
            for k, v in c["counters"].items():
                cap[k] = {"value": v["value"]}
        d["capacity"] = cap
    return _clean(d)

def withNodeSelection(d, ns):
    d = dc(d)
    if isinstance(ns, dict):
        d["nodeSelector"] = ns
    elif ns == nodeSelectionAll:
        d["allNodes"] = True
    else:
        d["nodeName"] = ns
    return _clean(d)

def withBindingConditions(d, bc, bfc):
    d = dc(d)
    if bc: d["bindingConditions"] = list(bc)
    if bfc: d["bindingFailureConditions"] = list(bfc)
    return _clean(d)

def withBindsToNode(d, b):
    d = dc(d); d["bindsToNode"] = b; return _clean(d)

def withAllowMultipleAllocations(d):
    d = dc(d); d["allowMultipleAllocations"] = True; return _clean(d)

def withCapacityRequestPolicyRange(d, cap):
    d = dc(d); d.setdefault("capacity", {})
    for k, v in cap.items():
        d["capacity"][k] = {"value": v, "requestPolicy": {"default": two, "validRange": {"min": two, "step": two, "max": four}}}
    return _clean(d)

def withCapacityRequestPolicyValidValues(d, default, cap, extra):
    d = dc(d); d.setdefault("capacity", {})
    for k, v in cap.items():
        d["capacity"][k] = {"value": v, "requestPolicy": {"default": default, "validValues": [default] + list(extra or [])}}
    return _clean(d)

def resourcePool(name, count):
    return {"name": name, "resourceSliceCount": count, "generation": 1}

def slice_(name, nodeSelection, pool, driver):
    p = resourcePool(pool, 1) if isinstance(pool, str) else dc(pool)
    spec = {"driver": driver, "pool": p}
    if isinstance(nodeSelection, dict):
        spec["nodeSelector"] = nodeSelection
    elif nodeSelection == nodeSelectionAll:
        spec["allNodes"] = True
    elif nodeSelection == nodeSelectionPerDevice:
        spec["perDeviceNodeSelection"] = True
    else:
        spec["nodeName"] = nodeSelection
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": name}, "spec": spec}

def sliceWithDevices(name, ns, pool, driver, *devices):
    s = slice_(name, ns, pool, driver)
    s["spec"]["devices"] = [_clean(d) for d in devices]
    return s

def sliceWithNoDevices(name, ns, pool, driver):
    return sliceWithDevices(name, ns, pool, driver)

def sliceWithOneDevice(name, ns, pool, driver):
    return sliceWithDevices(name, ns, pool, driver, device(device1))

def sliceWithMultipleDevices(name, ns, pool, driver, count):
    return sliceWithDevices(name, ns, pool, driver, *[device(f"device-{i}") for i in range(count)])

def counterSet(name, counters):
    return {"name": name, "counters": {k: {"value": v} for k, v in (counters or {}).items()}}

def sliceWithCounterSets(name, ns, pool, driver, *sets):
    s = slice_(name, ns, pool, driver)
    s["spec"]["sharedCounters"] = list(sets)
    return s

def nodeLabelSelector(key, *values):
    return {"nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": "In", "values": list(values)}]}]}

def localNodeSelector(name):
    return {"nodeSelectorTerms": [{"matchFields": [{"key": fieldNameKey, "operator": "In", "values": [name]}]}]}

def deviceAllocationResult(request, driver, pool, device, admin=False, *tolerations):
    r = {"request": request, "driver": driver, "pool": pool, "device": device}
    if admin:
        r["adminAccess"] = True
    if tolerations:
        r["tolerations"] = [dict(t) for t in tolerations]
    return r

def deviceRequestAllocationResult(request, driver, pool, device):
    return deviceAllocationResult(request, driver, pool, device)

def withConsumedCapacity(r, shareID, consumed):
    r = dc(r)
    if shareID is not None:
        r["shareID"] = "present"
    if consumed is not None:
        r["consumedCapacity"] = dict(consumed)
    return r

def multipleDeviceAllocationResults(request, driver, pool, count, start):
    return [deviceAllocationResult(request, driver, pool, f"device-{i}") for i in range(start, start + count)]

def deviceRequestAllocationResultWithBindingConditions(request, driver, pool, device, bc, bfc, *tolerations):
    r = deviceAllocationResult(request, driver, pool, device, False, *tolerations)
    if bc: r["bindingConditions"] = list(bc)
    if bfc: r["bindingFailureConditions"] = list(bfc)
    return r

def allocationResult(selector, *results):
    return {"nodeSelector": selector, "results": list(results)}

def allocationResultWithConfig(selector, driver, source, attribute, *results):
    return {"nodeSelector": selector, "results": list(results),
            "config": [dict(source=source, **deviceConfiguration(driver, attribute))]}

def allocationResultWithConfigs(selector, results, configs):
    return {"nodeSelector": selector, "results": list(results), "config": list(configs)}

def MakeDeviceID(driver, pool, device):
    return (driver, pool, device)

def matchAttribute(attr, requests=None):
    c = {"matchAttribute": attr}
    if requests: c["requests"] = list(requests)
    return c

def distinctAttribute(attr, requests=None):
    c = {"distinctAttribute": attr}
    if requests: c["requests"] = list(requests)
    return c
