//! DRA-R001: status writes without the 1.36 granular grants.
use super::prelude::*;
use crate::rbac::{role_rules, PREFIX_ARBITRARY, PREFIX_ASSOCIATED, STATUS_VERBS};

declare_rule! {
    id: "DRA-R001", name: "status-write-forbidden", severity: Error, origin: Authorization,
    summary: "A service account may update ResourceClaim status but holds neither `resourceclaims/driver` nor `resourceclaims/binding`: from Kubernetes 1.36 its status writes are forbidden",
    docs: "From Kubernetes 1.36 (gate DRAResourceClaimGranularStatusAuthorization, beta, on by default) `update` on `resourceclaims/status` is not enough: changing `status.devices` also needs `associated-node:update`/`associated-node:patch` (node-local drivers) or `arbitrary-node:...` (controllers) on the synthetic subresource `resourceclaims/driver`, with the driver's name in `resourceNames`; changing `status.allocation` or `status.reservedFor` needs `update`/`patch` on `resourceclaims/binding`. A chart written before 1.36 breaks silently on upgrade: the driver's writes fail at run time. An error when the target has the gate on; a warning for older targets, where the grant is inert but needed after the upgrade. The finding shows the grant to add, for the workload kind that runs as the account (DaemonSet: associated-node; Deployment: arbitrary-node).",
    example: "rules:\n- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/status\"]\n  verbs: [\"update\", \"patch\"]\n# and no resourceclaims/driver rule\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let status_grant = |r: &PolicyRule<'_>| {
        STATUS_VERBS
            .iter()
            .any(|v| r.covers(GROUP, "resourceclaims/status", v, None))
    };
    let mut hits: Vec<(PolicyRule<'_>, Vec<&Account<'_>>)> = Vec::new();
    for a in &m.accounts {
        if a.may_write_device_status() || a.may_bind() {
            continue;
        }
        let Some(g) = a.grants.iter().find(|g| status_grant(&g.rule)) else {
            continue;
        };
        match hits
            .iter_mut()
            .find(|(r, _)| std::ptr::eq(r.node, g.rule.node))
        {
            Some((_, who)) => who.push(a),
            None => hits.push((g.rule, vec![a])),
        }
    }
    // A role no binding in the input uses is judged on its own rules.
    for r in m.unbound.iter().filter(|r| status_grant(r)) {
        let own = role_rules(cx.objects, r.role);
        let granular = own.iter().any(|o| {
            STATUS_VERBS.iter().any(|v| {
                o.covers(GROUP, "resourceclaims/binding", v, Some(""))
                    || [PREFIX_ASSOCIATED, PREFIX_ARBITRARY]
                        .iter()
                        .any(|p| o.covers(GROUP, "resourceclaims/driver", &format!("{p}{v}"), None))
            })
        });
        if !granular && !hits.iter().any(|(h, _)| std::ptr::eq(h.role, r.role)) {
            hits.push((*r, Vec::new()));
        }
    }
    let on = granular_status_on(cx);
    let drivers = published_drivers(cx);
    let names = if drivers.is_empty() {
        vec!["<your driver's name>".to_owned()]
    } else {
        drivers
    };
    for (rule, who) in hits {
        let controller = who.iter().any(|a| a.runs.control_plane);
        let node_local = who.iter().any(|a| a.runs.node_local);
        let prefix = if controller && !node_local {
            PREFIX_ARBITRARY
        } else {
            PREFIX_ASSOCIATED
        };
        let verbs = [format!("{prefix}update"), format!("{prefix}patch")];
        let verbs: Vec<&str> = verbs.iter().map(String::as_str).collect();
        let who_text = account_names(&who);
        let message = if on {
            format!("{who_text} may update ResourceClaim status, but holds neither resourceclaims/driver nor resourceclaims/binding: Kubernetes {} forbids its status writes", cx.gates.version)
        } else {
            format!("{who_text} may update ResourceClaim status, but holds neither resourceclaims/driver nor resourceclaims/binding: from Kubernetes 1.36 its status writes are forbidden")
        };
        let d = out.report(
            rule.role,
            if on { Forbidden } else { Warning },
            format!("{}.resources", rule.field()),
            rule.resource_span("resourceclaims/status"),
            message,
        );
        if !on {
            d.severity = crate::diag::Severity::Warning;
            d.note(format!(
                "the target is Kubernetes {} without DRAResourceClaimGranularStatusAuthorization; the grant below is inert there and needed from 1.36",
                cx.gates.version
            ));
        }
        d.note("status.devices needs associated-node:<verb> or arbitrary-node:<verb> on resourceclaims/driver (per driver, in resourceNames); status.allocation and status.reservedFor need update/patch on resourceclaims/binding");
        let kind = if prefix == PREFIX_ARBITRARY {
            "for a controller that writes status.devices of claims on any node"
        } else {
            "for a node-local driver (DaemonSet)"
        };
        d.note(format!(
            "add to {}, {kind}:\n{}",
            rule.role.reference,
            grant_yaml("resourceclaims/driver", &verbs, &names)
        ));
        if controller {
            d.note(format!(
                "if it allocates claims (sets status.allocation or status.reservedFor), add instead, bound with a ClusterRoleBinding:\n{}",
                grant_yaml("resourceclaims/binding", &["update", "patch"], &[])
            ));
        }
    }
}
