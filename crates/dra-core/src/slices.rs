//! ResourceSlices grouped into pools, once for everyone who needs the
//! grouping (the allocator's index, the pool rules, the usage view): a pool
//! is a driver and a pool name, as the scheduler's `GatherPools` keys it.

use std::collections::BTreeMap;

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// A pool's identity: (driver, pool name).
pub type PoolKey<'a> = (&'a str, &'a str);

/// Items grouped by pool, in input order, pools sorted by driver and name;
/// an item whose key is `None` belongs to no pool. The one grouping every
/// reader uses (over objects here, over typed slices in
/// [`crate::dra::Inventory::pools`]).
pub fn group_by_pool<'k, T>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> Option<PoolKey<'k>>,
) -> BTreeMap<PoolKey<'k>, Vec<T>> {
    let mut pools: BTreeMap<PoolKey<'k>, Vec<T>> = BTreeMap::new();
    for item in items {
        if let Some(k) = key(&item) {
            pools.entry(k).or_default().push(item);
        }
    }
    pools
}

/// The slices of each pool, in input order, pools sorted by driver and
/// name. A slice without a driver or pool name belongs to no pool.
pub fn by_pool(objects: &[Object]) -> BTreeMap<PoolKey<'_>, Vec<&Object>> {
    let slices = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice);
    group_by_pool(slices, |s| {
        let spec = s.spec()?;
        Some((
            spec.get("driver").and_then(Node::as_str)?,
            spec.get("pool")
                .and_then(|p| p.get("name"))
                .and_then(Node::as_str)?,
        ))
    })
}

/// The slice's `spec.pool.generation` (0 when unset).
pub fn generation(slice: &Object) -> i64 {
    slice
        .spec()
        .and_then(|s| s.get("pool"))
        .and_then(|p| p.get("generation"))
        .and_then(Node::as_i64)
        .unwrap_or(0)
}
