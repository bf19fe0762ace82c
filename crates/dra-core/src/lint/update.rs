//! What each release validates again when a file object updates a stored one
//! (`lint --stored`, `--cluster`). The per-object rules check an object as a
//! create; on update kube-apiserver's `Validate*Update` functions skip parts
//! of that, differently per release. This drops the findings of the parts a
//! release does not validate again.
//!
//! Read in the release copies of `pkg/apis/resource/validation/validation.go`
//! (listed in docs/development.md):
//! - `ValidateResourceClaimUpdate`: 1.34 (fabiendupont/kubernetes@291372b)
//!   checks immutability and validates the spec again, but not the name
//!   (`ValidateObjectMetaUpdate` only); from 1.35 (galal-hussein/kubernetes@
//!   ec20661, and the 1.36/1.37 copies) it validates the metadata
//!   (`ValidateObjectMeta`) and the spec's immutability, nothing else of the spec.
//! - `ValidateResourceClaimTemplateUpdate`: never the name; the spec again
//!   in 1.34 only.
//! - `ValidateDeviceClassUpdate`: the spec in every release; the name again
//!   from 1.35 only (the "TODO(lalitc375)" call to `ValidateObjectMetaWithOpts`).
//! - `ValidateResourceSliceUpdate`: never the name. `validateDevice` skips a
//!   device's taints when they equal those of the stored device of the same
//!   name from 1.35, and its capacity likewise from 1.37.
//! - `ValidateDeviceTaintRuleUpdate`: never the name (1.35+; 1.34 likewise).
//! - `ValidateResourcePoolStatusRequestUpdate` (1.36, 1.37): never the name,
//!   and the spec only for its immutability (declarative, ratcheting).
//!
//! Labels, annotations and the other metadata checks of
//! `ValidateObjectMetaUpdate` run in every release, so only `metadata.name`
//! is concerned.

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::gates::Version;
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

/// What `version` does not validate again when `obj` updates `old`: worked
/// out once per object, then applied to each apiserver rule's findings.
pub struct Skipped {
    /// `metadata.name` is not validated again.
    name: bool,
    /// Fields (and everything below them) not validated again.
    prefixes: Vec<String>,
}

impl Skipped {
    pub fn of(version: Version, obj: &Object, old: &Object) -> Skipped {
        skipped_paths(version, obj, old)
    }

    /// Drops from `found` (findings of an apiserver-validation rule on the
    /// object) what the release does not validate on this update.
    pub fn retain(&self, found: &mut Vec<Diagnostic>) {
        if self.prefixes.is_empty() && !self.name {
            return;
        }
        found.retain(|d| {
            let field = d.field.as_str();
            let name_skipped = self.name && field == "metadata.name";
            !name_skipped && !self.prefixes.iter().any(|p| is_within(field, p))
        });
    }
}

fn skipped_paths(version: Version, obj: &Object, old: &Object) -> Skipped {
    let from_1_35 = version >= Version::V1_35;
    match obj.kind {
        ObjectKind::ResourceClaim => Skipped {
            name: !from_1_35,
            prefixes: if from_1_35 {
                // Only the immutability error, reported at `spec` itself.
                vec!["spec.".to_owned()]
            } else {
                Vec::new()
            },
        },
        ObjectKind::ResourceClaimTemplate => Skipped {
            name: true,
            prefixes: if from_1_35 {
                vec!["spec.".to_owned()]
            } else {
                Vec::new()
            },
        },
        ObjectKind::DeviceClass => Skipped {
            name: !from_1_35,
            prefixes: Vec::new(),
        },
        ObjectKind::ResourceSlice => Skipped {
            name: true,
            prefixes: unchanged_device_parts(version, obj, old),
        },
        ObjectKind::DeviceTaintRule => Skipped {
            name: true,
            prefixes: Vec::new(),
        },
        // ValidateResourcePoolStatusRequestUpdate: the metadata update only;
        // the spec's tags ratchet (an unchanged spec is not validated again,
        // a changed one stops at `+k8s:immutable`, DRA-V224 at `spec`).
        ObjectKind::ResourcePoolStatusRequest => Skipped {
            name: true,
            prefixes: vec!["spec.".to_owned()],
        },
        _ => Skipped {
            name: false,
            prefixes: Vec::new(),
        },
    }
}

