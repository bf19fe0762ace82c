//! A device as one node's search sees it: read from the slice's tree once
//! per node (names borrowed, counters and capacity parsed on first use).

use super::*;

/// What every device of a slice shares, read once per slice.
pub(super) struct SliceView<'a> {
    pub(super) per_device: bool,
    pub(super) shared_counters: bool,
    /// For slices that select the node themselves: (nodeName, on the node).
    pub(super) slice_selection: (Option<&'a str>, bool),
    /// The slice's `nodeSelector`, when it selects nodes by one.
    pub(super) slice_selector: Option<&'a Node>,
}

impl<'a> SliceView<'a> {
    pub(super) fn new(spec: &'a Node, node: &str, labels: Option<&Node>) -> Self {
        let per_device = spec.get("perDeviceNodeSelection").and_then(Node::as_bool) == Some(true);
        let shared_counters = spec.get("sharedCounters").is_some();
        let slice_selection = if per_device {
            (None, false)
        } else {
            (
                spec.get("nodeName").and_then(Node::as_str),
                selects_node(spec, node, labels) == Some(true),
            )
        };
        SliceView {
            per_device,
            shared_counters,
            slice_selection,
            slice_selector: (!per_device).then(|| spec.get("nodeSelector")).flatten(),
        }
    }
}

pub(super) fn device_of<'a>(
    driver: &'a str,
    d: &'a Node,
    slice: &SliceView<'a>,
    node: &str,
    labels: Option<&Node>,
    list_types: bool,
) -> PoolDevice<'a> {
    let ((node_name, selected), node_selector) = if slice.per_device {
        (
            (
                d.get("nodeName").and_then(Node::as_str),
                selects_node(d, node, labels) == Some(true),
            ),
            d.get("nodeSelector"),
        )
    } else {
        (slice.slice_selection, slice.slice_selector)
    };
    let on_node = !slice.shared_counters && selected;
    // One pass over the device's fields (this runs for every device of
    // every node tried).
    let (mut name, mut allow_multiple, mut binds_to_node) = ("", false, false);
    let (mut taint_list, mut conditions, mut failure_conditions, mut consumption): (
        &[Node],
        &[Node],
        &[Node],
        &[Node],
    ) = (&[], &[], &[], &[]);
    for e in d.as_map().unwrap_or_default() {
        match e.key.as_str() {
            "name" => name = e.value.as_str().unwrap_or_default(),
            "allowMultipleAllocations" => allow_multiple = e.value.as_bool() == Some(true),
            "bindsToNode" => binds_to_node = e.value.as_bool() == Some(true),
            "taints" => taint_list = e.value.as_seq().unwrap_or_default(),
            "bindingConditions" => conditions = e.value.as_seq().unwrap_or_default(),
            "bindingFailureConditions" => failure_conditions = e.value.as_seq().unwrap_or_default(),
            "consumesCounters" => consumption = e.value.as_seq().unwrap_or_default(),
            _ => {}
        }
    }
    let strings = |list: &[Node]| -> Vec<String> {
        list.iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    let taints: Vec<(String, String, String)> = taint_list
        .iter()
        .map(|t| {
            let s = |k: &str| {
                t.get(k)
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            (s("key"), s("value"), s("effect"))
        })
        .collect();
    PoolDevice {
        driver,
        cel_view: std::cell::OnceCell::new(),
        sig: std::cell::OnceCell::new(),
        name,
        node: d,
        consumption,
        consumes: std::cell::OnceCell::new(),
        capacity: std::cell::OnceCell::new(),
        allow_multiple,
        taint_rules: vec![None; taints.len()],
        taints,
        binding_conditions: strings(conditions),
        binding_failure: strings(failure_conditions),
        binds_to_node,
        node_name,
        node_selector,
        list_types,
        on_node,
    }
}

/// Reads every device's field names before the devices are read one by one.
/// A node's devices are usually not in the cache: these loads do not depend
/// on each other, so the CPU overlaps their misses, where reading device
/// after device waits for each in turn (measured: the first read of each
/// device was most of the time of building a node's pools).
pub(super) fn warm_fields(devices: &[Node]) {
    let mut sum = 0usize;
    for d in devices {
        for e in d.as_map().unwrap_or_default() {
            sum = sum.wrapping_add(e.key.len());
        }
    }
    std::hint::black_box(sum);
}

pub(super) fn consumes_of(consumption: &[Node]) -> Vec<Consumption<'_>> {
    consumption
        .iter()
        .map(|c| {
            let set = c
                .get("counterSet")
                .and_then(Node::as_str)
                .unwrap_or_default();
            let counters = c
                .get("counters")
                .and_then(Node::as_map)
                .unwrap_or_default()
                .iter()
                .filter_map(|e| Some((e.key.as_str(), q(e.value.get("value"))?)))
                .collect();
            let groups = c
                .get("compatibilityGroups")
                .and_then(Node::as_seq)
                .filter(|g| !g.is_empty())
                .map(|g| g.iter().filter_map(Node::as_str).collect());
            (set, counters, groups)
        })
        .collect()
}

pub(super) fn capacity_of(d: &Node) -> Vec<Capacity> {
    d.get("capacity")
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let value = q(e.value.get("value"))?;
            let rp = e.value.get("requestPolicy");
            let range = rp
                .and_then(|p| p.get("validRange"))
                .and_then(|r| Some((q(r.get("min"))?, q(r.get("max")), q(r.get("step")))));
            // Requests name capacities exactly as the slice publishes them.
            let name = e.key.to_string();
            Some(Capacity {
                name,
                value,
                default: q(rp.and_then(|p| p.get("default"))),
                valid_values: rp
                    .and_then(|p| p.get("validValues"))
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|v| q(Some(v)))
                    .collect(),
                range,
            })
        })
        .collect()
}
