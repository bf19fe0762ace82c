//! What each subject of the input may do, decided as kube-apiserver's RBAC
//! authorizer decides it: the bindings that apply to the subject
//! (`VisitRulesFor` and `appliesToUser` in `pkg/registry/rbac/validation`,
//! see `principal.rs`), the rules of the roles they reference (ClusterRole
//! aggregation as the controller computes it, see `aggregate.rs`), and each
//! rule matched literally (`RuleAllows`, see `rule.rs`). Every R-rule asks
//! [`Principal::authorize`] or [`Principal::status_write`]; none matches on
//! its own.
//!
//! Since Kubernetes 1.36 (gate `DRAResourceClaimGranularStatusAuthorization`)
//! a ResourceClaim status write asks two more questions
//! (`AuthorizedForBinding` and `AuthorizedForDeviceStatus` in
//! `pkg/registry/resource/utils.go`), each with the request's own verb
//! (`update`, or `patch` for patches and server-side apply): changing
//! `status.allocation` or `status.reservedFor` needs that verb on
//! `resourceclaims/binding`, checked cluster-wide (namespace and name empty);
//! changing `status.devices` needs `arbitrary-node:<verb>` on
//! `resourceclaims/driver` in the claim's namespace, named after the driver,
//! or `associated-node:<verb>`, which is tried only for a service account
//! whose token names the node the claim is allocated on.

mod aggregate;
mod persona;
mod principal;
mod rule;

pub use crate::label_selector::matches as selector_matches;
pub use aggregate::RoleRules;
pub use persona::{least_privilege, Persona};
pub use principal::{same_ns, split_sa_user, Identity};
pub use rule::{PolicyRule, Request};

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

pub const GROUP: &str = "resource.k8s.io";
pub const PREFIX_ASSOCIATED: &str = "associated-node:";
pub const PREFIX_ARBITRARY: &str = "arbitrary-node:";
/// The request verbs of a status write.
pub const STATUS_VERBS: [&str; 2] = ["update", "patch"];

/// Where a grant applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Through a ClusterRoleBinding.
    Cluster,
    /// Through a RoleBinding in this namespace (`None`: not set in the file).
    Namespace(Option<String>),
}

/// The namespace of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Namespace<'r> {
    /// A cluster-wide request (namespace empty): ClusterRoleBindings only.
    Cluster,
    In(&'r str),
    /// Some namespace the input cannot know (the claim's).
    Any,
}

/// A rule that reaches a subject, and through which binding.
#[derive(Clone)]
pub struct Grant<'a> {
    pub rule: PolicyRule<'a>,
    pub scope: Scope,
    pub binding: Option<&'a Object>,
}

impl Grant<'_> {
    fn applies_in(&self, ns: Namespace<'_>) -> bool {
        match (&self.scope, ns) {
            (Scope::Cluster, _) => true,
            (Scope::Namespace(_), Namespace::Cluster) => false,
            (Scope::Namespace(b), Namespace::In(n)) => same_ns(b.as_deref(), Some(n)),
            (Scope::Namespace(_), Namespace::Any) => true,
        }
    }
}

/// How a service account's pods run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Runs {
    /// In a DaemonSet: one pod per node, a node-local driver.
    pub node_local: bool,
    /// In a Deployment, StatefulSet or other controller: control plane.
    pub control_plane: bool,
}

/// A subject and everything the input grants it.
pub struct Principal<'a> {
    pub identity: Identity,
    pub grants: Vec<Grant<'a>>,
    pub runs: Runs,
    /// The workloads running as it.
    pub workloads: Vec<&'a Object>,
}

/// What a status write with one verb meets (`AuthorizedForBinding`,
/// `AuthorizedForDeviceStatus`).
pub struct StatusWrite<'g, 'a> {
    pub verb: &'static str,
    /// The grant of `verb` on `resourceclaims/status`, if any.
    pub status: Option<&'g Grant<'a>>,
    /// `verb` on `resourceclaims/binding`, cluster-wide, no name.
    pub binding: Option<&'g Grant<'a>>,
    /// `arbitrary-node:<verb>` on `resourceclaims/driver`: claims on any node.
    pub arbitrary: Option<&'g Grant<'a>>,
    /// `associated-node:<verb>`: claims on the pod's own node, and only when
    /// the subject can be a service account.
    pub associated: Option<&'g Grant<'a>>,
}

impl StatusWrite<'_, '_> {
    /// Held on `resourceclaims/status`, and every status change denied.
    pub fn denied(&self) -> bool {
        self.status.is_some()
            && self.binding.is_none()
            && self.arbitrary.is_none()
            && self.associated.is_none()
    }
}

