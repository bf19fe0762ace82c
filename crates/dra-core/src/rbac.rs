//! What each service account may do, worked out from the Roles, bindings and
//! workloads in the input, with RBAC's own matching rules
//! (`k8s.io/component-helpers/auth/rbac/validation`): `*` matches any verb,
//! group or resource, `*/sub` any resource's subresource, an empty
//! `resourceNames` every name. Aggregated ClusterRoles take the rules of the
//! ClusterRoles their selectors match.
//!
//! Since Kubernetes 1.36 (gate `DRAResourceClaimGranularStatusAuthorization`)
//! the apiserver asks two more questions on a ResourceClaim status write
//! (`pkg/registry/resource/resourceclaim/strategy.go`, `.../resource/utils.go`):
//! changing `status.allocation` or `status.reservedFor` needs the request's
//! verb on `resourceclaims/binding`, checked cluster-wide (namespace and name
//! empty); changing `status.devices` needs `associated-node:<verb>` (only
//! for a service account whose token names the node the claim is allocated
//! on) or `arbitrary-node:<verb>` on `resourceclaims/driver`, in the claim's
//! namespace, with the driver's name as the resource name.

use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::tree::{Node, Span};

pub const GROUP: &str = "resource.k8s.io";
pub const PREFIX_ASSOCIATED: &str = "associated-node:";
pub const PREFIX_ARBITRARY: &str = "arbitrary-node:";
/// The request verbs of a status write.
pub const STATUS_VERBS: [&str; 2] = ["update", "patch"];

/// One entry of a Role's or ClusterRole's `rules`.
#[derive(Clone, Copy)]
pub struct PolicyRule<'a> {
    /// The Role or ClusterRole that holds it.
    pub role: &'a Object,
    pub index: usize,
    pub node: &'a Node,
}

impl<'a> PolicyRule<'a> {
    /// The string items of a list field, with their spans.
    pub fn list(&self, key: &str) -> Vec<(&'a str, Span)> {
        self.node
            .get(key)
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n.as_str().map(|s| (s, n.span)))
            .collect()
    }
    fn has(&self, key: &str, pred: impl Fn(&str) -> bool) -> bool {
        self.list(key).iter().any(|(s, _)| pred(s))
    }
    pub fn matches_group(&self, group: &str) -> bool {
        self.has("apiGroups", |g| g == "*" || g == group)
    }
    /// Whether the rule names `resource` (`resourceclaims/status`).
    pub fn matches_resource(&self, resource: &str) -> bool {
        let sub = resource.split_once('/').map(|(_, s)| s);
        self.has("resources", |r| {
            r == "*" || r == resource || sub.is_some_and(|s| r.strip_prefix("*/") == Some(s))
        })
    }
    pub fn matches_verb(&self, verb: &str) -> bool {
        self.has("verbs", |v| v == "*" || v == verb)
    }
    /// Whether the rule covers the name; `None` asks for "some name".
    pub fn matches_name(&self, name: Option<&str>) -> bool {
        let names = self.list("resourceNames");
        match name {
            _ if names.is_empty() => true,
            Some(n) => names.iter().any(|(s, _)| *s == n),
            None => true,
        }
    }
    pub fn covers(&self, group: &str, resource: &str, verb: &str, name: Option<&str>) -> bool {
        self.matches_group(group)
            && self.matches_resource(resource)
            && self.matches_verb(verb)
            && self.matches_name(name)
    }
    /// Where to point for `resource`: its item in `resources`, else the rule.
    pub fn resource_span(&self, resource: &str) -> Span {
        let sub = resource.split_once('/').map(|(_, s)| s);
        self.list("resources")
            .into_iter()
            .find(|(r, _)| *r == resource || sub.is_some_and(|s| r.strip_prefix("*/") == Some(s)))
            .or_else(|| self.list("resources").into_iter().find(|(r, _)| *r == "*"))
            .map_or(self.node.span, |(_, s)| s)
    }
    pub fn field(&self) -> String {
        format!("rules[{}]", self.index)
    }
}

/// Where a grant applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Through a ClusterRoleBinding.
    Cluster,
    /// Through a RoleBinding in this namespace (`None`: not set in the file).
    Namespace(Option<String>),
}

/// A rule that reaches a service account, and through which binding.
#[derive(Clone)]
pub struct Grant<'a> {
    pub rule: PolicyRule<'a>,
    pub scope: Scope,
    pub binding: Option<&'a Object>,
}

