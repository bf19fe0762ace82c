//! ResourceClaims (and the claim of a template): requests, constraints,
//! config, the allocation in `status` and who the claim is reserved for.

use super::{entries, list, opt_text, strings, text, DeviceConfig};
use crate::model::Object;
use crate::tree::Node;

#[derive(Clone, Debug)]
pub struct Claim<'t> {
    pub object: &'t Object,
    /// `metadata.namespace`, `default` when unset.
    pub namespace: &'t str,
    pub name: &'t str,
    pub requests: Vec<Request<'t>>,
    pub constraints: Vec<Constraint<'t>>,
    /// `spec.devices.config`.
    pub config: Vec<DeviceConfig<'t>>,
    /// `status.allocation`, when the claim is allocated.
    pub allocation: Option<Allocation<'t>>,
    /// `status.reservedFor`.
    pub reserved_for: Vec<Consumer<'t>>,
}

impl<'t> Claim<'t> {
    pub fn decode(object: &'t Object) -> Self {
        Self::decode_spec(object, object.spec())
    }

    /// A claim whose spec sits elsewhere (a template's `spec.spec`).
    pub fn decode_spec(object: &'t Object, spec: Option<&'t Node>) -> Self {
        let devices = spec.and_then(|s| s.get("devices"));
        let status = object.root.get("status");
        Claim {
            object,
            namespace: object.namespace_or_default(),
            name: object.name().unwrap_or_default(),
            requests: devices
                .map(|d| list(d, "requests").iter().map(Request::decode).collect())
                .unwrap_or_default(),
            constraints: devices
                .map(|d| {
                    list(d, "constraints")
                        .iter()
                        .map(Constraint::decode)
                        .collect()
                })
                .unwrap_or_default(),
            config: devices
                .map(|d| list(d, "config").iter().map(DeviceConfig::decode).collect())
                .unwrap_or_default(),
            allocation: status
                .and_then(|s| s.get("allocation"))
                .map(Allocation::decode),
            reserved_for: status
                .map(|s| {
                    list(s, "reservedFor")
                        .iter()
                        .map(Consumer::decode)
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// The pods the claim is reserved for (entries whose resource is unset
    /// or `pods`), as `namespace/name`.
    pub fn reserved_pods(&self) -> Vec<String> {
        self.reserved_for
            .iter()
            .filter(|c| c.resource.is_none_or(|r| r == "pods") && !c.name.is_empty())
            .map(|c| format!("{}/{}", self.namespace, c.name))
            .collect()
    }
}

/// One entry of `spec.devices.requests`.
#[derive(Clone, Debug)]
pub struct Request<'t> {
    pub node: &'t Node,
    pub name: &'t str,
    pub body: RequestBody<'t>,
}

#[derive(Clone, Debug)]
pub enum RequestBody<'t> {
    /// `exactly`.
    Exactly(DeviceRequest<'t>),
    /// `firstAvailable`: the subrequests in order.
    FirstAvailable(Vec<DeviceRequest<'t>>),
    /// Neither is set (the apiserver refuses such a request).
    Empty,
}

impl<'t> Request<'t> {
    fn decode(node: &'t Node) -> Self {
        // As Go decodes it: `exactly: null` is a nil pointer, and an empty
        // `firstAvailable` is no list (`len(request.FirstAvailable) > 0`).
        let body = if let Some(exactly) = node.get("exactly").filter(|n| !n.is_null()) {
            RequestBody::Exactly(DeviceRequest::decode(exactly))
        } else if let Some(subs) = node
            .get("firstAvailable")
            .and_then(Node::as_seq)
            .filter(|s| !s.is_empty())
        {
            RequestBody::FirstAvailable(subs.iter().map(DeviceRequest::decode).collect())
        } else {
            RequestBody::Empty
        };
        Request {
            node,
            name: text(node, "name"),
            body,
        }
    }
}

/// How many devices a request wants (`allocationMode`, `count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationMode<'t> {
    /// `ExactCount` (the default) with its count (default 1).
    ExactCount(i64),
    All,
    /// A mode this release does not know.
    Unknown(&'t str),
}

/// An `exactly` request or one subrequest of `firstAvailable`.
#[derive(Clone, Debug)]
pub struct DeviceRequest<'t> {
    pub node: &'t Node,
    /// The subrequest's own name; for `exactly`, `""` (the request names it).
    pub name: &'t str,
    /// `""` when unset.
    pub device_class_name: &'t str,
    pub selectors: Vec<Selector<'t>>,
    pub mode: AllocationMode<'t>,
    /// `adminAccess` as written (unset, true or false).
    pub admin_access: Option<bool>,
    pub tolerations: Vec<Toleration<'t>>,
    /// `capacity.requests`, when `capacity` is set: (name, quantity node).
    pub capacity: Option<Vec<(&'t str, &'t Node)>>,
    /// `derivedAttributes` (1.37, DRADerivedAttributes): (name, expression).
    pub derived: Vec<(&'t str, &'t str)>,
}

impl<'t> DeviceRequest<'t> {
    fn decode(node: &'t Node) -> Self {
        let mode = match opt_text(node, "allocationMode") {
            None | Some("ExactCount") => AllocationMode::ExactCount(
                node.get("count")
                    .and_then(Node::as_i64)
                    .filter(|c| *c > 0)
                    .unwrap_or(1),
            ),
            Some("All") => AllocationMode::All,
            Some(other) => AllocationMode::Unknown(other),
        };
        DeviceRequest {
            node,
            name: text(node, "name"),
            device_class_name: text(node, "deviceClassName"),
            selectors: list(node, "selectors")
                .iter()
                .map(Selector::decode)
                .collect(),
            mode,
            admin_access: node.get("adminAccess").and_then(Node::as_bool),
            tolerations: list(node, "tolerations")
                .iter()
                .map(Toleration::decode)
                .collect(),
            capacity: node
                .get("capacity")
                .map(|c| c.get("requests").map(|r| entries_of(r)).unwrap_or_default()),
            derived: list(node, "derivedAttributes")
                .iter()
                .map(|d| (text(d, "name"), text(d, "expression")))
                .collect(),
        }
    }

    /// The expressions of the selectors that have one.
    pub fn expressions(&self) -> Vec<String> {
        expressions(&self.selectors)
    }
}

fn entries_of(n: &Node) -> Vec<(&str, &Node)> {
    n.as_map()
        .unwrap_or_default()
        .iter()
        .map(|e| (e.key.as_str(), &e.value))
        .collect()
}

/// A device selector: today only `cel`.
#[derive(Clone, Debug)]
pub struct Selector<'t> {
    pub node: &'t Node,
    /// `cel` is set.
    pub has_cel: bool,
    /// `cel.expression`, when it is a string.
    pub expression: Option<&'t str>,
}

impl<'t> Selector<'t> {
    pub(super) fn decode(node: &'t Node) -> Self {
        let cel = node.get("cel");
        Selector {
            node,
            has_cel: cel.is_some(),
            expression: cel.and_then(|c| opt_text(c, "expression")),
        }
    }
}

/// The expressions of the selectors that have one, in order.
pub fn expressions(selectors: &[Selector]) -> Vec<String> {
    selectors
        .iter()
        .filter_map(|s| s.expression.map(str::to_owned))
        .collect()
}

/// A device toleration, defaulted as the apiserver stores it.
#[derive(Clone, Debug)]
pub struct Toleration<'t> {
    pub node: &'t Node,
    pub key: &'t str,
    /// `Equal` when unset or empty (`SetDefaults_DeviceToleration`).
    pub operator: &'t str,
    pub value: &'t str,
    pub effect: &'t str,
}

impl<'t> Toleration<'t> {
    fn decode(node: &'t Node) -> Self {
        Toleration {
            node,
            key: text(node, "key"),
            operator: opt_text(node, "operator")
                .filter(|s| !s.is_empty())
                .unwrap_or("Equal"),
            value: text(node, "value"),
            effect: text(node, "effect"),
        }
    }
}

/// A `matchAttribute` or `distinctAttribute` constraint.
#[derive(Clone, Debug)]
pub struct Constraint<'t> {
    pub node: &'t Node,
    /// The requests it applies to (all when empty).
    pub requests: Vec<&'t str>,
    pub kind: ConstraintKind<'t>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind<'t> {
    MatchAttribute(&'t str),
    DistinctAttribute(&'t str),
    /// Neither is set (the allocator refuses it).
    Empty,
}

impl<'t> Constraint<'t> {
    fn decode(node: &'t Node) -> Self {
        let kind = if node.get("matchAttribute").is_some() {
            opt_text(node, "matchAttribute")
                .map_or(ConstraintKind::Empty, ConstraintKind::MatchAttribute)
        } else if node.get("distinctAttribute").is_some() {
            opt_text(node, "distinctAttribute").map_or(ConstraintKind::Empty, |a| {
                ConstraintKind::DistinctAttribute(a)
            })
        } else {
            ConstraintKind::Empty
        };
        Constraint {
            node,
            requests: strings(node, "requests"),
            kind,
        }
    }
}

/// `status.allocation`.
#[derive(Clone, Debug)]
pub struct Allocation<'t> {
    pub node: &'t Node,
    pub results: Vec<AllocationResult<'t>>,
    /// `nodeSelector`, as written.
    pub node_selector: Option<&'t Node>,
    /// `devices.config`, as written.
    pub config: &'t [Node],
}

impl<'t> Allocation<'t> {
    fn decode(node: &'t Node) -> Self {
        let devices = node.get("devices");
        Allocation {
            node,
            results: devices
                .map(|d| {
                    list(d, "results")
                        .iter()
                        .map(AllocationResult::decode)
                        .collect()
                })
                .unwrap_or_default(),
            node_selector: node.get("nodeSelector"),
            config: devices.map(|d| list(d, "config")).unwrap_or_default(),
        }
    }
}

/// One device of an allocation.
#[derive(Clone, Debug)]
pub struct AllocationResult<'t> {
    pub node: &'t Node,
    pub request: &'t str,
    /// `None` when unset (such a result names no device the scheduler tracks).
    pub driver: Option<&'t str>,
    pub pool: Option<&'t str>,
    pub device: Option<&'t str>,
    pub admin_access: Option<bool>,
    pub share_id: Option<&'t str>,
    /// Whether `shareID` is present at all (whatever its value).
    pub shared: bool,
    /// `consumedCapacity`: (name, quantity node).
    pub consumed_capacity: Option<Vec<(&'t str, &'t Node)>>,
    pub tolerations: Option<&'t Node>,
    pub binding_conditions: Option<Vec<&'t str>>,
    pub binding_failure_conditions: Option<Vec<&'t str>>,
}

impl<'t> AllocationResult<'t> {
    fn decode(node: &'t Node) -> Self {
        let present = |k: &str| node.get(k).and_then(Node::as_seq).map(|_| strings(node, k));
        AllocationResult {
            node,
            request: text(node, "request"),
            driver: opt_text(node, "driver"),
            pool: opt_text(node, "pool"),
            device: opt_text(node, "device"),
            admin_access: node.get("adminAccess").and_then(Node::as_bool),
            share_id: opt_text(node, "shareID"),
            shared: node.get("shareID").is_some(),
            consumed_capacity: node
                .get("consumedCapacity")
                .and_then(Node::as_map)
                .map(|_| entries(node, "consumedCapacity")),
            tolerations: node.get("tolerations"),
            binding_conditions: present("bindingConditions"),
            binding_failure_conditions: present("bindingFailureConditions"),
        }
    }
}

/// One entry of `status.reservedFor`.
#[derive(Clone, Debug)]
pub struct Consumer<'t> {
    pub node: &'t Node,
    /// `resource` (`pods` for a pod); `None` when unset.
    pub resource: Option<&'t str>,
    pub name: &'t str,
}

impl<'t> Consumer<'t> {
    fn decode(node: &'t Node) -> Self {
        Consumer {
            node,
            resource: opt_text(node, "resource"),
            name: text(node, "name"),
        }
    }
}
