from emit import *

def memsel(q):
    return sel(f'device.capacity["{driverA}"].memory.compareTo(quantity("{q}")) >= 0')
def V(v): return {"version": v}
def I(v): return {"int": v}
def S(v): return {"string": v}
def B(v): return {"bool": v}
N1 = node(node1, region1)
A = [cls(classA, driverA)]
AB = [cls(classA, driverA), cls(classB, driverB)]
one_dev = [sliceWithOneDevice(slice1, node1, pool1, driverA)]

c = claimWithRequest(claim0, req0, classA); exactly(c)["adminAccess"] = True
case("admin-access-disabled", features=[], claims=[c], classes=A, slices=one_dev, node=N1,
     error="claim claim-0, request req-0: admin access is requested, but the feature is disabled")
case("admin-access-enabled", features=["AdminAccess"], claims=[c], allocated=[MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)],
     classes=A, slices=one_dev, node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, True))])
full = {"driverVersion": V("1.0.0"), "numa": I(1), "stringAttribute": S("stringAttributeValue"), "boolAttribute": B(True)}
case("with-constraint", claims=[claimWithRequests(claim0, [matchAttribute(intAttribute), matchAttribute(versionAttribute), matchAttribute(stringAttribute), matchAttribute(boolAttribute)],
                                                  request(req0, classA, 1), request(req1, classA, 1))],
     classes=A, slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, full), device(device2, None, full))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1, driverA, pool1, device2))])
case("with-constraint-non-existent-attribute", claims=[claimWithRequest(claim0, req0, classA, matchAttribute(nonExistentAttribute))],
     classes=A, slices=one_dev, node=N1)
def two(attr, a, b):
    return [sliceWithDevices(slice1, node1, pool1, driverA, device(device1, None, {attr: a}), device(device2, None, {attr: b}))]
case("with-constraint-not-matching-int-attribute", claims=[claimWithRequests(claim0, [matchAttribute(intAttribute)], request(req0, classA, 2))],
     classes=AB, slices=two("numa", I(1), I(2)), node=N1)
c = claimWithRequests(claim0, [matchAttribute(intAttribute)], request(req0, classA, 0)); exactly(c)["allocationMode"] = "All"; del exactly(c)["count"]
case("with-constraint-not-matching-int-attribute-all-devices", claims=[c], classes=AB, slices=two("numa", I(1), I(2)), node=N1,
     error="claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied",
     note="Go sets count 0 with All; count is left out here, as the apiserver stores it")
case("with-constraint-not-matching-string-attribute", claims=[claimWithRequests(claim0, [matchAttribute(stringAttribute)], request(req0, classA, 2))],
     classes=AB, slices=two("stringAttribute", S("stringAttributeValue"), S("stringAttributeValue2")), node=N1)
case("with-constraint-not-matching-bool-attribute", claims=[claimWithRequests(claim0, [matchAttribute(boolAttribute)], request(req0, classA, 2))],
     classes=AB, slices=two("boolAttribute", B(True), B(False)), node=N1)
case("with-constraint-not-matching-version-attribute", claims=[claimWithRequests(claim0, [matchAttribute(versionAttribute)], request(req0, classA, 2))],
     classes=AB, slices=two("driverVersion", V("1.0.0"), V("2.0.0")), node=N1)
case("with-constraint-for-request", claims=[claimWithRequests(claim0, [matchAttribute(versionAttribute, [req0])], request(req0, classA, 1), request(req1, classA, 1))],
     classes=AB, slices=two("driverVersion", V("1.0.0"), V("2.0.0")), node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1, driverA, pool1, device2))])
case("with-constraint-for-request-retry",
     claims=[claimWithRequests(claim0, [matchAttribute(versionAttribute, [req0]), matchAttribute(stringAttribute)], request(req0, classA, 1), request(req1, classA, 1))],
     classes=AB, slices=[sliceWithDevices(slice1, node1, pool1, driverA,
        device(device1, None, {"driverVersion": V("1.0.0"), "stringAttribute": S("a")}),
        device(device2, None, {"driverVersion": V("2.0.0"), "stringAttribute": S("b")}),
        device(device3, None, {"driverVersion": V("3.0.0"), "stringAttribute": S("b")}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2), deviceAllocationResult(req1, driverA, pool1, device3))])
def cfg(source, requests, driver, attr):
    d = {"source": source}
    if requests: d["requests"] = list(requests)
    d.update(deviceConfiguration(driver, attr))
    return d
case("with-class-device-config", claims=[claimWithRequest(claim0, req0, classA)], classes=[classWithConfig(classA, driverA, "classAttribute")],
     slices=one_dev, node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1), [deviceAllocationResult(req0, driverA, pool1, device1)],
                                          [cfg("FromClass", None, driverA, "classAttribute")])])  # requests cleared: fe39ea7
