# Scenarios upstream added between the transcribed commit (kubernetes
# 008b3652959c) and dynamic-resource-allocation 3d036712930c, the 1.37 line
# the generated cases ran; the config ones are in part2.py beside their
# neighbours.
from emit import *
from part2 import S, N1, A
from part3 import dcc, mem
PD = ["PartitionableDevices"]; CC = ["ConsumableCapacity"]
P = lambda n, c: resourcePool(n, c)
# 99b4162 "DRA: fix AllocationModeAll with consumed counters".
case("all-devices-with-consumed-counters", features=PD,
     claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, dcc(device(device1), mem("4Gi"))),
             sliceWithCounterSets(slice2, node1, P(pool1, 2), driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
# 89c46e8 "DRA: account for shared devices when rebuilding counters".
case("allow-multiple-allocations-with-shared-device-counter-cross-cycle", features=PD + CC,
     claims=[withRequests(claim(claim0), withSelectors(withCapacityRequest(deviceRequest(req0, classA, 1), one),
                                                       sel(f'device.attributes["{driverA}"].mode == "b"')))],
     allocated_capacity=[MakeDeviceID(driverA, pool1, device1) + ({capacity0: one},)],
     classes=[classWithAllowMultipleAllocations(classA, driverA, True)],
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA,
                              withAllowMultipleAllocations(dcc(device(device1, fromCounters, {"mode": S("a")}), (counterSet1, {capacity0: one}))),
                              withAllowMultipleAllocations(dcc(device(device2, fromCounters, {"mode": S("b")}), (counterSet1, {capacity0: one})))),
             sliceWithCounterSets(slice2, node1, P(pool1, 2), driverA, counterSet(counterSet1, {capacity0: one}))], node=N1,
     results=[], note="upstream's allocatedSharedDeviceIDs and allocatedCapacityDevices name the same share of device-1: one allocated claim here")
# 98209ff "remove shared counters check".
case("partitionable-devices-devices-consume-counter-set-in-different-nodes", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithCounterSets(slice1, node1, P(pool1, 3), driverA, counterSet(counterSet1, {"memory": "8Gi"})),
             sliceWithDevices(slice2, node1, P(pool1, 3), driverA, dcc(device(device1, fromCounters), mem("6Gi"))),
             sliceWithDevices(slice3, node2, P(pool1, 3), driverA, dcc(device(device2, fromCounters), mem("6Gi")), dcc(device(device3, fromCounters), mem("2Gi")))],
     allocated=[MakeDeviceID(driverA, pool1, device1)], node=node(node2, region1),
     results=[allocationResult(localNodeSelector(node2), deviceAllocationResult(req0, driverA, pool1, device3))])
