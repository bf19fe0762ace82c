//! The scheduler's DRA PreFilter (`dynamicresources.go`): what it checks of
//! a pod's claims once, before it tries any node. When one of these checks
//! fails the pod is not tried anywhere, so this, not any node's allocation,
//! is why it is pending. Also the pod the scheduler never sees: one created
//! with `spec.nodeName` ([`bypassed`]).

use crate::dra::{self, RequestBody};
use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// A pod claim PreFilter cannot get (`foreachPodResourceClaim`).
#[derive(Clone, Debug, PartialEq)]
pub enum Unresolved {
    /// `resourceclaim.Name`'s error, as it words it: the pod claim names
    /// neither a claim nor a template.
    Unnamed(String),
    /// The claim it names (namespace, name) is not in the scheduler's claim
    /// cache.
    NotFound(String, String),
    /// Made from a template that does not exist (its name): the
    /// resourceclaim controller never creates the claim.
    TemplateMissing(String),
}

/// A claim of the pod, as PreFilter gets it.
pub struct PodClaimRef<'a> {
    /// The claim, or why it cannot be had.
    pub claim: Result<&'a Object, Unresolved>,
    /// The claim exists in the cluster (not one kubectl-dra made up from a
    /// template for a claim not created yet, nor the extended-resource one).
    pub stored: bool,
    /// Generated from a template for the pod (`resourceclaim.Name`'s
    /// `mustCheckOwner`): the pod must be its controller.
    pub from_template: bool,
}

/// Why PreFilter stops the pod.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// The status message, as the scheduler writes it.
    pub message: String,
    /// `statusError` (the attempt fails with an error and is retried) rather
    /// than `statusUnschedulable` (the pod waits for a change).
    pub error: bool,
    /// Which check stopped it, as data.
    pub kind: StopKind,
}

/// The PreFilter check that stops the pod.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "check", content = "name")]
pub enum StopKind {
    /// A pod claim whose ResourceClaim does not exist (its name).
    ClaimMissing(String),
    /// A pod claim that names neither a claim nor a template.
    ClaimUnnamed,
    /// A template's claim not created (the template's name: it does not
    /// exist, so the claim never will).
    ClaimNotCreated(String),
    /// The claim has a deletionTimestamp.
    ClaimDeleting(String),
    /// A claim from a template that the pod does not own.
    NotOwner(String),
    /// A request names a DeviceClass that does not exist.
    ClassMissing(String),
    /// Subrequests while DRAPrioritizedList is off.
    SubrequestsDisabled,
    /// A request whose `exactly` names no class (`validateDeviceClass`'s
    /// "unsupported request type", an error).
    UnsupportedRequest,
    /// A request with neither exactly nor firstAvailable (PreFilter's
    /// "unknown request type").
    UnknownRequestType,
    /// VolumeBinding's or VolumeZone's PreFilter, which run before the DRA
    /// plugin's: a PersistentVolumeClaim of the pod's volumes missing,
    /// lost, being deleted, not the pod's, or unbound though it should be
    /// bound; or the PersistentVolume of a bound one missing (its name).
    Volumes(String),
}

impl StopKind {
    /// A check of foreachPodResourceClaim, which the DRA plugin's
    /// PreEnqueue runs before the pod is queued (and PreFilter again): a
    /// pod that fails it is held out of the scheduling queue.
    pub fn pre_enqueue(&self) -> bool {
        matches!(
            self,
            StopKind::ClaimMissing(_)
                | StopKind::ClaimUnnamed
                | StopKind::ClaimNotCreated(_)
                | StopKind::ClaimDeleting(_)
                | StopKind::NotOwner(_)
        )
    }
}

fn unschedulable(kind: StopKind, message: String) -> Option<Stop> {
    Some(Stop {
        message,
        error: false,
        kind,
    })
}

