//! Which nodes a slice or a device selects (`nodeName`, `allNodes`,
//! `nodeSelector`, per-device node selection), and the node selector errors
//! GatherPools stops at (nodeaffinity.NewNodeSelector).

use super::*;

/// Whether a NodeSelector matches the node (labels and `metadata.name`).
pub fn node_selector_matches(sel: &Node, node: &str, labels: Option<&Node>) -> bool {
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
    let terms = sel
        .get("nodeSelectorTerms")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    terms.iter().any(|t| {
        let exprs = t
            .get("matchExpressions")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        let fields = t
            .get("matchFields")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        if exprs.is_empty() && fields.is_empty() {
            return false;
        }
        let check = |r: &Node, value: Option<&str>| {
            let values: Vec<&str> = r
                .get("values")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(Node::as_str)
                .collect();
            match r.get("operator").and_then(Node::as_str).unwrap_or("") {
                "In" => value.is_some_and(|v| values.contains(&v)),
                "NotIn" => value.is_none_or(|v| !values.contains(&v)),
                "Exists" => value.is_some(),
                "DoesNotExist" => value.is_none(),
                "Gt" | "Lt" => {
                    let (Some(v), Some(w)) = (
                        value.and_then(|v| v.parse::<i64>().ok()),
                        values.first().and_then(|w| w.parse::<i64>().ok()),
                    ) else {
                        return false;
                    };
                    if r.get("operator").and_then(Node::as_str) == Some("Gt") {
                        v > w
                    } else {
                        v < w
                    }
                }
                _ => false,
            }
        };
        exprs
            .iter()
            .all(|r| check(r, r.get("key").and_then(Node::as_str).and_then(label)))
            && fields.iter().all(|r| {
                let v =
                    (r.get("key").and_then(Node::as_str) == Some("metadata.name")).then_some(node);
                check(r, v)
            })
    })
}

/// Whether a slice is collected for the node (§3, steps 1-5).
/// The node selection of a slice or of a device (`nodeName`, `allNodes`,
/// `nodeSelector`): `None` when it sets none of them.
/// What `nodeaffinity.NewNodeSelector` refuses in a node selector, as the
/// allocator's `nodeMatches` parses it before matching: a match expression
/// with an unknown operator, `In`/`NotIn` without values, `Exists`/
/// `DoesNotExist` with values, `Gt`/`Lt` without exactly one integer, or a
/// bad label key or value; a match field with other than one value or an
/// operator other than `In`/`NotIn`. Empty terms are skipped, as there.
pub fn node_selector_error(sel: &Node) -> Option<String> {
    fn seq(n: Option<&Node>) -> &[Node] {
        n.and_then(Node::as_seq).unwrap_or_default()
    }
    let s = |n: &Node, k: &str| n.get(k).and_then(Node::as_str).unwrap_or("").to_owned();
    let mut errs: Vec<String> = Vec::new();
    for (i, term) in seq(sel.get("nodeSelectorTerms")).iter().enumerate() {
        for (j, r) in seq(term.get("matchExpressions")).iter().enumerate() {
            let path = format!("nodeSelectorTerms[{i}].matchExpressions[{j}]");
            let values: Vec<String> = seq(r.get("values"))
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            let (key, op) = (s(r, "key"), s(r, "operator"));
            if !crate::format::is_label_key(&key) {
                errs.push(format!(
                    "{path}.key: Invalid value: {key:?}: not a qualified name"
                ));
            }
            match op.as_str() {
                "In" | "NotIn" if values.is_empty() => errs.push(format!(
                    "{path}.values: Required value: for 'in', 'notin' operators, values set can't be empty"
                )),
                "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(format!(
                    "{path}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                )),
                "Gt" | "Lt" if values.len() != 1 => errs.push(format!(
                    "{path}.values: Required value: for 'Gt', 'Lt' operators, exactly one value is required"
                )),
                "Gt" | "Lt" if values[0].parse::<i64>().is_err() => errs.push(format!(
                    "{path}.values[0]: Invalid value: {:?}: for 'Gt', 'Lt' operators, the value must be an integer",
                    values[0]
                )),
                "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {
                    for (k, v) in values.iter().enumerate() {
                        if !crate::format::is_label_value(v) {
                            errs.push(format!("{path}.values[{k}]: Invalid value: {v:?}: not a label value"));
                        }
                    }
                }
                other => errs.push(format!("{path}.operator: Invalid value: {other:?}: not a valid selector operator")),
            }
        }
        for (j, r) in seq(term.get("matchFields")).iter().enumerate() {
            let path = format!("nodeSelectorTerms[{i}].matchFields[{j}]");
            let n = seq(r.get("values")).len();
            if n != 1 {
                // The operator is not looked at then.
                errs.push(format!(
                    "{path}.values: Invalid value: {n} values: must have one element"
                ));
                continue;
            }
            let op = s(r, "operator");
            if !matches!(op.as_str(), "In" | "NotIn") {
                errs.push(format!(
                    "{path}.operator: Invalid value: {op:?}: not a valid selector operator"
                ));
            }
        }
    }
    match errs.len() {
        0 => None,
        1 => errs.pop(),
        _ => Some(format!("[{}]", errs.join(", "))),
    }
}

/// `nodeMatches`' parse step for a slice or device: the error the allocator
/// stops with, when its node selector is the one it reads.
pub(super) fn selection_error(n: &Node) -> Option<String> {
    if n.get("nodeName")
        .and_then(Node::as_str)
        .is_some_and(|s| !s.is_empty())
        || n.get("allNodes").and_then(Node::as_bool) == Some(true)
    {
        return None;
    }
    let e = node_selector_error(n.get("nodeSelector")?)?;
    Some(format!("failed to parse node selector: {e}"))
}

pub(super) fn selects_node(n: &Node, node: &str, labels: Option<&Node>) -> Option<bool> {
    if let Some(name) = n.get("nodeName").and_then(Node::as_str) {
        return Some(name == node);
    }
    if n.get("allNodes").and_then(Node::as_bool) == Some(true) {
        return Some(true);
    }
    n.get("nodeSelector")
        .map(|sel| node_selector_matches(sel, node, labels))
}

pub(super) fn targets(spec: &Node, node: &str, labels: Option<&Node>, partitionable: bool) -> bool {
    if !partitionable
        && (spec.get("sharedCounters").is_some() || spec.get("perDeviceNodeSelection").is_some())
    {
        return false;
    }
    if spec.get("sharedCounters").is_some() {
        return true;
    }
    if let Some(m) = selects_node(spec, node, labels) {
        return m;
    }
    if spec.get("perDeviceNodeSelection").and_then(Node::as_bool) == Some(true) {
        return spec
            .get("devices")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .any(|d| selects_node(d, node, labels) == Some(true));
    }
    false
}
