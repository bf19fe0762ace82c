//! ResourceSlices grouped into pools, once for everyone who needs the
//! grouping (the allocator's index, the pool rules, the usage view): a pool
//! is a driver and a pool name, as the scheduler's `GatherPools` keys it.

use std::collections::BTreeMap;

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// A pool's identity: (driver, pool name).
pub type PoolKey<'a> = (&'a str, &'a str);

/// The slices of each pool, in input order, pools sorted by driver and
/// name. A slice without a driver or pool name belongs to no pool.
pub fn by_pool(objects: &[Object]) -> BTreeMap<PoolKey<'_>, Vec<&Object>> {
    let mut pools: BTreeMap<PoolKey<'_>, Vec<&Object>> = BTreeMap::new();
    for s in objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
    {
        let Some(spec) = s.spec() else { continue };
        let (Some(driver), Some(pool)) = (
            spec.get("driver").and_then(Node::as_str),
            spec.get("pool")
                .and_then(|p| p.get("name"))
                .and_then(Node::as_str),
        ) else {
            continue;
        };
        pools.entry((driver, pool)).or_default().push(s);
    }
    pools
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