/// PreFilter's checks, in its order: each claim's deletion and, for one
/// generated from a template, that the pod is its owner
/// (`foreachPodResourceClaim`); then for each claim not allocated yet,
/// that its requests name existing classes (`validateDeviceClass`) and use
/// subrequests only with DRAPrioritizedList on.
pub fn prefilter(
    pod: &Object,
    claims: &[PodClaimRef<'_>],
    objects: &[Object],
    gates: &FeatureGates,
) -> Option<Stop> {
    for c in claims {
        let claim = match &c.claim {
            Err(Unresolved::Unnamed(why)) => {
                return unschedulable(StopKind::ClaimUnnamed, why.clone())
            }
            // The claim cache's assumecache.NotFoundError, as PreFilter
            // passes it on (the cache is described as "ResourceClaim").
            // resourceclaim.Name's ErrClaimNotFound: the pod's status
            // names no claim for it.
            Err(Unresolved::TemplateMissing(template)) => {
                return unschedulable(
                    StopKind::ClaimNotCreated(template.clone()),
                    format!(
                        "pod \"{}/{}\": ResourceClaim not created yet",
                        pod.namespace_or_default(),
                        pod.name().unwrap_or_default()
                    ),
                )
            }
            Err(Unresolved::NotFound(ns, name)) => {
                return unschedulable(
                    StopKind::ClaimMissing(name.clone()),
                    format!("could not find ResourceClaim \"{ns}/{name}\""),
                )
            }
            Ok(_) if !c.stored => continue,
            Ok(claim) => *claim,
        };
        let name = claim.name().unwrap_or_default();
        if meta(claim, "deletionTimestamp").is_some() {
            return unschedulable(
                StopKind::ClaimDeleting(name.to_owned()),
                format!("resourceclaim {name:?} is being deleted"),
            );
        }
        if c.from_template && !is_for_pod(pod, claim) {
            return unschedulable(
                StopKind::NotOwner(name.to_owned()),
                format!(
                    "ResourceClaim {}/{name} was not created for pod {}/{} (pod is not owner)",
                    claim.namespace_or_default(),
                    pod.namespace_or_default(),
                    pod.name().unwrap_or_default()
                ),
            );
        }
    }
    let claims: Vec<&Object> = claims
        .iter()
        .filter_map(|c| c.claim.as_ref().ok().copied())
        .collect();
    class_checks(&claims, objects, gates)
}

/// PreFilter's checks of the claims not allocated yet, in its order: each
/// request names an existing class (`validateDeviceClass`) and uses
/// subrequests only with DRAPrioritizedList on. `explain claim` runs these
/// too: kube-scheduler runs them before its allocator, so a claim naming a
/// class that does not exist is unschedulable, never the allocator's
/// "could not retrieve device class" error.
pub fn class_checks(claims: &[&Object], objects: &[Object], gates: &FeatureGates) -> Option<Stop> {
    // Only the classes' names are needed (a snapshot's slices are not).
    let classes: std::collections::HashSet<&str> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceClass)
        .filter_map(Object::name)
        .collect();
    for claim in claims {
        let claim = dra::Claim::decode(claim);
        if claim.allocation.is_some() {
            continue;
        }
        for r in &claim.requests {
            match &r.body {
                RequestBody::Exactly(d) => {
                    let stop = class_check(&classes, d.device_class_name, r.name);
                    if stop.is_some() {
                        return stop;
                    }
                }
                RequestBody::FirstAvailable(subs) => {
                    if !gates.enabled(Gate::DRAPrioritizedList) {
                        return unschedulable(StopKind::SubrequestsDisabled, format!(
                            "resource claim {}/{}, request {}: has subrequests, but the DRAPrioritizedList feature is disabled",
                            claim.namespace, claim.name, r.name
                        ));
                    }
                    for s in subs {
                        let qualified = format!("{}/{}", r.name, s.name);
                        let stop = class_check(&classes, s.device_class_name, &qualified);
                        if stop.is_some() {
                            return stop;
                        }
                    }
                }
                // Neither `exactly` nor `firstAvailable` (the switch's
                // default): unschedulable, not validateDeviceClass's error.
                RequestBody::Empty => {
                    return unschedulable(
                        StopKind::UnknownRequestType,
                        format!(
                            "resource claim {}/{}, request {}: unknown request type",
                            claim.namespace, claim.name, r.name
                        ),
                    )
                }
            }
        }
    }
    None
}

