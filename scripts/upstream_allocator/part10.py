from emit import *
from part2 import S, I, B, V, N1, A
from part7 import tt
from part9 import md, sh
CC = ["ConsumableCapacity"]; LT = ["ListTypeAttributes"]
case("distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint", features=CC,
     claims=[withRequests(withConstraints(claim(claim0), distinctAttribute(stringAttribute)), withCapacityRequest(deviceRequest(req0, classA, 1), two), withCapacityRequest(deviceRequest(req1, classA, 1), two))],
     classes=[classWithAllowMultipleAllocations(classA, driverA, True)],
     slices=[sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, withCapacityRequestPolicyRange(md(device1, {"stringAttribute": S("stringAttributeValue1")}), {capacity0: four})),
             sliceWithDevices(slice1 + "-b", node1, resourcePool(pool1, 2), driverA, withCapacityRequestPolicyRange(md(device2, {"stringAttribute": S("stringAttributeValue2")}), {capacity0: four}))],
     node=N1, results=[allocationResult(localNodeSelector(node1), sh(req0, device1, {capacity0: two}), sh(req1, device2, {capacity0: two}))],
     note="both slices are named slice-1 upstream; the second is slice-1-b here")
SS = lambda *v: {"strings": list(v)}
def lt(name, attr, a, b, count=2, want=None, c=None, distinct=False, features=LT, error=None, reqs=None):
    cons = [distinctAttribute(attr) if distinct else matchAttribute(attr)]
    devs = [device(device1, None, {attr.split("/")[1]: a}), device(device2, None, {attr.split("/")[1]: b})]
    if c is not None:
        devs.append(device(device3, None, {attr.split("/")[1]: c}))
    case(name, features=features, claims=[claimWithRequests(claim0, cons, *(reqs or [request(req0, classA, count)]))], classes=A,
         slices=tt(*devs), node=N1, error=error,
         results=[allocationResult(localNodeSelector(node1), *[deviceAllocationResult(req0, driverA, pool1, d) for d in want])] if want else None)
lt("list-attributes-match-constaint-scalar-string-values", stringAttribute, S("value1"), S("value1"), want=[device1, device2])
lt("list-attributes-match-constaint-list-of-string-values-with-common-elements", stringAttribute, SS("value1", "value2", "value3"), SS("value2", "value3", "value4"), want=[device1, device2])
lt("list-attributes-match-constaint-list-of-string-values-with-partially-common-elements", stringAttribute, SS("value1", "value2"), SS("value2", "value3"), c=SS("value3", "value1"), count=3)
lt("list-attributes-match-constaint-list-of-string-values-without-common-elements", stringAttribute, SS("value1", "value2"), SS("value3", "value4"),
   reqs=[request(req0, classA, 1), request(req0, classA, 1)])
lt("list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-common-elements", stringAttribute, S("value1"), SS("value1", "value2"), want=[device1, device2])
lt("list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-partially-common-elements", stringAttribute, S("value1"), SS("value1", "value2"), c=SS("value2", "value3"), count=3)
lt("list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-without-common-elements", stringAttribute, S("value1"), SS("value2", "value3"))
lt("list-attributes-match-constaint-list-of-int-values-with-common-elements", intAttribute, {"ints": [0, 1, 2]}, {"ints": [1, 2, 3]}, want=[device1, device2])
lt("list-attributes-match-constaint-list-of-bool-values-with-common-elements", boolAttribute, {"bools": [True, False]}, {"bools": [True]}, want=[device1, device2])
lt("list-attributes-match-constaint-list-of-version-values-with-common-elements", versionAttribute, {"versions": ["1.0.0", "1.1.0", "2.0.0"]}, {"versions": ["1.1.0", "2.0.0", "2.1.0"]}, want=[device1, device2])
lt("list-attributes-match-constaint-with-empty-or-unknown-type", stringAttribute, {}, SS(), error="unsupported attribute value")
lt("list-attributes-disabled-match-constraint-with-lists", stringAttribute, SS("value1", "value2", "value3"), SS("value2", "value3", "value4"), features=[])  # 3d036712930c: lists reach CEL whatever the gate (compile.go getAttributeValue, PR 139395); the scalar constraint finds no scalar value
lt("list-attributes-distinct-constraint-scalar-string-values-all-distinct", stringAttribute, S("value1"), S("value2"), distinct=True, features=LT + CC, want=[device1, device2])
lt("list-attributes-distinct-constraint-scalar-string-values-not-distinct", stringAttribute, S("value1"), S("value1"), distinct=True, features=LT + CC)
lt("list-attributes-distinct-constraint-list-of-string-values-all-distinct", stringAttribute, SS("value1", "value2"), SS("value2", "value3"), c=SS("value3", "value4"), distinct=True, features=LT + CC, want=[device1, device3])
