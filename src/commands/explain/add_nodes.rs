//! `explain pods --add-nodes auto --like NODE`: the fewest copies of a node
//! that make the pending pods fit, placed one after another in the
//! scheduler's queue order (each holding its devices for the next), as
//! `--in-order` places them.
//!
//! A pod runs on one node, so as many copies as there are pending pods is
//! a bound: pods that do not fit with that many never fit on nodes like
//! this one. Between none and the bound, a binary search finds the fewest
//! copies that fit as many pods as the bound does (more nodes never fit
//! fewer pods: each copy only adds devices).

use serde_json::{json, Value};

use crate::cli::{AddNodes, ExplainPodsArgs};
use crate::commands::source::Inventory;

/// What the search found.
pub struct Found {
    pub like: String,
    /// The fewest copies (0: copies do not help).
    pub nodes: usize,
    pub pending: usize,
    /// Pods that fit as the cluster is, and with `nodes` copies.
    pub fit_before: usize,
    pub fit_after: usize,
    /// The copies tried, each with the pods that fit.
    pub tried: Vec<(usize, usize)>,
}

impl Found {
    pub fn json(&self) -> Value {
        json!({
            "like": self.like, "nodes": self.nodes, "pending": self.pending,
            "fitBefore": self.fit_before, "fitAfter": self.fit_after,
            "tried": self.tried.iter().map(|(n, fit)| json!({"nodes": n, "fit": fit})).collect::<Vec<_>>(),
        })
    }

    pub fn text(&self) -> String {
        let like = crate::render::terminal::strict(&self.like);
        let tried = self
            .tried
            .iter()
            .map(|(n, f)| format!("{n}: {f}"))
            .collect::<Vec<_>>()
            .join(", ");
        let head = if self.fit_after == self.fit_before {
            format!(
                "--add-nodes auto: no number of nodes like {like} makes more of the {} pending pods fit ({} fit as the cluster is).",
                self.pending, self.fit_before
            )
        } else if self.fit_after == self.pending {
            format!(
                "--add-nodes auto: {} more node(s) like {like} make all {} pending pods fit, in queue order ({} fit as the cluster is).",
                self.nodes, self.pending, self.fit_before
            )
        } else {
            format!(
                "--add-nodes auto: {} more node(s) like {like} make {} of the {} pending pods fit, in queue order ({} as the cluster is); the others fit on no node like it, however many.",
                self.nodes, self.fit_after, self.pending, self.fit_before
            )
        };
        format!("{head}\n  Pods that fit per number of nodes tried: {tried}.\n\n")
    }
}

/// Finds the fewest copies, and returns the arguments that answer with them
/// (in queue order).
pub fn search(
    args: &ExplainPodsArgs,
    inv: &Inventory,
    pending: &[(String, i64, String)],
) -> Result<(ExplainPodsArgs, Found), String> {
    let like = args
        .common
        .what_if
        .like
        .clone()
        .ok_or("--add-nodes needs --like NODE")?;
    let mut a = args.clone();
    a.in_order = true;
    let mut tried: Vec<(usize, usize)> = Vec::new();
    let mut fit_with = |n: usize| -> Result<usize, String> {
        if let Some(&(_, f)) = tried.iter().find(|(m, _)| *m == n) {
            return Ok(f);
        }
        let mut w = a.common.what_if.clone();
        w.add_nodes = (n > 0).then_some(AddNodes::Count(n));
        let mut copy = Inventory {
            gates: inv.gates.clone(),
            objects: inv.objects.clone(),
            namespace: inv.namespace.clone(),
            live: None,
        };
        crate::commands::source::what_if_quiet(&mut copy.objects, &w)?;
        let still: Vec<(String, i64, String)> = pending
            .iter()
            .filter(|(name, _, _)| super::pods::find_pod(&copy.objects, name).is_some())
            .cloned()
            .collect();
        let (groups, decided, _) = super::pods::evaluate(&a, &mut copy, &still, true)?;
        let fit = decided.iter().filter(|d| groups[d.group].fits).count();
        tried.push((n, fit));
        Ok(fit)
    };
    let bound = pending.len().clamp(1, crate::cli::MAX_ADD_NODES);
    let before = fit_with(0)?;
    let best = fit_with(bound)?;
    let mut nodes = 0;
    if best > before {
        let (mut lo, mut hi) = (1, bound);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if fit_with(mid)? >= best {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        nodes = lo;
    }
    let fit_after = fit_with(nodes)?;
    tried.sort();
    a.common.what_if.add_nodes = (nodes > 0).then_some(AddNodes::Count(nodes));
    if nodes == 0 {
        a.common.what_if.like = None;
    }
    let found = Found {
        like,
        nodes,
        pending: pending.len(),
        fit_before: before,
        fit_after,
        tried,
    };
    Ok((a, found))
}
