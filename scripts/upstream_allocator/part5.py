from emit import *
from part2 import memsel, V, I, S, B, N1, A, AB, one_dev, cfg
from part3 import dcc, mem, P2
PL = ["PrioritizedList"]; PD = ["PartitionableDevices"]; DT = ["DeviceTaints"]; AA = ["AdminAccess"]
tt = lambda *ds: [sliceWithDevices(slice1, node1, pool1, driverA, *ds)]
case("tainted-prioritized-list-disabled", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)))], classes=AB,
     slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
c = claimWithRequest(claim0, req0, classA); exactly(c)["adminAccess"] = True
case("tainted-admin-access", features=DT + AA, claims=[c], allocated=[MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)],
     classes=A, slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1)
case("tainted-admin-access-disabled", features=AA, claims=[c], allocated=[MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)],
     classes=A, slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True))])
case("tainted-all-devices-single", features=DT, claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1)
case("tainted-all-devices-single-disabled", features=[], claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=A,
     slices=tt(withTaints(device(device1), taintNoSchedule)), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
def allsub(name, *sels):
    s = withAllocationMode(subRequest(name, classA, 0, *sels), "All"); del s["count"]; return s
case("prioritized-list-allocation-mode-all", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, allsub(subReq0), subRequest(subReq1, classA, 1)))], classes=A,
     slices=tt(device(device1), device(device2)), allocated=[MakeDeviceID(driverA, pool1, device2)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
gen = lambda v: sel(f'device.attributes["{driverA}"].generation == "{v}"')
plall = lambda: withRequests(claim(claim0), requestWithPrioritizedList(req0, allsub(subReq0, gen("v6")), allsub(subReq1, gen("v5"))))
case("prioritized-list-allocation-mode-all-with-selectors", features=PL, claims=[plall()], classes=A,
     slices=tt(device(device1, None, {"generation": S("v5")})), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
case("prioritized-list-allocation-mode-all-with-selectors-multiple-pools", features=PL, claims=[plall()], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, {"generation": S("v5")})),
             sliceWithDevices(slice2, node1, pool2, driverA, device(device1, None, {"generation": S("v5")}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1), deviceAllocationResult(req0SubReq1, driverA, pool2, device1))])
case("prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes", features=PL, claims=[plall()], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, {"generation": S("v5")})),
             sliceWithDevices(slice2, node2, pool2, driverA, device(device1, None, {"generation": S("v5")}), device(device2, None, {"generation": S("v6")}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
k = cls(classA, driverA); k["spec"]["selectors"] = [sel(f'device.driver == "{driverA}" && device.attributes["{driverA}"].selected')]
case("prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset", features=PL, claims=[plall()], classes=[k],
     slices=tt(device(device1, None, {"generation": S("v6"), "selected": B(False)}), device(device2, None, {"generation": S("v5"), "selected": B(False)}),
               device(device3, None, {"generation": S("v5"), "selected": B(True)})), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device3))])
case("max-number-devices", claims=[claimWithRequests(claim0, None, request(req0, classA, 32))], classes=A,
     slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 32)], node=N1,
     results=[allocationResult(localNodeSelector(node1), *multipleDeviceAllocationResults(req0, driverA, pool1, 32, 0))])
case("partitionable-devices-with-attribute-selector", features=PD,
     claims=[claimWithRequests(claim0, None, request(req0, classA, 2), request(req1, classA, 1, sel(f'device.attributes["{driverA}"].special')))], classes=A,
     slices=[sliceWithDevices(slice1, node1, P2, driverA,
                              dcc(device(device1, None, {"special": B(True)}), (counterSet1, {"cpu1": "1"}), (counterSet2, {"mem": "10Gi"})),
                              dcc(device(device2, None, {"special": B(False)}), (counterSet1, {"cpu2": "1"}), (counterSet2, {"mem": "10Gi"})),
                              dcc(device(device3, None, {"special": B(False)}), (counterSet1, {"cpu3": "1"}), (counterSet2, {"mem": "10Gi"}))),
             sliceWithCounterSets(slice2, node1, P2, driverA, counterSet(counterSet1, {"cpu1": "1", "cpu2": "1", "cpu3": "1"}), counterSet(counterSet2, {"mem": "30Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2), deviceAllocationResult(req0, driverA, pool1, device3),
                               deviceAllocationResult(req1, driverA, pool1, device1))])
case("prioritized-list-max-allocation-limit-request", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 32), subRequest(subReq1, classA, 16)),
                          requestWithPrioritizedList(req1, subRequest(subReq0, classA, 32), subRequest(subReq1, classA, 16)))], classes=A,
     slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 64)], node=N1,
     results=[allocationResult(localNodeSelector(node1), *(multipleDeviceAllocationResults(req0SubReq1, driverA, pool1, 16, 0) + multipleDeviceAllocationResults(req1SubReq1, driverA, pool1, 16, 16)))])
