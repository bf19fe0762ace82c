//! kube-scheduler's NodePorts filter (`framework/plugins/nodeports`,
//! `util.GetHostPorts`, `HostPortInfo.CheckConflict`; alike in 1.34-1.37):
//! a node is ruled out when a host port the pod asks for is taken there
//! by a pod bound to it. The host ports are those of the containers and of
//! the init containers that run beside them (`restartPolicy: Always`, PR
//! #132040, in 1.34). Pure.

use crate::model::Object;
use crate::tree::Node;

/// The scheduler's reason (`nodeports.ErrReason`).
pub const REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// A container port with a host port: (host IP, protocol, port), with the
/// defaults `CheckConflict` sanitizes to (`0.0.0.0`, `TCP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostPort<'a> {
    ip: &'a str,
    protocol: &'a str,
    port: i64,
}

const ANY_IP: &str = "0.0.0.0";

/// `util.GetHostPorts`: the ports with a host port above zero.
fn host_ports(pod: &Object) -> Vec<HostPort<'_>> {
    let Some(spec) = pod.pod_spec() else {
        return Vec::new();
    };
    let sidecars = spec
        .get("initContainers")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|c| c.get("restartPolicy").and_then(Node::as_str) == Some("Always"));
    let containers = spec
        .get("containers")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter();
    sidecars
        .chain(containers)
        .flat_map(|c| c.get("ports").and_then(Node::as_seq).unwrap_or_default())
        .filter_map(|p| {
            let port = p
                .get("hostPort")
                .and_then(Node::as_i64)
                .filter(|p| *p > 0)?;
            let text = |k: &str, default: &'static str| {
                p.get(k)
                    .and_then(Node::as_str)
                    .filter(|s| !s.is_empty())
                    .unwrap_or(default)
            };
            Some(HostPort {
                ip: text("hostIP", ANY_IP),
                protocol: text("protocol", "TCP"),
                port,
            })
        })
        .collect()
}

/// `HostPortInfo.CheckConflict`: the same protocol and port on the same
/// IP, where `0.0.0.0` on either side is every IP.
fn conflicts(want: &HostPort<'_>, used: &HostPort<'_>) -> bool {
    want.protocol == used.protocol
        && want.port == used.port
        && (want.ip == ANY_IP || used.ip == ANY_IP || want.ip == used.ip)
}

/// PreFilter's state: the host ports the pod asks for.
pub struct NodePorts<'a> {
    wanted: Vec<HostPort<'a>>,
}

impl<'a> NodePorts<'a> {
    /// PreFilter; `None` where it returns Skip (the pod asks for no host
    /// port).
    pub fn prefilter(pod: &'a Object) -> Option<NodePorts<'a>> {
        let wanted = host_ports(pod);
        (!wanted.is_empty()).then_some(NodePorts { wanted })
    }

    /// Filter: whether a host port is taken by one of `bound`, the pods
    /// bound to the node.
    pub fn taken<'b>(&self, bound: impl IntoIterator<Item = &'b Object>) -> bool {
        let used: Vec<HostPort<'b>> = bound.into_iter().flat_map(host_ports).collect();
        self.wanted
            .iter()
            .any(|w| used.iter().any(|u| conflicts(w, u)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pods(text: &str) -> Vec<Object> {
        crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects
    }

    fn pod(ports: &str, init: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ml}}\nspec:\n  initContainers: [{init}]\n  containers:\n  - name: c\n    ports: {ports}\n---\n"
        )
    }

    /// TestNodePorts' cases: the same port and protocol conflict on the
    /// same IP or where either side binds every IP; another protocol or
    /// another specific IP does not; a port without hostPort asks for
    /// nothing.
    #[test]
    fn conflicts_as_check_conflict_does() {
        let case = |want: &str, used: &str| {
            let objects = pods(&format!("{}{}", pod(want, ""), pod(used, "")));
            let state = NodePorts::prefilter(&objects[0])?;
            Some(state.taken([&objects[1]]))
        };
        assert_eq!(
            case(
                "[{containerPort: 80}]",
                "[{containerPort: 80, hostPort: 80}]"
            ),
            None
        );
        assert_eq!(
            case(
                "[{containerPort: 80, hostPort: 8080}]",
                "[{containerPort: 1, hostPort: 8080}]"
            ),
            Some(true)
        );
        assert_eq!(
            case(
                "[{containerPort: 80, hostPort: 8080, protocol: UDP}]",
                "[{containerPort: 1, hostPort: 8080}]"
            ),
            Some(false)
        );
        assert_eq!(
            case(
                "[{containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1}]",
                "[{containerPort: 1, hostPort: 8080, hostIP: 10.0.0.2}]"
            ),
            Some(false)
        );
        assert_eq!(
            case(
                "[{containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1}]",
                "[{containerPort: 1, hostPort: 8080}]"
            ),
            Some(true)
        );
        assert_eq!(
            case(
                "[{containerPort: 80, hostPort: 8080}]",
                "[{containerPort: 1, hostPort: 8080, hostIP: 10.0.0.2}]"
            ),
            Some(true)
        );
    }

    /// A sidecar's host port counts, on both sides; a plain init
    /// container's does not (it has finished before the pod runs).
    #[test]
    fn sidecars_hold_their_ports() {
        let sidecar =
            "{name: s, restartPolicy: Always, ports: [{containerPort: 1, hostPort: 9000}]}";
        let plain = "{name: s, ports: [{containerPort: 1, hostPort: 9000}]}";
        let want = pod("[{containerPort: 1, hostPort: 9000}]", "");
        let objects = pods(&format!("{want}{}", pod("[]", sidecar)));
        assert!(NodePorts::prefilter(&objects[0])
            .unwrap()
            .taken([&objects[1]]));
        let objects = pods(&format!("{want}{}", pod("[]", plain)));
        assert!(!NodePorts::prefilter(&objects[0])
            .unwrap()
            .taken([&objects[1]]));
        let objects = pods(&pod("[]", sidecar));
        assert!(NodePorts::prefilter(&objects[0]).is_some());
    }
}
