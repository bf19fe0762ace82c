//! DRA-R009: `resourceclaims/binding` granted where the apiserver never looks.
use super::prelude::*;
use crate::rbac::{Scope, STATUS_VERBS};

declare_rule! {
    id: "DRA-R009", name: "binding-grant-grants-nothing", severity: Error, origin: Authorization,
    summary: "`resourceclaims/binding` is granted through a Role, a RoleBinding or with `resourceNames`, but the apiserver checks it cluster-wide and for no name: the grant gives nothing",
    docs: "The apiserver authorizes `resourceclaims/binding` with an empty namespace and an empty name (`AuthorizedForBinding` in kubernetes/pkg/registry/resource). So only a ClusterRole bound by a ClusterRoleBinding, in a rule without `resourceNames`, grants it. A Role, a ClusterRole bound only by RoleBindings, or a rule listing claim names leaves the controller's writes of `status.allocation` and `status.reservedFor` forbidden.",
    example: "kind: Role\nrules:\n- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/binding\"]\n  verbs: [\"update\", \"patch\"]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    for rule in &m.all_rules {
        let names_binding = rule
            .list("resources")
            .iter()
            .any(|(r, _)| *r == "resourceclaims/binding" || *r == "*/binding");
        let verbs = STATUS_VERBS.iter().any(|v| rule.matches_verb(v));
        if !names_binding || !verbs || !rule.matches_group(GROUP) {
            continue;
        }
        let why = if !rule.list("resourceNames").is_empty() {
            "the rule lists resourceNames".to_owned()
        } else if rule.role.kind == Role {
            format!("{} is a namespaced Role", rule.role.reference)
        } else {
            let grants: Vec<_> = m
                .principals
                .iter()
                .flat_map(|a| a.grants.iter())
                .filter(|g| std::ptr::eq(g.rule.node, rule.node))
                .collect();
            if grants.is_empty() || grants.iter().any(|g| g.scope == Scope::Cluster) {
                continue;
            }
            format!("{} is bound only by RoleBindings", rule.role.reference)
        };
        out.report(
            rule.role,
            Invalid,
            format!("{}.resources", rule.field()),
            rule.resource_span("resourceclaims/binding"),
            format!("{why}, but the apiserver checks resourceclaims/binding cluster-wide and for no object name: this grants nothing"),
        )
        .note("grant update/patch on resourceclaims/binding without resourceNames, in a ClusterRole bound by a ClusterRoleBinding");
    }
}
