//! What the explanation reports per request and per group of requests:
//! the funnel of each request, the taints, counters and holders behind a
//! step, and the blocks that keep requests with enough devices apart.

use serde::Serialize;
use std::collections::BTreeMap;

/// Why a request found no device, step by step (the explanation's funnel).
/// Each count is a subset of the one before, in the order the steps are listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Funnel {
    pub claim: String,
    pub request: String,
    /// Devices on the node (in usable pools).
    pub devices: usize,
    #[serde(rename = "passClassSelectors")]
    pub pass_class: usize,
    #[serde(rename = "passRequestSelectors")]
    pub pass_request: usize,
    #[serde(rename = "notTainted")]
    pub untainted: usize,
    /// The taints (`key=value:Effect`) no toleration of the request covers.
    #[serde(rename = "untoleratedTaints")]
    pub taints: Vec<String>,
    /// The same taints with where each comes from.
    #[serde(rename = "taintSources")]
    pub taint_sources: Vec<TaintSource>,
    #[serde(rename = "notInUse")]
    pub free: usize,
    /// Claims that hold matching devices.
    #[serde(rename = "heldBy")]
    pub held_by: Vec<String>,
    /// The pods those claims are reserved for (`status.reservedFor`), but
    /// not of a claim being deleted, whose reservedFor is stale.
    #[serde(rename = "heldByPods")]
    pub held_by_pods: Vec<String>,
    /// Holders being deleted (a deletionTimestamp), kept by finalizers:
    /// their devices stay allocated until the claim is deallocated.
    #[serde(rename = "heldByDeleting")]
    pub held_by_deleting: Vec<DeletingHolder>,
    /// Devices whose shared counters still have room for them.
    #[serde(rename = "countersLeft")]
    pub counters_left: usize,
    /// The first shortfall seen: counter set, counter, needed, left.
    #[serde(rename = "counterShortfall")]
    pub shortfall: Option<String>,
    /// The same shortfall as fields.
    #[serde(rename = "counterShortfallDetail")]
    pub shortfall_detail: Option<CounterShortfall>,
    /// Claims holding devices that draw on the short counter sets.
    #[serde(rename = "counterHolders")]
    pub counter_holders: Vec<String>,
    /// The same, device by device: which claim's device draws how much of
    /// which counter of the short set.
    #[serde(rename = "counterHolderDevices")]
    pub counter_holder_devices: Vec<CounterHolder>,
    /// Devices whose compatibility groups agree with the devices already allocated
    /// from the same counter set.
    #[serde(rename = "compatibleGroups")]
    pub compatible: usize,
    #[serde(rename = "groupConflict")]
    pub group_conflict: Option<String>,
    /// Devices with consumable capacity left for the request.
    #[serde(rename = "capacityLeft")]
    pub capacity_left: usize,
    #[serde(rename = "capacityShortfall")]
    pub capacity_shortfall: Option<String>,
    /// When a device's requestPolicy caps one allocation below the amount
    /// asked: the cap, as fields (the advice asks for no more).
    #[serde(rename = "capacityCap", skip_serializing_if = "Option::is_none")]
    pub capacity_cap: Option<CapacityCap>,
    /// Devices that publish every attribute the claim's constraints on this
    /// request name (a device without it can never satisfy the constraint).
    #[serde(rename = "haveConstraintAttributes")]
    pub constrained: usize,
    #[serde(rename = "missingAttribute")]
    pub missing_attribute: Option<String>,
    pub needed: usize,
    /// allocationMode All: `needed` is every matching device.
    #[serde(rename = "allMatching")]
    pub all: bool,
}

/// An allocated device that draws on a counter set another device needs.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CounterHolder {
    pub claim: String,
    /// The device (name in its pool).
    pub device: String,
    #[serde(rename = "counterSet")]
    pub counter_set: String,
    /// Counter name to the amount the device consumes (`8Gi`).
    pub counters: BTreeMap<String, String>,
}

/// A device that needs more of a shared counter than is left.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CounterShortfall {
    #[serde(rename = "counterSet")]
    pub counter_set: String,
    pub counter: String,
    /// Quantities as Kubernetes writes them (`8Gi`).
    pub needed: String,
    pub left: String,
    /// The device (name in its pool) that needs it.
    pub device: String,
}

/// A requestPolicy that gives one allocation less than the request asks.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CapacityCap {
    /// The device (name in its pool).
    pub device: String,
    pub capacity: String,
    /// What the request consumes (rounded up as the policy says).
    pub asked: String,
    /// The most one allocation may consume: validRange.max, or the largest
    /// of validValues.
    pub max: String,
    /// Whether the device has that much left now (the advice to ask for at
    /// most `max` works on it).
    #[serde(rename = "maxIsFree")]
    pub max_is_free: bool,
}

/// A claim that holds devices while it is being deleted.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DeletingHolder {
    pub claim: String,
    /// Its `metadata.deletionTimestamp`.
    pub since: String,
    /// Its `metadata.finalizers`: what keeps it.
    pub finalizers: Vec<String>,
}

/// An untolerated taint and where it comes from: a DeviceTaintRule, or the
/// device's own taints in its ResourceSlice.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TaintSource {
    pub key: String,
    pub value: String,
    pub effect: String,
    #[serde(rename = "deviceTaintRule")]
    pub device_taint_rule: Option<String>,
    /// The rule's deviceSelector is empty or omitted: the defect is the
    /// rule, which taints every device of every driver.
    #[serde(
        rename = "ruleSelectsEveryDevice",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub rule_selects_every_device: bool,
    /// `driver/pool/device` of the first device seen with it.
    pub device: String,
}

