use super::*;
use crate::sources::{load_objects, SourceFile};
use crate::yaml::Limits;

fn load(text: &str) -> Vec<Object> {
    let files = [SourceFile {
        name: "t.yaml".into(),
        text: text.into(),
    }];
    let (objects, problems) = load_objects(&files, Limits::default());
    assert!(problems.is_empty(), "{problems:?}");
    objects
}

const CLAIM: &str = r#"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: a
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: "device.driver == 'x'"}}, {}]
        tolerations: [{key: k, effect: NoSchedule}, {key: j, operator: Exists}]
    - name: b
      exactly: {deviceClassName: gpu, allocationMode: All, count: 3}
    - name: c
      firstAvailable:
      - {name: one, deviceClassName: gpu, count: 2, capacity: {requests: {memory: 1Gi}}}
      - {name: two, deviceClassName: gpu, allocationMode: Sometimes}
    - name: d
    constraints:
    - {requests: [a], matchAttribute: gpu.example.com/numa}
    - {distinctAttribute: gpu.example.com/uuid}
    - {requests: [b]}
    config:
    - {requests: [a], opaque: {driver: x, parameters: {}}}
status:
  allocation:
    devices:
      results:
      - {request: a, driver: x, pool: p, device: d0, shareID: s, consumedCapacity: {memory: 1Gi}}
      - {request: b, driver: x, pool: p, device: d1, adminAccess: true, bindingConditions: [ready]}
    nodeSelector: {nodeSelectorTerms: []}
  reservedFor:
  - {resource: pods, name: p1, uid: u1}
  - {name: p2, uid: u2}
  - {resource: jobs, name: j, uid: u3}
"#;

#[test]
fn a_claim_is_decoded_with_the_api_defaults() {
    let objects = load(CLAIM);
    let claim = Claim::decode(&objects[0]);
    assert_eq!((claim.namespace, claim.name), ("default", "c"));
    assert_eq!(claim.requests.len(), 4);
    let RequestBody::Exactly(a) = &claim.requests[0].body else {
        panic!("a is exactly")
    };
    assert_eq!(a.mode, AllocationMode::ExactCount(1));
    let cel: Vec<(bool, Option<&str>)> = a
        .selectors
        .iter()
        .map(|s| (s.has_cel, s.expression))
        .collect();
    assert_eq!(cel, [(true, Some("device.driver == 'x'")), (false, None)]);
    assert_eq!(a.expressions(), vec!["device.driver == 'x'".to_owned()]);
    // SetDefaults_DeviceToleration: an unset operator is Equal.
    let ops: Vec<&str> = a.tolerations.iter().map(|t| t.operator).collect();
    assert_eq!(ops, ["Equal", "Exists"]);
    let RequestBody::Exactly(b) = &claim.requests[1].body else {
        panic!("b is exactly")
    };
    assert_eq!(b.mode, AllocationMode::All);
    let RequestBody::FirstAvailable(subs) = &claim.requests[2].body else {
        panic!("c has subrequests")
    };
    assert_eq!(subs[0].name, "one");
    assert_eq!(subs[0].mode, AllocationMode::ExactCount(2));
    assert_eq!(subs[0].capacity.as_ref().map(Vec::len), Some(1));
    assert_eq!(subs[1].mode, AllocationMode::Unknown("Sometimes"));
    assert!(subs[1].capacity.is_none());
    assert!(matches!(claim.requests[3].body, RequestBody::Empty));

    let kinds: Vec<ConstraintKind> = claim.constraints.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            ConstraintKind::MatchAttribute("gpu.example.com/numa"),
            ConstraintKind::DistinctAttribute("gpu.example.com/uuid"),
            ConstraintKind::Empty
        ]
    );
    assert_eq!(claim.config[0].requests, ["a"]);
    assert!(claim.config[0].opaque.is_some());

    let allocation = claim.allocation.as_ref().expect("allocated");
    assert_eq!(allocation.results.len(), 2);
    let (r0, r1) = (&allocation.results[0], &allocation.results[1]);
    assert_eq!(
        (r0.driver, r0.pool, r0.device),
        (Some("x"), Some("p"), Some("d0"))
    );
    assert!(r0.shared && r0.share_id == Some("s"));
    assert_eq!(r0.consumed_capacity.as_ref().map(Vec::len), Some(1));
    assert_eq!(r1.admin_access, Some(true));
    assert_eq!(r1.binding_conditions, Some(vec!["ready"]));
    assert_eq!(r1.binding_failure_conditions, None);
    assert!(allocation.node_selector.is_some());
    // Entries whose resource is unset count as pods; other consumers do not.
    assert_eq!(claim.reserved_pods(), ["default/p1", "default/p2"]);
    assert_eq!(claim.reserved_for.len(), 3);
}

