"""lexicographical_testing.go: the newest allocator's pool and slice order."""
from emit import *
from part2 import N1, A
DB = ["DeviceBindingAndStatus"]
two = lambda: [claimWithRequests(claim0, None, request(req0, classA, 2))]
LX = "lexicographical_testing.go (kubernetes 1.37 line), run by the allocators that sort pools and slices"
case("lexicographical-sorting-pools", claims=two(), classes=A,
     slices=[sliceWithOneDevice(slice1, node1, resourcePool(pool3, 1), driverA), sliceWithOneDevice(slice2, node1, resourcePool(pool2, 1), driverA),
             sliceWithOneDevice(slice3, node1, resourcePool(pool1, 1), driverA)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool2, device1))], note=LX)
case("lexicographical-sorting-pools-with-binding-conditions", features=DB, claims=two(), classes=A,
     slices=[sliceWithDevices(slice1, node1, resourcePool(pool1, 1), driverA, withBindingConditions(device(device1), ["IsPrepare"], ["BindingFailed"])),
             sliceWithDevices(slice3, node1, resourcePool(pool3, 1), driverA, device(device3)), sliceWithDevices(slice2, node1, resourcePool(pool2, 1), driverA, device(device2))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool2, device2), deviceAllocationResult(req0, driverA, pool3, device3))], note=LX)
case("lexicographical-sorting-slices", claims=two(), classes=A,
     slices=[sliceWithDevices(s, node1, resourcePool(pool1, 3), driverA, device(d)) for s, d in ((slice3, device3), (slice2, device2), (slice1, device1))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req0, driverA, pool1, device2))], note=LX)
case("lexicographical-sorting-slices-with-binding-conditions", features=DB, claims=two(), classes=A,
     slices=[sliceWithDevices(slice1, node1, resourcePool(pool1, 3), driverA, withBindingConditions(device(device1), ["IsPrepare"], ["BindingFailed"])),
             sliceWithDevices(slice3, node1, resourcePool(pool1, 3), driverA, device(device3)), sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA, device(device2))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, ["IsPrepare"], ["BindingFailed"]),
                               deviceAllocationResult(req0, driverA, pool1, device2))], note=LX)
