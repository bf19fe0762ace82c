//! Faults of the target release's scheduler that decide an answer.
//! kubectl-dra allocates as that scheduler does, faults included, and says
//! which fault is in play, so the operator reads a surprising pick as
//! the release's, not the claim's.

use serde::Serialize;

use crate::gates::{FeatureGates, Version};
use crate::model::Object;
use crate::tree::Node;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FaultKind {
    /// allocationMode All inside firstAvailable in 1.34 and 1.35
    /// (kubernetes/dynamic-resource-allocation e0e0199, fixed in 1.36).
    FirstAvailableAll,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReleaseFault {
    pub kind: FaultKind,
    /// `ns/claim`.
    pub claim: String,
    pub request: String,
    /// The release the answer is for, and the first without the fault.
    pub release: Version,
    pub fixed_in: Version,
    /// The upstream commit that fixed it.
    pub fix: &'static str,
}

impl ReleaseFault {
    pub fn text(&self) -> String {
        match self.kind {
            FaultKind::FirstAvailableAll => format!(
                "request {} of claim {} asks for all devices inside firstAvailable, which kube-scheduler {} mishandles (fixed in {}, kubernetes {}): an All subrequest may take the devices of the subrequest before it, a count subrequest the selector answers of the All one after it, and an All subrequest after the first gets one device, then what the first asks for. The answer is that scheduler's.",
                self.request, self.claim, self.release, self.fixed_in, self.fix
            ),
        }
    }
}

/// The faults of `gates`' release that `claims` meet.
pub fn release_faults(claims: &[&Object], gates: &FeatureGates) -> Vec<ReleaseFault> {
    if gates.version >= Version::V1_36 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for claim in claims {
        let requests = claim
            .spec()
            .and_then(|s| s.get("devices"))
            .and_then(|d| d.get("requests"))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        for r in requests {
            let subs = r
                .get("firstAvailable")
                .and_then(Node::as_seq)
                .unwrap_or_default();
            let all = subs
                .iter()
                .any(|s| s.get("allocationMode").and_then(Node::as_str) == Some("All"));
            if all {
                out.push(ReleaseFault {
                    kind: FaultKind::FirstAvailableAll,
                    claim: format!(
                        "{}/{}",
                        claim.namespace_or_default(),
                        claim.name().unwrap_or_default()
                    ),
                    request: r
                        .get("name")
                        .and_then(Node::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    release: gates.version,
                    fixed_in: Version::V1_36,
                    fix: "e0e0199",
                });
            }
        }
    }
    out
}