const SLICES: &str = r#"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s1}
spec:
  driver: x
  pool: {name: p, generation: 2, resourceSliceCount: 2}
  nodeName: n1
  sharedCounters:
  - name: set
    counters: {memory: {value: 8Gi}, bad: {value: lots}}
  devices:
  - name: d0
    allowMultipleAllocations: true
    capacity: {memory: {value: 4Gi}}
    consumesCounters:
    - counterSet: set
      counters: {memory: {value: 2Gi}}
      compatibilityGroups: [mig]
    taints: [{key: k, value: v, effect: NoExecute}, {key: j, effect: NoSchedule}]
    bindingConditions: [ready]
    bindsToNode: true
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s2}
spec:
  driver: x
  pool: {name: p}
  nodeName: ""
  allNodes: false
  perDeviceNodeSelection: true
  devices:
  - name: d1
    basic: {allNodes: true}
  - name: d2
    basic: {nodeSelector: {nodeSelectorTerms: []}}
  - name: d3
    basic: {}
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: r}
spec:
  deviceSelector: {driver: x, device: d0}
  taint: {key: broken, effect: NoSchedule}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors: [{cel: {expression: "true"}}]
  config: [{opaque: {driver: x, parameters: {}}}]
  extendedResourceName: example.com/gpu
"#;

#[test]
fn slices_devices_rules_and_classes_are_decoded() {
    let objects = load(SLICES);
    let inv = Inventory::decode(&objects);
    assert_eq!(
        (inv.slices.len(), inv.taint_rules.len(), inv.classes.len()),
        (2, 1, 1)
    );
    let s1 = &inv.slices[0];
    assert_eq!((s1.driver, s1.pool.name, s1.pool.generation), ("x", "p", 2));
    assert_eq!(s1.pool.resource_slice_count, 2);
    assert_eq!(s1.selection, NodeSelection::Node("n1"));
    // A counter whose value is not a quantity is left out.
    assert_eq!(s1.shared_counters[0].counters().count(), 1);
    let d0 = &s1.devices()[0];
    assert!(d0.allow_multiple_allocations && d0.binds_to_node);
    assert_eq!(d0.capacity().next().map(|c| c.0), Some("memory"));
    assert_eq!(d0.consumes_counters[0].counter_set, "set");
    assert_eq!(
        d0.consumes_counters[0].compatibility_groups,
        Some(vec!["mig"])
    );
    let taints: Vec<String> = d0.taints.iter().map(Taint::display).collect();
    assert_eq!(taints, ["k=v:NoExecute", "j:NoSchedule"]);
    assert_eq!(d0.binding_conditions, ["ready"]);
    assert_eq!(s1.selection_of(d0).label().as_deref(), Some("n1"));

    // v1beta1, converted on load: the empty nodeName and allNodes: false are
    // unset, device fields moved out of `basic`.
    let s2 = &inv.slices[1];
    assert_eq!((s2.pool.generation, s2.pool.resource_slice_count), (0, 0));
    assert!(s2.per_device());
    assert_eq!(s2.selection, NodeSelection::Unset);
    let labels: Vec<Option<String>> = s2
        .devices()
        .iter()
        .map(|d| s2.selection_of(d).label())
        .collect();
    assert_eq!(
        labels,
        [
            Some("<all nodes>".into()),
            Some("<node selector>".into()),
            None
        ]
    );

    let rule = &inv.taint_rules[0];
    let sel = rule.selector.as_ref().expect("selector");
    assert!(sel.names("x", "p", "d0"));
    assert!(!sel.names("x", "p", "d1"));
    assert_eq!(
        rule.taint.as_ref().map(Taint::display).as_deref(),
        Some("broken:NoSchedule")
    );

    let class = &inv.classes[0];
    assert_eq!(class.expressions(), ["true"]);
    assert_eq!(class.config.len(), 1);
    assert_eq!(class.extended_resource_name, Some("example.com/gpu"));
}

