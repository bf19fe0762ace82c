//! DRA-R004: `resourceclaims/driver` granted for every driver.
use super::prelude::*;

declare_rule! {
    id: "DRA-R004", name: "driver-grant-any-driver", severity: Warning, origin: Linter,
    summary: "`resourceclaims/driver` is granted without `resourceNames`: the account may rewrite device status of every driver",
    docs: "The apiserver checks `resourceclaims/driver` per driver, with the driver's name as the resource name, so that one driver cannot tamper with another's devices. A rule without `resourceNames` grants it for every driver. Name your driver(s).",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/driver\"]\n  verbs: [\"associated-node:update\"]\n  # no resourceNames\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let drivers = published_drivers(cx);
    for rule in &m.all_rules {
        let names_driver = rule
            .list("resources")
            .iter()
            .any(|(r, _)| *r == "resourceclaims/driver" || *r == "*/driver");
        if !rule.matches_group(GROUP) || !names_driver || !rule.list("resourceNames").is_empty() {
            continue;
        }
        let d = out.report(
            rule.role,
            Warning,
            format!("{}.resourceNames", rule.field()),
            rule.resource_span("resourceclaims/driver"),
            "resourceclaims/driver without resourceNames: this grants status writes for every driver's devices",
        );
        if drivers.is_empty() {
            d.note("add resourceNames: [<your driver's name>]");
        } else {
            d.note(format!("add resourceNames: [{}]", drivers.join(", ")));
        }
    }
}
