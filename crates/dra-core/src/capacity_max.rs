//! The most copies of a claim that fit on a node together, beside the
//! greedy count (`capacity`): copies placed one after another take the
//! first devices that fit, and with partitionable devices (counters, MIG
//! profiles) or several requests an earlier copy's choice can leave fewer
//! for the next than another packing would. Here `k` copies are allocated
//! at once, as one claim (requests renamed per copy, constraints kept per
//! copy), by the allocator's complete search within its budget, for `k`
//! above the greedy count until one does not fit.

use serde::Serialize;
use serde_json::Value;

use crate::allocate::{Allocator, Limits, Outcome};
use crate::gates::FeatureGates;
use crate::model::{object_from_node, Object, ObjectKind};
use crate::tree::Node;

/// The per-node maximum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Maximum {
    pub copies: usize,
    /// False when the search budget ran out (or the bound was reached):
    /// `copies` is then a lower bound.
    pub exact: bool,
}

/// Whether another packing can fit more than the first fit: devices that
/// draw shared counters or capacity, or a claim whose requests compete
/// (several requests, alternatives, constraints). One request over plain
/// devices takes any `count` of them, so the first fit is the most.
fn packing_matters(inventory: &[Object], devices: &Value) -> bool {
    let requests = devices["requests"].as_array().map_or(0, Vec::len);
    let alternatives = devices["requests"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|r| !r["firstAvailable"].is_null());
    let constrained = devices["constraints"]
        .as_array()
        .is_some_and(|c| !c.is_empty());
    let drawing = inventory
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .filter_map(|o| o.spec()?.get("devices")?.as_seq())
        .flatten()
        .any(|d| {
            d.get("consumesCounters").is_some() || d.get("allowMultipleAllocations").is_some()
        });
    requests > 1 || alternatives || constrained || drawing
}

/// Steps of the allocator's search for one number of copies together, for
/// the whole run: each node's share, between the bounds below; past its
/// share a node's maximum is a lower bound, and says so.
const RUN_STEPS: u64 = 50_000_000;
const NODE_STEPS: (u64, u64) = (20_000, crate::allocate::DEFAULT_BUDGET);

/// The steps one node's search may take when `nodes` are counted.
pub fn steps_per_node(nodes: usize) -> u64 {
    (RUN_STEPS / nodes.max(1) as u64).clamp(NODE_STEPS.0, NODE_STEPS.1)
}

/// The most copies of `spec` that fit on `node` together, at most `max`,
/// given that `greedy` fit one after another and that at most `upper` can
/// (the devices that pass the selectors over those a copy needs).
#[allow(clippy::too_many_arguments)]
pub fn maximum(
    inventory: &[Object],
    gates: &FeatureGates,
    spec: &Node,
    namespace: &str,
    node: &str,
    greedy: usize,
    upper: Option<usize>,
    max: usize,
    steps: u64,
) -> Maximum {
    let devices = spec
        .get("devices")
        .map(Node::to_json)
        .unwrap_or(Value::Null);
    // None fit alone, or the bound stopped the count: nothing to search.
    let sharing = inventory
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .filter_map(|o| o.spec()?.get("devices")?.as_seq())
        .flatten()
        .any(|d| d.get("allowMultipleAllocations").is_some());
    // Without devices several copies share, no packing fits more copies than
    // there are devices for them: that ceiling is proven, `max` is not.
    let ceiling = match upper {
        Some(u) if !sharing => u.min(max),
        _ => max,
    };
    let answer = |copies: usize, exact: bool| Maximum { copies, exact };
    if greedy == 0 {
        return answer(0, true);
    }
    if greedy >= max {
        return answer(greedy, false);
    }
    if greedy >= ceiling || !packing_matters(inventory, &devices) {
        return answer(greedy, true);
    }
    let mut best = greedy;
    for k in greedy + 1..=ceiling {
        let parts: Vec<(String, Value)> = (0..k)
            .map(|i| (format!("copy{i}"), devices.clone()))
            .collect();
        let Ok(merged) = crate::pod_claims::merge(&parts) else {
            return Maximum {
                copies: best,
                exact: false,
            };
        };
        let Some(claim) = claim(&merged, namespace, "capacity-together", None) else {
            return Maximum {
                copies: best,
                exact: false,
            };
        };
        let outcome = Allocator::new(inventory, gates, &[&claim])
            .with_limits(Limits {
                steps,
                timeout: None,
            })
            .on_nodes(&[node])
            .pop();
        match outcome {
            Some(Outcome::Allocated { .. }) => best = k,
            Some(Outcome::Unsatisfiable { .. }) => {
                return Maximum {
                    copies: best,
                    exact: true,
                }
            }
            _ => {
                return Maximum {
                    copies: best,
                    exact: false,
                }
            }
        }
    }
    // Every number up to the ceiling fits: exact when the devices set it.
    answer(best, ceiling < max)
}

/// A ResourceClaim named `name` with `spec` (and `status`).
pub(crate) fn claim(
    spec: &Node,
    namespace: &str,
    name: &str,
    status: Option<Node>,
) -> Option<Object> {
    let mut root: Node = serde_json::from_value(serde_json::json!({
        "metadata": {"name": name, "namespace": namespace},
    }))
    .ok()?;
    root.insert_back("spec", spec.clone());
    if let Some(status) = status {
        root.insert_back("status", status);
    }
    object_from_node(usize::MAX, 0, root, "resource.k8s.io/v1", "ResourceClaim")
}
