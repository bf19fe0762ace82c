from emit import *
from part2 import S, N1, A
from part12 import typ, xsel
PL = ["PrioritizedList"]; DB = ["DeviceBindingAndStatus"]
case("check-combinations-with-backtracking-across-slices-and-pools", features=DB,
     claims=[claimWithRequests(claim0, None, request(req1, classA, 2), request(req2, classA, 1, xsel))], classes=A,
     slices=[sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, None, typ("X"))),
             sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, None, typ("Y"))),
             sliceWithDevices(slice3, node1, pool2, driverA, withBindingConditions(device(device3, None, typ("Y")), ["IsPrepare"], []))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2),
                               deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool2, device3, ["IsPrepare"], []),
                               deviceAllocationResult(req2, driverA, pool1, device1))])
ysel = sel(f'device.attributes["{driverA}"].type == "Y"')
case("check-combinations-with-prioritized-list", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 3, ysel), subRequest(subReq1, classA, 2)),
                          requestWithPrioritizedList(req2, subRequest(subReq0, classA, 2), subRequest(subReq1, classA, 1, xsel)))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, typ("X")), device(device2, None, typ("Y")), device(device3, None, typ("Y")))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req1SubReq1, driverA, pool1, device2), deviceAllocationResult(req1SubReq1, driverA, pool1, device3),
                               deviceAllocationResult(req2SubReq1, driverA, pool1, device1))])
skip("interrupt", "a context deadline or cancellation during Allocate; the CLI has no such input (its own deadline is --timeout)")
