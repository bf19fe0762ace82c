//! DRA-R002: verbs on `resourceclaims/driver` the apiserver never asks for.
use super::prelude::*;
use crate::rbac::{PREFIX_ARBITRARY, PREFIX_ASSOCIATED, STATUS_VERBS};

declare_rule! {
    id: "DRA-R002", name: "driver-grant-grants-nothing", severity: Error, origin: Authorization,
    summary: "A verb on `resourceclaims/driver` that the apiserver never asks for: the grant gives nothing",
    docs: "The apiserver checks `resourceclaims/driver` only with the node-aware verbs `associated-node:update`, `associated-node:patch`, `arbitrary-node:update` and `arbitrary-node:patch`. RBAC compares verbs literally, so plain `update`/`patch`, other verbs, unknown prefixes and `associated-node:*` grant nothing there, and the driver's writes of `status.devices` stay forbidden. Use the prefixed verbs (or, for a rule that also names other resources, add a rule of its own).",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/driver\"]\n  verbs: [\"update\", \"patch\"]\n",
    check: Check::Run(check),
}

/// Whether the apiserver ever asks for this verb on `resourceclaims/driver`.
fn asked(verb: &str) -> bool {
    verb == "*"
        || [PREFIX_ASSOCIATED, PREFIX_ARBITRARY].iter().any(|p| {
            verb.strip_prefix(p)
                .is_some_and(|v| STATUS_VERBS.contains(&v))
        })
}

fn is_driver_resource(r: &str) -> bool {
    r == "resourceclaims/driver" || r == "*/driver"
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    for rule in &m.all_rules {
        let resources = rule.list("resources");
        if !rule.matches_group(GROUP) || !resources.iter().any(|(r, _)| is_driver_resource(r)) {
            continue;
        }
        let verbs = rule.list("verbs");
        let only_driver = resources.iter().all(|(r, _)| is_driver_resource(r));
        if !only_driver {
            if !verbs.iter().any(|(v, _)| asked(v)) {
                out.report(
                    rule.role,
                    Invalid,
                    format!("{}.resources", rule.field()),
                    rule.resource_span("resourceclaims/driver"),
                    "this rule grants nothing on resourceclaims/driver: none of its verbs is one the apiserver asks for",
                )
                .note("use a rule of its own with associated-node:update/patch (node-local drivers) or arbitrary-node:update/patch (controllers)");
            }
            continue;
        }
        for (i, (v, span)) in verbs.iter().enumerate() {
            if asked(v) {
                continue;
            }
            let message = if let Some((prefix, rest)) = v.split_once(':') {
                let known = [PREFIX_ASSOCIATED, PREFIX_ARBITRARY]
                    .iter()
                    .any(|p| p.trim_end_matches(':') == prefix);
                if !known {
                    format!("{v:?} grants nothing: the prefixes are associated-node: and arbitrary-node:")
                } else if rest == "*" {
                    format!("{v:?} grants nothing: RBAC matches verbs literally and the apiserver asks for {prefix}:update and {prefix}:patch")
                } else {
                    format!("{v:?} grants nothing: the apiserver asks resourceclaims/driver only for {prefix}:update and {prefix}:patch")
                }
            } else {
                format!("{v:?} on resourceclaims/driver grants nothing: the apiserver asks for associated-node:{v} or arbitrary-node:{v}")
            };
            out.report(
                rule.role,
                Invalid,
                format!("{}.verbs[{i}]", rule.field()),
                *span,
                message,
            )
            .note("node-local drivers (DaemonSet): associated-node:update, associated-node:patch; controllers writing for any node: arbitrary-node:update, arbitrary-node:patch");
        }
    }
}
