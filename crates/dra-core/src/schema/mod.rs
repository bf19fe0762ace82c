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
    /// int64 (and the DRA kinds' int counts).
    Int,
    /// int32: a number past its range does not decode.
    Int32,
    /// `intstr.IntOrString`: a string, or an int32; its own `UnmarshalJSON`
    /// decodes it, so its error stops the decoder.
    IntOrString,
    Quantity,
    /// `metav1.Time`: a string Go's `time.Parse(time.RFC3339, ...)` reads.
    Time,
    /// Anything: raw extensions and shapes still moving upstream.
    Any,
    Obj(&'static [Field]),
    /// An object with the fields of both lists (a v1 Device is its name and
    /// the fields v1beta1 nests under `basic`).
    Obj2(&'static [Field], &'static [Field]),
    /// A type whose shape differs in v1beta1 (decoded in the version the
    /// object is written in, as the apiserver decodes the request).
    ByApi {
        v1: &'static Ty,
        v1beta1: &'static Ty,
    },
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

pub(crate) use fields::*;

/// The top-level fields of a kind, or `None` when kubectl-dra does not check
/// its shape (pods, namespaces).
pub fn fields_of(kind: ObjectKind) -> Option<&'static [Field]> {
    match kind {
        ObjectKind::ResourceSlice => Some(&SLICE),
        ObjectKind::DeviceClass => Some(&CLASS),
        ObjectKind::ResourceClaim => Some(&CLAIM),
        ObjectKind::ResourceClaimTemplate => Some(&TEMPLATE),
        ObjectKind::DeviceTaintRule => Some(&TAINT_RULE),
        ObjectKind::ResourcePoolStatusRequest => Some(&POOL_STATUS_REQUEST),
        ObjectKind::Role => Some(&rbac::ROLE),
        ObjectKind::ClusterRole => Some(&rbac::CLUSTER_ROLE),
        ObjectKind::RoleBinding | ObjectKind::ClusterRoleBinding => Some(&rbac::BINDING),
        ObjectKind::Namespace => Some(&core::NAMESPACE),
        ObjectKind::ServiceAccount => Some(&core::SERVICE_ACCOUNT),
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
        /// The type decodes itself (`resource.Quantity`, `metav1.Time`):
        /// its `UnmarshalJSON` error stops the decoder, where a plain
        /// type mismatch is kept and decoding goes on.
        ends_decoding: bool,
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

    /// The body does not decode: kube-apiserver answers 400 Bad Request.
    pub fn is_decode_fault(&self) -> bool {
        matches!(
            self,
            ShapeFinding::WrongType { .. }
                | ShapeFinding::BadQuantity { .. }
                | ShapeFinding::BadTime { .. }
        )
    }

    /// A field the type does not have (in this release).
    pub fn is_unknown_field(&self) -> bool {
        matches!(self, ShapeFinding::UnknownField { .. })
    }

    /// The fault comes from a type's own `UnmarshalJSON`, which stops the
    /// decoder there (see [`first_fault`]).
    pub fn ends_decoding(&self) -> bool {
        match self {
            ShapeFinding::WrongType { ends_decoding, .. } => *ends_decoding,
            ShapeFinding::BadQuantity { .. } | ShapeFinding::BadTime { .. } => true,
            _ => false,
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
        let drops = Drops {
            gates,
            kept,
            v1beta1: false,
            drop: true,
        };
        walk_obj(&[fields], root, &Path::Root, &drops, &mut out);
    }
    out
}

/// Decodes a built-in workload (a Pod, a Deployment, a Job, ...) whole, as
/// the apiserver decodes it: unknown fields anywhere are found and removed,
/// values of the wrong type are found. `None` when `kind` of `api_version`
/// is not one of [`workloads::fields_of`]'s kinds. Nothing is dropped by
/// feature gate.
pub fn decode_workload(
    api_version: &str,
    kind: &str,
    root: &mut Node,
    gates: &FeatureGates,
) -> Option<Vec<ShapeFinding>> {
    let fields = workloads::fields_of(api_version, kind)?;
    let mut out = Vec::new();
    walk_obj(
        &[fields],
        root,
        &Path::Root,
        &Drops::on_create(gates),
        &mut out,
    );
    Some(out)
}

/// Decodes a `resource.k8s.io/v1beta1` object in its own shape (a device's
/// fields under `basic`, a request's directly in the request), as the
/// apiserver decodes a request before converting it: unknown fields and
/// wrong types are found at the paths of the file and unknown fields are
/// removed. Nothing is dropped: the gated fields are dropped after the
/// conversion to v1 ([`decode_and_drop_update`]).
pub fn decode_v1beta1(
    kind: ObjectKind,
    root: &mut Node,
    gates: &FeatureGates,
) -> Vec<ShapeFinding> {
    let mut out = Vec::new();
    if let Some(fields) = fields_of(kind) {
        let drops = Drops {
            gates,
            kept: &[],
            v1beta1: true,
            drop: false,
        };
        walk_obj(&[fields], root, &Path::Root, &drops, &mut out);
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
    /// The object is written in v1beta1: `ByApi` takes that shape.
    v1beta1: bool,
    /// Gated fields are dropped (false: decoding only, every field kept).
    drop: bool,
}

impl<'a> Drops<'a> {
    /// A create at `gates`: gated fields dropped, unknown ones removed.
    fn on_create(gates: &'a FeatureGates) -> Self {
        Drops {
            gates,
            kept: &[],
            v1beta1: false,
            drop: true,
        }
    }
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
    if !drops.drop {
        return None;
    }
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
    lists: &[&'static [Field]],
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
        let field = lists
            .iter()
            .flat_map(|l| l.iter())
            .find(|fd| fd.name == e.key);
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
                    lists
                        .iter()
                        .flat_map(|l| l.iter())
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
        ends_decoding: matches!(ty, Quantity | Time | IntOrString),
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
        Int => {
            if !whole_in(node, i64::MIN, i64::MAX) {
                out.push(wrong("integer", node, path));
            }
        }
        Int32 | IntOrString if node.as_str().is_some() => {
            if matches!(ty, Int32) {
                out.push(wrong("integer", node, path));
            }
        }
        Int32 | IntOrString => {
            if !whole_in(node, i32::MIN.into(), i32::MAX.into()) {
                let expected = if matches!(ty, Int32) {
                    "integer (int32)"
                } else {
                    "string or integer (int32)"
                };
                let mut finding = wrong(expected, node, path);
                if let (ShapeFinding::WrongType { got, .. }, Value::Int(n)) =
                    (&mut finding, &node.value)
                {
                    // encoding/json: "cannot unmarshal number 3000000000 into ... of type int32".
                    *got = format!("{n}, out of int32's range");
                }
                out.push(finding);
            }
        }
        Quantity => match node.value {
            Value::Str(_) | Value::Int(_) | Value::Float(_) => {
                let text = node.scalar_text().unwrap_or_default();
                if let Err(e) = Quantity::parse_field(&text) {
                    out.push(ShapeFinding::BadQuantity {
                        path: path.render(),
                        span: node.span,
                        // UnmarshalJSON's error is ParseQuantity's, in its words.
                        message: format!("{e}: {text:?}"),
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
                walk_obj(&[fields], node, path, gates, out);
            } else {
                out.push(wrong("object", node, path));
            }
        }
        Obj2(a, b) => {
            if matches!(node.value, Value::Map(_)) {
                walk_obj(&[a, b], node, path, gates, out);
            } else {
                out.push(wrong("object", node, path));
            }
        }
        ByApi { v1, v1beta1 } => {
            let ty = if gates.v1beta1 { v1beta1 } else { v1 };
            walk_ty(ty, node, path, gates, out);
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

/// Whether `node` decodes into an integer field of this range. YAML
/// reaches the apiserver as JSON (sigs.k8s.io/yaml): a float is marshalled
/// without a fraction or exponent when it is whole and below 1e21
/// (`count: 2.0`, `1e1`), and then decodes like any integer; it is turned
/// into one here. A number past the range is encoding/json's
/// `UnmarshalTypeError` ("cannot unmarshal number ... of type int32").
fn whole_in(node: &mut Node, min: i64, max: i64) -> bool {
    match node.value {
        Value::Int(n) => (min..=max).contains(&n),
        Value::Float(f) if f.fract() == 0.0 && (-(2f64.powi(63))..2f64.powi(63)).contains(&f) => {
            node.value = Value::Int(f as i64);
            whole_in(node, min, max)
        }
        _ => false,
    }
}

mod core;
mod fields;
pub mod first_fault;
pub mod pod;
mod rbac;
mod status;
#[cfg(test)]
mod tests;
pub mod workloads;