impl<'a> Principal<'a> {
    pub fn display(&self) -> String {
        self.identity.display()
    }

    /// The first grant that allows the request (`RBACAuthorizer.Authorize`).
    pub fn authorize(&self, req: &Request<'_>, ns: Namespace<'_>) -> Option<&Grant<'a>> {
        self.grants
            .iter()
            .find(|g| g.applies_in(ns) && g.rule.allows(req))
    }

    /// Shorthand: `verb` on `resource[/sub]` of resource.k8s.io, any name.
    pub fn may(&self, resource: &str, verb: &str, name: Option<&str>) -> Option<&Grant<'a>> {
        let mut req = Request::new(GROUP, resource, verb);
        req.name = name;
        self.authorize(&req, Namespace::Any)
    }

    /// A status write with `verb`, for `driver` (`None`: a driver the input
    /// does not name).
    pub fn status_write(&self, verb: &'static str, driver: Option<&str>) -> StatusWrite<'_, 'a> {
        let binding = Request::new(GROUP, "resourceclaims/binding", verb).named("");
        let arbitrary = format!("{PREFIX_ARBITRARY}{verb}");
        let associated = format!("{PREFIX_ASSOCIATED}{verb}");
        let driver_req = |v: &str| {
            let mut r = Request::new(GROUP, "resourceclaims/driver", "");
            r.name = driver;
            let r = Request { verb: v, ..r };
            self.authorize(&r, Namespace::Any)
        };
        StatusWrite {
            verb,
            status: self.may("resourceclaims/status", verb, None),
            binding: self.authorize(&binding, Namespace::Cluster),
            arbitrary: driver_req(&arbitrary),
            associated: if self.identity.may_be_service_account() {
                driver_req(&associated)
            } else {
                None
            },
        }
    }

    /// Whether a write of `status.allocation`/`reservedFor` passes the
    /// binding check with some verb.
    pub fn may_bind(&self) -> bool {
        STATUS_VERBS
            .iter()
            .any(|v| self.status_write(v, None).binding.is_some())
    }
}

/// The RBAC picture of the input.
pub struct Model<'a> {
    /// Every service account, user and group the input names, with what
    /// it is granted; last, one `Unbound` principal per role no binding uses.
    pub principals: Vec<Principal<'a>>,
    /// Rules of Roles and ClusterRoles that no binding in the input uses:
    /// judged on their own (a chart's role file linted alone).
    pub unbound: Vec<PolicyRule<'a>>,
    /// Every rule written in every role.
    pub all_rules: Vec<PolicyRule<'a>>,
    pub roles: RoleRules<'a>,
}

fn str_at<'n>(n: &'n Node, path: &[&str]) -> Option<&'n str> {
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

fn is_binding(o: &Object) -> bool {
    matches!(
        o.kind,
        ObjectKind::RoleBinding | ObjectKind::ClusterRoleBinding
    )
}

/// The role a binding's `roleRef` names (`GetRoleReferenceRules`): a
/// ClusterRole, or for a RoleBinding a Role of its namespace.
fn referenced_role<'a>(objects: &'a [Object], b: &Object) -> Option<&'a Object> {
    let kind = str_at(&b.root, &["roleRef", "kind"]).unwrap_or("");
    let name = str_at(&b.root, &["roleRef", "name"]).unwrap_or("");
    let cluster = b.kind == ObjectKind::ClusterRoleBinding;
    objects.iter().find(|o| {
        o.name() == Some(name)
            && match kind {
                "ClusterRole" => o.kind == ObjectKind::ClusterRole,
                "Role" if !cluster => {
                    o.kind == ObjectKind::Role && same_ns(o.namespace(), b.namespace())
                }
                _ => false,
            }
    })
}

