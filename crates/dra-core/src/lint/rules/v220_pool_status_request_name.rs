//! DRA-V220: ResourcePoolStatusRequest name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V220", name: "invalid-pool-status-request-name", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "ResourcePoolStatusRequest metadata.name is not a DNS subdomain",
    docs: "`ValidateResourcePoolStatusRequest` (kubernetes `pkg/apis/resource/validation/validation_resourcepoolstatusrequest.go`, 1.36 and 1.37) checks the object's metadata with `NameIsDNSSubdomain`: lower-case letters, digits, '-' and '.', at most 253 characters. The kind is alpha (resource.k8s.io/v1alpha3, gate DRAResourcePoolStatus) from 1.36.",
    example: "# kubectl dra lint --kubernetes-version 1.36 --feature-gates DRAResourcePoolStatus=true\napiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\nmetadata:\n  name: GPU_pools\nspec:\n  driver: gpu.example.com\n",
    check: Check::Object(&[ResourcePoolStatusRequest], |_, obj, out| check_object_name(obj, out)),
}
