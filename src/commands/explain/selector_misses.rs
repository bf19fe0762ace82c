//! Causes where selectors keep every device of a group of nodes out get
//! the selector term that does, and what those devices hold instead
//! (`dra_core::selector_miss`): the defect, not only the culprit.

use std::collections::HashSet;

use dra_core::cel::Env;
use dra_core::dra::{Claim, RequestBody};
use dra_core::gates::FeatureGates;
use dra_core::inventory::{self, InventoryDevice};
use dra_core::model::{Object, ObjectKind};
use dra_core::selector_miss::diagnose;
use dra_core::verdict::{CauseKind, Verdict};

pub fn attach(v: &mut Verdict, objects: &[Object], claims: &[&Object], gates: &FeatureGates) {
    let selectors_cause = |k: CauseKind| {
        matches!(
            k,
            CauseKind::ClassSelectors | CauseKind::RequestSelectors | CauseKind::NoClassDevices
        )
    };
    if !v.causes.iter().any(|c| selectors_cause(c.kind)) {
        return;
    }
    let list_types = dra_core::cel::list_values_converted(gates);
    let node_names: HashSet<&str> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(Object::name)
        .collect();
    // The scheduler evaluates stored selectors.
    let env = Env::stored(gates);
    for c in v.causes.iter_mut().filter(|c| selectors_cause(c.kind)) {
        let Some(facts) = &c.facts else { continue };
        let (Some(claim), Some(request)) = (facts["claim"].as_str(), facts["request"].as_str())
        else {
            continue;
        };
        let Some(claim) = claims.iter().find(|o| {
            o.name()
                .is_some_and(|n| format!("{}/{n}", o.namespace_or_default()) == claim)
        }) else {
            continue;
        };
        let typed = Claim::decode(claim);
        let (parent, sub) = request.split_once('/').unwrap_or((request, ""));
        let Some(body) = typed
            .requests
            .iter()
            .find(|r| r.name == parent)
            .and_then(|r| match &r.body {
                RequestBody::Exactly(e) if sub.is_empty() => Some(e),
                RequestBody::FirstAvailable(subs) => subs.iter().find(|s| s.name == sub),
                _ => None,
            })
        else {
            continue;
        };
        let Some(class) = objects.iter().find(|o| {
            o.kind == ObjectKind::DeviceClass && o.name() == Some(body.device_class_name)
        }) else {
            continue;
        };
        let class_selectors = inventory::class_selectors(class);
        let own: Vec<String> = body
            .selectors
            .iter()
            .filter_map(|s| s.expression.map(str::to_owned))
            .collect();
        // Nodes without the class's devices are common (CPU nodes in a GPU
        // cluster): for them it is a defect only when no device anywhere
        // passes the class, so every device counts as theirs.
        let everywhere = c.kind == CauseKind::NoClassDevices;
        let here: HashSet<&str> = c.nodes.iter().map(String::as_str).collect();
        let stream = |f: &mut dyn FnMut(&InventoryDevice, bool)| {
            inventory::for_each_device(
                objects,
                list_types,
                |_| true,
                |d| {
                    // Devices of slices for many nodes (a node selector, all
                    // nodes) are on these nodes too.
                    let mine = everywhere
                        || here.contains(d.node.as_str())
                        || !node_names.contains(d.node.as_str());
                    f(&d, mine)
                },
            )
        };
        let own: &[String] = if everywhere { &[] } else { &own };
        let miss = diagnose(
            Some((body.device_class_name, &class_selectors)),
            own,
            &stream,
            &env,
        );
        c.selector_miss = miss;
    }
}
