//! `kubectl dra rbac --for ...`: the least-privilege ClusterRole of each
//! DRA persona, for the target release.

use super::{PREFIX_ARBITRARY, PREFIX_ASSOCIATED};
use crate::gates::{FeatureGates, Gate};

/// Who a least-privilege ClusterRole is for (`kubectl dra rbac --for`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persona {
    /// A node-local DRA driver (kubelet plugin, DaemonSet).
    Driver,
    /// A control-plane or multi-node controller that writes `status.devices`.
    Controller,
    /// A custom allocation controller or scheduler: `status.allocation` and
    /// `status.reservedFor`.
    Allocator,
    /// kubectl-dra itself: read-only.
    KubectlDra,
}

/// The least-privilege ClusterRole for `persona` in Kubernetes `version`, as YAML.
pub fn least_privilege(persona: Persona, gates: &FeatureGates, driver: &str) -> String {
    let version = gates.version;
    let inert = if gates.enabled(Gate::DRAResourceClaimGranularStatusAuthorization) {
        String::new()
    } else {
        format!(
            "# Inert in Kubernetes {version} without DRAResourceClaimGranularStatusAuthorization;\n# needed from 1.36, where the gate is on by default. Keep it for upgrades.\n"
        )
    };
    let mut y =
        String::from("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n");
    let rule = |groups: &str, resources: &str, verbs: &str| {
        format!("- apiGroups: [{groups}]\n  resources: [{resources}]\n  verbs: [{verbs}]\n")
    };
    let slices = rule(
        "\"resource.k8s.io\"",
        "resourceslices",
        "get, list, watch, create, update, patch, delete",
    );
    let driver_rule = |prefix: &str| {
        format!(
            "{inert}- apiGroups: [\"resource.k8s.io\"]\n  resources: [resourceclaims/driver]\n  verbs: [\"{prefix}update\", \"{prefix}patch\"]\n  resourceNames: [{driver}]\n"
        )
    };
    match persona {
        Persona::Driver => {
            y.push_str(&format!("  name: {driver}-kubelet-plugin\n  # For the driver's DaemonSet (kubelet plugin). Bind it with a ClusterRoleBinding.\nrules:\n"));
            y.push_str("# Publish this node's devices.\n");
            y.push_str(&slices);
            y.push_str("# Owner references of node-local slices point at the Node.\n");
            y.push_str(&rule("\"\"", "nodes", "get"));
            y.push_str("# Read the claims it prepares.\n");
            y.push_str(&rule("\"resource.k8s.io\"", "resourceclaims", "get"));
            y.push_str("# Report device health and network data in status.devices.\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&driver_rule(PREFIX_ASSOCIATED));
        }
        Persona::Controller => {
            y.push_str(&format!("  name: {driver}-controller\n  # For a control-plane controller (Deployment) that writes status.devices of\n  # claims on any node. Bind it with a ClusterRoleBinding.\nrules:\n"));
            y.push_str("# Publish network-attached or multi-node pools.\n");
            y.push_str(&slices);
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims",
                "get, list, watch",
            ));
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&driver_rule(PREFIX_ARBITRARY));
        }
        Persona::Allocator => {
            y.push_str("  name: dra-allocator\n  # For a scheduler or allocation controller that sets status.allocation and\n  # status.reservedFor. The binding check is cluster-wide: bind it with a\n  # ClusterRoleBinding (a RoleBinding grants nothing here).\nrules:\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceslices, deviceclasses, resourceclaims",
                "get, list, watch",
            ));
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceclaims/status",
                "get, update, patch",
            ));
            y.push_str(&format!(
                "{inert}- apiGroups: [\"resource.k8s.io\"]\n  resources: [resourceclaims/binding]\n  verbs: [update, patch]\n"
            ));
        }
        Persona::KubectlDra => {
            y.push_str("  name: kubectl-dra-reader\n  # What kubectl-dra reads. It only ever gets and lists; it never writes.\nrules:\n");
            y.push_str(&rule(
                "\"resource.k8s.io\"",
                "resourceslices, deviceclasses, resourceclaims, resourceclaimtemplates, devicetaintrules",
                "get, list",
            ));
            y.push_str("# Node labels for node selectors; pods for `explain pod`; namespaces'\n# labels for pod affinity's namespace selectors; the kubelet's\n# FailedPrepareDynamicResources events for `doctor` (optional); the\n# volumes of pods that have PVCs (VolumeBinding, VolumeZone; optional).\n");
            y.push_str(&rule(
                "\"\"",
                "nodes, pods, namespaces, events, persistentvolumeclaims, persistentvolumes",
                "get, list",
            ));
            y.push_str(&rule("\"storage.k8s.io\"", "storageclasses", "get, list"));
            y.push_str("# Feature gates (kubernetes_feature_enabled). Optional: without it the\n# version's defaults are assumed.\n");
            y.push_str("- nonResourceURLs: [/metrics]\n  verbs: [get]\n");
        }
    }
    y
}
