//! The allocation result as upstream's Allocate writes it: the config of
//! each request's class and claim, and the node selector merged from the
//! devices picked (`createNodeSelector`).

use super::*;

/// `allocation.devices.config`, as upstream's Allocate fills it: for each
/// request (the chosen subrequest of a firstAvailable one), its class's
/// configs once per class, later requests of that class added to their
/// `requests`; then each claim config with no `requests`, and each one that
/// names a request (by name, or by the chosen subrequest's full name).
/// Before 1.37 a claim config is added once per request it names; from
/// 1.37 (dynamic-resource-allocation c5a40b2, fe39ea7, a58be5a) once, and
/// any config that covers every request, by name or chosen subrequest, has
/// its `requests` cleared ("empty means all").
pub(super) fn allocation_config<'a>(
    plan: &ClaimPlan<'a>,
    results: &[DeviceResult],
    gates: &FeatureGates,
) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let chosen = |slot: &Slot<'_>| -> Option<String> {
        match slot {
            Slot::Exact(r) => Some(r.name.clone()),
            Slot::First(subs) => {
                let parent = subs.first()?.parent.clone();
                let prefix = format!("{parent}/");
                Some(
                    results
                        .iter()
                        .find(|r| r.request.starts_with(&prefix))
                        .map_or_else(|| subs[0].name.clone(), |r| r.request.to_string()),
                )
            }
        }
    };
    let class_of = |slot: &Slot<'a>, name: &str| -> Option<&'a Object> {
        match slot {
            Slot::Exact(r) => Some(r.class),
            Slot::First(subs) => subs.iter().find(|r| r.name == name).map(|r| r.class),
        }
    };
    let mut config: Vec<Value> = Vec::new();
    let mut ranges: HashMap<&str, std::ops::Range<usize>> = HashMap::new();
    for slot in &plan.slots {
        let Some(name) = chosen(slot) else { continue };
        let Some(class) = class_of(slot, &name) else {
            continue;
        };
        let class_name = class.name().unwrap_or_default();
        if let Some(range) = ranges.get(class_name) {
            for c in &mut config[range.clone()] {
                if let Some(list) = c["requests"].as_array_mut() {
                    list.push(json!(name));
                }
            }
            continue;
        }
        let start = config.len();
        for c in &dra::DeviceClass::decode(class).config {
            let mut entry = json!({"source": "FromClass", "requests": [name]});
            if let Some(opaque) = c.opaque {
                entry["opaque"] = opaque.to_json();
            }
            config.push(entry);
        }
        ranges.insert(class_name, start..config.len());
    }
    let claim = &plan.claim;
    let since_1_37 = gates.version >= crate::gates::Version::V1_37;
    // Whether a config's `requests` name a request, by its name or by its
    // chosen subrequest's full name.
    let names = |named: &[&str], request: &str, slot: &Slot<'_>| {
        named.contains(&request)
            || (matches!(slot, Slot::First(_))
                && chosen(slot).is_some_and(|sub| named.contains(&sub.as_str())))
    };
    for c in &claim.config {
        let named = &c.requests;
        let mut entry = json!({"source": "FromClaim"});
        if !named.is_empty() {
            entry["requests"] = json!(named);
        }
        if let Some(opaque) = c.opaque {
            entry["opaque"] = opaque.to_json();
        }
        if named.is_empty() {
            config.push(entry);
            continue;
        }
        let hits = claim
            .requests
            .iter()
            .zip(&plan.slots)
            .filter(|(r, slot)| names(named, r.name, slot))
            .count();
        let times = if since_1_37 { hits.min(1) } else { hits };
        config.extend(std::iter::repeat_n(entry, times));
    }
    if since_1_37 {
        for c in &mut config {
            let named: Vec<&str> = c["requests"]
                .as_array()
                .map(|l| l.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let all = !named.is_empty()
                && claim
                    .requests
                    .iter()
                    .zip(&plan.slots)
                    .all(|(r, slot)| names(&named, r.name, slot));
            if let (true, Some(o)) = (all, c.as_object_mut()) {
                o.remove("requests");
            }
        }
    }
    config
}

/// The allocation result's node selector, as upstream's `createNodeSelector`:
/// a device bound to a node by name restricts the allocation to that node;
/// otherwise the one-term selectors of the devices' slices (or of the devices,
/// with per-device node selection) are merged into one term, each
/// requirement once; devices available everywhere add nothing.
#[derive(Default)]
pub(super) struct ResultNodeSelector {
    local: bool,
    fields: Vec<serde_json::Value>,
    expressions: Vec<serde_json::Value>,
}

impl ResultNodeSelector {
    pub(super) fn add(&mut self, d: &PoolDevice<'_>) -> Result<(), Fatal> {
        if d.node_name.is_some() || d.binds_to_node {
            self.local = true;
        }
        if self.local {
            return Ok(());
        }
        let Some(selector) = d.node_selector.map(Node::to_json) else {
            return Ok(());
        };
        let terms = selector["nodeSelectorTerms"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        match terms.as_slice() {
            [] => {}
            [term] => {
                add_requirements(&term["matchFields"], &mut self.fields);
                add_requirements(&term["matchExpressions"], &mut self.expressions);
            }
            more => {
                return Err(Fatal(format!(
                    "unsupported ResourceSlice.NodeSelector with {} terms",
                    more.len()
                )))
            }
        }
        Ok(())
    }

    pub(super) fn finish(self, node: &str) -> Option<AllocationNodeSelector> {
        if self.local {
            return Some(AllocationNodeSelector::Node(node.into()));
        }
        if self.fields.is_empty() && self.expressions.is_empty() {
            return None;
        }
        let mut term = serde_json::Map::new();
        if !self.expressions.is_empty() {
            term.insert("matchExpressions".into(), self.expressions.into());
        }
        if !self.fields.is_empty() {
            term.insert("matchFields".into(), self.fields.into());
        }
        Some(AllocationNodeSelector::Terms(
            serde_json::json!({ "nodeSelectorTerms": [term] }),
        ))
    }
}

/// Upstream's `addNewNodeSelectorRequirements`: a requirement is added
/// unless one with the same key, operator and set of values is there.
pub(super) fn add_requirements(from: &serde_json::Value, to: &mut Vec<serde_json::Value>) {
    let values = |r: &serde_json::Value| -> std::collections::BTreeSet<String> {
        r["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    for r in from.as_array().into_iter().flatten() {
        let dup = to.iter().any(|e| {
            e["key"] == r["key"] && e["operator"] == r["operator"] && values(e) == values(r)
        });
        if !dup {
            to.push(r.clone());
        }
    }
}
