//! `resource.k8s.io/v1beta1` (and v1alpha3) to v1, as the apiserver converts
//! it (`pkg/apis/resource/v1beta1/conversion.go`): device fields move out of
//! `basic`; a request's own fields move into `exactly` when any of them is set
//! (`hasAnyMainRequestFieldsSet`), also beside `firstAvailable`, so that v1
//! validation reports the one-of error at the request; a slice's empty
//! `nodeName` and `allNodes: false` become unset
//! (`Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec`).
//! Nodes are moved, not copied, so findings still point at the user's lines.

use crate::model::ObjectKind;
use crate::tree::{Entry, Node, Value};

pub(crate) const REQUEST_FIELDS: [&str; 8] = [
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
            if let Some(spec) = root.get_mut("spec") {
                // string and bool in v1beta1, pointers in the internal type.
                if spec.get("nodeName").is_some_and(|n| n.as_str() == Some("")) {
                    spec.remove("nodeName");
                }
                if spec
                    .get("allNodes")
                    .is_some_and(|n| n.as_bool() == Some(false))
                {
                    spec.remove("allNodes");
                }
            }
            let Some(devices) = root.get_mut("spec").and_then(|s| s.get_mut("devices")) else {
                return;
            };
            if let Value::Seq(devs) = &mut devices.value {
                for d in crate::tree::items_mut(devs).iter_mut() {
                    if let Some(basic) = d.remove("basic") {
                        let mut basic = basic.value;
                        if let (Value::Map(inner), Value::Map(outer)) =
                            (&mut basic.value, &mut d.value)
                        {
                            let inner = std::mem::take(inner).to_vec();
                            crate::tree::edit(outer, |o| o.extend(inner));
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
                for r in crate::tree::items_mut(reqs).iter_mut() {
                    let span = r.span;
                    let mut moved: Vec<Entry> = Vec::new();
                    let mut key_span = None;
                    let mut any_set = false;
                    for f in REQUEST_FIELDS {
                        if let Some(e) = r.remove(f) {
                            any_set |= is_set(&e.value);
                            key_span.get_or_insert(e.key_span);
                            moved.push(e);
                        }
                    }
                    // Zero values alone leave `exactly` unset.
                    let key_span = key_span.filter(|_| any_set);
                    if let (Value::Map(outer), Some(ks)) = (&mut r.value, key_span) {
                        crate::tree::edit(outer, |o| {
                            o.push(Entry {
                                key: "exactly".into(),
                                key_span: ks,
                                value: Node::new(Value::Map(moved.into()), span),
                            })
                        });
                    }
                }
            }
        }
        _ => {}
    }
}

/// Whether a v1beta1 request field differs from its zero value (a string
/// not empty, a count not 0, a list or pointer not nil).
pub(crate) fn is_set(n: &Node) -> bool {
    match &n.value {
        Value::Null => false,
        Value::Str(s) => !s.is_empty(),
        Value::Int(i) => *i != 0,
        _ => true,
    }
}
