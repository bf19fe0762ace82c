//! ResourceSlices grouped into pools, the one grouping everyone uses (the
//! allocator's index, the pool rules, the usage view): a pool is a driver
//! and a pool name, as the scheduler's `GatherPools` keys it.

use std::collections::BTreeMap;

/// A pool's identity: (driver, pool name).
pub type PoolKey<'a> = (&'a str, &'a str);

/// Items grouped by pool, in input order, pools sorted by driver and name;
/// an item whose key is `None` belongs to no pool. The one grouping every
/// reader uses (over typed slices, keyed by [`crate::dra::Slice::pool_key`]).
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
