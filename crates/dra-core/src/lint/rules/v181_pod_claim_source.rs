//! DRA-V181: pod claim without exactly one source.
use super::prelude::*;

declare_rule! {
    id: "DRA-V181", name: "invalid-pod-claim-source", severity: Error, origin: Apiserver,
    summary: "A pod's resourceClaims entry sets neither or both of resourceClaimName and resourceClaimTemplateName, or names an invalid one",
    docs: "A pod claim either refers to an existing ResourceClaim (shared) or to a ResourceClaimTemplate from which a claim is generated per pod.",
    example: "resourceClaims:\n- name: gpu\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.pod_spec() else { return };
    // A mirror pod's claims are refused whole (DRA-V180).
    if is_mirror_pod(obj) {
        return;
    }
    let base = obj.pod_spec_field();
    for (i, c) in items(spec, "resourceClaims").iter().enumerate() {
        let path = format!("{base}.resourceClaims[{i}]");
        let claim = get(c, "resourceClaimName");
        let template = get(c, "resourceClaimTemplateName");
        match (claim, template) {
            (Some(_), Some(_)) => {
                out.report(obj, Invalid, path.clone(), c.span, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified");
            }
            (None, None) => {
                out.report(
                    obj,
                    Invalid,
                    path.clone(),
                    c.span,
                    "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
                );
            }
            _ => {}
        }
        for (k, n) in [
            ("resourceClaimName", claim),
            ("resourceClaimTemplateName", template),
        ] {
            if let Some(s) = n.and_then(Node::as_str) {
                // ValidateResourceClaimName: NameIsDNSSubdomain.
                for msg in crate::name_errors::dns1123_subdomain(s) {
                    out.report(
                        obj,
                        Invalid,
                        format!("{path}.{k}"),
                        n.map_or(c.span, |n| n.span),
                        msg,
                    );
                }
            }
        }
    }
}
