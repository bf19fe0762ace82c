//! The pod's PersistentVolumeClaims as kube-scheduler's VolumeRestrictions,
//! VolumeBinding and VolumeZone plugins see them, which run before
//! DynamicResources (after NodeResourcesFit). Read in kubernetes/kubernetes
//! `pkg/scheduler/framework/plugins/volumerestrictions` (`PreFilter`:
//! ReadWriteOncePod, `readWriteOncePodPVCsForPod`, `calPreFilterState`),
//! `pkg/scheduler/framework/plugins/volumebinding` (`podHasPVCs`,
//! `PreFilter`, `GetPodVolumeClaims`, `FindPodVolumes`, `checkBoundClaims`,
//! `findMatchingVolumes`, `checkVolumeProvisions`), `volumezone`
//! (`getPVbyPod`, `Filter`) and component-helpers `storage/volume`
//! (`FindMatchingVolume`, `CheckNodeAffinity`, `IsDelayBindingMode`),
//! alike from 1.34 to 1.37. Not modelled: VolumeRestrictions' inline disks
//! (GCE PD, EBS, RBD, iSCSI) and nominated pods' PVCs, CSI storage capacity
//! (`CSIStorageCapacity`, so "did not have enough free storage" is never
//! said), in-tree PVs translated to CSI, and the volume count limits.
//! Pure: the caller says whether the storage objects were read at all.

use std::collections::{HashMap, HashSet};

use crate::model::{Object, ObjectKind};
use crate::tree::Node;
use crate::volume_fields::{affinity_admits, annotation, class_of, meta, modes, spec_str};
use crate::volume_match::ClaimVolumes;

/// `ErrReasonNodeConflict`: a bound volume's node affinity.
pub const NODE_CONFLICT: &str = "node(s) had volume node affinity conflict";
/// `ErrReasonBindConflict`: no volume to bind, none to provision here.
pub const BIND_CONFLICT: &str = "node(s) didn't find available persistent volumes to bind";
/// `ErrReasonPVNotExist`.
pub const PV_NOT_EXIST: &str =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
/// VolumeRestrictions' `ErrReasonReadWriteOncePodConflict`.
pub const RWOP_CONFLICT: &str =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
/// VolumeZone's `ErrReasonConflict`.
pub const ZONE_CONFLICT: &str = "node(s) had no available volume zone";

const BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
const SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";
/// VolumeZone's labels, in its order, with the GA label each beta one
/// falls back to on the node.
const ZONE_LABELS: [(&str, &str); 4] = [
    (
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/zone",
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        "topology.kubernetes.io/region",
    ),
    ("topology.kubernetes.io/zone", "topology.kubernetes.io/zone"),
    (
        "topology.kubernetes.io/region",
        "topology.kubernetes.io/region",
    ),
];

/// Why VolumeBinding's or VolumeZone's PreFilter stops the pod
/// (UnschedulableAndUnresolvable): no node is tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VolumeStop {
    pub plugin: &'static str,
    /// The claim it is about (the PV's name for a missing PV).
    pub claim: String,
    /// The status message, as the plugin words it.
    pub message: String,
}

/// The cluster's PVCs, PVs and StorageClasses, by name.
pub struct Storage<'a> {
    pvcs: HashMap<(&'a str, &'a str), &'a Object>,
    pvs: HashMap<&'a str, &'a Object>,
    /// In the objects' order (`pvCache.ListPVs` by class).
    pv_list: Vec<&'a Object>,
    classes: HashMap<&'a str, &'a Object>,
    /// (namespace, claimName) of the `persistentVolumeClaim` volumes of the
    /// pods on a node (bound, not finished, the Node known): the
    /// scheduler's `PVCRefCounts`, which VolumeRestrictions reads.
    used: HashMap<(&'a str, &'a str), (&'a str, &'a str)>,
}

