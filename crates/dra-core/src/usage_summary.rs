//! What is free: the device rows of [`crate::usage`] counted per group
//! (node, driver, pool, class, namespace), one level per `-g` (a tree), with
//! the pools' shared counters and the shareable devices' capacity summed.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::quantity::Quantity;
use crate::usage::DeviceRow;

/// The DeviceClasses that select each device, by (driver, pool, device).
pub type ClassesOf = HashMap<(String, String, String), Vec<String>>;

/// What a level groups by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupBy {
    Node,
    Driver,
    Pool,
    /// The DeviceClasses that select the device (a device two classes
    /// select counts in both; one no class selects is `(no class)`).
    Class,
    /// The namespaces of the claims holding the device (`(not held)` for a
    /// device no claim holds).
    Namespace,
}

impl GroupBy {
    pub fn parse(s: &str) -> Option<GroupBy> {
        Some(match s {
            "node" => GroupBy::Node,
            "driver" => GroupBy::Driver,
            "pool" => GroupBy::Pool,
            "class" => GroupBy::Class,
            "namespace" | "ns" => GroupBy::Namespace,
            _ => return None,
        })
    }
}

/// One group: its path (one key per level), and its counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Group {
    pub keys: Vec<String>,
    pub devices: usize,
    /// Held by a claim (allocated or reserved for a pod).
    pub allocated: usize,
    pub free: usize,
    /// Not held, but tainted.
    pub tainted: usize,
    /// Not held, but a shared counter it needs is used up.
    pub blocked: usize,
    /// Shared counters of the group's pools: name (`set/counter`), used, total.
    pub counters: Vec<Amount>,
    /// Capacity of the group's shareable devices: name, consumed, total.
    pub capacity: Vec<Amount>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Amount {
    pub name: String,
    pub used: String,
    pub total: String,
}

/// The keys of a row at one level.
fn keys_of(
    row: &DeviceRow,
    by: GroupBy,
    classes: &HashMap<(String, String, String), Vec<String>>,
) -> Vec<String> {
    match by {
        GroupBy::Node => vec![if row.node.is_empty() {
            "(no node)".into()
        } else {
            row.node.clone()
        }],
        GroupBy::Driver => vec![row.driver.clone()],
        GroupBy::Pool => vec![format!("{}/{}", row.driver, row.pool)],
        GroupBy::Class => {
            let key = (row.driver.clone(), row.pool.clone(), row.device.clone());
            match classes.get(&key).filter(|c| !c.is_empty()) {
                Some(c) => c.clone(),
                None => vec!["(no class)".into()],
            }
        }
        GroupBy::Namespace => {
            let ns: BTreeSet<String> = row.holders.iter().map(|h| h.namespace.clone()).collect();
            if ns.is_empty() {
                vec!["(not held)".into()]
            } else {
                ns.into_iter().collect()
            }
        }
    }
}

/// Every group of every level, parents before their children, keys in
/// order. `classes` maps a device (driver, pool, name) to the classes that
/// select it (only read for [`GroupBy::Class`]).
pub fn summarize(rows: &[DeviceRow], levels: &[GroupBy], classes: &ClassesOf) -> Vec<Group> {
    // Each row's key paths: the product of its keys per level.
    let mut groups: BTreeMap<Vec<String>, (Group, Counters)> = BTreeMap::new();
    for row in rows {
        let mut paths: Vec<Vec<String>> = vec![Vec::new()];
        for &by in levels {
            let keys = keys_of(row, by, classes);
            paths = paths
                .iter()
                .flat_map(|p| {
                    keys.iter().map(move |k| {
                        let mut q = p.clone();
                        q.push(k.clone());
                        q
                    })
                })
                .collect();
            for p in &paths {
                let (g, c) = groups.entry(p.clone()).or_insert_with(|| {
                    (
                        Group {
                            keys: p.clone(),
                            ..Group::default()
                        },
                        Counters::default(),
                    )
                });
                count(g, c, row);
            }
        }
        if levels.is_empty() {
            let (g, c) = groups.entry(Vec::new()).or_default();
            count(g, c, row);
        }
    }
    groups
        .into_values()
        .map(|(mut g, c)| {
            g.counters = c.counters.into_values().map(Amount::from).collect();
            g.capacity = c.capacity.into_values().map(Amount::from).collect();
            g
        })
        .collect()
}

