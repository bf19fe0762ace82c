//! DRA-A002: a kind in an API version the target release does not serve.
use super::prelude::*;

declare_rule! {
    id: "DRA-A002", name: "api-version-not-served", severity: Error, origin: Decode,
    summary: "The target Kubernetes release does not serve this kind in this API version, or serves it only with a feature gate that is off",
    docs: "Each release serves each resource.k8s.io kind in a fixed set of API versions (k8s.io/api's prerelease-lifecycle files), and installs a kind's storage only while its feature gate is on (pkg/registry/resource/rest). Anything else is refused before validation (`kubectl apply`: no matches for kind). DeviceTaintRule, for example, is resource.k8s.io/v1alpha3 only in 1.34 and 1.35 (gate DRADeviceTaints in 1.34, DRADeviceTaintRules from 1.35), v1beta2 from 1.36 and v1 from 1.37; classic DRA's resource.k8s.io/v1alpha2 was removed in 1.31. The finding says which releases serve the kind and in which version. Nothing else is checked on such an object. The table is in docs/served-versions.md. The other kinds lint reads are served only in `v1` by 1.34-1.37: `rbac.authorization.k8s.io/v1beta1` (removed in 1.22), `apps/v1beta1`, `apps/v1beta2` and `extensions/v1beta1` workloads (removed in 1.16), `batch/v1beta1` CronJobs (1.25) and `admissionregistration.k8s.io/v1beta1` ValidatingAdmissionPolicies (1.34) are refused the same way (k8s.io/api prerelease-lifecycle files).",
    example: "# kubectl dra lint --kubernetes-version 1.35\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\n",
    check: Check::Loader,
    fix: &crate::fix::builders::CONVERT,
}
