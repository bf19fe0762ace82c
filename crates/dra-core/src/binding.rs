//! Whether an allocated claim is still usable for binding, as kube-scheduler's
//! Filter asks before it admits a node (DRADeviceBindingConditions with
//! DRAResourceClaimDeviceStatus; pkg/scheduler/framework/plugins/
//! dynamicresources/dynamicresources.go `Filter`, `isClaimReadyForBinding`,
//! `isClaimTimeout`). A claim whose device binding failed, or did not
//! finish within the binding timeout, is "not available on the node" on
//! every node; PostFilter then deallocates it (when no other pod has it
//! reserved) so that the next attempt allocates it again.

use crate::dra::Claim;
use crate::gates::{FeatureGates, Gate};
use crate::tree::Node;

/// Whether kube-scheduler handles binding conditions: the plugin's
/// `enableDeviceBindingConditions && enableDeviceStatus`.
pub fn enabled(gates: &FeatureGates) -> bool {
    gates.enabled(Gate::DRADeviceBindingConditions)
        && gates.enabled(Gate::DRAResourceClaimDeviceStatus)
}

/// The `status.devices` entry of a device (`getAllocatedDeviceStatus`).
fn device_status<'t>(
    statuses: &'t [Node],
    driver: &str,
    pool: &str,
    device: &str,
) -> Option<&'t Node> {
    statuses.iter().find(|s| {
        field(s, "driver") == driver && field(s, "pool") == pool && field(s, "device") == device
    })
}

/// The first condition of that type (`apimeta.FindStatusCondition`).
fn condition<'t>(status: Option<&'t Node>, kind: &str) -> Option<&'t Node> {
    status?
        .get("conditions")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .find(|c| field(c, "type") == kind)
}

/// Whether the condition is there with status True.
fn is_true(status: Option<&Node>, kind: &str) -> bool {
    condition(status, kind).is_some_and(|c| field(c, "status") == "True")
}

/// A string field of a status entry; `""` when unset.
fn field<'t>(n: &'t Node, key: &str) -> &'t str {
    n.get(key).and_then(Node::as_str).unwrap_or_default()
}

/// `BindingTimeoutDefaultSeconds` (the plugin's default binding timeout).
pub const BINDING_TIMEOUT_SECONDS: i64 = 600;

/// Why Filter finds an allocated claim not available.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "why")]
pub enum NotReady {
    /// A binding failure condition of a device is True.
    Failed {
        /// `driver/pool/device`.
        device: String,
        condition: String,
        reason: String,
        message: String,
    },
    /// The binding conditions are not all True `timeoutSeconds` after the
    /// allocation's `allocationTimestamp`.
    TimedOut {
        allocated_at: String,
        timeout_seconds: i64,
    },
}

impl NotReady {
    /// In words, for the claim `claim` (`namespace/name`).
    pub fn describe(&self, claim: &str) -> String {
        let then = "kube-scheduler finds the claim not available on any node (\"resourceclaim not available on the node\") and deallocates it after the attempt (PostFilter, unless another pod has it reserved)";
        match self {
            NotReady::Failed {
                device,
                condition,
                reason,
                message,
            } => format!(
                "claim {claim}: binding failed on device {device}: its binding failure condition {condition} is True (reason {reason:?}, message {message:?}); {then}"
            ),
            NotReady::TimedOut {
                allocated_at,
                timeout_seconds,
            } => format!(
                "claim {claim}: its devices' binding conditions are not all True {timeout_seconds} s after it was allocated ({allocated_at}): the binding timed out; {then}"
            ),
        }
    }
}

