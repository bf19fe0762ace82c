//! DRA-H007: a pod bound to a node whose claims are not allocated.
use super::prelude::*;

declare_rule! {
    id: "DRA-H007", name: "bound-pod-claim-unallocated", severity: Error, origin: Linter,
    summary: "A Pod with spec.nodeName uses a claim that is not allocated (or does not exist)",
    docs: "Only kube-scheduler allocates claims. A pod created with `spec.nodeName` skips it, so the kubelet waits for an allocation that never comes: the pod stays in ContainerCreating. Use a nodeSelector (or node affinity) on `kubernetes.io/hostname` instead of nodeName. Checked for pods whose claims are in the input.",
    example: "spec:\n  nodeName: worker-1\n  resourceClaims:\n  - {name: gpu, resourceClaimName: gpu}\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if obj.reference.kind != "Pod" {
        return;
    }
    let Some(spec) = obj.pod_spec() else { return };
    let Some(node) = get(spec, "nodeName")
        .and_then(Node::as_str)
        .filter(|n| !n.is_empty())
    else {
        return;
    };
    let phase = get(&obj.root, "status")
        .and_then(|s| get(s, "phase"))
        .and_then(Node::as_str);
    if matches!(phase, Some("Running" | "Succeeded" | "Failed")) {
        return;
    }
    let ns = obj.namespace_or_default();
    let claims = &cx.dra().claims;
    if claims.is_empty() {
        return;
    }
    for (i, c) in crate::dra::PodClaims::decode(obj).claims.iter().enumerate() {
        let name = match c.source {
            crate::dra::PodClaimSource::Claim(n) => n,
            crate::dra::PodClaimSource::Template(_) => match c.generated {
                Some(n) => n,
                None => continue,
            },
            crate::dra::PodClaimSource::Unset => continue,
        };
        let stored = claims.iter().find(|k| k.namespace == ns && k.name == name);
        let why = match stored {
            Some(k) if k.allocation.is_some() => continue,
            Some(_) => "is not allocated",
            None => "does not exist",
        };
        out.report(
            obj,
            Invalid,
            format!("spec.resourceClaims[{i}]"),
            c.node.span,
            format!("the pod is bound to {node} by spec.nodeName, which skips kube-scheduler, and its claim {ns}/{name} {why}: only the scheduler allocates claims, so the pod stays in ContainerCreating"),
        );
    }
}
