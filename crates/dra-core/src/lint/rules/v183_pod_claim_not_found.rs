//! DRA-V183: a pod claim naming a claim or template not in the input.
use super::prelude::*;

declare_rule! {
    id: "DRA-V183", name: "pod-claim-not-found", severity: Warning, origin: Linter,
    summary: "A pod refers to a ResourceClaim or ResourceClaimTemplate (or a request of it) that the linted files do not define",
    docs: "The pod stays Pending until the claim or template exists in its namespace. Checked only when the input contains claims (or templates) at all, so that linting a Deployment on its own stays quiet. A container claim's `request` must name a request of that claim.",
    example: "resourceClaims:\n- name: gpu\n  resourceClaimTemplateName: gpu-tmpl   # the file defines gpu-template\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.pod_spec() else { return };
    let base = obj.pod_spec_field();
    let ns = obj.namespace();
    let find = |kind: ObjectKind, name: &str| {
        cx.of_kind(kind).find(|o| {
            o.name() == Some(name)
                && (ns.is_none() || o.namespace().is_none() || o.namespace() == ns)
        })
    };
    let claims_given = cx.of_kind(ResourceClaim).next().is_some();
    let templates_given = cx.of_kind(ResourceClaimTemplate).next().is_some();
    let mut targets: Vec<(&str, Option<&Object>)> = Vec::new();
    for (i, c) in items(spec, "resourceClaims").iter().enumerate() {
        let pod_name = get_str(c, "name").unwrap_or("");
        for (key, kind, given) in [
            ("resourceClaimName", ResourceClaim, claims_given),
            (
                "resourceClaimTemplateName",
                ResourceClaimTemplate,
                templates_given,
            ),
        ] {
            let Some(n) = get(c, key) else { continue };
            let Some(name) = n.as_str() else { continue };
            let found = find(kind, name);
            targets.push((pod_name, found));
            if given && found.is_none() {
                let known: Vec<&str> = cx.of_kind(kind).filter_map(|o| o.name()).collect();
                let what = if kind == ResourceClaim {
                    "ResourceClaim"
                } else {
                    "ResourceClaimTemplate"
                };
                let place = ns.map(|n| format!(" in namespace {n}")).unwrap_or_default();
                let d = out.report(
                    obj,
                    Warning,
                    format!("{base}.resourceClaims[{i}].{key}"),
                    n.span,
                    format!("no {what} named {name:?}{place} in the input"),
                );
                if let Some(other) = cx.of_kind(kind).find(|o| o.name() == Some(name)) {
                    d.note(format!("{} is in namespace {}: a pod can only use claims and templates of its own namespace", other.reference, other.namespace_or_default()));
                } else if let Some(s) = crate::suggest::did_you_mean(name, known) {
                    d.note(format!("did you mean {s:?}?"));
                }
            }
        }
    }
    for list in ["initContainers", "containers"] {
        for (c, container) in items(spec, list).iter().enumerate() {
            let Some(res) = get(container, "resources") else {
                continue;
            };
            for (i, claim) in items(res, "claims").iter().enumerate() {
                let (Some(name), Some(rn)) = (get_str(claim, "name"), get(claim, "request")) else {
                    continue;
                };
                let Some(request) = rn.as_str() else { continue };
                let Some((_, Some(target))) = targets.iter().find(|(n, _)| *n == name) else {
                    continue;
                };
                let names = request_names(cx.gates.version, target);
                if !names.iter().any(|(r, _)| r == request) {
                    out.report(
                        obj,
                        Warning,
                        format!("{base}.{list}[{c}].resources.claims[{i}].request"),
                        rn.span,
                        format!("{} has no request named {request:?}", target.reference),
                    );
                }
            }
        }
    }
}