impl<'a> Storage<'a> {
    pub fn of(objects: &'a [Object]) -> Storage<'a> {
        let mut s = Storage {
            pvcs: HashMap::new(),
            pvs: HashMap::new(),
            pv_list: Vec::new(),
            classes: HashMap::new(),
            used: HashMap::new(),
        };
        let nodes: HashSet<&str> = objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Node)
            .filter_map(Object::name)
            .collect();
        for o in objects {
            if let Some(node) = o.running_on() {
                if nodes.contains(node) {
                    let ns = o.namespace_or_default();
                    for (name, ephemeral) in pod_claims(o) {
                        if let (false, Some(name)) = (ephemeral, claim_name_in(o, &name)) {
                            let pod = o.name().unwrap_or_default();
                            s.used.entry((ns, name)).or_insert((pod, node));
                        }
                    }
                }
            }
            let Some(name) = o.name() else { continue };
            match o.kind {
                ObjectKind::PersistentVolumeClaim => {
                    s.pvcs.insert((o.namespace_or_default(), name), o);
                }
                ObjectKind::PersistentVolume => {
                    s.pvs.insert(name, o);
                    s.pv_list.push(o);
                }
                ObjectKind::StorageClass => {
                    s.classes.insert(name, o);
                }
                _ => {}
            }
        }
        s
    }

    /// Whether the objects hold any PVC, PV or StorageClass: files given
    /// without any say nothing of the pod's volumes (a cluster has a
    /// StorageClass or a PV wherever it has volumes).
    pub fn describes_storage(&self) -> bool {
        !self.pvcs.is_empty() || !self.pvs.is_empty() || !self.classes.is_empty()
    }
}

/// A volume of the pod that uses a PVC: its name, and whether it is a
/// generic ephemeral volume (the PVC `<pod>-<volume>`).
pub fn pod_claims(pod: &Object) -> Vec<(String, bool)> {
    let pod_name = pod.name().unwrap_or_default();
    pod.pod_spec()
        .and_then(|s| s.get("volumes"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|v| {
            if let Some(pvc) = v.get("persistentVolumeClaim") {
                let name = pvc.get("claimName").and_then(Node::as_str).unwrap_or("");
                return Some((name.to_owned(), false));
            }
            v.get("ephemeral")?;
            let vol = v.get("name").and_then(Node::as_str).unwrap_or("");
            Some((format!("{pod_name}-{vol}"), true))
        })
        .collect()
}

/// The pod's own text of a volume's claim name (borrowed from the pod).
fn claim_name_in<'o>(pod: &'o Object, name: &str) -> Option<&'o str> {
    pod.pod_spec()?
        .get("volumes")?
        .as_seq()?
        .iter()
        .filter_map(|v| v.get("persistentVolumeClaim")?.get("claimName")?.as_str())
        .find(|n| *n == name)
}

/// What the two plugins' Filter needs, from their PreFilter.
pub struct VolumeFilter<'s, 'a> {
    storage: &'s Storage<'a>,
    /// Fully bound PVCs (VolumeBinding's `boundClaims`).
    bound: Vec<&'a Object>,
    /// Unbound PVCs of a WaitForFirstConsumer class, each with the PVs it
    /// could bind.
    delayed: Vec<ClaimVolumes<'a>>,
    /// VolumeZone's topology of the bound PVs: (label, zones).
    zones: Vec<(&'a str, &'static str, Vec<String>)>,
    /// VolumeRestrictions: a ReadWriteOncePod PVC of the pod is in use (by
    /// whom, in words).
    rwop_conflict: Option<String>,
}

