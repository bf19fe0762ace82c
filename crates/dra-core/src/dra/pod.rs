//! A Pod's claims (`spec.resourceClaims`), each with what it refers to and,
//! for a template, the claim generated from it as the Pod's status records
//! it (`status.resourceClaimStatuses`).

use super::{list, opt_text, text};
use crate::model::Object;
use crate::tree::Node;

/// The claims of a Pod (or of a workload's pod template).
#[derive(Debug)]
pub struct PodClaims<'t> {
    pub object: &'t Object,
    pub claims: Vec<PodClaim<'t>>,
}

/// One entry of `spec.resourceClaims`.
#[derive(Debug)]
pub struct PodClaim<'t> {
    pub node: &'t Node,
    /// The name containers use for it; `""` when unset.
    pub name: &'t str,
    pub source: PodClaimSource<'t>,
    /// For a template: the claim the resourceclaim controller generated for
    /// it, when the Pod's status names one.
    pub generated: Option<&'t str>,
    /// For a template: the Pod's status has an entry for it. An entry
    /// without a claim name means no claim was needed (the scheduler skips
    /// it); no entry, that the claim was not created yet.
    pub recorded: bool,
}

/// What a pod claim refers to. `resourceClaimName` wins when both are set
/// (the apiserver allows exactly one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PodClaimSource<'t> {
    Claim(&'t str),
    Template(&'t str),
    Unset,
}

impl<'t> PodClaims<'t> {
    pub fn decode(object: &'t Object) -> Self {
        let statuses = object
            .root
            .get("status")
            .map(|s| list(s, "resourceClaimStatuses"))
            .unwrap_or_default();
        let status = |name: &str| statuses.iter().find(|s| opt_text(s, "name") == Some(name));
        let claims = object
            .pod_spec()
            .map(|spec| list(spec, "resourceClaims"))
            .unwrap_or_default()
            .iter()
            .map(|c| {
                let name = text(c, "name");
                let source = match (
                    opt_text(c, "resourceClaimName"),
                    opt_text(c, "resourceClaimTemplateName"),
                ) {
                    (Some(claim), _) => PodClaimSource::Claim(claim),
                    (None, Some(template)) => PodClaimSource::Template(template),
                    (None, None) => PodClaimSource::Unset,
                };
                let entry = match source {
                    PodClaimSource::Template(_) => status(name),
                    _ => None,
                };
                PodClaim {
                    node: c,
                    name,
                    source,
                    generated: entry.and_then(|s| opt_text(s, "resourceClaimName")),
                    recorded: entry.is_some(),
                }
            })
            .collect();
        PodClaims { object, claims }
    }
}