/// One step of a [`Funnel`]: the devices left after it, and what it found
/// about those it dropped. Every rendering of the funnel reads this table.
#[derive(Clone, Debug, PartialEq)]
pub struct FunnelStep<'f> {
    pub label: &'static str,
    pub count: usize,
    /// Who holds the devices in use, which counter set is short, ...
    pub note: Option<std::borrow::Cow<'f, str>>,
    /// The note is worth showing even when the step dropped nothing (who
    /// holds matching devices explains a later shortfall too).
    pub note_always: bool,
}

impl Funnel {
    /// The untolerated taints in words, each with its origin.
    pub fn taint_text(&self) -> Option<String> {
        let parts: Vec<String> = self
            .taint_sources
            .iter()
            .map(|t| {
                let taint = if t.value.is_empty() {
                    format!("{}:{}", t.key, t.effect)
                } else {
                    format!("{}={}:{}", t.key, t.value, t.effect)
                };
                match &t.device_taint_rule {
                    Some(r) if t.rule_selects_every_device => format!(
                        "{taint} from DeviceTaintRule {r}, whose deviceSelector is empty: it taints every device of every driver"
                    ),
                    Some(r) => format!("{taint} from DeviceTaintRule {r}"),
                    None => format!("{taint} on device {} (its ResourceSlice)", t.device),
                }
            })
            .collect();
        (!parts.is_empty()).then(|| format!("untolerated: {}", parts.join("; ")))
    }

    /// The steps, in order.
    pub fn steps(&self) -> [FunnelStep<'_>; 9] {
        use std::borrow::Cow;
        fn step<'f>(label: &'static str, count: usize, note: Option<&'f String>) -> FunnelStep<'f> {
            FunnelStep {
                label,
                count,
                note: note.map(|n| Cow::Borrowed(n.as_str())),
                note_always: false,
            }
        }
        let held_by = FunnelStep {
            note: (!self.held_by.is_empty())
                .then(|| Cow::Owned(format!("held by {}", self.held_by.join(", ")))),
            note_always: true,
            ..step("not in use", self.free, None)
        };
        [
            step("devices", self.devices, None),
            step("pass the class selectors", self.pass_class, None),
            step("pass the request selectors", self.pass_request, None),
            FunnelStep {
                note: self.taint_text().map(Cow::Owned),
                ..step("not tainted, or tolerated", self.untainted, None)
            },
            held_by,
            FunnelStep {
                // The shortfall, and which allocated device draws on the set.
                note: self.shortfall.as_ref().map(|short| {
                    let holders: Vec<String> = self
                        .counter_holder_devices
                        .iter()
                        .take(3)
                        .map(|h| {
                            let drawn: Vec<String> =
                                h.counters.iter().map(|(c, q)| format!("{c} {q}")).collect();
                            format!("{} (device {}: {})", h.claim, h.device, drawn.join(", "))
                        })
                        .collect();
                    match holders.as_slice() {
                        [] => Cow::Borrowed(short.as_str()),
                        _ => Cow::Owned(format!("{short}; drawn by {}", holders.join(", "))),
                    }
                }),
                ..step("with shared counters left", self.counters_left, None)
            },
            step(
                "with compatible groups",
                self.compatible,
                self.group_conflict.as_ref(),
            ),
            step(
                "with capacity left",
                self.capacity_left,
                self.capacity_shortfall.as_ref(),
            ),
            step(
                "with the constraints' attributes",
                self.constrained,
                self.missing_attribute.as_ref(),
            ),
        ]
    }

    /// Whether the request has enough devices on its own.
    pub fn enough(&self) -> bool {
        self.constrained >= self.needed
    }
}

/// A constraint that no choice of devices can satisfy, even though every
/// request it spans has enough devices on its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstraintBlock {
    pub claim: String,
    /// `matchAttribute`, `distinctAttribute`, or `sharedDevices` (requests
    /// that draw on the same devices need more than there are).
    pub kind: &'static str,
    /// The constraint's attribute; empty for `sharedDevices`.
    pub attribute: String,
    pub requests: Vec<String>,
    pub message: String,
    /// `sharedDevices`: how many devices the requests need together, and
    /// how many distinct devices match them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<usize>,
    /// `sharedCounters`: the counter the devices together need more of than
    /// is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<CounterDemand>,
    /// `sharedDevices`: the devices the requests draw on (the first few,
    /// `driver/pool/device`), none of which allows multiple allocations.
    #[serde(rename = "exclusiveDevices", skip_serializing_if = "Vec::is_empty")]
    pub exclusive_devices: Vec<String>,
    /// `sharedDevices`: the requests need more devices together than the
    /// node has even with every holder gone (the holders are not the cause).
    #[serde(rename = "evenIfFreed", skip_serializing_if = "std::ops::Not::not")]
    pub even_if_freed: bool,
}

/// The least the devices a group of requests needs draw from one counter,
/// against what the counter set has left.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CounterDemand {
    pub pool: String,
    pub counter_set: String,
    pub counter: String,
    /// Quantities as Kubernetes writes them (`60Gi`).
    pub at_least: String,
    pub left: String,
}
