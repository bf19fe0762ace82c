//! How many more copies of a claim fit, per node: copies are allocated one
//! after another on the node, as the scheduler would place them, each
//! holding its devices, counters and capacity for the next, until one does
//! not fit; what stops it is said in `explain`'s words.
//!
//! Each node is counted on its own inventory: its node-local slices, the
//! slices of pools shared between nodes, the classes and taint rules, and
//! the claims allocated from those pools. The count is the greedy one (the
//! scheduler's first-fit order), bounded by `max` per node.
//!
//! A pool shared between nodes (network-attached devices) is allocated
//! across nodes: when copies use one, the nodes are counted again one after
//! another, in the order given, each seeing the shared devices the copies
//! on the nodes before it took (the answer names such pools).

use serde::Serialize;

use crate::allocate::{Allocator, Limits, Outcome, DEFAULT_BUDGET};
use crate::gates::FeatureGates;
use crate::model::{Object, ObjectKind};
use crate::tree::Node;
use crate::verdict::CauseKind;

/// What stops the next copy on a node.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum Stop {
    /// The next copy does not fit: the cause, as `explain` words it.
    Unsatisfiable { kind: CauseKind, reason: String },
    /// The allocator stops the attempt (a selector error, the budget).
    Error { error: String },
    /// `max` copies fit; more may.
    Bound,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeCapacity {
    pub node: String,
    pub copies: usize,
    pub stop: Stop,
    /// Pools shared with other nodes whose devices the copies used.
    #[serde(rename = "sharedPools", skip_serializing_if = "Vec::is_empty")]
    pub shared_pools: Vec<String>,
    /// The most that fit together, packed otherwise than first fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<crate::capacity_max::Maximum>,
    /// Counted as this node, whose devices and claims have the same shape
    /// (`stop` and `maximum` are that node's, in its names).
    #[serde(rename = "countedAs", skip_serializing_if = "Option::is_none")]
    pub counted_as: Option<String>,
    /// At most this many copies can fit together: the devices that pass
    /// the request's selectors, untainted and not held by other claims,
    /// over the devices a copy needs (one request in ExactCount mode).
    #[serde(skip)]
    pub upper: Option<usize>,
}

/// Whether a slice is bound to one node by `nodeName` (else its pool may
/// serve several nodes).
fn node_of(o: &Object) -> Option<&str> {
    o.spec()
        .and_then(|s| s.get("nodeName"))
        .and_then(Node::as_str)
        .filter(|n| !n.is_empty())
}

/// The objects each node's count reads, indexed once (a fleet has
/// thousands of nodes; a scan of every object per node was quadratic).
struct Index<'a> {
    /// Classes and taint rules: every node reads them.
    common: Vec<&'a Object>,
    /// Slices not bound to one node (their pools may serve several).
    shared: Vec<&'a Object>,
    by_node: std::collections::HashMap<&'a str, Vec<&'a Object>>,
    nodes: std::collections::HashMap<&'a str, &'a Object>,
    /// Allocated claims, by the pools they hold devices of.
    claims_by_pool: std::collections::HashMap<(&'a str, &'a str), Vec<&'a Object>>,
}

fn pool_of(o: &Object) -> Option<(&str, &str)> {
    let spec = o.spec()?;
    Some((
        spec.get("driver")?.as_str()?,
        spec.get("pool")?.get("name")?.as_str()?,
    ))
}

impl<'a> Index<'a> {
    fn new(objects: &'a [Object]) -> Self {
        let mut index = Index {
            common: Vec::new(),
            shared: Vec::new(),
            by_node: Default::default(),
            nodes: Default::default(),
            claims_by_pool: Default::default(),
        };
        for o in objects {
            match o.kind {
                ObjectKind::DeviceClass | ObjectKind::DeviceTaintRule => index.common.push(o),
                ObjectKind::ResourceSlice => match node_of(o) {
                    Some(n) => index.by_node.entry(n).or_default().push(o),
                    None => index.shared.push(o),
                },
                ObjectKind::Node => {
                    if let Some(n) = o.name() {
                        index.nodes.insert(n, o);
                    }
                }
                ObjectKind::ResourceClaim => {
                    let claim = crate::dra::Claim::decode(o);
                    let pools: std::collections::BTreeSet<(&'a str, &'a str)> = claim
                        .allocation
                        .iter()
                        .flat_map(|a| a.results.iter())
                        .filter_map(|r| Some((r.driver?, r.pool?)))
                        .collect();
                    for p in pools {
                        index.claims_by_pool.entry(p).or_default().push(o);
                    }
                }
                _ => {}
            }
        }
        index
    }