impl<'a> Model<'a> {
    pub fn build(objects: &'a [Object]) -> Model<'a> {
        let roles = RoleRules::build(objects);
        let mut principals: Vec<Principal<'a>> = Vec::new();
        for o in objects
            .iter()
            .filter(|o| o.kind == ObjectKind::ServiceAccount)
        {
            if let Some(name) = o.name() {
                principal(
                    &mut principals,
                    Identity::ServiceAccount {
                        namespace: o.namespace().map(str::to_owned),
                        name: name.to_owned(),
                    },
                );
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
            let id = Identity::ServiceAccount {
                namespace: o.namespace().map(str::to_owned),
                name: name.to_owned(),
            };
            let p = principal(&mut principals, id);
            p.workloads.push(o);
            if o.reference.kind == "DaemonSet" {
                p.runs.node_local = true;
            } else {
                p.runs.control_plane = true;
            }
        }
        for b in objects.iter().filter(|o| is_binding(o)) {
            let cluster = b.kind == ObjectKind::ClusterRoleBinding;
            for s in seq(b.root.get("subjects")) {
                let f = |k: &str| s.get(k).and_then(Node::as_str).filter(|v| !v.is_empty());
                let ns = f("namespace").or(if cluster { None } else { b.namespace() });
                if let Some(id) =
                    Identity::of_subject(f("kind").unwrap_or(""), f("name").unwrap_or(""), ns)
                {
                    principal(&mut principals, id);
                }
            }
        }
        let mut bound: Vec<*const Object> = Vec::new();
        for b in objects.iter().filter(|o| is_binding(o)) {
            let Some(role) = referenced_role(objects, b) else {
                continue;
            };
            let rules = roles.of(role);
            bound.push(role);
            bound.extend(rules.iter().map(|r| r.role as *const Object));
            let scope = if b.kind == ObjectKind::ClusterRoleBinding {
                Scope::Cluster
            } else {
                Scope::Namespace(b.namespace().map(str::to_owned))
            };
            let subjects = seq(b.root.get("subjects"));
            for p in principals.iter_mut() {
                if subjects.iter().any(|s| p.identity.bound_by(s, b)) {
                    p.grants.extend(rules.iter().map(|&rule| Grant {
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
                let grants: Vec<Grant<'a>> = roles
                    .of(role)
                    .iter()
                    .map(|&rule| Grant {
                        rule,
                        scope: Scope::Cluster,
                        binding: None,
                    })
                    .collect();
                if !grants.is_empty() {
                    principals.push(Principal {
                        identity: Identity::Unbound,
                        grants,
                        runs: Runs::default(),
                        workloads: Vec::new(),
                    });
                }
            }
            all_rules.extend(own);
        }
        Model {
            principals,
            unbound,
            all_rules,
            roles,
        }
    }

    /// The service accounts (and unbound roles) of the input.
    pub fn service_accounts(&self) -> impl Iterator<Item = &Principal<'a>> {
        self.principals.iter().filter(|p| {
            matches!(
                p.identity,
                Identity::ServiceAccount { .. } | Identity::Unbound
            )
        })
    }

    /// Rules to judge for a service account's sake: those that reach one,
    /// and those no binding in the input uses.
    pub fn account_rules(&self) -> Vec<PolicyRule<'a>> {
        let mut out: Vec<PolicyRule<'a>> = self.unbound.clone();
        for p in self.service_accounts() {
            for g in &p.grants {
                if !out.iter().any(|r| std::ptr::eq(r.node, g.rule.node)) {
                    out.push(g.rule);
                }
            }
        }
        out
    }

    /// The service accounts a rule reaches through a binding.
    pub fn holders(&self, rule: &PolicyRule<'_>) -> Vec<&Principal<'a>> {
        self.principals
            .iter()
            .filter(|p| matches!(p.identity, Identity::ServiceAccount { .. }))
            .filter(|p| {
                p.grants
                    .iter()
                    .any(|g| std::ptr::eq(g.rule.node, rule.node))
            })
            .collect()
    }
}

/// The principal for `id`, merged with one already known when the input
/// cannot tell them apart (an unset namespace matches any).
fn principal<'p, 'a>(
    principals: &'p mut Vec<Principal<'a>>,
    id: Identity,
) -> &'p mut Principal<'a> {
    let same = |a: &Identity| match (a, &id) {
        (
            Identity::ServiceAccount {
                namespace: n1,
                name: a,
            },
            Identity::ServiceAccount {
                namespace: n2,
                name: b,
            },
        ) => a == b && same_ns(n1.as_deref(), n2.as_deref()),
        (a, b) => a == b,
    };
    let i = match principals.iter().position(|p| same(&p.identity)) {
        Some(i) => {
            if let (
                Identity::ServiceAccount {
                    namespace: have @ None,
                    ..
                },
                Identity::ServiceAccount {
                    namespace: Some(ns),
                    ..
                },
            ) = (&mut principals[i].identity, &id)
            {
                *have = Some(ns.clone());
            }
            i
        }
        None => {
            principals.push(Principal {
                identity: id,
                grants: Vec::new(),
                runs: Runs::default(),
                workloads: Vec::new(),
            });
            principals.len() - 1
        }
    };
    &mut principals[i]
}

/// Whether the input holds any RBAC object (rules stay quiet otherwise).
pub fn has_rbac(objects: &[Object]) -> bool {
    objects.iter().any(is_role)
}

#[cfg(test)]
mod tests;
