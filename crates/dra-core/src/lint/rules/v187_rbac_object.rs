//! DRA-V187: an RBAC object kube-apiserver refuses (rules, role reference,
//! subjects, aggregation selectors).
use super::prelude::*;

declare_rule! {
    id: "DRA-V187", name: "invalid-rbac-object", severity: Error, origin: Apiserver,
    summary: "A Role or ClusterRole rule, an aggregation selector, or a binding's roleRef or subject is invalid",
    docs: "The RBAC objects a driver ships beside its DRA objects are validated by `pkg/apis/rbac/validation` (unchanged 1.34-1.37), after v1 defaulting (an empty `roleRef.apiGroup`, and a User or Group subject's empty `apiGroup`, become `rbac.authorization.k8s.io`). A rule needs `verbs`; a resource rule needs `apiGroups` and `resources`; `nonResourceURLs` only in a ClusterRole and never beside resources. A binding's `roleRef` must be in `rbac.authorization.k8s.io`, of kind Role or ClusterRole (only ClusterRole in a ClusterRoleBinding), with a name that is a path segment. A subject needs a name and a kind of ServiceAccount (a DNS subdomain name, no apiGroup, a namespace in a ClusterRoleBinding), User or Group (apiGroup `rbac.authorization.k8s.io`). A ClusterRole's `aggregationRule` needs at least one selector, each a valid label selector. On an update of a stored binding (`--stored`), its `roleRef` may not change (`cannot change roleRef`: delete and re-create the binding).",
    example: "kind: RoleBinding\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Rolee, name: driver}\nsubjects:\n- {kind: ServiceAccount, name: driver}\n",
    check: Check::Object(&[Role, ClusterRole, RoleBinding, ClusterRoleBinding], check),
}

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let root = &obj.root;
    match obj.kind {
        Role | ClusterRole => {
            let namespaced = obj.kind == Role;
            for (i, rule) in items(root, "rules").iter().enumerate() {
                policy_rule(obj, rule, namespaced, &format!("rules[{i}]"), out);
            }
            if obj.kind == ClusterRole {
                aggregation_rule(cx.gates.version, obj, out);
            }
        }
        _ => {
            role_ref(obj, out);
            if let Some(old) = cx.stored.get(obj) {
                role_ref_unchanged(obj, old, out);
            }
            let namespaced = obj.kind == RoleBinding;
            for (i, s) in items(root, "subjects").iter().enumerate() {
                subject(obj, s, namespaced, &format!("subjects[{i}]"), out);
            }
        }
    }
}

/// Whether a list field is set and not empty (Go's `len(x) > 0`).
fn has(node: &Node, key: &str) -> bool {
    !items(node, key).is_empty()
}

/// `ValidatePolicyRule`.
fn policy_rule(obj: &Object, rule: &Node, namespaced: bool, path: &str, out: &mut Sink<'_>) {
    let required = |key: &str, msg: &str, out: &mut Sink<'_>| {
        if !has(rule, key) {
            let span = get(rule, key).map_or(rule.span, |n| n.span);
            out.report(obj, Required, format!("{path}.{key}"), span, msg);
        }
    };
    required("verbs", "verbs must contain at least one value", out);
    if has(rule, "nonResourceURLs") {
        let field = format!("{path}.nonResourceURLs");
        let span = get(rule, "nonResourceURLs").map_or(rule.span, |n| n.span);
        if namespaced {
            let msg = "namespaced rules cannot apply to non-resource URLs";
            out.report(obj, Invalid, &field, span, msg);
        }
        if has(rule, "apiGroups") || has(rule, "resources") || has(rule, "resourceNames") {
            let msg = "rules cannot apply to both regular resources and non-resource URLs";
            out.report(obj, Invalid, &field, span, msg);
        }
        return;
    }
    required(
        "apiGroups",
        "resource rules must supply at least one api group",
        out,
    );
    required(
        "resources",
        "resource rules must supply at least one resource",
        out,
    );
}

