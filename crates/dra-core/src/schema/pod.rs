//! The parts of a custom workload (a JobSet, a LeaderWorkerSet: kinds
//! whose schema is a CRD's) that are decoded as strictly as the DRA kinds:
//! its `metadata` (an `ObjectMeta` like any object's), and the claim fields
//! of its pod template (with that template's metadata); the built-in
//! workloads are decoded whole (`workloads.rs`).
//! `core/v1` `PodResourceClaim` {name, resourceClaimName,
//! resourceClaimTemplateName} and the containers' `ResourceClaim` {name,
//! request}, the same on kubernetes/api release-1.34 and master. The most
//! common mistake they catch is the pre-1.31 shape `source:
//! {resourceClaimTemplateName: ...}`: strict decoding refuses `source`, and
//! without it the claim has no source at all.

use super::Ty::*;
use super::{f, walk_ty, Drops, Field, Path, ShapeFinding, Ty, OBJECT_META};
use crate::gates::FeatureGates;
use crate::tree::{Node, Value};

const POD_RESOURCE_CLAIM: &[Field] = &[
    f("name", Str),
    f("resourceClaimName", Str),
    f("resourceClaimTemplateName", Str),
];
const CONTAINER_CLAIM: &[Field] = &[f("name", Str), f("request", Str)];

static POD_CLAIMS: Ty = List(&Obj(POD_RESOURCE_CLAIM));
static CONTAINER_CLAIMS: Ty = List(&Obj(CONTAINER_CLAIM));
static META: Ty = Obj(OBJECT_META);

/// Decodes `metadata` of a Pod or workload (YAML's `on`/`yes` as a label
/// value is a boolean, which no `map[string]string` takes), and a workload's
/// pod template metadata at
/// `template_path` (`spec_path` without its last `spec`; a Pod has none).
pub fn decode_metadata(
    root: &mut Node,
    spec_path: &[&str],
    gates: &FeatureGates,
) -> Vec<ShapeFinding> {
    let mut out = Vec::new();
    let drops = Drops::on_create(gates);
    if let Some(meta) = root.get_mut("metadata") {
        walk_ty(
            &META,
            meta,
            &Path::Field(&Path::Root, "metadata"),
            &drops,
            &mut out,
        );
    }
    if let [template @ .., _] = spec_path {
        if !template.is_empty() {
            let field = crate::model::field_path(template);
            if let Some(meta) = descend(root, template).and_then(|t| t.get_mut("metadata")) {
                let path = Path::Field(&Path::Root, &field);
                walk_ty(
                    &META,
                    meta,
                    &Path::Field(&path, "metadata"),
                    &drops,
                    &mut out,
                );
            }
        }
    }
    out
}

/// Decodes the claim lists of the pod spec at `spec_path` (as in
/// `Object::pod_spec_path`; `spec_field` is its field path) and drops their
/// unknown fields.
pub fn decode_pod_claims(
    root: &mut Node,
    spec_path: &[&str],
    spec_field: &str,
    gates: &FeatureGates,
) -> Vec<ShapeFinding> {
    let mut out = Vec::new();
    let Some(spec) = descend(root, spec_path) else {
        return out;
    };
    let drops = Drops::on_create(gates);
    let base = Path::Field(&Path::Root, spec_field);
    if let Some(claims) = spec.get_mut("resourceClaims") {
        let path = Path::Field(&base, "resourceClaims");
        walk_ty(&POD_CLAIMS, claims, &path, &drops, &mut out);
    }
    // Pod-level resources (DRA-V185 forbids their claims).
    if let Some(claims) = spec.get_mut("resources").and_then(|r| r.get_mut("claims")) {
        let resources = Path::Field(&base, "resources");
        let path = Path::Field(&resources, "claims");
        walk_ty(&CONTAINER_CLAIMS, claims, &path, &drops, &mut out);
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        let Some(Node {
            value: Value::Seq(containers),
            ..
        }) = spec.get_mut(list)
        else {
            continue;
        };
        let list_path = Path::Field(&base, list);
        for (i, c) in crate::tree::items_mut(containers).iter_mut().enumerate() {
            let Some(claims) = c.get_mut("resources").and_then(|r| r.get_mut("claims")) else {
                continue;
            };
            let container = Path::Index(&list_path, i);
            let resources = Path::Field(&container, "resources");
            let path = Path::Field(&resources, "claims");
            walk_ty(&CONTAINER_CLAIMS, claims, &path, &drops, &mut out);
        }
    }
    out
}

/// The node at `path` (a number indexes a list), for editing.
fn descend<'a>(mut n: &'a mut Node, path: &[&str]) -> Option<&'a mut Node> {
    for k in path {
        n = match k.parse::<usize>() {
            Ok(i) => match &mut n.value {
                Value::Seq(items) => crate::tree::items_mut(items).get_mut(i)?,
                _ => return None,
            },
            Err(_) => n.get_mut(k)?,
        };
    }
    Some(n)
}
