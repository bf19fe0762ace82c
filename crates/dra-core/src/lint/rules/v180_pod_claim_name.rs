//! DRA-V180: pod resourceClaims name missing, invalid or repeated.
use super::prelude::*;

declare_rule! {
    id: "DRA-V180", name: "invalid-pod-claim-name", severity: Error, origin: Apiserver,
    summary: "A pod's spec.resourceClaims entry has no name, a name that is not a DNS label, or a repeated name",
    docs: "Containers refer to pod-level claims by this name in resources.claims. Core validation's `validatePodResourceClaim` (the same in 1.34-1.37: galal-hussein/kubernetes@ec20661 ≈131k for 1.35, and the later copy 0723741): an empty name is Required, a repeated one Duplicate (checked before the format, so a repeat is not validated again), otherwise the name must be a DNS label. A mirror pod (a static pod, annotation `kubernetes.io/config.mirror`) may not use claims at all: each entry is then Forbidden at the object's root path (\"static pods do not support resource claims\", kubernetes#131844, 1.34), and nothing else of it is checked.",
    example: "spec:\n  resourceClaims:\n  - name: GPU\n    resourceClaimTemplateName: gpu-template\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.pod_spec() else { return };
    let base = obj.pod_spec_field();
    let mut seen: Vec<&str> = Vec::new();
    let mirror = is_mirror_pod(obj);
    for (i, c) in items(spec, "resourceClaims").iter().enumerate() {
        if mirror {
            out.report(
                obj,
                Forbidden,
                "",
                c.span,
                "static pods do not support resource claims",
            );
            continue;
        }
        let path = format!("{base}.resourceClaims[{i}].name");
        match get(c, "name").map(|n| (n, n.as_str())) {
            None | Some((_, Some(""))) => {
                out.report(obj, Required, path, c.span, "a claim name is required");
            }
            Some((n, Some(name))) => {
                if seen.contains(&name) {
                    out.report(
                        obj,
                        Duplicate,
                        path,
                        n.span,
                        format!("claim name {name:?} is used twice"),
                    );
                } else {
                    for msg in crate::name_errors::dns1123_label(name) {
                        out.report(obj, Invalid, path.clone(), n.span, msg);
                    }
                    seen.push(name);
                }
            }
            _ => {}
        }
    }
}
