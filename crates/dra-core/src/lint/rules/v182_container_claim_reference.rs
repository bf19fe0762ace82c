//! DRA-V182: a container claim that the pod does not declare.
use super::prelude::*;

declare_rule! {
    id: "DRA-V182", name: "unknown-container-claim", severity: Error, origin: Apiserver,
    summary: "A container's resources.claims entry names no claim of spec.resourceClaims, or repeats one",
    docs: "`containers[].resources.claims[].name` must be the name of an entry in the pod's `spec.resourceClaims` (not the name of the ResourceClaim object).",
    example: "spec:\n  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]\n  containers:\n  - name: c\n    resources:\n      claims: [{name: gpus}]\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.pod_spec() else { return };
    let base = obj.pod_spec_field();
    let pod_claims: Vec<&str> = items(spec, "resourceClaims")
        .iter()
        .filter_map(|c| get_str(c, "name"))
        .collect();
    for list in ["initContainers", "containers"] {
        for (c, container) in items(spec, list).iter().enumerate() {
            let Some(res) = get(container, "resources") else {
                continue;
            };
            let mut seen: Vec<String> = Vec::new();
            for (i, claim) in items(res, "claims").iter().enumerate() {
                let path = format!("{base}.{list}[{c}].resources.claims[{i}]");
                let Some(name) = get_str(claim, "name").filter(|n| !n.is_empty()) else {
                    out.report(obj, Required, path, claim.span, "a claim name is required");
                    continue;
                };
                let key = match get_str(claim, "request") {
                    Some(r) if !r.is_empty() => format!("{name}/{r}"),
                    _ => name.to_owned(),
                };
                if seen.contains(&key) {
                    out.report(
                        obj,
                        Duplicate,
                        path.clone(),
                        claim.span,
                        format!("{key:?} is listed twice"),
                    );
                } else {
                    seen.push(key);
                }
                if !pod_claims.contains(&name) {
                    let span = get(claim, "name").map_or(claim.span, |n| n.span);
                    let d = out.report(
                        obj,
                        NotFound,
                        path,
                        span,
                        format!("{name:?} must be one of the names in pod.spec.resourceClaims"),
                    );
                    if let Some(s) = crate::suggest::did_you_mean(name, pod_claims.iter().copied())
                    {
                        d.note(format!("did you mean {s:?}?"));
                    } else if pod_claims.is_empty() {
                        d.note("pod.spec.resourceClaims is empty");
                    }
                }
            }
        }
    }
}