/// Why Filter finds the allocated claim not available, or `None` when it
/// is ready, still binding within the timeout, not allocated, or the gates
/// are off. `now` is nanoseconds since the epoch (the caller reads the
/// clock); without it no timeout is judged.
pub fn not_ready(claim: &Claim<'_>, gates: &FeatureGates, now: Option<i128>) -> Option<NotReady> {
    if !enabled(gates) {
        return None;
    }
    let allocation = claim.allocation.as_ref()?;
    let statuses = claim
        .object
        .root
        .get("status")
        .and_then(|s| s.get("devices"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    // isClaimReadyForBinding: result by result, the first one without a
    // status or with a condition not True settles "not ready".
    let mut ready = true;
    for r in &allocation.results {
        let Some(conditions) = r.binding_conditions.as_ref().filter(|c| !c.is_empty()) else {
            continue;
        };
        let (driver, pool, device) = (
            r.driver.unwrap_or_default(),
            r.pool.unwrap_or_default(),
            r.device.unwrap_or_default(),
        );
        let Some(status) = device_status(statuses, driver, pool, device) else {
            ready = false;
            break;
        };
        for failure in r.binding_failure_conditions.iter().flatten() {
            if let Some(c) =
                condition(Some(status), failure).filter(|c| field(c, "status") == "True")
            {
                return Some(NotReady::Failed {
                    device: format!("{driver}/{pool}/{device}"),
                    condition: (*failure).to_owned(),
                    reason: field(c, "reason").to_owned(),
                    message: field(c, "message").to_owned(),
                });
            }
        }
        if !conditions.iter().all(|t| is_true(Some(status), t)) {
            ready = false;
            break;
        }
    }
    if ready {
        return None;
    }
    // isClaimTimeout: a result that has binding conditions at all (an empty
    // list counts) and the allocation older than the timeout.
    let now = now?;
    let stamp = allocation
        .node
        .get("allocationTimestamp")
        .and_then(Node::as_str)?;
    let (at, _) = crate::cel::time::parse_timestamp(stamp).ok()?;
    let has_conditions = allocation
        .results
        .iter()
        .any(|r| r.binding_conditions.is_some());
    let deadline = at.checked_add(i128::from(BINDING_TIMEOUT_SECONDS) * 1_000_000_000)?;
    (has_conditions && deadline < now).then(|| NotReady::TimedOut {
        allocated_at: stamp.to_owned(),
        timeout_seconds: BINDING_TIMEOUT_SECONDS,
    })
}

/// A device of the allocation the pod gets whose binding conditions are not
/// all True yet: kube-scheduler's PreBind waits for them (polling every 5 s,
/// event `BindingConditionsPending`) for up to the binding timeout after
/// the allocation, and the pod stays Pending meanwhile.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BindingWait {
    /// `namespace/name`.
    pub claim: String,
    /// `driver/pool/device`.
    pub device: String,
    /// The binding conditions not True yet (all of them for an allocation
    /// the scheduler is about to make).
    pub waiting_for: Vec<String>,
    /// The claim's `allocationTimestamp`, when it is allocated already.
    pub allocated_at: Option<String>,
    pub timeout_seconds: i64,
}

/// The devices of `claims` (the allocation on the node the pod goes to)
/// whose binding the scheduler waits for; none with the gates off.
pub fn waits(
    objects: &[crate::model::Object],
    gates: &FeatureGates,
    claims: &[crate::allocate::ClaimAllocation],
) -> Vec<BindingWait> {
    if !enabled(gates) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in claims {
        let object = objects.iter().find(|o| {
            o.kind == crate::model::ObjectKind::ResourceClaim
                && o.namespace_or_default() == c.namespace.as_str()
                && o.name() == Some(c.name.as_str())
        });
        let status = object.and_then(|o| o.root.get("status"));
        let allocated_at = status
            .filter(|_| c.existing)
            .and_then(|s| s.get("allocation"))
            .and_then(|a| a.get("allocationTimestamp"))
            .and_then(Node::as_str);
        let devices = status
            .filter(|_| c.existing)
            .and_then(|s| s.get("devices"))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        for r in &c.results {
            let Some(conditions) = r.binding_conditions.as_ref().filter(|v| !v.is_empty()) else {
                continue;
            };
            let status = device_status(devices, &r.driver, &r.pool, &r.device);
            let waiting_for: Vec<String> = conditions
                .iter()
                .filter(|t| !is_true(status, t))
                .cloned()
                .collect();
            if waiting_for.is_empty() {
                continue;
            }
            out.push(BindingWait {
                claim: format!("{}/{}", c.namespace, c.name),
                device: format!("{}/{}/{}", r.driver, r.pool, r.device),
                waiting_for,
                allocated_at: allocated_at.map(str::to_owned),
                timeout_seconds: BINDING_TIMEOUT_SECONDS,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::Version;
    use crate::lint::{load_objects, SourceFile};

    /// A claim allocated at 2026-01-01T00:00:00Z to one device with binding
    /// condition Attached and failure condition Failed, whose status has
    /// these conditions.
    fn claim(conditions: &str) -> Vec<crate::model::Object> {
        let text = format!(
            "apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec: {{devices: {{requests: [{{name: r, exactly: {{deviceClassName: x}}}}]}}}}
status:
  allocation:
    allocationTimestamp: '2026-01-01T00:00:00Z'
    devices:
      results:
      - {{request: r, driver: d.example.com, pool: p, device: x0, bindingConditions: [Attached], bindingFailureConditions: [Failed]}}
  devices:
  - {{driver: d.example.com, pool: p, device: x0, conditions: [{conditions}]}}
"
        );
        load_objects(
            &[SourceFile {
                name: "c.yaml".into(),
                text,
            }],
            Default::default(),
        )
        .0
    }

    fn on() -> FeatureGates {
        let mut g = FeatureGates::defaults(Version::V1_37);
        g.set("DRADeviceBindingConditions", true).unwrap();
        g.set("DRAResourceClaimDeviceStatus", true).unwrap();
        g
    }

    /// 2026-01-01T00:00:00Z plus `seconds`, in nanoseconds.
    fn at(seconds: i128) -> Option<i128> {
        let (t, _) = crate::cel::time::parse_timestamp("2026-01-01T00:00:00Z").unwrap();
        Some(t + seconds * 1_000_000_000)
    }

    fn judge(conditions: &str, gates: &FeatureGates, now: Option<i128>) -> Option<NotReady> {
        let objects = claim(conditions);
        not_ready(&Claim::decode(&objects[0]), gates, now)
    }

    #[test]
    fn a_true_failure_condition_makes_the_claim_unavailable() {
        let failed = "{type: Failed, status: 'True', reason: NoPath, message: port down}";
        assert_eq!(
            judge(failed, &on(), None),
            Some(NotReady::Failed {
                device: "d.example.com/p/x0".into(),
                condition: "Failed".into(),
                reason: "NoPath".into(),
                message: "port down".into(),
            })
        );
        // The gate off: the scheduler does not look.
        let mut off = on();
        off.set("DRADeviceBindingConditions", false).unwrap();
        assert_eq!(judge(failed, &off, None), None);
    }

    #[test]
    fn binding_not_done_within_the_timeout_makes_it_unavailable() {
        let pending = "{type: Attached, status: 'False'}";
        assert_eq!(judge(pending, &on(), at(600)), None);
        assert_eq!(
            judge(pending, &on(), at(601)),
            Some(NotReady::TimedOut {
                allocated_at: "2026-01-01T00:00:00Z".into(),
                timeout_seconds: 600
            })
        );
        // Without a clock no timeout is judged.
        assert_eq!(judge(pending, &on(), None), None);
        // Bound in time: ready, however late it is now.
        let bound = "{type: Attached, status: 'True'}";
        assert_eq!(judge(bound, &on(), at(10_000)), None);
    }

    #[test]
    fn the_allocation_waits_for_conditions_not_true_yet() {
        let objects = claim("{type: Attached, status: 'False'}");
        let c = Claim::decode(&objects[0]);
        let allocation = crate::allocate::existing_for_tests(&c);
        let w = waits(&objects, &on(), &[allocation]);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].waiting_for, ["Attached"]);
        assert_eq!(w[0].allocated_at.as_deref(), Some("2026-01-01T00:00:00Z"));
        // Once True, nothing to wait for.
        let objects = claim("{type: Attached, status: 'True'}");
        let c = Claim::decode(&objects[0]);
        let bound = crate::allocate::existing_for_tests(&c);
        assert!(waits(&objects, &on(), &[bound]).is_empty());
    }
}
