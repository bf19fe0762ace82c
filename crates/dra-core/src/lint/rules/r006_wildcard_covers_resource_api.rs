//! DRA-R006: wildcards that cover resource.k8s.io for a service account.
use super::prelude::*;

declare_rule! {
    id: "DRA-R006", name: "wildcard-covers-resource-api", severity: Warning, origin: Linter,
    summary: "A wildcard (`*` verbs, resources or apiGroups) covers `resource.k8s.io` for a service account",
    docs: "A wildcard grants every subresource and verb, including `resourceclaims/binding` and `arbitrary-node:` on `resourceclaims/driver` for every driver, and every future one. DRA drivers and controllers need a handful of named grants (see `kubectl dra rbac`). Checked for rules that reach a ServiceAccount through a binding in the input, and for roles no binding uses.",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"*\"]\n  verbs: [\"*\"]\n",
    check: Check::Run(check),
}

/// The resources and subresources resource.k8s.io serves (any release).
const RESOURCES: &[&str] = &[
    "deviceclasses",
    "resourceclaims",
    "resourceclaims/status",
    "resourceclaims/binding",
    "resourceclaims/driver",
    "resourceclaimtemplates",
    "resourceslices",
    "devicetaintrules",
    "devicetaintrules/status",
];

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    for rule in m.account_rules() {
        // What the rule reaches in resource.k8s.io, matched as RBAC does:
        // `apiGroups: ["*"]` with `resources: ["pods"]` reaches nothing there.
        let reached: Vec<&str> = RESOURCES
            .iter()
            .copied()
            .filter(|r| rule.matches_resource(r))
            .collect();
        if !rule.matches_group(GROUP) || reached.is_empty() {
            continue;
        }
        let literal_group = rule.list("apiGroups").iter().any(|(g, _)| *g == GROUP);
        let wild = ["apiGroups", "resources", "verbs"]
            .into_iter()
            .filter(|k| *k != "apiGroups" || !literal_group)
            .find_map(|k| {
                rule.list(k)
                    .into_iter()
                    .enumerate()
                    .find(|(_, (s, _))| *s == "*")
                    .map(|(i, (_, span))| (k, i, span))
            });
        let Some((key, i, span)) = wild else { continue };
        let holders = m.holders(&rule);
        let what = match key {
            "apiGroups" => format!("resource.k8s.io's {}", reached.join(", ")),
            "resources" => "every resource.k8s.io resource and subresource".to_owned(),
            _ => format!(
                "every verb on {}, node-aware ones included",
                reached.join(", ")
            ),
        };
        out.report(
            rule.role,
            Warning,
            format!("{}.{key}[{i}]", rule.field()),
            span,
            format!("`*` grants {what} to {}", principal_names(&holders)),
        )
        .note("a wildcard also grants every future resource, subresource and verb, such as resourceclaims/binding and arbitrary-node: on resourceclaims/driver; `kubectl dra rbac --for driver` prints what a driver needs");
    }
}
