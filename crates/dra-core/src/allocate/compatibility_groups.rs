//! Compatibility groups (DRADeviceCompatibilityGroups): devices that draw on
//! the same counter set may be allocated together only while their groups
//! intersect (§10).

use super::*;

impl<'a> Search<'a> {
    /// Compatibility groups (§10): returns the previous states to restore.
    pub(super) fn groups_fit(&mut self, r: DevRef) -> Option<GroupUndo<'a>> {
        let consumes = self.pools[r.pool].devices[r.index].consumes();
        // Gate off: a device with groups is never allocated, one without
        // has nothing to track.
        if !self.gates.enabled(Gate::DRADeviceCompatibilityGroups) {
            return match consumes.iter().any(|(_, _, g)| g.is_some()) {
                true => None,
                false => Some(Vec::new()),
            };
        }
        let mut changes = Vec::new();
        for (set, _, groups) in consumes {
            let key = (r.pool, *set);
            let prev = self.groups.get(&key).cloned();
            let next = match (&prev, groups) {
                (None, g) => g.clone(),
                (Some(None), None) => None,
                (Some(None), Some(_)) | (Some(Some(_)), None) => return None,
                (Some(Some(run)), Some(g)) => {
                    let inter: Vec<&str> = run.iter().filter(|x| g.contains(x)).copied().collect();
                    if inter.is_empty() {
                        return None;
                    }
                    Some(inter)
                }
            };
            changes.push((key, prev));
            self.groups.insert(key, next);
        }
        Some(changes)
    }

    pub(super) fn undo_groups(&mut self, changes: GroupUndo<'a>) {
        for (key, prev) in changes.into_iter().rev() {
            match prev {
                Some(p) => {
                    self.groups.insert(key, p);
                }
                None => {
                    self.groups.remove(&key);
                }
            }
        }
    }
}
