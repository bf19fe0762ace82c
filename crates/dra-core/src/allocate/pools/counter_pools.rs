//! Pools that a counter slice puts on every node, and that change an answer
//! there.
//!
//! In 1.35, 1.36 and 1.37's stable implementation GatherPools takes a slice
//! with shared counters for every node (`if len(slice.Spec.SharedCounters) > 0
//! { relevant = true }`, and NewAllocator puts such slices with the shared
//! ones). On a node that sees none of the pool's devices the pool is empty,
//! which changes nothing, unless it is incomplete or invalid: then a request
//! for all devices fails ("asks for all devices, but resource pool ... is
//! currently being updated" / "... invalid", validateDeviceRequest) and a
//! failed search names invalid pools. Only those pools are added to every
//! node's list; adding every partitionable pool would make each node visit
//! every pool of the fleet.

use super::*;

/// Whether the pool's newest generation has a slice with shared counters
/// and is incomplete or invalid whatever the node: missing slices, a
/// counter set defined twice, or a device consuming a counter set or
/// counter no slice of the generation defines (buildPool's
/// getAndValidateCounterSets and validateDeviceCounterConsumption over the
/// slices not targeting the node).
pub(super) fn broken_counter_pool(slices: &[dra::Slice<'_>]) -> bool {
    let Some(newest) = slices.iter().map(|s| s.pool.generation).max() else {
        return false;
    };
    let current: Vec<&dra::Slice<'_>> = slices
        .iter()
        .filter(|s| s.pool.generation == newest)
        .collect();
    if !current.iter().any(|s| !s.shared_counters.is_empty()) {
        return false;
    }
    if current.len() as i64 != current[0].pool.resource_slice_count {
        return true;
    }
    let mut sets: HashMap<&str, &dra::CounterSet<'_>> = HashMap::new();
    for cs in current.iter().flat_map(|s| &s.shared_counters) {
        if sets.insert(cs.name, cs).is_some() {
            return true;
        }
    }
    // Read from the device nodes: decoding every pool's devices here would
    // decode the whole fleet's, which the search decodes only where it goes.
    current
        .iter()
        .flat_map(|s| s.consumed_counters())
        .any(|(set, counter)| sets.get(set).is_none_or(|cs| !cs.has_counter(counter)))
}