/// The PreFilters of VolumeRestrictions, VolumeBinding and VolumeZone, in
/// the scheduler's order: `Ok(None)` when the pod has no PVC (they skip).
pub fn prefilter<'s, 'a>(
    pod: &'a Object,
    storage: &'s Storage<'a>,
) -> Result<Option<VolumeFilter<'s, 'a>>, VolumeStop> {
    let claims = pod_claims(pod);
    if claims.is_empty() {
        return Ok(None);
    }
    let ns = pod.namespace_or_default();
    let stop = |plugin, claim: &str, message: String| VolumeStop {
        plugin,
        claim: claim.to_owned(),
        message,
    };
    let binding = |claim: &str, message| Err(stop("VolumeBinding", claim, message));
    // VolumeRestrictions' PreFilter comes first: each
    // `persistentVolumeClaim` volume's PVC must exist (the lister's
    // NotFound), and one with the ReadWriteOncePod access mode must be
    // used by no pod on a node (then every node is ruled out).
    let mut rwop_conflict = None;
    for (name, ephemeral) in &claims {
        if *ephemeral {
            continue;
        }
        let Some(&pvc) = storage.pvcs.get(&(ns, name.as_str())) else {
            return Err(stop(
                "VolumeRestrictions",
                name,
                format!("persistentvolumeclaim {name:?} not found"),
            ));
        };
        if let Some((user, node)) = storage.used.get(&(ns, name.as_str())) {
            if modes(pvc).contains(&"ReadWriteOncePod") && rwop_conflict.is_none() {
                rwop_conflict = Some(format!(
                    "PVC {name} is ReadWriteOncePod and pod {ns}/{user} on node {node} uses it"
                ));
            }
        }
    }
    // podHasPVCs: each PVC exists, is not lost or being deleted, and an
    // ephemeral volume's is the pod's own.
    let mut pvcs = Vec::with_capacity(claims.len());
    for (name, ephemeral) in &claims {
        let Some(&pvc) = storage.pvcs.get(&(ns, name.as_str())) else {
            let message = if *ephemeral {
                format!("waiting for ephemeral volume controller to create the persistentvolumeclaim {name:?}")
            } else {
                format!("persistentvolumeclaim {name:?} not found")
            };
            return binding(name, message);
        };
        let phase = pvc
            .root
            .get("status")
            .and_then(|s| s.get("phase"))
            .and_then(Node::as_str);
        if phase == Some("Lost") {
            let pv = spec_str(pvc, "volumeName");
            return binding(
                name,
                format!(
                    "persistentvolumeclaim {name:?} bound to non-existent persistentvolume {pv:?}"
                ),
            );
        }
        if meta(pvc, "deletionTimestamp").is_some_and(|d| !d.is_null()) {
            return binding(
                name,
                format!("persistentvolumeclaim {name:?} is being deleted"),
            );
        }
        if *ephemeral && !crate::prefilter::is_for_pod(pod, pvc) {
            return binding(
                name,
                format!(
                    "PVC {ns}/{name} was not created for pod {ns}/{} (pod is not owner)",
                    pod.name().unwrap_or_default()
                ),
            );
        }
        pvcs.push((pvc, *ephemeral));
    }
    // GetPodVolumeClaims: fully bound, delayed (WaitForFirstConsumer and
    // no volume named yet), or immediate, which should be bound already.
    let mut bound = Vec::new();
    let mut delayed = Vec::new();
    let mut immediate = None;
    for (pvc, _) in &pvcs {
        let volume = spec_str(pvc, "volumeName");
        if !volume.is_empty() && annotation(pvc, BIND_COMPLETED).is_some() {
            bound.push(*pvc);
            continue;
        }
        // IsDelayBindingMode: a class that does not exist is Immediate; the
        // apiserver defaults an unset mode to Immediate.
        let delay = storage.classes.get(class_of(pvc)).is_some_and(|c| {
            c.root.get("volumeBindingMode").and_then(Node::as_str) == Some("WaitForFirstConsumer")
        });
        if delay && volume.is_empty() {
            delayed.push(*pvc);
        } else if immediate.is_none() {
            immediate = Some(pvc.name().unwrap_or_default());
        }
    }
    if let Some(name) = immediate {
        return binding(
            name,
            "pod has unbound immediate PersistentVolumeClaims".into(),
        );
    }
    // VolumeZone's getPVbyPod: the bound PVs of `persistentVolumeClaim`
    // volumes (not ephemeral ones), each of which must exist.
    let mut zones = Vec::new();
    for (pvc, ephemeral) in &pvcs {
        let volume = spec_str(pvc, "volumeName");
        if *ephemeral || volume.is_empty() {
            // Unbound: VolumeBinding stopped it already unless its class
            // waits for the first consumer, which VolumeZone skips.
            continue;
        }
        let Some(pv) = storage.pvs.get(volume) else {
            return Err(stop(
                "VolumeZone",
                volume,
                format!("persistentvolume {volume:?} not found"),
            ));
        };
        for (label, _) in ZONE_LABELS {
            let Some(value) = meta(pv, "labels")
                .and_then(|l| l.get(label))
                .and_then(Node::as_str)
            else {
                continue;
            };
            // LabelZonesToSet: `__`-separated, trimmed; an empty zone makes
            // the label ignored.
            let set: Vec<String> = value.split("__").map(|z| z.trim().to_owned()).collect();
            if set.iter().all(|z| !z.is_empty()) {
                zones.push((volume, label, set));
            }
        }
    }
    // ListPVs(class) for each class waited on, gathered once.
    let mut of_class: HashMap<&'a str, Vec<&'a Object>> =
        delayed.iter().map(|p| (class_of(p), Vec::new())).collect();
    for &pv in &storage.pv_list {
        if let Some(list) = of_class.get_mut(class_of(pv)) {
            list.push(pv);
        }
    }
    let delayed = delayed
        .into_iter()
        .map(|p| ClaimVolumes::of(p, &of_class[class_of(p)]))
        .collect();
    Ok(Some(VolumeFilter {
        storage,
        bound,
        delayed,
        zones,
        rwop_conflict,
    }))
}

