//! Who a binding's subjects are, as the authenticator presents them and as
//! `appliesToUser` (`pkg/registry/rbac/validation/rule.go`) matches them: a
//! service account's user name is `system:serviceaccount:NS:NAME` and its
//! groups are `system:serviceaccounts`, `system:serviceaccounts:NS` and
//! `system:authenticated`; a `kind: User` subject matches the user name
//! literally (so it may name a service account); a `kind: ServiceAccount`
//! subject without a namespace takes the RoleBinding's, and matches nothing
//! in a ClusterRoleBinding.
//!
//! A namespace the input leaves unset (a chart installed with `-n`) matches
//! any: the input cannot say which it will be.

use crate::model::Object;

pub const SA_USER_PREFIX: &str = "system:serviceaccount:";
pub const SA_GROUP: &str = "system:serviceaccounts";
pub const AUTHENTICATED: &str = "system:authenticated";

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    ServiceAccount {
        namespace: Option<String>,
        name: String,
    },
    /// A user that is not a service account (a person, a component's
    /// client certificate such as a scheduler's).
    User(String),
    /// Any member of a group.
    Group(String),
    /// A role no binding of the input uses, judged as if bound to a
    /// service account through a ClusterRoleBinding.
    Unbound,
}

/// Whether two namespaces may be the same; an unset one matches any.
pub fn same_ns(a: Option<&str>, b: Option<&str>) -> bool {
    a.is_none() || b.is_none() || a == b
}

/// `serviceaccount.SplitUsername`.
pub fn split_sa_user(user: &str) -> Option<(&str, &str)> {
    let rest = user.strip_prefix(SA_USER_PREFIX)?;
    let (ns, name) = rest.split_once(':')?;
    (!ns.is_empty() && !name.is_empty() && !name.contains(':')).then_some((ns, name))
}

impl Identity {
    /// The identity a binding subject names (`None`: a kind RBAC ignores).
    pub fn of_subject(kind: &str, name: &str, namespace: Option<&str>) -> Option<Identity> {
        if name.is_empty() {
            return None;
        }
        Some(match kind {
            "ServiceAccount" => Identity::ServiceAccount {
                namespace: namespace.map(str::to_owned),
                name: name.to_owned(),
            },
            "User" => match split_sa_user(name) {
                Some((ns, sa)) => Identity::ServiceAccount {
                    namespace: Some(ns.to_owned()),
                    name: sa.to_owned(),
                },
                None => Identity::User(name.to_owned()),
            },
            "Group" => Identity::Group(name.to_owned()),
            _ => return None,
        })
    }

    pub fn display(&self) -> String {
        match self {
            Identity::ServiceAccount {
                namespace: Some(ns),
                name,
            } => format!("ServiceAccount {ns}/{name}"),
            Identity::ServiceAccount { name, .. } => format!("ServiceAccount {name}"),
            Identity::User(u) => format!("User {u}"),
            Identity::Group(g) => format!("Group {g}"),
            Identity::Unbound => "a service account bound to this role".to_owned(),
        }
    }

    /// Whether requests can come from a service account's pod, whose token
    /// names the node it runs on (what `associated-node:` verbs need).
    pub fn may_be_service_account(&self) -> bool {
        match self {
            Identity::ServiceAccount { .. } | Identity::Unbound => true,
            Identity::Group(g) => g == SA_GROUP || g.starts_with("system:serviceaccounts:"),
            Identity::User(_) => false,
        }
    }

    fn user_is(&self, user: &str) -> bool {
        match self {
            Identity::ServiceAccount { namespace, name } => split_sa_user(user)
                .is_some_and(|(ns, n)| n == name && same_ns(namespace.as_deref(), Some(ns))),
            Identity::User(u) => u == user,
            Identity::Group(_) | Identity::Unbound => false,
        }
    }

    fn in_group(&self, group: &str) -> bool {
        match self {
            Identity::ServiceAccount { namespace, .. } => {
                group == SA_GROUP
                    || group == AUTHENTICATED
                    || group
                        .strip_prefix("system:serviceaccounts:")
                        .is_some_and(|g| same_ns(namespace.as_deref(), Some(g)))
            }
            Identity::User(_) => group == AUTHENTICATED,
            Identity::Group(g) => g == group || group == AUTHENTICATED,
            Identity::Unbound => false,
        }
    }

    /// `appliesToUser` for one subject of `binding`.
    pub fn bound_by(&self, subject: &crate::tree::Node, binding: &Object) -> bool {
        let s = |k: &str| {
            subject
                .get(k)
                .and_then(crate::tree::Node::as_str)
                .unwrap_or("")
        };
        let name = s("name");
        match s("kind") {
            "User" => self.user_is(name),
            "Group" => self.in_group(name),
            "ServiceAccount" => {
                let Identity::ServiceAccount {
                    namespace,
                    name: sa,
                } = self
                else {
                    return false;
                };
                let cluster = binding.kind == crate::model::ObjectKind::ClusterRoleBinding;
                let ns = Some(s("namespace"))
                    .filter(|n| !n.is_empty())
                    .or(if cluster { None } else { binding.namespace() });
                if cluster && ns.is_none() {
                    return false;
                }
                sa == name && same_ns(namespace.as_deref(), ns)
            }
            _ => false,
        }
    }
}