case("with-class-device-config-with-multiple-request-and-configs",
     claims=[claimWithRequests(claim0, [], request(req0, classA, 1), request(req1, classA, 1), request(req2, classB, 1))],
     classes=[classWithConfig(classA, driverA, "classAttribute-A"), classWithConfig(classB, driverB, "classAttribute-B")],
     slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2), sliceWithOneDevice(slice2, node1, pool1, driverB)], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0, driverA, pool1, device0), deviceAllocationResult(req1, driverA, pool1, device1), deviceAllocationResult(req2, driverB, pool1, device1)],
        [cfg("FromClass", [req0, req1], driverA, "classAttribute-A"), cfg("FromClass", [req2], driverB, "classAttribute-B")])])
# Added upstream by c5a40b2 (3d036712930c): a claim config naming two
# requests is reported once, with its requests.
c = claimWithRequests(claim0, None, request(req0, classA, 1), request(req1, classA, 1), request(req2, classA, 1))
c["spec"]["devices"]["config"] = [deviceClaimConfig([req0, req1], deviceConfiguration(driverA, "deviceAttribute"))]
case("with-claim-config-for-two-requests", claims=[c], classes=A, slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 3)], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0, driverA, pool1, device0), deviceAllocationResult(req1, driverA, pool1, device1), deviceAllocationResult(req2, driverA, pool1, device2)],
        [cfg("FromClaim", [req0, req1], driverA, "deviceAttribute")])])
case("claim-with-device-config", claims=[claimWithDeviceConfig(claim0, req0, classA, driverA, "deviceAttribute")], classes=A, slices=one_dev, node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1), [deviceAllocationResult(req0, driverA, pool1, device1)],
                                          [cfg("FromClaim", None, driverA, "deviceAttribute")])])
c = claimWithRequest(claim0, req0, classA); exactly(c)["selectors"] = [{}]
case("unknown-selector", claims=[c], classes=A, slices=one_dev, node=N1, error="CEL expression empty (unsupported selector type?)")
c = claimWithRequest(claim0, req0, classA); exactly(c)["allocationMode"] = "future-mode"
case("unknown-allocation-mode", claims=[c], classes=A, slices=one_dev, node=N1, error="unsupported count mode future-mode")
c = claimWithRequest(claim0, req0, classA); c["spec"]["devices"]["constraints"] = [{}]
case("unknown-constraint", claims=[c], classes=A, slices=one_dev, node=N1, error="empty constraint (unsupported constraint type?)")
c = claimWithRequest(claim0, req0, classA); exactly(c)["selectors"] = [sel("noSuchVar")]
case("invalid-CEL-one-device", claims=[c], classes=A, slices=one_dev, node=N1, error="undeclared reference")
k = cls(classA, driverA); k["spec"]["selectors"][0]["cel"]["expression"] = "noSuchVar"
case("invalid-CEL-one-device-class", claims=[claimWithRequest(claim0, req0, classA)], classes=[k], slices=one_dev, node=N1, error="undeclared reference")
c = claimWithRequest(claim0, req0, classA); exactly(c)["selectors"] = [sel("noSuchVar")]; exactly(c)["allocationMode"] = "All"; del exactly(c)["count"]
case("invalid-CEL-all-devices", claims=[c], classes=A, slices=one_dev, node=N1, error="undeclared reference")
case("too-many-devices-single-request", claims=[claimWithRequests(claim0, None, request(req0, classA, 500))], classes=A, node=N1,
     error="exceeds the claim limit", note="upstream passes no node; node-1 here")
case("many-devices-okay", claims=[claimWithRequests(claim0, None, request(req0, classA, 32))], classes=A, node=N1,
     note="upstream passes no node and no slices; node-1 here")
case("too-many-devices-total", claims=[claimWithRequests(claim0, None, request(req0, classA, 32), request(req1, classA, 1))], classes=A,
     slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 33)], node=N1, error="exceeds the claim limit")
case("all-devices-invalid-CEL", claims=[claimWithRequests(claim0, None, request(req0, classA, 500))], classes=A, node=N1,
     error="exceeds the claim limit", note="upstream passes no node; node-1 here")
PL = ["PrioritizedList"]
case("prioritized-list-first-unavailable", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)))],
     classes=AB, slices=one_dev, node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1))])
case("prioritized-list-non-available", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classB, 2), subRequest(subReq1, classA, 2)))],
     classes=AB, slices=[sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverB)], node=N1)
c = withConfigs(withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 2))),
                [deviceClaimConfig([req0SubReq0], deviceConfiguration(driverA, "foo")), deviceClaimConfig([req0SubReq1], deviceConfiguration(driverB, "bar"))])
case("prioritized-list-device-config", features=PL, claims=[c], classes=AB,
     slices=[sliceWithDevices(slice1, node1, pool1, driverB, device(device1), device(device2))], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0SubReq1, driverB, pool1, device1), deviceAllocationResult(req0SubReq1, driverB, pool1, device2)],
        [cfg("FromClaim", None, driverB, "bar")])])  # requests cleared: fe39ea7
