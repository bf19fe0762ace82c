from emit import *

def memsel(q):
    return sel(f'device.capacity["{driverA}"].memory.compareTo(quantity("{q}")) >= 0')

case("simple", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("other-node", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverB), sliceWithOneDevice(slice2, node2, pool2, driverA)],
     node=node(node2, region2),
     results=[allocationResult(localNodeSelector(node2), deviceAllocationResult(req0, driverA, pool2, device1))])
case("small-and-large",
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1, memsel("1Gi")), request(req1, classA, 1, memsel("2Gi")))],
     classes=[cls(classA, driverA)],
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, {"memory": "1Gi"}), device(device2, {"memory": "2Gi"}))],
     node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1, driverA, pool1, device2))])
case("small-and-large-backtrack-requests",
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1, memsel("1Gi")), request(req1, classA, 1, memsel("2Gi")))],
     classes=[cls(classA, driverA)],
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device2, {"memory": "2Gi"}), device(device1, {"memory": "1Gi"}))],
     node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1, driverA, pool1, device2))])
case("small-and-large-backtrack-claims",
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1, memsel("1Gi"))), claimWithRequests(claim1, None, request(req1, classA, 1, memsel("2Gi")))],
     classes=[cls(classA, driverA)],
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device2, {"memory": "2Gi"}), device(device1, {"memory": "1Gi"}))],
     node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2))])
case("devices-split-across-different-slices",
     claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverA)],
     node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool2, device1))])
s_new = sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA, device(device2))
s_new["spec"]["pool"]["generation"] += 1
case("obsolete-slice", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA, device(device1)), s_new],
     node=node(node1, region1), results=[],
     note="both slices carry one name upstream; objects here need distinct names, so the second is slice-1-obsolete-2",)
CASES["obsolete-slice"]["objects"][2]["metadata"]["name"] = "slice-1-obsolete-2"
sa = sliceWithOneDevice(slice1, node1, pool1, driverA); sa["spec"]["pool"]["resourceSliceCount"] = 2
sb = dc(sa); sb["metadata"]["name"] += "-2"
case("duplicate-slice", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sa, sb], node=node(node1, region1), reason="invalid resource pools were encountered",
     note="upstream's Allocate returns this error wrapping ErrFailedAllocationOnNode, which kube-scheduler's Filter reports as the node being unschedulable (FORMAT.md: unsatisfiable)")
case("no-slices", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)], node=node(node1, region1))
case("not-enough-suitable-devices", claims=[claimWithRequest(claim0, req0, classA), claimWithRequest(claim1, req1, classA)], classes=[cls(classA, driverA)], slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1), note="both claims are named claim-0 upstream; the second is claim-1 here")
case("no-classes", claims=[claimWithRequest(claim0, req0, classA)], slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)],
     node=node(node1, region1), error="could not retrieve device class class-a")
case("unknown-class", claims=[claimWithRequest(claim0, req0, "unknown-class")], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1),
     error="could not retrieve device class unknown-class")
case("empty-class", claims=[claimWithRequest(claim0, req0, "")], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1),
     error="claim claim-0, request req-0: missing device class name (unsupported request type?)")
skip("empty", "no claims: nothing for `explain` to ask")
skip("no-claims-to-allocate", "no claims: nothing for `explain` to ask")
case("all-devices-single", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("all-devices-many", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice1 + "-b", node1, pool2, driverA)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool2, device1))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
r = allDeviceRequest(req0, classA); r["exactly"]["count"] = 1
s = sliceWithOneDevice(slice1, node1, pool1, driverA); s["spec"]["pool"]["resourceSliceCount"] += 1
case("all-devices-of-the-incomplete-pool", claims=[claimWithRequests(claim0, None, r)], classes=[cls(classA, driverA)],
     slices=[s], node=node(node1, region1),
     error="claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated")
def exact(name, klass, count=1):
    return {"name": name, "exactly": {"allocationMode": "ExactCount", "count": count, "deviceClassName": klass}}
two_slices = [sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice1 + "-b", node1, pool1, driverB)]
case("all-devices-plus-another",
     claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA)), claimWithRequests(claim1, None, exact(req0, classB))],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=two_slices, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
case("all-devices-plus-another-reversed",
     claims=[claimWithRequests(claim1, None, exact(req0, classB)), claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=two_slices, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
many = [sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2)), sliceWithOneDevice(slice1 + "-b", node1, pool1, driverB)]
case("all-devices-many-plus-another",
     claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA)), claimWithRequests(claim1, None, exact(req0, classB))],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=many, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool1, device2)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
case("all-devices-many-plus-another-reversed",
     claims=[claimWithRequests(claim1, None, exact(req0, classB)), claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=many, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool1, device2))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
case("all-devices-no-solution",
     claims=[claimWithRequests(claim1, None, exact(req0, classA)), claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     classes=[cls(classA, driverA)], slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1))
case("all-devices-no-solution-reversed",
     claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA)), claimWithRequests(claim1, None, exact(req0, classA))],
     classes=[cls(classA, driverA)], slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1))
