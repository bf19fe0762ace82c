from emit import *
from part2 import memsel, S, I, B, V, N1, A
from part3 import dcc, mem, P2
from part7 import CA, tt
PL = ["PrioritizedList"]; PD = ["PartitionableDevices"]; CC = ["ConsumableCapacity"]
sh = lambda req, dev, consumed: withConsumedCapacity(deviceRequestAllocationResult(req, driverA, pool1, dev), fixedShareID, consumed)
case("allow-multiple-allocations-with-partitionable-device", features=PL + PD + CC,
     claims=[withRequests(claim(claim0), deviceRequest(req0, classA, 1), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memsel("6Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))))],
     classes=CA, slices=[sliceWithDevices(slice1, node1, P2, driverA, *[withAllowMultipleAllocations(dcc(device(n, fromCounters), mem(q))) for n, q in ((device1, "4Gi"), (device2, "6Gi"), (device3, "4Gi"))]),
                         sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {"memory": "4Gi"}), sh(req1SubReq1, device3, {"memory": "4Gi"}))])
capsel = lambda q: sel(f'device.capacity["{driverA}"]["{capacity0}"].compareTo(quantity("{q}")) >= 0')
pdev = lambda n, c0: withCapacityRequestPolicyRange(withAllowMultipleAllocations(dcc(device(n, fromCounters), (counterSet1, {capacity0: c0}), (counterSet2, {capacity1: four}))), {capacity1: four})
case("consumable-capacity-with-partitionable-device-multiple-capacity-pools", features=PL + PD + CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one), withCapacityRequest(deviceRequest(req2, classA, 1), two),
                          requestWithPrioritizedList(req1, withCapacityRequest(subRequest(subReq0, classA, 1, capsel("4")), one), withCapacityRequest(subRequest(subReq1, classA, 1, capsel("2")), one)))],
     classes=A, slices=[sliceWithDevices(slice1, node1, P2, driverA, pdev(device1, two), pdev(device2, four), pdev(device3, two)),
                        sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {capacity0: four}), counterSet(counterSet2, {capacity1: "8"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: one, capacity1: two}), sh(req2, device3, {capacity0: two, capacity1: two}),
                               sh(req1SubReq1, device1, {capacity0: one, capacity1: two}))])
md = lambda n, attrs: withAllowMultipleAllocations(device(n, None, attrs))
case("with-distinct-constraints", features=CC,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(boolAttribute, [req0, req1]), distinctAttribute(versionAttribute, [req0, req1, req2]),
                                          distinctAttribute(intAttribute, [req0, req1, req2, req3])),
                          deviceRequest(req0, classA, 1), deviceRequest(req1, classA, 1), deviceRequest(req2, classA, 1), deviceRequest(req3, classA, 1))],
     classes=A, slices=tt(md(device1, {"driverVersion": V("1.0.0"), "numa": I(0), "boolAttribute": B(True)}), md(device2, {"driverVersion": V("1.0.1"), "numa": I(1), "boolAttribute": B(False)}),
                          md(device3, {"driverVersion": V("1.0.2"), "numa": I(2), "boolAttribute": B(True)}), md(device4, {"driverVersion": V("1.0.0"), "numa": I(3), "boolAttribute": B(True)})), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, None), sh(req1, device2, None), sh(req2, device3, None), sh(req3, device4, None))])
case("with-distinct-constraints-attribute-not-set", features=CC,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(boolAttribute, [req0])), deviceRequest(req0, classA, 1))], classes=A,
     slices=tt(withAllowMultipleAllocations(device(device1))), node=N1, results=[])
case("with-distinct-constraints-unknown-type-attribute", features=CC,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(boolAttribute, [req0])), deviceRequest(req0, classA, 1))], classes=A,
     slices=tt(md(device1, {"boolAttribute": {}})), node=N1, error="unsupported attribute value")
bsel = sel(f'device.attributes["{driverA}"].boolAttribute')
pl3 = [requestWithPrioritizedList(r, subRequest(subReq0, classA, 1, bsel), subRequest(subReq1, classA, 1)) for r in (req0, req1, req2)]
case("with-distinct-constraints-with-subrequests", features=CC + PL,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(boolAttribute, [req0, req1])), *pl3)], classes=A,
     slices=tt(md(device1, {"boolAttribute": B(True)}), md(device2, {"boolAttribute": B(False)})), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0SubReq0, device1, None), sh(req1SubReq1, device2, None), sh(req2SubReq0, device1, None))])
case("distinct-constraint-one-multi-allocatable-device-with-distinct-constraint", features=CC,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(stringAttribute)), withCapacityRequest(deviceRequest(req0, classA, 1), one), withCapacityRequest(deviceRequest(req1, classA, 1), one))],
     classes=CA, slices=tt(withCapacityRequestPolicyRange(md(device1, {"stringAttribute": S("stringAttributeValue")}), {capacity0: two})), node=N1, results=[])
