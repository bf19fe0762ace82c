//! DRA-R003: `arbitrary-node:` verbs for an account that only runs in a DaemonSet.
use super::prelude::*;
use crate::rbac::PREFIX_ARBITRARY;

declare_rule! {
    id: "DRA-R003", name: "arbitrary-node-for-node-local", severity: Warning, origin: Linter,
    summary: "A service account that only runs in a DaemonSet holds `arbitrary-node:` verbs on `resourceclaims/driver`",
    docs: "A node-local driver only writes the status of claims allocated on its own node. `associated-node:update`/`associated-node:patch` let the apiserver check that (the pod's service account token names its node); `arbitrary-node:` lets a compromised node rewrite device status of claims on every node. Use the associated-node verbs for kubelet plugins.",
    example: "# bound to the ServiceAccount of a DaemonSet\n- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/driver\"]\n  verbs: [\"arbitrary-node:update\"]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let mut seen: Vec<crate::tree::Span> = Vec::new();
    for a in m
        .principals
        .iter()
        .filter(|a| a.runs.node_local && !a.runs.control_plane)
    {
        for g in &a.grants {
            if !g.rule.matches_group(GROUP) || !g.rule.matches_resource("resourceclaims/driver") {
                continue;
            }
            for (i, (v, span)) in g.rule.list("verbs").into_iter().enumerate() {
                let Some(rest) = v.strip_prefix(PREFIX_ARBITRARY) else {
                    continue;
                };
                if seen.contains(&span) {
                    continue;
                }
                seen.push(span);
                let ds: Vec<String> = a
                    .workloads
                    .iter()
                    .map(|w| w.reference.to_string())
                    .collect();
                out.report(
                    g.rule.role,
                    Warning,
                    format!("{}.verbs[{i}]", g.rule.field()),
                    span,
                    format!(
                        "{} only runs in {}, a node-local driver: use associated-node:{rest}",
                        a.display(),
                        ds.join(", ")
                    ),
                )
                .note("arbitrary-node lets the driver on any node rewrite status.devices of claims on every other node");
            }
        }
    }
}
