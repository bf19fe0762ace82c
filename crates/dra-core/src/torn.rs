//! A torn view: lists read from a cluster are read at different moments, so
//! an allocation may name a device whose slice was replaced between the two
//! lists, or a pod may record a claim that was created after the claims
//! were listed. Deciding on such a view gives an answer about no state the
//! cluster was ever in; the caller reads again, and says so if it persists.

use std::collections::HashSet;

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

fn s<'a>(n: &'a Node, k: &str) -> Option<&'a str> {
    n.get(k).and_then(Node::as_str)
}

fn seq<'a>(n: Option<&'a Node>, k: &str) -> &'a [Node] {
    n.and_then(|n| n.get(k))
        .and_then(Node::as_seq)
        .unwrap_or_default()
}

/// What does not agree between the lists: one sentence each.
pub fn inconsistencies(objects: &[Object]) -> Vec<String> {
    let mut devices: HashSet<(&str, &str, &str)> = HashSet::new();
    let mut claims: HashSet<(&str, &str)> = HashSet::new();
    let mut slices_read = false;
    let mut claims_read = false;
    for o in objects {
        match o.kind {
            ObjectKind::ResourceSlice => {
                slices_read = true;
                let spec = o.root.get("spec");
                let driver = spec.and_then(|sp| s(sp, "driver")).unwrap_or("");
                let pool = spec
                    .and_then(|sp| sp.get("pool"))
                    .and_then(|p| s(p, "name"))
                    .unwrap_or("");
                for d in seq(spec, "devices") {
                    if let Some(name) = s(d, "name") {
                        devices.insert((driver, pool, name));
                    }
                }
            }
            ObjectKind::ResourceClaim => {
                claims_read = true;
                if let (Some(ns), Some(name)) = (&o.reference.namespace, &o.reference.name) {
                    claims.insert((ns.as_str(), name.as_str()));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for o in objects {
        let ns = o.reference.namespace.as_deref().unwrap_or("default");
        let name = o.reference.name.as_deref().unwrap_or("");
        match o.kind {
            ObjectKind::ResourceClaim if slices_read => {
                let results = o
                    .root
                    .get("status")
                    .and_then(|st| st.get("allocation"))
                    .and_then(|a| a.get("devices"));
                for r in seq(results, "results") {
                    let key = (
                        s(r, "driver").unwrap_or(""),
                        s(r, "pool").unwrap_or(""),
                        s(r, "device").unwrap_or(""),
                    );
                    if !devices.contains(&key) {
                        out.push(format!(
                            "ResourceClaim {ns}/{name} is allocated device {}/{}/{}, which no ResourceSlice read holds",
                            key.0, key.1, key.2
                        ));
                    }
                }
            }
            ObjectKind::Workload if claims_read && o.reference.kind == "Pod" => {
                for st in seq(o.root.get("status"), "resourceClaimStatuses") {
                    if let Some(claim) = s(st, "resourceClaimName") {
                        if !claims.contains(&(ns, claim)) {
                            out.push(format!(
                                "Pod {ns}/{name} uses ResourceClaim {ns}/{claim}, which the list of claims did not hold"
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(text: &str) -> Vec<Object> {
        crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects
    }

    const SLICE: &str = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, nodeName: n, pool: {name: p, generation: 1, resourceSliceCount: 1}, devices: [{name: gpu-0}]}\n";

    #[test]
    fn an_allocation_of_a_device_no_slice_holds_is_torn() {
        let claim = |dev: &str| {
            format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: ns}}\nspec: {{}}\nstatus: {{allocation: {{devices: {{results: [{{request: r, driver: d, pool: p, device: {dev}}}]}}}}}}\n")
        };
        assert!(inconsistencies(&objects(&format!("{SLICE}{}", claim("gpu-0")))).is_empty());
        let torn = inconsistencies(&objects(&format!("{SLICE}{}", claim("gpu-9"))));
        assert_eq!(torn.len(), 1);
        assert!(torn[0].contains("d/p/gpu-9"), "{torn:?}");
    }

    #[test]
    fn a_pod_recording_a_claim_not_listed_is_torn() {
        let text = format!("{SLICE}---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: other, namespace: ns}}\nspec: {{}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns}}\nspec: {{containers: [{{name: c}}]}}\nstatus: {{resourceClaimStatuses: [{{name: gpu, resourceClaimName: p-gpu}}]}}\n");
        let torn = inconsistencies(&objects(&text));
        assert_eq!(torn.len(), 1, "{torn:?}");
        assert!(torn[0].contains("ns/p-gpu"));
    }
}