/// A ClusterRole's `aggregationRule`: at least one selector, each valid.
fn aggregation_rule(v: Version, obj: &Object, out: &mut Sink<'_>) {
    let Some(rule) = get(&obj.root, "aggregationRule").filter(|n| !n.is_null()) else {
        return;
    };
    let selectors = items(rule, "clusterRoleSelectors");
    let base = "aggregationRule.clusterRoleSelectors";
    if selectors.is_empty() {
        let msg = "at least one clusterRoleSelector required if aggregationRule is non-nil";
        out.report(obj, Required, base, rule.span, msg);
    }
    for (i, sel) in selectors.iter().enumerate() {
        label_selector(v, obj, sel, &format!("{base}[{i}]"), out);
    }
}

/// `ValidateLabelSelector`, then the `invalid label selector.` that
/// `LabelSelectorAsSelector` adds at the selector for any bad label or
/// requirement.
fn label_selector(v: Version, obj: &Object, sel: &Node, path: &str, out: &mut Sink<'_>) {
    use crate::name_errors::{label_key, label_value};
    let before = out.count();
    for l in entries(sel, "matchLabels") {
        for msg in label_key(v, &l.key) {
            out.report(obj, Invalid, format!("{path}.matchLabels"), l.key_span, msg);
        }
        for msg in l
            .value
            .as_str()
            .map(|s| label_value(v, s))
            .unwrap_or_default()
        {
            out.report(
                obj,
                Invalid,
                format!("{path}.matchLabels"),
                l.value.span,
                msg,
            );
        }
    }
    let mut bad = out.count() > before;
    for (j, r) in items(sel, "matchExpressions").iter().enumerate() {
        bad |= requirement(v, obj, r, &format!("{path}.matchExpressions[{j}]"), out);
    }
    if bad {
        out.report(obj, Invalid, path, sel.span, "invalid label selector.");
    }
}

/// `ValidateLabelSelectorRequirement`; whether it found anything.
fn requirement(v: Version, obj: &Object, r: &Node, path: &str, out: &mut Sink<'_>) -> bool {
    let before = out.count();
    let values = items(r, "values");
    let op = get_str(r, "operator").unwrap_or("");
    let op_span = get(r, "operator").map_or(r.span, |n| n.span);
    let values_span = get(r, "values").map_or(r.span, |n| n.span);
    match op {
        "In" | "NotIn" if values.is_empty() => {
            let msg = "must be specified when `operator` is 'In' or 'NotIn'";
            out.report(obj, Required, format!("{path}.values"), values_span, msg);
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            let msg = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
            out.report(obj, Forbidden, format!("{path}.values"), values_span, msg);
        }
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        _ => {
            let msg = "not a valid selector operator";
            out.report(obj, Invalid, format!("{path}.operator"), op_span, msg);
        }
    }
    let key = get_str(r, "key").unwrap_or("");
    let span = get(r, "key").map_or(r.span, |n| n.span);
    for msg in crate::name_errors::label_key(v, key) {
        out.report(obj, Invalid, format!("{path}.key"), span, msg);
    }
    for (k, value) in values.iter().enumerate() {
        let msgs = value
            .as_str()
            .map(|s| crate::name_errors::label_value(v, s));
        for msg in msgs.unwrap_or_default() {
            out.report(obj, Invalid, format!("{path}.values[{k}]"), value.span, msg);
        }
    }
    out.count() > before
}

/// A binding's `roleRef` as compared on update: (apiGroup defaulted, kind,
/// name).
fn defaulted_role_ref(root: &Node) -> (&str, &str, &str) {
    let r = get(root, "roleRef");
    let field = |key: &str| r.and_then(|r| get_str(r, key)).unwrap_or("");
    let group = match field("apiGroup") {
        "" => RBAC_GROUP,
        g => g,
    };
    (group, field("kind"), field("name"))
}

