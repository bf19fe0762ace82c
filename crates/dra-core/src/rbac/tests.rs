//! The resolver against the authorizer's own behaviour; each test names the
//! upstream function it mirrors.
use super::*;
use crate::gates::FeatureGates;
use crate::model::parse_file;
use crate::yaml::Limits;

fn objects(text: &str) -> Vec<Object> {
    parse_file(0, text, Limits::default()).objects
}

fn find<'m, 'a>(m: &'m Model<'a>, who: &str) -> &'m Principal<'a> {
    m.principals
        .iter()
        .find(|p| p.display() == who)
        .unwrap_or_else(|| {
            let all: Vec<String> = m.principals.iter().map(Principal::display).collect();
            panic!("no {who} in {all:?}")
        })
}

const ROLE: &str = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n";
const CRB: &str = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n";

fn status_only(name: &str, labels: &str) -> String {
    format!("{ROLE}metadata: {{name: {name}, labels: {{{labels}}}}}\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/status]\n  verbs: [update]\n")
}

fn bind(role: &str, subject: &str) -> String {
    format!("{CRB}metadata: {{name: {role}}}\nroleRef: {{kind: ClusterRole, name: {role}, apiGroup: rbac.authorization.k8s.io}}\nsubjects:\n- {subject}\n")
}

const CHART: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: base, labels: {agg: "yes"}}
rules:
- apiGroups: ["resource.k8s.io"]
  resources: ["resourceclaims/status"]
  verbs: ["update"]
- apiGroups: ["resource.k8s.io"]
  resources: ["*/driver"]
  verbs: ["associated-node:patch"]
  resourceNames: [gpu.example.com]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: agg}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {agg: "yes"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: b}
roleRef: {kind: ClusterRole, name: agg, apiGroup: rbac.authorization.k8s.io}
subjects:
- {kind: ServiceAccount, name: plugin, namespace: dra}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: plugin, namespace: dra}
spec:
  template:
    spec:
      serviceAccountName: plugin
"#;

/// `syncClusterRole` (clusterroleaggregation controller) and `RuleAllows`.
#[test]
fn aggregated_roles_reach_the_daemonset_account() {
    let objs = objects(CHART);
    let m = Model::build(&objs);
    let a = find(&m, "ServiceAccount dra/plugin");
    assert!(a.runs.node_local && !a.runs.control_plane);
    assert_eq!(a.grants.len(), 2);
    assert!(a.may("resourceclaims/status", "update", None).is_some());
    assert!(a.may("resourceclaims/status", "patch", None).is_none());
    let driver = |v: &str, d: &str| a.may("resourceclaims/driver", v, Some(d)).is_some();
    assert!(driver("associated-node:patch", "gpu.example.com"));
    assert!(!driver("associated-node:patch", "other.example.com"));
    assert!(!driver("associated-node:update", "gpu.example.com"));
    // Per verb, as AuthorizedForDeviceStatus asks: update is denied.
    assert!(a.status_write("update", None).denied());
    assert!(!a.status_write("patch", None).denied());
    assert!(!a.may_bind());
    assert!(m.unbound.is_empty());
}