    /// The allocated claims holding devices of these slices' pools.
    fn claims_of(&self, slices: &[&'a Object]) -> Vec<&'a Object> {
        let mut claims: Vec<&Object> = slices
            .iter()
            .filter_map(|o| pool_of(o))
            .flat_map(|p| self.claims_by_pool.get(&p).into_iter().flatten().copied())
            .collect();
        claims.sort_by_key(|o| *o as *const Object);
        claims.dedup_by_key(|o| *o as *const Object);
        claims
    }

    /// The objects one node's count reads.
    fn node_refs(&self, node: &str) -> Vec<&'a Object> {
        let slices: Vec<&Object> = self
            .by_node
            .get(node)
            .into_iter()
            .flatten()
            .chain(&self.shared)
            .copied()
            .collect();
        let claims = self.claims_of(&slices);
        self.common
            .iter()
            .copied()
            .chain(self.nodes.get(node).copied())
            .chain(slices)
            .chain(claims)
            .collect()
    }
}

/// How many more copies of the claim `spec` (in `namespace`) fit on each
/// of `nodes`, at most `max` each.
pub fn capacity(
    objects: &[Object],
    gates: &FeatureGates,
    spec: &Node,
    namespace: &str,
    nodes: &[String],
    max: usize,
) -> Vec<NodeCapacity> {
    use rayon::prelude::*;
    let index = Index::new(objects);
    let count = |node: &String, carried: &[Object], steps: u64| {
        let mut inventory: Vec<Object> = index.node_refs(node).into_iter().cloned().collect();
        inventory.extend(carried.iter().cloned());
        let (mut c, held) = node_capacity(inventory.clone(), gates, spec, namespace, node, max);
        c.maximum = Some(crate::capacity_max::maximum(
            &inventory, gates, spec, namespace, node, c.copies, c.upper, max, steps,
        ));
        (c, held)
    };
    // Nodes alike are counted once: the first of each shape stands for
    // the others (no shared pools: those are counted node after node).
    let reads = index
        .shared
        .is_empty()
        .then(|| crate::capacity_shape::Reads::of(spec, objects))
        .flatten();
    let shapes: Vec<Option<String>> = nodes
        .par_iter()
        .map(|n| {
            let r = reads.as_ref()?;
            let slices: Vec<&Object> = index.by_node.get(n.as_str()).cloned().unwrap_or_default();
            let claims = index.claims_of(&slices);
            r.signature(n, &slices, &claims)
        })
        .collect();
    let mut first_of: std::collections::HashMap<&str, usize> = Default::default();
    let stands_for: Vec<Option<usize>> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let s = s.as_deref()?;
            let first = *first_of.entry(s).or_insert(i);
            (first != i).then_some(first)
        })
        .collect();
    // The run's search budget is shared by the nodes actually searched.
    let steps =
        crate::capacity_max::steps_per_node(stands_for.iter().filter(|l| l.is_none()).count());
    let counted: Vec<Option<(NodeCapacity, Vec<Object>)>> = nodes
        .par_iter()
        .zip(&stands_for)
        .map(|(n, like)| like.is_none().then(|| count(n, &[], steps)))
        .collect();
    let alone: Vec<(NodeCapacity, Vec<Object>)> = nodes
        .iter()
        .zip(&stands_for)
        .enumerate()
        .map(|(i, (n, like))| match like {
            None => counted[i].clone().expect("counted"),
            Some(first) => {
                let (c, _) = counted[*first].as_ref().expect("counted");
                let mut c = c.clone();
                c.counted_as = Some(c.node.clone());
                c.node = n.clone();
                (c, Vec::new())
            }
        })
        .collect();
    if alone.iter().all(|(c, _)| c.shared_pools.is_empty()) {
        return alone.into_iter().map(|(c, _)| c).collect();
    }
    // Shared pools: node after node, each seeing what the copies before it
    // took from those pools (their copies of node-local devices do not
    // matter elsewhere and are left out).
    let mut carried: Vec<Object> = Vec::new();
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        let (c, held) = count(
            node,
            &carried,
            crate::capacity_max::steps_per_node(nodes.len()),
        );
        if !c.shared_pools.is_empty() {
            carried.extend(held.into_iter().filter(|h| uses_any(h, &c.shared_pools)));
        }
        out.push(c);
    }
    out
}

