//! The fields of the `resource.k8s.io` kinds, per release, with the gate
//! each needs (see the module above for what the types mean).

use super::Ty::*;
use super::{between, f, g, gs, status, Field, Needs, Ty, NOW};
use crate::gates::Gate;

pub(crate) const STRINGS: Ty = List(&Str);

pub const OBJECT_META: &[Field] = &[
    f("name", Str),
    f("generateName", Str),
    f("namespace", Str),
    f("selfLink", Str),
    f("uid", Str),
    f("resourceVersion", Str),
    f("generation", Int),
    f("creationTimestamp", Time),
    f("deletionTimestamp", Time),
    f("deletionGracePeriodSeconds", Int),
    f("labels", Map(&Str)),
    f("annotations", Map(&Str)),
    f("ownerReferences", List(&Obj(OWNER_REFERENCE))),
    f("finalizers", STRINGS),
    f("managedFields", Any),
];

const OWNER_REFERENCE: &[Field] = &[
    f("apiVersion", Str),
    f("kind", Str),
    f("name", Str),
    f("uid", Str),
    f("controller", Bool),
    f("blockOwnerDeletion", Bool),
];

const NODE_SELECTOR_REQUIREMENT: &[Field] =
    &[f("key", Str), f("operator", Str), f("values", STRINGS)];
const NODE_SELECTOR_TERM: &[Field] = &[
    f("matchExpressions", List(&Obj(NODE_SELECTOR_REQUIREMENT))),
    f("matchFields", List(&Obj(NODE_SELECTOR_REQUIREMENT))),
];
pub(crate) const NODE_SELECTOR: &[Field] =
    &[f("nodeSelectorTerms", List(&Obj(NODE_SELECTOR_TERM)))];

const COUNTER: &[Field] = &[f("value", Quantity)];

const DEVICE_ATTRIBUTE: &[Field] = &[
    f("int", Int),
    f("bool", Bool),
    f("string", Str),
    f("version", Str),
    gs("ints", List(&Int), Gate::DRAListTypeAttributes, 36),
    gs("bools", List(&Bool), Gate::DRAListTypeAttributes, 36),
    gs("strings", List(&Str), Gate::DRAListTypeAttributes, 36),
    gs("versions", List(&Str), Gate::DRAListTypeAttributes, 36),
];

const VALID_RANGE: &[Field] = &[f("min", Quantity), f("max", Quantity), f("step", Quantity)];
const REQUEST_POLICY: &[Field] = &[
    f("default", Quantity),
    f("validValues", List(&Quantity)),
    f("validRange", Obj(VALID_RANGE)),
];
const DEVICE_CAPACITY: &[Field] = &[
    f("value", Quantity),
    g(
        "requestPolicy",
        Obj(REQUEST_POLICY),
        Gate::DRAConsumableCapacity,
    ),
];

const COUNTER_CONSUMPTION: &[Field] = &[
    f("counterSet", Str),
    f("counters", Map(&Obj(COUNTER))),
    gs(
        "compatibilityGroups",
        STRINGS,
        Gate::DRADeviceCompatibilityGroups,
        37,
    ),
];

const DEVICE_TAINT: &[Field] = &[
    f("key", Str),
    f("value", Str),
    f("effect", Str),
    f("timeAdded", Time),
];

const NODE_ALLOCATABLE_MAPPING_1_36: &[Field] =
    &[f("capacityKey", Str), f("allocationMultiplier", Quantity)];
const NODE_ALLOCATABLE_MAPPING: &[Field] = &[
    f("capacityKey", Str),
    f("capacityMultiplier", Quantity),
    f("deviceMultiplier", Quantity),
];
const NODE_ALLOCATABLE_OVERHEAD: &[Field] = &[f("perPod", Quantity), f("perContainer", Quantity)];
const NODE_ALLOCATABLE_RESOURCE: &[Field] = &[
    f("mapping", Obj(NODE_ALLOCATABLE_MAPPING)),
    f("overhead", Obj(NODE_ALLOCATABLE_OVERHEAD)),
];

const BINDING_GATES: &[Gate] = &[
    Gate::DRADeviceBindingConditions,
    Gate::DRAResourceClaimDeviceStatus,
];

