//! One PolicyRule and RBAC's matching of a request against it, as
//! `k8s.io/component-helpers/auth/rbac/validation` (`evaluation_helpers.go`)
//! and the authorizer's `RuleAllows` do it: every field is compared
//! literally, `*` matches anything in `verbs`, `apiGroups` and `resources`,
//! `*/sub` matches any resource's subresource `sub`, and an empty
//! `resourceNames` matches every name (a request for no name included).

use crate::model::Object;
use crate::tree::{Node, Span};

/// A resource request, as the authorizer sees it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'r> {
    pub verb: &'r str,
    pub group: &'r str,
    /// `resourceclaims`.
    pub resource: &'r str,
    /// `status`, `binding`, `driver`; empty for the resource itself.
    pub subresource: &'r str,
    /// `None`: an object whose name the input does not know (some claim,
    /// some driver): a rule naming any object may cover it.
    pub name: Option<&'r str>,
}

impl<'r> Request<'r> {
    /// `group`, `resource[/subresource]`, `verb`, for any object name.
    pub fn new(group: &'r str, resource: &'r str, verb: &'r str) -> Request<'r> {
        let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
        Request {
            verb,
            group,
            resource,
            subresource,
            name: None,
        }
    }
    pub fn named(mut self, name: &'r str) -> Request<'r> {
        self.name = Some(name);
        self
    }
}

/// One entry of a Role's or ClusterRole's `rules`, where it is written.
#[derive(Clone, Copy)]
pub struct PolicyRule<'a> {
    /// The Role or ClusterRole that holds it in the input (for an aggregated
    /// ClusterRole: the role it was aggregated from).
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
    fn any(&self, key: &str, pred: impl Fn(&str) -> bool) -> bool {
        self.list(key).iter().any(|(s, _)| pred(s))
    }

    /// `VerbMatches`.
    pub fn matches_verb(&self, verb: &str) -> bool {
        self.any("verbs", |v| v == "*" || v == verb)
    }
    /// `APIGroupMatches`.
    pub fn matches_group(&self, group: &str) -> bool {
        self.any("apiGroups", |g| g == "*" || g == group)
    }
    /// `ResourceMatches`, for `resource` or `resource/subresource`.
    pub fn matches_resource(&self, combined: &str) -> bool {
        let sub = combined.split_once('/').map_or("", |(_, s)| s);
        self.any("resources", |r| resource_item_matches(r, combined, sub))
    }
    /// `ResourceNameMatches`; an unknown name (`None`) may be any listed one.
    pub fn matches_name(&self, name: Option<&str>) -> bool {
        let names = self.list("resourceNames");
        match name {
            Some(n) => names.is_empty() || names.iter().any(|(s, _)| *s == n),
            None => true,
        }
    }
    /// `RuleAllows` for a resource request.
    pub fn allows(&self, r: &Request<'_>) -> bool {
        let combined = combined(r);
        self.matches_verb(r.verb)
            && self.matches_group(r.group)
            && self.any("resources", |x| {
                resource_item_matches(x, &combined, r.subresource)
            })
            && self.matches_name(r.name)
    }
    /// Whether the rule names `resource` (or its `*/sub` form) itself,
    /// not through `*`.
    pub fn names_resource(&self, combined: &str) -> bool {
        let sub = combined.split_once('/').map_or("", |(_, s)| s);
        self.any("resources", |r| {
            r != "*" && resource_item_matches(r, combined, sub)
        })
    }
    /// Where to point for `resource`: its item in `resources`, else the rule.
    pub fn resource_span(&self, combined: &str) -> Span {
        let sub = combined.split_once('/').map_or("", |(_, s)| s);
        let items = self.list("resources");
        items
            .iter()
            .find(|(r, _)| *r != "*" && resource_item_matches(r, combined, sub))
            .or_else(|| items.iter().find(|(r, _)| *r == "*"))
            .map_or(self.node.span, |(_, s)| *s)
    }
    /// Where to point for a verb: its item in `verbs`, else the rule.
    pub fn verb_span(&self, verb: &str) -> (String, Span) {
        self.list("verbs")
            .iter()
            .enumerate()
            .find(|(_, (v, _))| *v == verb)
            .map_or((self.field(), self.node.span), |(i, (_, s))| {
                (format!("{}.verbs[{i}]", self.field()), *s)
            })
    }
    pub fn field(&self) -> String {
        format!("rules[{}]", self.index)
    }
    /// What `ruleExists` compares (semantic equality of the five lists).
    pub fn content(&self) -> [Vec<&'a str>; 5] {
        [
            "verbs",
            "apiGroups",
            "resources",
            "resourceNames",
            "nonResourceURLs",
        ]
        .map(|k| self.list(k).into_iter().map(|(s, _)| s).collect())
    }
}

fn combined(r: &Request<'_>) -> String {
    if r.subresource.is_empty() {
        r.resource.to_owned()
    } else {
        format!("{}/{}", r.resource, r.subresource)
    }
}

/// One `resources` item against `resource[/sub]` (`ResourceMatches`).
fn resource_item_matches(item: &str, combined: &str, sub: &str) -> bool {
    item == "*"
        || item == combined
        || (!sub.is_empty() && item.len() == sub.len() + 2 && item.strip_prefix("*/") == Some(sub))
}
