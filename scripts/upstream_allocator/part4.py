from emit import *
from part2 import memsel, V, I, S, B, N1, A, AB, one_dev, cfg
from part3 import dcc, mem, P2
PL = ["PrioritizedList"]; PD = ["PartitionableDevices"]; DT = ["DeviceTaints"]
two_fc = lambda a, b: sliceWithDevices(slice1, node1, pool1, driverA, dcc(device(device1, fromCounters), mem(a)), dcc(device(device2, fromCounters), mem(b)))
case("partitionable-devices-no-capacity-available", features=PD, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[two_fc("4Gi", "16Gi"), sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, {"memory": "18Gi"}))],
     allocated=[MakeDeviceID(driverA, pool1, device2)], node=N1)
case("partitionable-devices-overallocated-capacity-pool", features=PD, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[two_fc("4Gi", "20Gi"), sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, {"memory": "18Gi"}))],
     allocated=[MakeDeviceID(driverA, pool1, device2)], node=N1)
case("partitionable-devices-disabled-device-consumes-counters", features=[], claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, dcc(device(device1), mem("4Gi"))), sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, {"memory": "18Gi"}))],
     node=N1)
case("partitionable-devices-disabled-other-device-do-not-consume-counters", features=[], claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, dcc(device(device1), mem("4Gi")), device(device2)),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "18Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2))])
case("partitionable-devices-disabled-per-device-node-selection", features=[], claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, nodeSelectionPerDevice, pool1, driverA, withNodeSelection(device(device2), node1))], node=N1)
case("partitionable-devices-per-device-node-selection-nodename", features=PD + PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memsel("6Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))))], classes=A,
     slices=[sliceWithDevices(slice1, nodeSelectionPerDevice, P2, driverA,
                              withNodeSelection(dcc(device(device1, fromCounters), mem("4Gi")), node1),
                              withNodeSelection(dcc(device(device2, fromCounters), mem("6Gi")), node2)),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, P2, driverA, counterSet(counterSet1, {"memory": "18Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
case("partitionable-devices-per-device-node-selection-node-selector", features=PD + PL,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, nodeSelectionPerDevice, P2, driverA, withNodeSelection(dcc(device(device1, fromCounters), mem("4Gi")), nodeLabelSelector(regionKey, region1))),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, P2, driverA, counterSet(counterSet1, {"memory": "18Gi"}))], node=N1,
     results=[allocationResult(nodeLabelSelector(regionKey, region1), deviceAllocationResult(req0, driverA, pool1, device1))])
Q2 = resourcePool(pool2, 2)
m2 = lambda q: (counterSet2, {"memory": q})
case("partitionable-devices-per-device-node-selection-node-selector-multiple-devices", features=PD + PL,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 3), request(req1, classB, 3))], classes=AB,
     slices=[sliceWithDevices(slice1, nodeSelectionPerDevice, P2, driverA,
                              withNodeSelection(dcc(device(device1, fromCounters), mem("4Gi")), nodeLabelSelector(regionKey, region1)),
                              withNodeSelection(dcc(device(device2, fromCounters), mem("4Gi")), node1),
                              withNodeSelection(dcc(device(device3, fromCounters), mem("4Gi")), nodeSelectionAll)),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, P2, driverA, counterSet(counterSet1, {"memory": "18Gi"})),
             sliceWithDevices(slice3, node1, Q2, driverB, dcc(device(device1, fromCounters), m2("4Gi")), dcc(device(device2, fromCounters), m2("4Gi")), dcc(device(device3, fromCounters), m2("4Gi"))),
             sliceWithCounterSets(slice4, node1, Q2, driverB, counterSet(counterSet2, {"memory": "12Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool1, device2), deviceAllocationResult(req0, driverA, pool1, device3),
        deviceAllocationResult(req1, driverB, pool2, device1), deviceAllocationResult(req1, driverB, pool2, device2), deviceAllocationResult(req1, driverB, pool2, device3))])
tt = lambda *ds: [sliceWithDevices(slice1, node1, pool1, driverA, *ds)]
case("tainted-two-devices", features=DT, claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule), withTaints(device(device2), taintNoExecute)), node=N1)
case("tainted-one-device-two-taints", features=DT, claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule, taintNoExecute)), node=N1)
case("tainted-two-devices-tolerated", features=DT, claims=[withTolerations(claimWithRequest(claim0, req0, classA), tolerationNoExecute)], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule), withTaints(device(device2), taintNoExecute)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, False, tolerationNoExecute))])
case("tainted-two-devices-prioritized-list-tolerated", features=DT + PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1, tolerationNoExecute)))], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule), withTaints(device(device2), taintNoExecute)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2, False, tolerationNoExecute))])
case("tainted-no-effect", features=DT, claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=tt(withTaints(device(device1), taintNone)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("tainted-one-device-two-taints-both-tolerated", features=DT, claims=[withTolerations(claimWithRequest(claim0, req0, classA), tolerationNoSchedule, tolerationNoExecute)], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule, taintNoExecute)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, False, tolerationNoSchedule, tolerationNoExecute))])
case("tainted-disabled", features=[], claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule, taintNoExecute)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("tainted-prioritized-list", features=DT + PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)))], classes=AB,
     slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1)