const DEVICE_NAME: &[Field] = &[f("name", Str)];
/// A device's fields but its name: in v1beta1 they sit under `basic`.
const DEVICE_BODY: &[Field] = &[
    f("attributes", Map(&Obj(DEVICE_ATTRIBUTE))),
    f("capacity", Map(&Obj(DEVICE_CAPACITY))),
    g(
        "consumesCounters",
        List(&Obj(COUNTER_CONSUMPTION)),
        Gate::DRAPartitionableDevices,
    ),
    g("nodeName", Str, Gate::DRAPartitionableDevices),
    g(
        "nodeSelector",
        Obj(NODE_SELECTOR),
        Gate::DRAPartitionableDevices,
    ),
    g("allNodes", Bool, Gate::DRAPartitionableDevices),
    g("taints", List(&Obj(DEVICE_TAINT)), Gate::DRADeviceTaints),
    Field {
        name: "bindsToNode",
        ty: Bool,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    Field {
        name: "bindingConditions",
        ty: STRINGS,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    Field {
        name: "bindingFailureConditions",
        ty: STRINGS,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    g(
        "allowMultipleAllocations",
        Bool,
        Gate::DRAConsumableCapacity,
    ),
    // 1.36 (KEP-5517 alpha) named it nodeAllocatableResourceMappings, a map
    // of {capacityKey, allocationMultiplier}; 1.37 reshaped and renamed it
    // (kubernetes/api release-1.36 and master `resource/v1/types.go`).
    between(
        g(
            "nodeAllocatableResourceMappings",
            Map(&Obj(NODE_ALLOCATABLE_MAPPING_1_36)),
            Gate::DRANodeAllocatableResources,
        ),
        36,
        37,
    ),
    gs(
        "nodeAllocatableResources",
        Map(&Obj(NODE_ALLOCATABLE_RESOURCE)),
        Gate::DRANodeAllocatableResources,
        37,
    ),
];

/// kubernetes/api `resource/v1beta1` `Device`: a name and a `BasicDevice`
/// (the v1 device's other fields, on release-1.34..1.36 and master).
const DEVICE_V1BETA1: &[Field] = &[f("name", Str), f("basic", Obj(DEVICE_BODY))];

const POOL: &[Field] = &[
    f("name", Str),
    f("generation", Int),
    f("resourceSliceCount", Int),
];
const COUNTER_SET: &[Field] = &[f("name", Str), f("counters", Map(&Obj(COUNTER)))];

const RESOURCE_SLICE_SPEC: &[Field] = &[
    f("driver", Str),
    f("pool", Obj(POOL)),
    f("nodeName", Str),
    f("nodeSelector", Obj(NODE_SELECTOR)),
    f("allNodes", Bool),
    f(
        "devices",
        List(&ByApi {
            v1: &Obj2(DEVICE_NAME, DEVICE_BODY),
            v1beta1: &Obj(DEVICE_V1BETA1),
        }),
    ),
    g(
        "perDeviceNodeSelection",
        Bool,
        Gate::DRAPartitionableDevices,
    ),
    g(
        "sharedCounters",
        List(&Obj(COUNTER_SET)),
        Gate::DRAPartitionableDevices,
    ),
    gs(
        "partitionTypeAttribute",
        Str,
        Gate::DRAPartitionableDevicesType,
        37,
    ),
    gs(
        "skipNodeOperations",
        STRINGS,
        Gate::DRAOptionalNodeOperations,
        37,
    ),
];

const CEL_SELECTOR: &[Field] = &[f("expression", Str)];
const DEVICE_SELECTOR: &[Field] = &[f("cel", Obj(CEL_SELECTOR))];
pub(crate) const OPAQUE: &[Field] = &[f("driver", Str), f("parameters", Any)];
const CLASS_CONFIG: &[Field] = &[f("opaque", Obj(OPAQUE))];

const DEVICE_CLASS_SPEC: &[Field] = &[
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("config", List(&Obj(CLASS_CONFIG))),
    g("extendedResourceName", Str, Gate::DRAExtendedResource),
];

pub(crate) const TOLERATION: &[Field] = &[
    f("key", Str),
    f("operator", Str),
    f("value", Str),
    f("effect", Str),
    f("tolerationSeconds", Int),
];
const CAPACITY_REQUIREMENTS: &[Field] = &[f("requests", Map(&Quantity))];

const EXACT_REQUEST: &[Field] = &[
    f("deviceClassName", Str),
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("allocationMode", Str),
    f("count", Int),
    g("adminAccess", Bool, Gate::DRAAdminAccess),
    g("tolerations", List(&Obj(TOLERATION)), Gate::DRADeviceTaints),
    g(
        "capacity",
        Obj(CAPACITY_REQUIREMENTS),
        Gate::DRAConsumableCapacity,
    ),
    gs(
        "derivedAttributes",
        List(&Any),
        Gate::DRADerivedAttributes,
        37,
    ),
];
const SUB_REQUEST: &[Field] = &[
    f("name", Str),
    f("deviceClassName", Str),
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("allocationMode", Str),
    f("count", Int),
    g("tolerations", List(&Obj(TOLERATION)), Gate::DRADeviceTaints),
    g(
        "capacity",
        Obj(CAPACITY_REQUIREMENTS),
        Gate::DRAConsumableCapacity,
    ),
    gs(
        "derivedAttributes",
        List(&Any),
        Gate::DRADerivedAttributes,
        37,
    ),
];
const DEVICE_REQUEST: &[Field] = &[
    f("name", Str),
    f("exactly", Obj(EXACT_REQUEST)),
    g(
        "firstAvailable",
        List(&Obj(SUB_REQUEST)),
        Gate::DRAPrioritizedList,
    ),
];
/// v1beta1 `DeviceRequest`: the name, `firstAvailable`, and the fields v1
/// moved into `exactly` (kubernetes/api release-1.34..1.36 and master).
const DEVICE_REQUEST_V1BETA1_HEAD: &[Field] = &[
    f("name", Str),
    g(
        "firstAvailable",
        List(&Obj(SUB_REQUEST)),
        Gate::DRAPrioritizedList,
    ),
];
// distinctAttribute is gated by DRAConsumableCapacity. 1.34's strategy
// cleared a copy of each constraint (`for _, constaint := range ...`), so
// the field survived; kubernetes/kubernetes#134962 ("Fix setting
// distinctAttribute=nil when DRAConsumableCapacity is disabled", in the
// v1.35.0-alpha.3 CHANGELOG) made resourceclaimspec.DropDisabledFields
// index the slice: dropped from 1.35 on.
const CONSTRAINT: &[Field] = &[
    f("requests", STRINGS),
    f("matchAttribute", Str),
    Field {
        name: "distinctAttribute",
        ty: Str,
        needs: Needs::GateFrom(Gate::DRAConsumableCapacity, 35),
        since: 34,
        until: NOW,
    },
];
const CLAIM_CONFIG: &[Field] = &[f("requests", STRINGS), f("opaque", Obj(OPAQUE))];
const DEVICE_CLAIM: &[Field] = &[
    f(
        "requests",
        List(&ByApi {
            v1: &Obj(DEVICE_REQUEST),
            v1beta1: &Obj2(DEVICE_REQUEST_V1BETA1_HEAD, EXACT_REQUEST),
        }),
    ),
    f("constraints", List(&Obj(CONSTRAINT))),
    f("config", List(&Obj(CLAIM_CONFIG))),
];
const CLAIM_SPEC: &[Field] = &[f("devices", Obj(DEVICE_CLAIM))];
const TEMPLATE_SPEC: &[Field] = &[f("metadata", Obj(OBJECT_META)), f("spec", Obj(CLAIM_SPEC))];

// DeviceTaintRule (served as v1alpha3 from 1.33, v1beta2 from 1.36, v1 from
// 1.37; see served.rs). 1.34's selector also had deviceClassName and CEL
// selectors, removed in 1.35; 1.35 added the status.
const DEVICE_TAINT_SELECTOR: &[Field] = &[
    between(f("deviceClassName", Str), 34, 35),
    f("driver", Str),
    f("pool", Str),
    f("device", Str),
    between(f("selectors", List(&Obj(DEVICE_SELECTOR))), 34, 35),
];
const DEVICE_TAINT_RULE_SPEC: &[Field] = &[
    f("deviceSelector", Obj(DEVICE_TAINT_SELECTOR)),
    f("taint", Obj(DEVICE_TAINT)),
];

/// KEP-5677's request (k8s.io/api resource/v1alpha3 `ResourcePoolStatusRequestSpec`
/// at release-1.36 and master, the 1.37 line). `limit` is an int32. 1.37
/// adds `defaultPartitionTypeAttribute` (#140170): not dropped with its
/// gate off but Forbidden by its declarative tag (DRA-V221).
const POOL_STATUS_REQUEST_SPEC: &[Field] = &[
    between(f("driver", Str), 36, NOW),
    between(f("poolName", Str), 36, NOW),
    between(f("limit", Int32), 36, NOW),
    between(f("defaultPartitionTypeAttribute", Str), 37, NOW),
];

const fn top(spec: Ty) -> [Field; 4] {
    [
        f("apiVersion", Str),
        f("kind", Str),
        f("metadata", Obj(OBJECT_META)),
        f("spec", spec),
    ]
}

// Only ResourceClaim, (from 1.35) DeviceTaintRule and (1.36) ResourcePoolStatusRequest have a `status` (the
// other kinds have none: strict decoding rejects it). It is decoded as the
// rest of the object; a create discards it (DRA-V169), so its gated fields
// are dropped only on a status write (`status.rs`).
pub(crate) static SLICE: [Field; 4] = top(Obj(RESOURCE_SLICE_SPEC));
pub(crate) static CLASS: [Field; 4] = top(Obj(DEVICE_CLASS_SPEC));
pub(crate) static CLAIM: [Field; 5] = {
    let [a, k, m, s] = top(Obj(CLAIM_SPEC));
    [a, k, m, s, f("status", Obj(status::CLAIM_STATUS))]
};
pub(crate) static TEMPLATE: [Field; 4] = top(Obj(TEMPLATE_SPEC));
pub(crate) static POOL_STATUS_REQUEST: [Field; 5] = {
    let [a, k, m, s] = top(Obj(POOL_STATUS_REQUEST_SPEC));
    [
        a,
        k,
        m,
        s,
        between(
            f("status", Obj(status::POOL_STATUS_REQUEST_STATUS)),
            36,
            NOW,
        ),
    ]
};
pub(crate) static TAINT_RULE: [Field; 5] = {
    let [a, k, m, s] = top(Obj(DEVICE_TAINT_RULE_SPEC));
    [
        a,
        k,
        m,
        s,
        between(f("status", Obj(status::TAINT_RULE_STATUS)), 35, NOW),
    ]
};