case("all-devices-slice-without-devices", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     classes=[cls(classA, driverA)], slices=[sliceWithNoDevices(slice1, node1, pool1, driverA)], node=node(node1, region1))
case("all-devices-no-slices", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     classes=[cls(classA, driverA)], node=node(node1, region1))
two_dev = [sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2))]
case("all-devices-some-allocated", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))],
     allocated=[MakeDeviceID(driverA, pool1, device1)], classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1))
c = claimWithRequest(claim0, req0, classA); exactly(c)["adminAccess"] = True; exactly(c)["allocationMode"] = "All"; del exactly(c)["count"]
case("all-devices-some-allocated-admin-access", features=["AdminAccess"], claims=[c],
     allocated=[MakeDeviceID(driverA, pool1, device1)], classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True), deviceAllocationResult(req0, driverA, pool1, device2, True))],
     note="Go sets AllocationMode All and keeps Count 1; the apiserver would reject count with All, so count is left out here")
c = claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1))
exactly(c, 0)["adminAccess"] = True; exactly(c, 1)["adminAccess"] = True; exactly(c, 1)["allocationMode"] = "All"; del exactly(c, 1)["count"]
case("all-devices-some-allocating-admin-access", features=["AdminAccess"], claims=[c], classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1),
     note="count left out of the All request, as the apiserver requires")
c = claimWithRequest(claim0, req0, classA); exactly(c)["adminAccess"] = True; exactly(c)["count"] = 2
case("count-devices-some-allocated-admin-access", features=["AdminAccess"], claims=[c],
     allocated=[MakeDeviceID(driverA, pool1, device1)], classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True), deviceAllocationResult(req0, driverA, pool1, device2, True))])
c1 = claimWithRequest(claim0, req0, classA); exactly(c1)["adminAccess"] = True
c2 = claimWithRequest(claim1, req0, classA); exactly(c2)["adminAccess"] = True
case("separate-claims-share-device-admin-access", features=["AdminAccess"], claims=[c1, c2], classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True))])
admin = claimWithRequest(claim1, req0, classA); exactly(admin)["adminAccess"] = True
case("admin-access-claims-device-allocating-for-non-admin-access", features=["AdminAccess"], claims=[claimWithRequest(claim0, req0, classA), admin],
     classes=[cls(classA, driverA)], slices=two_dev, node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1)),
              allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True))])
def pl_all_first():
    c = withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)))
    s = c["spec"]["devices"]["requests"][0]["firstAvailable"][0]
    s["allocationMode"] = "All"; del s["count"]
    return c
case("all-devices-slice-without-devices-prioritized-list", features=["PrioritizedList"], claims=[pl_all_first()],
     classes=[cls(classA, driverA), cls(classB, driverB)],
     slices=[sliceWithNoDevices(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverB)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1))])
case("all-devices-no-slices-prioritized-list", features=["PrioritizedList"], claims=[pl_all_first()],
     classes=[cls(classA, driverA), cls(classB, driverB)],
     slices=[sliceWithOneDevice(slice2, node1, pool2, driverB)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1))])
case("all-devices-some-allocated-prioritized-list", features=["PrioritizedList"], claims=[pl_all_first()],
     allocated=[MakeDeviceID(driverA, pool1, device1)], classes=[cls(classA, driverA), cls(classB, driverB)],
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2)), sliceWithOneDevice(slice2, node1, pool2, driverB)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1))])
case("network-attached-device", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA)], node=node(node1, region1),
     results=[allocationResult(nodeLabelSelector(regionKey, region1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("unsuccessful-allocation-network-attached-device", claims=[claimWithRequest(claim0, req0, classA)], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA)], node=node(node2, region2))
case("many-network-attached-devices", claims=[claimWithRequests(claim0, None, request(req0, classA, 4))], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
             sliceWithOneDevice(slice1 + "-b", nodeSelectionAll, pool2, driverA),
             sliceWithOneDevice(slice1 + "-c", nodeLabelSelector(planetKey, planetValueEarth), pool3, driverA),
             sliceWithOneDevice(slice1 + "-d", localNodeSelector(node1), pool4, driverA)], node=node(node1, region1),
     results=[allocationResult({"nodeSelectorTerms": [{"matchExpressions": [
         {"key": regionKey, "operator": "In", "values": [region1]}, {"key": planetKey, "operator": "In", "values": [planetValueEarth]}],
         "matchFields": [{"key": fieldNameKey, "operator": "In", "values": [node1]}]}]},
         deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool2, device1),
         deviceAllocationResult(req0, driverA, pool3, device1), deviceAllocationResult(req0, driverA, pool4, device1))],
     note="the four slices are all named slice-1 upstream; suffixed here")
case("local-and-network-attached-devices", claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA), sliceWithOneDevice(slice1 + "-b", node1, pool2, driverA)],
     node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool2, device1))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
case("several-different-drivers", claims=[claimWithRequest(claim0, req0, classA), claimWithRequest(claim1, req0, classB)], classes=[cls(classA, driverA), cls(classB, driverB)],
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2)), sliceWithOneDevice(slice1 + "-b", node1, pool1, driverB)], node=node(node1, region1),
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1)), allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1))],
     note="both claims are named claim-0 upstream (the second is claim-1 here); both slices slice-1 (the second is slice-1-b)")
case("already-allocated-devices", claims=[claimWithRequest(claim0, req0, classA)],
     allocated=[MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)], classes=[cls(classA, driverA)],
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=node(node1, region1))
