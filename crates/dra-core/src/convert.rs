//! `resource.k8s.io/v1beta1` to v1, as the apiserver converts it: device
//! fields move out of `basic`, request fields into `exactly`. Nodes are moved,
//! not copied, so findings still point at the user's lines.

use crate::model::ObjectKind;
use crate::tree::{Entry, Node, Value};

const REQUEST_FIELDS: [&str; 8] = [
    "deviceClassName",
    "selectors",
    "allocationMode",
    "count",
    "adminAccess",
    "tolerations",
    "capacity",
    "derivedAttributes",
];

pub fn v1beta1_to_v1(kind: ObjectKind, root: &mut Node) {
    match kind {
        ObjectKind::ResourceSlice => {
            let Some(devices) = root.get_mut("spec").and_then(|s| s.get_mut("devices")) else {
                return;
            };
            if let Value::Seq(devs) = &mut devices.value {
                for d in devs.iter_mut() {
                    if let Some(basic) = d.remove("basic") {
                        let mut basic = basic.value;
                        if let (Value::Map(inner), Value::Map(outer)) =
                            (&mut basic.value, &mut d.value)
                        {
                            outer.append(inner);
                        }
                    }
                }
            }
        }
        ObjectKind::ResourceClaim | ObjectKind::ResourceClaimTemplate => {
            let spec = if kind == ObjectKind::ResourceClaim {
                root.get_mut("spec")
            } else {
                root.get_mut("spec").and_then(|s| s.get_mut("spec"))
            };
            let Some(reqs) = spec
                .and_then(|s| s.get_mut("devices"))
                .and_then(|d| d.get_mut("requests"))
            else {
                return;
            };
            if let Value::Seq(reqs) = &mut reqs.value {
                for r in reqs.iter_mut() {
                    if r.get("firstAvailable").is_some() {
                        continue;
                    }
                    let span = r.span;
                    let mut moved: Vec<Entry> = Vec::new();
                    let mut key_span = None;
                    for f in REQUEST_FIELDS {
                        if let Some(e) = r.remove(f) {
                            key_span.get_or_insert(e.key_span);
                            moved.push(e);
                        }
                    }
                    if let (Value::Map(outer), Some(ks)) = (&mut r.value, key_span) {
                        outer.push(Entry {
                            key: "exactly".into(),
                            key_span: ks,
                            value: Node::new(Value::Map(moved), span),
                        });
                    }
                }
            }
        }
        _ => {}
    }
}