/// Sums per name; a pool's counter is the same on every device row of the
/// pool, so it is counted once per (pool, counter).
#[derive(Default)]
struct Counters {
    seen: BTreeSet<(String, String, String)>,
    counters: BTreeMap<String, (String, Quantity, Quantity)>,
    capacity: BTreeMap<String, (String, Quantity, Quantity)>,
}

impl From<(String, Quantity, Quantity)> for Amount {
    fn from((name, used, total): (String, Quantity, Quantity)) -> Self {
        Amount {
            name,
            used: used.human(),
            total: total.human(),
        }
    }
}

fn add(
    into: &mut BTreeMap<String, (String, Quantity, Quantity)>,
    name: &str,
    used: &str,
    total: &str,
) {
    let (Ok(used), Ok(total)) = (Quantity::parse(used), Quantity::parse(total)) else {
        return;
    };
    let e = into
        .entry(name.to_owned())
        .or_insert_with(|| (name.to_owned(), Quantity::zero(), Quantity::zero()));
    e.1 = e.1.checked_add(&used).unwrap_or(e.1);
    e.2 = e.2.checked_add(&total).unwrap_or(e.2);
}

fn count(g: &mut Group, c: &mut Counters, row: &DeviceRow) {
    g.devices += 1;
    match row.state {
        _ if !row.holders.is_empty() => g.allocated += 1,
        "tainted" => g.tainted += 1,
        "blocked" => g.blocked += 1,
        _ => g.free += 1,
    }
    for u in &row.counters {
        let key = (row.driver.clone(), row.pool.clone(), u.name.clone());
        if c.seen.insert(key) {
            add(&mut c.counters, &u.name, &u.used, &u.total);
        }
    }
    for u in &row.capacity {
        add(&mut c.capacity, &u.name, &u.used, &u.total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::{Holder, Use};

    fn row(node: &str, device: &str, state: &'static str, ns: Option<&str>) -> DeviceRow {
        DeviceRow {
            node: node.into(),
            driver: "gpu.example.com".into(),
            pool: node.into(),
            device: device.into(),
            state,
            holders: ns
                .map(|n| Holder {
                    namespace: n.into(),
                    claim: "c".into(),
                    request: "r".into(),
                    reserved_for: vec![],
                })
                .into_iter()
                .collect(),
            taints: vec![],
            blocked_by: None,
            counters: vec![Use {
                name: "gpu-0/memory".into(),
                consumes: Some("40Gi".into()),
                used: "40Gi".into(),
                total: "80Gi".into(),
            }],
            capacity: vec![],
        }
    }

    #[test]
    fn counts_per_level_with_counters_once_per_pool() {
        let rows = vec![
            row("a", "d0", "allocated", Some("team-a")),
            row("a", "d1", "free", None),
            row("b", "d0", "tainted", None),
        ];
        let g = summarize(&rows, &[GroupBy::Node, GroupBy::Namespace], &HashMap::new());
        let keys: Vec<Vec<String>> = g.iter().map(|g| g.keys.clone()).collect();
        assert_eq!(
            keys,
            [
                vec!["a"],
                vec!["a", "(not held)"],
                vec!["a", "team-a"],
                vec!["b"],
                vec!["b", "(not held)"]
            ]
            .iter()
            .map(|k| k.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
        );
        assert_eq!((g[0].devices, g[0].allocated, g[0].free), (2, 1, 1));
        assert_eq!(g[3].tainted, 1);
        // Node a's pool counter once, not once per device.
        assert_eq!(g[0].counters[0].used, "40Gi");
        assert_eq!(g[0].counters[0].total, "80Gi");
    }
}
