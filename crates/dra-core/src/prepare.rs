//! What the kubelet says when it cannot prepare a pod's devices: its
//! `FailedPrepareDynamicResources` events (core v1), read as facts. Nothing
//! in the API links a driver to its kubelet plugin pod; the kubelet's own
//! refusal to find the driver is the trace that the plugin is not running
//! (or never registered) on that node, and the reason a pod scheduled there
//! hangs in ContainerCreating.

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// The event reason the kubelet records (pkg/kubelet/events).
pub const REASON: &str = "FailedPrepareDynamicResources";

/// Why the kubelet could not prepare a pod's devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The kubelet has no plugin of this driver registered: its kubelet
    /// plugin is not running on the node, or has not registered.
    DriverNotRegistered { driver: String },
    /// Anything else the kubelet or the plugin reported (a timeout, the
    /// plugin's own error), in its words.
    Other,
}

/// One pod's latest preparation failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrepareFailure {
    pub namespace: String,
    pub pod: String,
    pub pod_uid: Option<String>,
    /// The node the kubelet runs on (`source.host`, else
    /// `reportingInstance`).
    pub node: Option<String>,
    pub failure: Failure,
    pub message: String,
    pub count: u64,
    /// `lastTimestamp`, else `eventTime`, as written.
    pub last_seen: Option<String>,
}

/// The driver a kubelet message says is not registered. The kubelet's
/// words since 1.34 (`DRAPluginManager.GetPlugin`: "DRA driver %s is not
/// registered") and before (`NewDRAPluginClient`: "plugin name %s not found
/// in the list of registered DRA plugins", later "plugin %s not found in
/// the list of registered DRA plugins or not connected").
pub fn unregistered_driver(message: &str) -> Option<&str> {
    let word_before = |end: &str| {
        let at = message.find(end)?;
        message[..at].rsplit(' ').next().filter(|w| !w.is_empty())
    };
    if let Some(d) = word_before(" is not registered") {
        if message[..message.find(" is not registered")?].ends_with(&format!("DRA driver {d}")) {
            return Some(d);
        }
    }
    word_before(" not found in the list of registered DRA plugins")
}

fn text<'a>(n: &'a Node, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(n, |n, k| n.get(k))?.as_str()
}

/// The latest preparation failure of each pod among `objects`' Events.
pub fn failures(objects: &[Object]) -> Vec<PrepareFailure> {
    let mut out: Vec<PrepareFailure> = Vec::new();
    for e in objects.iter().filter(|o| o.kind == ObjectKind::Event) {
        let root = &e.root;
        if text(root, &["reason"]) != Some(REASON)
            || text(root, &["involvedObject", "kind"]) != Some("Pod")
        {
            continue;
        }
        let (Some(pod), message) = (
            text(root, &["involvedObject", "name"]),
            text(root, &["message"]).unwrap_or_default(),
        ) else {
            continue;
        };
        let namespace = text(root, &["involvedObject", "namespace"])
            .or_else(|| e.namespace())
            .unwrap_or("default");
        let last_seen = text(root, &["lastTimestamp"])
            .or_else(|| text(root, &["eventTime"]))
            .map(str::to_owned);
        let failure = match unregistered_driver(message) {
            Some(d) => Failure::DriverNotRegistered {
                driver: d.to_owned(),
            },
            None => Failure::Other,
        };
        let f = PrepareFailure {
            namespace: namespace.to_owned(),
            pod: pod.to_owned(),
            pod_uid: text(root, &["involvedObject", "uid"]).map(str::to_owned),
            node: text(root, &["source", "host"])
                .or_else(|| text(root, &["reportingInstance"]))
                .filter(|h| !h.is_empty())
                .map(str::to_owned),
            failure,
            message: message.to_owned(),
            count: root
                .get("count")
                .and_then(Node::as_i64)
                .and_then(|c| u64::try_from(c).ok())
                .unwrap_or(1),
            last_seen,
        };
        // RFC 3339 timestamps of one format order as strings.
        match out
            .iter_mut()
            .find(|o| o.namespace == f.namespace && o.pod == f.pod)
        {
            Some(o) if o.last_seen <= f.last_seen => *o = f,
            Some(_) => {}
            None => out.push(f),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kubelets_words_name_the_driver() {
        let now = "Failed to prepare dynamic resources: prepare dynamic resources: DRA driver gpu.nvidia.com is not registered";
        assert_eq!(unregistered_driver(now), Some("gpu.nvidia.com"));
        let old = "Failed to prepare dynamic resources: NodePrepareResources failed for claim ml/c: plugin name dra.net not found in the list of registered DRA plugins";
        assert_eq!(unregistered_driver(old), Some("dra.net"));
        let mid = "prepare dynamic resources: plugin tpu.google.com not found in the list of registered DRA plugins or not connected";
        assert_eq!(unregistered_driver(mid), Some("tpu.google.com"));
        let timeout = "Failed to prepare dynamic resources: NodePrepareResources: rpc error: code = DeadlineExceeded desc = context deadline exceeded";
        assert_eq!(unregistered_driver(timeout), None);
        // Another component's "is not registered" is not the kubelet's.
        assert_eq!(
            unregistered_driver("storage driver x is not registered"),
            None
        );
    }
}