/// `syncClusterRole` reads the selected roles' stored rules, so an
/// aggregated role selected by another passes its aggregated rules on; the
/// aggregated role's own rules are replaced.
#[test]
fn nested_aggregation_reaches_a_fixpoint() {
    let text = [
        status_only("leaf", "tier: leaf"),
        format!("{ROLE}metadata: {{name: mid, labels: {{tier: mid}}}}\naggregationRule:\n  clusterRoleSelectors:\n  - matchLabels: {{tier: leaf}}\nrules:\n- apiGroups: ['']\n  resources: [pods]\n  verbs: [get]\n"),
        format!("{ROLE}metadata: {{name: top}}\naggregationRule:\n  clusterRoleSelectors:\n  - matchExpressions: [{{key: tier, operator: In, values: [mid]}}]\n"),
        bind("top", "{kind: ServiceAccount, name: sa, namespace: ns}"),
    ]
    .join("---\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    let sa = find(&m, "ServiceAccount ns/sa");
    assert!(sa.may("resourceclaims/status", "update", None).is_some());
    // mid's own `pods` rule was replaced by leaf's rules.
    let pods = Request::new("", "pods", "get");
    assert!(sa.authorize(&pods, Namespace::Any).is_none());
    let mid = objs.iter().find(|o| o.name() == Some("mid")).unwrap();
    assert_eq!(m.roles.of(mid).len(), 1);
}

/// `LabelSelectorAsSelector` refuses `In` without values: the controller
/// returns the error and the role keeps what it stores.
#[test]
fn an_invalid_selector_leaves_the_role_as_stored() {
    let text = [
        status_only("leaf", "tier: leaf"),
        format!("{ROLE}metadata: {{name: top}}\naggregationRule:\n  clusterRoleSelectors:\n  - matchExpressions: [{{key: tier, operator: In, values: []}}]\nrules:\n- apiGroups: ['']\n  resources: [pods]\n  verbs: [get]\n"),
    ]
    .join("---\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    let top = objs.iter().find(|o| o.name() == Some("top")).unwrap();
    let rules = m.roles.of(top);
    assert_eq!(rules.len(), 1);
    assert!(rules[0].matches_resource("pods"));
}

/// `appliesToUser`: a `kind: User` subject is compared with the user name,
/// and a service account's is `system:serviceaccount:NS:NAME`.
#[test]
fn a_user_subject_may_name_a_service_account() {
    let text = [
        status_only("r", ""),
        bind("r", "{kind: User, name: 'system:serviceaccount:dra:plugin', apiGroup: rbac.authorization.k8s.io}"),
    ]
    .join("---\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    let sa = find(&m, "ServiceAccount dra/plugin");
    assert!(sa.may("resourceclaims/status", "update", None).is_some());
    assert!(!m
        .principals
        .iter()
        .any(|p| matches!(p.identity, Identity::User(_))));
}

/// `appliesToUser` for groups: `system:serviceaccounts:NS` holds the
/// service accounts of NS only; `system:authenticated` every user.
#[test]
fn groups_hold_the_users_the_authenticator_puts_in_them() {
    let text = [
        status_only("r", ""),
        bind("r", "{kind: Group, name: 'system:serviceaccounts:dra', apiGroup: rbac.authorization.k8s.io}"),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a, namespace: dra}\n".to_owned(),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: b, namespace: other}\n".to_owned(),
        format!("{CRB}metadata: {{name: all}}\nroleRef: {{kind: ClusterRole, name: r}}\nsubjects:\n- {{kind: Group, name: 'system:authenticated'}}\n"),
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: u, namespace: x}\nroleRef: {kind: ClusterRole, name: r}\nsubjects:\n- {kind: User, name: alice}\n".to_owned(),
    ]
    .join("---\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    let a = find(&m, "ServiceAccount dra/a");
    let b = find(&m, "ServiceAccount other/b");
    let through = |p: &Principal<'_>| -> Vec<String> {
        p.grants
            .iter()
            .map(|g| g.binding.unwrap().name().unwrap().to_owned())
            .collect()
    };
    assert_eq!(through(a), ["r", "all"]);
    assert_eq!(through(b), ["all"]);
    let alice = find(&m, "User alice");
    assert_eq!(through(alice), ["all", "u"]);
    assert!(!alice.identity.may_be_service_account());
}

/// `appliesToUser`: a ServiceAccount subject without a namespace takes the
/// RoleBinding's, and in a ClusterRoleBinding matches no one.
#[test]
fn service_account_subjects_without_a_namespace() {
    let text = [
        status_only("r", ""),
        bind("r", "{kind: ServiceAccount, name: sa}"),
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: x}\nroleRef: {kind: ClusterRole, name: r}\nsubjects:\n- {kind: ServiceAccount, name: sa}\n".to_owned(),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa, namespace: other}\n".to_owned(),
    ]
    .join("---\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    assert!(find(&m, "ServiceAccount other/sa").grants.is_empty());
    let x = find(&m, "ServiceAccount x/sa");
    assert_eq!(x.grants.len(), 1);
    // A RoleBinding grants in its own namespace only (`VisitRulesFor`).
    let req = Request::new(GROUP, "resourceclaims/status", "update");
    assert!(x.authorize(&req, Namespace::In("x")).is_some());
    assert!(x.authorize(&req, Namespace::In("z")).is_none());
    assert!(x.authorize(&req, Namespace::Cluster).is_none());
}

/// `AuthorizedForBinding` asks cluster-wide for no name: only a
/// ClusterRoleBinding, and a rule without `resourceNames`.
#[test]
fn binding_needs_a_cluster_role_binding_and_no_names() {
    let text = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: x}\nrules:\n- apiGroups: ['*']\n  resources: ['*']\n  verbs: ['*']\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: x}\nroleRef: {kind: Role, name: r}\nsubjects:\n- {kind: ServiceAccount, name: s}\n";
    let objs = objects(text);
    let m = Model::build(&objs);
    let a = find(&m, "ServiceAccount x/s");
    assert!(!a.status_write("update", None).denied());
    assert!(
        !a.may_bind(),
        "a RoleBinding cannot pass a cluster-wide check"
    );
    let named = format!("{ROLE}metadata: {{name: n}}\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/binding]\n  verbs: [update]\n  resourceNames: [c]\n---\n{}", bind("n", "{kind: User, name: u}"));
    let objs = objects(&named);
    let m = Model::build(&objs);
    assert!(!find(&m, "User u").may_bind());
}

