//! DRA-V130: claim or template name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V130", name: "invalid-claim-name", severity: Error, origin: Apiserver,
    summary: "ResourceClaim or ResourceClaimTemplate metadata.name is not a DNS subdomain",
    docs: "Claims and templates are namespaced; Pods refer to them by this name.",
    example: "metadata:\n  name: My_Claim\n",
    check: Check::Object(CLAIMS, |_, obj, out| check_object_name(obj, out)),
}
