//! A device as one node's search sees it: the typed device of its slice,
//! with what depends on the node (whether it is on it, the taints rules
//! add) and what is built on first use (CEL view, counters, capacity).

use super::*;

/// What every device of a slice shares, read once per slice.
pub(super) struct SliceView<'a> {
    pub(super) per_device: bool,
    pub(super) shared_counters: bool,
    /// For slices that select the node themselves: (nodeName, on the node).
    pub(super) slice_selection: (Option<&'a str>, bool),
    /// The slice's `nodeSelector`, when it selects nodes by one.
    pub(super) slice_selector: Option<&'a Node>,
    /// Its name, for explanations (a device two slices repeat).
    pub(super) name: &'a str,
}

impl<'a> SliceView<'a> {
    /// With `counter_slices` (1.35+), the devices of a slice with shared
    /// counters are none of the node's (such a slice lists none).
    pub(super) fn new(
        s: &dra::Slice<'a>,
        node: &str,
        labels: Option<&Node>,
        counter_slices: bool,
    ) -> Self {
        let per_device = s.per_device();
        let slice_selection = if per_device {
            (None, false)
        } else {
            (
                bound_name(s.selection),
                selects(s.selection, node, labels) == Some(true),
            )
        };
        SliceView {
            per_device,
            shared_counters: counter_slices && !s.shared_counters.is_empty(),
            slice_selection,
            slice_selector: (!per_device).then(|| selector(s.selection)).flatten(),
            name: s.name,
        }
    }
}

pub(super) fn device_of<'a>(
    driver: &'a str,
    d: &'a dra::Device<'a>,
    slice: &SliceView<'a>,
    node: &str,
    labels: Option<&Node>,
    list_types: bool,
) -> PoolDevice<'a> {
    let ((node_name, selected), node_selector) = if slice.per_device {
        (
            (
                bound_name(d.selection),
                selects(d.selection, node, labels) == Some(true),
            ),
            selector(d.selection),
        )
    } else {
        (slice.slice_selection, slice.slice_selector)
    };
    let taints: Vec<TaintOf<'a>> = d
        .taints
        .iter()
        .map(|t| (t.key, t.value, t.effect))
        .collect();
    PoolDevice {
        driver,
        device: d,
        cel_view: std::cell::OnceCell::new(),
        sig: std::cell::OnceCell::new(),
        name: d.name,
        node: d.node,
        consumes: std::cell::OnceCell::new(),
        capacity: std::cell::OnceCell::new(),
        allow_multiple: d.allow_multiple_allocations,
        taint_rules: vec![None; taints.len()],
        taints,
        binding_conditions: &d.binding_conditions,
        binding_failure: &d.binding_failure_conditions,
        binds_to_node: d.binds_to_node,
        node_name,
        node_selector,
        list_types,
        on_node: !slice.shared_counters && selected,
        slice: slice.name,
    }
}

pub(super) fn consumes_of<'a>(d: &'a dra::Device<'a>) -> Vec<Consumption<'a>> {
    d.consumes_counters
        .iter()
        .map(|c| {
            (
                c.counter_set,
                c.counters().collect(),
                c.compatibility_groups.clone(),
            )
        })
        .collect()
}

pub(super) fn capacity_of(d: &dra::Device<'_>) -> Vec<Capacity> {
    d.capacities()
        .map(|c| Capacity {
            // Requests name capacities exactly as the slice publishes them.
            name: c.name.to_owned(),
            value: c.value,
            default: c.default,
            valid_values: c.valid_values,
            // A range without a readable minimum is no range.
            range: c.valid_range.and_then(|r| Some((r.min?, r.max, r.step))),
        })
        .collect()
}
