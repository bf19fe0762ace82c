//! DRA-V182: a container claim that the pod does not declare.
use super::prelude::*;

declare_rule! {
    id: "DRA-V182", name: "unknown-container-claim", severity: Error, origin: Apiserver,
    summary: "A container's resources.claims entry names no claim of spec.resourceClaims, or repeats one",
    docs: "`containers[].resources.claims[].name` must be the name of an entry in the pod's `spec.resourceClaims` (not the name of the ResourceClaim object). As core validation's `validateResourceClaimNames` checks it: each entry needs a name (Required); a `request` must be a DNS label; a claim listed whole may not be listed again, whole or by request, and a claim listed whole after some of its requests is a Duplicate for each of them.",
    example: "spec:\n  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]\n  containers:\n  - name: c\n    resources:\n      claims: [{name: gpus}]\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.pod_spec() else { return };
    let base = obj.pod_spec_field();
    let mut pod_claims: Vec<&str> = items(spec, "resourceClaims")
        .iter()
        .filter_map(|c| get_str(c, "name"))
        // gatherPodResourceClaimNames: the non-empty names, sorted by
        // sets.List for the message.
        .filter(|n| !n.is_empty())
        .collect();
    pod_claims.sort_unstable();
    pod_claims.dedup();
    for list in ["initContainers", "containers"] {
        for (c, container) in items(spec, list).iter().enumerate() {
            let Some(res) = get(container, "resources") else {
                continue;
            };
            let path = format!("{base}.{list}[{c}].resources.claims");
            check_claims(obj, items(res, "claims"), &pod_claims, &path, out);
        }
    }
}

/// core validation's `validateResourceClaimNames`, entry by entry.
fn check_claims(
    obj: &Object,
    claims: &[Node],
    pod_claims: &[&str],
    base: &str,
    out: &mut Sink<'_>,
) {
    // "name" for a whole claim, "name/request" for one of its requests.
    let mut names: Vec<String> = Vec::new();
    for (i, claim) in claims.iter().enumerate() {
        let path = format!("{base}[{i}]");
        let Some(name) = get_str(claim, "name").filter(|n| !n.is_empty()) else {
            out.report(obj, Required, path, claim.span, "a claim name is required");
            continue;
        };
        if names.iter().any(|k| k == name) {
            // All requests of that claim are already referenced.
            out.report(
                obj,
                Duplicate,
                path.clone(),
                claim.span,
                format!("{name:?}: the whole claim is already listed"),
            );
        } else {
            let request = get_str(claim, "request").filter(|r| !r.is_empty());
            let mut key = name.to_owned();
            if let Some(r) = request {
                let span = get(claim, "request").map_or(claim.span, |n| n.span);
                for msg in crate::name_errors::dns1123_label(r) {
                    out.report(obj, Invalid, format!("{path}.request"), span, msg);
                }
                key = format!("{name}/{r}");
            }
            if names.contains(&key) {
                out.report(
                    obj,
                    Duplicate,
                    path.clone(),
                    claim.span,
                    format!("{key:?} is listed twice"),
                );
            } else if request.is_none() {
                // A whole claim after some of its requests: one error per
                // request listed before, as the upstream loop reports them.
                let prefix = format!("{name}/");
                for _ in names.iter().filter(|k| k.starts_with(&prefix)) {
                    out.report(
                        obj,
                        Duplicate,
                        path.clone(),
                        claim.span,
                        format!("{name:?}: some of its requests are already listed"),
                    );
                }
            }
            names.push(key);
        }
        if !pod_claims.contains(&name) {
            let span = get(claim, "name").map_or(claim.span, |n| n.span);
            let detail = if pod_claims.is_empty() {
                "must be one of the names in pod.spec.resourceClaims which is empty".to_owned()
            } else {
                format!(
                    "must be one of the names in pod.spec.resourceClaims: {}",
                    pod_claims.join(", ")
                )
            };
            let d = out.report(obj, NotFound, path, span, format!("{name:?}: {detail}"));
            if let Some(s) = crate::suggest::did_you_mean(name, pod_claims.iter().copied()) {
                d.note(format!("did you mean {s:?}?"));
            }
        }
    }
}
