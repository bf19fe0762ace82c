from emit import *
from part2 import memsel, V, I, S, B, N1, A, AB, one_dev, cfg
PL = ["PrioritizedList"]; CC = ["ConsumableCapacity"]; DB = ["DeviceBindingAndStatus"]
CA = [classWithAllowMultipleAllocations(classA, driverA, True)]
tt = lambda *ds: [sliceWithDevices(slice1, node1, pool1, driverA, *ds)]
case("consumable-capacity-disabled-feature-with-prioritized-list", features=PL + DB,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, withCapacityRequest(subRequest(subReq0, classA, 1), one), withCapacityRequest(subRequest(subReq1, classA, 1), one)))],
     classes=A, slices=one_dev, node=N1,
     error="claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled")
case("consumable-capacity-multi-allocatable-device-with-missing-capacity-request", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], classes=A,
     slices=tt(withAllowMultipleAllocations(device(device1, {capacity1: one}))), node=N1, results=[])
case("consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(allDeviceRequest(req0, classA), one))], classes=CA,
     slices=tt(withAllowMultipleAllocations(device(device1, {capacity1: one}))), node=N1, results=[])
two_claims = lambda r0, r1=None: [withRequests(claim(claim0), r0), withRequests(claim(claim1), r1 if r1 is not None else r0)]
shared = lambda dev, consumed: withConsumedCapacity(deviceRequestAllocationResult(req0, driverA, pool1, dev), fixedShareID, consumed)
case("consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request", features=CC,
     claims=two_claims(deviceRequest(req0, classA, 1)), classes=CA, slices=tt(withAllowMultipleAllocations(device(device1))), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, None)), allocationResult(localNodeSelector(node1), shared(device1, None))])
case("consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request", features=CC,
     claims=two_claims(deviceRequest(req0, classA, 1)), classes=CA,
     slices=tt(withAllowMultipleAllocations(device(device1, {capacity0: one})), withAllowMultipleAllocations(device(device2, {capacity0: one}))), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: one})), allocationResult(localNodeSelector(node1), shared(device2, {capacity0: one}))])
case("consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block", features=CC,
     claims=two_claims(deviceRequest(req0, classA, 1)), classes=CA, slices=tt(withAllowMultipleAllocations(device(device1, {capacity0: two}))), node=N1, results=[])
case("consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request", features=CC,
     claims=two_claims(withCapacityRequest(deviceRequest(req0, classA, 1), one)), classes=CA, slices=tt(withAllowMultipleAllocations(device(device1, {capacity0: two}))), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: one})), allocationResult(localNodeSelector(node1), shared(device1, {capacity0: one}))])
rng = lambda cap: withCapacityRequestPolicyRange(withAllowMultipleAllocations(device(device1)), {capacity0: cap})
vv = lambda default, cap, extra: withCapacityRequestPolicyValidValues(withAllowMultipleAllocations(device(device1)), default, {capacity0: cap}, extra)
case("consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request", features=CC,
     claims=two_claims(request(req0, classA, 1)), classes=CA, slices=tt(rng(four)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two})), allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two}))])
case("consumable-capacity-multi-allocatable-device-with-zero-request-policy", features=CC,
     claims=two_claims(request(req0, classA, 1)), classes=CA, slices=tt(vv(zero, one, None)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: zero})), allocationResult(localNodeSelector(node1), shared(device1, {capacity0: zero}))])
case("consumable-capacity-multi-allocatable-device-violates-zero-request-policy", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), one))], classes=CA, slices=tt(vv(zero, one, None)), node=N1, results=[])
case("consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request", features=CC,
     claims=two_claims(withCapacityRequest(deviceRequest(req0, classA, 1), one)), classes=CA, slices=tt(rng(four)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two})), allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two}))])
case("consumable-capacity-multi-allocatable-device-with-range-policy-step", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), three))], classes=CA, slices=tt(rng(four)), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: four}))])
case("consumable-capacity-multi-allocatable-device-with-valid-values-policy", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), two))], classes=CA, slices=tt(vv(one, four, [two])), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: two}))])
case("consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), two))], classes=CA, slices=tt(vv(one, three, [three])), node=N1,
     results=[allocationResult(localNodeSelector(node1), shared(device1, {capacity0: three}))])
case("consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request", features=CC,
     claims=two_claims(withCapacityRequest(deviceRequest(req0, classA, 1), one), withCapacityRequest(deviceRequest(req0, classA, 1), two)), classes=CA, slices=tt(rng(two)), node=N1, results=[])
case("consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy", features=CC,
     claims=[withRequests(claim(claim0), withCapacityRequest(deviceRequest(req0, classA, 1), "6"))], classes=CA, slices=tt(rng("10")), node=N1, results=[])