/// `validateDeviceClass`.
fn class_check(
    classes: &std::collections::HashSet<&str>,
    class: &str,
    request: &str,
) -> Option<Stop> {
    if class.is_empty() {
        return Some(Stop {
            message: format!("request {request}: unsupported request type"),
            error: true,
            kind: StopKind::UnsupportedRequest,
        });
    }
    if !classes.contains(class) {
        return unschedulable(
            StopKind::ClassMissing(class.to_owned()),
            format!("request {request}: device class {class} does not exist"),
        );
    }
    None
}

/// The names of the pod's `spec.schedulingGates`: while there are any the
/// scheduler's queue holds the pod back (the SchedulingGates PreEnqueue
/// plugin), before PreFilter or any node is tried.
pub fn scheduling_gates(pod: &Object) -> Vec<String> {
    pod.pod_spec()
        .and_then(|s| s.get("schedulingGates"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|g| g.get("name").and_then(Node::as_str))
        .map(str::to_owned)
        .collect()
}

/// The pod's `spec.schedulerName` when it is not kube-scheduler's default
/// profile's (`default-scheduler`, which the apiserver fills in when it is
/// empty): another scheduler, or another kube-scheduler profile, places it.
pub fn other_scheduler(pod: &Object) -> Option<String> {
    let name = pod.pod_spec()?.get("schedulerName")?.as_str()?;
    (!name.is_empty() && name != "default-scheduler").then(|| name.to_owned())
}

fn meta<'a>(o: &'a Object, key: &str) -> Option<&'a Node> {
    o.root.get("metadata")?.get(key)
}

/// `resourceclaim.IsForPod`: the claim is in the pod's namespace and the
/// pod is its controller (`metav1.IsControlledBy`, by UID). A pod without a
/// UID (a manifest never stored) cannot be told apart, and passes.
pub(crate) fn is_for_pod(pod: &Object, claim: &Object) -> bool {
    let Some(uid) = meta(pod, "uid").and_then(Node::as_str) else {
        return true;
    };
    claim.namespace_or_default() == pod.namespace_or_default()
        && meta(claim, "ownerReferences")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .any(|r| {
                r.get("controller").and_then(Node::as_bool) == Some(true)
                    && r.get("uid").and_then(Node::as_str) == Some(uid)
            })
}

/// A pod created with `spec.nodeName` set bypasses the scheduler, so
/// nothing allocates its claims: the kubelet does not start it until each
/// is allocated and reserved for it, and kube-controller-manager only
/// reserves claims that are already allocated (the DRA documentation,
/// "Pre-scheduled Pods").
#[derive(Clone, Debug, PartialEq)]
pub struct Bypass {
    /// The pod's `spec.nodeName`.
    pub node: String,
    /// The claims (`namespace/name`) not allocated, which nothing will allocate.
    pub unallocated: Vec<String>,
}