/// Whether an allocated copy holds a device of one of `pools` ("driver/pool").
fn uses_any(claim: &Object, pools: &[String]) -> bool {
    crate::dra::Claim::decode(claim)
        .allocation
        .is_some_and(|a| {
            a.results.iter().any(|r| {
                let pool = format!("{}/{}", r.driver.unwrap_or(""), r.pool.unwrap_or(""));
                pools.contains(&pool)
            })
        })
}

/// The greedy count on one node, and the copies it allocated (as claims).
fn node_capacity(
    mut inventory: Vec<Object>,
    gates: &FeatureGates,
    spec: &Node,
    namespace: &str,
    node: &str,
    max: usize,
) -> (NodeCapacity, Vec<Object>) {
    let before = inventory.len();
    let shared: std::collections::HashSet<String> = inventory
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice && node_of(o).is_none())
        .filter_map(|o| {
            let s = o.spec()?;
            Some(format!(
                "{}/{}",
                s.get("driver")?.as_str()?,
                s.get("pool")?.get("name")?.as_str()?
            ))
        })
        .collect();
    let mut used_shared = std::collections::BTreeSet::new();
    let mut copies = 0;
    let mut upper = None;
    let stop = loop {
        if copies == max {
            break Stop::Bound;
        }
        // Named per node: copies carried to other nodes keep their names.
        let name = format!("copy-{}-on-{node}", copies + 1);
        let Some(candidate) = crate::capacity_max::claim(spec, namespace, &name, None) else {
            break Stop::Error {
                error: "the claim's spec cannot be copied".into(),
            };
        };
        let outcome = Allocator::new(&inventory, gates, &[&candidate])
            .with_limits(Limits {
                steps: DEFAULT_BUDGET,
                timeout: None,
            })
            .on_nodes(&[node])
            .pop();
        match outcome {
            Some(Outcome::Allocated { claims }) => {
                let Some(c) = claims.into_iter().find(|c| c.name == name) else {
                    break Stop::Error {
                        error: "the copy was not allocated".into(),
                    };
                };
                for r in &c.results {
                    let pool = format!("{}/{}", r.driver, r.pool);
                    if shared.contains(&pool) {
                        used_shared.insert(pool);
                    }
                }
                let mut allocation = serde_json::json!({
                    "devices": {"results": c.results},
                });
                if let Some(sel) = &c.node_selector {
                    allocation["nodeSelector"] = sel.to_json();
                }
                let status = serde_json::from_value(serde_json::json!({
                    "allocation": allocation,
                    "reservedFor": [{"resource": "pods", "name": name, "uid": name}],
                }))
                .ok();
                match crate::capacity_max::claim(spec, namespace, &name, status) {
                    Some(held) => inventory.push(held),
                    None => {
                        break Stop::Error {
                            error: "the allocation cannot be recorded".into(),
                        }
                    }
                }
                copies += 1;
            }
            Some(Outcome::Unsatisfiable {
                reasons,
                funnels,
                constraints,
            }) => {
                if let [f] = funnels.as_slice() {
                    if !f.all && f.needed > 0 {
                        upper = Some((f.free + copies * f.needed) / f.needed);
                    }
                }
                let b = crate::verdict::blocking(&reasons, &funnels, &constraints);
                break Stop::Unsatisfiable {
                    kind: b.kind,
                    reason: b.text,
                };
            }
            Some(Outcome::Error { error, .. }) => break Stop::Error { error },
            Some(Outcome::Undecided { reason }) => break Stop::Error { error: reason },
            None => {
                break Stop::Error {
                    error: "no outcome".into(),
                }
            }
        }
    };
    let held = inventory.split_off(before);
    (
        NodeCapacity {
            node: node.to_owned(),
            copies,
            stop,
            shared_pools: used_shared.into_iter().collect(),
            maximum: None,
            counted_as: None,
            upper,
        },
        held,
    )
}