/// How a service account's pods run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Runs {
    /// In a DaemonSet: one pod per node, a node-local driver.
    pub node_local: bool,
    /// In a Deployment, StatefulSet or other controller: control plane.
    pub control_plane: bool,
}

/// A service account and everything the input grants it.
pub struct Account<'a> {
    pub namespace: Option<String>,
    pub name: String,
    pub grants: Vec<Grant<'a>>,
    pub runs: Runs,
    /// The workloads running as it.
    pub workloads: Vec<&'a Object>,
}

impl Account<'_> {
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("ServiceAccount {ns}/{}", self.name),
            None => format!("ServiceAccount {}", self.name),
        }
    }
    /// The first grant covering the request.
    pub fn may(&self, resource: &str, verb: &str, name: Option<&str>) -> Option<&Grant<'_>> {
        self.grants
            .iter()
            .find(|g| g.rule.covers(GROUP, resource, verb, name))
    }
    /// Whether a status write of `status.devices` can pass the driver check.
    pub fn may_write_device_status(&self) -> bool {
        STATUS_VERBS.iter().any(|v| {
            [PREFIX_ASSOCIATED, PREFIX_ARBITRARY].iter().any(|p| {
                self.may("resourceclaims/driver", &format!("{p}{v}"), None)
                    .is_some()
            })
        })
    }
    /// Whether a write of `status.allocation`/`reservedFor` can pass the
    /// binding check, which is cluster-wide and names no object: only
    /// ClusterRoleBindings count, and only rules without `resourceNames`.
    pub fn may_bind(&self) -> bool {
        self.grants.iter().any(|g| {
            g.scope == Scope::Cluster
                && STATUS_VERBS
                    .iter()
                    .any(|v| g.rule.covers(GROUP, "resourceclaims/binding", v, Some("")))
        })
    }
}

/// The RBAC picture of the input.
pub struct Model<'a> {
    pub accounts: Vec<Account<'a>>,
    /// Rules of Roles and ClusterRoles that no binding in the input uses:
    /// judged on their own (a chart's role file linted alone).
    pub unbound: Vec<PolicyRule<'a>>,
    /// Every rule of every role.
    pub all_rules: Vec<PolicyRule<'a>>,
}

fn str_at<'a>(n: &'a Node, path: &[&str]) -> Option<&'a str> {
    let mut n = n;
    for k in path {
        n = n.get(k)?;
    }
    n.as_str()
}

fn seq(n: Option<&Node>) -> &[Node] {
    n.and_then(Node::as_seq).unwrap_or_default()
}

fn is_role(o: &Object) -> bool {
    matches!(o.kind, ObjectKind::Role | ObjectKind::ClusterRole)
}

/// Whether two namespaces may be the same; an unset one matches any.
fn same_ns(a: Option<&str>, b: Option<&str>) -> bool {
    a.is_none() || b.is_none() || a == b
}