case("prioritized-list-class-config", features=PL,
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 2), subRequest(subReq1, classB, 2)))],
     classes=[classWithConfig(classA, driverA, "foo"), classWithConfig(classB, driverB, "bar")],
     slices=[sliceWithDevices(slice1, node1, pool1, driverB, device(device1), device(device2)), sliceWithDevices(slice2, node1, pool2, driverA, device(device3))], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0SubReq1, driverB, pool1, device1), deviceAllocationResult(req0SubReq1, driverB, pool1, device2)],
        [cfg("FromClass", None, driverB, "bar")])])  # requests cleared: fe39ea7
# Added upstream by a58be5a (3d036712930c): a config is cleared only when it
# covers every request, by name or by the chosen subrequest.
case("claim-config-scoped-to-subrequests-of-one-request", features=PL,
     claims=[withConfigs(withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)),
                                      deviceRequest(req1, classA, 1)),
                         [deviceClaimConfig([req0SubReq0, req0SubReq1], deviceConfiguration(driverA, "scoped"))])],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2)], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0SubReq0, driverA, pool1, device0), deviceAllocationResult(req1, driverA, pool1, device1)],
        [cfg("FromClaim", [req0SubReq0, req0SubReq1], driverA, "scoped")])])
case("claim-config-covering-all-requests-is-cleared", features=PL,
     claims=[withConfigs(withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)),
                                      deviceRequest(req1, classA, 1)),
                         [deviceClaimConfig([req0SubReq0, req1], deviceConfiguration(driverA, "all"))])],
     classes=[cls(classA, driverA), cls(classB, driverB)], slices=[sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2)], node=N1,
     results=[allocationResultWithConfigs(localNodeSelector(node1),
        [deviceAllocationResult(req0SubReq0, driverA, pool1, device0), deviceAllocationResult(req1, driverA, pool1, device1)],
        [cfg("FromClaim", None, driverA, "all")])])
case("prioritized-list-subrequests-with-expressions", features=PL,
     claims=[withRequests(claim(claim0), withSelectors(deviceRequest(req0, classA, 1), memsel("1Gi")),
                          requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memsel("4Gi")), subRequest(subReq1, classA, 2, memsel("2Gi"))))],
     classes=A, slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, {"memory": "2Gi"}), device(device2, {"memory": "2Gi"}), device(device3, {"memory": "1Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device3),
                               deviceAllocationResult(req1SubReq1, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool1, device2))])
def pl_constraint(refs, slices, want):
    c = withRequests(withConstraints(claim(claim0), matchAttribute(versionAttribute, refs)),
                     withSelectors(deviceRequest(req0, classA, 1), memsel("8Gi")),
                     requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memsel("2Gi")), subRequest(subReq1, classA, 1, memsel("1Gi"))))
    return c
s_a = sliceWithDevices(slice1, node1, pool1, driverA, device(device1, {"memory": "8Gi"}, {"driverVersion": V("1.0.0")}))
case("prioritized-list-subrequests-with-constraints-ref-parent-request", features=PL, claims=[pl_constraint([req0, req1], None, None)], classes=A,
     slices=[s_a, sliceWithDevices(slice2, node1, pool2, driverA, device(device2, {"memory": "2Gi"}, {"driverVersion": V("2.0.0")}),
                                   device(device3, {"memory": "1Gi"}, {"driverVersion": V("1.0.0")}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool2, device3))])
case("prioritized-list-subrequests-with-constraints-ref-sub-request", features=PL, claims=[pl_constraint([req0, req1SubReq0], None, None)], classes=A,
     slices=[s_a, sliceWithDevices(slice2, node1, pool2, driverA, device(device2, {"memory": "2Gi"}, {"driverVersion": V("2.0.0")}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool2, device2))])
c = withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1)))
s0 = c["spec"]["devices"]["requests"][0]["firstAvailable"][0]; s0["allocationMode"] = "All"; del s0["count"]
case("prioritized-list-subrequests-with-allocation-mode-all", features=PL, claims=[c], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2))], allocated=[MakeDeviceID(driverA, pool1, device1)], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2))])
sa = withAllocationMode(subRequest(subReq0, classA, 0), "All"); del sa["count"]
case("prioritized-list-allocation-mode-all-multiple-requests", features=PL,
     claims=[withRequests(claim(claim0), deviceRequest(req0, classA, 1), requestWithPrioritizedList(req1, sa, subRequest(subReq1, classA, 1)))], classes=A,
     slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1), device(device2))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1), deviceAllocationResult(req1SubReq1, driverA, pool1, device2))])
case("prioritized-list-disabled", features=[],
     claims=[withRequests(claim(claim0), requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1)))], classes=A, slices=one_dev, node=N1,
     error="claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled")
case("prioritized-list-multi-request", features=PL,
     claims=[withRequests(claim(claim0), withSelectors(deviceRequest(req1, classA, 1), memsel("8Gi")),
                          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memsel("8Gi")), subRequest(subReq1, classA, 1, memsel("4Gi"))))],
     classes=A, slices=[sliceWithDevices(slice1, node1, pool1, driverA, device(device1, {"memory": "8Gi"})),
                        sliceWithDevices(slice2, node1, pool2, driverA, device(device2, {"memory": "4Gi"}))], node=N1,
     results=[allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device1), deviceAllocationResult(req0SubReq1, driverA, pool2, device2))])
