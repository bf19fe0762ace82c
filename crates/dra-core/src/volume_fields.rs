//! The fields of PersistentVolumeClaims and PersistentVolumes that
//! kube-scheduler's volume plugins read, as component-helpers
//! `storage/volume` reads them (`GetPersistentVolumeClaimClass`,
//! `CheckNodeAffinity`, `CheckVolumeModeMismatches`, `CheckAccessModes`).

use crate::allocate::node_selector_matches;
use crate::model::Object;
use crate::quantity::Quantity;
use crate::tree::Node;

const BETA_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

pub(crate) fn meta<'n>(o: &'n Object, key: &str) -> Option<&'n Node> {
    o.root.get("metadata")?.get(key)
}

pub(crate) fn annotation<'n>(o: &'n Object, key: &str) -> Option<&'n str> {
    meta(o, "annotations")?.get(key)?.as_str()
}

pub(crate) fn spec_str<'n>(o: &'n Object, key: &str) -> &'n str {
    o.root
        .get("spec")
        .and_then(|s| s.get(key))
        .and_then(Node::as_str)
        .unwrap_or("")
}

/// `GetPersistentVolumeClaimClass` (and `GetPersistentVolumeClass`): the
/// beta annotation first, then `spec.storageClassName`.
pub(crate) fn class_of(o: &Object) -> &str {
    annotation(o, BETA_CLASS).unwrap_or_else(|| spec_str(o, "storageClassName"))
}

pub(crate) fn storage_quantity(n: Option<&Node>) -> Quantity {
    n.and_then(|q| q.get("storage"))
        .and_then(|q| {
            q.as_str()
                .map(str::to_owned)
                .or_else(|| q.as_i64().map(|i| i.to_string()))
        })
        .and_then(|s| Quantity::parse(&s).ok())
        .unwrap_or_else(Quantity::zero)
}

pub(crate) fn requested(pvc: &Object) -> Quantity {
    storage_quantity(
        pvc.root
            .get("spec")
            .and_then(|s| s.get("resources"))
            .and_then(|r| r.get("requests")),
    )
}

/// `CheckNodeAffinity`: the PV's required node affinity against a node
/// made of the labels alone (so `matchFields` on `metadata.name` never
/// matches).
pub(crate) fn affinity_admits(pv: &Object, labels: Option<&Node>) -> bool {
    match pv
        .root
        .get("spec")
        .and_then(|s| s.get("nodeAffinity"))
        .and_then(|a| a.get("required"))
    {
        Some(required) if !required.is_null() => node_selector_matches(required, "", labels),
        _ => true,
    }
}

/// `volumeMode`, Filesystem when unset (`CheckVolumeModeMismatches`).
pub(crate) fn mode(o: &Object) -> &str {
    match spec_str(o, "volumeMode") {
        "" => "Filesystem",
        m => m,
    }
}

pub(crate) fn modes(o: &Object) -> Vec<&str> {
    o.root
        .get("spec")
        .and_then(|s| s.get("accessModes"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect()
}
