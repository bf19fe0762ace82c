//! Many nodes at once: nodes alike get one search. Nodes that see the same
//! devices of pools not bound to a node share its answer as it is; nodes
//! whose own pools have the same shape ([`pools::Shapes`]) share it renamed
//! (their node and pool names put in), when the answer names nothing of
//! the first node's but what is renamed. Otherwise each node is searched.

use super::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// From this many nodes on, node-local pools are compared: that costs a
/// pass over the inventory's devices, once per [`Cluster`].
const COMPARE_LOCAL_FROM: usize = 32;

/// A node's names that a shared answer is renamed by.
struct Names<'n> {
    node: &'n str,
    pools: HashSet<(&'n str, &'n str)>,
}

impl<'a> Allocator<'a> {
    /// The outcome on each node, in the order given. Nodes are independent
    /// (each run builds its own view of its pools), so they are tried on
    /// all cores.
    pub fn on_nodes<N: AsRef<str> + Sync>(&self, nodes: &[N]) -> Vec<Outcome> {
        self.on_nodes_within(nodes, COMMAND_BUDGET)
    }

    /// [`on_nodes`](Self::on_nodes) with a search budget for all nodes
    /// together: the nodes left when it runs out are `Undecided`.
    pub fn on_nodes_within<N: AsRef<str> + Sync>(&self, nodes: &[N], budget: u64) -> Vec<Outcome> {
        use rayon::prelude::*;
        let index = &self.cluster.index;
        let local = nodes.len() >= COMPARE_LOCAL_FROM
            && nodes
                .iter()
                .filter(|n| index.has_own_pools(n.as_ref()))
                .nth(1)
                .is_some();
        let shapes = local.then(|| self.cluster.shapes());
        let uses = self.attribute_use();
        let resolved = shapes.map(|s| s.resolve(&uses));
        let keys: Vec<Option<Vec<u32>>> = nodes
            .par_iter()
            .map(|n| self.node_key(n.as_ref(), shapes.zip(resolved.as_ref())))
            .collect();
        let mut first: HashMap<&[u32], usize> = HashMap::new();
        let mut searched_by: Vec<usize> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| match k {
                Some(k) => *first.entry(k.as_slice()).or_insert(i),
                None => i,
            })
            .collect();
        let spent = AtomicU64::new(0);
        let search = |n: &str| -> Outcome {
            if spent.load(Ordering::Relaxed) >= budget {
                return Outcome::Undecided {
                    reason: format!(
                        "not tried: the search budget of {budget} steps for all nodes ran out"
                    ),
                };
            }
            self.searches.fetch_add(1, Ordering::Relaxed);
            let before = THREAD_STEPS.with(std::cell::Cell::get);
            let o = self.on_node(n);
            let used = THREAD_STEPS.with(std::cell::Cell::get) - before;
            spent.fetch_add(used, Ordering::Relaxed);
            o
        };
        let mut outcomes: Vec<Option<Outcome>> = nodes
            .par_iter()
            .enumerate()
            .map(|(i, n)| (searched_by[i] == i).then(|| search(n.as_ref())))
            .collect();
        // A node-local answer that names the first node's pools, slices or
        // values anywhere but where they are renamed is not shared: the
        // nodes of its class are searched each.
        if let Some(shapes) = shapes {
            let own = |i: usize| shapes.has(nodes[i].as_ref());
            // Only classes of two or more nodes share anything.
            let mut shared_by: HashSet<usize> = HashSet::new();
            for (i, &by) in searched_by.iter().enumerate() {
                if by != i {
                    shared_by.insert(by);
                }
            }
            let unshared: HashSet<usize> = shared_by
                .iter()
                .copied()
                .filter(|&i| own(i))
                .filter(|&i| {
                    let node = nodes[i].as_ref();
                    let private = shapes.private_text(index, node, &uses.compared);
                    let names = Names {
                        node,
                        pools: shapes.pool_keys(node).iter().copied().collect(),
                    };
                    !outcomes[i]
                        .as_ref()
                        .is_some_and(|o| renamable(o, &names, &private))
                })
                .collect();
            if !unshared.is_empty() {
                for (i, by) in searched_by.iter_mut().enumerate() {
                    if unshared.contains(by) && *by != i {
                        *by = i;
                    }
                }
                let more: Vec<(usize, Outcome)> = (0..nodes.len())
                    .into_par_iter()
                    .filter(|&i| searched_by[i] == i && outcomes[i].is_none())
                    .map(|i| (i, search(nodes[i].as_ref())))
                    .collect();
                for (i, o) in more {
                    outcomes[i] = Some(o);
                }
            }
        }
        // What renaming a class's answer needs, once per class: which
        // claims have the node-local node selector, and which of the first
        // node's pools each result is from.
        let with_members: HashSet<usize> = searched_by
            .iter()
            .enumerate()
            .filter(|(i, by)| *i != **by)
            .map(|(_, by)| *by)
            .collect();
        let plans: HashMap<usize, Renaming> = match shapes {
            Some(s) => with_members
                .iter()
                .copied()
                .filter(|&i| s.has(nodes[i].as_ref()))
                .map(|i| {
                    let node = nodes[i].as_ref();
                    let pools: HashMap<(&str, &str), usize> = s
                        .pool_keys(node)
                        .iter()
                        .enumerate()
                        .map(|(at, k)| (*k, at))
                        .collect();
                    let plan = match outcomes[i].as_ref() {
                        Some(Outcome::Allocated { claims }) => claims
                            .iter()
                            .map(|c| {
                                let at = c
                                    .results
                                    .iter()
                                    .map(|r| {
                                        pools.get(&(r.driver.as_str(), r.pool.as_str())).copied()
                                    })
                                    .collect();
                                (local_to(c, node), at)
                            })
                            .collect(),
                        _ => Vec::new(),
                    };
                    (i, plan)
                })
                .collect(),
            None => HashMap::new(),
        };
        (0..nodes.len())
            .into_par_iter()
            .map(|i| {
                let by = searched_by[i];
                let o = outcomes[by].as_ref().expect("searched above");
                match (shapes, plans.get(&by)) {
                    (Some(s), Some(plan)) if by != i => {
                        renamed(o, plan, s.pool_keys(nodes[i].as_ref()), nodes[i].as_ref())
                    }
                    _ => o.clone(),
                }
            })
            .collect()
    }

    /// How many searches [`on_nodes`](Self::on_nodes) has run so far.
    pub fn searches(&self) -> usize {
        self.searches.load(Ordering::Relaxed)
    }

    /// Which attribute values the claims' selectors, derived attributes and
    /// constraints read.
    fn attribute_use(&self) -> pools::AttributeUse {
        let mut uses = pools::AttributeUse::default();
        for p in self.plans.as_deref().unwrap_or_default() {
            for slot in &p.slots {
                let reqs = match slot {
                    Slot::Exact(r) => std::slice::from_ref(r),
                    Slot::First(rs) => rs.as_slice(),
                };
                for r in reqs {
                    // A derived attribute's value is computed from what its
                    // expression reads: those values count as read.
                    let derived = r.derived.iter().map(|d| &d.program);
                    let programs = r.class_programs.iter().chain(r.programs.iter());
                    for program in programs.chain(derived) {
                        let Ok(program) = program else { continue };
                        match program.attribute_reads() {
                            Some(names) => uses.read.extend(names),
                            None => uses.all = true,
                        }
                    }
                }
            }
            uses.compared
                .extend(p.constraints.iter().map(|c| c.attribute.clone()));
        }
        uses
    }

    /// The node's key: nodes with equal keys get the same search. `None`:
    /// a node of its own.
    fn node_key(
        &self,
        node: &str,
        shapes: Option<(&pools::Shapes<'a>, &pools::ResolvedUse)>,
    ) -> Option<Vec<u32>> {
        let labels = self.cluster.shared.labels.get(node).copied();
        let rules = pools::SliceRules::of(self.gates);
        let index = &self.cluster.index;
        let own = index.has_own_pools(node);
        let bits = index.elsewhere_bits(node, labels, rules)?;
        let alone = !bits.contains(&true);
        let mut key: Vec<u32> = Vec::with_capacity(bits.len() + 16);
        key.push(u32::from(own));
        key.extend(bits.iter().map(|&b| u32::from(b)));
        key.extend(self.selector_bits(node, labels).into_iter().map(u32::from));
        if own {
            let (shapes, uses) = shapes?;
            key.push(u32::MAX);
            if !shapes.key(node, uses, alone, &mut key) {
                return None;
            }
        }
        Some(key)
    }

    /// For each claim allocated before, whether its allocation's node
    /// selector admits the node.
    fn selector_bits(&self, node: &str, labels: Option<&Node>) -> Vec<bool> {
        self.plans
            .as_deref()
            .unwrap_or_default()
            .iter()
            .filter_map(|p| {
                let sel = p.claim.allocation.as_ref()?.node_selector?;
                Some(pools::node_selector_matches(sel, node, labels))
            })
            .collect()
    }

    /// Which nodes are alike for these claims when none has pools of its
    /// own: the same devices ([`pools::PoolIndex::node_class`]) and the
    /// same answer from the node selector of each claim allocated before.
    /// `None`: a node of its own.
    #[cfg(test)]
    pub(super) fn node_class(&self, node: &str) -> Option<Vec<bool>> {
        let labels = self.cluster.shared.labels.get(node).copied();
        let rules = pools::SliceRules::of(self.gates);
        let mut bits = self.cluster.index.node_class(node, labels, rules)?;
        bits.extend(self.selector_bits(node, labels));
        Some(bits)
    }
}

