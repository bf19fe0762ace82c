from emit import *
from part2 import S, N1, A
from part10 import lt, SS, LT, CC
lt("list-attributes-distinct-constraint-list-of-string-values-with-common-elements", stringAttribute, SS("value1", "value2", "value3"), SS("value2", "value4", "value5"), distinct=True, features=LT + CC)
lt("list-attributes-distinct-constraint-mixed-scalar-and-list-all-distinct", stringAttribute, S("value1"), SS("value1", "value2"), c=SS("value2", "value3"), distinct=True, features=LT + CC, want=[device1, device3])
lt("list-attributes-distinct-constraint-mixed-scalar-and-list-with-common-elements", stringAttribute, S("value1"), SS("value1", "value2"), distinct=True, features=LT + CC)
lt("list-attributes-distinct-constraint-list-of-int-values-all-distinct", intAttribute, {"ints": [0, 1]}, {"ints": [1, 2]}, c={"ints": [2, 3]}, distinct=True, features=LT + CC, want=[device1, device3])
lt("list-attributes-distinct-constraint-list-of-bool-values-all-distinct", boolAttribute, {"bools": [True]}, {"bools": [True, False]}, c={"bools": [False]}, distinct=True, features=LT + CC, want=[device1, device3])
lt("list-attributes-distinct-constraint-list-of-version-values-all-distinct", versionAttribute, {"versions": ["1.0.0", "1.1.0"]}, {"versions": ["1.1.0", "2.0.0"]}, c={"versions": ["2.0.0", "2.1.0"]}, distinct=True, features=LT + CC, want=[device1, device3])
lt("list-attributes-distinct-constaint-with-empty-or-unknown-type", versionAttribute, {"versions": []}, {}, distinct=True, features=LT + CC, error="unsupported attribute value")
lt("list-attributes-disabled-distinct-constraint-with-lists", stringAttribute, SS("value1", "value2", "value3"), SS("value2", "value3", "value4"), distinct=True, features=CC)  # 3d036712930c: lists reach CEL whatever the gate (compile.go getAttributeValue, PR 139395); the scalar constraint finds no scalar value
case("allocation-mode-all-with-multi-host-resource-pool", claims=[claimWithRequests(claim0, None, allDeviceRequest(req0, classA))], classes=A,
     slices=[sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1)), sliceWithDevices(slice2, node2, resourcePool(pool1, 2), driverA, device(device2))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))])
def gs(name, node_name, dev, gen):
    s = sliceWithDevices(name, node_name, pool1, driverA, device(dev))
    s["spec"]["pool"]["generation"] = gen
    s["spec"]["pool"]["resourceSliceCount"] = 2
    return s
case("multi-host-resource-pool-with-stale-slice-for-current-node", claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[gs(slice1, node1, device1, 1), gs(slice2, node2, device2, 2)], node=N1)
RN = "slices sharing a name upstream are suffixed -b here"
case("multi-host-resource-pool-complete-update-from-node-1-to-node-2", claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[gs(slice1, node1, device1, 1), gs(slice1 + "-b", node1, device2, 1), gs(slice2, node2, device1, 2), gs(slice2 + "-b", node2, device2, 2)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))], note=RN)
case("multi-host-resource-pool-complete-update-from-node-2-to-node-1", claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[gs(slice1, node2, device1, 1), gs(slice1 + "-b", node2, device2, 1), gs(slice2, node1, device1, 2), gs(slice2 + "-b", node1, device2, 2)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))], note=RN)
case("multi-host-resource-pool-incomplete-update-from-node-1-to-node-2", claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[gs(slice1, node1, device1, 1), gs(slice1 + "-b", node1, device2, 1), gs(slice2, node2, device1, 2)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1))], note=RN)
case("multi-host-resource-pool-incomplete-update-from-node-2-to-node-1", claims=[claimWithRequest(claim0, req0, classA)], classes=A,
     slices=[gs(slice1, node2, device1, 1), gs(slice1 + "-b", node2, device2, 1), gs(slice2, node1, device1, 2)], node=N1, note=RN)
