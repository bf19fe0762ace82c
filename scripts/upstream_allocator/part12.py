from emit import *
from part2 import memsel, S, N1, A
from part3 import dcc, mem
PD = ["PartitionableDevices"]; PL = ["PrioritizedList"]; DB = ["DeviceBindingAndStatus"]
INV = "invalid resource pools were encountered"
WHY = "upstream's Allocate returns this error wrapping ErrFailedAllocationOnNode, which kube-scheduler's Filter reports as the node being unschedulable (FORMAT.md: unsatisfiable)"
one_req = lambda: [withRequests(claim(claim0), deviceRequest(req0, classA, 1))]
P = lambda n, c: resourcePool(n, c)
case("partitionable-devices-same-counter-set-name-in-different-resource-slices", features=PD, claims=one_req(), classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 4), driverA, device(device1)), sliceWithCounterSets(slice2, node1, P(pool1, 4), driverA, counterSet(counterSet1, None)),
             sliceWithDevices(slice3, node1, P(pool1, 4), driverA, device(device2)), sliceWithCounterSets(slice4, node1, P(pool1, 4), driverA, counterSet(counterSet1, None))],
     node=N1, reason=INV, note=WHY)
case("partitionable-devices-device-counter-consumption-references-unknown-counter-set", features=PD, claims=one_req(), classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, withDeviceCounterConsumption(device(device1), deviceCounterConsumption(counterSet2, None))),
             sliceWithCounterSets(slice2, node1, P(pool1, 2), driverA, counterSet(counterSet1, None))], node=N1, reason=INV, note=WHY)
case("partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set", features=PD, claims=one_req(), classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, dcc(device(device1), mem("8Gi"))),
             sliceWithCounterSets(slice2, node1, P(pool1, 2), driverA, counterSet(counterSet1, {"other-memory": "8Gi"}))], node=N1, reason=INV, note=WHY)
case("partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool", features=PD, claims=one_req(), classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, dcc(device(device1), mem("8Gi"))),
             sliceWithCounterSets(slice2, node1, pool2, driverA, counterSet(counterSet1, {"memory": "8Gi"}))], node=N1, reason=INV, note=WHY)
case("partitionable-devices-devices-on-different-nodes-consume-same-counter-set", features=PD + PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memsel("6Gi")), subRequest(subReq1, classA, 1, memsel("2Gi"))))], classes=A,
     slices=[sliceWithCounterSets(slice1, node1, P(pool1, 3), driverA, counterSet(counterSet1, {"memory": "8Gi"})),
             sliceWithDevices(slice2, node1, P(pool1, 3), driverA, dcc(device(device1, fromCounters), mem("6Gi")), dcc(device(device2, fromCounters), mem("2Gi"))),
             sliceWithDevices(slice3, node2, P(pool1, 3), driverA, dcc(device(device3), mem("6Gi")))],
     allocated=[MakeDeviceID(driverA, pool1, device3)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2))])
case("partitionable-devices-validation-error-on-non-targeting-slice", features=PD, claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithCounterSets(slice1, node1, P(pool1, 3), driverA, counterSet(counterSet1, {"memory": "8Gi"})),
             sliceWithDevices(slice2, node1, P(pool1, 3), driverA, dcc(device(device1, fromCounters), mem("6Gi"))),
             sliceWithDevices(slice3, node2, P(pool1, 3), driverA, dcc(device(device3), (counterSet2, {"memory": "6Gi"})))], node=N1, reason=INV, note=WHY)
case("different-resourceslices-in-pool-can-target-different-nodes", claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node2, P(pool1, 2), driverA, device(device1)), sliceWithDevices(slice2, node1, P(pool1, 2), driverA, device(device2))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2))])
inv = lambda: [sliceWithDevices(slice1, node1, P(pool1, 2), driverA, device(device1)), sliceWithDevices(slice2, node1, P(pool1, 2), driverA, device(device1)),
               sliceWithDevices(slice3, node1, P(pool2, 1), driverA, device(device2))]
case("invalid-pool-is-ok-if-devices-can-be-allocated-from-other", claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A, slices=inv(), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool2, device2))])
case("invalid-pool-is-error-if-no-other-device-can-be-allocated", claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A, slices=inv(),
     allocated=[MakeDeviceID(driverA, pool2, device2)], node=N1, reason=INV, note=WHY)
case("no-allocation-from-incomplete-pools", claims=[claimWithRequests(claim0, None, request(req0, classA, 1))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, device(device1))], node=N1)
four_dev = lambda: [device(device1), device(device2), device(device3), device(device4)]
five = lambda: [claimWithRequests(claim0, None, request(req0, classA, 5))]
case("check-combinations-within-single-request-single-pool-single-slice", claims=five(), classes=A, slices=[sliceWithDevices(slice1, node1, pool1, driverA, *four_dev())], node=N1)
case("check-combinations-within-single-request-single-pool-multiple-slices", claims=five(), classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, device(device1), device(device2)), sliceWithDevices(slice2, node1, P(pool1, 2), driverA, device(device3), device(device4))], node=N1)
case("check-combinations-within-single-request-multiple-pools-multiple-slices", claims=five(), classes=A,
     slices=[sliceWithDevices(slice1, node1, P(pool1, 2), driverA, device(device1)), sliceWithDevices(slice2, node1, P(pool1, 2), driverA, device(device2)),
             sliceWithDevices(slice3, node1, pool2, driverA, device(device3), device(device4))], node=N1)
case("check-combinations-within-single-request-many-pools", claims=five(), classes=A,
     slices=[sliceWithDevices(s, node1, p, driverA, device(d)) for s, p, d in ((slice1, pool1, device1), (slice2, pool2, device2), (slice3, pool3, device3), (slice4, pool4, device4))], node=N1)
typ = lambda v: {"type": S(v)}
xsel = sel(f'device.attributes["{driverA}"].type == "X"')
case("check-combinations-with-backtracking", claims=[claimWithRequests(claim0, None, request(req1, classA, 2), request(req2, classA, 1, xsel))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, typ("X")), device(device2, None, typ("Y")), device(device3, None, typ("Y")))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2), deviceAllocationResult(req1, driverA, pool1, device3),
                               deviceAllocationResult(req2, driverA, pool1, device1))])