/// [`Bypass`] for a pod with `spec.nodeName` and claims not allocated;
/// `None` when it has no node name or all its claims are allocated.
pub fn bypassed(pod: &Object, claims: &[&Object]) -> Option<Bypass> {
    let node = pod.pod_spec()?.get("nodeName")?.as_str()?;
    if node.is_empty() {
        return None;
    }
    let unallocated: Vec<String> = claims
        .iter()
        .map(|o| dra::Claim::decode(o))
        .filter(|c| c.allocation.is_none())
        .map(|c| format!("{}/{}", c.namespace, c.name))
        .collect();
    (!unallocated.is_empty()).then(|| Bypass {
        node: node.to_owned(),
        unallocated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::Version;
    use crate::sources::{load_objects, SourceFile};

    const OBJECTS: &str = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: [{name: c, image: i}]}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: fa, namespace: ns}\nspec:\n  devices:\n    requests:\n    - name: r\n      firstAvailable: [{name: one, deviceClassName: gpu}, {name: two, deviceClassName: tpu}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: done, namespace: ns}\nspec:\n  devices:\n    requests: [{name: r, exactly: {deviceClassName: gone}}]\nstatus:\n  allocation:\n    devices:\n      results: [{request: r, driver: d, pool: p, device: x}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: none, namespace: ns}\nspec:\n  devices:\n    requests: [{name: r}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: nullexactly, namespace: ns}\nspec:\n  devices:\n    requests: [{name: r, exactly: null}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: nolist, namespace: ns}\nspec:\n  devices:\n    requests: [{name: r, firstAvailable: []}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: noclass, namespace: ns}\nspec:\n  devices:\n    requests: [{name: r, exactly: {allocationMode: All}}]\n";

    fn stop(claim: &str, gates: &FeatureGates) -> Option<Stop> {
        let files = [SourceFile {
            name: "t.yaml".into(),
            text: OBJECTS.into(),
        }];
        let objects = load_objects(&files, Default::default()).0;
        let pod = objects.iter().find(|o| o.name() == Some("p")).unwrap();
        let claim = objects.iter().find(|o| o.name() == Some(claim)).unwrap();
        let refs = [PodClaimRef {
            claim: Ok(claim),
            stored: true,
            from_template: true,
        }];
        prefilter(pod, &refs, &objects, gates)
    }

    /// Subrequests name their class as `request/subrequest`; with
    /// DRAPrioritizedList off the request is refused whatever its classes.
    #[test]
    fn subrequests_are_checked_by_qualified_name_and_gate() {
        let on = FeatureGates::defaults(Version::LATEST);
        assert_eq!(
            stop("fa", &on).map(|s| s.message),
            Some("request r/two: device class tpu does not exist".to_owned())
        );
        // Beta in 1.34, so it may be turned off there.
        let mut off = FeatureGates::defaults(Version::V1_34);
        off.set("DRAPrioritizedList", false).unwrap();
        assert_eq!(
            stop("fa", &off).map(|s| s.message),
            Some("resource claim ns/fa, request r: has subrequests, but the DRAPrioritizedList feature is disabled".to_owned())
        );
    }

    /// An allocated claim's classes are not looked up; `exactly` without a
    /// class is an error (`statusError`, validateDeviceClass), a request
    /// with neither `exactly` nor `firstAvailable` unschedulable (the
    /// switch's default in PreFilter, dynamicresources.go, 1.34 to 1.37).
    /// A pod without a UID passes the owner check (it was never stored).
    #[test]
    fn allocated_claims_pass_and_a_request_without_a_class_stops() {
        let gates = FeatureGates::defaults(Version::LATEST);
        assert_eq!(stop("done", &gates), None);
        assert_eq!(
            stop("none", &gates),
            Some(Stop {
                message: "resource claim ns/none, request r: unknown request type".into(),
                error: false,
                kind: StopKind::UnknownRequestType,
            })
        );
        for (claim, body) in [
            ("nullexactly", "exactly: null"),
            ("nolist", "firstAvailable: []"),
        ] {
            assert_eq!(
                stop(claim, &gates).map(|s| s.kind),
                Some(StopKind::UnknownRequestType),
                "{body}"
            );
        }
        assert_eq!(
            stop("noclass", &gates),
            Some(Stop {
                message: "request r: unsupported request type".into(),
                error: true,
                kind: StopKind::UnsupportedRequest,
            })
        );
    }

    /// A pod with spec.nodeName and a claim not allocated is stuck; with
    /// every claim allocated, or without a node name, it is not.
    #[test]
    fn a_pod_with_a_node_name_and_unallocated_claims_bypasses_the_scheduler() {
        let files = [SourceFile {
            name: "t.yaml".into(),
            text: format!("{OBJECTS}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pinned, namespace: ns}}\nspec: {{nodeName: n1, containers: [{{name: c, image: i}}]}}\n"),
        }];
        let objects = load_objects(&files, Default::default()).0;
        let by = |n: &str| objects.iter().find(|o| o.name() == Some(n)).unwrap();
        assert_eq!(
            bypassed(by("pinned"), &[by("done"), by("fa")]),
            Some(Bypass {
                node: "n1".into(),
                unallocated: vec!["ns/fa".into()]
            })
        );
        assert_eq!(bypassed(by("pinned"), &[by("done")]), None);
        assert_eq!(bypassed(by("p"), &[by("fa")]), None);
    }
}