/// `MatchTopologySelectorTerms` of a class's `allowedTopologies`.
fn topology_admits(class: &Object, labels: Option<&Node>) -> bool {
    let terms = class
        .root
        .get("allowedTopologies")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    if terms.is_empty() {
        return true;
    }
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
    terms.iter().any(|t| {
        let exprs = t
            .get("matchLabelExpressions")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        !exprs.is_empty()
            && exprs.iter().all(|e| {
                let key = e.get("key").and_then(Node::as_str).unwrap_or("");
                let values = e.get("values").and_then(Node::as_seq).unwrap_or_default();
                // labels.NewRequirement refuses `In` without values.
                !values.is_empty()
                    && label(key).is_some_and(|v| values.iter().any(|x| x.as_str() == Some(v)))
            })
    })
}

impl<'s, 'a> VolumeFilter<'s, 'a> {
    /// The reasons VolumeRestrictions, else VolumeBinding, else VolumeZone
    /// rules the node out for (empty: it passes them all).
    pub fn reasons(&self, node: &Object) -> Vec<&'static str> {
        self.verdict(node).0
    }

    /// The reasons, and the defect behind the first: which PVC or PV, and
    /// what of it the node does not meet.
    pub fn verdict(&self, node: &Object) -> (Vec<&'static str>, Option<String>) {
        // VolumeRestrictions' Filter (Unschedulable: preemption may free it).
        if let Some(user) = &self.rwop_conflict {
            return (vec![RWOP_CONFLICT], Some(user.clone()));
        }
        let labels = meta(node, "labels");
        let binding = self.binding(node.name().unwrap_or_default(), labels);
        if !binding.0.is_empty() {
            return binding;
        }
        match self.zone_conflict(labels) {
            Some(why) => (vec![ZONE_CONFLICT], Some(why)),
            None => (Vec::new(), None),
        }
    }

    /// FindPodVolumes' reasons, in its order, and the first one's defect.
    fn binding(&self, node: &str, labels: Option<&Node>) -> (Vec<&'static str>, Option<String>) {
        let (mut bound, mut missing, mut unbound) = (None, None, None);
        // checkBoundClaims: stops at the first PV missing or not admitting.
        for pvc in &self.bound {
            let volume = spec_str(pvc, "volumeName");
            let name = pvc.name().unwrap_or_default();
            match self.storage.pvs.get(volume) {
                None => {
                    missing = Some(format!(
                        "PVC {name} is bound to PersistentVolume {volume}, which does not exist"
                    ));
                    break;
                }
                Some(pv) if !affinity_admits(pv, labels) => {
                    bound = Some(format!(
                        "PersistentVolume {volume} of PVC {name} is for nodes with {}",
                        affinity_text(pv)
                    ));
                    break;
                }
                Some(_) => {}
            }
        }
        if !self.delayed.is_empty() {
            unbound = self.unbound_fit(node, labels).err();
        }
        let mut out = Vec::new();
        if bound.is_some() {
            out.push(NODE_CONFLICT);
        }
        if unbound.is_some() {
            out.push(BIND_CONFLICT);
        }
        if missing.is_some() {
            out.push(PV_NOT_EXIST);
        }
        (out, bound.or(unbound).or(missing))
    }

    /// The delayed claims: a PV to bind on this node, or a class that can
    /// provision one here; else the claim that has neither.
    fn unbound_fit(&self, node: &str, labels: Option<&Node>) -> Result<(), String> {
        let mut to_match = Vec::new();
        let mut to_provision = Vec::new();
        for claim in &self.delayed {
            match annotation(claim.pvc, SELECTED_NODE) {
                Some(selected) if selected != node => {
                    return Err(format!(
                        "PVC {} is being provisioned for node {selected} ({SELECTED_NODE})",
                        claim.pvc.name().unwrap_or_default()
                    ))
                }
                Some(_) => to_provision.push(claim.pvc),
                None => to_match.push(claim),
            }
        }
        if !to_match.is_empty() {
            // findMatchingVolumes: smallest request first, each PV chosen once.
            to_match.sort_by_key(|c| c.size);
            let mut chosen: Vec<&str> = Vec::new();
            for claim in to_match {
                match claim.matching(labels, &chosen) {
                    Some(pv) => chosen.push(pv),
                    None => to_provision.push(claim.pvc),
                }
            }
        }
        // checkVolumeProvisions decides alone once it runs.
        for pvc in to_provision {
            let class = class_of(pvc);
            let name = pvc.name().unwrap_or_default();
            let no_pv =
                format!("no PersistentVolume of class {class} can be bound to PVC {name} here");
            let Some(sc) = self.storage.classes.get(class) else {
                return Err(format!("{no_pv}, and StorageClass {class} does not exist"));
            };
            let provisioner = sc.root.get("provisioner").and_then(Node::as_str);
            if matches!(provisioner, None | Some("" | NO_PROVISIONER)) {
                return Err(format!(
                    "{no_pv}, and StorageClass {class} does not provision ({NO_PROVISIONER})"
                ));
            }
            if !topology_admits(sc, labels) {
                return Err(format!(
                    "{no_pv}, and StorageClass {class} provisions only where its allowedTopologies say"
                ));
            }
        }
        Ok(())
    }

    /// VolumeZone's Filter: a node with any zone or region label must
    /// carry each bound PV's zone and region among the PV's values.
    fn zone_conflict(&self, labels: Option<&Node>) -> Option<String> {
        if self.zones.is_empty() {
            return None;
        }
        let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
        if ZONE_LABELS.iter().all(|(k, _)| label(k).is_none()) {
            return None;
        }
        self.zones.iter().find_map(|(pv, key, zones)| {
            let ga = ZONE_LABELS
                .iter()
                .find(|(k, _)| k == key)
                .map_or(*key, |(_, g)| *g);
            let held = label(key).or_else(|| label(ga));
            (!held.is_some_and(|v| zones.iter().any(|z| z == v)))
                .then(|| format!("PersistentVolume {pv} is in {key} {}", zones.join(" or ")))
        })
    }
}

/// A PV's required node affinity in words (`key In [a, b]`, terms joined
/// by "or"), cut short past a few hundred characters.
fn affinity_text(pv: &Object) -> String {
    let terms = pv
        .root
        .get("spec")
        .and_then(|s| s.get("nodeAffinity"))
        .and_then(|a| a.get("required"))
        .and_then(|r| r.get("nodeSelectorTerms"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let requirement = |r: &Node| {
        let s = |k| r.get(k).and_then(Node::as_str).unwrap_or("");
        let values: Vec<&str> = r
            .get("values")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect();
        if values.is_empty() {
            format!("{} {}", s("key"), s("operator"))
        } else {
            format!("{} {} [{}]", s("key"), s("operator"), values.join(", "))
        }
    };
    let text = terms
        .iter()
        .map(|t| {
            ["matchExpressions", "matchFields"]
                .iter()
                .flat_map(|k| t.get(k).and_then(Node::as_seq).unwrap_or_default())
                .map(requirement)
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .collect::<Vec<_>>()
        .join(" or ");
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None if text.is_empty() => "no term (it admits none)".into(),
        None => text,
    }
}

#[cfg(test)]
#[path = "volumes_tests.rs"]
mod tests;
