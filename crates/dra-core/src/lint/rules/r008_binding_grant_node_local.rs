//! DRA-R008: `resourceclaims/binding` for a node-local driver.
use super::prelude::*;
use crate::rbac::{Request, STATUS_VERBS};

declare_rule! {
    id: "DRA-R008", name: "binding-grant-node-local", severity: Warning, origin: Linter,
    summary: "A service account that runs in a DaemonSet holds `resourceclaims/binding`",
    docs: "Only the scheduler and allocation controllers set `status.allocation` and `status.reservedFor`, which `resourceclaims/binding` guards. A node-local driver that holds it can allocate any device to any claim, or release claims in use, from every node. Remove the grant from the kubelet plugin's role.",
    example: "# bound to the ServiceAccount of a DaemonSet\n- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/binding\"]\n  verbs: [\"update\", \"patch\"]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let mut seen: Vec<*const Node> = Vec::new();
    for a in m.principals.iter().filter(|a| a.runs.node_local) {
        for g in &a.grants {
            let names_binding = g
                .rule
                .list("resources")
                .iter()
                .any(|(r, _)| *r == "resourceclaims/binding" || *r == "*/binding");
            let grants = STATUS_VERBS.iter().any(|v| {
                g.rule
                    .allows(&Request::new(GROUP, "resourceclaims/binding", v).named(""))
            });
            if !names_binding || !grants || seen.contains(&(g.rule.node as *const Node)) {
                continue;
            }
            seen.push(g.rule.node);
            let ds: Vec<String> = a
                .workloads
                .iter()
                .filter(|w| w.reference.kind == "DaemonSet")
                .map(|w| w.reference.to_string())
                .collect();
            out.report(
                g.rule.role,
                Warning,
                format!("{}.resources", g.rule.field()),
                g.rule.resource_span("resourceclaims/binding"),
                format!(
                    "{} runs in {}, a node-local driver, and may set status.allocation and status.reservedFor of every claim",
                    a.display(),
                    ds.join(", ")
                ),
            )
            .note("only the scheduler and allocation controllers need resourceclaims/binding; drivers need resourceclaims/driver");
        }
    }
}
