//! The devices of ResourceSlices, as the scheduler sees them, and which of
//! them a CEL selector (plus a DeviceClass's selectors) matches.

use std::sync::Arc;

use serde::Serialize;

use crate::cel::{self, Device, Env, Program};
use crate::dra::{DeviceClass, Inventory};
use crate::model::Object;

/// One device of the inventory with its CEL view, built once.
pub struct InventoryDevice {
    pub node: String,
    pub driver: String,
    pub pool: String,
    pub name: String,
    pub cel: Arc<Device>,
}

/// Every device of the given slices, in slice order; `list_types`:
/// DRAListTypeAttributes is on (list attributes are readable).
pub fn devices(objects: &[Object], list_types: bool) -> Vec<InventoryDevice> {
    let mut out = Vec::new();
    for_each_device(objects, list_types, |_| true, |d| out.push(d));
    out
}

/// As [`devices`], one at a time and none kept: `wanted` is asked with the
/// device's node label (its node, or how its slice selects nodes) before
/// the device's CEL view is built.
pub fn for_each_device(
    objects: &[Object],
    list_types: bool,
    mut wanted: impl FnMut(&str) -> bool,
    mut each: impl FnMut(InventoryDevice),
) {
    for slice in Inventory::decode(objects).slices {
        for d in slice.devices() {
            let node = slice.selection_of(d).label().unwrap_or_default();
            if !wanted(&node) {
                continue;
            }
            each(InventoryDevice {
                node,
                driver: slice.driver.to_owned(),
                pool: slice.pool.name.to_owned(),
                name: d.name.to_owned(),
                cel: Arc::new(Device::from_node(slice.driver, d.node, list_types)),
            });
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceMatch {
    pub node: String,
    pub driver: String,
    pub pool: String,
    pub device: String,
    /// `None` when evaluating raised `error`.
    pub matches: Option<bool>,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MatchSummary {
    pub devices: usize,
    pub matching: usize,
    pub errors: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    #[serde(rename = "compileError")]
    pub compile_error: Option<String>,
    /// The apiserver's refusal of the expression in a new claim or class
    /// when its estimated cost exceeds the limit (DRA-V163): the scheduler
    /// would evaluate a stored one all the same.
    #[serde(rename = "tooComplex", skip_serializing_if = "Option::is_none")]
    pub too_complex: Option<String>,
    pub devices: Vec<DeviceMatch>,
    pub summary: MatchSummary,
}

/// A DeviceClass's selector expressions, in order.
pub fn class_selectors(class: &Object) -> Vec<String> {
    DeviceClass::decode(class).expressions()
}

/// Evaluates `expr` on every device; with a class, the class's selectors
/// first, as the allocator applies them (the first false stops, an error is
/// reported with the selector that raised it).
pub fn match_devices(
    expr: &str,
    class: Option<&Object>,
    devices: &[InventoryDevice],
    env: &Env,
) -> MatchReport {
    let program = match Program::compile(expr, env) {
        Ok(p) => p,
        Err(e) => {
            return MatchReport {
                compile_error: Some(e.detail(expr)),
                too_complex: None,
                devices: Vec::new(),
                summary: MatchSummary {
                    devices: devices.len(),
                    ..MatchSummary::default()
                },
            }
        }
    };
    let mut class_programs = Vec::new();
    if let Some(c) = class {
        for (i, sel) in class_selectors(c).iter().enumerate() {
            match Program::compile(sel, env) {
                Ok(p) => class_programs.push((i, p)),
                Err(e) => {
                    return MatchReport {
                        compile_error: Some(format!(
                            "class {} selector #{i}: {}",
                            c.name().unwrap_or_default(),
                            e.detail(sel)
                        )),
                        too_complex: None,
                        devices: Vec::new(),
                        summary: MatchSummary {
                            devices: devices.len(),
                            ..MatchSummary::default()
                        },
                    }
                }
            }
        }
    }
    let class_name = class.and_then(Object::name).unwrap_or_default();
    let mut out = Vec::with_capacity(devices.len());
    let mut summary = MatchSummary {
        devices: devices.len(),
        ..MatchSummary::default()
    };
    for d in devices {
        let mut result: Result<bool, String> = Ok(true);
        for (i, p) in &class_programs {
            match p.matches(&d.cel) {
                Ok(true) => {}
                Ok(false) => {
                    result = Ok(false);
                    break;
                }
                Err(e) => {
                    result = Err(format!("class {class_name}: selector #{i}: {}", e.0));
                    break;
                }
            }
        }
        if result == Ok(true) {
            result = program.matches(&d.cel).map_err(|e| e.0);
        }
        match &result {
            Ok(true) => summary.matching += 1,
            Err(_) => summary.errors += 1,
            Ok(false) => {}
        }
        out.push(DeviceMatch {
            node: d.node.clone(),
            driver: d.driver.clone(),
            pool: d.pool.clone(),
            device: d.name.clone(),
            matches: result.as_ref().ok().copied(),
            error: result.err(),
        });
    }
    MatchReport {
        compile_error: None,
        too_complex: (program.estimated_cost > crate::cel::MAX_ESTIMATED_COST)
            .then(|| crate::cel::cost_exceeded(program.estimated_cost)),
        devices: out,
        summary,
    }
}

/// A hint for a runtime error of `expr`: when a missing key is a capacity
/// looked up as an attribute (or the other way round), or how to guard it.
pub fn error_hint(expr: &str, error: &str, devices: &[InventoryDevice]) -> Option<String> {
    let key = cel::missing_key(error)?;
    // Only a key the expression looks up on a device's attributes or
    // capacity: `{"a": 1}["b"]` has nothing to do with what devices publish.
    if !(expr.contains("attributes") || expr.contains("capacity")) || !looks_up(expr, key) {
        return None;
    }
    let has_key = |v: &cel::Value| match v {
        cel::Value::Domains(m) => m
            .entries
            .iter()
            .any(|(_, v)| matches!(v, cel::Value::Map(inner) if inner.get_str(key).is_some())),
        _ => false,
    };
    let as_capacity = devices.iter().any(|d| has_key(&d.cel.capacity));
    let as_attribute = devices.iter().any(|d| has_key(&d.cel.attributes));
    // The real domain, not a placeholder: the one the expression names
    // before `.KEY`, else one a device publishes the key under, else the
    // driver of the devices.
    let in_expr = expr.find(&format!("\"].{key}")).and_then(|at| {
        let head = &expr[..at];
        head.rfind("[\"").map(|open| head[open + 2..].to_owned())
    });
    let published = || {
        devices.iter().find_map(|d| {
            [&d.cel.attributes, &d.cel.capacity]
                .into_iter()
                .find_map(|v| match v {
                    cel::Value::Domains(m) => {
                        m.entries.iter().find_map(|(dom, v)| match (dom, v) {
                            (cel::Value::String(dom), cel::Value::Map(inner))
                                if inner.get_str(key).is_some() =>
                            {
                                Some(dom.to_string())
                            }
                            _ => None,
                        })
                    }
                    _ => None,
                })
        })
    };
    let domain_name = in_expr
        .or_else(published)
        .or_else(|| devices.first().map(|d| d.driver.clone()));
    let domain = domain_name
        .as_ref()
        .map_or_else(|| "DOMAIN".to_owned(), |d| format!("\"{d}\""));
    let uses_attributes = expr.contains("attributes");
    let uses_capacity = expr.contains("capacity");
    if as_capacity && !as_attribute && uses_attributes && !uses_capacity {
        return Some(format!(
            "{key} is a capacity, not an attribute: use device.capacity[{domain}].{key}"
        ));
    }
    if as_attribute && !as_capacity && uses_capacity && !uses_attributes {
        return Some(format!(
            "{key} is an attribute, not a capacity: use device.attributes[{domain}].{key}"
        ));
    }
    let map = if uses_capacity && !uses_attributes {
        "capacity"
    } else {
        "attributes"
    };
    // Published by no device: the spelling is the problem, not a guard.
    if let Some(d) = &domain_name {
        let names = published_names(devices, map);
        let names: std::collections::BTreeSet<(&str, &str)> = names
            .iter()
            .map(|(d, n)| (d.as_str(), n.as_str()))
            .collect();
        if let Some(hint) = crate::suggest::unpublished(&names, map, d, key) {
            let mut chars = hint.chars();
            let first = chars.next().map(|c| c.to_ascii_lowercase());
            return Some(first.into_iter().chain(chars).collect());
        }
    }
    Some(format!(
        "guard it: has(device.{map}[{domain}].{key}) && ..., or device.{map}[{domain}].?{key}.orValue(...)"
    ))
}

/// Whether `expr` selects `key` from a domain's map, as a field or index
/// right after an index (`["gpu.example.com"].key`, `.?key`, `["key"]`,
/// `['key']`): text, not a parse, but enough to tell a device's map from a
/// literal one (`{"a": 1}["b"]`).
fn looks_up(expr: &str, key: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    [
        format!("].{key}"),
        format!("].?{key}"),
        format!("][\"{key}\"]"),
        format!("]['{key}']"),
    ]
    .iter()
    .any(|access| {
        expr.match_indices(access.as_str())
            .any(|(at, m)| !expr[at + m.len()..].starts_with(ident))
    })
}

/// The (domain, name) pairs the devices' CEL views hold in `field`
/// (`attributes` or `capacity`).
fn published_names(
    devices: &[InventoryDevice],
    field: &str,
) -> std::collections::BTreeSet<(String, String)> {
    let mut out = std::collections::BTreeSet::new();
    for d in devices {
        let view = if field == "capacity" {
            &d.cel.capacity
        } else {
            &d.cel.attributes
        };
        let cel::Value::Domains(m) = view else {
            continue;
        };
        for (domain, inner) in &m.entries {
            let (cel::Value::String(domain), cel::Value::Map(inner)) = (domain, inner) else {
                continue;
            };
            for (name, _) in &inner.entries {
                if let cel::Value::String(name) = name {
                    out.insert((domain.to_string(), name.to_string()));
                }
            }
        }
    }
    out
}

impl InventoryDevice {
    /// Whether the device publishes `key` in `domain` of `attributes` or `capacity`.
    pub fn has(&self, map: &str, domain: &str, key: &str) -> bool {
        let v = if map == "capacity" {
            &self.cel.capacity
        } else {
            &self.cel.attributes
        };
        match v {
            cel::Value::Domains(m) => m.get_str(domain).is_some_and(
                |inner| matches!(inner, cel::Value::Map(i) if i.get_str(key).is_some()),
            ),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::{load_objects, SourceFile};
    use crate::yaml::Limits;

    fn inventory() -> Vec<InventoryDevice> {
        let files = [SourceFile {
            name: "t.yaml".into(),
            text: r#"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: a
    attributes: {model: {string: h100}}
    capacity: {memory: {value: 80Gi}}
  - name: b
    attributes: {model: {string: a100}, nvlink: {bool: true}}
"#
            .into(),
        }];
        let (objects, _) = load_objects(&files, Limits::default());
        devices(&objects, false)
    }

    /// The hint `match` gives after "N raise no such key: KEY".
    #[test]
    fn a_missing_key_gets_the_hint_that_fits() {
        let devices = inventory();
        let hint = |expr: &str, key: &str| {
            error_hint(expr, &format!("no such key: {key}"), &devices).unwrap_or_default()
        };
        // Some devices lack it: guard it.
        assert!(
            hint(r#"device.attributes["gpu.example.com"].nvlink"#, "nvlink")
                .starts_with("guard it: has(device.attributes[\"gpu.example.com\"].nvlink)")
        );
        // No device has it: the spelling.
        assert_eq!(
            hint(
                r#"device.attributes["gpu.example.com"].modle == "x""#,
                "modle"
            ),
            "no device publishes the attribute gpu.example.com/modle: did you mean \"model\"?"
        );
        // Published in the other map.
        assert_eq!(
            hint(r#"device.attributes["gpu.example.com"].memory > 0"#, "memory"),
            "memory is a capacity, not an attribute: use device.capacity[\"gpu.example.com\"].memory"
        );
        // A key the expression does not look up on a device: no hint.
        assert_eq!(hint(r#"{"a": 1}["b"] == 1"#, "b"), "");
        assert_eq!(
            hint(
                r#"device.attributes["gpu.example.com"].model == "x" && {"a": 1}["b"] == 1"#,
                "b"
            ),
            ""
        );
        assert!(hint(
            r#"device.attributes["gpu.example.com"]["nvlink"]"#,
            "nvlink"
        )
        .starts_with("guard it"));
    }
}
