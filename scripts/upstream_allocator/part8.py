from emit import *
from part2 import S, N1, A
from part7 import CA, tt, shared, two_claims, rng
PL = ["PrioritizedList"]; CC = ["ConsumableCapacity"]
D1 = MakeDeviceID(driverA, pool1, device1)
case("consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), two))],
     allocated_capacity=[D1 + ({capacity0: two},)], classes=CA, slices=tt(rng(four)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two}))])
rng_dev = lambda name, cap, attrs=None: withCapacityRequestPolicyRange(withAllowMultipleAllocations(device(name, None, attrs)), {capacity0: cap})
case("consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), two))],
     allocated_capacity=[D1 + ({capacity0: two},)], classes=CA, slices=tt(rng_dev(device1, two), rng_dev(device2, two)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device2, {capacity0: two}))])
c0 = withRequests(withConstraints(claim(claim0), matchAttribute(stringAttribute)),
                  withCapacityRequest(deviceRequest(req0, classA, 1), two), withCapacityRequest(deviceRequest(req1, classA, 1), two))
c1 = withRequests(claim(claim1), withCapacityRequest(deviceRequest(req0, classA, 1), two))
sh = lambda req, dev, consumed: withConsumedCapacity(deviceRequestAllocationResult(req, driverA, pool1, dev), fixedShareID, consumed)
case("consumable-capacity-with-multi-allocatable-device-backtrack", features=CC, claims=[c0, c1], classes=A,
     slices=tt(rng_dev(device2, two, {"stringAttribute": S("stringAttributeValue1")}), rng_dev(device1, four, {"stringAttribute": S("stringAttributeValue2")})), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: two}), sh(req1, device1, {capacity0: two})),
              allocationResult(localNodeSelector(node1), sh(req0, device2, {capacity0: two}))])
case("consumable-capacity-multi-allocatable-device-with-subrequest", features=CC + PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, withCapacityRequest(subRequest(subReq0, classA, 1), four),
                                                                   withCapacityRequest(subRequest(subReq1, classA, 1), two), subRequest(subReq1, classA, 1)))],
     classes=CA, slices=tt(rng_dev(device1, two)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0SubReq1, device1, {capacity0: two}))],
     note="upstream names two subrequests subReq-1; kept")
case("consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), two))],
     allocated_capacity=[D1 + ({capacity0: two},)], classes=CA, slices=tt(rng_dev(device1, two)), node=N1, results=[])
multi = lambda name, cap=None: withAllowMultipleAllocations(device(name, {capacity0: cap} if cap else None))
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(allDeviceRequest(req0, classA), two))], classes=CA,
     slices=tt(multi(device1, two), multi(device2)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: two}))])
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(allDeviceRequest(req0, classA), two))], classes=CA,
     slices=tt(multi(device1, two), multi(device2, one)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: two}))])
both = lambda: withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one), withCapacityRequest(allDeviceRequest(req1, classA), one))
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient", features=CC, claims=[both()], classes=A,
     slices=tt(multi(device1, two), multi(device2, one)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: one}), sh(req1, device1, {capacity0: one}), sh(req1, device2, {capacity0: one}))])
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(allDeviceRequest(req0, classA), one))], allocated_capacity=[D1 + ({capacity0: one},)], classes=A,
     slices=tt(multi(device1, two), multi(device2, one)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: one}), sh(req0, device2, {capacity0: one}))])
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient", features=CC, claims=[both()], classes=A,
     slices=tt(multi(device1, one), multi(device2, one)), node=N1, results=[])
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(allDeviceRequest(req0, classA), one))], allocated_capacity=[D1 + ({capacity0: one},)], classes=A,
     slices=tt(multi(device1, one), multi(device2, one)), node=N1,
     results=[allocationResult(localNodeSelector(node1), sh(req0, device2, {capacity0: one}))])
CF = [classWithAllowMultipleAllocations(classA, driverA, False)]
case("consumable-capacity-dedicated-device-with-consumable-capacity-request", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], classes=CF,
     slices=tt(device(device1, {capacity0: one})), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
case("consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request", features=CC,
     claims=two_claims(withCapacityRequest(deviceRequest(req0, classA, 1), one)), classes=CF,
     slices=tt(withCapacityRequestPolicyRange(device(device1), {capacity0: two})), node=N1, results=[])
case("allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], classes=CF,
     slices=tt(multi(device1, one)), node=N1, results=[])
case("allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], allocated=[D1], classes=CA,
     slices=tt(rng_dev(device1, two)), node=N1, results=[])
case("allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], allocated_capacity=[D1 + ({capacity0: one},)], classes=CA,
     slices=tt(withCapacityRequestPolicyRange(device(device1), {capacity0: two})), node=N1, results=[])
