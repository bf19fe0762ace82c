//! ClusterRole aggregation as the aggregation controller computes it
//! (`pkg/controller/clusterroleaggregation`, `syncClusterRole`): a ClusterRole
//! with an `aggregationRule` gets, in place of its own rules, the rules of
//! every other ClusterRole one of its selectors matches (selected roles in
//! name order, duplicates dropped as `ruleExists` does). A selected role that
//! is itself aggregated contributes its aggregated rules, so the controller's
//! repeated syncs reach a fixpoint; here the rounds are bounded by the number
//! of roles, which a chain of aggregations cannot exceed.

use std::collections::HashMap;

use super::rule::PolicyRule;
use crate::label_selector::matches as selector_matches;
use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// The rules each Role and ClusterRole of the input grants.
pub struct RoleRules<'a> {
    rules: HashMap<*const Object, Vec<PolicyRule<'a>>>,
}

impl<'a> RoleRules<'a> {
    pub fn of(&self, role: &Object) -> &[PolicyRule<'a>] {
        self.rules
            .get(&(role as *const Object))
            .map_or(&[], Vec::as_slice)
    }

    pub fn build(objects: &'a [Object]) -> RoleRules<'a> {
        let mut rules: HashMap<*const Object, Vec<PolicyRule<'a>>> = objects
            .iter()
            .filter(|o| matches!(o.kind, ObjectKind::Role | ObjectKind::ClusterRole))
            .map(|o| (o as *const Object, own_rules(o)))
            .collect();
        let mut cluster_roles: Vec<&'a Object> = objects
            .iter()
            .filter(|o| o.kind == ObjectKind::ClusterRole)
            .collect();
        cluster_roles.sort_by_key(|o| o.name().unwrap_or(""));
        let aggregated: Vec<(&'a Object, &'a [Node])> = cluster_roles
            .iter()
            .filter_map(|o| {
                let sel = o.root.get("aggregationRule")?;
                let list = sel
                    .get("clusterRoleSelectors")
                    .and_then(Node::as_seq)
                    .unwrap_or_default();
                Some((*o, list))
            })
            .collect();
        for _ in 0..=cluster_roles.len() {
            let mut changed = false;
            for (role, selectors) in &aggregated {
                let Some(new) = aggregate(role, selectors, &cluster_roles, &rules) else {
                    continue;
                };
                let key = *role as *const Object;
                let same = rules.get(&key).is_some_and(|old| {
                    old.len() == new.len()
                        && old
                            .iter()
                            .zip(&new)
                            .all(|(a, b)| std::ptr::eq(a.node, b.node))
                });
                if !same {
                    rules.insert(key, new);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        RoleRules { rules }
    }
}

fn own_rules(role: &Object) -> Vec<PolicyRule<'_>> {
    role.root
        .get("rules")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(index, node)| PolicyRule { role, index, node })
        .collect()
}

/// One sync of `role`; `None` when a selector is invalid (the controller
/// returns the error and leaves the role as stored).
fn aggregate<'a>(
    role: &Object,
    selectors: &[Node],
    cluster_roles: &[&'a Object],
    current: &HashMap<*const Object, Vec<PolicyRule<'a>>>,
) -> Option<Vec<PolicyRule<'a>>> {
    let mut out: Vec<PolicyRule<'a>> = Vec::new();
    for selector in selectors {
        for other in cluster_roles {
            if other.name() == role.name() {
                continue;
            }
            let labels = other.root.get("metadata").and_then(|m| m.get("labels"));
            if !selector_matches(selector, labels)? {
                continue;
            }
            for r in current
                .get(&(*other as *const Object))
                .into_iter()
                .flatten()
            {
                if !out.iter().any(|o| o.content() == r.content()) {
                    out.push(*r);
                }
            }
        }
    }
    Some(out)
}
