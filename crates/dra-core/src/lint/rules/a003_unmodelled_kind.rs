//! DRA-A003: a resource.k8s.io kind the release serves that kubectl-dra does not validate.
use super::prelude::*;

declare_rule! {
    id: "DRA-A003", name: "kind-not-validated", severity: Warning, origin: Decode,
    summary: "A resource.k8s.io kind the target release serves, but kubectl-dra does not model: the object is not validated",
    docs: "ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, alpha from Kubernetes 1.36 behind the DRAResourcePoolStatus gate and `--runtime-config`) asks a controller for a point-in-time count of a driver's pools (KEP-5677). kubectl-dra reads the five kinds of allocation (DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceTaintRule); an object of this kind is reported once and left unchecked, rather than refused as a kind no release serves (DRA-A002, which it is before 1.36).",
    example: "# kubectl dra lint --kubernetes-version 1.36\napiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\n",
    check: Check::Loader,
}

/// The kinds of resource.k8s.io that a release serves without kubectl-dra
/// modelling them: (kind, version, first release). The 1.36 documentation
/// lists ResourcePoolStatusRequest as resource.k8s.io/v1alpha3 and the
/// DRAResourcePoolStatus gate as alpha from 1.36.
pub(crate) const UNMODELLED: &[(&str, &str, Version)] = &[(
    "ResourcePoolStatusRequest",
    "resource.k8s.io/v1alpha3",
    Version::V1_36,
)];
