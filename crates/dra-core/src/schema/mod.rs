//! The shape of the `resource.k8s.io/v1` kinds: which fields exist in which
//! version, their JSON types, and the feature gate each one needs.
//!
//! One pass over an object does what the apiserver does before validation:
//! decode (wrong types, unparsable quantities, unknown fields under strict
//! field validation) and drop the fields whose gate is off (strategy
//! `PrepareForCreate`). The rules then see the object as it would be stored.

use crate::diag::ErrorType;
use crate::gates::{FeatureGates, Gate, Version};
use crate::model::ObjectKind;
use crate::quantity::Quantity;
use crate::suggest::did_you_mean;
use crate::tree::{Node, Span, Value};

/// A field's JSON type.
#[derive(Debug)]
pub enum Ty {
    Str,
    Bool,
    Int,
    Quantity,
    /// `metav1.Time`: a string Go's `time.Parse(time.RFC3339, ...)` reads.
    Time,
    /// Anything: raw extensions and shapes still moving upstream.
    Any,
    Obj(&'static [Field]),
    List(&'static Ty),
    /// `map[string]T`
    Map(&'static Ty),
}

/// Which gates keep a field.
#[derive(Debug, Clone, Copy)]
pub enum Needs {
    Always,
    Gate(Gate),
    /// Kept only when every gate is on.
    AllOf(&'static [Gate]),
    /// Gated, but dropped only from the given minor version on (an earlier
    /// release's strategy meant to drop it and did not).
    GateFrom(Gate, u8),
}

#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub needs: Needs,
    /// First Kubernetes minor version whose v1 API has the field.
    pub since: u8,
    /// First minor version that no longer has it (255: still there).
    pub until: u8,
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        needs: Needs::Always,
        since: 34,
        until: NOW,
    }
}
const fn g(name: &'static str, ty: Ty, gate: Gate) -> Field {
    Field {
        name,
        ty,
        needs: Needs::Gate(gate),
        since: 34,
        until: NOW,
    }
}
const fn gs(name: &'static str, ty: Ty, gate: Gate, since: u8) -> Field {
    Field {
        name,
        ty,
        needs: Needs::Gate(gate),
        since,
        until: NOW,
    }
}
/// A field that a later release removed or renamed: `[since, until)`.
const fn between(field: Field, since: u8, until: u8) -> Field {
    Field {
        since,
        until,
        ..field
    }
}
const NOW: u8 = u8::MAX;

use Ty::*;

const STRINGS: Ty = List(&Str);

pub const OBJECT_META: &[Field] = &[
    f("name", Str),
    f("generateName", Str),
    f("namespace", Str),
    f("selfLink", Str),
    f("uid", Str),
    f("resourceVersion", Str),
    f("generation", Int),
    f("creationTimestamp", Time),
    f("deletionTimestamp", Time),
    f("deletionGracePeriodSeconds", Int),
    f("labels", Map(&Str)),
    f("annotations", Map(&Str)),
    f("ownerReferences", List(&Obj(OWNER_REFERENCE))),
    f("finalizers", STRINGS),
    f("managedFields", Any),
];

const OWNER_REFERENCE: &[Field] = &[
    f("apiVersion", Str),
    f("kind", Str),
    f("name", Str),
    f("uid", Str),
    f("controller", Bool),
    f("blockOwnerDeletion", Bool),
];

const NODE_SELECTOR_REQUIREMENT: &[Field] =
    &[f("key", Str), f("operator", Str), f("values", STRINGS)];
const NODE_SELECTOR_TERM: &[Field] = &[
    f("matchExpressions", List(&Obj(NODE_SELECTOR_REQUIREMENT))),
    f("matchFields", List(&Obj(NODE_SELECTOR_REQUIREMENT))),
];
pub(crate) const NODE_SELECTOR: &[Field] =
    &[f("nodeSelectorTerms", List(&Obj(NODE_SELECTOR_TERM)))];

const COUNTER: &[Field] = &[f("value", Quantity)];

const DEVICE_ATTRIBUTE: &[Field] = &[
    f("int", Int),
    f("bool", Bool),
    f("string", Str),
    f("version", Str),
    gs("ints", List(&Int), Gate::DRAListTypeAttributes, 36),
    gs("bools", List(&Bool), Gate::DRAListTypeAttributes, 36),
    gs("strings", List(&Str), Gate::DRAListTypeAttributes, 36),
    gs("versions", List(&Str), Gate::DRAListTypeAttributes, 36),
];

const VALID_RANGE: &[Field] = &[f("min", Quantity), f("max", Quantity), f("step", Quantity)];
const REQUEST_POLICY: &[Field] = &[
    f("default", Quantity),
    f("validValues", List(&Quantity)),
    f("validRange", Obj(VALID_RANGE)),
];
const DEVICE_CAPACITY: &[Field] = &[
    f("value", Quantity),
    g(
        "requestPolicy",
        Obj(REQUEST_POLICY),
        Gate::DRAConsumableCapacity,
    ),
];

const COUNTER_CONSUMPTION: &[Field] = &[
    f("counterSet", Str),
    f("counters", Map(&Obj(COUNTER))),
    gs(
        "compatibilityGroups",
        STRINGS,
        Gate::DRADeviceCompatibilityGroups,
        37,
    ),
];

const DEVICE_TAINT: &[Field] = &[
    f("key", Str),
    f("value", Str),
    f("effect", Str),
    f("timeAdded", Time),
];

const NODE_ALLOCATABLE_MAPPING_1_36: &[Field] =
    &[f("capacityKey", Str), f("allocationMultiplier", Quantity)];
const NODE_ALLOCATABLE_MAPPING: &[Field] = &[
    f("capacityKey", Str),
    f("capacityMultiplier", Quantity),
    f("deviceMultiplier", Quantity),
];
const NODE_ALLOCATABLE_OVERHEAD: &[Field] = &[f("perPod", Quantity), f("perContainer", Quantity)];
const NODE_ALLOCATABLE_RESOURCE: &[Field] = &[
    f("mapping", Obj(NODE_ALLOCATABLE_MAPPING)),
    f("overhead", Obj(NODE_ALLOCATABLE_OVERHEAD)),
];

const BINDING_GATES: &[Gate] = &[
    Gate::DRADeviceBindingConditions,
    Gate::DRAResourceClaimDeviceStatus,
];

const DEVICE: &[Field] = &[
    f("name", Str),
    f("attributes", Map(&Obj(DEVICE_ATTRIBUTE))),
    f("capacity", Map(&Obj(DEVICE_CAPACITY))),
    g(
        "consumesCounters",
        List(&Obj(COUNTER_CONSUMPTION)),
        Gate::DRAPartitionableDevices,
    ),
    g("nodeName", Str, Gate::DRAPartitionableDevices),
    g(
        "nodeSelector",
        Obj(NODE_SELECTOR),
        Gate::DRAPartitionableDevices,
    ),
    g("allNodes", Bool, Gate::DRAPartitionableDevices),
    g("taints", List(&Obj(DEVICE_TAINT)), Gate::DRADeviceTaints),
    Field {
        name: "bindsToNode",
        ty: Bool,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    Field {
        name: "bindingConditions",
        ty: STRINGS,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    Field {
        name: "bindingFailureConditions",
        ty: STRINGS,
        needs: Needs::AllOf(BINDING_GATES),
        since: 34,
        until: NOW,
    },
    g(
        "allowMultipleAllocations",
        Bool,
        Gate::DRAConsumableCapacity,
    ),
    // 1.36 (KEP-5517 alpha) named it nodeAllocatableResourceMappings, a map
    // of {capacityKey, allocationMultiplier}; 1.37 reshaped and renamed it
    // (kubernetes/api release-1.36 and master `resource/v1/types.go`).
    between(
        g(
            "nodeAllocatableResourceMappings",
            Map(&Obj(NODE_ALLOCATABLE_MAPPING_1_36)),
            Gate::DRANodeAllocatableResources,
        ),
        36,
        37,
    ),
    gs(
        "nodeAllocatableResources",
        Map(&Obj(NODE_ALLOCATABLE_RESOURCE)),
        Gate::DRANodeAllocatableResources,
        37,
    ),
];

const POOL: &[Field] = &[
    f("name", Str),
    f("generation", Int),
    f("resourceSliceCount", Int),
];
const COUNTER_SET: &[Field] = &[f("name", Str), f("counters", Map(&Obj(COUNTER)))];

const RESOURCE_SLICE_SPEC: &[Field] = &[
    f("driver", Str),
    f("pool", Obj(POOL)),
    f("nodeName", Str),
    f("nodeSelector", Obj(NODE_SELECTOR)),
    f("allNodes", Bool),
    f("devices", List(&Obj(DEVICE))),
    g(
        "perDeviceNodeSelection",
        Bool,
        Gate::DRAPartitionableDevices,
    ),
    g(
        "sharedCounters",
        List(&Obj(COUNTER_SET)),
        Gate::DRAPartitionableDevices,
    ),
    gs(
        "partitionTypeAttribute",
        Str,
        Gate::DRAPartitionableDevicesType,
        37,
    ),
    gs(
        "skipNodeOperations",
        STRINGS,
        Gate::DRAOptionalNodeOperations,
        37,
    ),
];

const CEL_SELECTOR: &[Field] = &[f("expression", Str)];
const DEVICE_SELECTOR: &[Field] = &[f("cel", Obj(CEL_SELECTOR))];
pub(crate) const OPAQUE: &[Field] = &[f("driver", Str), f("parameters", Any)];
const CLASS_CONFIG: &[Field] = &[f("opaque", Obj(OPAQUE))];

const DEVICE_CLASS_SPEC: &[Field] = &[
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("config", List(&Obj(CLASS_CONFIG))),
    g("extendedResourceName", Str, Gate::DRAExtendedResource),
];

pub(crate) const TOLERATION: &[Field] = &[
    f("key", Str),
    f("operator", Str),
    f("value", Str),
    f("effect", Str),
    f("tolerationSeconds", Int),
];
const CAPACITY_REQUIREMENTS: &[Field] = &[f("requests", Map(&Quantity))];

const EXACT_REQUEST: &[Field] = &[
    f("deviceClassName", Str),
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("allocationMode", Str),
    f("count", Int),
    g("adminAccess", Bool, Gate::DRAAdminAccess),
    g("tolerations", List(&Obj(TOLERATION)), Gate::DRADeviceTaints),
    g(
        "capacity",
        Obj(CAPACITY_REQUIREMENTS),
        Gate::DRAConsumableCapacity,
    ),
    gs(
        "derivedAttributes",
        List(&Any),
        Gate::DRADerivedAttributes,
        37,
    ),
];
const SUB_REQUEST: &[Field] = &[
    f("name", Str),
    f("deviceClassName", Str),
    f("selectors", List(&Obj(DEVICE_SELECTOR))),
    f("allocationMode", Str),
    f("count", Int),
    g("tolerations", List(&Obj(TOLERATION)), Gate::DRADeviceTaints),
    g(
        "capacity",
        Obj(CAPACITY_REQUIREMENTS),
        Gate::DRAConsumableCapacity,
    ),
    gs(
        "derivedAttributes",
        List(&Any),
        Gate::DRADerivedAttributes,
        37,
    ),
];
const DEVICE_REQUEST: &[Field] = &[
    f("name", Str),
    f("exactly", Obj(EXACT_REQUEST)),
    g(
        "firstAvailable",
        List(&Obj(SUB_REQUEST)),
        Gate::DRAPrioritizedList,
    ),
];
// distinctAttribute is gated by DRAConsumableCapacity. 1.34's strategy
// cleared a copy of each constraint (`for _, constaint := range ...`), so
// the field survived; kubernetes/kubernetes#134962 ("Fix setting
// distinctAttribute=nil when DRAConsumableCapacity is disabled", in the
// v1.35.0-alpha.3 CHANGELOG) made resourceclaimspec.DropDisabledFields
// index the slice: dropped from 1.35 on.
const CONSTRAINT: &[Field] = &[
    f("requests", STRINGS),
    f("matchAttribute", Str),
    Field {
        name: "distinctAttribute",
        ty: Str,
        needs: Needs::GateFrom(Gate::DRAConsumableCapacity, 35),
        since: 34,
        until: NOW,
    },
];
const CLAIM_CONFIG: &[Field] = &[f("requests", STRINGS), f("opaque", Obj(OPAQUE))];
const DEVICE_CLAIM: &[Field] = &[
    f("requests", List(&Obj(DEVICE_REQUEST))),
    f("constraints", List(&Obj(CONSTRAINT))),
    f("config", List(&Obj(CLAIM_CONFIG))),
];
const CLAIM_SPEC: &[Field] = &[f("devices", Obj(DEVICE_CLAIM))];
const TEMPLATE_SPEC: &[Field] = &[f("metadata", Obj(OBJECT_META)), f("spec", Obj(CLAIM_SPEC))];

// DeviceTaintRule (served as v1alpha3 from 1.33, v1beta2 from 1.36, v1 from
// 1.37; see served.rs). 1.34's selector also had deviceClassName and CEL
// selectors, removed in 1.35; 1.35 added the status.
const DEVICE_TAINT_SELECTOR: &[Field] = &[
    between(f("deviceClassName", Str), 34, 35),
    f("driver", Str),
    f("pool", Str),
    f("device", Str),
    between(f("selectors", List(&Obj(DEVICE_SELECTOR))), 34, 35),
];
const DEVICE_TAINT_RULE_SPEC: &[Field] = &[
    f("deviceSelector", Obj(DEVICE_TAINT_SELECTOR)),
    f("taint", Obj(DEVICE_TAINT)),
];

const fn top(spec: Ty) -> [Field; 4] {
    [
        f("apiVersion", Str),
        f("kind", Str),
        f("metadata", Obj(OBJECT_META)),
        f("spec", spec),
    ]
}

// Only ResourceClaim and (from 1.35) DeviceTaintRule have a `status` (the
// other kinds have none: strict decoding rejects it). It is decoded as the
// rest of the object; a create discards it (DRA-V169), so its gated fields
// are dropped only on a status write (`status.rs`).
static SLICE: [Field; 4] = top(Obj(RESOURCE_SLICE_SPEC));
static CLASS: [Field; 4] = top(Obj(DEVICE_CLASS_SPEC));
static CLAIM: [Field; 5] = {
    let [a, k, m, s] = top(Obj(CLAIM_SPEC));
    [a, k, m, s, f("status", Obj(status::CLAIM_STATUS))]
};
static TEMPLATE: [Field; 4] = top(Obj(TEMPLATE_SPEC));
static TAINT_RULE: [Field; 5] = {
    let [a, k, m, s] = top(Obj(DEVICE_TAINT_RULE_SPEC));
    [
        a,
        k,
        m,
        s,
        between(f("status", Obj(status::TAINT_RULE_STATUS)), 35, NOW),
    ]
};

/// The top-level fields of a kind, or `None` when kubectl-dra does not check
/// its shape (pods, namespaces).
pub fn fields_of(kind: ObjectKind) -> Option<&'static [Field]> {
    match kind {
        ObjectKind::ResourceSlice => Some(&SLICE),
        ObjectKind::DeviceClass => Some(&CLASS),
        ObjectKind::ResourceClaim => Some(&CLAIM),
        ObjectKind::ResourceClaimTemplate => Some(&TEMPLATE),
        ObjectKind::DeviceTaintRule => Some(&TAINT_RULE),
        _ => None,
    }
}

/// What the decode-and-drop pass found.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeFinding {
    UnknownField {
        path: String,
        span: Span,
        suggestion: Option<&'static str>,
        /// Set when the field exists in a later version.
        since: Option<Version>,
    },
    WrongType {
        path: String,
        span: Span,
        expected: &'static str,
        got: String,
    },
    BadQuantity {
        path: String,
        span: Span,
        message: String,
    },
    /// A `metav1.Time` Go's parser refuses.
    BadTime {
        path: String,
        span: Span,
        message: String,
    },
    Dropped {
        path: String,
        span: Span,
        gate: Gate,
    },
}

impl ShapeFinding {
    /// The field path the finding is about.
    pub fn path(&self) -> &str {
        match self {
            ShapeFinding::UnknownField { path, .. }
            | ShapeFinding::WrongType { path, .. }
            | ShapeFinding::BadQuantity { path, .. }
            | ShapeFinding::BadTime { path, .. }
            | ShapeFinding::Dropped { path, .. } => path,
        }
    }

    pub fn error_type(&self) -> ErrorType {
        match self {
            ShapeFinding::Dropped { .. } => ErrorType::Dropped,
            _ => ErrorType::Invalid,
        }
    }
}

/// Decodes `root` against the kind's fields and strips gated fields that are
/// off, and unknown fields: the Go struct has no place for them, so no
/// validation sees them (strict decoding refuses the request; without it the
/// field is silently gone). Type errors leave the node in place; rules skip
/// values of the wrong type.
pub fn decode_and_drop(
    kind: ObjectKind,
    root: &mut Node,
    gates: &FeatureGates,
) -> Vec<ShapeFinding> {
    decode_and_drop_update(kind, root, gates, &[])
}

/// As [`decode_and_drop`], for an update: the fields of a gate in `kept`
/// stay although the gate is off, because the stored object already uses
/// that gate's fields (every `dropDisabled*Fields(new, old)` of the
/// strategies returns early when its `*FeatureInUse(old)`).
pub fn decode_and_drop_update(
    kind: ObjectKind,
    root: &mut Node,
    gates: &FeatureGates,
    kept: &[Gate],
) -> Vec<ShapeFinding> {
    let mut out = Vec::new();
    if let Some(fields) = fields_of(kind) {
        walk_obj(fields, root, &Path::Root, &Drops { gates, kept }, &mut out);
    }
    out
}

/// The gates whose fields the stored object `root` uses while they are off:
/// the fields an update keeps (see [`decode_and_drop_update`]).
pub fn gates_in_use(kind: ObjectKind, mut root: Node, gates: &FeatureGates) -> Vec<Gate> {
    let mut used: Vec<Gate> = decode_and_drop(kind, &mut root, gates)
        .into_iter()
        .filter_map(|f| match f {
            ShapeFinding::Dropped { gate, .. } => Some(gate),
            _ => None,
        })
        .collect();
    used.sort_by_key(|g| g.name());
    used.dedup_by_key(|g| g.name());
    used
}

/// The gates and, on update, the gates whose fields are kept.
struct Drops<'a> {
    gates: &'a FeatureGates,
    kept: &'a [Gate],
}

/// A field path built on the stack and rendered only for a finding, so the
/// walk over a large fleet allocates nothing.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl Path<'_> {
    fn render(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
    fn write(&self, s: &mut String) {
        match self {
            Path::Root => {}
            Path::Field(p, name) => {
                p.write(s);
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(name);
            }
            Path::Index(p, i) => {
                p.write(s);
                s.push('[');
                s.push_str(&i.to_string());
                s.push(']');
            }
            Path::Key(p, k) => {
                p.write(s);
                s.push('[');
                s.push_str(k);
                s.push(']');
            }
        }
    }
}

fn needed_gate_off(needs: Needs, drops: &Drops<'_>) -> Option<Gate> {
    let gates = drops.gates;
    let off = match needs {
        Needs::Always => None,
        Needs::Gate(g) => (!gates.enabled(g)).then_some(g),
        Needs::AllOf(gs) => gs.iter().copied().find(|g| !gates.enabled(*g)),
        Needs::GateFrom(g, from) => (gates.version.0 >= from && !gates.enabled(g)).then_some(g),
    };
    off.filter(|g| !drops.kept.contains(g))
}

fn walk_obj(
    fields: &'static [Field],
    node: &mut Node,
    path: &Path<'_>,
    gates: &Drops<'_>,
    out: &mut Vec<ShapeFinding>,
) {
    let Value::Map(entries) = &mut node.value else {
        return;
    };
    let version = gates.gates.version;
    let mut drop_keys: Vec<crate::tree::Key> = Vec::new();
    for e in crate::tree::items_mut(entries).iter_mut() {
        let field = fields.iter().find(|fd| fd.name == e.key);
        let field_path = Path::Field(path, &e.key);
        match field {
            Some(fd) if fd.since <= version.0 && version.0 < fd.until => {
                if e.value.is_null() {
                    continue;
                }
                if let Some(gate) = needed_gate_off(fd.needs, gates) {
                    out.push(ShapeFinding::Dropped {
                        path: field_path.render(),
                        span: e.key_span,
                        gate,
                    });
                    drop_keys.push(e.key);
                    // Strict decoding runs before the strategy drops the
                    // field: what is unknown or mistyped under it is still
                    // reported, but nothing under it is dropped twice.
                    let mut inner = Vec::new();
                    walk_ty(&fd.ty, &mut e.value, &field_path, gates, &mut inner);
                    out.extend(
                        inner
                            .into_iter()
                            .filter(|f| !matches!(f, ShapeFinding::Dropped { .. })),
                    );
                    continue;
                }
                walk_ty(&fd.ty, &mut e.value, &field_path, gates, out);
            }
            Some(fd) if fd.since > version.0 => {
                out.push(ShapeFinding::UnknownField {
                    path: field_path.render(),
                    span: e.key_span,
                    suggestion: None,
                    since: Some(Version(fd.since)),
                });
                drop_keys.push(e.key);
            }
            Some(_) => {
                out.push(ShapeFinding::UnknownField {
                    path: field_path.render(),
                    span: e.key_span,
                    suggestion: None,
                    since: None,
                });
                drop_keys.push(e.key);
            }
            None => {
                drop_keys.push(e.key);
                let suggestion = did_you_mean(
                    &e.key,
                    fields
                        .iter()
                        .filter(|fd| fd.since <= version.0 && version.0 < fd.until)
                        .map(|fd| fd.name),
                );
                out.push(ShapeFinding::UnknownField {
                    path: field_path.render(),
                    span: e.key_span,
                    suggestion,
                    since: None,
                });
            }
        }
    }
    if !drop_keys.is_empty() {
        crate::tree::edit(entries, |v| v.retain(|e| !drop_keys.contains(&e.key)));
    }
}

fn walk_ty(
    ty: &'static Ty,
    node: &mut Node,
    path: &Path<'_>,
    gates: &Drops<'_>,
    out: &mut Vec<ShapeFinding>,
) {
    if node.is_null() {
        return;
    }
    let wrong = |expected: &'static str, node: &Node, path: &Path<'_>| ShapeFinding::WrongType {
        path: path.render(),
        span: node.span,
        expected,
        got: node.kind().to_string(),
    };
    match ty {
        Any => {}
        Str => {
            if node.as_str().is_none() {
                out.push(wrong("string", node, path));
            }
        }
        Bool => {
            if node.as_bool().is_none() {
                out.push(wrong("boolean", node, path));
            }
        }
        Int => match node.value {
            Value::Int(_) => {}
            // YAML reaches the apiserver as JSON (sigs.k8s.io/yaml): a float
            // is marshalled without a fraction or exponent when it is whole
            // and below 1e21 (`count: 2.0`, `1e1`), and then decodes as an
            // int64 like any integer.
            Value::Float(f)
                if f.fract() == 0.0 && (-(2f64.powi(63))..2f64.powi(63)).contains(&f) =>
            {
                node.value = Value::Int(f as i64);
            }
            _ => out.push(wrong("integer", node, path)),
        },
        Quantity => match node.value {
            Value::Str(_) | Value::Int(_) | Value::Float(_) => {
                let text = node.scalar_text().unwrap_or_default();
                if let Err(e) = Quantity::parse(&text) {
                    out.push(ShapeFinding::BadQuantity {
                        path: path.render(),
                        span: node.span,
                        message: format!("unable to parse quantity's suffix: {text:?}: {e}"),
                    });
                }
            }
            _ => out.push(wrong("quantity (string or number)", node, path)),
        },
        Time => match node.as_str() {
            Some(text) => {
                if let Some(message) = crate::go_time::rfc3339_error(text) {
                    out.push(ShapeFinding::BadTime {
                        path: path.render(),
                        span: node.span,
                        message,
                    });
                }
            }
            None => out.push(wrong("string (an RFC 3339 time)", node, path)),
        },
        Obj(fields) => {
            if matches!(node.value, Value::Map(_)) {
                walk_obj(fields, node, path, gates, out);
            } else {
                out.push(wrong("object", node, path));
            }
        }
        List(item) => {
            if let Value::Seq(items) = &mut node.value {
                for (i, it) in crate::tree::items_mut(items).iter_mut().enumerate() {
                    walk_ty(item, it, &Path::Index(path, i), gates, out);
                }
            } else {
                out.push(wrong("list", node, path));
            }
        }
        Map(item) => {
            if let Value::Map(entries) = &mut node.value {
                for e in crate::tree::items_mut(entries).iter_mut() {
                    walk_ty(item, &mut e.value, &Path::Key(path, &e.key), gates, out);
                }
            } else {
                out.push(wrong("object", node, path));
            }
        }
    }
}

pub mod pod;
mod status;
#[cfg(test)]
mod tests;
