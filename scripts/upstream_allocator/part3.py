from emit import *
from part2 import memsel, V, I, S, B, N1, A, AB, one_dev, cfg
PL = ["PrioritizedList"]; PD = ["PartitionableDevices"]
case("prioritized-list-with-backtracking", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memsel("8Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))),
                          withSelectors(deviceRequest(req1, classA, 1), memsel("8Gi")))],
     classes=A, slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, {"memory": "8Gi"})),
                        sliceWithDevices(slice2, node1, pool2, driverA, device(device2, {"memory": "4Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool2, device2), deviceAllocationResult(req1, driverA, pool1, device1))])
case("prioritized-list-too-many-in-first-subrequest", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classB, 500), subRequest(subReq1, classA, 1)))],
     classes=AB, slices=one_dev, node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
def dcc(d, *sets):
    return withDeviceCounterConsumption(d, *[deviceCounterConsumption(n, c) for n, c in sets])
P2 = resourcePool(pool1, 2)
case("partitionable-devices-single-device", features=PD, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, dcc(device(device1), (counterSet1, {"memory": "4Gi"}))),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
three = lambda a, b, c: [sliceWithDevices(slice1, node1, P2, driverA, dcc(device(device1, fromCounters), *a), dcc(device(device2, fromCounters), *b), dcc(device(device3, fromCounters), *c))]
mem = lambda q: (counterSet1, {"memory": q})
case("partitionable-devices-prioritized-list", features=PL + PD,
     claims=[withRequests(claim(claim0), deviceRequest(req0, classA, 1), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memsel("6Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))))],
     classes=A, slices=three([mem("4Gi")], [mem("6Gi")], [mem("4Gi")]) + [sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool1, device3))])
case("partitionable-devices-multiple-devices", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1))],
     classes=A, slices=three([mem("4Gi")], [mem("6Gi")], [mem("4Gi")]) + [sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1, driverA, pool1, device3))])
cpu = lambda q: (counterSet2, {"cpus": q})
case("partitionable-devices-multiple-capacity-pools", features=PL + PD,
     claims=[withRequests(claim(claim0), deviceRequest(req0, classA, 1), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memsel("6Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))))],
     classes=A, slices=three([mem("4Gi"), cpu("4")], [mem("6Gi"), cpu("6")], [mem("4Gi"), cpu("4")]) +
        [sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "18Gi"}), counterSet(counterSet2, {"cpus": "8"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool1, device3))])
case("partitionable-devices-multiple-counters", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1))],
     classes=A, slices=three([(counterSet1, {"memory": "4Gi", "cpus": "6"}), (counterSet2, {"cpus": "4", "memory": "2Gi"})],
                             [(counterSet1, {"memory": "6Gi", "cpus": "4"}), (counterSet2, {"cpus": "6", "memory": "6Gi"})],
                             [(counterSet1, {"memory": "4Gi", "cpus": "4"}), (counterSet2, {"cpus": "4", "memory": "4Gi"})]) +
        [sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"cpus": "8", "memory": "18Gi"}), counterSet(counterSet2, {"cpus": "12", "memory": "18Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2), deviceAllocationResult(req1, driverA, pool1, device3))])
Q2 = resourcePool(pool2, 2)
case("partitionable-devices-multiple-pools", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1))],
     classes=A, slices=three([(counterSet1, {"cpus": "6", "memory": "4Gi"})], [(counterSet1, {"cpus": "4", "memory": "6Gi"})], [(counterSet1, {"cpus": "4", "memory": "4Gi"})]) +
        [sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"cpus": "8", "memory": "18Gi"})),
         sliceWithDevices(slice3, node1, Q2, driverA, dcc(device(device1, fromCounters), (counterSet1, {"cpus": "6", "memory": "4Gi"})),
                          dcc(device(device2, fromCounters), (counterSet1, {"cpus": "1", "memory": "7Gi"})), dcc(device(device3, fromCounters), (counterSet1, {"cpus": "1", "memory": "7Gi"}))),
         sliceWithCounterSets(slice4, node1, Q2, driverA, counterSet(counterSet1, {"cpus": "8", "memory": "18Gi"}))],
     allocated=[MakeDeviceID(driverA, pool1, device2), MakeDeviceID(driverA, pool1, device3), MakeDeviceID(driverA, pool2, device1)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool2, device2), deviceAllocationResult(req1, driverA, pool2, device3))])
case("partitionable-devices-unused-counters-in-counter-set", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 2))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA, dcc(device(device1), mem("5Gi")), dcc(device(device2), mem("4Gi")), dcc(device(device3), mem("4Gi"))),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"memory": "8Gi", "unused": "1Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2), deviceAllocationResult(req0, driverA, pool1, device3))])
