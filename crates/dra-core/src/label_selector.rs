//! `metav1.LabelSelector` as apimachinery reads it
//! (`LabelSelectorAsSelector`, then `Selector.Matches`): ClusterRole
//! aggregation and the scheduler's pod (anti-)affinity terms use it.

use crate::tree::Node;

/// `LabelSelectorAsSelector` of a selector with no labels and no
/// expressions is `labels.Everything()` (its `Empty()` is true).
pub fn selects_everything(s: &Node) -> bool {
    let empty = |k| {
        s.get(k).is_none_or(|v| {
            v.is_null()
                || v.as_map().is_some_and(<[_]>::is_empty)
                || v.as_seq().is_some_and(<[_]>::is_empty)
        })
    };
    empty("matchLabels") && empty("matchExpressions")
}

/// `metav1.LabelSelectorAsSelector` then `Matches`: `None` for a selector
/// it refuses (unknown operator, `In`/`NotIn` without values, `Exists`/
/// `DoesNotExist` with values). An empty selector matches everything.
pub fn matches(selector: &Node, labels: Option<&Node>) -> Option<bool> {
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
    let mut ok = true;
    for e in selector
        .get("matchLabels")
        .and_then(Node::as_map)
        .unwrap_or_default()
    {
        ok &= label(&e.key) == e.value.as_str();
    }
    for req in selector
        .get("matchExpressions")
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let key = req.get("key").and_then(Node::as_str).unwrap_or("");
        let values: Vec<&str> = req
            .get("values")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect();
        let have = label(key);
        ok &= match req.get("operator").and_then(Node::as_str).unwrap_or("") {
            "In" if !values.is_empty() => have.is_some_and(|h| values.contains(&h)),
            "NotIn" if !values.is_empty() => have.is_none_or(|h| !values.contains(&h)),
            "Exists" if values.is_empty() => have.is_some(),
            "DoesNotExist" if values.is_empty() => have.is_none(),
            _ => return None,
        };
    }
    Some(ok)
}
