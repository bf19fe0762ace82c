//! The `status` of ResourceClaim and DeviceTaintRule: the same in
//! `resource.k8s.io/v1`, v1beta1 and v1beta2 in every release 1.34-1.37
//! (kubernetes/api `resource/*/types.go`, `ResourceClaimStatus` and
//! `DeviceTaintRuleStatus`, on release-1.34, -1.35, -1.36 and v0.37.0-beta.0;
//! `deallocationRequested` and `controller` are tombstoned comments).
//!
//! The gates are those the status strategy drops by when they are off and
//! the stored claim does not use them (`resourceclaimStatusStrategy`
//! `PrepareForUpdate`, `dropDisabledStatusFields`):
//! `dropDisabledDRAResourceClaimDeviceStatusFields` (status.devices),
//! `dropDisabledDRAAdminAccessStatusFields` (results' adminAccess; in use
//! when the stored spec or results set it),
//! `dropDisabledDRAResourceClaimConsumableCapacityStatusFields` (results'
//! shareID and consumedCapacity, status.devices' shareID; in use with the
//! stored spec's capacity requests too) and `dropDeviceBindingConditionsFields`
//! (results' bindingConditions and bindingFailureConditions); 1.37 adds
//! results' skipNodeOperations (DRAOptionalNodeOperations: the 1.37 line's
//! `strategy_test.go` case "drop-fields-optional-node-operations"). Results'
//! tolerations are never dropped.

use super::Ty::*;
use super::{between, f, g, gs, Field, NODE_SELECTOR, NOW, OPAQUE, STRINGS, TOLERATION};
use crate::gates::Gate;

/// `metav1.Condition`.
const CONDITION: &[Field] = &[
    f("type", Str),
    f("status", Str),
    f("observedGeneration", Int),
    f("lastTransitionTime", Time),
    f("reason", Str),
    f("message", Str),
];

const REQUEST_RESULT: &[Field] = &[
    f("request", Str),
    f("driver", Str),
    f("pool", Str),
    f("device", Str),
    g("adminAccess", Bool, Gate::DRAAdminAccess),
    f("tolerations", List(&Obj(TOLERATION))),
    g(
        "bindingConditions",
        STRINGS,
        Gate::DRADeviceBindingConditions,
    ),
    g(
        "bindingFailureConditions",
        STRINGS,
        Gate::DRADeviceBindingConditions,
    ),
    g("shareID", Str, Gate::DRAConsumableCapacity),
    g(
        "consumedCapacity",
        Map(&Quantity),
        Gate::DRAConsumableCapacity,
    ),
    gs(
        "skipNodeOperations",
        STRINGS,
        Gate::DRAOptionalNodeOperations,
        37,
    ),
];

/// `DeviceAllocationConfiguration`: the `DeviceConfiguration` is inline.
const ALLOCATION_CONFIG: &[Field] = &[
    f("source", Str),
    f("requests", STRINGS),
    f("opaque", Obj(OPAQUE)),
];

const DEVICE_ALLOCATION: &[Field] = &[
    f("results", List(&Obj(REQUEST_RESULT))),
    f("config", List(&Obj(ALLOCATION_CONFIG))),
];

const ALLOCATION: &[Field] = &[
    f("devices", Obj(DEVICE_ALLOCATION)),
    f("nodeSelector", Obj(NODE_SELECTOR)),
    f("allocationTimestamp", Time),
];

const CONSUMER_REFERENCE: &[Field] = &[
    f("apiGroup", Str),
    f("resource", Str),
    f("name", Str),
    f("uid", Str),
];

const NETWORK_DATA: &[Field] = &[
    f("interfaceName", Str),
    f("ips", STRINGS),
    f("hardwareAddress", Str),
];

const DEVICE_STATUS: &[Field] = &[
    f("driver", Str),
    f("pool", Str),
    f("device", Str),
    g("shareID", Str, Gate::DRAConsumableCapacity),
    f("conditions", List(&Obj(CONDITION))),
    f("data", Any),
    f("networkData", Obj(NETWORK_DATA)),
];

pub(super) const CLAIM_STATUS: &[Field] = &[
    f("allocation", Obj(ALLOCATION)),
    f("reservedFor", List(&Obj(CONSUMER_REFERENCE))),
    g(
        "devices",
        List(&Obj(DEVICE_STATUS)),
        Gate::DRAResourceClaimDeviceStatus,
    ),
];

pub(super) const TAINT_RULE_STATUS: &[Field] = &[f("conditions", List(&Obj(CONDITION)))];

/// `ResourcePoolStatusRequestStatus` and `PoolStatus` (k8s.io/api
/// resource/v1alpha3 at release-1.36 and master): counts are int32,
/// the generation an int64.
const POOL_STATUS: &[Field] = &[
    f("driver", Str),
    f("poolName", Str),
    f("generation", Int),
    f("resourceSliceCount", Int32),
    f("totalDevices", Int32),
    f("allocatedDevices", Int32),
    f("availableDevices", Int32),
    f("unavailableDevices", Int32),
    f("nodeName", Str),
    f("validationError", Str),
    between(
        f("partitionSummary", List(&Obj(PARTITION_TYPE_STATUS))),
        37,
        NOW,
    ),
    between(f("shareableSummary", Obj(SHAREABLE_SUMMARY)), 37, NOW),
];
/// 1.37's pool views (master of the 1.37 line, #140170).
const PARTITION_TYPE_STATUS: &[Field] = &[
    f("attribute", Str),
    f("type", Str),
    f("total", Int32),
    f("allocatable", Int32),
];
const SHAREABLE_SUMMARY: &[Field] = &[
    f("fullyAvailableDevices", Int32),
    f("partiallyAvailableDevices", Int32),
    f("capacity", List(&Obj(SHAREABLE_CAPACITY))),
];
const SHAREABLE_CAPACITY: &[Field] = &[
    f("name", Str),
    f("total", Quantity),
    f("consumed", Quantity),
    f("available", Quantity),
];
pub(super) const POOL_STATUS_REQUEST_STATUS: &[Field] = &[
    f("poolCount", Int32),
    f("pools", List(&Obj(POOL_STATUS))),
    f("conditions", List(&Obj(CONDITION))),
];
