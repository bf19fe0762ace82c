//! DRA-V001: ResourceSlice name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V001", name: "invalid-slice-name", severity: Error, origin: Apiserver,
    summary: "ResourceSlice metadata.name is not a DNS subdomain",
    docs: "ResourceSlices are cluster-scoped objects whose names must be DNS subdomains (lower case, digits, '-', '.', at most 253 characters).",
    example: "metadata:\n  name: Node1_GPUs\n",
    check: Check::Object(SLICES, |_, obj, out| check_object_name(obj, out)),
}