/// Whether the claim's node selector is the node-local one of `node`.
fn local_to(c: &ClaimAllocation, node: &str) -> bool {
    matches!(&c.node_selector, Some(AllocationNodeSelector::Node(n)) if n == node)
}

/// Whether every place the outcome names the node's private text (its
/// name, pools, slices, compared values) is one [`renamed`] rewrites: a
/// result's own pool, or the node-local node selector. Counted in the
/// outcome's debug text, which shows every field and prints these names
/// as they are (`pools::shapes::plain_name`).
fn renamable(o: &Outcome, names: &Names<'_>, private: &[&str]) -> bool {
    // Every occurrence of every private name, in one pass over the text
    // (a node can have thousands of compared values).
    let Ok(names_found) = aho_corasick::AhoCorasick::new(private) else {
        return false;
    };
    let count = |s: &str| -> usize { names_found.find_overlapping_iter(s).count() };
    let total = count(&format!("{o:?}"));
    if total == 0 {
        return true;
    }
    let Outcome::Allocated { claims } = o else {
        return false;
    };
    let mut renamed = 0;
    for c in claims {
        for r in &c.results {
            if names.pools.contains(&(r.driver.as_str(), r.pool.as_str())) {
                renamed += count(&r.pool);
            }
        }
        if local_to(c, names.node) {
            renamed += count(names.node);
        }
    }
    renamed == total
}

