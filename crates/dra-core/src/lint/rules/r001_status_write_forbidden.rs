//! DRA-R001: status writes the 1.36 granular checks will deny.
use super::prelude::*;
use crate::rbac::{
    Identity, Principal, StatusWrite, PREFIX_ARBITRARY, PREFIX_ASSOCIATED, STATUS_VERBS,
};

declare_rule! {
    id: "DRA-R001", name: "status-write-forbidden", severity: Error, origin: Authorization, releases: "1.34+ (error from 1.36)",
    summary: "A subject may update or patch ResourceClaim status, but for some of those verbs it holds neither `resourceclaims/driver` nor `resourceclaims/binding`: from Kubernetes 1.36 those status writes are forbidden",
    docs: "From Kubernetes 1.36 (gate DRAResourceClaimGranularStatusAuthorization, beta, on by default) `update` or `patch` on `resourceclaims/status` is not enough. The apiserver asks again with the request's own verb (`AuthorizedForBinding`, `AuthorizedForDeviceStatus` in kubernetes/pkg/registry/resource): changing `status.devices` needs `arbitrary-node:<verb>` on the synthetic subresource `resourceclaims/driver`, with the driver's name in `resourceNames`, or `associated-node:<verb>`, which is tried only for a service account whose pod runs on the claim's node; changing `status.allocation` or `status.reservedFor` needs `<verb>` on `resourceclaims/binding`, bound cluster-wide. So a grant of `update` does not cover a `patch` (server-side apply, `kubectl patch`), a user or group that is not a service account gains nothing from `associated-node:` verbs, and a controller (Deployment) holding only `associated-node:` verbs is denied for claims on other nodes (a warning). Every subject bound to status writes is judged: service accounts, users and groups, and roles no binding uses. An error when the target has the gate on; a warning for older targets, where the grant is inert but needed after the upgrade. The finding shows the grant to add.",
    example: "rules:\n- apiGroups: [\"resource.k8s.io\"]\n  resources: [\"resourceclaims/status\"]\n  verbs: [\"update\", \"patch\"]\n# and no resourceclaims/driver rule\n",
    check: Check::Run(check),
}

/// Why a subject's status writes are denied.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Why {
    /// No driver or binding grant for any held verb.
    Nothing,
    /// Only `associated-node:` verbs, and the subject is no service account.
    NotServiceAccount,
    /// Some held verbs are covered, these are not.
    SomeVerbs,
}

struct Hit<'m, 'a> {
    rule: PolicyRule<'a>,
    who: Vec<&'m Principal<'a>>,
    held: Vec<&'static str>,
    denied: Vec<&'static str>,
    why: Why,
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let Some(m) = rbac_model(cx) else { return };
    let mut hits: Vec<Hit<'_, '_>> = Vec::new();
    for p in &m.principals {
        let writes: Vec<StatusWrite<'_, '_>> = STATUS_VERBS
            .iter()
            .map(|v| p.status_write(v, None))
            .collect();
        let held: Vec<&StatusWrite<'_, '_>> =
            writes.iter().filter(|w| w.status.is_some()).collect();
        let denied: Vec<&StatusWrite<'_, '_>> =
            held.iter().copied().filter(|w| w.denied()).collect();
        let Some(first) = denied.first() else {
            continue;
        };
        let Some(status) = first.status else { continue };
        let why = if denied.len() < held.len() {
            Why::SomeVerbs
        } else if !p.identity.may_be_service_account()
            && STATUS_VERBS.iter().any(|v| {
                p.may(
                    "resourceclaims/driver",
                    &format!("{PREFIX_ASSOCIATED}{v}"),
                    None,
                )
                .is_some()
            })
        {
            Why::NotServiceAccount
        } else {
            Why::Nothing
        };
        let held: Vec<&'static str> = held.iter().map(|w| w.verb).collect();
        let denied: Vec<&'static str> = denied.iter().map(|w| w.verb).collect();
        if matches!(p.identity, Identity::Unbound)
            && hits
                .iter()
                .any(|h| std::ptr::eq(h.rule.role, status.rule.role))
        {
            continue;
        }
        match hits
            .iter_mut()
            .find(|h| std::ptr::eq(h.rule.node, status.rule.node))
        {
            Some(h) => {
                h.who.push(p);
                for v in denied {
                    if !h.denied.contains(&v) {
                        h.denied.push(v);
                    }
                }
            }
            None => hits.push(Hit {
                rule: status.rule,
                who: vec![p],
                held,
                denied,
                why,
            }),
        }
    }
    let on = granular_status_on(cx);
    let drivers = published_drivers(cx);
    let names = if drivers.is_empty() {
        vec!["<your driver's name>".to_owned()]
    } else {
        drivers
    };
    for hit in hits {
        report(cx, out, &hit, on, &names);
    }
    controllers_on_other_nodes(&m, out);
}