/// `ResourceMatches`: `*/sub` matches any resource's subresource, while
/// `res/*` is no wildcard; `APIGroupMatches`: `*` groups with named
/// resources reach only those resources.
#[test]
fn resource_and_group_matching_is_literal() {
    let text = format!("{ROLE}metadata: {{name: r}}\nrules:\n- apiGroups: ['resource.k8s.io']\n  resources: ['resourceclaims/*']\n  verbs: ['*']\n- apiGroups: ['*']\n  resources: [pods, '*/binding']\n  verbs: [update]\n");
    let objs = objects(&text);
    let m = Model::build(&objs);
    let r = &m.unbound;
    let driver = Request::new(GROUP, "resourceclaims/driver", "arbitrary-node:update");
    assert!(!r[0].allows(&driver));
    assert!(!r[1].allows(&Request::new(GROUP, "resourceclaims", "update")));
    assert!(r[1].allows(&Request::new(GROUP, "resourceclaims/binding", "update").named("")));
    assert!(r[1].allows(&Request::new("", "pods", "update")));
}

/// `saAssociatedWithAllocatedNode`: `associated-node:` verbs are tried only
/// for a service account; a user needs `arbitrary-node:`.
#[test]
fn associated_node_verbs_are_for_service_accounts_only() {
    let text = format!("{ROLE}metadata: {{name: r}}\nrules:\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/status]\n  verbs: [update, patch]\n- apiGroups: [resource.k8s.io]\n  resources: [resourceclaims/driver]\n  verbs: ['associated-node:update', 'associated-node:patch']\n---\n{}", bind("r", "{kind: User, name: my-controller}"));
    let objs = objects(&text);
    let m = Model::build(&objs);
    let u = find(&m, "User my-controller");
    assert!(u.status_write("update", None).denied());
    assert!(u.status_write("patch", None).denied());
}

#[test]
fn least_privilege_roles_parse_and_grant_what_they_say() {
    for (persona, resource, verb) in [
        (
            Persona::Driver,
            "resourceclaims/driver",
            "associated-node:update",
        ),
        (
            Persona::Controller,
            "resourceclaims/driver",
            "arbitrary-node:patch",
        ),
        (Persona::Allocator, "resourceclaims/binding", "update"),
        (Persona::KubectlDra, "resourceslices", "list"),
    ] {
        for v in ["1.34", "1.37"] {
            let gates = FeatureGates::defaults(v.parse().unwrap());
            let y = least_privilege(persona, &gates, "gpu.example.com");
            let objs = objects(&y);
            assert_eq!(objs.len(), 1, "{y}");
            let m = Model::build(&objs);
            let role = &m.principals[0];
            assert_eq!(role.identity, Identity::Unbound);
            assert!(
                role.may(resource, verb, Some("gpu.example.com")).is_some(),
                "{persona:?} {v}:\n{y}"
            );
            if persona != Persona::KubectlDra {
                assert!(STATUS_VERBS
                    .iter()
                    .all(|v| !role.status_write(v, None).denied()));
            } else {
                for w in ["create", "update", "patch", "delete"] {
                    assert!(m.unbound.iter().all(|r| !r.matches_verb(w)));
                }
            }
        }
    }
}
