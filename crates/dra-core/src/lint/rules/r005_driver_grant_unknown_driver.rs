//! DRA-R005: `resourceNames` of a driver grant that name no driver of the input.
use super::prelude::*;

declare_rule! {
    id: "DRA-R005", name: "driver-grant-unknown-driver", severity: Warning, origin: Linter,
    summary: "`resourceNames` of a `resourceclaims/driver` grant name no driver that the input publishes devices for",
    docs: "The resource name the apiserver checks is the driver name in `status.devices[].driver`. When the chart's DeviceClasses and ResourceSlices name other drivers, the grant is probably a typo or a stale name, and the driver's status writes are forbidden. Checked only when the input names at least one driver (a ResourceSlice's `spec.driver`, or `device.driver == \"...\"` in a DeviceClass selector).",
    example: "- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/driver\"]\n  verbs: [\"associated-node:update\"]\n  resourceNames: [\"gpu.exmaple.com\"]   # classes select gpu.example.com\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let drivers = published_drivers(cx);
    if drivers.is_empty() {
        return;
    }
    for rule in &m.all_rules {
        let names_driver = rule
            .list("resources")
            .iter()
            .any(|(r, _)| *r == "resourceclaims/driver" || *r == "*/driver");
        if !rule.matches_group(GROUP) || !names_driver {
            continue;
        }
        for (i, (name, span)) in rule.list("resourceNames").into_iter().enumerate() {
            if drivers.iter().any(|d| d == name) {
                continue;
            }
            let d = out.report(
                rule.role,
                Warning,
                format!("{}.resourceNames[{i}]", rule.field()),
                span,
                format!(
                    "{name:?} is not a driver of this input, which publishes {}",
                    drivers.join(", ")
                ),
            );
            if let Some(s) = crate::suggest::did_you_mean(name, drivers.iter().map(String::as_str))
            {
                d.note(format!("did you mean {s:?}?"));
            }
        }
    }
}
