//! `explain pods`: pods alike share one evaluation. Two pending pods have
//! the same shape when everything `explain pod` reads of them is equal but
//! their names: the namespace, the node constraints (nodeSelector,
//! affinity, tolerations), the scheduling gates and scheduler, the containers'
//! names, restart policies, resources and ports, the pod's resources, and each pod claim's
//! source with the stored claim's spec and status; its labels too, where a
//! pod affinity term may read them (InterPodAffinity). A pod with a PVC
//! volume shares with none (VolumeBinding reads its own PVCs). The second pod's answer
//! is the first's with the names exchanged (the pod's, and its claims'),
//! and its own last scheduling attempt.

use std::collections::HashMap;

use dra_core::model::{Object, ObjectKind};
use serde_json::{json, Value};

/// A shape's answer: the pod it was made for, its claim names, the answer.
pub struct Shared {
    pod: String,
    claims: Vec<String>,
    answer: Result<Value, String>,
}

#[derive(Default)]
pub struct Shapes {
    answers: HashMap<String, Shared>,
    /// How many answers were made (not shared).
    pub evaluations: usize,
}

/// The claim each pod claim stands for, as `explain pod` names it.
fn claim_names(pod: &Object) -> Vec<String> {
    let name = pod.name().unwrap_or_default();
    dra_core::dra::PodClaims::decode(pod)
        .claims
        .iter()
        .map(|c| match (c.source, c.generated) {
            (dra_core::dra::PodClaimSource::Claim(n), _) => n.to_owned(),
            (dra_core::dra::PodClaimSource::Template(_), Some(n)) => n.to_owned(),
            (dra_core::dra::PodClaimSource::Template(_), None) => format!("{name}-{}", c.name),
            (dra_core::dra::PodClaimSource::Unset, _) => String::new(),
        })
        // The claim the scheduler makes up for extended resources.
        .chain(std::iter::once(format!("{name}-extended-resources")))
        .collect()
}

/// What `explain pod` reads of the pod, without its names.
fn key(pod: &Object, objects: &[Object], labels_read: bool) -> Option<String> {
    let spec = pod.pod_spec()?.to_json();
    // The pod's own pod (anti-)affinity terms and spread constraints read
    // its labels too.
    let own_terms = ["podAffinity", "podAntiAffinity"]
        .iter()
        .any(|k| !spec["affinity"][k].is_null())
        || !spec["topologySpreadConstraints"].is_null();
    let labels = if labels_read || own_terms {
        dra_core::pod_affinity::labels_of(pod).map(|l| l.to_json())
    } else {
        None
    };
    let ns = pod.namespace_or_default();
    let resources = |list: &Value| -> Vec<Value> {
        list.as_array()
            .into_iter()
            .flatten()
            // The name and restartPolicy too: the scheduler's
            // extended-resource requests name the container, and a sidecar
            // keeps its devices where a plain init container lends them;
            // the ports for NodePorts' host ports.
            .map(|c| json!([c["name"], c["restartPolicy"], c["resources"], c["ports"]]))
            .collect()
    };
    let claims: Vec<Value> = dra_core::dra::PodClaims::decode(pod)
        .claims
        .iter()
        .zip(claim_names(pod))
        .map(|(c, resolved)| {
            let stored = objects
                .iter()
                .find(|o| {
                    o.kind == ObjectKind::ResourceClaim
                        && o.namespace_or_default() == ns
                        && o.name() == Some(resolved.as_str())
                })
                .map(|o| json!({"spec": o.root.get("spec").map(|s| s.to_json()), "status": o.root.get("status").map(|s| s.to_json())}));
            let source = match c.source {
                // A claim by name may be shared by pods: its name counts.
                dra_core::dra::PodClaimSource::Claim(n) => json!({"claim": n}),
                dra_core::dra::PodClaimSource::Template(t) => {
                    json!({"template": t, "generated": c.generated.is_some(), "recorded": c.recorded})
                }
                dra_core::dra::PodClaimSource::Unset => Value::Null,
            };
            json!({"name": c.name, "source": source, "stored": stored})
        })
        .collect();
    let claims_of_volumes = dra_core::volumes::pod_claims(pod);
    let volumes = if claims_of_volumes.is_empty() {
        Value::Null
    } else {
        json!([pod.name(), claims_of_volumes])
    };
    let key = json!({
        "namespace": ns,
        "labels": labels,
        "nodeSelector": spec["nodeSelector"],
        "affinity": spec["affinity"],
        "topologySpreadConstraints": spec["topologySpreadConstraints"],
        "tolerations": spec["tolerations"],
        "containers": resources(&spec["containers"]),
        "initContainers": resources(&spec["initContainers"]),
        "overhead": spec["overhead"],
        "resources": spec["resources"],
        // VolumeBinding and VolumeZone: a pod with a PVC volume is its own
        // shape (an ephemeral volume's PVC is named after the pod).
        "volumes": volumes,
        "schedulingGates": spec["schedulingGates"],
        "schedulerName": spec["schedulerName"],
        "claims": claims,
    });
    Some(key.to_string())
}

use dra_core::names::replace_whole as replace_name;

impl Shapes {
    /// Forgets every answer: the inventory changed (`--in-order` placed a pod).
    pub fn clear(&mut self) {
        self.answers.clear();
    }

    /// The answer for `pod` (`ns/name`): a pod alike's, renamed, or a new
    /// one from `decide`; `labels_read`: a bound pod has required
    /// anti-affinity terms, which read every pending pod's labels.
    pub fn answer(
        &mut self,
        pod: &Object,
        objects: &[Object],
        labels_read: bool,
        decide: impl FnOnce() -> Result<Value, String>,
    ) -> Result<Value, String> {
        let Some(key) = key(pod, objects, labels_read) else {
            self.evaluations += 1;
            return decide();
        };
        let ns = pod.namespace_or_default();
        let name = pod.name().unwrap_or_default();
        let claims = claim_names(pod);
        if let Some(shared) = self.answers.get(&key) {
            let answer = match &shared.answer {
                Ok(v) => v.to_string(),
                Err(e) => return Err(e.clone()),
            };
            let mut text = answer;
            for (from, to) in shared.claims.iter().zip(&claims) {
                text = replace_name(&text, from, to);
            }
            let (_, first) = shared.pod.split_once('/').unwrap_or(("", &shared.pod));
            text = replace_name(&text, first, name);
            let mut v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            // The pod's own last attempt, not the first pod's.
            v["verdict"]["lastAttempt"] = match dra_core::scheduling::last_attempt(pod) {
                Some((reason, message)) => json!({"reason": reason, "message": message}),
                None => Value::Null,
            };
            return Ok(v);
        }
        let answer = decide();
        self.evaluations += 1;
        self.answers.insert(
            key,
            Shared {
                pod: format!("{ns}/{name}"),
                claims,
                answer: answer.clone(),
            },
        );
        answer
    }
}
