//! DRA-R007: write access to ResourceSlices that the apiserver cannot fence.
use super::prelude::*;

declare_rule! {
    id: "DRA-R007", name: "slice-write-any-driver", severity: Info, origin: Linter,
    summary: "A service account may write ResourceSlices, and nothing in the input limits it to its own driver or node",
    docs: "The node authorizer limits kubelets to their own node's slices, but a driver's service account that may create, update or delete ResourceSlices may do so for every driver and node: the apiserver cannot tell which are its own. Drivers such as dra-example-driver ship a ValidatingAdmissionPolicy that ties a service account to `spec.driver` and to the node its token names. Quiet when the input holds a ValidatingAdmissionPolicy that matches resourceslices.",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceslices\"]\n  verbs: [\"create\", \"update\", \"delete\"]\n",
    check: Check::Run(check),
}

const WRITES: [&str; 5] = ["create", "update", "patch", "delete", "deletecollection"];

fn fenced(cx: &Ctx<'_>) -> bool {
    cx.of_kind(AdmissionPolicy).any(|p| {
        let rules = p
            .spec()
            .and_then(|s| get(s, "matchConstraints"))
            .map_or(&[][..], |c| items(c, "resourceRules"));
        rules.iter().any(|r| {
            items(r, "resources")
                .iter()
                .any(|n| matches!(n.as_str(), Some("resourceslices" | "*")))
        })
    })
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    if fenced(cx) {
        return;
    }
    let Some(m) = rbac_model(cx) else { return };
    for rule in m.account_rules() {
        let names_slices = rule
            .list("resources")
            .iter()
            .any(|(r, _)| *r == "resourceslices");
        let writes: Vec<&str> = WRITES
            .into_iter()
            .filter(|v| rule.list("verbs").iter().any(|(x, _)| x == v))
            .collect();
        if !rule.matches_group(GROUP) || !names_slices || writes.is_empty() {
            continue;
        }
        let holders = m.holders(&rule);
        out.report(
            rule.role,
            Warning,
            format!("{}.resources", rule.field()),
            rule.resource_span("resourceslices"),
            format!(
                "{} may {} ResourceSlices of every driver and node: the apiserver cannot tell which are its own",
                principal_names(&holders),
                writes.join("/")
            ),
        )
        .note("ship a ValidatingAdmissionPolicy that checks spec.driver (and spec.nodeName against the token's node), as dra-example-driver does");
    }
}