#[test]
fn missing_and_mistyped_fields_take_the_zero_value() {
    let objects = load(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: t}\n\
         spec: {driver: 3, pool: [], devices: {a: b}}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\n\
         spec: {devices: {requests: [{name: r, exactly: {count: -2}}]}}\n",
    );
    let inv = Inventory::decode(&objects);
    for s in &inv.slices {
        assert_eq!((s.driver, s.pool.name, s.devices().len()), ("", "", 0));
    }
    let claim = &inv.claims[0];
    assert_eq!(claim.namespace, "ns");
    let RequestBody::Exactly(r) = &claim.requests[0].body else {
        panic!("exactly")
    };
    // Only a positive count is a count; the allocator reads 1 otherwise.
    assert_eq!(r.mode, AllocationMode::ExactCount(1));
    assert!(claim.allocation.is_none() && claim.reserved_for.is_empty());
}

#[test]
fn published_names_are_qualified_by_the_driver() {
    let objects = load(
        r#"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p}
  nodeName: n
  devices:
  - name: d
    attributes: {model: {string: x}, numa.example.com/node: {int: 1}}
    capacity: {memory: {value: 1Gi}}
"#,
    );
    let inv = Inventory::decode(&objects);
    let attributes: Vec<(&str, &str)> = inv.published("attributes").into_iter().collect();
    assert_eq!(
        attributes,
        [("gpu.example.com", "model"), ("numa.example.com", "node")]
    );
    let capacity: Vec<(&str, &str)> = inv.published("capacity").into_iter().collect();
    assert_eq!(capacity, [("gpu.example.com", "memory")]);
}

#[test]
fn pod_claims_name_their_claim_or_the_one_generated_from_the_template() {
    let objects = load(
        r#"
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers: [{name: c, image: i}]
  resourceClaims:
  - {name: own, resourceClaimName: shared-gpu}
  - {name: made, resourceClaimTemplateName: gpu-template}
  - {name: pending, resourceClaimTemplateName: gpu-template}
  - {name: neither}
  - {name: fresh, resourceClaimTemplateName: gpu-template}
status:
  resourceClaimStatuses:
  - {name: made, resourceClaimName: p-made-x7k2}
  - {name: pending}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers: [{name: c, image: i}]
      resourceClaims: [{name: t, resourceClaimTemplateName: tmpl}]
"#,
    );
    let pod = PodClaims::decode(&objects[0]);
    let seen: Vec<(&str, PodClaimSource, Option<&str>, bool)> = pod
        .claims
        .iter()
        .map(|c| (c.name, c.source, c.generated, c.recorded))
        .collect();
    assert_eq!(
        seen,
        [
            ("own", PodClaimSource::Claim("shared-gpu"), None, false),
            (
                "made",
                PodClaimSource::Template("gpu-template"),
                Some("p-made-x7k2"),
                true
            ),
            // Recorded without a name: no claim was needed.
            (
                "pending",
                PodClaimSource::Template("gpu-template"),
                None,
                true
            ),
            ("neither", PodClaimSource::Unset, None, false),
            // No entry: not created yet.
            (
                "fresh",
                PodClaimSource::Template("gpu-template"),
                None,
                false
            ),
        ]
    );
    // A workload's pod template is read the same way.
    let deployment = PodClaims::decode(&objects[1]);
    assert_eq!(
        deployment.claims[0].source,
        PodClaimSource::Template("tmpl")
    );
}
