//! DRA-V150: adminAccess in a namespace without the admin-access label.
use super::prelude::*;

declare_rule! {
    id: "DRA-V150", name: "admin-access-forbidden", severity: Error, origin: Apiserver,
    summary: "adminAccess: true in a namespace without the label resource.kubernetes.io/admin-access: \"true\"",
    docs: "Admin access gives a claim devices that are in use by others (for monitoring or maintenance). The apiserver only allows it in namespaces labelled `resource.kubernetes.io/admin-access: \"true\"`. kubectl-dra checks this when the claim's Namespace object is among the input. The path is `spec.devices.requests[i].adminAccess` for claims and templates alike, as the apiserver builds it.",
    example: "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n# a claim in team-a with exactly.adminAccess: true\n",
    check: Check::Object(CLAIMS, check),
}

const LABEL: &str = "resource.kubernetes.io/admin-access";

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(ns_name) = obj.namespace() else {
        return;
    };
    let Some(ns) = cx.of_kind(Namespace).find(|n| n.name() == Some(ns_name)) else {
        // The check needs the cluster's Namespace: say what was assumed.
        if let Some((i, n)) = first_admin_request(obj) {
            out.report(obj, Warning, format!("spec.devices.requests[{i}].adminAccess"), n.span, format!("admin access needs the `{LABEL}: \"true\"` label on namespace {ns_name}, which is not in the input: assumed labelled"))
                .note("add the Namespace to the files linted to check it");
        }
        return;
    };
    let labelled = ns
        .root
        .get("metadata")
        .and_then(|m| get(m, "labels"))
        .and_then(|l| get_str(l, LABEL))
        == Some("true");
    if labelled {
        return;
    }
    if let Some((i, n)) = first_admin_request(obj) {
        out.report(obj, Forbidden, format!("spec.devices.requests[{i}].adminAccess"), n.span, format!("admin access to devices requires the `{LABEL}: \"true\"` label on namespace {ns_name}"))
                .secondary(ns.root.get("metadata").map_or(ns.root.span, |m| m.span), "this Namespace lacks the label");
    }
}

/// The first request with `exactly.adminAccess: true`, where
/// AuthorizedForAdmin stops. It runs before validation, over every request
/// whatever their number.
fn first_admin_request(obj: &Object) -> Option<(usize, &Node)> {
    let (dc, _) = device_claim(obj)?;
    items(dc, "requests").iter().enumerate().find_map(|(i, r)| {
        let n = get(get(r, "exactly")?, "adminAccess")?;
        (n.as_bool() == Some(true)).then_some((i, n))
    })
}