/// Per claim of a class's answer: whether its node selector is the first
/// node's own, and for each result the place of its pool among the first
/// node's pools (`None`: a pool not bound to a node).
type Renaming = Vec<(bool, Vec<Option<usize>>)>;

/// The first node's outcome as `node` gets it: each result from the first
/// node's own pools comes from the same place in `node`'s (`to`), and the
/// claims with the first node's node selector get `node`'s.
fn renamed(o: &Outcome, plan: &Renaming, to: &[(&str, &str)], node: &str) -> Outcome {
    let Outcome::Allocated { claims } = o else {
        return o.clone();
    };
    let claims = claims
        .iter()
        .zip(plan)
        .map(|(c, (local, at))| ClaimAllocation {
            namespace: c.namespace.clone(),
            name: c.name.clone(),
            results: c
                .results
                .iter()
                .zip(at)
                .map(|(r, at)| {
                    let mut r = r.clone();
                    // Nodes of a class have as many pools, in the same order.
                    if let Some((_, pool)) = at.and_then(|at| to.get(at)) {
                        r.pool = (*pool).into();
                    }
                    r
                })
                .collect(),
            node_selector: match local {
                true => Some(AllocationNodeSelector::Node(node.into())),
                false => c.node_selector.clone(),
            },
            config: c.config.clone(),
            existing: c.existing,
            reserved_for: c.reserved_for.clone(),
        })
        .collect();
    Outcome::Allocated { claims }
}

#[cfg(test)]
#[path = "alike_tests.rs"]
mod tests;
