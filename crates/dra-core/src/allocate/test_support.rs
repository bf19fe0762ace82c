//! What the allocator's scenario tests share: two classes, a claim, and a
//! run on node n1 at a release with some gates on.

use super::{Allocator, ClaimAllocation, Outcome};
use crate::gates::{FeatureGates, Version};
use crate::lint::{load_objects, SourceFile};

/// DeviceClasses `a` and `b`, for drivers a.example.com and b.example.com.
pub(super) const CLASSES: &str = "apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: a}
spec:
  selectors: [{cel: {expression: 'device.driver == \"a.example.com\"'}}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: b}
spec:
  selectors: [{cel: {expression: 'device.driver == \"b.example.com\"'}}]
";

/// A claim in namespace default with these `spec.devices` lines.
pub(super) fn claim(name: &str, devices: &str) -> String {
    format!(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  devices:\n{devices}---\n"
    )
}

/// The outcome of allocating the claims named `c*` together on n1 (beside
/// CLASSES) at the release with these gates on (a gate named with a
/// leading `-` is switched off).
pub(super) fn outcome(objects: &str, version: Version, gates: &[&str]) -> Outcome {
    let objects = load_objects(
        &[SourceFile {
            name: "t.yaml".into(),
            text: format!("{CLASSES}---\n{objects}"),
        }],
        Default::default(),
    )
    .0;
    let mut g = FeatureGates::defaults(version);
    for name in gates {
        let (name, on) = match name.strip_prefix('-') {
            Some(n) => (n, false),
            None => (*name, true),
        };
        g.set(name, on).unwrap();
    }
    let claims: Vec<_> = objects
        .iter()
        .filter(|o| o.kind == crate::model::ObjectKind::ResourceClaim)
        .filter(|o| o.name().is_some_and(|n| n.starts_with('c')))
        .collect();
    Allocator::new(&objects, &g, &claims).on_node("n1")
}

/// [`outcome`]'s results, or why not.
pub(super) fn allocate(
    objects: &str,
    version: Version,
    gates: &[&str],
) -> Result<Vec<ClaimAllocation>, String> {
    match outcome(objects, version, gates) {
        Outcome::Allocated { claims } => Ok(claims),
        Outcome::Unsatisfiable { .. } => Err("unsatisfiable".into()),
        Outcome::Error { error, .. } => Err(error),
        other => Err(format!("{other:?}")),
    }
}

/// The devices [`allocate`] picks, in result order.
pub(super) fn run(objects: &str, version: Version, gates: &[&str]) -> Result<Vec<String>, String> {
    allocate(objects, version, gates).map(|claims| {
        claims
            .iter()
            .flat_map(|c| c.results.iter().map(|r| r.device.to_string()))
            .collect()
    })
}
