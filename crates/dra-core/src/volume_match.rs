//! `FindMatchingVolume` on kube-scheduler's path (component-helpers
//! `storage/volume/pv_helpers.go`), cut in two: the checks that do not
//! depend on the node run once per claim, and the PV's node affinity per
//! node, looked up by the node's labels where the affinity is one `In`
//! requirement (a local PV's `kubernetes.io/hostname In [node]`). A fleet
//! has a local PV or eight per node: checking each against each node was
//! quadratic (5,000 nodes, 40,000 PVs: 70 s).

use std::collections::HashMap;

use crate::model::Object;
use crate::quantity::Quantity;
use crate::tree::Node;

use crate::volume_fields::{
    affinity_admits, meta, mode, modes, requested, spec_str, storage_quantity,
};

/// A PV the claim could bind on some node.
struct Viable<'a> {
    pv: &'a Object,
    name: &'a str,
    size: Quantity,
    /// Pre-bound to the claim (`IsVolumeBoundToClaim`).
    bound: bool,
    /// Its affinity is one `In` requirement, indexed by label.
    indexed: bool,
}

/// A delayed (WaitForFirstConsumer) claim and the PVs it could bind.
pub struct ClaimVolumes<'a> {
    pub pvc: &'a Object,
    /// Its storage request (findMatchingVolumes sorts by it).
    pub size: Quantity,
    viable: Vec<Viable<'a>>,
    /// (label, value) -> the viable PVs whose affinity that label admits.
    by_label: HashMap<(&'a str, &'a str), Vec<usize>>,
    /// The viable PVs whose affinity is evaluated on each node.
    evaluated: Vec<usize>,
}

/// A required node affinity of one term with one `In` requirement: its
/// key and values.
fn single_in(pv: &Object) -> Option<(&str, Vec<&str>)> {
    let required = pv.root.get("spec")?.get("nodeAffinity")?.get("required")?;
    let [term] = required.get("nodeSelectorTerms")?.as_seq()? else {
        return None;
    };
    if term
        .get("matchFields")
        .and_then(Node::as_seq)
        .is_some_and(|f| !f.is_empty())
    {
        return None;
    }
    let [req] = term.get("matchExpressions")?.as_seq()? else {
        return None;
    };
    if req.get("operator").and_then(Node::as_str) != Some("In") {
        return None;
    }
    let values: Vec<&str> = req
        .get("values")?
        .as_seq()?
        .iter()
        .map(Node::as_str)
        .collect::<Option<_>>()?;
    (!values.is_empty()).then_some((req.get("key")?.as_str()?, values))
}

impl<'a> ClaimVolumes<'a> {
    /// The checks of `FindMatchingVolume` that do not read the node, in its
    /// order, on `pvs` (the claim's class's, `ListPVs`).
    pub fn of(pvc: &'a Object, pvs: &[&'a Object]) -> ClaimVolumes<'a> {
        let want = requested(pvc);
        let ns = pvc.namespace_or_default();
        let name = pvc.name().unwrap_or_default();
        let uid = meta(pvc, "uid").and_then(Node::as_str).unwrap_or("");
        let selector = pvc
            .root
            .get("spec")
            .and_then(|s| s.get("selector"))
            .filter(|s| !s.is_null());
        let wanted_modes = modes(pvc);
        let mut out = ClaimVolumes {
            pvc,
            size: want,
            viable: Vec::new(),
            by_label: HashMap::new(),
            evaluated: Vec::new(),
        };
        for &pv in pvs {
            let claim_ref = pv
                .root
                .get("spec")
                .and_then(|s| s.get("claimRef"))
                .filter(|c| !c.is_null());
            let bound = claim_ref.is_some_and(|c| {
                let field = |k| c.get(k).and_then(Node::as_str).unwrap_or("");
                field("name") == name
                    && field("namespace") == ns
                    && (field("uid").is_empty() || field("uid") == uid)
            });
            if claim_ref.is_some() && !bound {
                continue;
            }
            let size = storage_quantity(pv.root.get("spec").and_then(|s| s.get("capacity")));
            if size < want || mode(pv) != mode(pvc) {
                continue;
            }
            if meta(pv, "deletionTimestamp").is_some_and(|d| !d.is_null()) {
                continue;
            }
            if !bound {
                let phase = pv
                    .root
                    .get("status")
                    .and_then(|s| s.get("phase"))
                    .and_then(Node::as_str);
                if phase != Some("Available") {
                    continue;
                }
                if let Some(sel) = selector {
                    if crate::label_selector::matches(sel, meta(pv, "labels")) != Some(true) {
                        continue;
                    }
                }
                let offered = modes(pv);
                if !wanted_modes.iter().all(|m| offered.contains(m)) {
                    continue;
                }
                // VolumeAttributesClass (GA in 1.34): the same class, or none.
                if spec_str(pv, "volumeAttributesClassName")
                    != spec_str(pvc, "volumeAttributesClassName")
                {
                    continue;
                }
            }
            let i = out.viable.len();
            let single = (!bound).then(|| single_in(pv)).flatten();
            match &single {
                Some((key, values)) => {
                    for v in values {
                        out.by_label.entry((key, v)).or_default().push(i);
                    }
                }
                None => out.evaluated.push(i),
            }
            out.viable.push(Viable {
                pv,
                name: pv.name().unwrap_or_default(),
                size,
                bound,
                indexed: single.is_some(),
            });
        }
        out
    }

    /// The PV `FindMatchingVolume` picks on a node with `labels`, none of
    /// `chosen`: one pre-bound to the claim met first decides (if its
    /// affinity admits the node), else the smallest.
    pub fn matching(&self, labels: Option<&Node>, chosen: &[&str]) -> Option<&'a str> {
        let mut at = self.evaluated.clone();
        for e in labels.and_then(Node::as_map).unwrap_or_default() {
            if let Some(list) = e
                .value
                .as_str()
                .and_then(|v| self.by_label.get(&(e.key.as_str(), v)))
            {
                at.extend(list);
            }
        }
        at.sort_unstable();
        at.dedup();
        let mut best: Option<&Viable<'a>> = None;
        for v in at.into_iter().map(|i| &self.viable[i]) {
            if chosen.contains(&v.name) {
                continue;
            }
            if v.bound {
                return affinity_admits(v.pv, labels).then_some(v.name);
            }
            if !v.indexed && !affinity_admits(v.pv, labels) {
                continue;
            }
            if best.is_none_or(|b| b.size > v.size) {
                best = Some(v);
            }
        }
        best.map(|v| v.name)
    }
}