fn labels_match(labels: Option<&Node>, selector: &Node) -> bool {
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
    for e in selector
        .get("matchLabels")
        .and_then(Node::as_map)
        .unwrap_or_default()
    {
        if label(&e.key) != e.value.as_str() {
            return false;
        }
    }
    for req in seq(selector.get("matchExpressions")) {
        let key = req.get("key").and_then(Node::as_str).unwrap_or("");
        let values: Vec<&str> = seq(req.get("values"))
            .iter()
            .filter_map(Node::as_str)
            .collect();
        let have = label(key);
        let ok = match req.get("operator").and_then(Node::as_str).unwrap_or("") {
            "In" => have.is_some_and(|h| values.contains(&h)),
            "NotIn" => have.is_none_or(|h| !values.contains(&h)),
            "Exists" => have.is_some(),
            "DoesNotExist" => have.is_none(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The rules a role grants; an aggregated ClusterRole's come from the
/// ClusterRoles its selectors match.
pub fn role_rules<'a>(objects: &'a [Object], role: &'a Object) -> Vec<PolicyRule<'a>> {
    let own = |r: &'a Object| {
        seq(r.root.get("rules"))
            .iter()
            .enumerate()
            .map(move |(index, node)| PolicyRule {
                role: r,
                index,
                node,
            })
    };
    let selectors = seq(role
        .root
        .get("aggregationRule")
        .and_then(|a| a.get("clusterRoleSelectors")));
    if role.kind != ObjectKind::ClusterRole || selectors.is_empty() {
        return own(role).collect();
    }
    objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ClusterRole && !std::ptr::eq(*o, role))
        .filter(|o| {
            let labels = o.root.get("metadata").and_then(|m| m.get("labels"));
            selectors.iter().any(|s| labels_match(labels, s))
        })
        .flat_map(own)
        .collect()
}

impl<'a> Model<'a> {
    pub fn build(objects: &'a [Object]) -> Model<'a> {
        let mut accounts: Vec<Account<'a>> = Vec::new();
        fn account<'b, 'a>(
            accounts: &'b mut Vec<Account<'a>>,
            ns: Option<&str>,
            name: &str,
        ) -> &'b mut Account<'a> {
            let i = match accounts
                .iter()
                .position(|a| a.name == name && same_ns(a.namespace.as_deref(), ns))
            {
                Some(i) => {
                    if accounts[i].namespace.is_none() {
                        accounts[i].namespace = ns.map(str::to_owned);
                    }
                    i
                }
                None => {
                    accounts.push(Account {
                        namespace: ns.map(str::to_owned),
                        name: name.to_owned(),
                        grants: Vec::new(),
                        runs: Runs::default(),
                        workloads: Vec::new(),
                    });
                    accounts.len() - 1
                }
            };
            &mut accounts[i]
        }
        for o in objects
            .iter()
            .filter(|o| o.kind == ObjectKind::ServiceAccount)
        {
            if let Some(name) = o.name() {
                account(&mut accounts, o.namespace(), name);
            }
        }
        for o in objects.iter().filter(|o| o.kind == ObjectKind::Workload) {
            let Some(spec) = o.pod_spec() else { continue };
            let name = spec
                .get("serviceAccountName")
                .or_else(|| spec.get("serviceAccount"))
                .and_then(Node::as_str)
                .filter(|s| !s.is_empty())
                .unwrap_or("default");
            let a = account(&mut accounts, o.namespace(), name);
            a.workloads.push(o);
            if o.reference.kind == "DaemonSet" {
                a.runs.node_local = true;
            } else {
                a.runs.control_plane = true;
            }
        }
        let mut bound: Vec<*const Object> = Vec::new();
        let bindings = objects.iter().filter(|o| {
            matches!(
                o.kind,
                ObjectKind::RoleBinding | ObjectKind::ClusterRoleBinding
            )
        });
        for b in bindings {
            let cluster = b.kind == ObjectKind::ClusterRoleBinding;
            let ref_kind = str_at(&b.root, &["roleRef", "kind"]).unwrap_or("");
            let ref_name = str_at(&b.root, &["roleRef", "name"]).unwrap_or("");
            let role = objects.iter().find(|o| {
                o.name() == Some(ref_name)
                    && match ref_kind {
                        "ClusterRole" => o.kind == ObjectKind::ClusterRole,
                        // A RoleBinding's Role lives in the binding's namespace.
                        "Role" if !cluster => {
                            o.kind == ObjectKind::Role && same_ns(o.namespace(), b.namespace())
                        }
                        _ => false,
                    }
            });
            let Some(role) = role else { continue };
            bound.push(role);
            let rules = role_rules(objects, role);
            for r in &rules {
                bound.push(r.role);
            }
            let scope = if cluster {
                Scope::Cluster
            } else {
                Scope::Namespace(b.namespace().map(str::to_owned))
            };
            for s in seq(b.root.get("subjects")) {
                let kind = s.get("kind").and_then(Node::as_str).unwrap_or("");
                let name = s.get("name").and_then(Node::as_str).unwrap_or("");
                let ns = s
                    .get("namespace")
                    .and_then(Node::as_str)
                    .filter(|n| !n.is_empty())
                    .or(if cluster { None } else { b.namespace() });
                let targets: Vec<usize> = match kind {
                    "ServiceAccount" if !name.is_empty() => {
                        account(&mut accounts, ns, name);
                        accounts
                            .iter()
                            .enumerate()
                            .filter(|(_, a)| a.name == name && same_ns(a.namespace.as_deref(), ns))
                            .map(|(i, _)| i)
                            .collect()
                    }
                    // Groups every service account (of a namespace) is in.
                    "Group"
                        if name == "system:serviceaccounts" || name == "system:authenticated" =>
                    {
                        (0..accounts.len()).collect()
                    }
                    "Group" => match name.strip_prefix("system:serviceaccounts:") {
                        Some(gns) => accounts
                            .iter()
                            .enumerate()
                            .filter(|(_, a)| same_ns(a.namespace.as_deref(), Some(gns)))
                            .map(|(i, _)| i)
                            .collect(),
                        None => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                for i in targets {
                    accounts[i].grants.extend(rules.iter().map(|&rule| Grant {
                        rule,
                        scope: scope.clone(),
                        binding: Some(b),
                    }));
                }
            }
        }
        let mut unbound = Vec::new();
        let mut all_rules = Vec::new();
        for role in objects.iter().filter(|o| is_role(o)) {
            let own: Vec<PolicyRule<'a>> = seq(role.root.get("rules"))
                .iter()
                .enumerate()
                .map(|(index, node)| PolicyRule { role, index, node })
                .collect();
            if !bound.contains(&(role as *const Object)) {
                unbound.extend(own.iter().copied());
            }
            all_rules.extend(own);
        }
        Model {
            accounts,
            unbound,
            all_rules,
        }
    }

    /// Rules to judge for a service account's sake: those that reach one,
    /// and those no binding in the input uses.
    pub fn account_rules(&self) -> Vec<PolicyRule<'a>> {
        let mut out: Vec<PolicyRule<'a>> = self.unbound.clone();
        for a in &self.accounts {
            for g in &a.grants {
                if !out.iter().any(|r| std::ptr::eq(r.node, g.rule.node)) {
                    out.push(g.rule);
                }
            }
        }
        out
    }

    /// The accounts a rule reaches.
    pub fn holders(&self, rule: &PolicyRule<'_>) -> Vec<&Account<'a>> {
        self.accounts
            .iter()
            .filter(|a| {
                a.grants
                    .iter()
                    .any(|g| std::ptr::eq(g.rule.node, rule.node))
            })
            .collect()
    }
}

/// Whether the input holds any RBAC object (rules stay quiet otherwise).
pub fn has_rbac(objects: &[Object]) -> bool {
    objects.iter().any(is_role)
}

/// Who a least-privilege ClusterRole is for (`kubectl dra rbac --for`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persona {
    /// A node-local DRA driver (kubelet plugin, DaemonSet).
    Driver,
    /// A control-plane or multi-node controller that writes `status.devices`.
    Controller,
    /// A custom allocation controller or scheduler: `status.allocation` and
    /// `status.reservedFor`.
    Allocator,
    /// kubectl-dra itself: read-only.
    KubectlDra,
}

/// The least-privilege ClusterRole for `persona` in Kubernetes `version`, as YAML.
pub fn least_privilege(persona: Persona, gates: &FeatureGates, driver: &str) -> String {
    let version = gates.version;
    let inert = if gates.enabled(Gate::DRAResourceClaimGranularStatusAuthorization) {
        String::new()
    } else {
        format!(
            "# Inert in Kubernetes {version} without DRAResourceClaimGranularStatusAuthorization;\n# needed from 1.36, where the gate is on by default. Keep it for upgrades.\n"
        )
    };
    let mut y =
        String::from("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n");
    let rule = |groups: &str, resources: &str, verbs: &str| {
        format!("- apiGroups: [{groups}]\n  resources: [{resources}]\n  verbs: [{verbs}]\n")
    };
    let slices = rule(
        "\"resource.k8s.io\"",
        "resourceslices",
        "get, list, watch, create, update, patch, delete",
    );
    let driver_rule = |prefix: &str| {
        format!(
            "{inert}- apiGroups: [\"resource.k8s.io\"]\n  resources: [resourceclaims/driver]\n  verbs: [\"{prefix}update\", \"{prefix}patch\"]\n  resourceNames: [{driver}]\n"
        )
    };
    match persona {
        Persona::Driver => {
            y.push_str(&format!("  name: {driver}-kubelet-plugin\n  # For the driver's DaemonSet (kubelet plugin). Bind it with a ClusterRoleBinding.\nrules:\n"));
            y.push_str("# Publish this node's devices.\n");
            y.push_str(&slices);
            y.push_str("# Owner references of node-local slices point at the Node.\n");
            y.push_str(&rule("\"\"", "nodes", "get"));
            y.push_str("# Read the claims it prepares.\n");
            y.push_str(&rule("\"resource.k8s.io\"", "resourceclaims", "get"));
            y.push_str("# Report device health and network data in status.devices.\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&driver_rule(PREFIX_ASSOCIATED));
        }
        Persona::Controller => {
            y.push_str(&format!("  name: {driver}-controller\n  # For a control-plane controller (Deployment) that writes status.devices of\n  # claims on any node. Bind it with a ClusterRoleBinding.\nrules:\n"));
            y.push_str("# Publish network-attached or multi-node pools.\n");
            y.push_str(&slices);
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims",
                "get, list, watch",
            ));
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&driver_rule(PREFIX_ARBITRARY));
        }
        Persona::Allocator => {
            y.push_str("  name: dra-allocator\n  # For a scheduler or allocation controller that sets status.allocation and\n  # status.reservedFor. The binding check is cluster-wide: bind it with a\n  # ClusterRoleBinding (a RoleBinding grants nothing here).\nrules:\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceslices, deviceclasses, resourceclaims",
                "get, list, watch",
            ));
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&format!(
                "{inert}- apiGroups: [\"resource.k8s.io\"]\n  resources: [resourceclaims/binding]\n  verbs: [update, patch]\n"
            ));
        }
        Persona::KubectlDra => {
            y.push_str("  name: kubectl-dra-reader\n  # What kubectl-dra reads. It only ever gets and lists; it never writes.\nrules:\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceslices, deviceclasses, resourceclaims, resourceclaimtemplates, devicetaintrules",
                "get, list",
            ));
            y.push_str("# Node labels for node selectors; pods for `explain pod`.\n");
            y.push_str(&rule("\"\"", "nodes, pods", "get, list"));
            y.push_str("# Feature gates (kubernetes_feature_enabled). Optional: without it the\n# version's defaults are assumed.\n");
            y.push_str("- nonResourceURLs: [/metrics]\n  verbs: [get]\n");
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_file;
    use crate::yaml::Limits;

    fn objects(text: &str) -> Vec<Object> {
        parse_file(0, text, Limits::default()).objects
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

    #[test]
    fn aggregated_roles_reach_the_daemonset_account() {
        let objs = objects(CHART);
        let m = Model::build(&objs);
        assert_eq!(m.accounts.len(), 1);
        let a = &m.accounts[0];
        assert_eq!(a.display(), "ServiceAccount dra/plugin");
        assert!(a.runs.node_local && !a.runs.control_plane);
        assert_eq!(a.grants.len(), 2);
        assert!(a.may("resourceclaims/status", "update", None).is_some());
        assert!(a.may("resourceclaims/status", "patch", None).is_none());
        assert!(a
            .may(
                "resourceclaims/driver",
                "associated-node:patch",
                Some("gpu.example.com")
            )
            .is_some());
        assert!(a
            .may(
                "resourceclaims/driver",
                "associated-node:patch",
                Some("other.example.com")
            )
            .is_none());
        assert!(a.may_write_device_status());
        assert!(!a.may_bind());
        assert!(m.unbound.is_empty());
    }

    #[test]
    fn binding_needs_a_cluster_role_binding() {
        let text = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: x}\nrules:\n- apiGroups: ['*']\n  resources: ['*']\n  verbs: ['*']\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: x}\nroleRef: {kind: Role, name: r}\nsubjects:\n- {kind: ServiceAccount, name: s}\n";
        let objs = objects(text);
        let m = Model::build(&objs);
        let a = &m.accounts[0];
        assert_eq!(a.namespace.as_deref(), Some("x"));
        assert!(a.may_write_device_status());
        assert!(
            !a.may_bind(),
            "a RoleBinding cannot pass a cluster-wide check"
        );
    }

    #[test]
    fn sub_wildcard_is_not_resource_wildcard() {
        let text = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules:\n- apiGroups: ['resource.k8s.io']\n  resources: ['resourceclaims/*']\n  verbs: ['*']\n";
        let objs = objects(text);
        let m = Model::build(&objs);
        assert_eq!(m.unbound.len(), 1);
        assert!(!m.unbound[0].covers(
            GROUP,
            "resourceclaims/driver",
            "arbitrary-node:update",
            None
        ));
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
                assert!(
                    m.unbound.iter().any(|r| r.covers(
                        GROUP,
                        resource,
                        verb,
                        Some("gpu.example.com")
                    )),
                    "{persona:?} {v}:\n{y}"
                );
                if persona == Persona::KubectlDra {
                    assert!(!m
                        .unbound
                        .iter()
                        .any(|r| ["create", "update", "patch", "delete"]
                            .iter()
                            .any(|w| r.matches_verb(w))));
                }
            }
        }
    }
}
