//! DRA-R006: wildcards that cover resource.k8s.io for a service account.
use super::prelude::*;

declare_rule! {
    id: "DRA-R006", name: "wildcard-covers-resource-api", severity: Warning, origin: Linter,
    summary: "A wildcard (`*` verbs, resources or apiGroups) covers `resource.k8s.io` for a service account",
    docs: "A wildcard grants every subresource and verb, including `resourceclaims/binding` and `arbitrary-node:` on `resourceclaims/driver` for every driver, and every future one. DRA drivers and controllers need a handful of named grants (see `kubectl dra rbac`). Checked for rules that reach a ServiceAccount through a binding in the input, and for roles no binding uses.",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"*\"]\n  verbs: [\"*\"]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    for rule in m.account_rules() {
        if !rule.matches_group(GROUP) {
            continue;
        }
        let wild = ["apiGroups", "resources", "verbs"]
            .into_iter()
            .find_map(|k| {
                rule.list(k)
                    .into_iter()
                    .position(|(s, _)| s == "*")
                    .map(|i| (k, i, rule.list(k)[i].1))
            });
        let Some((key, i, span)) = wild else { continue };
        let holders = m.holders(&rule);
        let what = match key {
            "apiGroups" => "every API group, resource.k8s.io included",
            "resources" => "every resource.k8s.io resource and subresource",
            _ => "every verb, node-aware ones included",
        };
        out.report(
            rule.role,
            Warning,
            format!("{}.{key}[{i}]", rule.field()),
            span,
            format!("`*` grants {what} to {}", account_names(&holders)),
        )
        .note("this includes resourceclaims/binding and arbitrary-node: on resourceclaims/driver for every driver; `kubectl dra rbac --for driver` prints what a driver needs");
    }
}