fn report(cx: &Ctx<'_>, out: &mut Sink<'_>, hit: &Hit<'_, '_>, on: bool, names: &[String]) {
    let who = &hit.who;
    let controller = who.iter().any(|a| a.runs.control_plane);
    let node_local = who.iter().any(|a| a.runs.node_local);
    let not_sa = who.iter().any(|a| !a.identity.may_be_service_account());
    let prefix = if not_sa || (controller && !node_local) {
        PREFIX_ARBITRARY
    } else {
        PREFIX_ASSOCIATED
    };
    let verbs: Vec<String> = hit.denied.iter().map(|v| format!("{prefix}{v}")).collect();
    let verbs: Vec<&str> = verbs.iter().map(String::as_str).collect();
    let who_text = principal_names(who);
    let when = if on {
        format!("Kubernetes {} forbids", cx.gates.version)
    } else {
        "from Kubernetes 1.36".to_owned()
    };
    let forbidden = if on { "" } else { " are forbidden" };
    let message = match hit.why {
        Why::Nothing if on => format!("{who_text} may update ResourceClaim status, but holds neither resourceclaims/driver nor resourceclaims/binding: {when} its status writes"),
        Why::Nothing => format!("{who_text} may update ResourceClaim status, but holds neither resourceclaims/driver nor resourceclaims/binding: {when} its status writes are forbidden"),
        Why::NotServiceAccount => format!("{who_text} may update ResourceClaim status, but holds only associated-node: verbs on resourceclaims/driver, which the apiserver tries only for a service account on the claim's node: {when} its status writes{forbidden}"),
        Why::SomeVerbs => format!(
            "{who_text} may {} ResourceClaim status, but its resourceclaims/driver and resourceclaims/binding grants do not cover {}: {when} its status writes with {}{forbidden}",
            hit.held.join(" and "),
            hit.denied.join(" or "),
            hit.denied.join(" or "),
        ),
    };
    let d = out.report(
        hit.rule.role,
        if on { Forbidden } else { Warning },
        format!("{}.resources", hit.rule.field()),
        hit.rule.resource_span("resourceclaims/status"),
        message,
    );
    if !on {
        d.severity = crate::diag::Severity::Warning;
        d.note(format!(
            "the target is Kubernetes {} without DRAResourceClaimGranularStatusAuthorization; the grant below is inert there and needed from 1.36",
            cx.gates.version
        ));
    }
    if who
        .iter()
        .any(|p| matches!(p.identity, Identity::User(_) | Identity::Group(_)))
    {
        d.note("the workload that authenticates as it is not in the input: judged on the grants the input holds");
    }
    d.note("each status write is checked again with its own verb (update, or patch for patches and server-side apply): status.devices needs associated-node:<verb> (a service account's pod on the claim's node) or arbitrary-node:<verb> on resourceclaims/driver (per driver, in resourceNames); status.allocation and status.reservedFor need <verb> on resourceclaims/binding");
    let kind = if prefix == PREFIX_ARBITRARY {
        "for a controller or user that writes status.devices of claims on any node"
    } else {
        "for a node-local driver (DaemonSet)"
    };
    d.note(format!(
        "add to {}, {kind}:\n{}",
        hit.rule.role.reference,
        grant_yaml("resourceclaims/driver", &verbs, names)
    ));
    if controller {
        d.note(format!(
            "if it allocates claims (sets status.allocation or status.reservedFor), add instead, bound with a ClusterRoleBinding:\n{}",
            grant_yaml("resourceclaims/binding", &hit.denied, &[])
        ));
    }
}

/// A controller whose device-status grant is `associated-node:` only.
fn controllers_on_other_nodes(m: &RbacModel<'_>, out: &mut Sink<'_>) {
    let mut seen: Vec<crate::tree::Span> = Vec::new();
    for p in m
        .principals
        .iter()
        .filter(|p| p.runs.control_plane && !p.runs.node_local)
    {
        for v in STATUS_VERBS {
            let w = p.status_write(v, None);
            let (Some(_), None, None, Some(assoc)) =
                (w.status, w.binding, w.arbitrary, w.associated)
            else {
                continue;
            };
            let verb = format!("{PREFIX_ASSOCIATED}{v}");
            let (field, span) = assoc.rule.verb_span(&verb);
            if seen.contains(&span) {
                continue;
            }
            seen.push(span);
            let runs: Vec<String> = p
                .workloads
                .iter()
                .map(|w| w.reference.to_string())
                .collect();
            out.report(
                assoc.rule.role,
                Warning,
                field,
                span,
                format!(
                    "{} runs in {}, a controller, and holds only {verb} for status.devices: the apiserver allows it only for claims allocated on the node its pod runs on, and forbids its writes for claims on other nodes",
                    p.display(),
                    runs.join(", ")
                ),
            )
            .note(format!("a controller that writes status.devices of claims on any node needs {PREFIX_ARBITRARY}{v}"));
        }
    }
}
