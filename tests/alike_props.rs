//! Nodes alike share one search (`Allocator::on_nodes`): on generated
//! fleets, every node's shared answer must equal its own search. Each node
//! gets one of a few generated inventories (tests/support/alloc_model.rs),
//! renamed to it, with string attributes of its own (so that constraints
//! compare them by pattern), and some nodes hold a device another claim
//! has allocated.

#[path = "support/alloc_model.rs"]
mod alloc_model;

use std::sync::Arc;

use dra_core::allocate::{Allocator, Cluster};
use dra_core::gates::{FeatureGates, Version};
use dra_core::model::{parse_file, Object, ObjectKind};
use proptest::prelude::*;
use serde_json::{json, Value};

const NODES: usize = 34;

/// Case `case`'s slices (and its held claim) as node `node`'s: its own
/// pool, slice and claim names, and its NUMA values as strings of its own.
fn node_objects(case: &alloc_model::Case, node: &str, own_values: bool, flip: bool) -> Vec<Value> {
    let mut out = Vec::new();
    for mut o in case.objects() {
        match o["kind"].as_str() {
            Some("ResourceSlice") => {
                let name = format!("{}-{node}", o["metadata"]["name"].as_str().unwrap_or("s"));
                o["metadata"]["name"] = json!(name);
                o["spec"]["nodeName"] = json!(node);
                o["spec"]["pool"]["name"] = json!(node);
                let devices = o["spec"].get_mut("devices").and_then(Value::as_array_mut);
                if let Some(devices) = devices {
                    for (i, d) in devices.iter_mut().enumerate() {
                        let mut numa = d["attributes"]["numa"]["int"].as_i64().unwrap_or(0);
                        // The same devices, grouped otherwise by NUMA node.
                        if flip && i == 0 {
                            numa = 1 - numa;
                        }
                        d["attributes"]["numa"] = json!({"int": numa});
                        if own_values {
                            d["attributes"]["numa"] = json!({"string": format!("v-{node}-{numa}")});
                        }
                    }
                }
                out.push(o);
            }
            Some("ResourceClaim") if o["metadata"]["name"] == "other" => {
                o["metadata"]["name"] = json!(format!("other-{node}"));
                o["status"]["allocation"]["devices"]["results"][0]["pool"] = json!(node);
                out.push(o);
            }
            _ => {}
        }
    }
    out
}

fn check(cases: &[alloc_model::Case], pick: &[u8], own_values: bool) -> Result<(), String> {
    let nodes: Vec<String> = (0..NODES).map(|i| format!("w{i}")).collect();
    let mut objects: Vec<Value> = cases[0]
        .objects()
        .into_iter()
        .filter(|o| {
            o["kind"] == "DeviceClass"
                || (o["kind"] == "ResourceClaim" && o["metadata"]["name"] != "other")
        })
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        let p = pick[i % pick.len()];
        let case = &cases[usize::from(p & 0x7f) % cases.len()];
        objects.extend(node_objects(case, n, own_values, p & 0x80 != 0));
    }
    let text = objects
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n---\n");
    let objects: Vec<Object> = parse_file(0, &text, dra_core::yaml::Limits::default()).objects;
    let gates = FeatureGates::defaults(Version::V1_37);
    let claims: Vec<&Object> = objects
        .iter()
        .filter(|o| {
            o.kind == ObjectKind::ResourceClaim && !o.name().is_some_and(|n| n.starts_with("other"))
        })
        .collect();
    let shared = Allocator::over(Arc::new(Cluster::new(&objects)), &gates, &claims);
    let together = shared.on_nodes(&nodes);
    let alone = Allocator::new(&objects, &gates, &claims);
    for (n, o) in nodes.iter().zip(&together) {
        let own = alone.on_node(n);
        if *o != own {
            return Err(format!("{n}: shared {o:?}\nown {own:?}"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn a_shared_answer_is_each_nodes_own(
        data in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 16..128), 1..4),
        pick in proptest::collection::vec(any::<u8>(), 1..8),
        own_values in any::<bool>(),
    ) {
        let cases: Vec<alloc_model::Case> =
            data.iter().filter_map(|d| alloc_model::Case::from_bytes(d)).collect();
        if !cases.is_empty() {
            if let Err(e) = check(&cases, &pick, own_values) {
                prop_assert!(false, "{e}\n{cases:#?}");
            }
        }
    }
}

/// Half the nodes have their first device on the other NUMA node: a claim
/// for two devices of one NUMA node picks other devices there, although
/// the nodes' pools differ only in values a constraint compares.
#[test]
fn equality_patterns_tell_nodes_apart() {
    use alloc_model::{Case, ClaimSpec, Dev, Req};
    let dev = |numa| Dev {
        model: 0,
        numa,
        tainted: false,
        consumes: 0,
    };
    let case = Case {
        devices: vec![dev(0), dev(0), dev(1)],
        counter_total: 0,
        claims: vec![ClaimSpec {
            requests: vec![Req {
                count: 2,
                all: false,
                model: None,
            }],
            same_numa: true,
        }],
        held: None,
    };
    for own_values in [true, false] {
        check(std::slice::from_ref(&case), &[0x00, 0x80], own_values).unwrap();
    }
}
