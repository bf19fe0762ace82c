//! What one more copy of a pod asks for: the claims it makes from its
//! templates, merged into one claim spec so that `capacity` counts copies
//! of the pod as it counts copies of a claim. The allocator allocates a
//! pod's claims together on one node with distinct devices, and a claim's
//! constraints and config name its own requests: merged, each request is
//! renamed `<pod claim name>-<request>`, and each constraint and config
//! lists its claim's requests by their new names (an empty list meant all
//! of that claim's requests, and still does). Claims the pod names
//! (`resourceClaimName`) are shared by every copy and not copied.

use serde_json::{json, Value};

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// The claims of one more copy of a pod.
#[derive(Debug)]
pub struct PodClaimSpec {
    /// One ResourceClaimSpec holding every template's requests.
    pub spec: Node,
    /// The templates copied, as `pod claim name -> namespace/template`.
    pub templates: Vec<(String, String)>,
    /// Claims every copy shares (`resourceClaimName`), `namespace/name`.
    pub shared: Vec<String>,
}

fn renamed(prefix: &str, name: &str) -> String {
    format!("{prefix}-{name}")
}

/// `req` or `req/sub` of one claim, by its merged name.
fn reference(prefix: &str, r: &str) -> String {
    match r.split_once('/') {
        Some((req, sub)) => format!("{}/{sub}", renamed(prefix, req)),
        None => renamed(prefix, r),
    }
}

/// The merged spec of the claims `pod` (a Pod or a workload's pod
/// template) makes from templates in its namespace among `objects`.
pub fn of(pod: &Object, objects: &[Object]) -> Result<PodClaimSpec, String> {
    let ns = pod.namespace_or_default();
    let spec = pod
        .pod_spec()
        .ok_or_else(|| format!("{} has no pod spec", pod.reference))?;
    let mut parts: Vec<(String, Value)> = Vec::new();
    let mut templates = Vec::new();
    let mut shared = Vec::new();
    let entries = spec
        .get("resourceClaims")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    for entry in entries {
        let Some(claim) = entry.get("name").and_then(Node::as_str) else {
            continue;
        };
        if let Some(name) = entry.get("resourceClaimName").and_then(Node::as_str) {
            shared.push(format!("{ns}/{name}"));
            continue;
        }
        let Some(tmpl) = entry
            .get("resourceClaimTemplateName")
            .and_then(Node::as_str)
        else {
            continue;
        };
        let template = objects
            .iter()
            .find(|o| {
                o.kind == ObjectKind::ResourceClaimTemplate
                    && o.name() == Some(tmpl)
                    && o.namespace_or_default() == ns
            })
            .ok_or_else(|| {
                format!(
                    "no ResourceClaimTemplate {ns}/{tmpl} (pod claim {claim:?}) in the inventory"
                )
            })?;
        templates.push((claim.to_owned(), format!("{ns}/{tmpl}")));
        let devices = template
            .spec()
            .and_then(|s| s.get("spec"))
            .and_then(|s| s.get("devices"))
            .map(Node::to_json)
            .unwrap_or(Value::Null);
        parts.push((claim.to_owned(), devices));
    }
    if templates.is_empty() {
        return Err(format!(
            "{} makes no claim from a ResourceClaimTemplate: each copy would only share its named claims ({})",
            pod.reference,
            if shared.is_empty() { "none".to_owned() } else { shared.join(", ") }
        ));
    }
    let spec = merge(&parts)?;
    Ok(PodClaimSpec {
        spec,
        templates,
        shared,
    })
}

/// One claim spec from several claims' `devices`, each part's requests
/// renamed `<prefix>-<request>` and its constraints and config listing its
/// own requests by their new names (none listed meant all of the part's).
pub fn merge(parts: &[(String, Value)]) -> Result<Node, String> {
    let mut requests: Vec<Value> = Vec::new();
    let mut constraints: Vec<Value> = Vec::new();
    let mut config: Vec<Value> = Vec::new();
    for (prefix, devices) in parts {
        let own: Vec<String> = devices["requests"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["name"].as_str().map(|n| renamed(prefix, n)))
            .collect();
        for mut r in devices["requests"].as_array().cloned().unwrap_or_default() {
            if let Some(n) = r["name"].as_str().map(|n| renamed(prefix, n)) {
                r["name"] = json!(n);
            }
            requests.push(r);
        }
        let refs = |item: &mut Value| {
            let listed: Vec<String> = item["requests"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str().map(|r| reference(prefix, r)))
                .collect();
            item["requests"] = json!(if listed.is_empty() {
                own.clone()
            } else {
                listed
            });
        };
        for mut c in devices["constraints"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            refs(&mut c);
            constraints.push(c);
        }
        for mut c in devices["config"].as_array().cloned().unwrap_or_default() {
            refs(&mut c);
            config.push(c);
        }
    }
    let mut devices = json!({"requests": requests});
    if !constraints.is_empty() {
        devices["constraints"] = json!(constraints);
    }
    if !config.is_empty() {
        devices["config"] = json!(config);
    }
    serde_json::from_value(json!({"devices": devices})).map_err(|e| format!("merging claims: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_merge_with_their_constraints_and_config_renamed() {
        let (objects, _) = crate::lint::load_objects(
            &[crate::lint::SourceFile {
                name: "t".into(),
                text: "apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpus, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - {name: gpu, exactly: {deviceClassName: gpu, count: 2}}
      constraints:
      - {matchAttribute: gpu.example.com/numa}
      config:
      - requests: [gpu]
        opaque: {driver: gpu.example.com, parameters: {}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: nic, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: nic
        firstAvailable:
        - {name: fast, deviceClassName: nic}
      constraints:
      - {requests: [nic/fast], matchAttribute: nic.example.com/numa}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: train, namespace: ml}
spec:
  template:
    spec:
      resourceClaims:
      - {name: gp, resourceClaimTemplateName: gpus}
      - {name: ni, resourceClaimTemplateName: nic}
      - {name: fabric, resourceClaimName: shared-fabric}
      containers: [{name: c, image: x}]
"
                .into(),
            }],
            crate::yaml::Limits::default(),
        );
        let pod = objects
            .iter()
            .find(|o| o.kind == ObjectKind::Workload)
            .unwrap();
        let merged = of(pod, &objects).unwrap();
        assert_eq!(merged.shared, ["ml/shared-fabric"]);
        assert_eq!(merged.templates.len(), 2, "{merged:?}");
        let d = merged.spec.to_json();
        let names: Vec<&str> = d["devices"]["requests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["gp-gpu", "ni-nic"]);
        assert_eq!(
            d["devices"]["constraints"][0]["requests"],
            json!(["gp-gpu"])
        );
        assert_eq!(
            d["devices"]["constraints"][1]["requests"],
            json!(["ni-nic/fast"])
        );
        assert_eq!(d["devices"]["config"][0]["requests"], json!(["gp-gpu"]));
    }
}
