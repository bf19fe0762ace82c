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

/// Whether a node selection picks the node: `None` when nothing is set.
/// A selector that does not parse matches what it can (its error is
/// reported by [`relevant`]).
pub(super) fn selects(sel: NodeSelection<'_>, node: &str, labels: Option<&Node>) -> Option<bool> {
    match sel {
        NodeSelection::Node(name) => Some(name == node),
        NodeSelection::AllNodes => Some(true),
        NodeSelection::Selector(s) => Some(node_selector_matches(s, node, labels)),
        NodeSelection::Unset => None,
    }
}

/// The node name a selection binds to.
pub(super) fn bound_name<'a>(sel: NodeSelection<'a>) -> Option<&'a str> {
    match sel {
        NodeSelection::Node(name) => Some(name),
        _ => None,
    }
}

/// The node selector a selection is made by.
pub(super) fn selector<'a>(sel: NodeSelection<'a>) -> Option<&'a Node> {
    match sel {
        NodeSelection::Selector(s) => Some(s),
        _ => None,
    }
}

/// `NodeMatches`' parse step: the error it returns for a selector
/// `nodeaffinity.NewNodeSelector` refuses.
fn parse_error(sel: NodeSelection<'_>) -> Option<String> {
    let e = node_selector_error(selector(sel)?)?;
    Some(format!("failed to parse node selector: {e}"))
}

/// How GatherPools treats slices, per release and gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceRules {
    /// DRAPartitionableDevices is on.
    pub partitionable: bool,
    /// Slices with shared counters are counter slices, gathered for every
    /// node and whose devices are not the node's (from 1.35); in 1.34 they
    /// are slices like any other, their counters beside their devices.
    pub counter_slices: bool,
    /// A counter slice is gathered by its node selection, as any slice,
    /// not for every node: 1.37's incubating and experimental
    /// implementations (kubernetes/dynamic-resource-allocation 98209ff,
    /// "remove shared counters check"; its stable one keeps the old rule).
    /// A pool whose counter slice targets another node then looks
    /// incomplete, and GatherPools reads all its slices, counters included.
    pub counters_by_selection: bool,
}

impl SliceRules {
    pub fn of(gates: &crate::gates::FeatureGates) -> Self {
        SliceRules {
            partitionable: gates.enabled(crate::gates::Gate::DRAPartitionableDevices),
            counter_slices: gates.version >= crate::gates::Version::V1_35,
            counters_by_selection: gates.version >= crate::gates::Version::V1_37
                && crate::allocate::Variant::for_gates(gates) != crate::allocate::Variant::Stable,
        }
    }
}

/// Whether GatherPools collects the slice for the node, in its order: a
/// scheduler without DRAPartitionableDevices skips slices that set
/// `perDeviceNodeSelection` (from 1.35 also shared counters); in 1.35, 1.36
/// and 1.37's stable implementation slices with shared counters are for
/// every node (1.37's others select them as any slice); then the slice's own
/// node selection, or each device's until one selects the node. A
/// selector that does not parse is the error GatherPools stops at (a
/// device's only when it is reached).
pub(super) fn relevant(
    s: &dra::Slice<'_>,
    node: &str,
    labels: Option<&Node>,
    rules: SliceRules,
) -> Result<bool, String> {
    let counters = rules.counter_slices && !s.shared_counters.is_empty();
    if !rules.partitionable && (s.per_device_node_selection.is_some() || counters) {
        return Ok(false);
    }
    if counters && !rules.counters_by_selection {
        return Ok(true);
    }
    if let Some(m) = selects(s.selection, node, labels) {
        if let Some(e) = parse_error(s.selection) {
            return Err(format!(
                "failed to perform node selection for slice {}: {e}",
                s.name
            ));
        }
        return Ok(m);
    }
    if s.per_device() {
        for d in s.devices() {
            if let Some(e) = parse_error(d.selection) {
                return Err(format!(
                    "failed to perform node selection for device {} in slice {}: {e}",
                    d.name, s.name
                ));
            }
            if selects(d.selection, node, labels) == Some(true) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// [`relevant`] with an unparsable selector taken as not matching.
pub(super) fn targets(
    s: &dra::Slice<'_>,
    node: &str,
    labels: Option<&Node>,
    rules: SliceRules,
) -> bool {
    relevant(s, node, labels, rules) == Ok(true)
}
