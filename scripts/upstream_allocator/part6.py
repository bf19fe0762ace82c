from emit import *
from part2 import memsel, V, I, S, B, N1, A, AB, one_dev, cfg
from part3 import dcc, mem, P2
PL = ["PrioritizedList"]; PD = ["PartitionableDevices"]; DT = ["DeviceTaints"]; AA = ["AdminAccess"]; DB = ["DeviceBindingAndStatus"]
from part5 import allsub
case("prioritized-list-max-allocation-allocation-mode-all", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, allsub(subReq0), subRequest(subReq1, classA, 2)), deviceRequest(req1, classB, 2))], classes=AB,
     slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 31), sliceWithMultipleDevices(slice2, node1, pool2, driverB, 2)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, "device-0"), deviceAllocationResult(req0SubReq1, driverA, pool1, "device-1"),
                               deviceAllocationResult(req1, driverB, pool2, "device-0"), deviceAllocationResult(req1, driverB, pool2, "device-1"))])
bc = lambda d, c, f: withBindingConditions(d, c, f)
BR = deviceRequestAllocationResultWithBindingConditions
case("device-binding-conditions", features=DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, bc(device(device1), ["IsPrepare"], ["BindingFailed"]))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]))])
case("binding-conditions-multiple-devices", features=DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 2), request(req1, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, bc(device(device1), ["IsPrepare"], ["BindingFailed"]), bc(device(device2), ["IsPrepare2"], ["BindingFailed2"]),
                              bc(device(device3), ["IsPrepare3"], ["BindingFailed3"]))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]), BR(req0, driverA, pool1, device2, ["IsPrepare2"], ["BindingFailed2"]),
                               BR(req1, driverA, pool1, device3, ["IsPrepare3"], ["BindingFailed3"]))])
case("binding-conditions-with-and-without", features=DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1), bc(device(device2), ["IsPrepare"], ["BindingFailed"]))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), BR(req1, driverA, pool1, device2, ["IsPrepare"], ["BindingFailed"]))])
case("binding-conditions-without-feature-gate", features=[], claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, bc(device(device1), ["IsPrepare"], ["BindingFailed"]))], node=N1)
case("node-restriction", features=DB, claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[sliceWithDevices(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool1, driverA, withBindsToNode(device(device1), True))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("partitionable-devices-with-binding-conditions", features=PD + DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, bc(dcc(device(device1, fromCounters), mem("4Gi")), ["IsPrepare"], ["BindingFailed"])),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]))])
case("partitionable-devices-with-binding-conditions-multiple", features=PD + DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, bc(dcc(device(device1, fromCounters), mem("4Gi")), ["IsPrepare"], ["BindingFailed"]),
                              bc(dcc(device(device2, fromCounters), mem("4Gi")), ["IsPrepare2"], ["BindingFailed2"])),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]), BR(req0, driverA, pool1, device2, ["IsPrepare2"], ["BindingFailed2"]))])
case("partitionable-devices-with-binding-conditions-some-devices-no-conditions", features=PD + DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 3))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, bc(dcc(device(device1, fromCounters), mem("2Gi")), ["IsPrepare"], ["BindingFailed"]),
                              dcc(device(device2, fromCounters), mem("2Gi")), bc(dcc(device(device3, fromCounters), mem("4Gi")), ["IsReady"], ["BindingTimeout"])),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]), BR(req0, driverA, pool1, device2, None, None),
                               BR(req0, driverA, pool1, device3, ["IsReady"], ["BindingTimeout"]))])
P4 = resourcePool(pool1, 4)
case("partitionable-devices-with-binding-conditions-multi-slices", features=PD + DB, claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=A,
     slices=[sliceWithDevices(slice4, node1, P4, driverA, bc(dcc(device(device1, fromCounters), mem("4Gi")), ["IsPrepare"], ["BindingFailed"])),
             sliceWithCounterSets(slice3, node1, P4, driverA, counterSet(counterSet1, {"memory": "8Gi"})),
             sliceWithDevices(slice2, node1, P4, driverA, dcc(device(device2, fromCounters), (counterSet2, {"memory": "4Gi"}))),
             sliceWithCounterSets(slice1, node1, P4, driverA, counterSet(counterSet2, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device2, None, None), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]))])
key1 = {"key": "key1", "value": "value1", "effect": "NoSchedule"}
case("partitionable-devices-with-binding-conditions-and-taints", features=PD + DB + DT, claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, withTaints(bc(dcc(device(device1, fromCounters), mem("4Gi")), ["IsPrepare"], ["BindingFailed"]), key1),
                              dcc(device(device2, fromCounters), mem("4Gi"))),
             sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1)
case("partitionable-devices-with-binding-conditions-and-taints-tolerated", features=PD + DB + DT,
     claims=[withTolerations(claimWithRequests(claim0, None, request(req0, classA, 2)), tolerationNoScheduleKey1)], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, withTaints(bc(dcc(device(device1, fromCounters), mem("4Gi")), ["IsPrepare"], ["BindingFailed"]), key1),
                              dcc(device(device2, fromCounters), mem("4Gi"))),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), BR(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"], tolerationNoScheduleKey1),
                               BR(req0, driverA, pool1, device2, None, None, tolerationNoScheduleKey1))])
case("consumable-capacity-disabled-feature", features=DB, claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], classes=A,
     slices=[sliceWithOneDevice(slice1, node1, pool1, driverA)], node=N1,
     error="claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled")