fn devices(o: &Object) -> &[Node] {
    o.spec()
        .and_then(|s| s.get("devices"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
}

/// `spec.devices[i].taints` (1.35+) and `spec.devices[i].capacity` (1.37+)
/// of the devices whose taints or capacity equal those of the stored device
/// with the same name (`lookupDevice`, compared with `Semantic.DeepEqual`:
/// quantities by value).
fn unchanged_device_parts(version: Version, obj: &Object, old: &Object) -> Vec<String> {
    if version < Version::V1_35 {
        return Vec::new();
    }
    let name_of = |d: &Node| d.get("name").and_then(Node::as_str).map(str::to_owned);
    let old_devices: std::collections::HashMap<String, &Node> = devices(old)
        .iter()
        .filter_map(|d| Some((name_of(d)?, d)))
        .collect();
    let mut out = Vec::new();
    for (i, device) in devices(obj).iter().enumerate() {
        let Some(was) = name_of(device).and_then(|n| old_devices.get(&n).copied()) else {
            continue;
        };
        if same_taints(device.get("taints"), was.get("taints")) {
            out.push(format!("spec.devices[{i}].taints"));
        }
        if version >= Version::V1_37
            && comparable(device.get("capacity")) == comparable(was.get("capacity"))
        {
            out.push(format!("spec.devices[{i}].capacity"));
        }
    }
    out
}

/// Taints as compared after the strategy: a taint without `timeAdded` in the
/// file gets the stored taint's time, so the time counts only where the file
/// sets it.
fn same_taints(new: Option<&Node>, old: Option<&Node>) -> bool {
    let (mut new, mut old) = (comparable(new), comparable(old));
    if let (Value::Array(n), Value::Array(o)) = (&mut new, &mut old) {
        for (a, b) in n.iter_mut().zip(o.iter_mut()) {
            if a.get("timeAdded").is_none() {
                if let Some(b) = b.as_object_mut() {
                    b.remove("timeAdded");
                }
            }
        }
    }
    new == old
}

/// A field as `Semantic.DeepEqual` sees it: absent, null and empty alike;
/// quantity strings by value.
fn comparable(n: Option<&Node>) -> Value {
    let mut v = n.map_or(Value::Null, Node::to_json);
    normalize(&mut v);
    match &v {
        Value::Array(a) if a.is_empty() => Value::Null,
        Value::Object(m) if m.is_empty() => Value::Null,
        _ => v,
    }
}

fn normalize(v: &mut Value) {
    match v {
        Value::Object(m) => m.values_mut().for_each(normalize),
        Value::Array(a) => a.iter_mut().for_each(normalize),
        Value::String(s) => {
            if let Ok(q) = Quantity::parse_field(s) {
                *v = Value::from(format!("{}m", q.milli_value()));
            }
        }
        Value::Number(n) => {
            if let Ok(q) = Quantity::parse_field(&n.to_string()) {
                *v = Value::from(format!("{}m", q.milli_value()));
            }
        }
        _ => {}
    }
}

/// `field` is `prefix` or below it (`prefix.x`, `prefix[k]`); a prefix ending
/// in `.` matches below it only.
fn is_within(field: &str, prefix: &str) -> bool {
    if let Some(stem) = prefix.strip_suffix('.') {
        return field.starts_with(prefix) && field.len() > stem.len() + 1;
    }
    field == prefix
        || field
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

#[cfg(test)]
mod tests {
    use super::is_within;

    #[test]
    fn prefixes_match_whole_path_segments() {
        assert!(is_within(
            "spec.devices[1].taints",
            "spec.devices[1].taints"
        ));
        assert!(is_within(
            "spec.devices[1].taints[0].key",
            "spec.devices[1].taints"
        ));
        assert!(!is_within("spec.devices[10].taints", "spec.devices[1]"));
        assert!(is_within(
            "spec.devices[1].capacity[bw].requestPolicy",
            "spec.devices[1].capacity"
        ));
        assert!(is_within("spec.devices.requests[0].name", "spec."));
        assert!(!is_within("spec", "spec."));
    }
}