/// `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate`: the
/// roleRef of a stored binding may not change (`helm upgrade` of a chart
/// that points a binding at another role fails on it).
fn role_ref_unchanged(obj: &Object, old: &Object, out: &mut Sink<'_>) {
    let (new, was) = (defaulted_role_ref(&obj.root), defaulted_role_ref(&old.root));
    if new == was {
        return;
    }
    let span = entry(&obj.root, "roleRef").map_or(obj.root.span, |e| e.key_span);
    out.report(obj, Invalid, "roleRef", span, "cannot change roleRef")
        .note(format!(
            "the stored binding refers to {} {:?}: delete the binding and create it again",
            was.1, was.2
        ));
}

/// A binding's `roleRef`, its apiGroup defaulted as v1 defaults it.
fn role_ref(obj: &Object, out: &mut Sink<'_>) {
    let root = &obj.root;
    let r = get(root, "roleRef");
    let span = |key: &str| {
        r.and_then(|r| get(r, key))
            .map_or_else(|| r.map_or(root.span, |r| r.span), |n| n.span)
    };
    let (group, kind, name) = defaulted_role_ref(root);
    if group != RBAC_GROUP {
        let msg = format!("unsupported value {group:?}: supported values: {RBAC_GROUP:?}");
        out.report(obj, NotSupported, "roleRef.apiGroup", span("apiGroup"), msg);
    }
    let kinds: &[&str] = if obj.kind == RoleBinding {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&kind) {
        let msg = format!("unsupported value {kind:?}: supported values: {kinds:?}");
        out.report(obj, NotSupported, "roleRef.kind", span("kind"), msg);
    }
    if name.is_empty() {
        out.report(
            obj,
            Required,
            "roleRef.name",
            span("name"),
            "a role name is required",
        );
    } else {
        for msg in crate::name_errors::path_segment(name, false) {
            out.report(obj, Invalid, "roleRef.name", span("name"), msg);
        }
    }
}

/// `ValidateRoleBindingSubject`, after `SetDefaults_Subject`.
fn subject(obj: &Object, s: &Node, namespaced: bool, path: &str, out: &mut Sink<'_>) {
    let span = |key: &str| get(s, key).map_or(s.span, |n| n.span);
    let name = get_str(s, "name").unwrap_or("");
    if name.is_empty() {
        out.report(
            obj,
            Required,
            format!("{path}.name"),
            span("name"),
            "a subject name is required",
        );
    }
    let kind = get_str(s, "kind").unwrap_or("");
    let want = match kind {
        "ServiceAccount" => {
            if !name.is_empty() {
                // ValidateServiceAccountName: NameIsDNSSubdomain.
                for msg in crate::name_errors::dns1123_subdomain(name) {
                    out.report(obj, Invalid, format!("{path}.name"), span("name"), msg);
                }
            }
            if !namespaced && get_str(s, "namespace").unwrap_or("").is_empty() {
                let msg = "a ClusterRoleBinding's service account subject needs its namespace";
                let field = format!("{path}.namespace");
                out.report(obj, Required, field, span("namespace"), msg);
            }
            ""
        }
        "User" | "Group" => RBAC_GROUP,
        _ => {
            let msg = format!("unsupported value {kind:?}: supported values: \"ServiceAccount\", \"User\", \"Group\"");
            out.report(obj, NotSupported, format!("{path}.kind"), span("kind"), msg);
            return;
        }
    };
    // SetDefaults_Subject gives a User or Group without apiGroup the RBAC one.
    let group = match get_str(s, "apiGroup").unwrap_or("") {
        "" if want == RBAC_GROUP => RBAC_GROUP,
        g => g,
    };
    if group != want {
        let msg = format!("unsupported value {group:?}: supported values: {want:?}");
        out.report(
            obj,
            NotSupported,
            format!("{path}.apiGroup"),
            span("apiGroup"),
            msg,
        );
    }
}
