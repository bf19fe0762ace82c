//! Causes where selectors keep every device of a group of nodes out get
//! the selector term that does, and what those devices hold instead
//! (`dra_core::selector_miss`): the defect, not only the culprit. For a
//! `firstAvailable` request none of whose alternatives fits, the first
//! alternative that fails by its selectors is named.

use std::collections::HashSet;

use dra_core::cel::Env;
use dra_core::dra::{Claim, DeviceRequest, RequestBody};
use dra_core::gates::FeatureGates;
use dra_core::inventory::{self, InventoryDevice};
use dra_core::model::{Object, ObjectKind};
use dra_core::selector_miss::{diagnose, SelectorMiss};
use dra_core::verdict::{Cause, CauseKind, Verdict};

pub fn attach(v: &mut Verdict, objects: &[Object], claims: &[&Object], gates: &FeatureGates) {
    let selectors_cause = |k: CauseKind| {
        matches!(
            k,
            CauseKind::ClassSelectors
                | CauseKind::RequestSelectors
                | CauseKind::NoClassDevices
                | CauseKind::Alternatives
        )
    };
    if !v.causes.iter().any(|c| selectors_cause(c.kind)) {
        return;
    }
    let inv = Inventory {
        objects,
        list_types: dra_core::cel::list_values_converted(gates),
        node_names: objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Node)
            .filter_map(Object::name)
            .collect(),
        // The scheduler evaluates stored selectors.
        env: Env::stored(gates),
    };
    for c in v.causes.iter_mut().filter(|c| selectors_cause(c.kind)) {
        let Some((claim, request)) = claim_and_request(c) else {
            continue;
        };
        let Some(claim) = claims.iter().find(|o| {
            o.name()
                .is_some_and(|n| format!("{}/{n}", o.namespace_or_default()) == claim)
        }) else {
            continue;
        };
        let typed = Claim::decode(claim);
        let (parent, sub) = request.split_once('/').unwrap_or((request.as_str(), ""));
        let Some(r) = typed.requests.iter().find(|r| r.name == parent) else {
            continue;
        };
        c.selector_miss = match (&r.body, c.kind) {
            (RequestBody::FirstAvailable(subs), CauseKind::Alternatives) => {
                subs.iter().find_map(|s| {
                    let mut m = inv.miss(c, s, false)?;
                    m.alternative = Some(format!("{parent}/{}", s.name));
                    Some(m)
                })
            }
            (RequestBody::Exactly(e), _) if sub.is_empty() => {
                inv.miss(c, e, c.kind == CauseKind::NoClassDevices)
            }
            (RequestBody::FirstAvailable(subs), _) => subs
                .iter()
                .find(|s| s.name == sub)
                .and_then(|s| inv.miss(c, s, c.kind == CauseKind::NoClassDevices)),
            _ => None,
        };
    }
}

/// The claim (`ns/name`) and request (`req` or `req/sub`) a cause is about:
/// its facts, or for alternatives its subject (`ns/claim/request`).
fn claim_and_request(c: &Cause) -> Option<(String, String)> {
    if c.kind == CauseKind::Alternatives {
        let subject = c.subject.as_deref()?;
        let (claim, request) = subject.rsplit_once('/')?;
        return Some((claim.to_owned(), request.to_owned()));
    }
    let facts = c.facts.as_ref()?;
    Some((
        facts["claim"].as_str()?.to_owned(),
        facts["request"].as_str()?.to_owned(),
    ))
}

struct Inventory<'a> {
    objects: &'a [Object],
    list_types: bool,
    node_names: HashSet<&'a str>,
    env: Env,
}

impl Inventory<'_> {
    /// The miss of one (sub)request on the cause's nodes; `everywhere`: a
    /// class no device of the inventory passes, the request's own
    /// selectors aside. Nodes without the class's devices are common (CPU
    /// nodes in a GPU cluster): for them it is a defect only then.
    fn miss(&self, c: &Cause, body: &DeviceRequest<'_>, everywhere: bool) -> Option<SelectorMiss> {
        let class = self.objects.iter().find(|o| {
            o.kind == ObjectKind::DeviceClass && o.name() == Some(body.device_class_name)
        })?;
        let class_selectors = inventory::class_selectors(class);
        let own: Vec<String> = if everywhere {
            Vec::new()
        } else {
            body.selectors
                .iter()
                .filter_map(|s| s.expression.map(str::to_owned))
                .collect()
        };
        let here: HashSet<&str> = c.nodes.iter().map(String::as_str).collect();
        let stream = |f: &mut dyn FnMut(&InventoryDevice, bool)| {
            inventory::for_each_device(
                self.objects,
                self.list_types,
                |_| true,
                |d| {
                    // Devices of slices for many nodes (a node selector, all
                    // nodes) are on these nodes too.
                    let mine = everywhere
                        || here.contains(d.node.as_str())
                        || !self.node_names.contains(d.node.as_str());
                    f(&d, mine)
                },
            )
        };
        diagnose(
            Some((body.device_class_name, &class_selectors)),
            &own,
            &stream,
            &self.env,
        )
    }
}
